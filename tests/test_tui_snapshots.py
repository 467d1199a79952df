"""Snapshots of the table's main screens at 80×24 and 120×40, compared as plain text.

Each scene is deterministic: a fixed seed, seeded bots, no pause, and a
snapshot taken only once the app waits for the person (or shows a screen),
never while a bot thinks.  Legal and illegal cards differ by shape (solid or
dotted corners), so the text catches a change in what is marked legal.

A missing or different snapshot fails.  After a deliberate change, rewrite
them with ``CALLBREAK_UPDATE_SNAPSHOTS=1 pytest tests/test_tui_snapshots.py``
and review the diff of ``tests/snapshots/tui/`` like code.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest
from textual.pilot import Pilot

from callbreak import Rules
from callbreak.engine import Observation
from callbreak.tui.app import CallBreakApp
from callbreak.tui.session import Session
from tui_support import (
    choice_screen,
    last_card_to_result,
    make_session,
    my_turn,
    play_by_keys,
    play_until_last_card,
    run_app,
    screen_text,
)

SNAPSHOTS = Path(__file__).parent / "snapshots" / "tui"
UPDATE = os.environ.get("CALLBREAK_UPDATE_SNAPSHOTS") == "1"
SIZES = [(80, 24), (120, 40)]


def check(name: str, text: str) -> None:
    """Compare ``text`` with the stored snapshot ``name`` (or store it when updating)."""
    path = SNAPSHOTS / f"{name}.txt"
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text + "\n", encoding="utf-8")
        return
    if not path.exists():
        pytest.fail(f"no snapshot {path}: run with CALLBREAK_UPDATE_SNAPSHOTS=1 to create it")
    expected = path.read_text(encoding="utf-8").rstrip("\n")
    if text != expected:
        diff = "\n".join(
            difflib.unified_diff(
                expected.splitlines(), text.splitlines(), "snapshot", "now", lineterm=""
            )
        )
        pytest.fail(f"screen {name} differs from its snapshot:\n{diff}")


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_calls_play_refusal_and_help(size: tuple[int, int]) -> None:
    tag = f"{size[0]}x{size[1]}"

    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        await my_turn(pilot, app)
        check(f"calls-{tag}", screen_text(app))
        await pilot.press("enter")
        await my_turn(pilot, app)
        check(f"play-{tag}", screen_text(app))
        view = app.session.view()
        illegal = next(c for c in view.hand if c not in view.legal)
        await pilot.press(illegal[0].lower(), illegal[1].lower())
        check(f"refused-{tag}", screen_text(app))
        await pilot.press("question_mark")
        check(f"help-{tag}", screen_text(app))

    run_app(make_session(3), scenario, size=size)


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_deal_result_and_scoresheet(size: tuple[int, int]) -> None:
    tag = f"{size[0]}x{size[1]}"
    session = make_session(4, rules=Rules.preset("callbreak").replace(match_deals=2))
    play_until_last_card(session)

    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        await last_card_to_result(pilot, app)
        check(f"deal-result-{tag}", screen_text(app))
        await pilot.press("enter")
        await my_turn(pilot, app)
        await pilot.press("p")
        check(f"scoresheet-{tag}", screen_text(app))

    run_app(session, scenario, size=size)


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
def test_match_summary_and_leave(size: tuple[int, int]) -> None:
    tag = f"{size[0]}x{size[1]}"
    session = make_session(6, rules=Rules.preset("callbreak").replace(match_deals=1))
    play_until_last_card(session)

    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        await last_card_to_result(pilot, app)
        await pilot.press("enter")
        await choice_screen(pilot, app, "Match over")
        check(f"summary-{tag}", screen_text(app))
        await pilot.press("ctrl+c")
        await choice_screen(pilot, app, "Leave?")
        check(f"leave-{tag}", screen_text(app))

    run_app(session, scenario, size=size)


FAMILY = [
    ("batak-koz-maca", 4, 3),
    ("batak-ihale", 4, 2),
    ("rook-call-partner", 4, 1),
    ("snarples", 6, 1),
    ("donut", 5, 2),
    ("horsethief", 3, 1),
]
"""One table per game of the family (Call Break's own screens are above); the five-card
games at a seat count other than four, so the layout for n seats is seen too."""


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
@pytest.mark.parametrize(("preset", "players", "seed"), FAMILY, ids=[g for g, _, _ in FAMILY])
def test_every_game_s_main_screens(
    preset: str, players: int, seed: int, size: tuple[int, int]
) -> None:
    """The person's first turn in each phase of a deal, and the deal's result."""
    tag = f"{size[0]}x{size[1]}"
    rules = Rules.preset(preset)
    if rules.players != players:
        rules = rules.replace(players=players)
    seen: set[str] = set()
    holder: list[CallBreakApp] = []

    async def turn(view: Observation) -> None:
        if view.phase not in seen:
            seen.add(view.phase)
            check(f"{preset}-{view.phase}-{tag}", screen_text(holder[0]))

    async def result(title: str) -> None:
        if "result" in title and "result" not in seen:
            seen.add("result")
            check(f"{preset}-result-{tag}", screen_text(holder[0]))

    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        holder.append(app)
        await play_by_keys(pilot, app, on_turn=turn, on_result=result)

    run_app(Session.start(rules, "heuristic", seed=seed), scenario, size=size)
    assert "result" in seen


def test_the_help_writes_changed_options_as_a_person_types_them() -> None:
    """A changed on/off option reads ``=on``/``=off`` as it is typed, never Python's True."""
    rules = Rules.preset("callbreak").replace(must_overtake=False)

    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        await my_turn(pilot, app)
        await pilot.press("question_mark")
        text = screen_text(app)
        assert "must_overtake=off" in text and "False" not in text

    run_app(make_session(3, rules=rules), scenario, size=(120, 40))
