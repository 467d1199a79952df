"""The command line, driven as a user would: help, rules, play, selfplay, replay."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from callbreak import Match, Rules
from callbreak.bots import make_bot
from callbreak.cli.main import app
from callbreak.cli.play import TerminalGame
from callbreak.faces import face, phase_face

runner = CliRunner()


def test_every_command_has_help() -> None:
    for command in ([], ["play"], ["selfplay"], ["replay"], ["rules"], ["analyze"], ["arena"]):
        result = runner.invoke(app, [*command, "--help"])
        assert result.exit_code == 0, result.output
        assert "Usage" in result.output


def test_rules_lists_presets_and_every_option() -> None:
    listing = runner.invoke(app, ["rules"])
    assert listing.exit_code == 0
    for preset in ("callbreak", "callbreak-bhoos", "callbridge"):
        assert preset in listing.output
    full = runner.invoke(app, ["rules", "callbridge"], env={"COLUMNS": "200"})
    assert full.exit_code == 0
    for name in Rules.preset("callbreak").options():
        assert name in full.output
    unknown = runner.invoke(app, ["rules", "hearts"])
    assert unknown.exit_code != 0 and "unknown preset" in unknown.output


def test_bad_option_is_a_clear_usage_error() -> None:
    wide = {"COLUMNS": "300"}
    result = runner.invoke(app, ["play", "--option", "must_trump=sometimes"], env=wide)
    assert result.exit_code == 2
    assert "winning, always, never" in result.output
    result = runner.invoke(app, ["selfplay", "--option", "max_cal=8"], env=wide)
    assert result.exit_code == 2 and "unknown rule option" in result.output


@pytest.mark.parametrize(
    "args",
    [
        ["selfplay", "--rules", "donut", "--bot", "selfplay", "--games", "1"],
        ["arena", "--rules", "donut", "--seat", "selfplay", "--deals", "1"],
        [
            "arena",
            "--rules",
            "donut",
            "--pool",
            "heuristic",
            "--candidate",
            "selfplay",
            "--deals",
            "1",
        ],
    ],
)
def test_a_bot_that_does_not_play_the_game_is_refused_before_the_first_deal(
    args: list[str], tmp_path: Path
) -> None:
    # A bot that refuses a game (the learned policy knows only Call Break's actions) is
    # found before the first deal; before, it refused at its first turn, in a worker: a
    # traceback, no figures.
    result = runner.invoke(app, [*args], env={"COLUMNS": "300"})
    assert result.exit_code == 2, result.output
    assert "cannot play Donut" in result.output and "trained for Call Break" in result.output
    assert "Traceback" not in result.output


def test_selfplay_then_replay(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    result = runner.invoke(
        app,
        [
            "selfplay",
            "--games",
            "3",
            "--seed",
            "5",
            "--rules",
            "callbreak-bhoos",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    lines = out.read_text().splitlines()
    assert len(lines) == 3
    assert all(json.loads(line)["format"] == "callbreak-record/2" for line in lines)
    verified = runner.invoke(app, ["replay", str(out)])
    assert verified.exit_code == 0, verified.output
    assert verified.output.count("OK") == 3

    # Tamper with one card: replay must fail and say where.
    record = json.loads(lines[0])
    deal = next(d for d in record["deals"] if d["tricks"])
    trick = deal["tricks"][0]
    trick["cards"][1], trick["cards"][2] = trick["cards"][2], trick["cards"][1]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    failed = runner.invoke(app, ["replay", str(bad)])
    assert failed.exit_code == 1
    assert re.search(r"deal \d+, trick 1", failed.output), failed.output


def test_selfplay_open_match_stops_after_deals(tmp_path: Path) -> None:
    out = tmp_path / "bridge.json"
    result = runner.invoke(
        app, ["selfplay", "-n", "1", "--rules", "callbridge", "--deals", "2", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    record = json.loads(out.read_text())
    assert record["result"]["complete"] is True
    scored = [d for d in record["deals"] if d["points"] is not None and not d["void"]]
    assert len(scored) >= 2


def test_play_explains_illegal_input_and_saves_on_quit(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    # Calls are asked first; "13x", "²" (a digit, not a number) and "99" are refused with
    # the reason, then quit.
    result = runner.invoke(
        app, ["play", "--seed", "4", "--record", str(path)], input="13x\n²\n99\nquit\n"
    )
    assert result.exit_code == 0, result.output
    assert result.output.count("Type your call as a number") == 2
    assert "from 1 to 13" in result.output
    assert json.loads(path.read_text())["result"]["complete"] is False


def test_a_whole_match_through_the_terminal_game(tmp_path: Path) -> None:
    """A scripted person plays a full match: every prompt answered from its own observation."""
    match = Match(Rules.preset("callbreak"), seed=9)
    bots = {seat: make_bot("random", seed=seat) for seat in (1, 2, 3)}
    answers = iter(["?", "legal", "score", "XX"])  # commands and one bad call first
    tried_cards: list[str] = []

    def ask(prompt: str) -> str:
        scripted = next(answers, None)
        if scripted is not None:
            return scripted
        obs = match.observation(0)
        if obs.phase in ("misdeal", "declare"):
            return "n"
        if obs.phase == "play" and not tried_cards:
            tried_cards.append("ZZ")
            return "ZZ"
        held_not_legal = [c for c in obs.hand if c not in obs.legal]
        if obs.phase == "play" and held_not_legal and len(tried_cards) == 1:
            tried_cards.append(held_not_legal[0])
            return held_not_legal[0]
        return str(obs.legal[0])

    console = Console(record=True, width=100, color_system=None)
    TerminalGame(match, bots, console=console, ask=ask).run()
    text = console.export_text()
    assert match.over and match.winners
    assert "wins the match" in text or "win the match" in text
    assert "Type your call as a number" in text
    assert "is not a card" in text
    if len(tried_cards) == 2:
        assert f"{tried_cards[1]} is not allowed: you must" in text
    assert "Scoresheet" in text
    # The screen never shows another seat's cards: only the human's hand is listed.
    for line in text.splitlines():
        assert not line.startswith("East:")


def test_play_levels_and_unknown_level() -> None:
    for level in ("easy", "medium"):
        result = runner.invoke(app, ["play", "--level", level, "--seed", "1"], input="quit\n")
        assert result.exit_code == 0, result.output
    bad = runner.invoke(app, ["play", "--level", "godlike"], env={"COLUMNS": "300"})
    assert bad.exit_code == 2 and "choose one of easy" in bad.output


FAMILY = [
    ("batak-ihale", 4),
    ("batak-koz-maca", 4),
    ("rook-call-partner", 4),
    ("snarples", 3),
    ("snarples", 8),
    ("donut", 6),
    ("horsethief", 5),
    ("spades", 4),
    ("oh-hell", 3),
    ("oh-hell", 7),
    ("judgement", 5),
]


def typed_deal(rules: Rules, seed: int) -> tuple[Match, set[str], str]:
    """One deal at the plain table, the person typing what the heuristic would play; returns
    the match, the phases the person met and what was printed up to the next deal."""
    match = Match(rules, seed=seed)
    bots = {seat: make_bot("heuristic", seed=seat) for seat in range(1, rules.players)}
    person = make_bot("heuristic", seed=99)
    phases: set[str] = set()

    def ask(prompt: str) -> str:
        if match.scored_deals:
            return "quit"
        obs = match.observation(0)
        phases.add(obs.phase)
        action = person.act(obs)
        word = next((w.key for w in phase_face(obs.phase).words if w.action == action), None)
        return word if word is not None else str(action).lower()

    console = Console(record=True, width=120, color_system=None)
    TerminalGame(match, bots, console=console, ask=ask).run()
    text = console.export_text()
    return match, phases, text.split(" Deal 2 ")[0]


@pytest.mark.parametrize(("preset", "players"), FAMILY, ids=[f"{p}-{n}" for p, n in FAMILY])
def test_a_deal_of_every_game_typed_at_the_plain_table(preset: str, players: int) -> None:
    """Every phase answered by typing what a person would type (a key word, a number, a card);
    nothing printed names a card the person could not have seen (other hands, nest, stock)."""
    rules = Rules.preset(preset)
    rules = rules if rules.players == players else rules.replace(players=players)
    for seed in range(6):
        match, phases, text = typed_deal(rules, seed)
        if not match.scored_deals:
            continue
        deal = match.scored_deals[0].deal
        seen = {deal.deck.names[c] for c in deal.deck.cards if (deal.dealt[0] >> c) & 1}
        if deal.declarer == 0:
            seen |= {deal.deck.names[c] for c in deal.deck.cards if (deal.nest >> c) & 1}
        seen |= {deal.deck.names[c] for _, cards, _ in deal.history for c in cards}
        seen |= {deal.deck.names[c] for c in (deal.upcard, deal.partner_card) if c is not None}
        seen |= {deal.deck.names[c] for c in deal.deck.cards if (deal.hands[0] >> c) & 1}
        unseen = {deal.deck.names[c] for c in deal.deck.cards} - seen
        printed = {
            name
            for name in unseen
            for spelling in {name, face(name)}
            if re.search(rf"(?<![\w♠♥♦♣]){re.escape(spelling)}(?!\w)", text)
        }
        assert not printed, f"{preset}: the plain table printed {printed}"
        assert "result" in text and "Total" in text
        if deal.upcard is not None:  # announced as dealt, its rank in capitals (once "t♥")
            assert f"Face up: {face(deal.deck.names[deal.upcard])}" in text
        if "play" in phases:
            return
    pytest.fail(f"{preset}: the person never played a card in six deals")


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        (["play", "--plain", "--record", "{blocked}/game.json"], "--record"),
        (["selfplay", "--games", "1", "--out", "{blocked}/games.jsonl"], "--out"),
        (["selfplay", "--games", "1", "--out", "{folder}"], "--out"),
        (
            ["arena", "--seat", "heuristic", "--deals", "1", "--report", "{blocked}/report"],
            "--report",
        ),
    ],
)
def test_a_place_that_cannot_be_written_is_refused_before_playing(
    args: list[str], flag: str, tmp_path: Path
) -> None:
    # A file where a folder should be: no user, root included, can write below it.
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    filled = [a.format(blocked=blocked, folder=tmp_path) for a in args]
    result = runner.invoke(app, filled, input="", env={"COLUMNS": "300"})
    assert result.exit_code == 2, result.output
    assert f"Invalid value for {flag}: cannot write to" in result.output
    assert "Traceback" not in result.output and "Your hand" not in result.output


@pytest.mark.parametrize("command", ["serve", "serve-bot"])
def test_a_port_out_of_range_is_a_usage_error(command: str) -> None:
    result = runner.invoke(app, [command, "--port", "70000"], env={"COLUMNS": "300"})
    assert result.exit_code == 2 and "less than or equal to 65535" in result.output


def test_the_commands_refuse_a_seed_a_record_cannot_hold() -> None:
    from typer.testing import CliRunner

    from callbreak.cli.main import app

    result = CliRunner().invoke(app, ["selfplay", "--seed", "-1", "-n", "1"])
    assert result.exit_code == 2 and "--seed" in result.output
