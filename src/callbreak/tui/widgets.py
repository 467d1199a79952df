"""The table's own widgets: the hand, a one-line choice bar, and the clickable key bar.

Each draws itself from ``render``'s pictures at its current width (so resizing
just redraws) and turns a click into a message for the app; none of them
knows the game, so the app stays the one place where actions are taken.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget

from callbreak.tui.render import HandLayout, layout_hand, render_hand


class HandView(Widget):
    """The person's cards along the bottom; a click on a card posts ``HandView.Picked``."""

    DEFAULT_CSS = """
    HandView { height: 4; width: 1fr; }
    """

    class Picked(Message):
        """A card was clicked."""

        def __init__(self, card: str) -> None:
            self.card = card
            super().__init__()

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cards: tuple[str, ...] = ()
        self.legal: frozenset[str] | None = None
        self.cursor: int | None = None
        self.hover: int | None = None

    def show(self, cards: Sequence[str], legal: frozenset[str] | None, cursor: int | None) -> None:
        """Set what to draw: the sorted hand, the legal cards to mark (or None), the cursor."""
        self.cards, self.legal, self.cursor = tuple(cards), legal, cursor
        if self.hover is not None and self.hover >= len(self.cards):
            self.hover = None
        self.refresh()

    def layout_now(self) -> HandLayout:
        return layout_hand(self.cards, self.content_size.width)

    def render(self) -> Text:
        return render_hand(
            self.layout_now(), legal=self.legal, cursor=self.cursor, hover=self.hover
        )

    def _index(self, event: events.MouseEvent) -> int | None:
        offset = event.get_content_offset(self)
        return None if offset is None else self.layout_now().index_at(offset.x)

    def on_click(self, event: events.Click) -> None:
        index = self._index(event)
        if index is not None:
            event.stop()
            self.post_message(self.Picked(self.cards[index]))

    def on_mouse_move(self, event: events.MouseMove) -> None:
        index = self._index(event)
        if index != self.hover:
            self.hover = index
            self.refresh()

    def on_leave(self, event: events.Leave) -> None:
        if self.hover is not None:
            self.hover = None
            self.refresh()


class ChoiceBar(Widget):
    """A prompt and a row of options on one line; arrows move (via the app), clicks choose.

    Used for calls (only the legal ones are offered), the misdeal claim, the
    void declaration, and the buttons of the result screens.
    """

    DEFAULT_CSS = """
    ChoiceBar { height: 1; width: 1fr; }
    """

    class Chosen(Message):
        """An option was clicked (or confirmed with Enter through ``confirm``)."""

        def __init__(self, bar: ChoiceBar, value: Any) -> None:
            self.bar = bar
            self.value = value
            super().__init__()

        @property
        def control(self) -> ChoiceBar:
            return self.bar

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.prompt = ""
        self.options: list[tuple[str, Any]] = []
        self.cursor = 0
        self._spans: list[tuple[int, int]] = []

    def offer(self, prompt: str, options: Sequence[tuple[str, Any]], cursor: int = 0) -> None:
        """Show ``options`` (label, value) after ``prompt``; an empty list hides the options."""
        self.prompt, self.options = prompt, list(options)
        self.cursor = max(0, min(cursor, len(self.options) - 1))
        self.refresh()

    @property
    def active(self) -> bool:
        return bool(self.options)

    @property
    def value(self) -> Any:
        return self.options[self.cursor][1] if self.options else None

    def move(self, step: int) -> None:
        if self.options:
            self.cursor = (self.cursor + step) % len(self.options)
            self.refresh()

    def select(self, value: Any) -> bool:
        """Put the cursor on the option with ``value``; False if there is none."""
        for i, (_, option) in enumerate(self.options):
            if option == value:
                self.cursor = i
                self.refresh()
                return True
        return False

    def confirm(self) -> None:
        if self.options:
            self.post_message(self.Chosen(self, self.value))

    def _window(self, width: int) -> tuple[int, int]:
        """The options shown: all when they fit in ``width``, else a run around the cursor.

        Long lists (a Rook auction's bids, a partner card among fifty) scroll with
        the cursor instead of running off the edge.
        """
        sizes = [len(label) + 3 for label, _ in self.options]
        room = width - (len(self.prompt) + 1 if self.prompt else 0)
        if sum(sizes) <= room or not sizes:
            return 0, len(sizes)
        room -= 4  # the "‹ " and " ›" marks
        lo = hi = self.cursor
        used = 0
        while True:
            grown = False
            if hi < len(sizes) and used + sizes[hi] <= room:
                used += sizes[hi]
                hi += 1
                grown = True
            if lo > 0 and used + sizes[lo - 1] <= room:
                lo -= 1
                used += sizes[lo]
                grown = True
            if not grown:
                break
        return lo, max(hi, lo + 1)

    def render(self) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        if self.prompt:
            text.append(self.prompt, style="bold")
            text.append(" ")
        self._spans = [(-1, -1)] * len(self.options)
        lo, hi = self._window(self.content_size.width or 80)
        if lo > 0:
            text.append("‹ ", style="dim")
        for i in range(lo, hi):
            label = self.options[i][0]
            start = len(text.plain)
            if i == self.cursor:
                text.append(f"[{label}]", style="bold reverse")
            else:
                text.append(f" {label} ")
            self._spans[i] = (start, len(text.plain))
            text.append(" ")
        if hi < len(self.options):
            text.append("›", style="dim")
        return text

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        self.render()  # the spans follow the latest options
        for i, (start, end) in enumerate(self._spans):
            if start <= offset.x < end:
                event.stop()
                self.cursor = i
                self.refresh()
                self.post_message(self.Chosen(self, self.options[i][1]))
                return


class KeyBar(Widget):
    """The keys that matter now, on one line; clicking a key's label does what the key does."""

    DEFAULT_CSS = """
    KeyBar { height: 1; width: 1fr; background: $panel; }
    """

    class Pressed(Message):
        def __init__(self, action: str) -> None:
            self.action = action
            super().__init__()

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.keys: list[tuple[str, str, str]] = []
        self._spans: list[tuple[int, int, str]] = []

    def show(self, keys: Sequence[tuple[str, str, str]]) -> None:
        """(key label, what it does, action name) for each key, most important first."""
        self.keys = list(keys)
        self.refresh()

    def render(self) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        width = self.content_size.width or 80
        self._spans = []
        for key, label, action in self.keys:
            piece = len(key) + len(label) + 3
            if len(text.plain) + piece > width:
                break
            start = len(text.plain)
            text.append(f" {key}", style="bold reverse")
            text.append(f" {label} ")
            self._spans.append((start, len(text.plain), action))
        return text

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for start, end, action in self._spans:
            if start <= offset.x < end:
                event.stop()
                self.post_message(self.Pressed(action))
                return
