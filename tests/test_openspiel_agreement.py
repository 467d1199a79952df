"""Spades and Oh Hell agree with OpenSpiel's ``spades`` and ``oh_hell`` deal for deal: the same
cards, the same random legal actions, and at every step the same seat to act and legal
actions, the same trick winners and the same points (``bench/openspiel_agreement.py`` says
which options are set to OpenSpiel's and why; it runs 2,000 deals a line)."""

from __future__ import annotations

from types import ModuleType

import pytest

from bench_support import load_bench

pytest.importorskip("pyspiel", reason="OpenSpiel is in the dev extra")

DEALS = 200


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_bench("openspiel_agreement")


def test_spades_agrees(bench: ModuleType) -> None:
    outcomes = [bench.spades_deal(seed) for seed in range(DEALS)]
    assert [o.why for o in outcomes if not o.agreed] == []
    assert sum(o.steps for o in outcomes) == DEALS * (4 + 52)


@pytest.mark.parametrize("players", range(3, 8))
def test_oh_hell_agrees(bench: ModuleType, players: int) -> None:
    most = 51 // players
    sizes = (1, most // 2 or 1, most)
    outcomes = [
        bench.oh_hell_deal(seed, players, sizes[seed % 3], off_bid=seed % 2 == 1)
        for seed in range(DEALS)
    ]
    assert [o.why for o in outcomes if not o.agreed] == []
    assert sum(o.steps for o in outcomes) == sum(
        players * (1 + sizes[seed % 3]) for seed in range(DEALS)
    )


def test_a_disagreement_is_reported(bench: ModuleType) -> None:
    """The harness is no rubber stamp: a wrong score is caught and named."""
    from callbreak.games import ohhell

    real = ohhell.GAME.scorer
    object.__setattr__(ohhell.GAME, "scorer", lambda deal: [p * 2 for p in real(deal)])
    try:
        outcome = bench.oh_hell_deal(1, 4, 5)
    finally:
        object.__setattr__(ohhell.GAME, "scorer", real)
    assert not outcome.agreed and outcome.why.startswith("points")
