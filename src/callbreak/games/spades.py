"""Spades (``docs/rules/spades.md``): Call Break's partnership parent.

Seats 0 and 2 play against 1 and 3.  Each seat bids its tricks, 0 being nil (no
trick at all); a side's contract is its partners' other bids together, made for
10 a trick bid and 1 a trick over (a bag), failed for −10 a trick bid; every
10 bags cost 100.  Spades are trump and may not be led until broken.  The side
is the unit of score: both partners carry the side's points and totals, and
the match (to 500, or lost at once at −350 under the mercy rule) is won by a side.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from callbreak.engine.actions import Action, Looked
from callbreak.engine.errors import IllegalAction
from callbreak.engine.games import deal_round
from callbreak.engine.parts import DealState, Part, Pieces
from callbreak.engine.phases import Calls, Phase, Play, number_of, take_call
from callbreak.games import BID, Face, Game, Hints, Preset, Scale, match_end_text, register
from callbreak.points import Points

if TYPE_CHECKING:
    from callbreak.engine.deal import Deal

SIDES = ((0, 2), (1, 3))
BLIND_NIL, LOOK = "blind nil", "look"
NIL_BONUS = 100
"""A nil made (or failed, negative); a blind nil is worth twice as much."""
BAG_LIMIT, BAG_PENALTY = 10, 100


class Blind(Part):
    """Spades with ``blind_nil``: the seats that have looked at their cards, and those that
    bid blind nil (public).  Until a seat looks, its own observation holds no cards: a blind
    nil is bid without seeing them."""

    __slots__ = ("blind", "looked")

    def __init__(self, players: int) -> None:
        self.looked: frozenset[int] = frozenset()
        self.blind: frozenset[int] = frozenset()

    def copy(self) -> Blind:
        other = Blind.__new__(Blind)
        other.looked = self.looked
        other.blind = self.blind
        return other

    def public(self, deal: DealState) -> Pieces:
        return {"blind_nils": tuple(sorted(self.blind))}

    def private(self, deal: DealState, seat: int) -> Pieces:
        if seat in self.looked or seat in self.blind or deal.phase != "call":
            return {}
        return {"hand": (), "hand_mask": 0}


class SpadesCall(Phase):
    """Each seat once, from the seat after the dealer, bids 0 (nil) to 13; under
    ``cap_side_bids`` partners' bids together stay within 13.  Under ``blind_nil`` a seat
    first either bids blind nil or looks at its cards, then bids."""

    name = "call"
    parts = (Calls, Blind)

    def values(self, rules: Any) -> tuple[int, ...]:
        return tuple(range(14))

    def words(self, rules: Any) -> tuple[str, ...]:
        return (BLIND_NIL, LOOK)

    def begin(self, deal: DealState) -> bool:
        deal.to_act = deal.next_seat(deal.dealer)
        if deal.rules.blind_nil:
            # Made now, not at the first question: until it exists nothing withholds the
            # hands, and a seat asked for its view first would see its cards.
            deal.parts[Blind]
        return True

    @staticmethod
    def _blind_first(deal: DealState, seat: int) -> bool:
        """Whether ``seat`` must first choose between blind nil and looking."""
        if not deal.rules.blind_nil:
            return False
        return seat not in deal.parts[Blind].looked

    @staticmethod
    def _most(deal: DealState, seat: int) -> int:
        size = deal.hand_size
        if not deal.rules.cap_side_bids:
            return size
        partner = deal.parts[Calls].calls[(seat + 2) % deal.players]
        return size - (partner or 0)

    def legal(self, deal: DealState) -> list[Any]:
        seat = deal.to_act
        assert seat is not None
        if self._blind_first(deal, seat):
            return [BLIND_NIL, LOOK]
        return list(range(self._most(deal, seat) + 1))

    def act(self, deal: DealState, action: Action) -> None:
        seat = deal.to_act
        assert seat is not None
        said = action.strip().lower() if isinstance(action, str) else None
        if self._blind_first(deal, seat):
            if said == LOOK:
                deal.log.append(Looked((self.name, seat, LOOK)))
                deal.parts[Blind].looked |= {seat}
                return
            if said != BLIND_NIL:
                raise IllegalAction(
                    f"seat {seat} has not looked at its cards: bid blind nil, or look first "
                    f"(say {BLIND_NIL!r} or {LOOK!r}), not {action!r}",
                    "blind_nil",
                )
            deal.parts[Blind].blind |= {seat}
            self._record(deal, seat, BLIND_NIL, 0)
            return
        bid = number_of(action)
        most = self._most(deal, seat)
        if bid is None or not 0 <= bid <= most:
            rule = "cap_side_bids" if bid is not None and most < bid <= 13 else "bid"
            why = " (partners together at most 13)" if rule == "cap_side_bids" else ""
            raise IllegalAction(f"{action!r} is not a bid: bid 0 (nil) to {most} tricks{why}", rule)
        self._record(deal, seat, bid, bid)

    def _record(self, deal: DealState, seat: int, said: int | str, bid: int) -> None:
        if take_call(deal, self.name, seat, said, bid):
            deal.advance()


def bags_before(score: Points) -> int:
    """Bags a side carries into a deal: every other score is a multiple of 10, so the bags
    not yet paid for are the last digit of its score (of a negative one too, counted up)."""
    return (score.tenths // 10) % BAG_LIMIT


def side_score(deal: Deal, side: tuple[int, ...]) -> int:
    """One side's points for the deal (``docs/rules/spades.md`` rule 6)."""
    calls, won = deal.calls, deal.tricks
    blind = deal.parts[Blind].blind if Blind in deal.parts else frozenset()
    points = 0
    for seat in side:
        if calls[seat] == 0:
            value = NIL_BONUS * (2 if seat in blind else 1)
            points += value if won[seat] == 0 else -value
    contract = sum(calls[s] or 0 for s in side)
    taken = sum(won[s] for s in side)
    if taken < contract:
        return points - 10 * contract
    bags = taken - contract
    carried = bags_before(deal.score_before(side[0])) + bags
    return points + 10 * contract + bags - BAG_PENALTY * (carried // BAG_LIMIT)


def spades_scores(deal: Deal) -> list[Points]:
    """Each side's score, on both partners' seats."""
    out = [Points(0)] * deal.players
    for side in SIDES:
        points = Points.whole(side_score(deal, side))
        for seat in side:
            out[seat] = points
    return out


def mercy(deal: Deal) -> int | None:
    """Under ``mercy_rule`` a side at or below ``mercy_threshold`` after the deal loses at
    once: a seat of the other side (the match names its whole side).  Both sides that low
    at once: the higher wins, an equal score plays on."""
    rules = deal.rules
    points = deal.points
    if not rules.mercy_rule or points is None:
        return None
    after = [deal.score_before(side[0]) + points[side[0]] for side in SIDES]
    floor = Points.whole(rules.mercy_threshold)
    low = [at for at, score in enumerate(after) if score <= floor]
    if len(low) == 1:
        return SIDES[1 - low[0]][0]
    if len(low) == 2 and after[0] != after[1]:
        return SIDES[0][0] if after[0] > after[1] else SIDES[1][0]
    return None


def _swing(rules: Scale) -> float:
    """Two blind nils and a contract of 13 made or set, with a bag penalty."""
    return 660.0


def scoring(rules: Any) -> str:
    """The scoresheet's line under the rules in force (blind nil, the mercy rule, the end)."""
    nil = "nil ±100 (blind ±200)" if rules.blind_nil else "nil ±100"
    mercy = f"; a side at {rules.mercy_threshold} or less loses" if rules.mercy_rule else ""
    return (
        "Partners 0+2 against 1+3: 10 a trick bid if the side makes it, +1 a bag (10 bags "
        f"−100), −10 a trick bid if set; {nil}{mercy}. {match_end_text(rules)}"
    )


def summary(rules: Any) -> str:
    """Spades in a few sentences under the rules in force (the help screen)."""
    parts = [
        "Spades: two sides of partners, who sit opposite each other; 13 cards each.",
        "Bid your tricks; 0 is nil, to take none for +100 (−100 if you take one)"
        + ("; blind nil, bid before you look, is worth ±200." if rules.blind_nil else "."),
        "Partners' other bids make their side's contract: made, +10 a trick bid and +1 a trick "
        "over (a bag; every 10 bags cost 100); set, −10 a trick bid.",
        "Spades are always trump"
        + (" and may not be led until one has been played." if rules.spades_broken else "."),
        "Follow suit if you can; the highest spade, else the highest card led, wins.",
        match_end_text(rules),
    ]
    if rules.mercy_rule:
        parts.append(f"A side at {rules.mercy_threshold} or less loses at once.")
    return " ".join(parts)


GAME = register(
    Game(
        name="spades",
        title="Spades",
        deck="standard",
        seats=(4, 4),
        hand_size=13,
        trump=0,
        options=(
            "players",
            "blind_nil",
            "cap_side_bids",
            "spades_broken",
            "mercy_rule",
            "mercy_threshold",
            "match_end",
            "tie_break",
            "first_dealer",
        ),
        phases=(SpadesCall(), Play()),
        dealing=deal_round,
        scorer=spades_scores,
        face=Face(
            stats=("call", "won"),
            summary=("call", "won", "points", "total"),
            scoring=scoring,
            contract=BID,
        ),
        policy="calls",
        swing=_swing,
        hints=Hints(
            failed_bid="−10 × the side's bid",
            call_short="a side that falls short loses 10 a trick of its bid",
            call_made="your side's bid is made, and each trick more is a bag (10 bags cost 100)",
        ),
        needs_context=True,
        wins_at_once=mercy,
        calls=True,
        summary=summary,
        partnerships=SIDES,
        presets=(
            Preset(
                "spades",
                "Spades",
                "spades",
                {
                    "spades_broken": True,
                    "must_overtake": False,
                    "must_trump": "never",
                    "misdeal": "off",
                    "min_total_calls": None,
                    "match_end": "target:500",
                },
            ),
        ),
    )
)
