"""How a face shows each phase and each game: data, not code, so one page plays every game.

The web page reads these tables (``/api/meta`` sends them) and knows no game by
name: a phase says what to ask the person and with which kind of control, a
game says what each seat's status line shows and how a finished deal is
summed up.  A new game of the family needs a row here, not a new page.

Nothing here imports the engine or the server: it is plain data that any face
(the terminal table, the line-based CLI) can read as well.
"""

from __future__ import annotations

from typing import Any

SUIT_LABELS: dict[str, str] = {
    "S": "♠ Spades",
    "H": "♥ Hearts",
    "D": "♦ Diamonds",
    "C": "♣ Clubs",
    "R": "Red",
    "Y": "Yellow",
    "G": "Green",
    "B": "Black",
}
"""Trump choices as people read them (the Rook deck's four colours too)."""

PHASES: dict[str, dict[str, Any]] = {
    "misdeal": {
        "verb": "decide on a redeal",
        "prompt": "Your hand qualifies for a redeal. Show it and redeal?",
        "control": "buttons",
        "labels": {"true": "Redeal", "false": "Play on"},
    },
    "declare": {
        "verb": "declare voids",
        "prompt": "Declare your void suits to the table?",
        "control": "buttons",
        "labels": {"true": "Declare", "false": "Keep quiet"},
    },
    "call": {
        "verb": "call",
        "prompt": "Your call:",
        "control": "buttons",
        "labels": {},
    },
    "auction": {
        "verb": "bid",
        "prompt": "Your bid (a pass is final):",
        "control": "buttons",
        "labels": {"pass": "Pass"},
    },
    "trump": {
        "verb": "name trump",
        "prompt": "Name trump:",
        "control": "buttons",
        "labels": SUIT_LABELS,
    },
    "drop": {
        "verb": "decide to play or drop",
        "prompt": "Play this deal, or drop out of it?",
        "control": "buttons",
        "labels": {"in": "Play", "out": "Drop"},
    },
    "settle": {
        "verb": "settle",
        "prompt": "Everyone else sat out: take 5 off your own score, or give 5 to every other?",
        "control": "buttons",
        "labels": {"take": "Take −5", "give": "Give +5 to the others"},
    },
    "exchange": {
        "verb": "exchange cards",
        "prompt": "Throw away cards one at a time (click them), then Done: you draw as many.",
        "control": "cards",
        "labels": {"done": "Done"},
    },
    "discard": {
        "verb": "discard into the nest",
        "prompt": "You took the nest: discard five cards (click them one at a time).",
        "control": "cards",
        "labels": {},
    },
    "partner": {
        "verb": "call a partner card",
        "prompt": "Call the partner card (a card you hold means you play alone):",
        "control": "picker",
        "labels": {},
    },
    "play": {
        "verb": "play",
        "prompt": "Your turn: play one of the raised cards.",
        "control": "cards",
        "labels": {},
    },
}
"""Per phase: the status line's verb, the prompt, the control (``buttons`` with the legal
actions, ``cards`` to click in the hand plus any labelled word, ``picker`` for a long list of
cards grouped by suit) and labels for the actions that are words."""

GAMES: dict[str, dict[str, Any]] = {
    "callbreak": {
        "stats": ["call", "won"],
        "summary": ["call", "won", "points", "total"],
        "scoring": "call/won, then points: call + 0.1 per extra trick, or −call.",
    },
    "batak": {
        "stats": ["bid", "won"],
        "summary": ["bid", "won", "points", "total"],
        "scoring": "bid/won: the bidder scores +bid if it won at least its bid, else −bid; "
        "the others +1 a trick (−bid with no trick).",
    },
    "rook": {
        "stats": ["bid", "won", "card_points"],
        "summary": ["bid", "won", "card_points", "points", "total"],
        "scoring": "Card points (1 = 15, 14 and 10 = 10, 5 = 5, Rook and last trick = 20): "
        "the bidder's side scores them if they reach the bid, else −bid each.",
    },
    "snarples": {
        "stats": ["bid", "won", "score"],
        "summary": ["bid", "won", "points", "total"],
        "scoring": "Countdown from 16, lower is better: −1 a trick (+5 with none, or a failed "
        "bid); 0 or below wins, 33 or more is out of the game.",
    },
    "donut": {
        "stats": ["won", "score"],
        "summary": ["won", "points", "total"],
        "scoring": "Countdown from 15, lower is better: −1 a trick, +3 for a donut (no trick); "
        "0 or below wins.",
    },
    "horsethief": {
        "stats": ["won", "score"],
        "summary": ["won", "points", "total"],
        "scoring": "Race to 15: +1 a trick, −5 for staying in and winning none.",
    },
}
"""Per game: what each seat's status line shows (``stats``), the columns of a finished deal's
summary, and one line on how it scores.  Stat names: ``call``, ``bid`` (last bid or pass),
``won`` (tricks), ``card_points``, ``score`` (the running total)."""


def face_tables() -> dict[str, Any]:
    """Everything a face needs to draw any game, as JSON-ready data."""
    return {"phases": PHASES, "games": GAMES, "suits": SUIT_LABELS}
