"""A finished deal of a live match reviewed for one seat: the faces' door to ``analysis``.

The terminal table and the web server both offer, after each deal, the exact
solver's review of the person's own decisions (``callbreak.analysis``, the
same review as ``callbreak analyze``).  This module is what they share: which
deal of a match may be reviewed (``finished_deal``), whether the game can be
(``check_reviewable``), and one ``Reviewer`` per process that runs the
analysis one deal at a time and keeps its answers.

The analysis is slow the first time (numba compiles the solver and the
expert's kernels: about half a minute), then seconds a deal, so a face calls
``Reviewer.review`` from a worker thread, never from its UI thread or event
loop.

Only a deal that is over is reviewed.  In the games the solver models (the
call games: Call Break, Call Bridge, Batak Koz Maça) every card of such a deal
was played face up, so its hands are public by then: the review, built from
all four hands, tells nothing that the table did not see.  The other games are
reviewed by playouts with the hands shown (``playout_review``): the review lists
only the seat's own decisions and their values, never another seat's cards,
though the values were found with every card known (a nest laid away, a hand
that sat out), as the method's name says.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from callbreak.rules import Rules

if TYPE_CHECKING:
    from callbreak.analysis import Analyst, DealReview
    from callbreak.engine import Deal, Match


class Analyses(Protocol):
    """What a reviewer needs of its analyst (``analysis.Analyst``; tests put a cheap one)."""

    def deal(self, deal: Deal, seat: int, number: int) -> DealReview: ...


class ReviewRefused(ValueError):
    """A review that cannot be given, and why: ``kind`` is ``unknown`` (no such deal),
    ``unfinished`` (not played out: in progress or thrown in) or ``unanalysable`` (a game
    the solver does not model)."""

    def __init__(self, kind: str, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason


def check_reviewable(rules: Rules) -> None:
    """Raise ``ReviewRefused("unanalysable", …)`` unless ``rules``' deals can be reviewed.

    Every game of the family can: the solver values the call games, playouts with the
    hands shown value the others (``playout_review``).  A deal that cannot be dealt
    again (no shuffle seed) is refused when its review runs (``Reviewer.review``); the
    check stays so that the faces keep one place to ask."""


def reviewable(rules: Rules) -> bool:
    try:
        check_reviewable(rules)
    except ReviewRefused:
        return False
    return True


def waiting_note(rules: Rules, warm: bool) -> str:
    """What the review of a deal of ``rules`` does while the person waits, in one sentence
    (``warm``: a review has run in this process, so the solver is compiled)."""
    from callbreak.analysis import solved

    if not solved(rules):
        return "Playouts with the hands shown value each of your decisions (seconds a deal)."
    when = (
        "seconds a deal"
        if warm
        else "the first review compiles the solver: about half a minute, then seconds a deal"
    )
    return f"The exact solver goes over every card you played ({when})."


def finished_deal(match: Match, number: int) -> Deal:
    """The played-out deal numbered ``number`` (1-based, as the scoresheet numbers them).

    A number the match has not reached is ``unknown``; the deal in progress, or a
    number whose deals were all thrown in, is ``unfinished``.
    """
    if number < 1 or number > match.deal_number:
        raise ReviewRefused("unknown", f"there is no deal {number} in this match")
    entries = [entry for entry in match.entries if entry.number == number]
    for entry in entries:
        if entry.deal.phase == "over" and entry.deal.unplayed is None and entry.deal.history:
            return entry.deal
    if entries and not (number == match.deal_number and not match.over):
        raise ReviewRefused(
            "unfinished", f"deal {number} was not played out: there is nothing to review"
        )
    raise ReviewRefused(
        "unfinished", f"deal {number} is still being played: it can be reviewed once it is over"
    )


def default_analyst() -> Analyst:
    """The faces' analyst: the solver and second opinion of ``callbreak analyze``, one thread
    (the table's bots need the other core)."""
    from callbreak.analysis import Analyst

    return Analyst(threads=1)


class Reviewer:
    """One analyst for the process, one review at a time, the last ``keep`` answers kept.

    ``review`` blocks (call it from a worker thread); it is thread-safe.  Answers
    are kept by deal object and seat: a finished deal never changes.
    """

    def __init__(self, make_analyst: Callable[[], Analyses] = default_analyst, keep: int = 128):
        self.make_analyst = make_analyst
        self.keep = keep
        self._analyst: Analyses | None = None
        self._work = threading.Lock()
        """Held while the analyst works (its solver is not thread-safe)."""
        self._lock = threading.Lock()
        """Held only to read or change ``_kept``."""
        self._kept: OrderedDict[tuple[Deal, int], DealReview] = OrderedDict()
        self.warm = False
        """Whether a review has run (the one-off compilation is behind)."""

    def kept(self, deal: Deal, seat: int) -> DealReview | None:
        """The answer already computed for ``deal`` and ``seat``, if any (never waits for
        a review in progress)."""
        with self._lock:
            found = self._kept.get((deal, seat))
            if found is not None:
                self._kept.move_to_end((deal, seat))
            return found

    def review(self, deal: Deal, seat: int, number: int) -> DealReview:
        """The review of ``deal`` (played out, numbered ``number``) for ``seat``."""
        from callbreak.analysis import AnalysisError

        check_reviewable(deal.rules)
        with self._work:
            found = self.kept(deal, seat)
            if found is not None:
                return found
            if self._analyst is None:
                self._analyst = self.make_analyst()
            try:
                answer = self._analyst.deal(deal, seat, number)
            except AnalysisError as error:
                raise ReviewRefused("unanalysable", str(error)) from None
            if answer.game != deal.rules.game:  # read in the deal's words, whoever analysed it
                answer = replace(answer, game=deal.rules.game)
            self.warm = True
            with self._lock:
                self._kept[(deal, seat)] = answer
                while len(self._kept) > self.keep:
                    self._kept.popitem(last=False)
            return answer


_reviewer: Reviewer | None = None
_reviewer_lock = threading.Lock()


def reviewer() -> Reviewer:
    """The process's reviewer (made on first use)."""
    global _reviewer
    with _reviewer_lock:
        if _reviewer is None:
            _reviewer = Reviewer()
        return _reviewer


def set_reviewer(new: Reviewer | None) -> Reviewer | None:
    """Put ``new`` in place of the process's reviewer (tests: a cheap analyst); returns the
    old one."""
    global _reviewer
    with _reviewer_lock:
        old, _reviewer = _reviewer, new
        return old


def review_document(review: DealReview) -> dict[str, Any]:
    """``DealReview.json()`` with each line of the review in words (``text``, in the game's:
    a Spades seat bids), for a face."""
    document = review.json()
    call, words = review.call.call, review.words
    document["call"]["text"] = words.reword(review.call.text())
    for line, decision in zip(document["decisions"], review.decisions, strict=True):
        line["text"] = words.reword(decision.text(call))
    document["valued"] = review.valued
    return document
