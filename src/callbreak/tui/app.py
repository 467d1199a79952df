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

from functools import partial
from typing import Any, ClassVar

from rich.align import Align
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Static

from callbreak.cards import SUIT_SYMBOLS, SUITS
from callbreak.decks import DECKS
from callbreak.engine import Action, IllegalAction, Observation, TrickView
from callbreak.faces import (
    CARD_PHASES,
    DealResult,
    deal_facts,
    deck_of,
    face,
    phase_face,
    said,
    seat_facts,
    seat_places,
    trick_winner,
)
from callbreak.games import find_game
from callbreak.review import reviewable
from callbreak.tui.advice import explain
from callbreak.tui.render import (
    chip,
    deal_table,
    render_calls,
    render_said,
    render_trick,
    rules_summary,
    rules_table,
    scoresheet,
    sort_hand,
)
from callbreak.tui.review import review_screen
from callbreak.tui.screens import ChoiceScreen, InfoScreen
from callbreak.tui.session import Session
from callbreak.tui.widgets import ChoiceBar, HandView, KeyBar

KEYS_HELP: tuple[tuple[str, str], ...] = (
    ("← →", "move along your cards (or the calls); ↑ ↓ jump to the next legal card"),
    ("Enter", "play the card under the cursor (or make the call)"),
    ("as, td, 10h", "type a card: rank then suit (t or 10 is the ten, 1 also the ace)"),
    ("s h d c", "on their own: jump to that suit"),
    ("1–13", "type your call, then Enter"),
    ("y / n", "claim a misdeal (or declare voids) / play on"),
    ("mouse", "click a card, a call, a button, or a key below"),
    ("i", "hint: the expert's choice and why"),
    ("l", "the last trick"),
    ("p", "the scoresheet: every deal's calls, tricks and points"),
    ("space", "go on now instead of waiting after a bot's card"),
    ("f", "fast: no waiting after bots' cards (press again to wait)"),
    ("Esc", "clear what you typed"),
    ("?", "this help"),
    ("Ctrl-C", "leave (asks first; the record, if any, is kept)"),
)
"""The keys of Call Break; ``keys_help`` adds or leaves out lines by the game's phases."""


def keys_help(rules: Any) -> list[tuple[str, str]]:
    """The keys of the game in force: the common ones, then those of the phases it has."""
    phases = set(rules.shape.phase_names)
    rook = DECKS[rules.shape.deck].has_rook
    keys = list(KEYS_HELP[:2])
    if rook:
        keys.append(("1r, 14g, 10b", "type a card: number then colour (R Y G B)"))
        keys.append(("r y g b", "on their own: jump to that colour (or name it trump)"))
    else:
        keys.append(KEYS_HELP[2])
        suits = "on their own: jump to that suit"
        keys.append(("s h d c", suits + (" (or name it trump)" if "trump" in phases else "")))
    if "call" in phases:
        keys.append(KEYS_HELP[4])
    if "auction" in phases:
        keys.append(("0–9, x", "type your bid, then Enter; x passes"))
    if "misdeal" in phases or "declare" in phases:
        keys.append(KEYS_HELP[5])
    if "drop" in phases:
        keys.append(("y / n", "play this deal / sit it out"))
    if "settle" in phases:
        keys.append(("t / g", "take −5 yourself / give +5 to every other seat"))
    if "exchange" in phases:
        keys.append(("x", "done exchanging (Enter throws the card under the cursor)"))
    if "discard" in phases:
        keys.append(("Enter", "after taking the nest: lay the card under the cursor away"))
    if "partner" in phases:
        keys.append(("1g, 14r", "type the partner card you call, or ← → and Enter"))
    keys += KEYS_HELP[6:]
    if reviewable(rules):
        keys.insert(-3, ("r", "on a deal's result: the solver's review of your cards and call"))
    return keys


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


class TableScreen(Screen[None]):
    """The table: seats around, the trick in the middle, the hand along the bottom.

    The seats are laid out from the number of players alone (``seat_places``):
    the person at the bottom, the others up the right, along the top and down
    the left, each a ``Static`` with the id ``place-N`` (N: seats after the person).
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
                        yield Static(id=f"place-{place}", classes="seat top")
            with Horizontal(id="middle"):
                with Vertical(id="left"):
                    for place in left:
                        yield Static(id=f"place-{place}", classes="seat side")
                yield Drawn(id="trick", centred=True)
                with Vertical(id="right"):
                    for place in right:
                        yield Static(id=f"place-{place}", classes="seat side")
            yield Static(id="place-0", classes="seat bottom")
        yield ChoiceBar(id="choices")
        yield HandView(id="hand")
        yield Static(id="status")
        yield Static(id="message")
        yield KeyBar(id="keys")

    def on_key(self, event: events.Key) -> None:
        app = self.app
        assert isinstance(app, CallBreakApp)
        if app.table_key(event.key, event.character):
            event.stop()
            event.prevent_default()

    def on_hand_view_picked(self, message: HandView.Picked) -> None:
        app = self.app
        assert isinstance(app, CallBreakApp)
        app.play(message.card)

    def on_choice_bar_chosen(self, message: ChoiceBar.Chosen) -> None:
        app = self.app
        assert isinstance(app, CallBreakApp)
        app.choose(message.value)

    def on_key_bar_pressed(self, message: KeyBar.Pressed) -> None:
        app = self.app
        assert isinstance(app, CallBreakApp)
        app.press(message.action)

    def on_click(self, event: events.Click) -> None:
        """A click on the table itself (not a card or a choice) skips the pause."""
        app = self.app
        assert isinstance(app, CallBreakApp)
        if app.state == "pause":
            app.skip()


class CallBreakApp(App[None]):
    """A match against three bots: see the module docstring for the loop."""

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

    # ----------------------------------------------------------------- set-up
    def on_mount(self) -> None:
        self.push_screen(TableScreen(self.session.players))
        self.call_later(self.step)

    @property
    def table(self) -> TableScreen:
        for screen in self.screen_stack:
            if isinstance(screen, TableScreen):
                return screen
        raise LookupError("the table screen is not mounted")

    # --------------------------------------------------------------- the loop
    def step(self) -> None:
        """Decide what happens next: a result to show, the person's turn, or a bot's."""
        self._timer = None
        session = self.session
        if self._held:
            self._pending_step = True
            return
        if self.state in ("bot", "modal"):
            return
        if session.finished_deals > self._seen_entries:
            fresh = session.results()[self._seen_entries :]
            self._seen_entries = session.finished_deals
            self.show_last = False
            self._show_results(fresh)
            return
        if session.over:
            self._show_summary()
            return
        seat = session.to_act
        assert seat is not None
        if seat == session.human:
            self.state = "human"
            self.thinking = None
            self._start_turn()
            self.redraw()
            return
        self.state = "bot"
        self.thinking = seat
        self.redraw()
        observation = session.bot_view(seat)
        self.run_worker(
            partial(self._bot_work, self.generation, seat, observation),
            thread=True,
            group="bot",
            exit_on_error=False,
        )

    def _bot_work(self, generation: int, seat: int, observation: Observation) -> None:
        """In a worker thread: the bot thinks; its answer is applied on the main thread."""
        try:
            action: Action | Exception = self.session.decide(seat, observation)
        except Exception as error:  # a broken bot must not take the table down
            action = error
        self.call_from_thread(self._bot_done, generation, seat, observation, action)

    def _bot_done(
        self, generation: int, seat: int, observation: Observation, answer: Action | Exception
    ) -> None:
        """Apply a bot's answer on the main thread and say what it did.

        ``observation`` is the bot's own and is used only to fall back on a legal
        action; what the screen says comes from the person's view, and a refused
        answer is never explained (the engine's reason would name the bot's cards).
        """
        if generation != self.generation or self.state != "bot":
            return
        self.state = "idle"
        self.thinking = None
        name = self.session.seat_name(seat)
        seen = self.session.view()
        note = ""
        action: Action = observation.legal[0]
        if isinstance(answer, Exception):
            note = " (its bot failed; it made the first legal choice)"
        else:
            action = answer
        tricks_before = self._progress()
        try:
            self.session.apply_bot(seat, action)
        except IllegalAction:
            note = " (its bot's answer was refused; it made the first legal choice)"
            action = observation.legal[0]
            self.session.apply_bot(seat, action)
        self.actions += 1
        self._set_message(self._describe(name, seen, action) + note, "")
        completed = self._progress() != tricks_before
        delay = self.pause * (2 if completed else 1)
        self.show_last = completed
        self._advance(delay if phase_face(seen.phase).pause else 0)

    def _advance(self, delay: float) -> None:
        """Go on after ``delay`` seconds (0, or fast mode: at once); space or a click skips."""
        self.redraw()
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if delay > 0 and not self.fast and not self._deal_just_ended():
            self.state = "pause"
            self._timer = self.set_timer(delay, self._after_pause)
        else:
            self.state = "idle"
            self.call_later(self.step)

    def _after_pause(self) -> None:
        if self.state == "pause":
            self.state = "idle"
            self.step()

    def skip(self) -> None:
        """Go on now instead of waiting for the end of the pause."""
        if self.state == "pause":
            if self._timer is not None:
                self._timer.stop()
                self._timer = None
            self.state = "idle"
            self.step()

    def _deal_just_ended(self) -> bool:
        """A deal was settled: its result screen follows at once (it shows the last trick)."""
        return self.session.finished_deals > self._seen_entries

    def _progress(self) -> tuple[int, int]:
        """Deals settled and tricks completed: public counts that say a trick just ended."""
        view = self.session.view()
        return (self.session.finished_deals, len(view.history))

    # -------------------------------------------------------- the person acts
    def _start_turn(self) -> None:
        """Put the cursor somewhere useful when the person's turn begins."""
        view = self.session.view()
        self.typed = ""
        if view.phase in CARD_PHASES:
            hand = self._hand(view)
            legal = set(view.legal)
            if not hand or not legal & set(hand):
                return
            self.cursor = min(self.cursor, len(hand) - 1)
            if hand[self.cursor] not in legal:
                self.cursor = next(i for i, c in enumerate(hand) if c in legal)

    def act(self, action: Action) -> bool:
        """The person's action: applied, or refused with the rule's explanation."""
        if self.state != "human":
            return False
        view = self.session.view()
        before = self._progress()
        try:
            self.session.act(action)
        except IllegalAction as error:
            self._set_message(str(error), "refused")
            self.typed = ""
            self.redraw()
            return False
        self.actions += 1
        self.own_actions += 1
        self.typed = ""
        self._set_message(self._describe(self.session.name, view, action), "")
        completed = self._progress() != before
        self.show_last = completed
        self.state = "idle"
        self._advance(self.pause * 2 if completed else 0)
        return True

    def play(self, card: str) -> None:
        """A card chosen by click, Enter or typing."""
        view = self.session.view()
        if self.state == "human" and view.phase in CARD_PHASES:
            self.act(card)
        elif self.state == "pause":
            self.skip()

    def choose(self, value: Any) -> None:
        """An option of the choice bar (a call, a bid, an answer, "done")."""
        if self.state == "human":
            self.act(value)

    def _hand(self, view: Observation) -> list[str]:
        """The person's hand in the order it is drawn (by suit, high cards first)."""
        return sort_hand(view.hand, deck_of(view))

    def press(self, action: str) -> None:
        """A key's action, from the keyboard or a click on the key bar."""
        if action == "help":
            self.show_help()
        elif action == "hint":
            self.hint()
        elif action == "last":
            self.show_last_trick()
        elif action == "scores":
            self.show_scores()
        elif action == "skip":
            self.skip()
        elif action == "fast":
            self.fast = not self.fast
            self._set_message("Fast: bots' cards no longer wait." if self.fast else "", "hint")
            if self.fast:
                self.skip()
            self.redraw()
        elif action == "enter":
            self._enter()
        elif action == "quit":
            self.action_request_quit()
        elif action.startswith("key:"):
            self.table_key(action[4:], action[4:])

    def table_key(self, key: str, character: str | None) -> bool:
        """Keys on the table; True when the key was used."""
        char = (character or "").lower() if character and character.isprintable() else ""
        named = {
            "?": "help",
            "i": "hint",
            "l": "last",
            "p": "scores",
            "f": "fast",
        }
        if key == "f1" or char in named:
            self.press("help" if key == "f1" else named[char])
            return True
        if key in ("space", "enter") and self.state == "pause":
            self.skip()
            return True
        if self.state != "human":
            return False
        view = self.session.view()
        if key == "escape":
            self.typed = ""
            self._set_message("", "")
            self.redraw()
            return True
        if key == "enter":
            self._enter()
            return True
        described = phase_face(view.phase)
        answer = described.keys.get(char) if char else None
        if answer is not None and answer in view.legal and not self.typed:
            self.act(answer)
            return True
        if view.phase in CARD_PHASES:
            return self._card_key(view, key, char, self._hand(view))
        bar = self.table.query_one(ChoiceBar)
        if key in ("left", "right", "tab", "shift+tab"):
            bar.move(-1 if key in ("left", "shift+tab") else 1)
            self.typed = ""
        elif key == "home":
            bar.cursor = 0
        elif key == "end":
            bar.cursor = len(bar.options) - 1
        elif key == "backspace":
            self.typed = self.typed[:-1]
        elif described.typed_number and char.isdigit():
            self._type_number(bar, char)
        elif described.typed_card and char:
            return self._card_key(view, key, char, [])
        else:
            return False
        self.redraw()
        return True

    def _type_number(self, bar: ChoiceBar, char: str) -> None:
        """Digits pick a call or bid on the bar: kept while some option starts with them."""
        labels = [str(value) for _, value in bar.options]
        typed = self.typed + char
        if not any(label.startswith(typed) for label in labels):
            typed = char if any(label.startswith(char) for label in labels) else ""
        self.typed = typed
        if typed:
            bar.select(int(typed))

    def _enter(self) -> None:
        if self.state == "pause":
            self.skip()
            return
        if self.state != "human":
            return
        view = self.session.view()
        hand = self._hand(view)
        if view.phase in CARD_PHASES and hand:
            self.act(hand[min(self.cursor, len(hand) - 1)])
        else:
            bar = self.table.query_one(ChoiceBar)
            if bar.active:
                self.act(bar.value)

    def _card_key(self, view: Observation, key: str, char: str, hand: list[str]) -> bool:
        """Keys that move along the hand or type a card (rank then suit: ``as``, ``14g``).

        ``hand`` is empty when the card is typed but not picked from the hand (the
        Rook partner card): then a typed card answers, and arrows move the choice bar.
        """
        deck = deck_of(view)
        suits = deck.suits.lower()
        spellings = [name.lower() for name in deck.inputs]
        legal = [i for i, c in enumerate(hand) if c in set(map(str, view.legal))]
        if hand and key in ("left", "right"):
            self.cursor = (self.cursor + (1 if key == "right" else -1)) % len(hand)
        elif hand and key in ("up", "down") and legal:
            step = 1 if key == "up" else -1
            ahead = [i for i in legal if (i - self.cursor) * step > 0]
            if ahead:
                self.cursor = min(ahead) if step > 0 else max(ahead)
            else:
                self.cursor = legal[0] if step > 0 else legal[-1]
        elif hand and key == "home":
            self.cursor = 0
        elif hand and key == "end":
            self.cursor = len(hand) - 1
        elif key == "backspace":
            self.typed = self.typed[:-1]
        elif char and char in suits and self.typed:
            typed, self.typed = self.typed + char, ""
            try:
                card = deck.names[deck.parse(typed)]
            except ValueError:
                self._set_message(f"{typed} is not a card: {self._spelling(view)}", "")
                self.redraw()
                return True
            if card in hand:
                self.cursor = hand.index(card)
            self.act(card)
            return True
        elif char and char in suits and hand:
            suit = char.upper()
            in_suit = [i for i, c in enumerate(hand) if c[-1] == suit and c != "ROOK"]
            if in_suit:
                legal_in_suit = [i for i in in_suit if i in legal]
                self.cursor = (legal_in_suit or in_suit)[0]
            else:
                name = deck.suit_names[deck.suits.index(suit)]
                self._set_message(f"You hold no {name}.", "")
        elif char and any(s.startswith(self.typed + char) for s in spellings):
            self.typed += char
            whole = self.typed
            if whole in spellings and not any(
                s != whole and s.startswith(whole) for s in spellings
            ):
                self.typed = ""  # a card spelt out in full (ROOK): nothing can follow
                self.act(deck.names[deck.parse(whole)])
                return True
        elif char and any(s.startswith(char) for s in spellings):
            self.typed = char
        else:
            return False
        self.redraw()
        return True

    @staticmethod
    def _spelling(view: Observation) -> str:
        if DECKS[view.rules.shape.deck].has_rook:
            return "type number then colour, e.g. 1r, 14g"
        return "type rank then suit, e.g. as, td"

    # ---------------------------------------------------------------- hints
    def hint(self) -> None:
        """Ask the hint bot (the expert if there is one) in a worker; show its choice and why."""
        if self.state != "human" or self._hint_busy:
            if self.state != "human":
                self._set_message("A hint is for your own turn.", "hint")
                self.redraw()
            return
        view = self.session.view()
        self._hint_busy = True
        self._set_message("Thinking about a hint…", "hint")
        self.redraw()
        self.run_worker(
            partial(self._hint_work, (self.generation, self.actions), view),
            thread=True,
            group="hint",
            exit_on_error=False,
        )

    def _hint_work(self, token: tuple[int, int], view: Observation) -> None:
        try:
            action: Action = self.session.hint(view)
            reason = explain(view, action)
        except Exception as error:
            self.call_from_thread(self._hint_failed, str(error))
            return
        self.call_from_thread(self._hint_done, token, view, action, reason)

    def _hint_failed(self, error: str) -> None:
        self._hint_busy = False
        self._set_message(f"No hint this time: {error}", "refused")
        self.redraw()

    def _hint_done(
        self, token: tuple[int, int], view: Observation, action: Action, reason: str
    ) -> None:
        self._hint_busy = False
        if token != (self.generation, self.actions) or self.state != "human":
            return
        if view.phase in CARD_PHASES and str(action) in view.hand:
            card = str(action)
            hand = self._hand(view)
            self.cursor = hand.index(card)
            what = face(card)
        elif view.phase == "call":
            self.table.query_one(ChoiceBar).select(action)
            what = f"call {action}"
        elif view.phase == "misdeal":
            what = "claim a redeal" if action else "play on"
            self.table.query_one(ChoiceBar).select(action)
        elif view.phase == "declare":
            what = "declare" if action else "keep your voids quiet"
            self.table.query_one(ChoiceBar).select(action)
        else:
            self.table.query_one(ChoiceBar).select(action)
            what = phase_face(view.phase).tell(view, action, True)
        self._set_message(f"Hint: {what}" + (f" — {reason}" if reason else ""), "hint")
        self.redraw()

    # ------------------------------------------------------------- messages
    def _set_message(self, text: str, kind: str) -> None:
        self.message = Text(text)
        self.message_kind = kind

    def _describe(self, name: str, view: Observation, action: Action) -> str:
        """One line on what a seat just did, from what everyone saw ("You play", "East plays").

        The phase's own words (``phases.PHASES``) tell it; a card a bot lays face
        down is told as "a card", never by name.
        """
        mine = name == "You"
        line = f"{name} {phase_face(view.phase).tell(view, action, mine)}."
        if view.phase == "play":
            after = self.session.view()
            if after.history and len(after.history) > len(view.history):
                last = after.history[-1]
                assert last.winner is not None
                line += f" {self.session.seat_name(last.winner)} won the trick."
        return line

    # ------------------------------------------------------------- drawing
    def redraw(self) -> None:
        """Draw the whole table from the person's observation."""
        try:
            table = self.table
        except LookupError:
            return
        session = self.session
        view = session.view()
        names = [session.seat_name(s) for s in range(session.players)]
        table.query_one("#topbar", Drawn).show(partial(self._topbar, view))
        _right, top, _left = seat_places(session.players)
        wide_places = {0} | (set(top) if len(top) == 1 else set())
        for seat in range(session.players):
            place = (seat - session.human) % session.players
            widget = table.query_one(f"#place-{place}", Static)
            widget.update(self._seat_text(view, seat, wide=place in wide_places), layout=False)
            widget.set_class(view.to_act == seat and not session.over, "turn")
            away = seat in view.dropped or bool(view.dealt_in and seat not in view.dealt_in)
            widget.set_class(away, "away")
        table.query_one("#trick", Drawn).show(partial(self._middle, view, names))
        self._draw_choices(table, view)
        hand = self._hand(view)
        picking = self.state == "human" and view.phase in CARD_PHASES
        legal = frozenset(str(c) for c in view.legal) & frozenset(hand)
        table.query_one(HandView).show(
            hand,
            legal if picking else None,
            min(self.cursor, len(hand) - 1) if picking and hand else None,
        )
        table.query_one("#status", Static).update(self._status(view), layout=False)
        message = table.query_one("#message", Static)
        message.update(self.message, layout=False)
        wanted = {self.message_kind} - {""}
        if set(message.classes) != wanted:
            message.set_classes(wanted)
        table.query_one(KeyBar).show(self._keys(view))

    def _topbar(self, view: Observation, width: int, height: int) -> RenderableType:
        session, rules = self.session, self.session.rules
        deals = f"/{rules.match_deals}" if rules.match_end == "deals" else ""
        if rules.shape.lowest_wins:
            deals = ""  # a countdown match runs until a score reaches 0
        deal = f"Deal {view.deal_number}{deals}" + (" · tie-break" if session.tie_break else "")
        game = f"{rules.title} · {rules.name}"
        if len(game) > 24:  # the preset's name only where it fits beside the title
            game = rules.title
        parts = [game, deal, f"dealer {session.seat_name(view.dealer)}"]
        if view.phase == "play":
            parts.append(f"trick {min(view.trick_number + 1, rules.hand_size)}/{rules.hand_size}")
        if rules.shape.lowest_wins:
            parts.append("lowest wins")
        if self.fast:
            parts.append("fast")
        grid = Table.grid(expand=True)
        grid.add_column(no_wrap=True, overflow="ellipsis")
        grid.add_column(justify="right", no_wrap=True)
        grid.add_row(Text(" " + " · ".join(parts), style="bold"), Text("? help ", style="dim"))
        return grid

    def _seat_text(self, view: Observation, seat: int, *, wide: bool) -> Text:
        session = self.session
        marker = "▶ " if view.to_act == seat and not session.over else ""
        name = session.seat_name(seat)
        kind = session.seat_kind(seat)
        head = Text.assemble(marker, (name, "bold"))
        if seat != session.human:
            head.append(f" · {kind}", style="italic")
        if view.dealer == seat:
            head.append(" (dealer)")
        facts = seat_facts(view, seat)
        if self.thinking == seat and view.phase == "call" and view.calls[seat] is None:
            facts[0] = "call …"
        total = view.totals[seat] if view.totals is not None else None
        total_text = f"total {total}" if total is not None else ""
        if view.counting_seats is not None and seat not in view.counting_seats:
            total_text += " (out of the tie-break)"
        voids = view.declared_voids[seat]
        void_text = "void " + "".join(SUIT_SYMBOLS[SUITS.index(s)] for s in voids) if voids else ""
        if self.thinking == seat:
            void_text = (void_text + " thinking…").strip()
        if wide:
            line = " · ".join(p for p in [*facts, total_text, void_text] if p)
            return Text.assemble(head, "\n", line)
        lines = [head, Text(" · ".join(facts)), Text(total_text)]
        if void_text:
            lines.append(Text(void_text))
        return Text("\n").join(lines)

    def _middle(
        self, view: Observation, names: list[str], width: int, height: int
    ) -> RenderableType:
        session = self.session
        players = session.players
        if view.phase in ("call", "misdeal", "declare"):
            order = [(view.dealer + 1 + i) % players for i in range(players)]
            made = sum(c for c in view.calls if c is not None)
            floor = session.rules.min_total_calls
            footer = f"calls so far: {made}" + (f" (at least {floor} to play)" if floor else "")
            if view.phase == "misdeal":
                footer = "a hand without spades or honours may be thrown in"
            if view.phase == "declare":
                footer = "void suits may be declared to the table"
            title = f"Deal {view.deal_number} · calls"
            return render_calls(
                order, names, view.calls, to_act=view.to_act, title=title, footer=footer
            )
        facts = deal_facts(view, names)
        if view.phase not in ("play", "over", "void"):
            return self._before_play(view, names, facts, height)
        playing = view.active or tuple(range(players))
        trick = view.trick
        if trick.cards:
            winning = trick_winner(view, trick)
            assert winning is not None
            title = f"Trick {view.trick_number + 1} · {names[trick.leader]} led"
            footer = f"{names[winning]} is winning"
            return render_trick(
                trick,
                players=players,
                human=session.human,
                winning=winning,
                width=width,
                height=height,
                title=title,
                footer=footer,
                facts=facts,
                playing=playing,
            )
        if view.history:
            last = view.history[-1]
            assert last.winner is not None
            title = f"Trick {len(view.history)} · {names[last.leader]} led"
            lead = names[view.to_act] if view.to_act is not None else ""
            footer = f"{names[last.winner]} won it"
            if not self.show_last and lead:
                footer += f" · {lead} to lead"
            return render_trick(
                last,
                players=players,
                human=session.human,
                winning=last.winner,
                width=width,
                height=height,
                title=title,
                footer=footer,
                facts=facts,
                playing=playing,
            )
        leader = names[view.to_act] if view.to_act is not None else ""
        empty = TrickView(view.dealer, (), None)
        return render_trick(
            empty,
            players=players,
            human=session.human,
            winning=None,
            width=width,
            height=height,
            title="Trick 1",
            footer=f"{leader} leads" if leader else "",
            facts=facts,
            playing=playing,
        )

    def _before_play(
        self, view: Observation, names: list[str], facts: str, height: int
    ) -> RenderableType:
        """The middle before the tricks: what each seat said this phase, the deal's facts."""
        players = self.session.players
        seats = view.dealt_in or tuple(range(players))
        order = sorted(seats, key=lambda s: (s - view.dealer - 1) % players)
        shown = [said(view, seat) for seat in range(players)]
        title = f"Deal {view.deal_number} · {view.phase}"
        if view.phase == "auction":
            bids = [b for _, b in view.bids if b != "pass"]
            footer = f"high bid {max(map(int, bids))}" if bids else "no bid yet"
        elif view.to_act is not None:
            footer = f"{names[view.to_act]} to {phase_face(view.phase).verb}"
        else:
            footer = ""
        return render_said(
            order,
            names,
            shown,
            to_act=view.to_act,
            title=title,
            footer=footer,
            facts=facts,
            height=height,
        )

    def _draw_choices(self, table: TableScreen, view: Observation) -> None:
        bar = table.query_one(ChoiceBar)
        human = self.state == "human"
        described = phase_face(view.phase)
        if human and view.phase not in CARD_PHASES:
            options = described.options(view)
            if bar.options != options:
                start = next((i for i, (_, c) in enumerate(options) if c == 3), 0)
                bar.offer(described.prompt(view), options, start)
            return
        prompt = f"Your hand ({len(view.hand)})"
        if human:
            if view.phase != "play":
                prompt = described.prompt(view)
            else:
                prompt += " · solid cards are legal"
            if self.typed:
                prompt += f" · typed: {self.typed.upper()}_"
            options = described.options(view)
            bar.offer(prompt, options, bar.cursor if bar.options == options else 0)
            return
        if view.dealt_in and self.session.human not in view.dealt_in:
            prompt = "You are out of the game: the others play on"
        elif self.session.human in view.dropped:
            prompt = f"Your hand ({len(view.hand)}) · you sit this deal out"
        bar.offer(prompt, [])

    def _status(self, view: Observation) -> Text:
        session = self.session
        if session.over:
            return Text("The match is over.")
        if self.state == "human":
            if view.phase == "call":
                typed = f" (typed {self.typed})" if self.typed else ""
                return Text(f"Your call{typed}: ← → and Enter, type the number, or click it")
            return Text(phase_face(view.phase).keys_hint)
        if self.state == "pause":
            return Text("space: go on" + ("" if self.fast else " · f: fast"), style="dim")
        if self.thinking is not None:
            return Text(f"{session.seat_name(self.thinking)} is thinking…", style="italic")
        return Text("")

    def _keys(self, view: Observation) -> list[tuple[str, str, str]]:
        keys: list[tuple[str, str, str]] = []
        if self.state == "modal":
            pass
        elif self.state == "human":
            if view.phase == "play":
                keys += [("←→⏎", "play", "enter"), ("as", "type", "enter")]
            elif view.phase in CARD_PHASES:
                keys += [("←→⏎", "throw" if view.phase == "exchange" else "lay away", "enter")]
                keys += [(k, str(v), f"key:{k}") for k, v in phase_face(view.phase).keys.items()]
            else:
                keys += [("←→⏎", "choose", "enter")]
            keys.append(("i", "hint", "hint"))
        else:
            keys += [("␣", "go on", "skip"), ("f", "fast" if not self.fast else "wait", "fast")]
        keys += [
            ("l", "last trick", "last"),
            ("p", "scores", "scores"),
            ("?", "help", "help"),
            ("^C", "quit", "quit"),
        ]
        return keys

    # --------------------------------------------------------------- screens
    def _modal(self, screen: Screen[Any], callback: Any) -> None:
        """A screen the loop stops for (a result, the summary); ``callback`` takes its answer."""
        self.state = "modal"
        self.redraw()

        def done(answer: Any) -> None:
            self.state = "idle"
            callback(answer)

        self.push_screen(screen, done)

    def _show_results(self, results: list[DealResult]) -> None:
        session = self.session
        names = [session.seat_name(s) for s in range(session.players)]
        body: list[RenderableType] = []
        scored = [r for r in results if r.points is not None]
        for result in results:
            if result.void_reason is not None:
                body.append(
                    Text(
                        f"Deal {result.number} thrown in: {result.void_reason}. "
                        "The same dealer deals again.",
                        style="bold",
                    )
                )
                made = [f"{names[s]} {c}" for s, c in enumerate(result.calls) if c is not None]
                if made:
                    body.append(Text("Calls: " + ", ".join(made)))
        for result in scored:
            if result.unplayed is not None:
                body.append(Text(f"Not played out: {result.unplayed}.", style="bold"))
            body.append(deal_table(result, names))
            body.append(self._verdict(result))
        last = self._finished_last_trick() if scored else None
        if last is not None:
            body.append(last)
        choices: list[tuple[str, Any]] = []
        if session.over:
            choices.append(("See the match result", "next"))
        else:
            choices.append(("Next deal", "next"))
            if session.can_finish:
                choices.append(("End the match here", "finish"))
        shortcuts = {"e": "finish"} if len(choices) > 1 else {}
        played = scored[-1].number if scored and scored[-1].unplayed is None else None
        if played is not None:  # r: the solver's review (a game it does not play: says so)
            shortcuts["r"] = "review"
            if reviewable(session.rules):
                choices.append(("Review (r)", "review"))
        title = f"Deal {scored[-1].number} result" if scored else "Deal thrown in"
        if scored and scored[-1].tie_break:
            title += " (tie-break)"

        def answered(answer: Any) -> None:
            if answer == "review" and played is not None:
                self._modal(review_screen(session, played), lambda _: self._show_results(results))
                return
            if answer == "finish":
                session.finish()
                if not session.over:
                    self._set_message("Tie at the top: a tie-break deal follows.", "hint")
            else:
                self._set_message("", "")
            self.step()

        self._modal(
            ChoiceScreen(title, body, choices, shortcuts=shortcuts),
            answered,
        )

    def _verdict(self, result: DealResult) -> Text:
        """How the person's own call (or bid, or deal) went, in words."""
        session = self.session
        me = session.human
        call, won = result.calls[me], result.tricks[me]
        points = result.points[me] if result.points else None
        if points is None:
            return Text("")
        if not find_game(result.game).calls:
            return Text(self._family_verdict(result, points), style="bold")
        if call is None:
            return Text("")
        made = session.rules.success(call, won)
        if made:
            return Text(f"You called {call} and won {won}: {points} points.", style="bold")
        return Text(f"You called {call} but won {won}: {points} points.", style="bold")

    def _family_verdict(self, result: DealResult, points: Any) -> str:
        """The person's deal in a game without calls: its bid, its part, its points."""
        me = self.session.human
        lower = " (lower is better)" if result.lowest_wins else ""
        won = result.tricks[me]
        tricks = f"{won} trick{'s' * (won != 1)}"
        total = result.totals[me]
        if result.dealt_in and me not in result.dealt_in:
            return f"You are out of the game; your total stays {total}."
        if me in result.dropped:
            return f"You sat this deal out: {points} points, total {total}{lower}."
        if me == result.declarer and result.contract is not None:
            return (
                f"You bid {result.contract} and won {tricks}: "
                f"{points} points, total {total}{lower}."
            )
        if me == result.partner:
            return f"You were the partner: {points} points, total {total}{lower}."
        return f"You won {tricks}: {points} points, total {total}{lower}."

    def _finished_last_trick(self) -> Text | None:
        """The last trick of the deal that just ended, for its result screen."""
        trick = self.session.last_trick_of_finished_deal()
        if trick is None:
            return None
        return self._trick_line("Last trick:", trick)

    def _trick_line(self, label: str, trick: TrickView) -> Text:
        players = self.session.players
        line = Text(label + " ")
        for seat, card in zip(trick.seats(players), trick.cards, strict=True):
            line.append(f"{self.session.seat_name(seat)} ")
            line.append_text(chip(card, pad=0))
            line.append("  ")
        if trick.winner is not None:
            line.append(f"→ {self.session.seat_name(trick.winner)} won it", style="bold")
        return line

    def _show_summary(self) -> None:
        session = self.session
        names = [session.seat_name(s) for s in range(session.players)]
        winners = session.winners
        sheet = scoresheet(session.results(), names, session.totals, winners=winners)
        who = " and ".join(names[w] for w in winners)
        best = session.totals[winners[0]] if winners else None
        if winners == [session.human]:
            verdict = f"You win the match with {best}!"
        elif len(winners) > 1:
            verdict = f"{who} share the win with {best}."
        else:
            verdict = f"{who} wins the match with {best}."
        body: list[RenderableType] = [sheet, Text(verdict, style="bold")]
        if session.record is not None:
            body.append(Text(f"Record: {session.record}", style="dim"))

        def answered(answer: Any) -> None:
            if answer == "new":
                self.new_match()
            else:
                self.exit()

        self._modal(
            ChoiceScreen(
                "Match over",
                body,
                [("New match (n)", "new"), ("Quit (x)", "quit")],
                shortcuts={"n": "new", "x": "quit"},
                cancel="quit",
            ),
            answered,
        )

    def new_match(self) -> None:
        """A fresh match with the same rules and bots; answers of old workers are dropped."""
        self.generation += 1
        self.session = self.session.next_match()
        self.session.save()
        self._seen_entries = 0
        self.cursor = 0
        self.show_last = False
        self._set_message("A new match: good luck.", "hint")
        self.state = "idle"
        self.step()

    def show_help(self) -> None:
        rules = self.session.rules
        keys = Table.grid(padding=(0, 2))
        keys.add_column(no_wrap=True, style="bold")
        keys.add_column()
        for key, meaning in keys_help(rules):
            keys.add_row(key, meaning)
        changed = rules.changed()
        title = "" if rules.shape.calls else f"{rules.title} · "
        heading = f"Rules: {title}{rules.name}" + (
            " with " + ", ".join(f"{k}={v}" for k, v in changed.items()) if changed else ""
        )
        body: list[RenderableType] = [
            Text("Keys", style="bold underline"),
            keys,
            Text(""),
            Text(heading, style="bold underline"),
            Text(rules_summary(rules)),
            Text(""),
            rules_table(rules),
        ]
        self._info("Help", body, close_keys=("?", "question_mark"))

    def show_scores(self) -> None:
        session = self.session
        names = [session.seat_name(s) for s in range(session.players)]
        body: list[RenderableType] = [scoresheet(session.results(), names, session.totals)]
        if not session.results():
            body.append(Text("No deal finished yet.", style="dim"))
        if session.rules.shape.calls:
            legend = "Each cell: called/won, then the points; Σ is the running total."
        else:
            legend = "Each cell: tricks won (the bidder's bid), then the points; Σ: running total."
        if session.rules.shape.lowest_wins:
            legend += " Lower is better."
        body.append(Text(legend, style="dim"))
        self._info("Scoresheet", body, close_keys=("p",))

    def show_last_trick(self) -> None:
        view = self.session.view()
        if view.history:
            trick = view.history[-1]
        else:
            found = self.session.last_trick_of_finished_deal()
            if found is None:
                self._set_message("No trick has been played yet.", "")
                self.redraw()
                return
            trick = found
        names = [self.session.seat_name(s) for s in range(self.session.players)]
        number = len(view.history) if view.history else self.session.rules.hand_size
        assert trick.winner is not None
        picture = render_trick(
            trick,
            players=self.session.players,
            human=self.session.human,
            winning=trick.winner,
            width=40,
            height=13,
            title=f"Trick {number} · {names[trick.leader]} led",
            footer=f"{names[trick.winner]} won it",
        )
        self._info("Last trick", [picture, self._trick_line("In order:", trick)], close_keys=("l",))

    def _info(self, title: str, body: list[RenderableType], close_keys: tuple[str, ...]) -> None:
        self._overlay(InfoScreen(title, body, close_keys=close_keys))

    def _overlay(self, screen: Screen[Any], callback: Any = None) -> None:
        """A screen the game waits under: a bot may finish its thought, but nothing moves on
        (no next card, no timer running out) until the screen is closed."""
        if self._timer is not None:
            self._timer.pause()
        self._held = True

        def closed(answer: Any) -> None:
            self._held = False
            if callback is not None:
                callback(answer)
            if self._timer is not None:
                self._timer.resume()
            if self._pending_step:
                self._pending_step = False
                self.step()

        self.push_screen(screen, closed)

    def action_request_quit(self) -> None:
        """Ctrl-C: ask before leaving (a second Ctrl-C in the question leaves)."""
        if isinstance(self.screen, ChoiceScreen) and self.screen.title_text == "Leave?":
            self.exit()
            return
        record = self.session.record
        if self.session.over:
            where = "The match is over."
        elif record is not None:
            where = f"The record is kept in {record}: callbreak play --resume {record} continues."
        else:
            where = "This match is not recorded (--record FILE keeps one), so it ends here."

        def answered(leave: Any) -> None:
            if leave:
                self.exit()

        self._overlay(
            ChoiceScreen(
                "Leave?",
                [Text("Leave the match?", style="bold"), Text(where)],
                [("Stay (n)", False), ("Leave (y)", True)],
                shortcuts={"y": True, "n": False},
                cancel=False,
            ),
            answered,
        )
