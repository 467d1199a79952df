"""Call Break (``docs/rules/callbreak.md``) and the presets that play its deal: the Bhoos
arena's Call Break and Call Bridge (``docs/rules/callbridge.md``).

Every seat calls its own contract, spades are always trump, and each seat
scores by its call and its tricks.  Batak Koz Maça plays this deal too; its
preset is listed with the other Batak (``games/batak.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from callbreak.engine.games import deal_round
from callbreak.engine.phases import Call, Declare, Misdeal, Play
from callbreak.games import Face, Game, Preset, Scale, match_end_text, register
from callbreak.points import Points
from callbreak.rules import CALL_OPTIONS, MATCH_OPTIONS

if TYPE_CHECKING:
    from callbreak.engine.deal import Deal


def _swing(rules: Scale) -> float:
    """A made bonus call (or a failed call of 13), times the multiplier."""
    return float(max(13, rules.bonus_points) * rules.score_multiplier)


def call_scores(deal: Deal) -> list[Points]:
    """Call Break, Call Bridge, Batak Koz Maça: each seat by its own call and tricks."""
    score = deal.rules.score
    return [score(call or 0, won) for call, won in zip(deal.calls, deal.tricks, strict=True)]


_MUST_TRUMP = {
    "winning": "Void in the suit led: play a spade that beats every spade in the trick "
    "if you hold one.",
    "always": "Void in the suit led: play a spade whenever you hold one, a winning one if you can.",
    "never": "Void in the suit led: play any card.",
}


_WINDOW = {
    "at_least": "at least the call",
    "call_or_one_over": "the call or one more",
    "exact": "exactly the call",
}


def scoring(rules: Any) -> str:
    """The scoresheet's line under the rules in force (Call Bridge's window and bonus too)."""
    window = rules.success_window
    over = rules.overtrick_points
    made = "call" + (f" + {over} per extra trick" if over != Points(0) else "")
    if window == "at_least":
        text = f"call/won, then points: {made}, or −call"
    else:
        said = _WINDOW.get(window) or f"the call to the call plus {window.rsplit(':', 1)[1]}"
        text = f"call/won, then points: {made} if the tricks are {said}, else −call"
    if rules.bonus_call is not None:
        text += f"; a made call of {rules.bonus_call} or more scores {rules.bonus_points}"
        if rules.scoring == "callbridge" and window != "call_or_one_over":
            text += " (with the call or one more)"
    if rules.score_multiplier != 1:
        text += f"; every score × {rules.score_multiplier}"
    return text + "."


def _limits(rules: Any) -> str | None:
    """Calls that can never add up to ``min_total_calls`` would throw in every deal."""
    if rules.min_total_calls is None:
        return None
    most = rules.players * rules.max_call
    if rules.min_total_calls <= most:
        return None
    return (
        f"min_total_calls={rules.min_total_calls} can never be reached: "
        f"{rules.players} calls of at most max_call={rules.max_call} make {most}"
    )


def summary(rules: Any) -> str:
    """Call Break's deal in a few sentences under the rules in force (the help screen)."""
    parts = [f"Call {rules.min_call} to {rules.max_call} tricks; spades are always trump."]
    if rules.must_overtake:
        parts.append("Follow suit and beat the winning card of the suit led if you can.")
    else:
        parts.append("Follow suit if you can.")
    parts.append(_MUST_TRUMP[rules.must_trump])
    if rules.misdeal != "off":
        how = "may be thrown in by its holder" if rules.misdeal == "claim" else "is redealt"
        parts.append(f"A hand with no spade or none of {', '.join(rules.misdeal_faces)} {how}.")
    if rules.success_window == "at_least":
        extra = rules.overtrick_points
        parts.append(f"Win at least your call: +call, +{extra} per extra trick; fall short: −call.")
    else:
        parts.append(f"Success window {rules.success_window}: +call, otherwise −call.")
    if rules.bonus_call is not None:
        parts.append(f"A made call of {rules.bonus_call} or more scores {rules.bonus_points}.")
    if rules.min_total_calls is not None:
        parts.append(f"Calls totalling under {rules.min_total_calls}: the deal is thrown in.")
    parts.append(match_end_text(rules))
    return " ".join(parts)


GAME = register(
    Game(
        name="callbreak",
        title="Call Break",
        deck="standard",
        seats=(4, 4),
        hand_size=13,
        trump=0,
        options=CALL_OPTIONS + MATCH_OPTIONS,
        phases=(Misdeal(), Call(), Declare(), Play()),
        dealing=deal_round,
        scorer=call_scores,
        face=Face(
            stats=("call", "won"),
            summary=("call", "won", "points", "total"),
            scoring=scoring,
        ),
        policy="calls",
        swing=_swing,
        limits=_limits,
        calls=True,
        summary=summary,
        bhoos=True,
        presets=(
            Preset("callbreak", "Call Break", "callbreak"),
            Preset(
                "callbreak-bhoos",
                "Call Break (Bhoos arena)",
                "callbreak",
                {"max_call": 8, "misdeal": "auto", "misdeal_faces": "KQJ"},
            ),
            Preset(
                "callbridge",
                "Call Bridge",
                "callbreak",
                {
                    "min_call": 2,
                    "max_call": 12,
                    "misdeal": "off",
                    "must_overtake": False,
                    "scoring": "callbridge",
                    "success_window": "call_or_one_over",
                    "overtrick_points": 0,
                    "bonus_call": 8,
                    "bonus_points": 13,
                    "match_end": "open",
                },
            ),
        ),
    )
)
