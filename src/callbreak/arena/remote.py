"""Remote seats: a bot behind an HTTP address, spoken to in the Bhoos tournament protocol.

An arena seat written ``http://host:port`` (or ``https://``) is played by a
``RemoteBot``: it turns each ``Observation`` into the protocol's JSON
(``bhoos_request``), posts it to ``/bid`` or ``/play`` with httpx and a
timeout, and hands back the answer.  The arena keeps the tournament's
behaviour on faults: a timeout or an answer it cannot use raises ``SeatFault``
(``timeout`` or ``unusable``: counted and replaced by a legal action by
``arena.play``); an answer that is
a card or call the engine refuses is returned as it is and counted as
illegal there; a bot that cannot be reached at all raises ``RemoteSeatDown``,
which stops the run with a clear message instead of filling it with
replacement cards.

The remote seat lives in the arena layer (docs/design.md: the arena plays "local
bots, remote bots, people"), so the arena never imports a face; the server
side of the protocol, which turns such JSON back into an observation, is the
``protocol.bhoos`` face, and the tests run the two against each other.

Options follow the address after a ``#`` (a fragment is never sent to the
server): ``http://127.0.0.1:7000#budget_ms=1500,grace_ms=200,wait_s=5``.

* ``budget_ms`` — the time the bot has for one round (a bid and 13 cards),
  sent as ``timeBudget`` and counted down as it answers (default 1500, the
  figure in the tournament's example requests).
* ``grace_ms`` — added to what is left of the budget to make the HTTP
  timeout, for the network and JSON on both sides (default 200).
* ``wait_s`` — how long ``check_remote`` polls ``GET /hi`` for a bot that is
  still starting (default 5).
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from callbreak.arena.errors import ArenaError, SeatFault
from callbreak.bots.base import parse_spec
from callbreak.cards import CARD_NAMES, bhoos_name, parse_card
from callbreak.engine import Action, Observation
from callbreak.rules import Rules, option_text

if TYPE_CHECKING:
    import httpx

DEFAULT_BUDGET_MS = 1500
DEFAULT_GRACE_MS = 200
DEFAULT_WAIT_S = 5.0
_OPTIONS = {"budget_ms", "grace_ms", "wait_s"}
_MIN_TIMEOUT_MS = 1.0
"""The shortest HTTP timeout a request is given (budget spent and ``grace_ms=0``)."""


_PROTOCOL_RULES = "callbreak-bhoos"
"""The preset the tournament's bots play by; a remote seat assumes its rules of play."""
_PLAY_RULES = (
    "must_overtake",
    "must_trump",
    "no_waste_trump",
    "no_spade_lead_first_trick",
    "spades_broken",
)
"""Options that change which card is legal: a remote bot follows the tournament's."""


def protocol_refusal(rules: Rules) -> str | None:
    """Why a bot spoken to over the protocol cannot play ``rules`` (None: it can).

    The protocol carries no rules: the tournament's bots call 1 to 8 and play by its rules of
    the card, so any other rule of play would only count their answers as illegal (Koz
    Maça's trumping), and so would any other call range: one that refuses one of their calls
    (Call Bridge's calls from 2), or one that lets the other seats call what a bot of the
    protocol refuses to read in its requests (Call Break's calls up to 13: a 9 sent to it
    is refused, and counted against it)."""
    if not rules.shape.bhoos:
        return "the Bhoos protocol is Call Break's only"
    theirs = Rules.preset(_PROTOCOL_RULES)
    changed = [
        f"{name}={option_text(getattr(rules, name))}"
        for name in _PLAY_RULES
        if getattr(rules, name) != getattr(theirs, name)
    ]
    if (rules.min_call, rules.max_call) != (theirs.min_call, theirs.max_call):
        changed.append(f"calls {rules.min_call}..{rules.max_call}")
    if changed:
        return (
            f"its bots play by the {_PROTOCOL_RULES} rules of the card and calls "
            f"{theirs.min_call}..{theirs.max_call}, not {', '.join(changed)}: "
            f"play them under --rules {_PROTOCOL_RULES}"
        )
    return None


class RemoteSeatDown(ArenaError):
    """No bot answers at a remote seat's address (refused, unreachable, or not a bot)."""


def is_remote(spec: str) -> bool:
    """Whether an arena seat names a remote bot (an http or https address)."""
    return spec.strip().lower().startswith(("http://", "https://"))


def parse_remote(spec: str) -> tuple[str, dict[str, float]]:
    """A remote seat spec → base URL (no trailing slash) and its options.

    >>> parse_remote("http://127.0.0.1:7000/#budget_ms=900")
    ('http://127.0.0.1:7000', {'budget_ms': 900})
    """
    url, _, fragment = spec.strip().partition("#")
    parts = urlsplit(url)
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        raise ValueError(f"{spec!r} is not a bot address: write http://host:port")
    _, options = parse_spec(":" + fragment)
    unknown = set(options) - _OPTIONS
    if unknown:
        raise ValueError(
            f"unknown option {', '.join(sorted(unknown))} for remote seat {spec!r}: "
            f"choose from {', '.join(sorted(_OPTIONS))}"
        )
    for key, value in options.items():
        if not isinstance(value, int | float) or value < 0:
            raise ValueError(f"{key} must be a number of at least 0, not {value!r}")
    return url.rstrip("/"), options


def bhoos_request(
    observation: Observation,
    player_ids: Sequence[str] | None = None,
    time_budget_ms: float = DEFAULT_BUDGET_MS,
) -> dict[str, Any]:
    """The body of ``POST /bid`` or ``POST /play`` for this seat's observation.

    ``player_ids`` names the seats in turn order (default ``P0``..``P3``); the
    history's indices point into it.  Calls not made yet are sent as ``0``,
    as the tournament did, and totals as floats in tenths.
    """
    if observation.phase not in ("call", "play"):
        raise ValueError(f"the Bhoos protocol has no request for the {observation.phase!r} phase")
    players = observation.players
    ids = [f"P{seat}" for seat in range(players)] if player_ids is None else list(player_ids)
    if len(ids) != players or len(set(ids)) != players:
        raise ValueError(f"give {players} distinct player ids, one per seat in turn order")
    totals = observation.totals
    context = {
        "round": observation.deal_number or 1,
        "players": {
            ids[seat]: {
                "totalPoints": float(totals[seat]) if totals is not None else 0.0,
                "bid": observation.calls[seat] or 0,
                "won": observation.tricks_won[seat],
            }
            for seat in range(players)
        },
    }
    body: dict[str, Any] = {
        "playerId": ids[observation.seat],
        "playerIds": ids,
        "cards": [bhoos_name(parse_card(c)) for c in observation.hand],
        "timeBudget": max(0, round(time_budget_ms)),
        "context": context,
    }
    if observation.phase == "play":
        body["played"] = [bhoos_name(parse_card(c)) for c in observation.trick.cards]
        body["history"] = [
            [trick.leader, [bhoos_name(parse_card(c)) for c in trick.cards], trick.winner]
            for trick in observation.history
        ]
    return body


_CLIENTS: dict[tuple[int, str], httpx.Client] = {}


def _client(url: str) -> httpx.Client:
    """One pooled client per address and process (a forked arena worker makes its own)."""
    import httpx

    key = (os.getpid(), url)
    client = _CLIENTS.get(key)
    if client is None:
        client = _CLIENTS[key] = httpx.Client(base_url=url, trust_env=False)
    return client


def check_remote(spec: str) -> None:
    """Poll ``GET /hi`` until the bot answers ``{"value": "hello"}``; else ``RemoteSeatDown``.

    The tournament polled ``/hi`` until each bot was ready; the arena does
    the same for ``wait_s`` seconds before the first deal, so a bot that is
    down is reported at once instead of as thousands of replaced cards.
    """
    import httpx

    url, options = parse_remote(spec)
    deadline = time.monotonic() + float(options.get("wait_s", DEFAULT_WAIT_S))
    while True:
        try:
            response = httpx.get(url + "/hi", timeout=2.0, trust_env=False)
        except httpx.HTTPError as error:
            problem = f"{type(error).__name__}: {error}"
        else:
            try:
                answer: Any = response.json()
            except ValueError:
                answer = response.text[:80]
            if response.status_code == 200 and answer == {"value": "hello"}:
                return
            problem = (
                f'GET /hi answered {response.status_code} {answer!r}, not {{"value": "hello"}}'
            )
        if time.monotonic() >= deadline:
            raise RemoteSeatDown(f"seat {spec}: no bot answers at {url} ({problem})")
        time.sleep(0.1)


class RemoteBot:
    """A seat played over HTTP by a bot that speaks the Bhoos tournament protocol.

    One is made per seat per game (as every arena bot is), and it keeps the
    round's time budget: ``budget_ms`` at each bid, less what every answer took.
    A misdeal claim or a void declaration is answered here with ``False``:
    the protocol has no such questions (the tournament redealt by itself).
    """

    def __init__(
        self,
        spec: str,
        seed: int | None = None,
        player_ids: Sequence[str] | None = None,
    ) -> None:
        self.name = spec
        self.url, options = parse_remote(spec)
        self.budget_ms = float(options.get("budget_ms", DEFAULT_BUDGET_MS))
        self.grace_ms = float(options.get("grace_ms", DEFAULT_GRACE_MS))
        self.player_ids = None if player_ids is None else list(player_ids)
        self.left_ms = self.budget_ms
        self.last_ms = 0.0
        """Round-trip time of the last request, in milliseconds."""
        self.fell_back: str | None = None
        """The server's ``X-Fallback`` on the last answer: why it sent a stand-in's move
        (the arena counts these)."""

    def act(self, observation: Observation) -> Action:
        self.fell_back = None
        phase = observation.phase
        if phase not in ("call", "play"):
            return False
        if phase == "call":
            self.left_ms = self.budget_ms  # a bid opens the round
        body = bhoos_request(observation, self.player_ids, self.left_ms)
        path = "/bid" if phase == "call" else "/play"
        value = self._post(path, body, observation)
        if phase == "call":
            if isinstance(value, int) and not isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().isdecimal():
                return int(value)
            raise SeatFault("unusable", f"{path} answered {value!r}, which is not a call")
        if not isinstance(value, str):
            raise SeatFault("unusable", f"{path} answered {value!r}, which is not a card")
        try:
            return CARD_NAMES[parse_card(value)]
        except ValueError:
            return value  # the engine refuses it and the arena counts it as illegal

    def _post(self, path: str, body: dict[str, Any], observation: Observation) -> Any:
        import httpx

        # At least a millisecond: httpx takes a timeout of 0 as a non-blocking socket, whose
        # connect or read fails at once (ConnectError, ReadError) and would be reported as a
        # bot that is down or answered nothing usable, not as the timeout it is.
        timeout = max(max(self.left_ms, 0.0) + self.grace_ms, _MIN_TIMEOUT_MS) / 1000
        started = time.perf_counter()
        try:
            response = _client(self.url).post(path, json=body, timeout=timeout)
        except httpx.TimeoutException:
            self._spent(started)
            raise SeatFault(
                "timeout", f"{path} gave no answer within {timeout * 1000:.0f} ms"
            ) from None
        except (httpx.ConnectError, httpx.RemoteProtocolError) as error:
            raise RemoteSeatDown(
                f"seat {self.name}: the bot at {self.url} stopped answering "
                f"({type(error).__name__}: {error})"
            ) from None
        except httpx.HTTPError as error:
            self._spent(started)
            raise SeatFault("unusable", f"{path} failed: {type(error).__name__}: {error}") from None
        self._spent(started)
        if self.last_ms > timeout * 1000:
            # httpx times each connect, write and read on its own: an answer sent in pieces
            # can come whole long after the round's time, and is as late as one never sent.
            raise SeatFault(
                "timeout",
                f"{path} answered after {self.last_ms:.0f} ms, not within {timeout * 1000:.0f} ms",
            )
        self.fell_back = response.headers.get("X-Fallback")
        if response.status_code != 200:
            raise SeatFault(
                "unusable", f"{path} answered HTTP {response.status_code}: {response.text[:200]}"
            )
        try:
            answer = response.json()
        except ValueError:
            raise SeatFault(
                "unusable", f"{path} answered non-JSON: {response.text[:80]!r}"
            ) from None
        if not isinstance(answer, dict) or "value" not in answer:
            raise SeatFault("unusable", f'{path} answered {answer!r}, without a "value"')
        return answer["value"]

    def _spent(self, started: float) -> None:
        self.last_ms = (time.perf_counter() - started) * 1000
        self.left_ms -= self.last_ms
