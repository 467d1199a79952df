"""``GET /api/tables/{code}/review?deal=K``: the exact solver's review of one finished deal.

Who may read which review follows the table's other secrets.  While the match
is played, only a seated player (proved by its seat token, as for every seat
action) reads the review of its *own* seat: another seat or a spectator gets
403.  Once the match is over its record is public (``/api/records``), and so
is the review of any seat (``&seat=N``).  Only a played-out deal is reviewed
(the deal in progress, or one thrown in: 409); by then, in the games the
solver plays, every card was played face up.  A game the solver does not
play: 422; no such table or deal: 404.

The analysis runs on one worker thread of its own (numba compiles it the
first time: about half a minute; then seconds a deal), never on the event
loop; a review asked for twice while it runs is computed once, answers are
kept (``callbreak.review.Reviewer``), and past ``queue`` reviews waiting the
server says it is busy (503) instead of queueing without end.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from fastapi import HTTPException

from callbreak.review import (
    ReviewRefused,
    check_reviewable,
    finished_deal,
    review_document,
    reviewer,
)

if TYPE_CHECKING:
    from callbreak.analysis import DealReview
    from callbreak.engine import Deal
    from callbreak.server.table import LiveTable

STATUS = {"unknown": 404, "unfinished": 409, "unanalysable": 422}
"""HTTP status of each kind of ``ReviewRefused``."""


class TableReviews:
    """The server's reviews: one worker thread, requests for the same review shared."""

    def __init__(self, queue: int = 8) -> None:
        self.queue = queue
        self._executor: ThreadPoolExecutor | None = None
        self._pending: dict[tuple[Deal, int], asyncio.Future[DealReview]] = {}

    async def review(self, deal: Deal, seat: int, number: int) -> DealReview:
        kept = reviewer().kept(deal, seat)
        if kept is not None:
            return kept
        key = (deal, seat)
        future = self._pending.get(key)
        if future is None:
            if len(self._pending) >= self.queue:
                raise HTTPException(503, "the solver is busy with other reviews: try again soon")
            if self._executor is None:
                self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="review")
            loop = asyncio.get_running_loop()
            future = loop.run_in_executor(self._executor, reviewer().review, deal, seat, number)
            self._pending[key] = future
            future.add_done_callback(lambda _: self._pending.pop(key, None))
        # A client that goes away must not cancel the review that others may be waiting for.
        return await asyncio.shield(future)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)


async def table_review(
    reviews: TableReviews, table: LiveTable, viewer: int | None, number: int, seat: int | None
) -> dict[str, Any]:
    """The review document of deal ``number`` for ``seat`` (default: the viewer's own), or
    the ``HTTPException`` that says why not; ``viewer`` is the seat the request proved."""
    try:
        check_reviewable(table.rules)
    except ReviewRefused as refused:
        raise HTTPException(STATUS[refused.kind], refused.reason) from None
    # Checked before whose review may be read: a lobby has no review for anyone, and a seat
    # that is no seat of the table is a bad request whoever asks (it was refused as "only
    # your own" during the match, or told "while the match is played" in the lobby).
    if table.status == "lobby":
        raise HTTPException(409, "the match has not started: there is nothing to review yet")
    if seat is not None and not 0 <= seat < table.rules.players:
        raise HTTPException(422, f"seat must be from 0 to {table.rules.players - 1}")
    over = table.status == "finished" or table.match.over
    if not over:
        if viewer is None:
            raise HTTPException(
                403,
                "only a player seated at this table may read a review while the match is "
                "played (its own); every review is public once the match is over",
            )
        if seat is not None and seat != viewer:
            raise HTTPException(
                403, "while the match is played you may read only your own seat's review"
            )
        seat = viewer
    elif seat is None:
        if viewer is None:
            raise HTTPException(422, "say whose review: ?seat=N")
        seat = viewer
    try:
        deal = finished_deal(table.match, number)
    except ReviewRefused as refused:
        raise HTTPException(STATUS[refused.kind], refused.reason) from None
    try:
        review = await reviews.review(deal, seat, number)
    except ReviewRefused as refused:
        raise HTTPException(STATUS[refused.kind], refused.reason) from None
    except ValueError as error:  # the analysis refused this deal (AnalysisError)
        raise HTTPException(422, str(error)) from None
    return {
        "code": table.code,
        "deal": number,
        "seat": seat,
        "title": table.rules.title,
        "review": review_document(review),
    }
