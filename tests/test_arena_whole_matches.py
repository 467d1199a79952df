"""The arena's whole matches: each deal set starts a match played to its end under the rules,
the same cards in every rotation, won as the engine says (``ArenaConfig.whole_matches``),
alone and against a pool."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from callbreak import Rules
from callbreak.arena import ArenaConfig, ArenaRun, run_arena, summarize
from callbreak.arena.play import GameResult, entry_at
from callbreak.arena.pool import PoolConfig, run_pool
from callbreak.cli.main import app
from callbreak.record import replay

runner = CliRunner()
HORSETHIEF = Rules.preset("horsethief").replace(players=3)
LINEUP = ("heuristic", "random", "random")


@pytest.fixture(scope="module")
def run() -> ArenaRun:
    config = ArenaConfig(HORSETHIEF, LINEUP, deals=3, seed=2, keep_records=True, whole_matches=True)
    return run_arena(config, workers=1)


def _totals(game: GameResult) -> list[int]:
    """Each entry's points over the whole match, in tenths."""
    totals = [0] * len(game.claims)
    for play in game.plays:
        totals[play.entry] += play.points_tenths
    return totals


def test_every_game_is_a_match_played_to_its_target_and_won_by_the_engines_winners(
    run: ArenaRun,
) -> None:
    for result in run.sets:
        for game in result.games:
            assert game.record is not None
            replay(game.record)
            totals = _totals(game)
            assert game.deals == len(game.record["deals"]) > 1
            assert max(totals) >= 150  # first to 15 points
            assert list(game.winners) == [e for e, t in enumerate(totals) if t == max(totals)]
            seats = game.record["result"]["winners"]
            assert sorted(entry_at(s, game.rotation, 3) for s in seats) == list(game.winners)
            assert [p.deal for p in game.plays] == [d for d in range(game.deals) for _ in range(3)]


def test_the_rotations_play_the_same_cards_deal_by_deal(run: ArenaRun) -> None:
    for result in run.sets:
        records = [game.record for game in result.games]
        assert all(record is not None for record in records)
        shortest = min(len(record["deals"]) for record in records if record)
        for number in range(shortest):
            hands = {json.dumps(record["deals"][number]["hands"]) for record in records if record}
            assert len(hands) == 1, f"deal set {result.deal.index}, deal {number}"


def test_the_summary_counts_one_match_per_game_with_the_deals_per_match(run: ArenaRun) -> None:
    summary = summarize(run)
    assert summary.deals_per_match is not None and summary.deals_per_match > 1
    assert "whole matches to 15 points" in summary.match_unit
    assert all(bot.matches == 3 * 3 * len(bot.entries) for bot in summary.bots)
    wins = sum(bot.match_share * bot.matches for bot in summary.bots if bot.match_share)
    assert wins == pytest.approx(3 * 3)  # every match won once, shared wins split
    deals = sum(game.deals for result in run.sets for game in result.games)
    assert sum(bot.games for bot in summary.bots) == deals * 3  # points count every deal
    document = summary.json()
    assert document["whole_matches"] is True
    assert document["deals_per_match"] == pytest.approx(deals / 9)


def test_a_countdown_match_runs_down_to_zero() -> None:
    """Donut's match ends when a seat's count reaches zero, not after its five deals."""
    rules = Rules.preset("donut")
    config = ArenaConfig(rules, ("heuristic",) * 4, deals=1, seed=3, whole_matches=True)
    game = run_arena(config, workers=1).sets[0].games[0]
    start = rules.shape.start * 10
    counts = [start + total for total in _totals(game)]
    assert min(counts) <= 0
    assert [e for e, c in enumerate(counts) if c == min(counts)] == list(game.winners)


def test_an_open_ended_match_plays_its_number_of_deals() -> None:
    rules = Rules.preset("callbridge").with_an_end()
    assert rules.match_end == "deals"
    config = ArenaConfig(
        Rules.preset("callbridge"), ("random",) * 4, deals=1, seed=1, whole_matches=True
    )
    for game in run_arena(config, workers=1).sets[0].games:
        assert game.deals >= rules.match_deals


def test_the_command_plays_whole_matches_alone_and_with_a_pool() -> None:
    args = ["arena", "--rules", "horsethief", "--option", "players=3", "--seat", "heuristic"]
    args += ["--seat", "random", "--seat", "random", "--deals", "2", "--workers", "1"]
    done = runner.invoke(app, [*args, "--whole-matches", "--json"])
    assert done.exit_code == 0, done.output
    assert json.loads(done.output)["whole_matches"] is True
    table = runner.invoke(app, [*args, "--whole-matches"])
    assert "2 matches × 3 rotations" in table.output and "whole matches" in table.output
    pool = ["arena", "--rules", "horsethief", "--option", "players=3", "--pool", "random"]
    pool += ["--candidate", "heuristic", "--deals", "2", "--workers", "1", "--whole-matches"]
    pooled = runner.invoke(app, [*pool, "--json"])
    assert pooled.exit_code == 0, pooled.output
    document = json.loads(pooled.output)
    assert document["whole_matches"] is True and document["matches"] == 2 * 3
    assert 0 <= document["match_share"] <= 1 and document["par"] == pytest.approx(1 / 3)
    assert "won " in runner.invoke(app, pool).output


def test_a_pools_matches_are_the_arenas() -> None:
    """The pool counts the candidate's matches as the arena does, mix by mix: whole matches
    won as the engine says, or groups of single deals."""
    for whole in (True, False):
        config = PoolConfig(HORSETHIEF, "heuristic", ("random",), 5, 2, whole_matches=whole)
        result = run_pool(config, workers=1)
        (arena,) = [summarize(run_arena(c, workers=1)).bots[0] for c in config.arena_configs()]
        (mix,) = result.mixes
        assert mix.matches == arena.matches == (15 if whole else 3)
        assert mix.match_share == pytest.approx(arena.match_share)
        assert result.match_share == pytest.approx(arena.match_share)


def test_a_match_that_never_reaches_its_target_stops_the_run_and_says_what_to_change() -> None:
    """Random bots in Call Partner fail contract after contract, so no total ever reaches 500:
    the run waited for ever.  It now stops after ``MATCH_DEALS_LIMIT`` deals of one match, as
    a stalled game, and the command says how to give the match an end."""
    from callbreak.arena.errors import GameStalled
    from callbreak.arena.play import MATCH_DEALS_LIMIT

    rook = Rules.preset("rook-call-partner")
    config = ArenaConfig(rook, ("random",) * 4, deals=3, seed=0, whole_matches=True)
    with pytest.raises(GameStalled, match=f"played {MATCH_DEALS_LIMIT} deals") as stalled:
        run_arena(config, workers=1)
    assert "target:500" in str(stalled.value) and "match_end=deals:10" in str(stalled.value)
    ended = ArenaConfig(
        rook.replace(match_end="deals:10"), config.seats, deals=3, seed=0, whole_matches=True
    )
    assert len(run_arena(ended, workers=1).sets) == 3
    result = runner.invoke(
        app,
        [
            *("arena", "--rules", "rook-call-partner", "--seat", "random", "--whole-matches"),
            *("--deals", "3", "--seed", "0", "--workers", "1"),
        ],
    )
    assert result.exit_code == 1 and "--option match_end=deals:10" in result.output, result.output
