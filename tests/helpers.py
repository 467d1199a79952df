"""Hand builders and state snapshots shared by the rule tests."""

from __future__ import annotations

import json

from callbreak import Deal

RANKS = "AKQJT98765432"
DECK = [r + s for s in "SHDC" for r in RANKS]


def split_hands(a: int, b: int, k: int) -> list[list[str]]:
    """Hands in which seat ``a`` wins exactly ``k`` tricks whatever legal cards are played.

    ``a`` holds the top k spades and the low hearts, ``b`` the other spades and the
    high hearts, and the two other seats only diamonds and clubs.
    """
    spades = [r + "S" for r in RANKS]
    hearts = [r + "H" for r in RANKS]
    hands: list[list[str]] = [[] for _ in range(4)]
    hands[a] = spades[:k] + hearts[k:]
    hands[b] = spades[k:] + hearts[:k]
    c, d = (s for s in range(4) if s not in (a, b))
    hands[c] = [r + "D" for r in RANKS]
    hands[d] = [r + "C" for r in RANKS]
    return hands


def snapshot(deal: Deal) -> str:
    """Everything observable about a deal, to prove that a refused action changed nothing."""
    return json.dumps(
        {
            "phase": deal.phase,
            "to_act": deal.to_act,
            "legal": deal.legal(),
            "hands": [deal.hand(s) for s in range(4)],
            "tricks": list(deal.tricks),
            "calls": list(deal.calls),
            "observations": [deal.observation(s).to_dict() for s in range(4)],
        },
        sort_keys=True,
    )
