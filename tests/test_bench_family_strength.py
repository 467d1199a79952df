"""``bench/family_strength.py``: the strength table of docs/bots.md is printed from the
arena's JSON, so its rows must read that JSON right (the expert's row, the signed edge,
the match share against par with its interval) and its commands must be the arena's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from bench_support import load_bench

ROOT = Path(__file__).parents[1]


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_bench("family_strength")


def test_the_wilson_interval(bench: ModuleType) -> None:
    low, high = bench.wilson(0.5, 100)
    assert (round(low, 3), round(high, 3)) == (0.404, 0.596)
    assert bench.wilson(0.0, 0) == (0.0, 1.0)
    low, high = bench.wilson(0.0, 30)
    assert low == 0.0 and 0 < high < 0.15


def _args(bench: ModuleType, **lineup: str) -> Any:
    """The bench's parsed arguments for one table's command: the expert at 100 ms, whole
    matches, seed 1 on two workers, with ``lineup`` (``against=`` or ``pool=``)."""
    fixed = {"candidate": "expert", "budget_ms": 100, "workers": 2, "seed": 1}
    return bench.argparse.Namespace(**fixed, whole_matches=True, **lineup)


def test_the_commands_seat_the_expert_once_and_name_the_seat_count(bench: ModuleType) -> None:
    args = _args(bench, against="heuristic")
    line = bench.command("snarples@5", 40, args)
    assert line[:6] == ["callbreak", "arena", "--rules", "snarples", "--option", "players=5"]
    assert line.count("--seat") == 5 and "expert:budget_ms=100" in line
    assert "--whole-matches" in line and line[-1] == "--json"
    assert "--option" not in bench.command("batak-ihale@4", 10, args)
    args.whole_matches = False  # --deal-groups
    assert "--whole-matches" not in bench.command("snarples@5", 40, args)
    args.candidate = "expert:match_odds=0"  # options of its own: the budget joins them
    assert "expert:match_odds=0,budget_ms=100" in bench.command("donut@4", 30, args)


def test_a_row_reads_the_experts_entry_from_the_arena_json(bench: ModuleType) -> None:
    def interval(mean: float, half: float) -> dict[str, float]:
        return {"mean": mean, "half_width": half}

    summary: dict[str, Any] = {
        "bots": [
            {
                "points_per_deal": interval(-1.0, 0.2),
                "edge_vs_others": interval(0.4, 0.1),
                "match_share": 0.55,
                "matches": 200,
                "decision_ms": {"p50": 80.0, "p99": 85.0, "max": 90.0},
                "fallbacks": 3,
                "decisions": 300,
            },
            {"points_per_deal": interval(-0.6, 0.2)},
        ]
    }
    row = bench.row("snarples@3", 100, json.loads(json.dumps(summary)), 12.0)
    assert "| snarples@3 | 100 | -1.00 ± 0.20 | -0.60 | +0.40 ± 0.10 |" in row
    assert "55% [48%, 62%] of 200 (par 33%; 1.5 × par and clear: yes)" in row
    assert "| 3 (1.0%) |" in row
    summary["deals_per_match"] = 8.25
    assert "| snarples@3 | 100 (8.2 deals each) | -1.00" in bench.row("snarples@3", 100, summary, 1)
    summary["bots"][0]["match_share"] = 0.45
    assert "clear: no" in bench.row("snarples@3", 100, summary, 12.0)
    summary["sides"] = [[0, 2], [1, 3]]  # Spades: two sides, so par is a half
    summary["bots"][0]["match_share"] = 0.70
    assert "(par 50%; 1.5 × par and clear: no)" in bench.row("spades@4", 100, summary, 1.0)


def test_help_runs() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "family_strength.py"), "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "--tables" in done.stdout


def test_a_pool_row_reads_the_pool_json(bench: ModuleType) -> None:
    def interval(mean: float, half: float) -> dict[str, float]:
        return {"mean": mean, "half_width": half}

    summary = {
        "mixes": [{}, {}, {}],
        "edge_vs_pool": interval(0.3, 0.1),
        "edge_vs_member": {"cautious": interval(0.2, 0.1), "aggressive": interval(0.4, 0.2)},
        "worst_mix": {"mix": ["cautious", "cautious"], "edge": interval(0.1, 0.15)},
        "fallbacks": 0,
        "decisions": 50,
    }
    row = bench.pool_row("snarples@3", 40, summary, 5.0)
    assert row.startswith("| snarples@3 | 40 × 3 | +0.30 ± 0.10 |")
    assert "cautious +0.20 ± 0.10, aggressive +0.40 ± 0.20" in row
    assert "cautious + cautious: +0.10 ± 0.15" in row
    assert "| - |" in row  # no match share in the JSON: none shown
    summary.update(match_share=0.5, matches=100, par=1 / 3)
    assert "| 50% [40%, 60%] of 100 (par 33%) |" in bench.pool_row("snarples@3", 40, summary, 5)
    args = _args(bench, pool="cautious aggressive")
    line = bench.pool_command("donut@4", 30, args)
    assert "--whole-matches" in line
    assert line[line.index("--pool") + 1] == "cautious aggressive"
    assert line[line.index("--candidate") + 1] == "expert:budget_ms=100"
