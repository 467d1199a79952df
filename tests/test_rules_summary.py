"""What the help screen and the call prompt say of each game come from its own record."""

from __future__ import annotations

import random
from typing import Any

import pytest

import callbreak
from callbreak.faces import phase_face
from callbreak.tui.render import rules_summary


def test_each_call_game_tells_its_own_rules() -> None:
    spades = rules_summary(callbreak.Rules.preset("spades"))
    assert "nil" in spades and "partners" in spades and "bag" in spades
    assert "Call 1 to 13" not in spades
    oh_hell = rules_summary(callbreak.Rules.preset("oh-hell"))
    assert "exactly" in oh_hell and "12, 11, 10" in oh_hell and "turned up" in oh_hell
    judgement = rules_summary(callbreak.Rules.preset("judgement"))
    assert "7, 6, 5, 4, 3, 2, 1, 2, 3" in judgement and "a miss scores nothing" in judgement
    assert rules_summary(callbreak.Rules.preset("callbreak")).startswith("Call 1 to 13 tricks")


def _prompt_at_call(preset: str, seed: int) -> tuple[str, tuple[Any, ...]]:
    deal = callbreak.Deal(callbreak.Rules.preset(preset), seed=seed, dealer=0)
    pick = random.Random(seed)
    while True:
        assert deal.to_act is not None
        view = deal.observation(deal.to_act)
        if view.phase == "call" and deal.to_act == 0:
            return phase_face(view.phase).prompt(view), view.legal
        deal.act(pick.choice(deal.legal()))


@pytest.mark.parametrize(("preset", "expected"), [("callbreak", "1–13"), ("spades", "0–13")])
def test_the_call_prompt_offers_the_legal_calls(preset: str, expected: str) -> None:
    prompt, _ = _prompt_at_call(preset, 1)
    assert f"({expected})" in prompt


def test_the_hook_shows_as_the_one_call_the_dealer_may_not_make() -> None:
    # Seat 0 deals and so bids last in Oh Hell: the total the others bid forbids one number.
    prompt, legal = _prompt_at_call("oh-hell", 2)
    missing = sorted(set(range(13)) - set(legal))
    assert len(missing) == 1
    assert f"but not {missing[0]}" in prompt
