"""``callbreak play``: the Call Break table as a Textual app.

The app is a loop over one ``Session``: after every action it redraws the
table from the person's ``Observation``, then either waits for the person
(keys or mouse), or asks the bot to act in a worker thread — so a thinking bot
never freezes the screen — and shows its card for ``pause`` seconds before
going on.  Finished deals, the match summary, help and the scoresheet are
modal screens over the table.  A generation counter drops the answer of a
worker that belongs to a match the person has already left.
"""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType

from callbreak.tui.base import Drawn, TableScreen, TableState
from callbreak.tui.dialogs import TableDialogs
from callbreak.tui.drawing import TableDrawing
from callbreak.tui.hints import TableHints
from callbreak.tui.keys import KEYS_HELP, TableKeys, keys_help
from callbreak.tui.loop import TableLoop

__all__ = ["KEYS_HELP", "CallBreakApp", "Drawn", "TableScreen", "TableState", "keys_help"]


class CallBreakApp(TableLoop, TableKeys, TableHints, TableDialogs, TableDrawing):
    """A match against bots, made of its parts (``TableState`` says which does what); see
    the module docstring for the loop."""

    TITLE = "Call Break"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "request_quit", "Quit", priority=True, show=False),
        Binding("ctrl+q", "request_quit", "Quit", priority=True, show=False),
    ]
    CSS = """
    Screen { layout: vertical; }
    #topbar { height: 1; background: $primary-background; }
    #table {
        height: 1fr; min-height: 9;
        border: round $primary; background: #0f3b24; color: #e8f0e8;
    }
    #top { height: 2; }
    #top.several { height: 3; }
    .top, .bottom { height: 1fr; width: 1fr; text-align: center; content-align: center middle; }
    .bottom { height: 2; }
    #middle { height: 1fr; }
    #left, #right { width: 1fr; height: 1fr; }
    .side { width: 1fr; height: 1fr; text-align: center; content-align: center middle; }
    #trick { width: 2fr; height: 1fr; content-align: center middle; }
    .seat.turn { background: #2f6f4a; text-style: bold; }
    .seat.away { color: #7f9a88; text-style: italic; }
    #choices { height: 1; margin: 0 1; }
    #hand { height: 4; }
    #status { height: 1; padding: 0 1; text-style: bold; }
    #message { height: 1; padding: 0 1; }
    #message.refused { color: $error; text-style: bold; }
    #message.hint { color: $accent; text-style: bold; }
    """
