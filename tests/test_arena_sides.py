"""The arena in a partnership game: lineups fill sides, the rotation keeps partners together,
and every figure is a side's (docs/arena.md, "Partnership games")."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from callbreak import Rules
from callbreak.arena import ArenaConfig, ArenaError, ArenaRun, lineup, run_arena, summarize
from callbreak.arena.play import check_sides, entry_sides, seat_of
from callbreak.arena.pool import PoolConfig
from callbreak.arena.report import render_html
from callbreak.arena.stats import Interval, mean, mean_ci
from callbreak.cli.main import _interval, app

SPADES = Rules.preset("spades")


@pytest.fixture(scope="module")
def spades_run() -> ArenaRun:
    """Heuristic partnered with random against two random, 12 deal sets (48 games)."""
    config = ArenaConfig(SPADES, lineup(["heuristic", "random", "random", "random"], 4), 12, 7)
    return run_arena(config, workers=1)


def test_one_spec_per_side_fills_the_sides_seats() -> None:
    assert SPADES.shape.partnerships == ((0, 2), (1, 3))
    assert lineup(["heuristic", "random"], 4, rules=SPADES) == (
        "heuristic",
        "random",
        "heuristic",
        "random",
    )
    with pytest.raises(ArenaError, match=r"one per side \(2\)"):
        lineup(["heuristic", "random", "random"], 4, rules=SPADES)
    with pytest.raises(ArenaError, match="exactly 4 seats, not 2"):  # no sides, no shortcut
        lineup(["heuristic", "random"], 4, rules=Rules.preset("callbreak"))


def test_the_rotation_keeps_partners_on_one_side(spades_run: ArenaRun) -> None:
    sides = {frozenset(side) for side in SPADES.shape.partnerships}
    assert spades_run.config.teams == ((0, 2), (1, 3))
    for result in spades_run.sets:
        assert [game.rotation for game in result.games] == [0, 1, 2, 3]
        for game in result.games:
            for team in spades_run.config.teams:
                seats = frozenset(game.plays[e].seat for e in team)
                assert seats in sides
                assert seats == {seat_of(e, game.rotation, 4) for e in team}
                # partners share the side's score
                assert len({game.plays[e].points_tenths for e in team}) == 1


def test_sides_the_rotation_would_split_are_refused() -> None:
    check_sides(((0, 2), (1, 3)), 4)
    check_sides(((0, 2, 4), (1, 3, 5)), 6)
    check_sides((), 4)
    with pytest.raises(ArenaError, match="rotation 1 would seat the partners of seats 0, 1"):
        check_sides(((0, 1), (2, 3)), 4)
    assert entry_sides((), 3) == ((0,), (1,), (2,))
    assert entry_sides(((0, 2),), 3) == ((0, 2), (1,))


def test_the_summary_is_by_side_with_an_edge_and_interval_each(spades_run: ArenaRun) -> None:
    summary = summarize(spades_run)
    assert summary.by_side and summary.par == 0.5
    assert [(bot.spec, bot.entries) for bot in summary.bots] == [
        ("heuristic + random", (0, 2)),
        ("random ×2", (1, 3)),
    ]
    # one result per side and game, the partners' shared score, and the edge worked out by hand
    side_a = [[g.plays[0].points_tenths / 10 for g in s.games] for s in spades_run.sets]
    side_b = [[g.plays[1].points_tenths / 10 for g in s.games] for s in spades_run.sets]
    first, second = summary.bots
    assert first.games == second.games == 12 * 4
    assert first.points_per_game == [v for values in side_a for v in values]
    assert first.points == mean_ci([mean(values) for values in side_a])
    edges = [mean(a) - mean(b) for a, b in zip(side_a, side_b, strict=True)]
    assert first.edge == mean_ci(edges)
    assert second.edge is not None and first.edge is not None
    assert second.edge.mean == pytest.approx(-first.edge.mean)
    assert first.edge.half_width is not None and first.edge.half_width > 0
    assert first.edge.half_width == pytest.approx(second.edge.half_width)
    assert first.matches == second.matches
    assert first.match_share is not None and second.match_share is not None
    assert first.match_share + second.match_share == pytest.approx(1.0)
    # the calls stay each partner's own: both entries of a side bid in every game
    assert sum(row.count for row in first.calibration) == 2 * first.games
    document = summary.json()
    assert document["by"] == "side" and document["sides"] == [[0, 2], [1, 3]]
    assert document["bots"][0]["edge_vs_others"]["half_width"] == first.edge.half_width
    page = render_html(summary)
    assert "<th>side</th>" in page and "#0 heuristic and #2 random" in page
    assert "50%\nis par" in page


def test_a_pool_is_refused_in_a_partnership_game() -> None:
    with pytest.raises(ArenaError, match="played by sides of partners"):
        PoolConfig(SPADES, "heuristic", ("random",), deals=1)


def test_a_free_for_all_stays_by_bot() -> None:
    config = ArenaConfig(Rules.preset("callbreak"), lineup(["heuristic", "random"] * 2, 4), 2, 1)
    summary = summarize(run_arena(config, workers=1))
    assert not summary.by_side and summary.par == 0.25
    assert [(bot.spec, bot.entries) for bot in summary.bots] == [
        ("heuristic", (0, 2)),
        ("random", (1, 3)),
    ]
    assert [bot.games for bot in summary.bots] == [16, 16]  # every seat is a result of its own
    assert summary.json()["by"] == "bot" and summary.json()["sides"] is None
    assert "<th>bot</th>" in render_html(summary)


def test_the_cli_reports_sides(tmp_path: Path) -> None:
    args = ["arena", "--rules", "spades", "--seat", "heuristic", "--seat", "random"]
    common = ["--deals", "3", "--seed", "2", "--workers", "1"]
    result = CliRunner().invoke(app, [*args, *common, "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["seats"] == ["heuristic", "random", "heuristic", "random"]
    assert document["by"] == "side"
    assert [bot["spec"] for bot in document["bots"]] == ["heuristic ×2", "random ×2"]
    table = CliRunner().invoke(app, [*args, *common], env={"COLUMNS": "160"})
    assert table.exit_code == 0, table.output
    assert "Side" in table.output and "heuristic ×2" in table.output
    assert "lineup entries #0+#2, #1+#3" in table.output


def test_the_tables_fit_80_columns_with_spades_hundreds() -> None:
    """Spades' points run to hundreds with wide intervals: the tables take fewer decimals and
    narrower gaps rather than cutting a value or a side's name with "…"."""
    args = ["arena", "--rules", "spades", "--deals", "4", "--seed", "1", "--workers", "1"]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert "…" not in result.output
    rows = [line for line in result.output.splitlines() if "heuristic + random" in line]
    assert len(rows) == 3  # the arena, decisions and calibration tables, each on one line
    assert re.search(r"heuristic \+ random +-?\d+±\d+ +-?\d+±\d+ ", rows[0])


def test_call_break_tables_that_fit_keep_two_decimals_and_their_spacing() -> None:
    args = ["arena", "--deals", "4", "--seed", "1", "--workers", "1"]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    # two spaces before the first column and two between columns: the layout as always
    assert any(re.match(r"  Bot {3,}Points/deal {3,}Edge {3,}Won ", line) for line in lines)
    row = next(line for line in lines if line.startswith("  heuristic "))
    assert re.search(r"  -?\d+\.\d\d±\d+\.\d\d +-?\d+\.\d\d±\d+\.\d\d ", row)


@pytest.mark.parametrize(
    ("mean", "half", "compact"),
    [
        (-108.62, 92.45, "-109±92"),
        (180.12, 1.71, "180.1±1.7"),
        (50.47, 0.45, "50.47±0.45"),
        (-0.3, 12.0, "0±12"),
        (-108.62, None, "-109"),
        (2.5, None, "2.50"),
    ],
)
def test_compact_intervals_keep_the_decimals_their_half_width_warrants(
    mean: float, half: float | None, compact: str
) -> None:
    interval = Interval(mean, half, 4)
    assert _interval(interval, compact=True) == compact
    assert _interval(interval, compact=False) == interval.text().replace(" ± ", "±")
