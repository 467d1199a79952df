"""What one seat may know (docs/rules/what-bots-know.md), built by one function for every consumer.

Bots, faces, the protocol server and the RL env all get an ``Observation``
from ``observe`` and nothing else, so a leak of hidden cards can only happen
here, and the tests check exactly this function.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, TypeVar

from callbreak.points import Points
from callbreak.rules import Rules

if TYPE_CHECKING:
    from callbreak.engine.parts import DealState


@dataclass(frozen=True)
class TrickView:
    """A trick as anyone at the table saw it."""

    leader: int
    cards: tuple[str, ...]
    winner: int | None  # None while the trick is in progress
    active: tuple[int, ...] = ()
    """The seats playing this deal when some sit out; empty when everyone plays."""

    def seats(self, players: int) -> tuple[int, ...]:
        """Seat that played each card, in play order."""
        if not self.active:
            return tuple((self.leader + i) % players for i in range(len(self.cards)))
        if not self.cards:
            return ()  # before the lead the leader may still be a seat that sat out
        at = self.active.index(self.leader)
        order = self.active[at:] + self.active[:at]
        return order[: len(self.cards)]


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
    game: str = "callbreak"
    trump: str | None = "S"
    """Trump of this deal as a letter (``S``; Rook colours ``R Y G B``), None if none yet."""
    bids: tuple[tuple[int, int | str], ...] = ()
    """The auction so far: (seat, bid or "pass")."""
    contract: int | None = None
    declarer: int | None = None
    active: tuple[int, ...] = ()
    """Seats playing this deal, in seat order."""
    upcard: str | None = None
    partner_card: str | None = None
    """The card the declarer called (Call Partner): public once called."""
    partner: int | None = None
    """Its holder: known to everyone once the card is played, and to the holder itself."""
    nest: tuple[str, ...] | None = None
    """The nest as dealt: only the declarer's observation has it, once it has taken it."""
    discards: tuple[str, ...] | None = None
    """The declarer's own discards: only in its own observation."""
    card_points: tuple[int, ...] | None = None
    """Call Partner: card points each seat has taken in tricks so far."""
    dealt_in: tuple[int, ...] = ()
    """Seats dealt in this deal (Snarples: all but those out of the game)."""
    dropped: tuple[int, ...] = ()
    """Seats that dropped or sat out this deal."""
    chooser: int | None = None
    """Who names (or named) trump this deal."""
    exchanges: tuple[tuple[int, int], ...] = ()
    """Horsethief: (seat, cards exchanged) so far."""
    reversed_ranks: bool = False
    """Donut's 6: ranks run 2 high … A low this deal."""
    settled: str | None = None
    """Snarples, all others sat out: the bidder's "take" or "give"."""
    unplayed: str | None = None
    """Why the deal ended before its play, if it did."""
    stock_size: int = 0
    """Cards left in the stock (Horsethief draws from it); never which."""
    hand_size: int = 0
    """Cards dealt to each seat this deal (Oh Hell's change deal by deal)."""
    blind_nils: tuple[int, ...] = ()
    """Spades: the seats that bid blind nil."""

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
            "game": self.game,
            "trump": self.trump,
            "bids": [list(b) for b in self.bids],
            "contract": self.contract,
            "declarer": self.declarer,
            "active": list(self.active),
            "upcard": self.upcard,
            "partner_card": self.partner_card,
            "partner": self.partner,
            "nest": None if self.nest is None else list(self.nest),
            "discards": None if self.discards is None else list(self.discards),
            "card_points": None if self.card_points is None else list(self.card_points),
            "dealt_in": list(self.dealt_in),
            "dropped": list(self.dropped),
            "chooser": self.chooser,
            "exchanges": [list(e) for e in self.exchanges],
            "reversed_ranks": self.reversed_ranks,
            "settled": self.settled,
            "unplayed": self.unplayed,
            "stock_size": self.stock_size,
            "hand_size": self.hand_size,
            "blind_nils": list(self.blind_nils),
        }


def observe(
    deal: DealState,
    seat: int,
    totals: list[Points] | None = None,
    deal_number: int | None = None,
    counting_seats: list[int] | None = None,
) -> Observation:
    """``seat``'s observation of ``deal``: its own hand and everything public, nothing else.

    ``seat=None`` is not allowed here; a spectator's view is ``observe_public``, built
    without any private piece rather than by deleting them afterwards.
    """
    if type(seat) is not int and (
        isinstance(seat, bool) or not isinstance(seat, numbers.Integral)
    ):  # "1" would fail on the comparison below with a TypeError, True pass as seat 1
        raise ValueError(f"seat must be a whole number from 0 to {deal.players - 1}, not {seat!r}")
    if not 0 <= seat < deal.players:
        raise ValueError(f"seat must be from 0 to {deal.players - 1}, not {seat!r}")
    return _build(deal, seat, totals, deal_number, counting_seats)


def observe_public(
    deal: DealState,
    totals: list[Points] | None = None,
    deal_number: int | None = None,
    counting_seats: list[int] | None = None,
) -> Observation:
    """What a spectator sees: everything public and no hand (``seat`` is -1, ``hand`` empty)."""
    return _build(deal, -1, totals, deal_number, counting_seats)


def _build(
    deal: DealState,
    seat: int,
    totals: list[Points] | None,
    deal_number: int | None,
    counting_seats: list[int] | None,
) -> Observation:
    """The shared pieces (the seat's own hand, the tricks, what the dealing left face up),
    then each of the deal's parts adds what it shows everyone and, for a seat, what it
    shows that seat alone: the parts declare their secrets, so nothing here names a phase."""
    names = deal.deck.names
    history, played = _past_tricks(deal)
    current = deal.trick
    for card in current:
        played |= 1 << card
    points = deal.points
    n = deal.players
    hand = deal.hands[seat] if seat >= 0 else 0
    upcard = deal.upcard
    rules = deal.rules
    to_act = deal.to_act
    pieces: dict[str, Any] = {}
    for part in deal.parts.values():
        if part.shows_all:
            pieces.update(part.public(deal))
        if part.shows_own and seat >= 0:
            pieces.update(part.private(deal, seat))
    counted = rules.shape.card_points  # the game's hook (Call Partner's card points)
    if counted is not None:
        pieces["card_points"] = tuple(counted(deal))
    values = _TEMPLATE.copy()  # every field, in the fields' order (stores keep the order)
    values["seat"] = seat
    values["players"] = n
    values["rules"] = rules
    values["dealer"] = deal.dealer
    values["phase"] = deal.phase
    values["to_act"] = to_act
    values["hand"] = tuple(deal.names_of(hand))
    values["hand_mask"] = hand
    values["legal"] = tuple(deal.legal()) if seat >= 0 and to_act == seat else ()
    # Neutral values for the pieces a game without the phase never fills.
    values["calls"] = (None,) * n
    values["misdeal_claims"] = ()
    values["declared_voids"] = ("",) * n
    values["tricks_won"] = tuple(deal.tricks)
    values["history"] = history
    values["trick"] = _view(deal.leader, tuple([names[c] for c in current]), None, _every(deal))
    values["played_mask"] = played
    values["points"] = None if points is None else tuple(points)
    values["void_reason"] = deal.void_reason
    values["totals"] = None if totals is None else tuple(totals)
    values["deal_number"] = deal_number
    values["counting_seats"] = None if counting_seats is None else tuple(counting_seats)
    values["game"] = rules.game
    values["trump"] = deal.trump
    values["active"] = deal.active
    values["upcard"] = None if upcard is None else names[upcard]
    values["dealt_in"] = deal.dealt_in
    values["unplayed"] = deal.unplayed
    values["stock_size"] = len(deal.stock)  # the stock's cards are hidden from everyone
    values["hand_size"] = deal.hand_size
    if pieces:
        # Calls and bids are made in turn, so a seat sees only those already made; all are
        # public.  A part's private pieces may also withhold the seat's own cards (a blind bid).
        if not pieces.keys() <= _PIECES:
            wrong = sorted(pieces.keys() - _PIECES)
            raise TypeError(
                f"the deal's parts showed pieces an observation has no place for: {wrong}"
            )
        values.update(pieces)
    return _frozen(Observation, values)


_TEMPLATE: dict[str, Any] = {f.name: f.default for f in fields(Observation)}
"""Every field of an observation in declaration order, with its default (``MISSING`` for
the fields without one, which ``_build`` always sets)."""

_SET_BY_BUILD = frozenset(
    {
        *("seat", "players", "rules", "dealer", "phase", "to_act", "legal", "tricks_won"),
        *("history", "trick", "played_mask", "points", "void_reason", "totals", "deal_number"),
        *("counting_seats", "game", "trump", "active", "upcard", "dealt_in", "unplayed"),
        *("stock_size", "hand_size"),
    }
)
"""The fields ``_build`` fills from the deal itself, not from its parts."""
_PIECES = frozenset(_TEMPLATE) - _SET_BY_BUILD
"""The fields a part may fill (the rest are the deal's own).  Checked by ``_build``: the
observation is filled in without its ``__init__``, which would refuse any other name."""


T = TypeVar("T")


def _frozen(cls: type[T], values: dict[str, Any]) -> T:
    """A frozen dataclass instance holding ``values`` (every field, in field order): equal to
    ``cls(**values)``, made without its ``__init__``, which sets each field through
    ``object.__setattr__`` and cost half of an observation's making (it is made for every
    card of every playout of the family search)."""
    made = object.__new__(cls)
    object.__setattr__(made, "__dict__", values)
    return made


def _view(
    leader: int, cards: tuple[str, ...], winner: int | None, active: tuple[int, ...]
) -> TrickView:
    """``TrickView(leader, cards, winner, active)``, made as ``_frozen`` makes observations."""
    return _frozen(
        TrickView, {"leader": leader, "cards": cards, "winner": winner, "active": active}
    )


def _every(deal: DealState) -> tuple[int, ...]:
    """The seats a trick goes round when some sit out (empty: all play)."""
    return deal.active if len(deal.active) < deal.players else ()


def _past_tricks(deal: DealState) -> tuple[tuple[TrickView, ...], int]:
    """The completed tricks as views, and the mask of their cards.

    Kept on the deal and extended as tricks complete, so that the observations of
    every seat after every card do not rebuild the whole history each time.  The
    cache is an immutable tuple replaced, never mutated, so a ``Deal.copy()``
    that shares it cannot see the other's later tricks.
    """
    history = deal.history
    cached = deal._views
    views, played = cached
    if len(views) == len(history):
        return cached
    names = deal.deck.names
    every = _every(deal)
    more = []
    for leader, cards, winner in history[len(views) :]:
        for card in cards:
            played |= 1 << card
        more.append(_view(leader, tuple([names[c] for c in cards]), winner, every))
    cached = (views + tuple(more), played)
    deal._views = cached
    return cached
