"""Screens over the table: information to read, and questions with a few answers.

Two kinds are enough: ``InfoScreen`` (help, scoresheet, last trick: any key
or a click closes it) and ``ChoiceScreen`` (a deal's result, the match
summary, "leave?": arrows/Enter, a shortcut letter, or a click answers).  Both
fit in 80×24 and scroll when their text is longer than the terminal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.measure import Measurement
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from callbreak.tui.widgets import ChoiceBar

_DIALOG_CSS = """
{name} {{ align: center middle; }}
{name} > #dialog {{
    width: {width}; max-width: 96%; min-width: 40;
    height: auto; max-height: 100%;
    border: round $accent; border-title-style: bold; padding: 0 1;
    border-subtitle-color: $text-muted;
    background: $surface;
}}
{name} #body {{ height: auto; max-height: 85vh; width: {inner}; }}
{name} #body > Static {{ width: {inner}; }}
{name} ChoiceBar {{ width: {inner}; }}
"""


def fit_width(screen: ModalScreen[Any], body: Sequence[RenderableType], least: int = 0) -> None:
    """Make the dialog as wide as its text needs (the CSS caps it at the screen's width)."""
    console = screen.app.console
    needed = Measurement.get(console, console.options, Group(*body)).maximum
    screen.query_one("#dialog").styles.width = max(40, needed, least) + 4


class InfoScreen(ModalScreen[None]):
    """Something to read; Escape, Enter, space, the key that opened it, or a click closes it."""

    DEFAULT_CSS = _DIALOG_CSS.format(name="InfoScreen", width="60", inner="100%")

    def __init__(
        self, title: str, body: Sequence[RenderableType], *, close_keys: Sequence[str] = ()
    ) -> None:
        super().__init__()
        self.title_text = title
        self.body = list(body)
        self.close_keys = {"escape", "enter", "space", *close_keys}

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog") as dialog:
            dialog.border_title = self.title_text
            dialog.border_subtitle = "Esc: close · ↑↓ scroll"
            with VerticalScroll(id="body"):
                yield Static(Group(*self.body))

    def on_mount(self) -> None:
        fit_width(self, self.body, len("Esc: close · ↑↓ scroll") + 4)

    def on_key(self, event: events.Key) -> None:
        if event.key in ("up", "down", "pageup", "pagedown", "home", "end"):
            return  # the scroll view handles these
        event.stop()
        if event.key in self.close_keys or event.character in self.close_keys:
            self.dismiss(None)

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.dismiss(None)


class ChoiceScreen(ModalScreen[Any]):
    """A question: a body to read and a row of answers (``ChoiceBar``); it dismisses with one.

    ``shortcuts`` maps a key (``y``, ``n``) to an answer; ``cancel`` is the answer
    that Escape gives (None: Escape does nothing).
    """

    DEFAULT_CSS = _DIALOG_CSS.format(name="ChoiceScreen", width="60", inner="100%")

    def __init__(
        self,
        title: str,
        body: Sequence[RenderableType],
        choices: Sequence[tuple[str, Any]],
        *,
        shortcuts: Mapping[str, Any] | None = None,
        cancel: Any = None,
        prompt: str = "",
    ) -> None:
        super().__init__()
        self.title_text = title
        self.body = list(body)
        self.choices = list(choices)
        self.shortcuts = dict(shortcuts or {})
        self.cancel = cancel
        self.prompt = prompt

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog") as dialog:
            dialog.border_title = self.title_text
            with VerticalScroll(id="body"):
                yield Static(Group(*self.body))
            yield ChoiceBar(id="choices")

    def on_mount(self) -> None:
        bar = self.query_one(ChoiceBar)
        bar.offer(self.prompt, self.choices)
        answers = len(self.prompt) + sum(len(label) + 3 for label, _ in self.choices)
        fit_width(self, self.body, answers)

    def on_key(self, event: events.Key) -> None:
        bar = self.query_one(ChoiceBar)
        key = event.key
        if key in ("up", "down", "pageup", "pagedown", "home", "end"):
            return
        event.stop()
        if key in ("left", "shift+tab"):
            bar.move(-1)
        elif key in ("right", "tab"):
            bar.move(1)
        elif key == "enter":
            self.dismiss(bar.value)
        elif key == "escape" and self.cancel is not None:
            self.dismiss(self.cancel)
        elif event.character is not None and event.character.lower() in self.shortcuts:
            self.dismiss(self.shortcuts[event.character.lower()])

    def on_choice_bar_chosen(self, message: ChoiceBar.Chosen) -> None:
        message.stop()
        self.dismiss(message.value)
