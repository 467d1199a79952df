"""Hand builders and state snapshots shared by the rule tests."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
import pytest
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, precondition, rule

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


class MatchMachine(RuleBasedStateMachine):
    """The steps every match state machine takes: a legal action drawn by Hypothesis, or the
    rest of the deal at random; the subclass starts ``match`` and checks what its game keeps."""

    match: Match
    DEAL_ACTIONS: ClassVar[int] = 150
    """More actions than any deal of the game can take: a deal that does is stuck."""

    @precondition(lambda self: not self.match.over)
    @rule(data=st.data())
    def play_a_legal_action(self, data: st.DataObject) -> None:
        self.match.act(data.draw(st.sampled_from(self.match.legal()), label="action"))

    @precondition(lambda self: not self.match.over)
    @rule(seed=st.integers(min_value=0, max_value=2**16))
    def play_out_the_deal(self, seed: int) -> None:
        rng = random.Random(seed)
        deal = self.match.deal
        for _ in range(self.DEAL_ACTIONS):
            if self.match.over or self.match.deal is not deal:
                return
            self.match.act(rng.choice(self.match.legal()))
        raise AssertionError(f"a deal took more than {self.DEAL_ACTIONS} actions")


def step_twin_envs(
    envs: Sequence[Any], never: set[int], rng: random.Random, *, seat_1_always_differs: bool
) -> int:
    """Step two AEC envs whose deals differ only in cards of seats other than 0 with the same
    random actions, none of ``never`` (the swapped cards), asserting that seat 0's vector is
    the same in both at every step and seat 1's differs (always, or at the start); returns
    the steps taken before a swapped card had to be played or the deal ended."""
    steps = 0
    while not envs[0].terminations["player_0"]:
        v0 = [e.observe("player_0")["observation"] for e in envs]
        assert np.array_equal(v0[0], v0[1]), f"seat 0 sees the difference at step {steps}"
        if seat_1_always_differs or steps == 0:
            v1 = [e.observe("player_1")["observation"] for e in envs]
            assert not np.array_equal(v1[0], v1[1])
        legal = [set(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])) for e in envs]
        assert legal[0] - never == legal[1] - never
        common = sorted(legal[0] - never)
        if not common:
            break  # a swapped card must be played now: the deals part here
        action = rng.choice(common)
        for e in envs:
            e.step(int(action))
        steps += 1
    return steps
