"""Hand builders and state snapshots shared by the rule tests."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

from callbreak import Deal, IllegalAction, Match
from callbreak.bots import Bot

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


def state(deal: Deal) -> str:
    """Every fact of a deal of any game and every seat's observation, as one string: what a
    refused action must leave exactly as it was."""
    return json.dumps(
        {
            "phase": deal.phase,
            "to_act": deal.to_act,
            "legal": deal.legal(),
            "hands": list(deal.hands),
            "nest": deal.nest,
            "discards": deal.discards,
            "stock": deal.stock,
            "calls": deal.calls,
            "bids": deal.bids,
            "passed": sorted(deal.passed),
            "contract": deal.contract,
            "declarer": deal.declarer,
            "trump": deal.trump,
            "partner_card": deal.partner_card,
            "partner": deal.partner,
            "dropped": sorted(deal.dropped),
            "active": deal.active,
            "settled": deal.settled,
            "exchanges": list(deal.exchanges),
            "log": deal.log,
            "tricks": deal.tricks,
            "trick": deal.trick,
            "leader": deal.leader,
            "history": deal.history,
            "observations": [deal.observation(s).to_dict() for s in range(deal.players)],
        },
        sort_keys=True,
        default=str,
    )


def refuse(deal: Deal, action: Any, rule: str | None = None) -> IllegalAction:
    """``action`` raises IllegalAction (naming ``rule`` when given) and changes nothing."""
    before = state(deal)
    with pytest.raises(IllegalAction) as error:
        deal.act(action)
    assert error.value.rule, str(error.value)
    if rule is not None:
        assert error.value.rule == rule, str(error.value)
    assert state(deal) == before
    return error.value


def act_all(deal: Deal, actions: Sequence[Any]) -> None:
    for action in actions:
        deal.act(action)


def play_legally(match: Match, bots: Sequence[Bot]) -> None:
    """Play ``match`` to its end with ``bots`` by seat, checking every action is legal."""
    while not match.over:
        seat = match.to_act
        assert seat is not None
        observation = match.observation(seat)
        action = bots[seat].act(observation)
        assert action in observation.legal, (observation.phase, action)
        match.act(action)
    assert match.winners
