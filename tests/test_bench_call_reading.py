"""``bench/call_reading.py``: its figures say which estimate of a hand explains the calls made
with it, so it must find the estimate a caller really calls by: the heuristic calls by the
rule of thumb, and the script has to rank that reading first on the heuristic's calls."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest

from bench_support import load_bench


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_bench("call_reading")


def test_call_probabilities_are_a_distribution_over_the_calls(bench: ModuleType) -> None:
    estimates = np.array([0.2, 3.4, 12.9])
    grid = np.array(
        [bench.call_probabilities(estimates, np.full(3, c), 0.3, 0.6) for c in range(1, 14)]
    )
    assert np.allclose(grid.sum(axis=0), 1.0)
    assert grid[:, 1].argmax() + 1 == 3  # 3.4 less 0.3 lies nearest a call of 3
    assert grid[:, 0].argmax() + 1 == 1  # a hand worth less than one still calls one


def test_the_heuristics_calls_are_read_best_by_its_own_rule(bench: ModuleType) -> None:
    rows = load_bench("expert_deals").stream("heuristic", 61, 120)
    scores = bench.scores(rows)
    rule = next(v for k, v in scores.items() if k.startswith("rule of thumb"))
    learned = next(v for k, v in scores.items() if k.startswith("forecast mean, calls"))
    shipped = scores["the sampler as shipped (shortfall 0, spread 0.6)"]
    assert rule > shipped > learned  # fitted to its rule, then as shipped, then the forecast
    assert all(value < 0 for value in scores.values())
