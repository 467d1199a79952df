"""Oh Hell and Judgement (``docs/rules/oh-hell.md``): exact bids, 3 to 7 players, and a hand
that changes size deal by deal.

Each seat bids the tricks it will take, exactly; the dealer, bidding last, may
not make the bids add up to the tricks of the deal (the hook), so someone must
fail.  Oh Hell turns up the card after the hands for trump and deals from the
largest hand down to one; Judgement (Kachuful) rotates trump by deal, ♠ ♦ ♣ ♥,
and deals 7 down to 1 and back up.  Only the options differ: one game, two
presets.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from callbreak.engine.actions import Action
from callbreak.engine.errors import IllegalAction
from callbreak.engine.games import deal_round, deal_upcard_next
from callbreak.engine.parts import DealState
from callbreak.engine.phases import Calls, Phase, Play, number_of, take_call
from callbreak.games import BID, Dealing, Face, Game, Hints, Preset, register
from callbreak.points import Points

if TYPE_CHECKING:
    from callbreak.engine.deal import Deal

ROTATION = "SDCH"
"""Judgement's trump by deal: spades, diamonds, clubs, hearts, then again."""

DECK_SIZE = 52


def largest_hand(rules: Any) -> int:
    """The most cards a seat may hold: the whole deck shared out, less the turned-up card."""
    spare = 1 if rules.trump == "turn_up" else 0
    return int((DECK_SIZE - spare) // rules.players)


def schedule(rules: Any) -> tuple[int, ...]:
    """The hand sizes of a match in order (``sequence`` from ``start``, capped by the deck)."""
    most = largest_hand(rules)
    start = most if rules.start is None else min(rules.start, most)
    down = tuple(range(start, 0, -1))
    if rules.sequence == "down":
        return down
    if rules.sequence == "down_up":
        return down + tuple(range(2, start + 1))
    return tuple(range(1, start + 1)) + tuple(range(start - 1, 0, -1))


def dealing(rules: Any) -> Dealing:
    """A card is turned up after the hands only where it decides trump."""
    return deal_upcard_next if rules.trump == "turn_up" else deal_round


class OhHellTrump(Phase):
    """Trump of the deal, set without a decision: the turned-up card's suit, the suit of the
    rotation at this deal of the match (the deal's context counts them), or none."""

    name = "trump"

    def begin(self, deal: DealState) -> bool:
        mode = deal.rules.trump
        if mode == "turn_up":
            assert deal.upcard is not None
            deal.set_trump(deal.upcard // deal.deck.stride)
        elif mode == "rotate":
            letter = ROTATION[deal.context.number % len(ROTATION)]
            deal.set_trump(deal.deck.suits.index(letter))
        return False


class ExactCall(Phase):
    """Each seat once, from the seat after the dealer, bids 0 to the deal's tricks; under
    ``hook`` the last bid may not make the bids add up to the tricks."""

    name = "call"
    parts = (Calls,)

    def values(self, rules: Any) -> tuple[int, ...]:
        """0 to the largest hand of the match (Judgement's 7, not the 13 the deck allows)."""
        return tuple(range(max(schedule(rules)) + 1))

    def begin(self, deal: DealState) -> bool:
        deal.to_act = deal.next_seat(deal.dealer)
        return True

    @staticmethod
    def hooked(deal: DealState) -> int | None:
        """The bid the last bidder may not make, or None (not the last bidder, or no hook)."""
        if not deal.rules.hook:
            return None
        calls = deal.parts[Calls].calls
        if sum(call is None for call in calls) != 1:
            return None
        return deal.hand_size - sum(call for call in calls if call is not None)

    def legal(self, deal: DealState) -> list[Any]:
        hooked = self.hooked(deal)
        return [bid for bid in range(deal.hand_size + 1) if bid != hooked]

    def act(self, deal: DealState, action: Action) -> None:
        bid = number_of(action)
        size = deal.hand_size
        if bid is None or not 0 <= bid <= size:
            raise IllegalAction(
                f"{action!r} is not a bid: bid a whole number of tricks from 0 to {size}",
                "bid",
            )
        if bid == self.hooked(deal):
            raise IllegalAction(
                f"the dealer may not bid {bid}: the bids would add up to the {size} tricks (hook)",
                "hook",
            )
        seat = deal.to_act
        assert seat is not None
        if take_call(deal, self.name, seat, bid, bid):
            deal.advance()


def oh_hell_scores(deal: Deal) -> list[Points]:
    """An exact bid scores ``points_per_trick`` a trick plus ``exact_bonus``; a miss scores
    the tricks (``tricks``), nothing (``zero``) or minus the tricks off the bid (``off_bid``)."""
    rules = deal.rules
    per, bonus, miss = rules.points_per_trick, rules.exact_bonus, rules.miss_points
    out = []
    for call, won in zip(deal.calls, deal.tricks, strict=True):
        if won == call:
            value = per * won + bonus
        elif miss == "tricks":
            value = per * won
        elif miss == "zero":
            value = 0
        else:
            value = -per * abs(won - (call or 0))
        out.append(Points.whole(value))
    return out


def _swing(rules: Any) -> float:
    """Every trick of the largest hand taken as bid, or missed by all of them."""
    return float(largest_hand(rules) * max(rules.points_per_trick, 1) + rules.exact_bonus)


_TRUMP = {
    "turn_up": "the card after the hands is turned up and its suit is trump",
    "rotate": "trump goes ♠ ♦ ♣ ♥ by deal",
    "none": "there is no trump",
}
_MISS = {
    "tricks": "a miss scores {ppt} a trick taken, without the bonus",
    "zero": "a miss scores nothing",
    "off_bid": "a miss costs {ppt} a trick off the bid",
}


def scoring(rules: Any) -> str:
    """The scoresheet's line under the rules in force (Oh Hell's and Judgement's differ)."""
    ppt = rules.points_per_trick
    made = f"{ppt} a trick" + (f" plus {rules.exact_bonus}" if rules.exact_bonus else "")
    hook = "; the dealer may not make the bids add up" if rules.hook else ""
    miss = _MISS[rules.miss_points].format(ppt=ppt)
    return f"Bid your tricks exactly: an exact bid scores {made}; {miss}{hook}."


def summary(rules: Any) -> str:
    """Oh Hell and Judgement in a few sentences under the rules in force (the help screen)."""
    sizes = schedule(rules)
    ppt = rules.points_per_trick
    made = f"{ppt} a trick taken" + (f" + {rules.exact_bonus}" if rules.exact_bonus else "")
    parts = [
        f"{rules.title}: {rules.players} players; hands of "
        + ", ".join(str(size) for size in sizes)
        + f" cards, one size a deal; {_TRUMP[rules.trump]}.",
        "Bid the tricks you will take, exactly"
        + ("; the dealer, last, may not make the bids add up to the tricks." if rules.hook else ".")
        + " Follow suit if you can; the highest trump, else the highest card led, wins.",
        f"An exact bid scores {made}; " + _MISS[rules.miss_points].format(ppt=ppt) + ".",
        "After the last deal the highest total wins.",
    ]
    return " ".join(parts)


GAME = register(
    Game(
        name="ohhell",
        title="Oh Hell",
        deck="standard",
        seats=(3, 7),
        hand_size=7,
        trump=-1,
        options=(
            "players",
            "trump",
            "hook",
            "sequence",
            "start",
            "exact_bonus",
            "points_per_trick",
            "miss_points",
            "tie_break",
            "first_dealer",
        ),
        phases=(OhHellTrump(), ExactCall(), Play()),
        dealing=deal_upcard_next,
        dealing_by_rules=dealing,
        scorer=oh_hell_scores,
        face=Face(
            stats=("call", "won"),
            summary=("call", "won", "points", "total"),
            scoring=scoring,
            contract=BID,
        ),
        policy="calls",
        swing=_swing,
        hints=Hints(
            failed_bid="no bonus",
            trick="each trick counts against an exact bid",
            call_short="the bonus is only for exactly your bid, a trick more or less loses it",
            call_made="your bid is made exactly, and one more trick would lose its bonus",
        ),
        needs_context=True,
        calls=True,
        summary=summary,
        schedule=schedule,
        largest_hand=largest_hand,
        presets=(
            Preset("oh-hell", "Oh Hell", "ohhell", {"tie_break": "shared"}),
            Preset(
                "judgement",
                "Judgement",
                "ohhell",
                {
                    "trump": "rotate",
                    "sequence": "down_up",
                    "start": 7,
                    "miss_points": "zero",
                    "tie_break": "shared",
                },
            ),
        ),
    )
)
