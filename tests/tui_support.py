"""Driving the Textual table in tests: the screen as text, waiting for a state, secrets on screen.

The app runs its bots in worker threads, so a test never sleeps for a fixed
time: it waits (with a deadline) until the app reaches the state it needs —
the person's turn, a result screen — and then looks at the rendered screen.
"""

from __future__ import annotations

import asyncio
import io
import re
import time
from collections.abc import Callable, Coroutine
from typing import Any

from rich.console import Console
from textual.pilot import Pilot

from callbreak import Match, Rules
from callbreak.bots import make_bot
from callbreak.cards import SUIT_SYMBOLS, SUITS
from callbreak.tui.app import CallBreakApp
from callbreak.tui.screens import ChoiceScreen, InfoScreen
from callbreak.tui.session import Session

Scenario = Callable[[Pilot[None], CallBreakApp], Coroutine[Any, Any, None]]


def make_session(
    seed: int = 3,
    *,
    rules: Rules | None = None,
    spec: str = "heuristic",
    hands: list[list[list[str]]] | None = None,
    **kwargs: Any,
) -> Session:
    """A session against ``spec`` bots; ``hands`` fixes the hands of the first deals."""
    game_rules = rules or Rules.preset("callbreak")
    if hands is None:
        return Session.start(game_rules, spec, seed=seed, **kwargs)
    match = Match(game_rules, seed=seed, dealer=3, hands=hands)
    specs = {seat: spec for seat in (1, 2, 3)}
    return Session(match, specs, **kwargs)


def run_app(
    session: Session, scenario: Scenario, *, size: tuple[int, int] = (80, 24), pause: float = 0
) -> CallBreakApp:
    """Run ``scenario`` against a fresh app (no pause between cards unless asked)."""
    app = CallBreakApp(session, pause=pause)

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await scenario(pilot, app)

    asyncio.run(main())
    return app


async def wait_for(
    pilot: Pilot[None], condition: Callable[[], bool], what: str, timeout: float = 20
) -> None:
    """Let the app run until ``condition`` holds (bots think in threads); fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.005)
    await pilot.pause()


async def my_turn(pilot: Pilot[None], app: CallBreakApp) -> None:
    """Wait for the person's turn, going on past any deal's result (a redeal, a void deal)."""
    while True:
        await wait_for(
            pilot,
            lambda: app.state in ("human", "modal") and not isinstance(app.screen, InfoScreen),
            "the person's turn",
        )
        screen = app.screen
        if isinstance(screen, ChoiceScreen) and screen.title_text.startswith("Deal"):
            await pilot.press("enter")
            continue
        if app.state == "human" and not isinstance(screen, ChoiceScreen):
            return
        await pilot.pause(0.005)


async def choice_screen(pilot: Pilot[None], app: CallBreakApp, title: str) -> ChoiceScreen:
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, ChoiceScreen) and title in app.screen.title_text,
        f"a screen titled {title!r}",
    )
    screen = app.screen
    assert isinstance(screen, ChoiceScreen)
    return screen


def screen_text(app: CallBreakApp) -> str:
    """The whole screen as plain text, modal screens over the table included."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system=None,
        record=True,
        legacy_windows=False,
        safe_box=False,
    )
    update = app.screen._compositor.render_update(
        full=True, screen_stack=app.app._background_screens
    )
    console.print(update)
    return "\n".join(line.rstrip() for line in console.export_text(styles=False).splitlines())


def play_until_last_card(session: Session) -> None:
    """Let bots play every seat (the person's with a heuristic of its own) up to the
    person's last card of the current deal, so a scene can start near a deal's end."""
    match = session.match
    stand_in = make_bot("heuristic", seed=99)
    deal = match.deal
    while True:
        seat = match.to_act
        assert seat is not None
        if seat == session.human and match.deal is deal and deal.hands[seat].bit_count() == 1:
            return
        bot = stand_in if seat == session.human else session.bots[seat]
        match.act(bot.act(match.observation(seat)))
        if match.deal is not deal:  # a void deal: follow the redeal instead
            deal = match.deal


def face(card: str) -> str:
    return card[:-1] + SUIT_SYMBOLS[SUITS.index(card[-1])]


def hidden_cards_on_screen(app: CallBreakApp) -> list[str]:
    """Cards still hidden in another seat's hand that the screen shows (must be none).

    Looks for both spellings, ``K♣`` and ``KC``.  Only meaningful while the
    table shows the current deal (not over a finished deal's result).
    """
    text = screen_text(app)
    match = app.session.match
    shown = []
    for seat in range(match.players):
        if seat == app.session.human:
            continue
        for card in match.deal.hand(seat):  # the test's own omniscient look
            if face(card) in text or re.search(rf"\b{card}\b", text):
                shown.append(card)
    return shown
