"""A hint at a practice table: what the terminal's ``i`` key would say, for the asker's own seat.

Both faces ask ``callbreak.advice`` (the hint bot, the hint in words and why), for the
observation of the seat that asks, so the hint holds nothing that seat cannot see; it is
sent to that seat's socket alone.  It is given only where every other seat is a bot: at a
table with another person it would be help the others do not get.
"""

from __future__ import annotations

from typing import Any

from callbreak.advice import explain, hint_words
from callbreak.engine import Action, Observation
from callbreak.faces import CARD_PHASES

NOT_ALONE = (
    "hints are only for a practice table, where every other seat is a bot: another person "
    "plays at this table"
)


def hint_message(view: Observation, action: Action, seq: int) -> dict[str, Any]:
    """The ``hint`` message for the asker: the action as its ``act`` would send it, in words,
    and why (``reason``: empty where the advice has nothing to add)."""
    card = view.phase in CARD_PHASES and str(action) in view.hand
    return {
        "type": "hint",
        "seq": seq,
        "action": str(action) if card else action,
        "card": card,
        "text": hint_words(view, action),
        "reason": explain(view, action),
    }
