"""What one seat may know (RULES.md §9), built by one function for every consumer.

Bots, faces, the protocol server and the RL env all get an ``Observation``
from ``observe`` and nothing else, so a leak of hidden cards can only happen
here, and the tests check exactly this function.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from callbreak.cards import CARD_NAMES, hand_names
from callbreak.points import Points
from callbreak.rules import Rules

if TYPE_CHECKING:
    from callbreak.engine.deal import Deal


@dataclass(frozen=True)
class TrickView:
    """A trick as anyone at the table saw it."""

    leader: int
    cards: tuple[str, ...]
    winner: int | None  # None while the trick is in progress

    def seats(self, players: int) -> tuple[int, ...]:
        """Seat that played each card, in play order."""
        return tuple((self.leader + i) % players for i in range(len(self.cards)))


@dataclass(frozen=True)
class Observation:
    """One seat's view of a deal (and of the match around it, when there is one).

    Masks (``hand_mask``, ``played_mask``) are there for bots that think in bits;
    names are there for people and JSON.
    """

    seat: int
    players: int
    rules: Rules
    dealer: int
    phase: str
    to_act: int | None
    hand: tuple[str, ...]
    hand_mask: int
    legal: tuple[Any, ...]
    calls: tuple[int | None, ...]
    misdeal_claims: tuple[tuple[int, bool], ...]
    declared_voids: tuple[str, ...]
    tricks_won: tuple[int, ...]
    history: tuple[TrickView, ...]
    trick: TrickView
    played_mask: int
    points: tuple[Points, ...] | None
    void_reason: str | None
    totals: tuple[Points, ...] | None = None
    deal_number: int | None = None
    """1-based number of this deal in its match (None outside a match)."""
    counting_seats: tuple[int, ...] | None = None
    """In a tie-break deal, the seats whose points count; None otherwise."""

    @property
    def my_turn(self) -> bool:
        return self.to_act == self.seat

    @property
    def trick_number(self) -> int:
        return len(self.history)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view for faces and remote clients."""

        def trick_dict(trick: TrickView) -> dict[str, Any]:
            return {"leader": trick.leader, "cards": list(trick.cards), "winner": trick.winner}

        def pts(values: tuple[Points, ...] | None) -> list[int | float] | None:
            return None if values is None else [p.json() for p in values]

        return {
            "seat": self.seat,
            "players": self.players,
            "rules": self.rules.to_dict(),
            "dealer": self.dealer,
            "phase": self.phase,
            "to_act": self.to_act,
            "hand": list(self.hand),
            "legal": list(self.legal),
            "calls": list(self.calls),
            "misdeal_claims": [list(c) for c in self.misdeal_claims],
            "declared_voids": list(self.declared_voids),
            "tricks_won": list(self.tricks_won),
            "history": [trick_dict(t) for t in self.history],
            "trick": trick_dict(self.trick),
            "points": pts(self.points),
            "void_reason": self.void_reason,
            "totals": pts(self.totals),
            "deal_number": self.deal_number,
            "counting_seats": None if self.counting_seats is None else list(self.counting_seats),
        }


def observe(
    deal: Deal,
    seat: int,
    totals: list[Points] | None = None,
    deal_number: int | None = None,
    counting_seats: list[int] | None = None,
) -> Observation:
    """``seat``'s observation of ``deal``: its own hand and everything public, nothing else."""
    if not 0 <= seat < deal.players:
        raise ValueError(f"seat must be from 0 to {deal.players - 1}, not {seat!r}")
    played = 0
    history = []
    for leader, cards, winner in deal.history:
        for card in cards:
            played |= 1 << card
        history.append(TrickView(leader, tuple(CARD_NAMES[c] for c in cards), winner))
    for card in deal.trick:
        played |= 1 << card
    points = deal.points
    # Calls are made in turn, so a seat sees only calls already made; all are public.
    return Observation(
        seat=seat,
        players=deal.players,
        rules=deal.rules,
        dealer=deal.dealer,
        phase=deal.phase,
        to_act=deal.to_act,
        hand=tuple(hand_names(deal.hands[seat])),
        hand_mask=deal.hands[seat],
        legal=tuple(deal.legal()) if deal.to_act == seat else (),
        calls=tuple(deal.calls),
        misdeal_claims=tuple(deal.claims),
        declared_voids=tuple(deal.declared_voids),
        tricks_won=tuple(deal.tricks),
        history=tuple(history),
        trick=TrickView(deal.leader, tuple(CARD_NAMES[c] for c in deal.trick), None),
        played_mask=played,
        points=None if points is None else tuple(points),
        void_reason=deal.void_reason,
        totals=None if totals is None else tuple(totals),
        deal_number=deal_number,
        counting_seats=None if counting_seats is None else tuple(counting_seats),
    )
