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
from callbreak.engine import Action, Observation
from callbreak.faces import CARD_PHASES, deck_of, face, phase_face
from callbreak.tui.app import CallBreakApp
from callbreak.tui.render import sort_hand
from callbreak.tui.screens import ChoiceScreen, InfoScreen
from callbreak.tui.session import Session, playable_spec
from callbreak.tui.widgets import ChoiceBar

Scenario = Callable[[Pilot[None], CallBreakApp], Coroutine[Any, Any, None]]

# Seat 0 holds no spade (a misdeal hand); the next deal's hands are shuffled from the seed.
NO_SPADE = [
    ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "AD", "KD", "QD", "JD", "TD", "9D"],
    ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7H", "6H", "5H", "4H", "3H", "2H"],
    ["7S", "6S", "5S", "4S", "3S", "2S", "8D", "7D", "6D", "5D", "4D", "3D", "2D"],
    ["AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C", "6C", "5C", "4C", "3C", "2C"],
]


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
    specs = {seat: spec for seat in range(1, game_rules.players)}
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


async def last_card_to_result(pilot: Pilot[None], app: CallBreakApp) -> ChoiceScreen:
    """Play the person's last card of deal 1 (``play_until_last_card`` left it) and wait
    for the deal's result screen."""
    await my_turn(pilot, app)
    await pilot.press("enter")
    return await choice_screen(pilot, app, "Deal 1 result")


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


def secret_cards(session: Session) -> list[str]:
    """Every card of the current deal the person may not know where it lies.

    Known are the person's own cards (as dealt and as held), its own nest and
    discards once it took the nest, every card played, the face-up card and the
    called partner card; every other card — the other hands, the nest, the
    stock, what others threw away — is secret.
    """
    deal = session.match.deal
    me = session.human
    known = deal.dealt[me] | deal.hands[me]
    if deal.declarer == me and deal.phase != "auction":
        known |= deal.nest | deal.discards
    for _, cards, _ in deal.history:
        for card in cards:
            known |= 1 << card
    for card in deal.trick:
        known |= 1 << card
    for public in (deal.upcard, deal.partner_card):
        if public is not None:
            known |= 1 << public
    return [deal.deck.names[c] for c in deal.deck.cards if not known >> c & 1]


def hidden_cards_on_screen(app: CallBreakApp) -> list[str]:
    """Cards still hidden from the person that the screen shows (must be none).

    Looks for both spellings, ``K♣`` and ``KC`` (Rook cards: ``14G``, ``ROOK``).
    Only meaningful while the table shows the current deal (not over a finished
    deal's result).
    """
    text = screen_text(app)
    shown = []
    for card in secret_cards(app.session):  # the test's own omniscient look
        shown_face = face(card) != card and face(card) in text
        if shown_face or re.search(rf"(?<![\w♠♥♦♣]){card}(?!\w)", text):
            shown.append(card)
    return shown


def keys_for(app: CallBreakApp, view: Observation, action: Action, *, typed: bool) -> list[str]:
    """The keys a person presses for ``action``: a letter where the phase has one, else the
    card typed (``typed``) or reached with the arrows, a number typed, or the bar's arrows."""
    described = phase_face(view.phase)
    for key, value in described.keys.items():
        if value == action and type(value) is type(action):
            return [key]
    card = str(action)
    if view.phase in CARD_PHASES and card in view.hand:
        if typed and card != "ROOK":
            return [*card.lower()]
        hand = sort_hand(view.hand, deck_of(view))
        moves = (hand.index(card) - app.cursor) % len(hand)
        return ["right"] * moves + ["enter"]
    if isinstance(action, int) and not isinstance(action, bool) and typed:
        return [*str(action), "enter"]
    if described.typed_card and typed:
        return [*card.lower()]
    bar = app.table.query_one(ChoiceBar)
    values = [value for _, value in bar.options]
    moves = (values.index(action) - bar.cursor) % len(values)
    return ["right"] * moves + ["enter"]


async def play_by_keys(
    pilot: Pilot[None],
    app: CallBreakApp,
    *,
    deals: int = 1,
    on_turn: Callable[[Observation], Coroutine[Any, Any, None]] | None = None,
    on_result: Callable[[str], Coroutine[Any, Any, None]] | None = None,
) -> None:
    """Play the person's seat by keys until ``deals`` deals were played out (thrown-in or
    unplayed deals do not count); every turn checks that no secret card is on the screen."""
    session = app.session
    stand_in = make_bot(playable_spec("heuristic", session.rules)[0], seed=5)
    turn = 0
    while True:
        await wait_for(
            pilot,
            lambda: (
                (app.state == "human" and not isinstance(app.screen, ChoiceScreen))
                or isinstance(app.screen, ChoiceScreen)
            ),
            "the person's turn or a result",
            timeout=60,
        )
        screen = app.screen
        if isinstance(screen, ChoiceScreen):
            if on_result is not None:
                await on_result(screen.title_text)
            played = [r for r in session.results() if r.points is not None and r.unplayed is None]
            if len(played) >= deals or session.over:
                return
            await pilot.press("enter")
            await pilot.pause()
            continue
        view = session.view()
        assert hidden_cards_on_screen(app) == [], view.phase
        if on_turn is not None:
            await on_turn(view)
        action = stand_in.act(view)
        before = app.own_actions
        turn += 1
        await pilot.press(*keys_for(app, view, action, typed=turn % 2 == 0))
        assert app.own_actions == before + 1, (view.phase, action, app.message.plain)
