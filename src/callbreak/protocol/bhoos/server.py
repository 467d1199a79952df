"""Serve any registered bot over the Bhoos tournament protocol (FastAPI + uvicorn).

``GET /hi`` answers ``{"value": "hello"}``; ``POST /bid`` and ``POST /play``
take the tournament's JSON and answer ``{"value": 3}`` or ``{"value": "QS"}``.
The server keeps no state between requests: each one is rebuilt into an
observation (``convert.parse_request``), so one server plays any number of
seats and games at once.  The bot's seed is taken from the request's bytes, so
a bot that does not think against the clock (the heuristic, the random bot, the
expert at fixed world counts) gives the same request the same answer; one that
searches for a time budget (the expert by default) searches as far as its time
allows, which depends on the machine's load and on the request's wait for a
worker, and may answer the same request differently.

Decisions are CPU-bound, so they run off the event loop, which stays free to
answer ``/hi``, CORS pre-flights and other seats: on a thread pool for quick
bots, and on a process pool for bots that think for a budget, where threads
would fight over the GIL with each other and with the event loop (measured:
four such decisions at once on threads answered up to 3.8× their
``timeBudget``; see ``bench/serve_bot.py``).  A bot that takes a time budget
(any bot factory with a ``budget_ms`` option, e.g. the expert) gets
``min(its own budget, the cap, a safe share of timeBudget)``: the round's
remaining budget split evenly over the decisions left in it, halved for the
network and the other side's overheads, less the time the request waited for a
worker.
If a bot still overruns, a guard answers with the heuristic bot's choice
instead, so an answer never comes late because of the bot.

A malformed body gets 400 with ``{"error": reason}`` and touches nothing
shared, so it cannot affect other games.

This module imports FastAPI; nothing imports it but the ``serve-bot`` command,
the tests and the benchmark, so ``import callbreak`` stays light.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
import zlib
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import asynccontextmanager, contextmanager, suppress
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

from fastapi import FastAPI, Request
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from callbreak.bots import bot_module, import_bots, make_bot
from callbreak.bots.base import parse_spec, warm_up
from callbreak.bots.heuristic import HeuristicBot
from callbreak.cards import bhoos_name, parse_card
from callbreak.engine import Action, Deal
from callbreak.protocol.bhoos.convert import (
    BHOOS_RULES,
    BID,
    PLAY,
    BhoosRequest,
    BhoosRequestError,
    parse_request,
    read_number,
)

log = logging.getLogger("callbreak.bhoos")
Params = ParamSpec("Params")
Result = TypeVar("Result")

SAFE_SHARE = 0.5
"""Share of the round's remaining budget per decision that a bot may think for."""
OVERHEAD_MS = 3.0
"""Kept back from each decision's share for parsing, rebuilding the deal and JSON."""
DEFAULT_MAX_BUDGET_MS = 1000
"""Cap on a budgeted bot's thinking per decision when its spec gives no ``budget_ms``."""
GUARD_FLOOR_MS = 15.0
"""Below this much time for the bot, the heuristic answers at once, without the bot."""
WARM_UP_LIMIT_S = 600.0
"""How long start-up waits for every worker process to warm up (a first numba compile
on a slow machine takes minutes); ``/hi`` answers after it either way."""
MAX_BODY = 1 << 20
"""Bodies above 1 MiB are refused (413): a real request is under 2 kB."""


async def _body(request: Request) -> bytes | None:
    """The request's body, or None once it is known to run past ``MAX_BODY``: by its declared
    length, or as it arrives (a chunked body is never read whole into memory first)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        return None
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def _error(message: str, status: int) -> JSONResponse:
    """``{"error": message}``; a lone surrogate quoted from the request (an id, a card)
    becomes "?", since JSON on the wire is UTF-8 and the reply must still go out."""
    return JSONResponse({"error": message.encode("utf-8", "replace").decode()}, status)


def _takes_budget(name: str, options: dict[str, Any]) -> bool:
    """Whether the bot's factory accepts ``budget_ms`` (tried once, at start-up)."""
    if "budget_ms" in options:
        return True
    spec = _spec(name, {**options, "budget_ms": 1})
    try:
        make_bot(spec, seed=0)
    except ValueError:
        return False
    return True


def _spec(name: str, options: dict[str, Any]) -> str:
    return name + (":" + ",".join(f"{k}={v}" for k, v in options.items()) if options else "")


@dataclass
class Decision:
    """One answered request: the value sent and what went into it."""

    value: int | str
    budget_ms: int | None
    """The bot's own budget for this decision (None for a bot without one)."""
    fallback: str | None = None
    """Why the guard's heuristic answer was sent instead of the bot's, if it was."""


class BotService:
    """The bot behind the server: turns a checked request into an answer.

    Thread-safe: every request gets its own bot, made from the spec with the
    request's budget, so nothing is shared between concurrent decisions.
    """

    def __init__(self, spec: str, max_budget_ms: int | None = None) -> None:
        make_bot(spec, seed=0)  # an unknown bot or bad option fails here, at start-up
        self.spec = spec
        self.name, self.options = parse_spec(spec)
        self.options.pop("seed", None)
        self.takes_budget = _takes_budget(self.name, self.options)
        self.imports = tuple(m for m in (bot_module(spec),) if m is not None)
        """The module that registers the bot, for each worker process to import first."""
        # The cap only ever lowers the bot's own budget (its spec's, else the 1000 ms that
        # every budgeted bot here defaults to): `--max-budget-ms 300` must not turn an
        # `expert:budget_ms=20` into a 300 ms one.
        own = int(self.options.get("budget_ms") or DEFAULT_MAX_BUDGET_MS)
        self.max_budget_ms = own if max_budget_ms is None else min(own, int(max_budget_ms))

    def budget_ms(self, time_budget_ms: float, decisions_left: int) -> int:
        """This decision's budget: a safe share of what is left of the round, capped."""
        share = time_budget_ms * SAFE_SHARE / max(1, decisions_left) - OVERHEAD_MS
        return max(1, int(min(self.max_budget_ms, share)))

    def guard_ms(self, kind: str, body: Any) -> float:
        """How long the server waits for the bot before answering for it.

        An even share of what is left of the round (the bot itself is given
        half of that), so a round's budget cannot run out whatever the bot
        does; below ``GUARD_FLOOR_MS`` the bot is not asked at all.  Read from
        the raw body (the checked request only exists once the decision has
        started); a body too broken for this is refused anyway.
        """
        try:
            time_budget = read_number(body["timeBudget"], "timeBudget")
            left = len(body["cards"]) + (1 if kind == BID else 0)
        except (TypeError, KeyError, BhoosRequestError):
            return 1000.0  # the checked request refuses it with the reason
        return min(0.8 * time_budget, time_budget / max(1, left))

    def decide(self, kind: str, body: Any, raw: bytes, arrived: float) -> Decision:
        """Check the request, build the observation, ask a fresh bot (in a worker).

        ``arrived`` is the ``time.monotonic()`` of the request's arrival (the
        clock is system-wide, so a worker process reads it too); time spent
        waiting for a free worker comes off the bot's budget.
        """
        request = parse_request(kind, body)
        budget = None
        options = dict(self.options)
        if self.takes_budget:
            waited = (time.monotonic() - arrived) * 1000
            share = self.budget_ms(request.time_budget_ms, request.decisions_left)
            budget = max(1, int(share - waited))
            options["budget_ms"] = budget
        bot = make_bot(_spec(self.name, options), seed=zlib.crc32(raw))
        action = bot.act(request.observation)
        value = _value(request, action)
        if value is None:
            log.warning(
                "bot %s answered %r, not a legal action: sent the heuristic's", self.spec, action
            )
            why = f"the bot answered {action!r}, not a legal action"
            return Decision(_fallback_value(request), budget, why)
        # A bot that answered with a stand-in's move says why (the expert without time).
        return Decision(value, budget, getattr(bot, "fell_back", None))

    def fallback(self, kind: str, body: Any, raw: bytes, why: str) -> Decision:
        """The heuristic's answer, when the bot overran its guard or has no time at all."""
        request = parse_request(kind, body)
        return Decision(_fallback_value(request, zlib.crc32(raw)), None, why)


def _value(request: BhoosRequest, action: Action) -> int | str | None:
    """The protocol's value for a legal action (``1S`` for the ace); None if not legal."""
    legal = request.observation.legal
    if request.kind == BID:
        if isinstance(action, int) and not isinstance(action, bool) and action in legal:
            return action
        return None
    if not isinstance(action, str):
        return None
    try:
        card = parse_card(action)
    except ValueError:
        return None
    name = bhoos_name(card)
    return name if any(parse_card(c) == card for c in legal) else None


def _fallback_value(request: BhoosRequest, seed: int = 0) -> int | str:
    value = _value(request, HeuristicBot(seed=seed).act(request.observation))
    assert value is not None
    return value


class BotStartError(RuntimeError):
    """The server cannot serve its bot: a worker cannot make it (a bot registered by a
    module that the worker did not import, a module that fails to import there)."""


_START_FAILURE: str | None = None
"""Why this worker process cannot make the bot, if it cannot (``_init_worker``)."""


def _init_worker(
    parent: int, service: BotService | None = None, imports: tuple[str, ...] = ()
) -> None:
    """In each worker process: import the modules that register the bot (``imports``), warm
    the bot up (``_warm``, with ``service``), and end the process if the server process dies.
    A worker that cannot make the bot says so to ``_all_warm`` (``_checked_in``), which
    stops the start-up: else it would answer ``/hi`` and fail every request.

    Warming up here, before the process takes its first task, is what makes it
    certain: a pool spawns its processes lazily and any idle one takes the next
    task, so warm-up tasks sent to the pool could all land on the one process
    that was already warm (measured: 22 of 560 decisions of a seat answered
    "search not compiled yet" by a process that started cold under load).

    On Linux the kernel kills the worker with its parent (``PR_SET_PDEATHSIG``),
    even in the middle of a long compiled search that holds the GIL; elsewhere a
    watcher thread notices the orphaning between two bytecodes.  (Workers keep
    the server's priority: at a lower one, measured on a busy shared machine,
    the expert was starved into the fallback on 94% of its decisions.)
    """
    if sys.platform.startswith("linux"):
        with suppress(OSError, AttributeError):
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)  # orphaned: the server is gone, nobody will collect an answer

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
    # Ctrl-C reaches the terminal's whole process group: the server stops the workers, each
    # of which would otherwise print a KeyboardInterrupt traceback of its own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    global _START_FAILURE
    try:
        import_bots(imports)
    except ValueError as error:
        _START_FAILURE = str(error)
        return
    if service is not None:
        _START_FAILURE = _warm(service)


@contextmanager
def _sigint_held() -> Iterator[None]:
    """SIGINT held back from this thread while it lasts, and from every process it spawns
    meanwhile (a spawned process starts with its parent's signal mask).  Ctrl-C reaches the
    terminal's whole process group, and a worker still importing, before ``_init_worker``
    ignores it, would print a traceback of its own; this process gets a Ctrl-C made
    meanwhile once the mask is restored."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no masks, no process groups
        yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


class _WorkerPool(ProcessPoolExecutor):
    """The process pool of the decisions, whose workers never see a Ctrl-C: it spawns them
    all at its first task, wherever that is sent from, so every task is sent with SIGINT
    held (``_sigint_held``; two system calls, nothing beside a decision)."""

    def submit(
        self, fn: Callable[Params, Result], /, *args: Params.args, **kwargs: Params.kwargs
    ) -> Future[Result]:
        with _sigint_held():
            return super().submit(fn, *args, **kwargs)


def _checked_in() -> tuple[int, str | None]:
    """A worker's pid, once it has taken a task: after its warm-up (``_init_worker``), with
    why it cannot make the bot, if it cannot.  Held a little, so that the next task goes to
    another worker."""
    time.sleep(0.1)
    return os.getpid(), _START_FAILURE


async def _all_warm(loop: asyncio.AbstractEventLoop, executor: Executor, processes: int) -> None:
    """Return once each of the pool's ``processes`` workers has answered a task, that is,
    once every one is warm; the first alone, so that it fills numba's disk cache and
    the others load from it (measured: 101 s to ``/hi`` when all compiled at once on
    the same cores, 34.5 s with no cache yet, 6 s with it).  ``BotStartError`` as soon as
    a worker cannot make the bot."""
    seen: set[int] = set()
    answers = [await loop.run_in_executor(executor, _checked_in)]
    deadline = time.monotonic() + WARM_UP_LIMIT_S
    while True:
        for pid, failure in answers:
            if failure is not None:
                raise BotStartError(failure)
            seen.add(pid)
        if len(seen) >= processes or time.monotonic() >= deadline:
            break
        tasks = (loop.run_in_executor(executor, _checked_in) for _ in range(processes))
        answers = await asyncio.gather(*tasks)
    if len(seen) < processes:
        log.warning("only %d of %d workers warmed up in time", len(seen), processes)


def _warm(service: BotService) -> str | None:
    """Before the first request, in each worker: a call and a card of a sample deal.

    The first decisions of a fresh process pay for imports, tables and any
    just-in-time compilation (the expert's solver compiles with numba): here
    they are paid at start-up, before ``/hi`` answers, as the tournament polled
    ``/hi`` until a bot was ready.  A bot that cannot be made here cannot be made
    for any request either: that is returned, and the server does not start.  A
    bot that fails on the sample deal is logged, not fatal: each request then gets
    its own answer or error.
    """
    options = dict(service.options)
    if service.takes_budget:
        options["budget_ms"] = 50
    try:
        bot = make_bot(_spec(service.name, options), seed=0)
    except ValueError as error:
        return (
            f"a worker process cannot make the bot {service.spec!r}: {error} (a bot registered "
            "by your own module needs it imported in every process: serve-bot --import MODULE)"
        )
    try:
        # The expert compiles its search in the background and plays the heuristic's moves
        # until it is done: wait for it here, or the first half-minute of games is not its own.
        warm_up(bot)
        helper = HeuristicBot(seed=0)
        deal = Deal(BHOOS_RULES.replace(misdeal="off"), seed=1, dealer=0)
        while deal.to_act is not None and len(deal.history) < 2:
            observation = deal.observation(deal.to_act)
            if deal.calls == [None] * 4 or len(deal.trick) == 2:
                bot.act(observation)  # the first call, and a card in the second trick
            deal.act(helper.act(observation))
    except Exception:
        log.exception("warming up %s failed", service.spec)
    return None


def create_app(
    bot: str = "heuristic",
    *,
    threads: int = 4,
    processes: int | None = None,
    max_budget_ms: int | None = None,
    warm_up: bool = True,
) -> FastAPI:
    """The ASGI app serving ``bot`` (any registered spec) over the Bhoos protocol.

    ``processes`` worker processes decide (spawned, so a bot must be
    registered by an import, not at run time); 0 uses ``threads`` threads
    instead.  The default, for a bot that takes a budget, is a process per CPU
    and at least four, so that the four seats of a table never queue for a
    worker (a wait that would come off their budgets); threads for the others.
    ``warm_up`` has every worker make a call and play a card before the
    server answers at all (see ``_warm``); a worker that cannot make the bot
    stops the start-up with ``BotStartError``.  ``app.state.warm()`` runs that
    warm-up once (``serve`` runs it before it starts uvicorn, so that such an
    error is told as one; the lifespan then finds it done).
    """
    service = BotService(bot, max_budget_ms)
    if processes is None:
        processes = max(4, os.cpu_count() or 1) if service.takes_budget else 0
    executor: Executor
    if processes > 0:
        context = multiprocessing.get_context("spawn")
        executor = _WorkerPool(
            max_workers=processes,
            mp_context=context,
            initializer=_init_worker,
            initargs=(os.getpid(), service if warm_up else None, service.imports),
        )
    else:
        executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="bhoos-bot")
    warmed: list[bool] = []

    async def warm() -> None:
        if not warm_up or warmed:
            return
        loop = asyncio.get_running_loop()
        if processes > 0:
            await _all_warm(loop, executor, processes)
        else:  # threads share the one process, and its build
            failure = await loop.run_in_executor(executor, _warm, service)
            if failure is not None:
                raise BotStartError(failure)
        warmed.append(True)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await warm()
        yield
        # Waiting joins the pool's manager thread: left running, it raced the interpreter's
        # exit hook, which then printed "Exception ignored … Bad file descriptor" after
        # Ctrl-C.  Queued requests are cancelled; one in play ends within its budget.
        executor.shutdown(wait=True, cancel_futures=True)

    app = FastAPI(
        title=f"callbreak {bot} (Bhoos protocol)",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
    )
    app.state.service = service
    app.state.warm = warm
    app.state.executor = executor
    app.add_middleware(
        CORSMiddleware,
        allow_origins=["*"],
        allow_methods=["GET", "POST", "OPTIONS"],
        allow_headers=["*"],
    )

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> JSONResponse:
        return JSONResponse({"error": str(error.detail)}, status_code=error.status_code)

    @app.get("/hi")
    async def hi() -> dict[str, str]:
        return {"value": "hello"}

    async def answer(kind: str, request: Request) -> JSONResponse:
        raw = await _body(request)
        if raw is None:
            return JSONResponse({"error": f"the body is over {MAX_BODY} bytes"}, 413)
        try:
            body = json.loads(raw)
        except (ValueError, UnicodeDecodeError) as error:
            return _error(f"the body is not JSON: {error}", 400)
        except RecursionError:
            return _error("the body is nested too deeply to read", 400)
        loop = asyncio.get_running_loop()
        started = time.perf_counter()
        guard = service.guard_ms(kind, body)
        try:
            if guard < GUARD_FLOOR_MS:
                decision = service.fallback(kind, body, raw, "no time left for the bot")
            else:
                arrived = time.monotonic()
                work = loop.run_in_executor(executor, service.decide, kind, body, raw, arrived)
                try:
                    decision = await asyncio.wait_for(work, guard / 1000)
                    if decision.fallback is not None:
                        log.warning(
                            "bot %s: %s: sent the heuristic's answer", bot, decision.fallback
                        )
                except TimeoutError:
                    decision = service.fallback(kind, body, raw, "the bot overran")
                    log.warning("bot %s overran %.0f ms: sent the heuristic's answer", bot, guard)
        except BhoosRequestError as error:
            return _error(str(error), 400)
        except Exception as error:  # a bug in a bot must not take the server down
            log.exception("bot %s failed on /%s", bot, kind)
            return _error(f"the bot failed: {type(error).__name__}: {error}", 500)
        headers = {"X-Decision-Ms": f"{(time.perf_counter() - started) * 1000:.2f}"}
        if decision.budget_ms is not None:
            headers["X-Budget-Ms"] = str(decision.budget_ms)
        if decision.fallback is not None:
            headers["X-Fallback"] = decision.fallback[:200]
        return JSONResponse({"value": decision.value}, headers=headers)

    @app.post("/bid")
    async def bid(request: Request) -> JSONResponse:
        return await answer(BID, request)

    @app.post("/play")
    async def play(request: Request) -> JSONResponse:
        return await answer(PLAY, request)

    return app


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def _url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def serve(
    app: FastAPI,
    host: str = "127.0.0.1",
    port: int = 7000,
    ready: Callable[[str], None] | None = None,
) -> None:
    """Run the app until interrupted (what ``callbreak serve-bot`` does).

    The port is bound first, so a port in use is an ``OSError`` at once, not after
    a warm-up of minutes; then the workers warm up (``BotStartError`` if they cannot
    make the bot, with nothing served); ``ready`` is called with the address once
    the server answers, so that "serving" is said only when it is true.
    """
    import uvicorn

    sock = _bind(host, port)
    try:
        try:
            asyncio.run(app.state.warm())
        except BaseException:
            app.state.executor.shutdown(wait=False, cancel_futures=True)
            raise
        url = _url(host, sock.getsockname()[1])

        class Server(uvicorn.Server):
            async def startup(self, sockets: list[socket.socket] | None = None) -> None:
                await super().startup(sockets)
                if self.started and ready is not None:
                    ready(url)

        config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on")
        Server(config).run(sockets=[sock])
    finally:
        sock.close()


@contextmanager
def serve_in_thread(
    app: FastAPI, host: str = "127.0.0.1", port: int = 0, start_timeout: float = 180
) -> Iterator[str]:
    """Serve ``app`` from a background thread; yields its base URL, stops it on exit.

    Port 0 takes a free port (the socket is bound here, so the URL is known
    before the first request).  Start-up includes the bot's warm-up (a numba
    compile can take a while), hence the generous ``start_timeout``.  Tests
    and benchmarks use it.
    """
    import uvicorn

    sock = _bind(host, port)
    bound = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [sock]}, name="bhoos-server", daemon=True
    )
    thread.start()
    deadline = time.monotonic() + start_timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            sock.close()
            raise RuntimeError(f"the Bhoos bot server on {host}:{bound} did not start")
        time.sleep(0.005)
    try:
        yield _url(host, bound)
    finally:
        server.should_exit = True
        thread.join(15)
        sock.close()
