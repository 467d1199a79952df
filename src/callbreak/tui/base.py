"""The table app's shared state and its table screen, below the parts that make the app.

``TableScreen`` lays the seats out and hands every key, click and pick to the app
(``TableState``), whose parts (``tui.loop``, ``tui.keys``, ``tui.hints``, ``tui.drawing``,
``tui.dialogs``) ``tui.app.CallBreakApp`` puts together.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.align import Align
from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Static

from callbreak.engine import Action, Observation
from callbreak.faces import (
    DealResult,
    deck_of,
    seat_places,
)
from callbreak.tui.render import (
    sort_hand,
)
from callbreak.tui.session import Session
from callbreak.tui.widgets import ChoiceBar, HandView, KeyBar


class Drawn(Widget):
    """A widget whose picture is drawn at its current size by a function (redrawn on resize)."""

    def __init__(self, *, id: str | None = None, centred: bool = False) -> None:
        super().__init__(id=id)
        self.draw: Any = lambda width, height: Text("")
        self.centred = centred

    def show(self, draw: Any) -> None:
        self.draw = draw
        self.refresh()

    def render(self) -> RenderableType:
        size = self.content_size
        picture: RenderableType = self.draw(size.width, size.height)
        return Align.center(picture, vertical="middle") if self.centred else picture


class SeatView(Static):
    """A seat's panel.  Its text is fitted to its size (``TableDrawing.redraw``), so a new
    size (a resize, a two-line message taking a row from the table) draws the table again."""

    def on_resize(self, event: events.Resize) -> None:
        app = self.app
        if isinstance(app, TableState):
            app.redraw_soon()


class TableScreen(Screen[None]):
    """The table: seats around, the trick in the middle, the hand along the bottom.

    The seats are laid out from the number of players alone (``seat_places``):
    the person at the bottom, the others up the right, along the top and down
    the left, each a ``SeatView`` with the id ``place-N`` (N: seats after the person).
    """

    def __init__(self, players: int = 4) -> None:
        super().__init__()
        self.players = players

    def compose(self) -> ComposeResult:
        right, top, left = seat_places(self.players)
        yield Drawn(id="topbar")
        with Vertical(id="table"):
            if top:
                with Horizontal(id="top", classes="several" if len(top) > 1 else ""):
                    for place in top:
                        yield SeatView(id=f"place-{place}", classes="seat top")
            with Horizontal(id="middle"):
                with Vertical(id="left"):
                    for place in left:
                        yield SeatView(id=f"place-{place}", classes="seat side")
                yield Drawn(id="trick", centred=True)
                with Vertical(id="right"):
                    for place in right:
                        yield SeatView(id=f"place-{place}", classes="seat side")
            yield SeatView(id="place-0", classes="seat bottom")
        yield ChoiceBar(id="choices")
        yield HandView(id="hand")
        yield Static(id="status")
        yield Static(id="message")
        yield KeyBar(id="keys")

    def on_key(self, event: events.Key) -> None:
        app = self.app
        assert isinstance(app, TableState)
        if app.table_key(event.key, event.character):
            event.stop()
            event.prevent_default()

    def on_hand_view_picked(self, message: HandView.Picked) -> None:
        app = self.app
        assert isinstance(app, TableState)
        app.play(message.card)

    def on_choice_bar_chosen(self, message: ChoiceBar.Chosen) -> None:
        app = self.app
        assert isinstance(app, TableState)
        app.choose(message.value)

    def on_key_bar_pressed(self, message: KeyBar.Pressed) -> None:
        app = self.app
        assert isinstance(app, TableState)
        app.press(message.action)

    def on_click(self, event: events.Click) -> None:
        """A click on the table itself (not a card or a choice) skips the pause."""
        app = self.app
        assert isinstance(app, TableState)
        if app.state == "pause":
            app.skip()


class TableState(App[None]):
    """What every part of the table app shares: the session, the state of the loop, the cursor
    and what was typed, the message line; and the methods the parts call across (above).

    ``CallBreakApp`` is made of the parts: ``TableLoop`` (the turns and the bots' worker
    threads), ``TableKeys`` (keys and clicks), ``TableHints``, ``TableDrawing`` (the
    table from the person's observation) and ``TableDialogs`` (results, summary, help,
    scores, the last trick, leaving).
    """

    # Each part of the app defines some of these; the others call them through here.
    step: Callable[[], None]
    """Decide what happens next (``TableLoop.step``)."""
    act: Callable[[Action], bool]
    """The person's action, applied or refused with the rule (``TableLoop.act``)."""
    skip: Callable[[], None]
    """Go on now instead of at the end of a pause (``TableLoop.skip``)."""
    play: Callable[[str], None]
    """A card picked on the table (``TableLoop.play``)."""
    choose: Callable[[Any], None]
    """An option of the choice bar (``TableLoop.choose``)."""
    press: Callable[[str], None]
    """A key's action, typed or clicked on the key bar (``TableKeys.press``)."""
    table_key: Callable[[str, str | None], bool]
    """A key on the table; True when it was used (``TableKeys.table_key``)."""
    hint: Callable[[], None]
    """Ask the hint bot (``TableHints.hint``)."""
    redraw: Callable[[], None]
    """Draw the whole table from the person's observation (``TableDrawing.redraw``)."""
    _show_results: Callable[[list[DealResult]], None]
    """The result screen of deals just finished (``TableDialogs``)."""
    _show_summary: Callable[[], None]
    """The match's last screen (``TableDialogs``)."""
    show_help: Callable[[], None]
    show_scores: Callable[[], None]
    show_last_trick: Callable[[], None]
    action_request_quit: Callable[[], None]
    """Ctrl-C: ask before leaving (``TableDialogs``)."""
    tell_save_news: Callable[[], bool]
    """Say what changed in saving the record; True when a screen now holds the game
    (``TableDialogs``)."""

    def __init__(self, session: Session, *, pause: float = 0.6, notice: str = "") -> None:
        super().__init__()
        self.session = session
        self.pause = max(0.0, pause)
        self.fast = False
        self.state = "idle"
        """idle | human | bot | pause | modal: what the table is waiting for."""
        self.generation = 0
        self.actions = 0
        self.own_actions = 0
        """The person's own actions taken (``actions`` counts the bots' too)."""
        self.cursor = 0
        self.typed = ""
        notice = notice or session.notice
        self.message: Text = Text(notice)
        self.message_kind = "hint" if notice else ""
        self.show_last = False
        self.thinking: int | None = None
        self._timer: Timer | None = None
        self._seen_entries = session.finished_deals
        self._hint_busy = False
        self._held = False
        self._pending_step = False
        self._redraw_queued = False

    def redraw_soon(self) -> None:
        """Redraw once the layout is settled (several seats resized at once draw it once)."""
        if not self._redraw_queued:
            self._redraw_queued = True
            self.call_after_refresh(self._redraw_queued_now)

    def _redraw_queued_now(self) -> None:
        self._redraw_queued = False
        self.redraw()

    @property
    def table(self) -> TableScreen:
        for screen in self.screen_stack:
            if isinstance(screen, TableScreen):
                return screen
        raise LookupError("the table screen is not mounted")

    def _set_message(self, text: str, kind: str) -> None:
        self.message = Text(text)
        self.message_kind = kind

    def _hand(self, view: Observation) -> list[str]:
        """The person's hand in the order it is drawn (by suit, high cards first)."""
        return sort_hand(view.hand, deck_of(view))
