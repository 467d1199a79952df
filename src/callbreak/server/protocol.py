"""The WebSocket protocol: what a client may send, how it is checked, and the error codes.

Every client message is a JSON object with a ``type``.  Anything else gets an
``error`` message naming what was wrong; the table never sees it.  A socket
that keeps sending garbage, floods, or sends a message far larger than any
legal one is closed, since it is no longer a person clicking cards.

Client → server::

    {"type": "hello", "token": "..."}           first message; no token: a spectator
    {"type": "act", "seq": 17, "action": "QH"}  seq: the state's seq the action answers
    {"type": "start", "contribution": "<hex>"}  the host starts the match (bots fill seats);
                                                contribution (optional): 32 random bytes as
                                                64 hex digits for a fair table's match seed
    {"type": "hint", "seq": 17}                 at a practice table, on your turn: the hint
                                                bot's choice for your seat (see server.hints)
    {"type": "sync"}                            send me the whole state again
    {"type": "ping"}                            → {"type": "pong"}

Server → client: ``state`` (the whole table as this socket may see it, after
every change), ``error`` ({"code", "message", "seq"}), ``pong``, and ``hint``
({"seq", "action", "card", "text"}) to the one socket that asked for it.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from callbreak.record.fair import parse_hex

ERROR_CODES = {
    "bad_json": "the message is not a JSON object",
    "bad_message": "a field is missing or has the wrong type",
    "unknown_type": "no such message type",
    "too_big": "the message is larger than any legal message",
    "flood": "too many messages: slow down",
    "hello_first": "say hello (with your seat token) before anything else",
    "bad_token": "this token holds no seat at this table",
    "no_table": "there is no table with this code",
    "not_seated": "spectators cannot act",
    "not_host": "only the host can start the match",
    "not_started": "the match has not started yet",
    "started": "the match has already started",
    "seat_taken": "every seat is taken: watch as a spectator",
    "no_seat": "the table has no such seat",
    "practice": "a practice table, whose host chose the deals: nobody else can join it",
    "finished": "the match is over",
    "stale": "the table has moved on since the state your action answers",
    "not_your_turn": "it is not your turn",
    "no_hint": "hints are only for a practice table, where every other seat is a bot",
    "illegal": "the rules do not allow that",
    "server_error": "the server could not store the action; reconnecting reloads the table",
}
"""Every error code a client can receive, with what it means."""

CLOSE_POLICY = 1008
CLOSE_TOO_BIG = 1009
CLOSE_BAD_TOKEN = 4401
CLOSE_NO_TABLE = 4404
CLOSE_RELOAD = 4500
CLOSE_TOO_SLOW = 4408


class ProtocolError(Exception):
    """A refused message: ``code`` from ERROR_CODES and a sentence for the person."""

    def __init__(self, code: str, message: str | None = None, *, rule: str | None = None) -> None:
        super().__init__(message or ERROR_CODES[code])
        self.code = code
        self.message = message or ERROR_CODES[code]
        self.rule = rule


@dataclass(frozen=True)
class Hello:
    token: str | None


@dataclass(frozen=True)
class Act:
    seq: int
    action: int | str | bool


@dataclass(frozen=True)
class Hint:
    seq: int
    """The state's seq the hint is asked for."""


@dataclass(frozen=True)
class Start:
    contribution: bytes | None


@dataclass(frozen=True)
class Simple:
    type: str
    """``sync`` or ``ping``."""


Message = Hello | Act | Hint | Start | Simple


def contribution(value: object) -> bytes | None:
    """A player's contribution as sent (64 hex digits, or absent); a ProtocolError says why not."""
    if value is None:
        return None
    try:
        return parse_hex(value, "contribution")
    except ValueError as error:
        raise ProtocolError("bad_message", str(error)) from None


_LONGEST_WORD = 16
"""Characters an action given as a string may have: the longest any game offers is Spades'
``"blind nil"``; a card is at most three (``10H``)."""


def parse(text: str, max_bytes: int) -> Message:
    """One client message, checked; a ProtocolError says what is wrong with it."""
    if len(text) > max_bytes or len(text.encode()) > max_bytes:
        raise ProtocolError("too_big", f"messages are limited to {max_bytes} bytes")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json", "the message is not valid JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", "a message is a JSON object with a type")
    kind = data.get("type")
    if kind == "hello":
        token = data.get("token")
        if token is not None and (not isinstance(token, str) or not 0 < len(token) <= 128):
            raise ProtocolError(
                "bad_message", "hello: token must be a string of 1 to 128 characters, or null"
            )
        return Hello(token)
    if kind == "act":
        seq = data.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
            raise ProtocolError("bad_message", "act: seq must be the state's sequence number")
        action = data.get("action")
        if isinstance(action, str):
            if not 0 < len(action) <= _LONGEST_WORD:
                raise ProtocolError(
                    "bad_message",
                    "act: an action is a card like AS or 10H, a number, or one of the words "
                    "the state offers (pass, in, blind nil, ...)",
                )
        elif not isinstance(action, (int, bool)) or abs(action) > 1000:
            raise ProtocolError("bad_message", "act: action must be a call, a card or true/false")
        return Act(seq, action)
    if kind == "hint":
        seq = data.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
            raise ProtocolError("bad_message", "hint: seq must be the state's sequence number")
        return Hint(seq)
    if kind == "start":
        return Start(contribution(data.get("contribution")))
    if kind in ("sync", "ping"):
        return Simple(kind)
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", "a message needs a string type")
    raise ProtocolError("unknown_type", f"unknown message type {kind[:32]!r}")


def error_message(error: ProtocolError, seq: int | None = None) -> str:
    body: dict[str, Any] = {"type": "error", "code": error.code, "message": error.message}
    if error.rule is not None:
        body["rule"] = error.rule
    if seq is not None:
        body["seq"] = seq
    return json.dumps(body, separators=(",", ":"))


class TokenBucket:
    """``rate`` messages a second on average, ``burst`` at once: people click, floods pour."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False
