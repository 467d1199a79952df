"""Defects a player met at the terminal table (QA pass of 2026-11-29), each pinned down.

* A seat's panel broke "0 pts" into "0" / "pts" (Rook's declarer at 80×24), and at five
  to eight seats a panel's last line ("total 16") fell off the bottom while its bot was
  thinking, or while a long hint took a second row from the table.
* The scoresheet of five to eight seats was wider than 80 columns once deals were scored,
  and Rich cut every name and point to "…" ("Sea…", "0  …"); it now comes in parts.
* The ``--plain`` scoresheet of eight seats at 80 columns cut each head to "Seat 2 (heur…".
"""

from __future__ import annotations

import io

from rich.console import Console
from rich.text import Text
from textual.pilot import Pilot

from callbreak import Rules
from callbreak.bots import make_bot
from callbreak.tui.app import CallBreakApp
from callbreak.tui.drawing import fit_seat
from callbreak.tui.render import FittedScoresheet
from callbreak.tui.screens import InfoScreen
from callbreak.tui.session import Session, playable_spec
from tui_support import my_turn, run_app, screen_text, wait_for


def _texts(*parts: str) -> list[Text]:
    return [Text(part) for part in parts]


def test_a_seat_panel_breaks_its_facts_only_between_them() -> None:
    """Rook's declarer at 80×24 (a side panel 19 wide): "0 pts" stays whole."""
    panel = fit_seat(
        _texts("East · medium", "(dealer)"),
        _texts("bid 140", "won 0", "0 pts"),
        Text("total 0"),
        _texts("", ""),
        width=19,
        height=9,
    )
    assert panel.plain == "East · medium\n(dealer)\nbid 140 · won 0\n0 pts\ntotal 0"


def test_a_short_panel_shares_lines_before_it_cuts_one_off() -> None:
    """Eight seats at 80×24: a top panel has three rows, so facts and total share one; the
    dealer's side panel (its name on two) drops the thinking mark (the status line names
    the seat thinking) and puts "(dealer)" before the facts."""

    def thinking(height: int) -> str:
        facts = _texts("bid –", "won 0")
        marks = _texts("", "thinking…")
        head = _texts("▶ Seat 4 · medium")
        panel = fit_seat(head, facts, Text("total 16"), marks, width=25, height=height)
        return panel.plain

    assert thinking(3) == "▶ Seat 4 · medium\nbid – · won 0 · total 16\nthinking…"
    assert thinking(4) == "▶ Seat 4 · medium\nbid – · won 0\ntotal 16\nthinking…"
    dealer = fit_seat(
        _texts("Seat 3 · medium", "(dealer)"),
        _texts("bid –", "won 0"),
        Text("total 16"),
        _texts("", "thinking…"),
        width=19,
        height=3,
    )
    assert dealer.plain == "Seat 3 · medium\n(dealer) · bid –\nwon 0 · total 16"


def _overflowing(app: CallBreakApp) -> list[tuple[str | None, list[str]]]:
    """Seat panels whose text, wrapped to the panel's width, is taller than the panel."""
    bad = []
    for widget in app.table.query(".seat"):
        size = widget.content_size
        lines = Text(str(widget.render())).wrap(app.console, size.width)
        if len(lines) > size.height:
            bad.append((widget.id, [line.plain for line in lines]))
    return bad


def test_eight_seats_at_80x24_show_every_seat_whole() -> None:
    """A bot thinking (the dealer's panel, the tallest) and a hint on two rows: every panel
    still fits, its total included, and after a resize to 100 columns and back."""
    rules = Rules.preset("snarples").replace(players=8)
    session = Session.start(rules, "heuristic", seed=1)
    seen: list[list[tuple[str | None, list[str]]]] = []
    screens: list[str] = []

    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        await my_turn(pilot, app)
        for seat in range(1, 8):
            app.thinking = seat
            app.redraw()
            await pilot.pause()
            seen.append(_overflowing(app))
        app.thinking = session.view().dealer
        app._set_message("Hint: " + "a long reason " * 8, "hint")
        app.redraw()
        await pilot.pause(0.1)
        seen.append(_overflowing(app))
        screens.append(screen_text(app))
        await pilot.resize_terminal(100, 24)
        await pilot.pause(0.1)
        seen.append(_overflowing(app))
        await pilot.resize_terminal(80, 24)
        await pilot.pause(0.1)
        seen.append(_overflowing(app))

    run_app(session, scenario, size=(80, 24))
    assert seen and all(found == [] for found in seen), seen
    assert screens[0].count("total 16") == 8  # every seat's total is on the screen


def _scored(preset: str, players: int, deals: int) -> Session:
    """A session whose first ``deals`` deals the bots played for every seat."""
    rules = Rules.preset(preset).replace(players=players)
    session = Session.start(rules, "heuristic", seed=1)
    stand_in = make_bot(playable_spec("heuristic", rules)[0], seed=5)
    match = session.match
    while len(match.entries) < deals:
        seat = match.to_act
        assert seat is not None
        bot = stand_in if seat == session.human else session.bots[seat]
        match.act(bot.act(match.observation(seat)))
    return session


def test_the_scoresheet_of_eight_seats_comes_in_parts_at_80_columns() -> None:
    session = _scored("snarples", 8, 2)
    names = [session.seat_name(s) for s in range(8)]
    sheet = FittedScoresheet(session.results(), names, session.totals)
    console = Console(width=72, file=io.StringIO(), record=True, color_system=None)
    console.print(sheet)
    text = console.export_text()
    assert "…" not in text
    assert [line.split() for line in text.splitlines() if line.strip().startswith("Deal")] == [
        ["Deal", "You", "Seat", "2", "Seat", "3", "Seat", "4"],
        ["Deal", "Seat", "5", "Seat", "6", "Seat", "7", "Seat", "8"],
    ]
    assert max(len(line) for line in text.splitlines()) <= 72
    # Wide enough, it is the one table it was.
    wide = Console(width=200, file=io.StringIO(), record=True, color_system=None)
    wide.print(sheet)
    heads = [line for line in wide.export_text().splitlines() if line.strip().startswith("Deal")]
    assert len(heads) == 1 and "Seat 8" in heads[0]


def test_the_scoresheet_key_at_80x24_shows_every_name_and_point_whole() -> None:
    session = _scored("donut", 6, 2)

    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        await my_turn(pilot, app)
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, InfoScreen), "the scoresheet")
        text = screen_text(app)
        assert "Scoresheet" in text and "…" not in text
        for name in ("You", "Seat 2", "Seat 3", "Seat 4"):
            assert name in text

    run_app(session, scenario, size=(80, 24))


def test_the_plain_scoresheet_heads_drop_the_bots_kinds_where_they_would_be_cut() -> None:
    from callbreak.cli.play import TerminalGame
    from callbreak.engine import Match

    match = Match(Rules.preset("snarples").replace(players=8), seed=1)
    bots = {seat: make_bot("heuristic", seed=seat) for seat in range(1, 8)}

    def sheet(width: int) -> str:
        console = Console(record=True, width=width, color_system=None, file=io.StringIO())
        TerminalGame(match, bots, console=console, ask=lambda _: "q")._show_scores()
        return console.export_text()

    narrow = sheet(80)
    assert "…" not in narrow and "(heuristic)" not in narrow, narrow
    assert all(f"Seat {n}" in narrow for n in range(2, 9)), narrow
    wide = sheet(240)
    assert wide.count("(heuristic)") == 7, wide
