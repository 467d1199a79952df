"""The OpenSpiel adaptor's chance nodes take only their own outcomes (``chance_outcomes()``):
a card dealt twice or an index outside the pack is refused at once, the state unchanged,
rather than at the last card where the whole pack is dealt."""

from __future__ import annotations

from typing import Any

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install callbreak[bench])"
)


def fresh(name: str = "python_callbreak") -> Any:
    from callbreak.env import spiel

    spiel.register()
    return pyspiel.load_game(name).new_initial_state()


def test_a_card_dealt_twice_is_refused_and_nothing_changes() -> None:
    state = fresh()
    state.apply_action(0)
    outcomes = state.chance_outcomes()
    with pytest.raises(ValueError, match=r"chance outcome 0 \(2S\) is dealt already"):
        state.apply_action(0)
    assert state.history() == [0] and state.chance_outcomes() == outcomes
    state.apply_action(1)  # a card not dealt yet is still taken
    assert state.history() == [0, 1]


@pytest.mark.parametrize("outcome", [52, 99, -2])
def test_an_outcome_outside_the_pack_is_refused(outcome: int) -> None:
    state = fresh()
    with pytest.raises(ValueError, match=rf"chance outcome {outcome} is not a card"):
        state.apply_action(outcome)
    assert state.history() == [] and len(state.chance_outcomes()) == 52


def test_the_rook_deck_counts_its_own_cards() -> None:
    state = fresh("python_rook_call_partner")
    with pytest.raises(ValueError, match="from 0 to 56"):
        state.apply_action(57)
    for outcome, _ in state.chance_outcomes()[:3]:
        state.apply_action(outcome)
    assert len(state.chance_outcomes()) == 54
