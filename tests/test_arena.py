"""The arena: duplicate rotation, reproducibility across workers, statistics, CLI and report."""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from rich.console import Console
from typer.testing import CliRunner

from callbreak import Rules
from callbreak.arena import (
    ArenaConfig,
    ArenaError,
    ArenaRun,
    lineup,
    run_arena,
    single_deal_rules,
    summarize,
)
from callbreak.arena.play import (
    DealSet,
    DealSetResult,
    GameResult,
    Play,
    deal_set,
    entry_at,
    seat_of,
)
from callbreak.arena.report import render_html
from callbreak.arena.stats import mean, mean_ci, percentile, sample_sd, t_quantile
from callbreak.bots import base
from callbreak.cards import CARD_NAMES, hand_names
from callbreak.cli.main import _print_arena, app
from callbreak.engine import Action, Deal, Observation
from callbreak.record import read_records, replay

runner = CliRunner()
CALLBREAK = Rules.preset("callbreak")
LINEUP = ("heuristic", "random", "random", "random")


def _config(deals: int, rules: Rules = CALLBREAK, **kwargs: Any) -> ArenaConfig:
    return ArenaConfig(rules, LINEUP, deals, seed=kwargs.pop("seed", 3), **kwargs)


def _deterministic(run: ArenaRun) -> list[Any]:
    """Everything about a run except what measures the machine (times, worker count)."""
    return [
        (
            result.deal,
            [(g.rotation, g.plays, g.first_dealt, g.redeals, g.claims) for g in result.games],
        )
        for result in run.sets
    ]


# ------------------------------------------------------------------ duplicate play
def test_every_rotation_plays_the_same_hands_and_every_entry_every_seat() -> None:
    run = run_arena(_config(6, keep_records=True), workers=1)
    assert [result.deal.index for result in run.sets] == list(range(6))
    hands_seen = set()
    for result in run.sets:
        assert len(result.games) == 4
        for game in result.games:
            assert game.first_dealt == result.deal.hands
            record = game.record
            assert record is not None
            first = record["deals"][0]
            assert first["dealer"] == result.deal.dealer
            assert first["hands"] == [hand_names(mask) for mask in result.deal.hands]
        for entry in range(4):
            seats = {game.plays[entry].seat for game in result.games}
            assert seats == {0, 1, 2, 3}
        hands_seen.add(result.deal.hands)
    assert len(hands_seen) == 6  # distinct deals, not one deal six times


def test_seat_rotation_is_a_permutation() -> None:
    for rotation in range(4):
        seats = [seat_of(entry, rotation, 4) for entry in range(4)]
        assert sorted(seats) == [0, 1, 2, 3]
        assert all(entry_at(seat_of(e, rotation, 4), rotation, 4) == e for e in range(4))


def test_deals_void_as_dealt_are_redrawn_into_playable_ones() -> None:
    bhoos = Rules.preset("callbreak-bhoos")  # misdeal = auto: a hand without K/Q/J is thrown in
    config = ArenaConfig(bhoos, ("random",) * 4, deals=60, seed=1)
    sets = [deal_set(config, index) for index in range(60)]
    assert any(s.redraws for s in sets)
    for s in sets:
        deal = Deal(config.game_rules, [[c for c in range(52) if m >> c & 1] for m in s.hands])
        assert deal.phase != "void"


def test_deal_sets_walk_the_schedule_of_a_game_whose_hands_change() -> None:
    """Deal set k plays deal k of Judgement's match (cycling), not always its first 7 cards."""
    rules = Rules.preset("judgement").replace(players=3)
    schedule = rules.shape.schedule
    assert schedule is not None
    sizes = schedule(rules)
    config = ArenaConfig(rules, ("random",) * 3, deals=2 * len(sizes), seed=4)
    for index in range(config.deals):
        dealt = deal_set(config, index)
        assert dealt.number == index % len(sizes)
        assert [mask.bit_count() for mask in dealt.hands] == [sizes[index % len(sizes)]] * 3


def test_every_rotation_plays_the_deal_sets_place_in_the_schedule() -> None:
    """Hand size, rotating trump and deal number are the deal set's, in every rotation, and
    the records replay; one schedule of deal sets holds every hand size once."""
    rules = Rules.preset("judgement").replace(players=3)
    config = ArenaConfig(rules, ("random",) * 3, deals=rules.match_deals, seed=4, keep_records=True)
    run = run_arena(config, workers=1)
    seen = []
    for result in run.sets:
        index = result.deal.index
        firsts = []
        for game in result.games:
            assert game.record is not None
            replay(game.record)
            firsts.append(game.record["deals"][0])
        assert {(d["number"], d["trump"], len(d["hands"][0])) for d in firsts} == {
            (index + 1, "SDCH"[index % 4], result.deal.hands[0].bit_count())
        }
        seen.append(len(firsts[0]["hands"][0]))
    assert seen == [7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7]


def test_single_deal_rules_close_open_ended_presets() -> None:
    rules = single_deal_rules(Rules.preset("callbridge"))
    assert (rules.match_end, rules.match_deals, rules.tie_break) == ("deals", 1, "shared")
    assert rules.scoring == "callbridge"


def test_same_results_for_one_and_two_workers() -> None:
    config = _config(10, rules=Rules.preset("callbridge"), seed=11)
    one = run_arena(config, workers=1)
    two = run_arena(config, workers=2)
    assert (one.backend, two.backend) == ("inline", "processes")
    assert _deterministic(one) == _deterministic(two)
    assert one.illegal == two.illegal == [0, 0, 0, 0]
    first, second = summarize(one).json(), summarize(two).json()
    for document in (first, second):
        del document["wall_s"], document["workers"], document["backend"]
        for bot in document["bots"]:
            del bot["decision_ms"]
    assert first == second


def test_a_different_seed_plays_different_games() -> None:
    assert _deterministic(run_arena(_config(3, seed=1), workers=1)) != _deterministic(
        run_arena(_config(3, seed=2), workers=1)
    )


def test_lineup_takes_one_seat_for_all_or_exactly_four() -> None:
    assert lineup(["random"], 4) == ("random",) * 4
    assert lineup(list(LINEUP), 4) == LINEUP
    with pytest.raises(ArenaError, match="exactly 4"):
        lineup(["random", "heuristic"], 4)
    with pytest.raises(ArenaError, match="unknown bot"):
        lineup(["genius"], 4)
    donut = Rules.preset("donut")
    assert lineup(["heuristic"], 4, rules=donut) == ("heuristic",) * 4
    expert = ("expert:budget_ms=50", "heuristic", "heuristic", "heuristic")
    assert lineup(list(expert), 4, rules=donut) == expert  # the expert plays every game
    with pytest.raises(ArenaError, match="Bhoos protocol is Call Break's only"):
        lineup(["http://127.0.0.1:9"], 4, rules=donut)


@pytest.mark.parametrize(
    ("preset", "named"),
    [
        ("callbridge", "calls 2..12"),
        ("batak-koz-maca", "must_trump=always"),
        # Call Break's own calls run to 13: the other seats' 9s were refused by the protocol's
        # side and counted as the remote bot's illegal answers.
        ("callbreak", "calls 1..13"),
    ],
)
def test_a_remote_seat_is_refused_rules_of_play_its_protocol_does_not_follow(
    preset: str, named: str
) -> None:
    # The tournament's bots call 1 to 8 and play by its rules of the card: under Call Bridge
    # or Koz Maça their answers were counted illegal, deal after deal, instead of refused.
    with pytest.raises(ArenaError, match="--rules callbreak-bhoos") as error:
        lineup(["http://127.0.0.1:9"], 4, rules=Rules.preset(preset))
    assert named in str(error.value)


def test_heuristic_beats_random_on_duplicate_deals() -> None:
    summary = summarize(run_arena(_config(100), workers=1))
    heuristic, random_ = summary.bots
    assert (heuristic.spec, random_.spec) == ("heuristic", "random")
    assert heuristic.points.mean > random_.points.mean
    assert heuristic.edge is not None and (heuristic.edge.low or 0) > 0
    assert heuristic.rating_mu > random_.rating_mu
    assert heuristic.illegal == random_.illegal == 0
    assert heuristic.games == 400 and random_.games == 1200
    assert heuristic.decision_ms is not None and heuristic.decisions >= 400 * 14


# ------------------------------------------------------------------ illegal actions
class BrokenBot:
    """Calls out of range and plays cards it does not hold; answers misdeal questions legally."""

    name = "broken-test"
    asked: ClassVar[list[str]] = []

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def act(self, observation: Observation) -> Action:
        if observation.phase == "call":
            BrokenBot.asked.append("call")
            return 99
        if observation.phase == "play":
            BrokenBot.asked.append("play")
            return next(name for name in CARD_NAMES if name not in observation.hand)
        action: Action = observation.legal[-1]
        return action


@pytest.fixture
def broken_bot(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Register the broken bot for one test only (other tests list every registered bot)."""
    monkeypatch.setitem(base._REGISTRY, "broken-test", (BrokenBot, "always answers illegally"))
    BrokenBot.asked = []
    yield "broken-test"


def test_illegal_answers_are_counted_and_replaced(broken_bot: str) -> None:
    config = ArenaConfig(CALLBREAK, lineup([broken_bot, "random", "random", "random"], 4), 3, 5)
    run = run_arena(config, workers=1)
    summary = summarize(run)
    broken, random_ = summary.bots
    assert broken.illegal == len(BrokenBot.asked) >= 3 * 4 * 14
    assert random_.illegal == 0
    assert broken.games == 12  # every game still finished, with random legal replacements
    assert run.illegal_examples and "broken-test" in run.illegal_examples[0]
    assert summary.json()["bots"][0]["illegal"] == broken.illegal


class CrashingBot(BrokenBot):
    """Raises instead of answering in the play (a bug in a bot author's code)."""

    name = "crashing-test"

    def act(self, observation: Observation) -> Action:
        if observation.phase == "play":
            raise RuntimeError("boom in my bot")
        action: Action = observation.legal[0]
        return action


def test_a_bot_that_raises_is_counted_and_the_run_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(base._REGISTRY, "crashing-test", (CrashingBot, "raises in the play"))
    config = ArenaConfig(
        CALLBREAK, lineup(["crashing-test", "random", "random", "random"], 4), 2, 5
    )
    summary = summarize(run := run_arena(config, workers=1))
    crashing = summary.bots[0]
    assert crashing.games == 8 and crashing.illegal >= 8 * 13
    example = run.illegal_examples[0]
    assert "rotation" in example and "seat" in example and "RuntimeError: boom in my bot" in example


# ------------------------------------------------------------------ statistics
def test_statistics_helpers_against_hand_computed_values() -> None:
    assert mean([1, 2, 6]) == 3.0
    assert sample_sd([1, 2, 3, 4]) == pytest.approx(math.sqrt(5 / 3))
    # t quantiles from the printed tables
    assert t_quantile(0.975, 1) == pytest.approx(12.7062, abs=1e-4)
    assert t_quantile(0.975, 4) == pytest.approx(2.7764, abs=1e-4)
    assert t_quantile(0.975, 30) == pytest.approx(2.0423, abs=1e-4)
    assert t_quantile(0.975, 10**7) == pytest.approx(1.95996, abs=1e-4)
    assert t_quantile(0.025, 4) == pytest.approx(-2.7764, abs=1e-4)
    # mean ± t(0.975, 3) · sd/√n for 1, 2, 3, 4: 2.5 ± 3.1824 · 1.2910 / 2
    interval = mean_ci([1.0, 2.0, 3.0, 4.0])
    assert interval.mean == 2.5
    assert interval.half_width == pytest.approx(3.18245 * math.sqrt(5 / 3) / 2, abs=1e-4)
    assert interval.low == pytest.approx(2.5 - 2.05434, abs=1e-4)
    single = mean_ci([7.0])
    assert single.half_width is None and single.text() == "7.00"
    assert percentile([1, 2, 3, 4], 50) == 2.5
    assert percentile([3, 1, 2], 0) == 1 and percentile([3, 1, 2], 100) == 3
    assert percentile([0, 10], 99) == pytest.approx(9.9)
    with pytest.raises(ValueError):
        mean([])
    with pytest.raises(ValueError):
        percentile([1], 101)


def _game(rotation: int, heuristic: tuple[int, int, int], random_: tuple[int, int, int]) -> Any:
    """A made-up game: (call, tricks, points in tenths) for entry 0 and for entries 1-3."""
    plays = []
    for entry in range(4):
        call, tricks, tenths = heuristic if entry == 0 else random_
        plays.append(Play(entry, seat_of(entry, rotation, 4), call, tricks, tenths, tricks >= call))
    return GameResult(rotation, tuple(plays), (0, 0, 0, 0), 0, (0, 0, 0, 0))


def test_summary_figures_on_a_made_up_run() -> None:
    """Two deal sets, worked out by hand; match_deals = 2 makes one match per rotation."""
    config = ArenaConfig(CALLBREAK.replace(match_deals=2), LINEUP, deals=2, seed=0)
    sets = [
        DealSetResult(
            DealSet(0, 0, (0, 0, 0, 0), 0), [_game(r, (3, 4, 31), (2, 1, -20)) for r in range(4)]
        ),
        DealSetResult(
            DealSet(1, 1, (0, 0, 0, 0), 0), [_game(r, (3, 2, -30), (2, 2, 20)) for r in range(4)]
        ),
    ]
    run = ArenaRun(config, sets, [[1, 2, 3, 4], [10], [], []], [0, 2, 0, 1], [], 1, "inline", 0.0)
    summary = summarize(run)
    heuristic, random_ = summary.bots
    # points: deal-set means 3.1 and -3.0 → 0.05 ± t(0.975, 1) · (6.1/√2)/√2
    assert heuristic.points.mean == pytest.approx(0.05)
    assert heuristic.points.half_width == pytest.approx(12.7062 * 6.1 / 2, rel=1e-4)
    # edge: 3.1 - (-2) = 5.1 and -3 - 2 = -5 → 0.05 ± 12.7062 · 10.1 / 2
    assert heuristic.edge is not None and heuristic.edge.mean == pytest.approx(0.05)
    assert heuristic.edge.half_width == pytest.approx(12.7062 * 10.1 / 2, rel=1e-4)
    assert random_.points.mean == pytest.approx(0.0)
    # one match per rotation: heuristic totals 0.1, each random 0 → heuristic wins all 4
    assert (heuristic.matches, heuristic.match_share) == (4, 1.0)
    assert (random_.matches, random_.match_share) == (12, 0.0)
    # calls: heuristic calls 3 eight times, takes 4 then 2 → made half, call − tricks 0
    assert heuristic.made_rate == 0.5 and heuristic.mean_call_minus_tricks == 0.0
    assert [(r.call, r.count, r.made_rate, r.mean_tricks) for r in heuristic.calibration] == [
        (3, 8, 0.5, 3.0)
    ]
    assert [(r.call, r.count, r.made_rate, r.mean_tricks) for r in random_.calibration] == [
        (2, 24, 0.5, 1.5)
    ]
    assert random_.mean_call_minus_tricks == pytest.approx(0.5)
    # decision times and illegal answers pool the entries of a spec
    assert heuristic.decision_ms == {"p50": 2.5, "p99": pytest.approx(3.97), "max": 4}
    assert random_.decision_ms == {"p50": 10, "p99": 10, "max": 10}
    assert (heuristic.illegal, random_.illegal) == (0, 3)
    assert len(summary.rating_history) == 3 and summary.rating_history[0][1]["heuristic"] == 25


def test_a_tied_match_is_shared() -> None:
    config = ArenaConfig(CALLBREAK.replace(match_deals=1), ("random",) * 4, deals=1, seed=0)
    sets = [
        DealSetResult(
            DealSet(0, 0, (0,) * 4, 0), [_game(r, (2, 2, 20), (2, 2, 20)) for r in range(4)]
        )
    ]
    summary = summarize(ArenaRun(config, sets, [[], [], [], []], [0] * 4, [], 1, "inline", 0.0))
    (only,) = summary.bots
    assert only.match_share == 0.25 and only.edge is None
    assert only.decision_ms is None


# ------------------------------------------------------------------ parallel back-ends
def test_ray_missing_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # makes `import ray` fail
    with pytest.raises(ArenaError, match=r"pip install 'callbreak\[ray\]'"):
        run_arena(_config(1), workers=1, ray_address="local")


def test_ray_runs_the_same_games() -> None:
    pytest.importorskip("ray")
    config = _config(4)
    assert _deterministic(run_arena(config, workers=2, ray_address="local")) == _deterministic(
        run_arena(config, workers=1)
    )


# ------------------------------------------------------------------ command line
def test_arena_help_describes_every_option() -> None:
    result = runner.invoke(app, ["arena", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for flag in ("--seat", "--rules", "--option", "--deals", "--seed", "--workers", "--ray"):
        assert flag in result.output
    assert "--json" in result.output and "--report" in result.output


def test_arena_json_output_parses() -> None:
    result = runner.invoke(
        app,
        ["arena", "--seat", "random", "--deals", "3", "--seed", "2", "--workers", "1", "--json"],
    )
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["seats"] == ["random"] * 4 and document["games"] == 12
    (bot,) = document["bots"]
    assert bot["spec"] == "random" and bot["games"] == 48 and bot["illegal"] == 0
    assert bot["points_per_deal"]["n"] == 3 and "mu" in bot["rating"]


def test_arena_tables_and_bad_seats() -> None:
    args = ["arena", "--seat", "heuristic", "--seat", "random", "--seat", "random"]
    result = runner.invoke(app, [*args, "--seat", "random", "--deals", "2", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "heuristic" in result.output and "Points/deal" in result.output
    wrong = runner.invoke(app, [*args, "--deals", "2"], env={"COLUMNS": "200"})
    assert wrong.exit_code == 2 and "exactly 4 seats" in wrong.output


REMOTE = ("http://127.0.0.1:8001", "http://127.0.0.1:8002", "random", "random")


@pytest.mark.parametrize("width", [60, 72])
def test_two_remote_seats_keep_distinct_names_in_narrow_tables(width: int) -> None:
    """Rich cut ``http://127.0.0.1:8001`` and ``...:8002`` at their end to one name,
    ``http://127.0.0.1:…``; each table now cuts them in the middle, keeping the ports."""
    config = ArenaConfig(CALLBREAK, REMOTE, deals=1, seed=0)
    games = [_game(r, (3, 4, 31), (2, 1, -20)) for r in range(4)]
    sets = [DealSetResult(DealSet(0, 0, (0, 0, 0, 0), 0), games)]
    run = ArenaRun(config, sets, [[1.0], [2.0], [3.0], [4.0]], [0] * 4, [], 1, "inline", 0.0)
    console = Console(record=True, width=width, color_system=None)
    _print_arena(console, summarize(run))
    text = console.export_text()
    assert "127.0.0.1:…" not in text
    first = [line.split()[0] for line in text.splitlines() if line.startswith(" h")]
    assert len(first) == 4  # the arena and decisions tables, one row per remote seat each
    assert first[0] != first[1] and first[2] != first[3], first
    assert [name[-3:] for name in first] == ["001", "002"] * 2, first  # the ports kept
    heading = next(line for line in text.splitlines() if line.lstrip().startswith("Call "))
    assert len(set(heading.split()[1:3])) == 2, heading  # the calibration's columns


def test_the_report_writes_options_as_the_rule_book_does() -> None:
    """The report's page showed a changed option as Python's ``must_overtake=False``."""
    config = ArenaConfig(CALLBREAK.replace(must_overtake=False), LINEUP, deals=1, seed=0)
    games = [_game(r, (3, 4, 31), (2, 1, -20)) for r in range(4)]
    sets = [DealSetResult(DealSet(0, 0, (0, 0, 0, 0), 0), games)]
    run = ArenaRun(config, sets, [[1.0], [2.0], [], []], [0] * 4, [], 1, "inline", 0.0)
    page = render_html(summarize(run))
    assert "must_overtake=off" in page and "False" not in page


def test_arena_report_writes_page_plots_and_records(tmp_path: Path) -> None:
    out = tmp_path / "report"
    result = runner.invoke(
        app,
        ["arena", "--seat", "heuristic", "--seat", "random", "--seat", "random", "--seat",
         "random", "--rules", "callbridge", "--deals", "3", "--workers", "1", "--report", str(out),
         "--report-deals", "0"],  # the value lost: tests/test_arena_value_lost.py
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    page = (out / "index.html").read_text(encoding="utf-8")
    images = re.findall(r'<img src="([^"]+)"', page)
    assert set(images) == {"points.png", "calibration.png", "ratings.png"}
    for name in images:
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "heuristic" in page and "Calibration" in page
    # Each bot's row ends with its illegal answers, timeouts and fallbacks (none here).
    assert "<th>fallbacks</th>" in page
    assert re.search(r"<td>heuristic</td>(<td>[^<]*</td>){8}(<td>0</td>){3}</tr>", page)
    records = read_records(out / "records.jsonl")
    assert len(records) == 3 * 4
    assert records[0]["seats"][0]["player"] == "bot:heuristic"
    assert replay(records[0]).complete


@pytest.mark.parametrize(
    ("preset", "players"),
    [
        ("batak-ihale", 4),
        ("rook-call-partner", 4),
        ("snarples", 5),
        ("donut", 6),
        ("horsethief", 3),
    ],
)
def test_every_game_plays_duplicate_rotations_over_its_seats(preset: str, players: int) -> None:
    rules = Rules.preset(preset).replace(players=players)
    specs = ("heuristic",) + ("random",) * (players - 1)
    run = run_arena(ArenaConfig(rules, specs, deals=12, seed=5), workers=1)
    assert all(len(result.games) == players for result in run.sets)
    for result in run.sets:  # every rotation deals the same deck
        assert len({game.first_dealt for game in result.games}) == 1
    assert run.illegal == [0] * players
    heuristic, random_ = summarize(run).bots
    assert heuristic.games == 12 * players and random_.games == 12 * players * (players - 1)
    # The edge reads "better" in every game: fewer points in the countdown games.
    assert heuristic.edge is not None and heuristic.edge.mean > 0
    if rules.shape.lowest_wins:
        assert heuristic.points.mean < random_.points.mean
    else:
        assert heuristic.points.mean > random_.points.mean


def test_a_bad_bot_option_is_a_usage_error_before_the_first_deal() -> None:
    result = runner.invoke(app, ["arena", "--seat", "expert:worlds=x", "--deals", "1"])
    assert result.exit_code == 2
    assert "worlds takes a number" in result.output
    assert "Traceback" not in result.output


def test_call_partners_contract_is_set_against_its_sides_card_points() -> None:
    """A Call Partner contract is in card points: what was won against it is the declaring
    side's card points, never its tricks (call − won once read +139 on a bid of 150)."""
    run = run_arena(ArenaConfig(Rules.preset("rook-call-partner"), ("heuristic",) * 4, 3, seed=2))
    declared = [
        (game, play) for r in run.sets for game in r.games for play in game.plays if play.call
    ]
    assert any(play.made for _, play in declared)
    for _, play in declared:
        assert play.call is not None and play.call >= 70  # the auction opens at 70
        assert play.made == (play.tricks >= play.call)  # made: the side's points reach the bid
        assert play.tricks % 5 == 0  # card points: counters of 5, 10 and 20
