"""The terminal faces (the Textual table and ``play --plain``) against what an exploratory
tester found: Spades' blind nil unplayable, typed numbers turned into other calls, trump
hidden while calling with many seats, names read as markup, a side's verdict, records
overwritten, ``--no-color`` ignored, Ctrl-C leaving silently, and words that misled."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from textual.pilot import Pilot
from typer.testing import CliRunner

from callbreak import Match, Rules
from callbreak.bots import Bot, make_bot
from callbreak.cli.main import app as cli
from callbreak.cli.play import HELP, TerminalGame
from callbreak.engine import Action, Observation
from callbreak.faces import DealResult, said
from callbreak.points import Points
from callbreak.tui.app import CallBreakApp
from callbreak.tui.render import deal_table, render_said, scoresheet
from callbreak.tui.screens import InfoScreen
from callbreak.tui.widgets import ChoiceBar
from tui_support import (
    NO_SPADE,
    last_card_to_result,
    make_session,
    my_turn,
    play_until_last_card,
    run_app,
    screen_text,
    wait_for,
)

runner = CliRunner()
WIDE = {"COLUMNS": "300"}
BLIND_NIL = Rules.preset("spades").replace(blind_nil=True)


def plain_game(
    match: Match, answers: list[str], *, bots: dict[int, Bot] | None = None
) -> tuple[str, list[int]]:
    """Play ``match`` at the plain table with ``answers`` typed in turn (then "quit"); the
    session as a terminal shows it (each prompt and what was typed) and the saves made."""
    typed = iter(answers)
    saved: list[int] = []
    console = Console(record=True, width=80, color_system=None)

    def ask(prompt: str) -> str:
        answer = next(typed, "quit")
        console.print(prompt + answer, markup=False)
        return answer

    seats = bots or {
        seat: make_bot("heuristic", seed=seat) for seat in range(1, match.rules.players)
    }
    TerminalGame(
        match,
        seats,
        console=console,
        ask=ask,
        save=lambda _match: saved.append(1),
    ).run()
    return console.export_text(), saved


# ------------------------------------------------------------------ 1. blind nil
def test_plain_spades_blind_nil_is_offered_and_a_number_before_looking_says_you() -> None:
    match = Match(BLIND_NIL, seed=5)
    text, _ = plain_game(match, ["0", "k", "2"])
    assert "Your bid (blind nil or look) [b/k]:" in text
    assert "0 is not a bid now: blind nil (b) or look at your cards (k)." in text
    assert "seat 0" not in text and "Type your bid as a number" not in text
    assert "looks at its cards" in text  # a bot's look is told as one, not "calls look"
    assert match.deal.calls[0] == 2


def test_plain_spades_blind_nil_by_its_word() -> None:
    match = Match(BLIND_NIL, seed=5)
    text, _ = plain_game(match, ["blind nil"])
    assert match.observation(0).blind_nils == (0,)
    assert "Your hand: face down (you have not looked at it)" in text


def test_table_spades_blind_nil_and_look_by_keys() -> None:
    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        await my_turn(pilot, app)
        bar = app.table.query_one(ChoiceBar)
        assert [label for label, _ in bar.options] == ["Blind nil (b)", "Look at your cards (k)"]
        assert "b bid blind nil, k look at your cards" in screen_text(app)
        before = app.own_actions
        await pilot.press("0", "enter")
        assert app.own_actions == before
        assert app.message.plain == "0 is not a bid now: blind nil (b) or look at your cards (k)."
        await pilot.press("k")
        assert app.own_actions == before + 1
        await my_turn(pilot, app)
        assert app.session.view().hand  # looked: the cards are seen
        await pilot.press("2", "enter")
        assert app.session.view().calls[0] == 2

    run_app(make_session(5, rules=BLIND_NIL), scenario)


def test_table_shows_a_blind_nil_as_such() -> None:
    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        await my_turn(pilot, app)
        await pilot.press("b")
        await my_turn(pilot, app)
        assert "bid blind nil" in screen_text(app)

    run_app(make_session(5, rules=BLIND_NIL), scenario)


# ------------------------------------------------------------ 2. typed numbers
@pytest.mark.parametrize(
    ("preset", "keys", "refused"),
    [
        ("callbreak", "14", "14 is not a call"),
        ("callbreak", "20", "20 is not a call"),
        ("rook-call-partner", "73", "73 is not allowed"),
    ],
)
def test_a_typed_number_not_offered_is_refused_not_turned_into_another(
    preset: str, keys: str, refused: str
) -> None:
    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        await my_turn(pilot, app)
        view = app.session.view()
        assert view.phase in ("call", "auction") and int(keys) not in view.legal
        before = app.own_actions
        await pilot.press(*keys, "enter")
        await pilot.pause()
        assert app.own_actions == before and app.state == "human"
        assert app.message.plain.startswith(refused)
        assert app.typed == ""

    run_app(make_session(3, rules=Rules.preset(preset)), scenario)


def test_a_typed_number_that_is_offered_is_made() -> None:
    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        await my_turn(pilot, app)
        await pilot.press("1", "2", "enter")
        assert app.session.view().calls[0] == 12

    run_app(make_session(3), scenario)


# ------------------------------------------------- 3. trump in sight while calling
@pytest.mark.parametrize(("preset", "players"), [("oh-hell", 7), ("judgement", 5)])
def test_trump_stays_in_sight_while_calling_at_80x24(preset: str, players: int) -> None:
    rules = Rules.preset(preset).replace(players=players)

    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        await my_turn(pilot, app)
        view = app.session.view()
        assert view.phase == "call" and view.trump is not None
        text = screen_text(app)
        assert re.search(r"trump [♠♥♦♣] \w+", text), text
        assert "bids so far" in text  # both games bid

    run_app(make_session(5, rules=rules), scenario, size=(80, 24))


# ------------------------------------------------------------ 4. names as text
RESULT = DealResult(
    number=1,
    tie_break=False,
    void_reason=None,
    calls=(1, 4, 0, 5),
    tricks=(0, 3, 6, 4),
    points=(Points.whole(51), Points.whole(-50), Points.whole(51), Points.whole(-50)),
    totals=(Points.whole(51), Points.whole(-50), Points.whole(51), Points.whole(-50)),
    counting=(0, 1, 2, 3),
    game="spades",
)


@pytest.mark.parametrize("name", ["[/]", "[red]Bob"])
def test_a_name_with_markup_is_shown_as_typed_in_the_table_pictures(name: str) -> None:
    names = [name, "East", "North", "West"]
    console = Console(record=True, width=100, color_system="truecolor")
    console.print(deal_table(RESULT, names))
    console.print(scoresheet([RESULT], names, RESULT.totals))
    assert console.export_text().count(name) == 2
    assert "\x1b[31m" not in console.export_text(styles=True)


@pytest.mark.parametrize("name", ["[/]", "[red]Bob"])
def test_a_name_with_markup_plays_a_deal_at_the_plain_table(name: str) -> None:
    match = Match(Rules.preset("callbreak"), seed=3)
    person = make_bot("heuristic", seed=9)

    def ask(prompt: str) -> str:
        if match.scored_deals:
            return "quit"
        return str(person.act(match.observation(0))).lower()

    console = Console(record=True, width=100, color_system=None)
    bots = {seat: make_bot("heuristic", seed=seat) for seat in (1, 2, 3)}
    TerminalGame(match, bots, name=name, console=console, ask=ask).run()
    text = console.export_text()
    assert match.scored_deals and "Deal 1 result" in text
    assert re.search(rf"{re.escape(name)}\s+│\s+1\s+│", text)  # its row of the result


def test_a_name_with_markup_at_the_table_reaches_the_deal_result() -> None:
    session = make_session(3, name="[/]")
    play_until_last_card(session)

    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        await last_card_to_result(pilot, app)
        assert re.search(r"\[/\]\s+\d+\s+\d+", screen_text(app))

    run_app(session, scenario)


# ------------------------------------------------------------- 5. a side's verdict
def test_the_spades_verdict_tells_the_sides_contract() -> None:
    app = CallBreakApp(make_session(5, rules=Rules.preset("spades")), pause=0)
    verdict = app._verdict(RESULT).plain
    assert verdict == (
        "Your side bid 1 (you 1, North 0) and won 6 (you 0, North 6): made; North's nil "
        "failed, 51 points."
    )


def test_a_blind_nil_is_named_in_the_result_and_the_verdict() -> None:
    """A blind nil read as a call of 0, and the verdict never said how a nil went."""
    from dataclasses import replace

    from callbreak.faces import summary_cell

    blind = replace(RESULT, calls=(0, 4, 3, 5), tricks=(0, 3, 6, 4), blind_nils=(0,))
    assert summary_cell(blind, 0, "call") == "blind nil"
    assert summary_cell(blind, 2, "call") == "3"
    app = CallBreakApp(make_session(5, rules=Rules.preset("spades")), pause=0)
    assert "your blind nil made" in app._verdict(blind).plain
    both = replace(RESULT, calls=(0, 4, 0, 5), tricks=(0, 3, 1, 4), blind_nils=(0,))
    assert app._verdict(both).plain.startswith(
        "Your side bid no tricks; your blind nil made, North's nil failed:"
    )


# ------------------------------------------------------------ 6. records, 13. resume
def test_a_new_match_does_not_overwrite_an_existing_record(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text('{"kept": true}')
    args = ["play", "--plain", "--record", str(path)]
    result = runner.invoke(cli, args, input="quit\n", env=WIDE)
    assert result.exit_code == 2, result.output
    assert "already exists" in result.output and f"--resume {path}" in result.output
    assert json.loads(path.read_text()) == {"kept": True}


def test_a_resumed_match_refuses_the_options_its_record_decides(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    first = runner.invoke(
        cli, ["play", "--plain", "--seed", "2", "--record", str(path)], input="quit\n"
    )
    assert first.exit_code == 0, first.output
    args = ["play", "--plain", "--resume", str(path), "--seed", "3", "--name", "Bob"]
    result = runner.invoke(cli, args, input="quit\n", env=WIDE)
    assert result.exit_code == 2, result.output
    assert "leave out --seed, --name" in result.output
    again = runner.invoke(cli, ["play", "--plain", "--resume", str(path)], input="quit\n")
    assert again.exit_code == 0 and f"--resume {path}" in again.output


# ------------------------------------------------------------------ 7. --no-color
def test_no_color_holds_for_the_plain_game_too() -> None:
    env = {"FORCE_COLOR": "1", "TERM": "xterm-256color", "NO_COLOR": None}
    codes = {}
    for flag in ([], ["--no-color"]):
        args = ["play", "--plain", "--seed", "4", *flag]
        result = runner.invoke(cli, args, input="quit\n", env=env)
        assert result.exit_code == 0, result.output
        codes[bool(flag)] = set(re.findall(r"\x1b\[([0-9;]*)m", result.output))
    colours = {c for c in codes[False] if re.search(r"(^|;)(3|9)\d", c)}
    assert colours  # the check can see colours when they are printed
    assert not {c for c in codes[True] if re.search(r"(^|;)(3|9)\d", c)}


# --------------------------------------------------------- 8. Ctrl-C while a bot thinks
class Interrupted:
    """A bot the person interrupts with Ctrl-C while it thinks."""

    name = "slow"

    def act(self, observation: Observation) -> Action:
        raise KeyboardInterrupt


def test_ctrl_c_while_a_bot_thinks_leaves_as_quit_does() -> None:
    match = Match(Rules.preset("callbreak"), seed=4)
    try:
        text, saved = plain_game(match, ["3"], bots=dict.fromkeys((1, 2, 3), Interrupted()))
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C while a bot thought went out of the game unsaid")
    assert "Leaving the match." in text and saved


def test_ctrl_c_while_a_bot_thinks_tells_how_to_continue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from callbreak.bots.heuristic import HeuristicBot

    asked: list[Observation] = []
    real_act = HeuristicBot.act

    def interrupted(self: HeuristicBot, observation: Observation) -> Action:
        asked.append(observation)
        if len(asked) == 1:  # the table's probe of the bot before the match (bots.refusal)
            return real_act(self, observation)
        raise KeyboardInterrupt

    monkeypatch.setattr(HeuristicBot, "act", interrupted)
    path = tmp_path / "game.json"
    args = ["play", "--plain", "--bot", "heuristic", "--seed", "4", "--record", str(path)]
    result = runner.invoke(cli, args, input="3\n")
    assert "Leaving the match." in result.output
    assert f"continue with: callbreak play --resume {path}" in result.output


# -------------------------------------------------------- 9. what each seat said
def first_view(rules: Rules, wanted: Callable[[Observation], bool], seeds: int = 30) -> Observation:
    """The person's view at the first moment ``wanted`` holds, bots playing every seat."""
    for seed in range(seeds):
        match = Match(rules, seed=seed)
        bots = [make_bot("heuristic", seed=seat) for seat in range(rules.players)]
        while not match.over and match.deal_number == 1:
            view = match.observation(0)
            if wanted(view):
                return view
            seat = match.to_act
            assert seat is not None
            match.act(bots[seat].act(match.observation(seat)))
    raise AssertionError("no deal came to the wanted moment")


def test_after_the_auction_the_declarer_keeps_its_winning_bid_in_sight() -> None:
    view = first_view(
        Rules.preset("rook-call-partner"),
        lambda v: v.phase in ("discard", "trump", "partner") and v.declarer == v.to_act,
    )
    assert view.declarer is not None
    assert said(view, view.declarer) == str(view.contract)
    shown = [said(view, seat) for seat in range(view.players)]
    names = [f"Seat {s}" for s in range(view.players)]
    text = render_said(
        range(view.players), names, shown, to_act=view.declarer, title="t", footer="f"
    ).plain
    assert re.search(rf"▶ Seat {view.declarer}\s+{view.contract}\b", text)
    assert "…" not in text


def test_a_forced_bid_shows_as_the_declarers_bid() -> None:
    """Batak's dealer left alone at 4 bids without an action: its row shows the 4 anyway."""
    view = first_view(
        Rules.preset("batak-ihale"),
        lambda v: v.phase == "trump" and all(seat != v.declarer for seat, _ in v.bids),
        seeds=60,
    )
    assert view.declarer is not None and said(view, view.declarer) == str(view.contract)


def test_a_seat_that_sat_out_shows_out_in_the_exchange() -> None:
    rules = Rules.preset("horsethief")
    view = first_view(rules, lambda v: v.phase == "exchange" and bool(v.dropped))
    for seat in view.dropped:
        assert said(view, seat) == "out"


def test_the_seat_to_answer_shows_an_ellipsis_until_it_has_said_something() -> None:
    text = render_said([0, 1], ["A", "B"], ["–", "3"], to_act=0, title="t", footer="f").plain
    assert re.search(r"▶ A\s+…", text)


# ------------------------------------------------------ 10. the key bar over a result
def test_the_key_bar_under_a_result_offers_only_what_works_there() -> None:
    session = make_session(3)
    play_until_last_card(session)

    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        await last_card_to_result(pilot, app)
        assert screen_text(app).splitlines()[-1].strip() == "^C quit"

    run_app(session, scenario)


# ------------------------------------------------------ 11. seats named in reasons
def test_plain_misdeal_names_the_seat_as_the_table_does() -> None:
    match = Match(Rules.preset("callbreak"), seed=3, dealer=3, hands=[NO_SPADE])
    text, _ = plain_game(match, ["y"])
    assert "misdeal claimed by You (holds no spade)" in text
    assert "seat 0" not in text


# ------------------------------------------------- 12. refused numbers, help width
@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("-1", "-1 is not a call: call a whole number from 1 to 13"),
        ("1.5", "Type your call as a number: 1–13."),
    ],
)
def test_plain_a_number_out_of_range_says_the_range(typed: str, said: str) -> None:
    text, _ = plain_game(Match(Rules.preset("callbreak"), seed=4), [typed])
    assert said in text


def test_plain_help_fits_80_columns() -> None:
    assert max(len(line) for line in HELP.splitlines()) < 80


# ----------------------------------------------- 14. scoresheet legend, last trick
def test_the_scoresheet_legend_speaks_of_bids_only_where_there_is_an_auction() -> None:
    for preset, bids in [("donut", False), ("horsethief", False), ("rook-call-partner", True)]:
        app = CallBreakApp(make_session(3, rules=Rules.preset(preset)), pause=0)
        assert ("bid" in app._scores_legend()) is bids, preset


def test_the_last_trick_before_a_trick_of_this_deal_says_which_deal_it_ended() -> None:
    session = make_session(3)
    play_until_last_card(session)

    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        await last_card_to_result(pilot, app)
        await pilot.press("enter")
        await my_turn(pilot, app)
        assert not app.session.view().history
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, InfoScreen), "the last trick")
        text = screen_text(app)
        assert "Last trick of deal 1" in text and "of deal 1 ·" in text

    run_app(session, scenario)


# ------------------------------------------------------- the person's own actions
def test_the_persons_own_action_is_told_to_it_whatever_its_name() -> None:
    """Told by the name, the person's action read as another seat's ("Bob calls 3"), and a
    card it laid away would have been told to it as "a card"."""
    session = make_session(3, name="Bob")
    app = CallBreakApp(session, pause=0)
    assert app._describe(session.human, session.view(), 3) == "You call 3."
    assert app._describe(1, session.view(), 3) == "East calls 3."
