"""The solver's review of the deal that just ended, over its result screen (key ``r``).

``review_screen`` builds the screen for one deal of the person's match: it
says "Reviewing…" at once, the analysis (``callbreak.review``, the same as
``callbreak analyze``) runs in a worker thread of the app, and the screen
fills in when it is done — the table never waits for it.  Each of the
person's cards is listed with the solver's verdict, every card that lost
value in colour with the better card and its cost, after the call against the
largest call makeable from the start and the expert's opinion.  A game the
solver does not model gets a screen that says so.  Escape closes it.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from callbreak.cards import SUIT_SYMBOLS, SUITS
from callbreak.decks import DECKS
from callbreak.faces import suit_label
from callbreak.games import CALL, Contract
from callbreak.points import Points
from callbreak.review import (
    ReviewRefused,
    check_reviewable,
    finished_deal,
    reviewer,
    waiting_note,
)
from callbreak.tui.screens import InfoScreen, fit_width

if TYPE_CHECKING:
    from callbreak.analysis import DealReview, Decision
    from callbreak.engine import Deal
    from callbreak.rules import Rules
    from callbreak.tui.session import Session

_CARD = re.compile(r"\b([2-9TJQKA])([SHDC])\b")
_SYMBOL = dict(zip(SUITS, SUIT_SYMBOLS, strict=True))
_SUIT_WORDS = {letter: suit_label(deck, letter) for deck in DECKS.values() for letter in deck.suits}
_SUIT = re.compile(r"\b[" + "".join(_SUIT_WORDS) + r"]\b")

STYLES = {"blunder": "bold red", "mistake": "bold red", "hidden": "yellow"}
"""How a decision that lost value is marked: a blunder red, bad luck (the hidden cards) yellow."""

LEGEND = (
    "Every hand known, each card valued as the points you still secure after it against "
    "best defence. Red: a card that lost value where the expert, seeing only your cards, "
    "kept it; yellow: the expert would have lost it too (the hidden cards decided)."
)
PLAYOUT_LEGEND = (
    "Every hand known, each choice (a bid, trump, a discard, an exchange, in or out, a card) "
    "valued by playing the deal out from it with the heuristic at every seat: your points "
    "less the others' mean. Red: a choice that lost value."
)


def faces(text: str, kind: str = "play") -> str:
    """``KH`` → ``K♥`` in a line of the review, as the table shows cards; in a choice of trump
    (``kind``) the suit letters too, ``B`` → ``B blacks``."""
    text = _CARD.sub(lambda m: m.group(1) + _SYMBOL[m.group(2)], text)
    if kind != "trump":
        return text
    return _SUIT.sub(lambda m: _SUIT_WORDS[m.group(0)], text)


def decision_line(decision: Decision, call: int, words: Contract = CALL) -> Text:
    """One of the person's cards: the verdict, and for a mistake the better card and the cost;
    in the game's ``words`` (a Spades seat's call is a bid)."""
    kind = getattr(decision, "kind", "play")  # a playout review's bids, drops, exchanges…
    shown = f"{decision.trick:>2}  " if kind == "play" else f"{words.reword(kind)}  "
    line = Text(shown, style="dim")
    text = words.reword(decision.text(call))
    if decision.mistake:
        line.append("✗ ", style=STYLES.get(decision.verdict, "bold red"))
        line.append(faces(text, kind), style=STYLES.get(decision.verdict, "bold red"))
        line.append(f" · cost {decision.lost}", style="bold")
        return line
    if decision.values is not None:
        value = decision.played_value
        line.append("✓ ", style="green")
        best = "a best card" if kind == "play" else "a best choice"
        line.append(faces(f"{decision.played}: {best} ({_signed(value)})", kind))
        return line
    line.append("  ")
    line.append(faces(text.split(": ", 1)[1] if ": " in text else text, kind), style="dim")
    return line


def _signed(points: Points | None) -> str:
    """``+4.0``, ``-4.0`` (``analysis.signed``, imported only once a review is shown)."""
    if points is None:
        return "?"
    from callbreak.analysis import signed

    return signed(points)


def head_line(review: DealReview) -> str:
    """The solver's call review, or how the playouts valued the deal (in the game's words)."""
    text = review.words.reword(review.call.text())
    return text[:1].upper() + text[1:]


def review_body(review: DealReview, name: str = "You") -> list[RenderableType]:
    """The review of one deal as the screen shows it."""
    call, words = review.call.call, review.words
    # the heading in the game's words, the person's name as typed ("call me" is no bid)
    heading = words.reword(review.heading("{name}")).replace("{name}", name)
    head = Text(f"Deal {review.number}: {heading}", style="bold")
    lines = Table.grid(padding=(0, 0))
    lines.add_column()
    for decision in review.decisions:
        lines.add_row(decision_line(decision, call, words))
    mistakes = len(review.mistakes)
    if mistakes:
        summary = (
            f"{mistakes} of {len(review.decisions)} {review.noun} lost value "
            f"({_signed(-review.lost)} in all)"
        )
    elif review.call_lost > Points(0):
        summary = f"No card of the {len(review.decisions)} lost value"  # the call did: below
    elif review.called:
        summary = f"No card of the {len(review.decisions)} lost value: a perfect line."
    else:
        summary = f"No decision of the {len(review.decisions)} lost value: a perfect line."
    call_lost = review.call_lost
    if call_lost > Points(0):  # a bad call with perfect cards is no perfect line
        summary += f"; the call lost {call_lost}"
    if review.unknown:
        summary += f"; {review.unknown} not valued (the search was stopped)"
    return [
        head,
        Text(summary, style="bold red" if mistakes or call_lost > Points(0) else "bold green"),
        Text(faces(head_line(review))),
        Text(""),
        Text(
            "Trick  your card" if review.called else "Trick  your decision", style="bold underline"
        ),
        lines,
        Text(""),
        Text(LEGEND if review.called else PLAYOUT_LEGEND, style="dim"),
    ]


class ReviewScreen(InfoScreen):
    """The review of one deal: "Reviewing…" until the worker's answer arrives."""

    def __init__(
        self,
        title: str,
        body: list[RenderableType],
        *,
        deal: Deal | None = None,
        seat: int = 0,
        number: int = 0,
        name: str = "You",
    ) -> None:
        super().__init__(title, body, close_keys=("r",))
        self.deal = deal
        self.seat = seat
        self.number = number
        self.person = name
        self.started = time.monotonic()
        self.review: DealReview | None = None
        self.failed: str | None = None

    @property
    def pending(self) -> bool:
        return self.deal is not None and self.review is None and self.failed is None

    def on_mount(self) -> None:
        super().on_mount()
        if self.deal is None:
            return
        found = reviewer().kept(self.deal, self.seat)
        if found is not None:
            self.show_review(found)
            return
        self.set_interval(1.0, self._tick)
        self.app.run_worker(
            partial(self._work, self.deal),
            thread=True,
            group="review",
            exit_on_error=False,
        )

    def _work(self, deal: Deal) -> None:
        """In a worker thread: the analysis; its answer goes to the screen on the main thread."""
        try:
            review = reviewer().review(deal, self.seat, self.number)
        except Exception as error:  # the table goes on whatever the analysis does
            self._deliver(partial(self.show_failure, str(error) or type(error).__name__))
            return
        self._deliver(partial(self.show_review, review))

    def _deliver(self, show: Callable[[], None]) -> None:
        with contextlib.suppress(RuntimeError):  # the app closed meanwhile: the answer is kept
            self.app.call_from_thread(show)

    def _tick(self) -> None:
        if self.pending:
            assert self.deal is not None  # pending
            self._show(waiting_body(self.deal.rules, time.monotonic() - self.started))

    def show_review(self, review: DealReview) -> None:
        self.review = review
        self._show(review_body(review, self.person))

    def show_failure(self, error: str) -> None:
        self.failed = error
        self._show([Text(f"No review this time: {error}", style="bold red")])

    def _show(self, body: list[RenderableType]) -> None:
        if not self.is_attached:
            return  # closed before the answer came: it is kept for the next time
        self.body = body
        self.query_one("#body Static", Static).update(Group(*body))
        fit_width(self, body, len("Esc: close · ↑↓ scroll") + 4)


def waiting_body(rules: Rules, elapsed: float = 0.0) -> list[RenderableType]:
    seconds = f" {int(elapsed)} s" if elapsed >= 1 else ""
    return [
        Text(f"Reviewing…{seconds}", style="bold"),
        Text(waiting_note(rules, reviewer().warm)),
        Text("Esc closes this; the review goes on and is here when you come back.", style="dim"),
    ]


def review_screen(session: Session, number: int) -> ReviewScreen:
    """The review of deal ``number`` of ``session``'s match for the person's seat, started;
    or a screen saying why there is none (a game the solver does not play)."""
    title = f"Review of deal {number}"
    try:
        check_reviewable(session.rules)
        deal = finished_deal(session.match, number)
    except ReviewRefused as refused:
        reason = refused.reason[0].upper() + refused.reason[1:]
        return ReviewScreen(title, [Text(f"{reason}.", style="bold")])
    return ReviewScreen(
        title,
        waiting_body(session.rules),
        deal=deal,
        seat=session.human,
        number=number,
        name=session.name,
    )
