"""The arena's exceptions, below both ``play`` (which raises and counts them) and
``remote`` (whose seats raise ``SeatFault``); ``play`` and the package name them too."""

from __future__ import annotations


class ArenaError(ValueError):
    """A configuration the arena cannot run: wrong number of seats, unknown bot, missing Ray."""


class GameStalled(ArenaError):
    """A game of the run that cannot go on: its deals are thrown in again and again
    (``EndlessRedeal``), as when the lineup's calls never reach ``min_total_calls``.  Every
    action was legal, so no seat is at fault; the run stops and says what to change."""


class SeatFault(Exception):
    """A seat that gave no usable answer, of a ``kind`` that its example is labelled with:
    ``"timeout"`` (too late), ``"unusable"`` (an answer that is no action: not JSON, an HTTP
    error, no call), ``"error"`` (the bot raised) or ``"illegal"``.

    A bot raises it (the remote seats of ``arena.remote`` do) instead of
    answering; the arena counts it against the seat, as the Bhoos tournament
    did (a timeout as a timeout, any other kind as an illegal answer), and
    plays a random legal action in its place.
    """

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
