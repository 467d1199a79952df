"""Why a hint is a good idea, in one line a person can act on.

The hint bot (the expert when it exists) only answers *what* to play; the
reason is read back from the situation the person can see: tricks still
needed against the call, whether the card takes the trick now, whether it is
the highest card left in its suit.  Everything comes from the person's own
``Observation`` (through ``knowledge.read``), so the hint leaks nothing.

>>> from callbreak import Deal, Rules
>>> deal = Deal(Rules.preset("callbreak"), seed=7, dealer=0)
>>> explain(deal.observation(1), 3).startswith("your hand rates about")
True
"""

from __future__ import annotations

from callbreak.bots.heuristic import estimate_tricks
from callbreak.bots.knowledge import Knowledge, read
from callbreak.cards import RANK_COUNT, SUIT_MASKS, SUIT_NAMES, parse_card
from callbreak.engine import Action, Observation
from callbreak.engine.deal import misdeal_reason
from callbreak.engine.tricks import beats


def _need_text(need: int) -> str:
    return f"you still need {need}"


def _made_text(observation: Observation) -> str:
    """Why an extra trick is unwelcome under the rules in force."""
    rules = observation.rules
    if rules.success_window == "at_least":
        return f"your call is made and an extra trick is worth only {rules.overtrick_points}"
    return "your call is made and one more trick could break it"


def explain(observation: Observation, action: Action) -> str:
    """One line on why ``action`` suits ``observation`` (the person's turn)."""
    phase = observation.phase
    rules = observation.rules
    if phase == "call":
        rating = estimate_tricks(observation.hand_mask, rules.trump_suit)
        reason = f"your hand rates about {rating:.1f} tricks"
        if isinstance(action, int) and action < rating - 0.5:
            reason += "; falling short would cost the whole call"
        elif isinstance(action, int) and action > rating + 0.5:
            reason += ", and played out it takes more"
        return reason
    if phase == "misdeal":
        reason = misdeal_reason(rules, observation.hand_mask) or "a weak hand"
        if action:
            return f"the hand holds {reason}: a fresh deal is likely better"
        return "the hand can still make a call: play it"
    if phase == "declare":
        if action:
            return "declaring warns the others off leading your void suit"
        return "a secret void keeps your ruffs a surprise"
    if phase != "play":
        return ""
    return _explain_card(observation, parse_card(str(action)))


def _explain_card(observation: Observation, card: int) -> str:
    k = read(observation)
    call = observation.calls[k.seat] or 0
    need = call - observation.tricks_won[k.seat]
    trump = k.trump
    suit = card // RANK_COUNT
    legal = [parse_card(str(c)) for c in observation.legal]
    if len(legal) == 1:
        return "your only legal card"
    if not k.trick:
        return _explain_lead(observation, k, card, need)
    wins_now = beats(card, k.win, trump)
    later = k.seats_after_me()
    any_winner = any(beats(c, k.win, trump) for c in legal)
    if wins_now:
        if need > 0:
            if not later:
                return f"wins the trick: {_need_text(need)}"
            if k.holds(card, later):
                return f"should hold the trick: {_need_text(need)}"
            return f"your best try for the trick: {_need_text(need)}"
        if all(beats(c, k.win, trump) for c in legal):
            return "every legal card wins here: this one costs least"
        return "takes the trick now to keep a dangerous card out of later tricks"
    if need <= 0:
        return f"ducks: {_made_text(observation)}"
    if not any_winner:
        if suit == trump:
            return "nothing you hold can win this trick: a low spade goes"
        return f"nothing you hold can win this trick: throws a low {SUIT_NAMES[suit][:-1]}"
    return f"saves your winners for later: {_need_text(need)}"


def _explain_lead(observation: Observation, k: Knowledge, card: int, need: int) -> str:
    trump = k.trump
    suit = card // RANK_COUNT
    if need > 0:
        if k.is_boss(card):
            if suit == trump:
                return f"the highest spade left draws trumps: {_need_text(need)}"
            return f"the highest {SUIT_NAMES[suit][:-1]} left: {_need_text(need)}"
        if suit == trump:
            return f"draws the others' spades: {_need_text(need)}"
        length = (k.hand & SUIT_MASKS[suit]).bit_count()
        return f"a low lead from {length} {SUIT_NAMES[suit]} sets up the suit: {_need_text(need)}"
    return f"a lead that should lose: {_made_text(observation)}"
