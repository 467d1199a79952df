"""``callbreak arena --pool``: mixes, the candidate's figures per mix, the worst mix, the CLI."""

from __future__ import annotations

import itertools
import json
from collections import Counter

import pytest
from rich.console import Console
from typer.testing import CliRunner

from callbreak import Rules
from callbreak.arena import ArenaConfig, ArenaError, run_arena, summarize
from callbreak.arena.pool import (
    POOLS,
    PoolConfig,
    expand_pool,
    mix_count,
    mix_mode,
    mixes,
    run_pool,
)
from callbreak.arena.stats import mean
from callbreak.bots import available_bots, base
from callbreak.bots.heuristic import HeuristicBot
from callbreak.cli.main import app
from callbreak.cli.pool import print_pool
from callbreak.engine import Action, Observation

runner = CliRunner()
CALLBREAK = Rules.preset("callbreak")


# ------------------------------------------------------------------ pools and mixes
def test_pool_names_expand_to_registered_bots() -> None:
    for specs in POOLS.values():
        assert set(specs) <= set(available_bots())
    assert expand_pool(["default"]) == POOLS["default"]
    assert set(POOLS["styles"]) < set(POOLS["default"])
    assert {"heuristic", "expert-plain", "selfplay", "mcts"} < set(POOLS["default"])
    # Repeated names count once, in order; spaces separate names inside one item.
    assert expand_pool(["ducker trumper", "ducker", "expert:budget_ms=50,call_bias=0"]) == (
        "ducker",
        "trumper",
        "expert:budget_ms=50,call_bias=0",
    )
    with pytest.raises(ArenaError, match="empty"):
        expand_pool(["  "])


def test_mixes_are_enumerated_correctly() -> None:
    pool = ("a", "b", "c", "d")
    repeat = mixes(pool, "repeat")
    assert len(repeat) == 20 == mix_count(4, "repeat")
    # Every multiset of three members exactly once.
    every = {tuple(sorted(m)) for m in itertools.product(pool, repeat=3)}
    assert {tuple(sorted(m)) for m in repeat} == every
    assert len({frozenset(Counter(m).items()) for m in repeat}) == 20
    distinct = mixes(pool, "distinct")
    assert distinct == [("a", "b", "c"), ("a", "b", "d"), ("a", "c", "d"), ("b", "c", "d")]
    assert mixes(pool, "uniform") == [(x, x, x) for x in pool]
    assert len(mixes(pool, "repeat", seats=2)) == 10
    # auto: with repetition up to five members, without beyond.
    assert mix_mode(5, "auto") == "repeat" and mix_mode(6, "auto") == "distinct"
    seven = tuple("abcdefg")
    assert len(mixes(seven, "auto")) == 35 == mix_count(7, "auto")
    assert mix_count(7, "repeat") == 84 == len(mixes(seven, "repeat"))
    with pytest.raises(ArenaError, match="at least 3"):
        mixes(("a", "b"), "distinct")
    with pytest.raises(ArenaError, match="choose one of"):
        mixes(pool, "some")


def test_unknown_bots_are_named_before_any_game() -> None:
    with pytest.raises(ArenaError, match="genius"):
        PoolConfig(CALLBREAK, "heuristic", ("ducker", "genius"), deals=1).check()
    with pytest.raises(ArenaError, match="at least one deal"):
        PoolConfig(CALLBREAK, "heuristic", ("ducker",), deals=0)


# ------------------------------------------------------------------ figures
def test_the_candidate_against_each_mix_and_the_worst_mix() -> None:
    config = PoolConfig(CALLBREAK, "heuristic", ("random", "cautious"), deals=4, seed=2)
    result = run_pool(config, workers=1)
    assert [m.mix for m in result.mixes] == [
        ("random", "random", "random"),
        ("random", "random", "cautious"),
        ("random", "cautious", "cautious"),
        ("cautious", "cautious", "cautious"),
    ]
    edges = [m.edge.mean for m in result.mixes]
    assert result.worst.edge.mean == min(edges)
    assert result.worst.mix == ("cautious", "cautious", "cautious")
    assert edges[0] > 5  # three random seats are far weaker than the heuristic
    for mix in result.mixes:
        assert mix.games == 16 and len(mix.edges) == 4
        assert mix.made_rate is not None and 0 <= mix.made_rate <= 1
        assert mix.illegal == mix.mix_illegal == 0
    # The whole pool: per deal set, the mean of the mixes' edges.
    assert result.overall.mean == pytest.approx(mean(edges))
    # Over each member: against three random, the member edge is the mix edge.
    assert set(result.members) == {"random", "cautious"}
    assert result.members["cautious"].mean < result.members["random"].mean
    document = result.json()
    assert document["worst_mix"]["mix"] == ["cautious", "cautious", "cautious"]
    # The per-deal-set edges, in deal order: what a paired comparison of two candidates
    # run on the same seed needs.
    for listed, mix in zip(document["mixes"], result.mixes, strict=True):
        assert listed["edges"] == mix.edges and mean(listed["edges"]) == pytest.approx(
            mix.edge.mean
        )
    assert len(document["mixes"]) == 4 and document["deals_per_mix"] == 4
    assert document["games"] == 4 * 4 * 4
    json.dumps(document)


def test_a_mix_measures_what_the_arena_measures_for_the_same_lineup() -> None:
    """The pool is the arena run once per mix: same deals, same games, same edge."""
    config = PoolConfig(CALLBREAK, "ducker", ("random",), deals=3, seed=5, mode="uniform")
    mix = run_pool(config, workers=1).mixes[0]
    arena = summarize(run_arena(ArenaConfig(CALLBREAK, ("ducker", *["random"] * 3), 3, 5), 1))
    ducker = next(bot for bot in arena.bots if bot.spec == "ducker")
    assert ducker.edge is not None
    assert mix.edge.mean == pytest.approx(ducker.edge.mean)
    assert mix.made_rate == pytest.approx(ducker.made_rate)
    assert mix.call_minus_won == pytest.approx(ducker.mean_call_minus_tricks)


def test_the_candidate_is_its_own_seat_even_when_the_pool_holds_it() -> None:
    """A mix of three copies of the candidate's own bot is an even table: edge 0 on average,
    measured on the candidate's seat, not pooled with the copies."""
    config = PoolConfig(CALLBREAK, "heuristic", ("heuristic",), deals=3, seed=1)
    result = run_pool(config, workers=1)
    assert len(result.mixes) == 1
    assert result.mixes[0].edge.mean == pytest.approx(0, abs=1e-9)


def test_the_worker_count_changes_no_figure() -> None:
    config = PoolConfig(CALLBREAK, "trumper", ("ducker", "random"), deals=3, seed=4)
    one = run_pool(config, workers=1)
    two = run_pool(config, workers=2)
    assert [m.edges for m in one.mixes] == [m.edges for m in two.mixes]
    assert two.backend == "processes"


class _OutOfTimeOnCards(HeuristicBot):
    """The heuristic that says it fell back on every card (as the expert does out of time)."""

    name = "out-of-time"

    def act(self, observation: Observation) -> Action:
        action = super().act(observation)
        self.fell_back = "no world searched in time" if observation.phase == "play" else None
        return action


def test_answers_from_a_stand_in_are_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot that says it answered with a stand-in's move (``fell_back``) is counted per
    decision, in the arena's figures and in the pool's; the others count none."""
    monkeypatch.setitem(base._REGISTRY, "out-of-time", (_OutOfTimeOnCards, "falls back"))
    run = run_arena(ArenaConfig(CALLBREAK, ("out-of-time", *["heuristic"] * 3), 2, 3), 1)
    cards = 2 * 4 * 13  # deal sets × rotations × its cards in each game
    assert run.fallbacks == [cards, 0, 0, 0]
    slow = next(bot for bot in summarize(run).bots if bot.spec == "out-of-time")
    assert slow.fallbacks == cards and slow.decisions == cards + 2 * 4
    assert summarize(run).json()["bots"][0]["fallbacks"] == cards
    pool = run_pool(PoolConfig(CALLBREAK, "out-of-time", ("random",), deals=2, seed=3), 1)
    assert pool.fallbacks == pool.mixes[0].fallbacks == cards
    assert pool.json()["fallbacks"] == cards and pool.json()["decisions"] == pool.decisions
    plain = run_pool(PoolConfig(CALLBREAK, "heuristic", ("random",), deals=1, seed=3), 1)
    assert plain.fallbacks == 0 and plain.decisions == 4 * 14
    result = runner.invoke(
        app,
        [
            *("arena", "--pool", "random", "--candidate", "out-of-time"),
            *("--deals", "1", "--workers", "1"),
        ],
        env={"COLUMNS": "200"},
    )
    assert result.exit_code == 0, result.output
    assert "52 of 56 answered by a stand-in" in " ".join(result.output.split())


# ------------------------------------------------------------------ the command
def test_arena_help_describes_the_pool() -> None:
    result = runner.invoke(app, ["arena", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for words in ("--pool", "--candidate", "--mixes", "repetition", "worst mix", "default"):
        assert words in result.output


def test_arena_pool_prints_each_mix_and_the_worst() -> None:
    args = ["arena", "--pool", "random", "--pool", "ducker", "--candidate", "heuristic"]
    result = runner.invoke(app, [*args, "--deals", "2", "--workers", "1"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "heuristic against 4 mixes (repeat) of 2 bots" in result.output
    for mix in ("3× random", "2× random + ducker", "random + 2× ducker", "3× ducker"):
        assert mix in result.output
    assert "Worst mix (*)" in result.output
    assert "Edge over each member" in result.output


def test_remote_members_keep_distinct_names_in_narrow_tables() -> None:
    """Two remote seats, ``http://127.0.0.1:8001`` and ``...:8002``, once both read
    ``http://127.0.0.1:…`` in a table too wide for the terminal; now the cut keeps the ports."""
    config = PoolConfig(CALLBREAK, "heuristic", ("random", "ducker"), 1, 2, mode="uniform")
    result = run_pool(config, workers=1)
    remote = {"random": "http://127.0.0.1:8001", "ducker": "http://127.0.0.1:8002"}
    for mix in result.mixes:
        mix.mix = tuple(remote[spec] for spec in mix.mix)
    result.members = {remote[spec]: edge for spec, edge in result.members.items()}
    console = Console(record=True, width=60, color_system=None)
    print_pool(console, result)
    text = console.export_text()
    assert "127.0.0.1:…" not in text
    rows = [
        line.split()[0] for line in text.splitlines() if line.lstrip().startswith(("3×", "http"))
    ]
    assert len(rows) == 4, text  # two mixes, two members, a line each
    assert rows[0] != rows[1] and rows[2] != rows[3], rows


def test_arena_pool_json() -> None:
    pool = ["--pool", "trumper cautious", "--candidate", "heuristic", "--mixes", "uniform"]
    result = runner.invoke(
        app,
        ["arena", *pool, "--deals", "2", "--workers", "1", "--json", "--rules", "callbreak-bhoos"],
    )
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["rules"] == "callbreak-bhoos"
    assert document["mode"] == "uniform"
    assert [m["mix"] for m in document["mixes"]] == [["trumper"] * 3, ["cautious"] * 3]
    worst = min(document["mixes"], key=lambda m: m["edge"]["mean"])
    assert document["worst_mix"] == worst
    assert set(document["edge_vs_member"]) == {"trumper", "cautious"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--pool", "styles"], "--candidate"),
        (["--candidate", "heuristic"], "goes with --pool"),
        (["--pool", "styles", "--candidate", "heuristic", "--seat", "random"], "--seat"),
        (["--pool", "genius", "--candidate", "heuristic"], "genius"),
        (["--pool", "styles", "--candidate", "heuristic", "--mixes", "all"], "choose one of"),
    ],
)
def test_arena_pool_refuses_what_it_cannot_run(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["arena", *args, "--deals", "1"], env={"COLUMNS": "200"})
    assert result.exit_code != 0
    assert message in result.output
