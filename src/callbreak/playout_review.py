"""The review of a finished deal in the games the exact solver does not model.

The solver (``callbreak.analysis``) plays the call games only.  Every other
game of the family (Batak İhaleli, Call Partner, Snarples, Donut, Horsethief,
Spades, Oh Hell) is reviewed here *with the hands shown*: the true deal is
rebuilt from its shuffle and replayed up to each decision of the seat, every
legal alternative is taken in a copy of it, and the copy is finished by the
heuristic's own policies for every seat (the playouts of the family search,
``bots.family_search.finish``).  An alternative is worth what the family search
counts: the seat's points less the others' mean, the sign turned in the
countdown games.  The heuristic's policies are deterministic (no seat draws at
random), so one playout per alternative is its value; the same policies finish
every alternative, so only the decision differs.

This is not best defence: it says what each choice would have brought against
the table's usual play, every card known.  The review says which method valued
it (``DealReview.method``).  Every kind of decision is valued, not only the
cards: bids and passes, trump, the nest's discards, the partner card, in or
out, take or give, a drop, each card of an exchange.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from callbreak.bots.family_search import deal_value, finish
from callbreak.bots.heuristic import HeuristicBot
from callbreak.engine import Deal
from callbreak.points import Points
from callbreak.verdicts import AnalysisError, CallReview, Decision, signed

METHOD = "playouts with the hands shown"
"""How this module values a decision, in the review's words."""

_PLAY = "play"


@dataclass(frozen=True)
class PlayoutDecision(Decision):
    """One decision of the seat valued by playouts: ``kind`` is the phase it was taken in
    (``play`` for a card; ``bid``, ``trump``, ``discard``, ``exchange``… otherwise)."""

    kind: str = _PLAY

    def text(self, call: int) -> str:
        """One line: "auction: 3 was worth +3.0; your pass -1.0", or "trick 4: KH: a best
        choice (+2.0)" (``call`` is the solver's: unused here)."""
        where = f"trick {self.trick}" if self.kind == _PLAY else self.kind
        if self.forced:
            return f"{where}: {self.played} (forced)"
        assert self.values is not None
        best = self.best
        alternatives = "/".join(best[:3]) + ("/..." if len(best) > 3 else "")
        played = self.played_value
        best_value = self.best_value
        assert played is not None and best_value is not None
        if not self.mistake:
            return f"{where}: {self.played}: a best choice ({signed(played)})"
        return (
            f"{where}: {alternatives} was worth {signed(best_value)}; your {self.played} "
            f"{signed(played)}"
        )

    def json(self) -> dict[str, Any]:
        document = super().json()
        document["kind"] = self.kind
        return document


@dataclass(frozen=True)
class Outcome(CallReview):
    """The head of a playout review, in place of the solver's call review: what the seat
    scored (``call``: its bid or contract, 0 when it had none), and how the review valued
    its decisions; the solver's fields (``worth``, ``makeable``…) stay None."""

    def text(self) -> str:
        return (
            f"scored {signed(self.scored)}; each decision valued by {METHOD} (every card "
            "known, the deal finished by the heuristic's play)"
        )

    def json(self) -> dict[str, Any]:
        document = super().json()
        document["method"] = METHOD
        return document


def rebuild(deal: Deal) -> Deal:
    """The deal as it was dealt, before any decision: dealt again from its shuffle seed."""
    if deal.seed is None:
        raise AnalysisError(
            f"this {deal.rules.title} deal has no shuffle seed: it cannot be dealt again "
            "for its review"
        )
    return Deal(
        deal.rules,
        seed=deal.seed,
        dealer=deal.dealer,
        context=deal.context,
        hand_size=deal.hand_size,
    )


def value(deal: Deal, seat: int, players: list[HeuristicBot]) -> Points:
    """``deal`` (after the decision) finished by the heuristic, valued for ``seat`` as the
    family search values it, in tenths."""
    return Points(round(10 * deal_value(deal, finish(deal, players), seat)))


def seat_positions(deal: Deal, seat: int, from_trick: int = 1) -> Iterator[tuple[Deal, Any]]:
    """The finished ``deal`` walked again from its shuffle: at each decision ``seat`` took
    (those before the play and the cards from trick ``from_trick`` on), the position before
    it and the action taken.  The position is acted on once the next item is asked for, so
    whoever reads it copies what it keeps."""
    walk = rebuild(deal)
    before = [(actor, action) for _, actor, action in deal.log]
    cards = [c for _, trick, _ in deal.history for c in trick]
    at = 0
    while walk.to_act is not None:
        actor = walk.to_act
        if at < len(before):
            logged, action = before[at]
            if logged != actor:
                raise AnalysisError(
                    f"the deal's record does not replay: seat {logged} acts, seat {actor} is due"
                )
        else:
            played = sum(len(trick) for _, trick, _ in walk.history) + len(walk.trick)
            if played >= len(cards):
                raise AnalysisError("the deal's record ends before the deal does")
            action = walk.deck.names[cards[played]]
        late = walk.phase != _PLAY or walk.trick_number + 1 >= from_trick
        if actor == seat and late:
            yield walk, action
        walk.act(action)
        at += 1


def review_decisions(deal: Deal, seat: int, from_trick: int = 1) -> tuple[PlayoutDecision, ...]:
    """Each decision ``seat`` took in ``deal`` (played out), every alternative valued: those
    before the play and the cards from trick ``from_trick`` on."""
    players = heuristic_players(deal.players)
    return tuple(
        decision_at(walk, seat, action, players)
        for walk, action in seat_positions(deal, seat, from_trick)
    )


def heuristic_players(players: int) -> list[HeuristicBot]:
    """The policies that finish every alternative, one a seat."""
    return [HeuristicBot(seed=s) for s in range(players)]


def decision_at(walk: Deal, seat: int, action: Any, players: list[HeuristicBot]) -> PlayoutDecision:
    """The decision ``action`` of ``seat`` at the position ``walk``, every legal alternative
    valued by ``players`` finishing the deal (``walk`` itself is left as it was)."""
    legal = list(walk.legal())
    names = tuple(str(a) for a in legal)
    played = str(action)
    if played not in names:
        raise AnalysisError(f"the deal's record holds {played}, which was not legal")
    trick = walk.trick_number + 1 if walk.phase == _PLAY else 0
    position = len(walk.trick) if walk.phase == _PLAY else 0
    if len(legal) == 1:
        return PlayoutDecision(trick, position, played, names, None, kind=walk.phase)
    values: dict[str, Points] = {}
    for option, name in zip(legal, names, strict=True):
        trial = walk.copy()
        trial.act(option)
        values[name] = value(trial, seat, players)
    return PlayoutDecision(trick, position, played, names, values, kind=walk.phase)


def outcome(deal: Deal, seat: int) -> Outcome:
    """The head of the review: the seat's bid or contract (0: none) and its points."""
    assert deal.points is not None
    call = deal.calls[seat] if deal.calls else None
    if call is None and deal.declarer == seat and deal.contract is not None:
        call = deal.contract
    return Outcome(call or 0, deal.points[seat], None, None, None, None)
