"""Running the table server in tests: real servers on loopback, real WebSockets, real databases.

A server runs either in a thread of the test process (fast, for API and
WebSocket tests) or as a ``callbreak serve`` subprocess (to kill it, or to run
two of them against one database and Redis).  PostgreSQL, Redis and Chromium
are local services: without them a test is skipped on a developer's machine
but fails in CI (``CI=true``), where a missing tool is a failure.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
import uvicorn
import websockets
from websockets.asyncio.client import ClientConnection

from callbreak import Match, Rules
from callbreak.server.app import create_app, table_rules
from callbreak.server.config import ServerConfig, async_db_url
from callbreak.server.hub import CODE_ALPHABET, CODE_LENGTH, hash_token
from callbreak.server.run import WS_MAX_BYTES
from callbreak.server.store import SeatRow, Store

PG_URL = os.environ.get("CALLBREAK_TEST_PG", "postgresql://postgres@127.0.0.1/callbreak_test")
REDIS_URL = os.environ.get("CALLBREAK_TEST_REDIS", "redis://127.0.0.1:6379/0")
CHROMIUM = os.environ.get("CALLBREAK_CHROMIUM", "/usr/bin/chromium")
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
CARD_RE = re.compile(r"\b[2-9TJQKA][SHDC]\b")
T = TypeVar("T")


def run_async(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a coroutine to the end from sync code, even inside a running loop (own thread)."""
    box: list[T] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            box.append(asyncio.run(make()))
        except BaseException as error:
            errors.append(error)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
    return box[0]


def missing(what: str) -> None:
    """A local service is not there: skip here, fail in CI."""
    if IN_CI:
        pytest.fail(f"{what} is required in CI", pytrace=False)
    pytest.skip(f"{what} is not available")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


# ------------------------------------------------------------------ databases
_pg_ready: bool | None = None


def postgres_url() -> str:
    """The test database on the local PostgreSQL, created and emptied once per session."""
    global _pg_ready
    if _pg_ready is None:
        try:
            run_async(lambda: _reset_postgres(PG_URL))
            _pg_ready = True
        except (OSError, ImportError, RuntimeError) as error:
            print(f"postgres: {error}", file=sys.stderr)
            _pg_ready = False
        except Exception as error:  # asyncpg's own errors (auth, missing role)
            print(f"postgres: {error!r}", file=sys.stderr)
            _pg_ready = False
    if not _pg_ready:
        missing(f"PostgreSQL at {PG_URL}")
    return PG_URL


async def _reset_postgres(url: str) -> None:
    import asyncpg  # type: ignore[import-untyped]

    base, _, name = url.rpartition("/")
    admin = await asyncpg.connect(f"{base}/postgres", timeout=5)
    try:
        exists = await admin.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", name)
        if not exists:
            await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    conn = await asyncpg.connect(url, timeout=5)
    try:
        await conn.execute(
            "DROP TABLE IF EXISTS cb_actions, cb_seats, cb_tables, alembic_version CASCADE"
        )
    finally:
        await conn.close()


def redis_url() -> str:
    import redis

    try:
        client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
        client.ping()
        client.close()
    except Exception:
        missing(f"Redis at {REDIS_URL}")
    return REDIS_URL


def chromium() -> str:
    if not Path(CHROMIUM).exists():
        missing(f"Chromium at {CHROMIUM} (apt-get install -y chromium)")
    return CHROMIUM


def db_url(kind: str, tmp_path: Path) -> str:
    """A fresh database of ``kind`` (sqlite: a new file; postgresql: the shared test DB)."""
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'tables.db'}"
    return postgres_url()


def load_log(url: str, code: str) -> tuple[Rules, int, list[Any]]:
    """A table's rules, seed and action log, straight from the database."""

    async def load() -> tuple[Rules, int, list[Any]]:
        store = Store(async_db_url(url))
        try:
            row = await store.load_table(code)
            assert row is not None
            actions = await store.load_actions(code)
        finally:
            await store.close()
        return Rules.from_dict(row.rules), row.seed, actions

    return run_async(load)


def rebuild(url: str, code: str) -> tuple[Match, list[Any]]:
    """The match as the log says it is, and the log."""
    rules, seed, actions = load_log(url, code)
    match = Match(rules, seed=seed)
    for action in actions:
        match.act(action.action)
    return match, actions


# -------------------------------------------------------------------- servers
class ThreadServer:
    """The app under uvicorn in a background thread of the test process."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.port = free_port()
        self.server = uvicorn.Server(
            uvicorn.Config(
                create_app(config),
                host="127.0.0.1",
                port=self.port,
                log_level="warning",
                ws_max_size=WS_MAX_BYTES,
                lifespan="on",
            )
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def __enter__(self) -> ThreadServer:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)


class ProcessServer:
    """``callbreak serve`` as a child process: it can be killed and started again."""

    def __init__(self, db: str, *extra: str, port: int | None = None) -> None:
        self.db = db
        self.extra = extra
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path: Path | None = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, log_path: Path | None = None) -> ProcessServer:
        command = [
            sys.executable,
            "-m",
            "callbreak.cli.main",
            "serve",
            "--port",
            str(self.port),
            "--db",
            self.db,
            "--log-level",
            "warning",
            *self.extra,
        ]
        self.log_path = log_path
        out = open(log_path, "ab") if log_path else subprocess.DEVNULL  # noqa: SIM115
        self.proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{self.http}/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"callbreak serve did not start: {self.logs()}")
            time.sleep(0.1)

    def logs(self) -> str:
        if self.log_path and self.log_path.exists():
            return self.log_path.read_text(errors="replace")[-4000:]
        return ""

    def kill(self) -> None:
        """SIGKILL: no shutdown hook runs, as when a machine loses power or the OOM killer hits."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


@contextlib.contextmanager
def process_server(db: str, *extra: str, log_path: Path | None = None) -> Iterator[ProcessServer]:
    server = ProcessServer(db, *extra).start(log_path)
    try:
        yield server
    finally:
        server.stop()


# ------------------------------------------------------------------- clients
def create_table(base: str, name: str = "Host", **body: Any) -> dict[str, Any]:
    body.setdefault("options", {"match_deals": 1})
    response = httpx.post(f"{base}/api/tables", json={"name": name, **body}, timeout=10)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def join_table(
    base: str, code: str, name: str, seat: int | None = None, **extra: Any
) -> dict[str, Any]:
    response = httpx.post(
        f"{base}/api/tables/{code}/join", json={"name": name, "seat": seat, **extra}, timeout=10
    )
    assert response.status_code == 200, response.text
    joined: dict[str, Any] = response.json()
    return joined


def seeded_table(
    server: ThreadServer,
    seed: int,
    name: str = "Host",
    preset: str = "callbreak",
    options: dict[str, Any] | None = None,
    seat: int = 0,
    level: str = "medium",
) -> dict[str, Any]:
    """A lobby that deals from ``seed`` and that others may join, written into the database.

    The API refuses to make one (only a practice table takes a seed), but tests that seat
    several people need known deals.  The row is what a table from before fair tables looks
    like (no secret), which the server still serves: it deals from its stored seed.
    """
    rules = table_rules(preset, {"match_deals": 1} if options is None else options)
    token = secrets.token_urlsafe(24)
    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    seats = [
        SeatRow(s, name, "human", hash_token(token)) if s == seat else SeatRow(s, "", "open", None)
        for s in range(rules.players)
    ]

    async def write() -> bool:
        store = Store(server.config.async_db)
        try:
            return await store.create_table(
                code, rules.to_dict(), seed, level, seat, server.config.grace_s, seats
            )
        finally:
            await store.close()

    assert run_async(write), "a table code drawn twice"
    return {
        "code": code,
        "seat": seat,
        "token": token,
        "url": f"/t/{code}",
        "seat_url": f"/t/{code}#seat={token}",
    }


class Client:
    """A WebSocket client at a table: a reader task keeps every message it receives."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.messages: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.state: dict[str, Any] | None = None
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.changed = asyncio.Event()
        self.closed = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                assert isinstance(text, str)
                self.raw.append(text)
                message: dict[str, Any] = json.loads(text)
                self.messages.append(message)
                if message.get("type") == "state":
                    self.state = message
                self.queue.put_nowait(message)
                self.changed.set()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed.set()
            self.changed.set()

    async def recv(self, timeout: float = 10) -> dict[str, Any]:
        return await asyncio.wait_for(self.queue.get(), timeout)

    def drain(self) -> None:
        while not self.queue.empty():
            self.queue.get_nowait()

    async def send(self, message: dict[str, Any] | str) -> None:
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    async def until(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 15
    ) -> dict[str, Any]:
        """The next message (state or error) for which ``predicate`` holds."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no such message; last state seq {self.seq}")
            message = await self.recv(left)
            if predicate(message):
                return message

    async def state_where(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 15
    ) -> dict[str, Any]:
        """The current state if it already holds, else the next state that does."""
        if self.state is not None and predicate(self.state):
            self.drain()
            return self.state
        return await self.until(lambda m: m.get("type") == "state" and predicate(m), timeout)

    async def error(self, timeout: float = 10) -> dict[str, Any]:
        return await self.until(lambda m: m.get("type") == "error", timeout)

    async def close_code(self, timeout: float = 10) -> int | None:
        await asyncio.wait_for(self.closed.wait(), timeout)
        return self.ws.close_code

    @property
    def seq(self) -> int:
        return -1 if self.state is None else int(self.state["seq"])

    @property
    def obs(self) -> dict[str, Any]:
        assert self.state is not None and self.state["obs"] is not None
        obs: dict[str, Any] = self.state["obs"]
        return obs

    def my_turn(self) -> bool:
        state = self.state
        if state is None or state["obs"] is None or state["result"] is not None:
            return False
        return bool(state["obs"]["legal"]) and state["obs"]["to_act"] == state["you"]["seat"]

    async def act(self, action: Any = None) -> None:
        """Answer the current state: ``action``, or the first legal one."""
        assert self.state is not None
        if action is None:
            action = self.obs["legal"][0]
        await self.send({"type": "act", "seq": self.state["seq"], "action": action})


@contextlib.asynccontextmanager
async def connect(
    base_ws: str, code: str, token: str | None = None, *, hello: bool = True
) -> AsyncIterator[Client]:
    async with websockets.connect(f"{base_ws}/ws/{code}", max_size=2**22) as ws:
        client = Client(ws)
        try:
            if hello:
                await client.send({"type": "hello", "token": token} if token else {"type": "hello"})
                await client.state_where(lambda _: True)
            yield client
        finally:
            client.reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await client.reader


async def play_turns(
    clients: list[Client],
    done: Callable[[], bool],
    timeout: float = 60,
    choose: Callable[[Client], Any] | None = None,
) -> None:
    """Let each client answer whenever it is its turn (first legal action) until ``done()``."""
    deadline = time.monotonic() + timeout
    acted: dict[int, int] = {}
    while not done():
        if time.monotonic() > deadline:
            raise TimeoutError("the game did not get there in time")
        for i, client in enumerate(clients):
            client.changed.clear()
            client.drain()
            if done():
                return
            if client.my_turn() and acted.get(i) != client.seq:
                acted[i] = client.seq
                await client.act(None if choose is None else choose(client))
        if done():
            break
        waits = [asyncio.ensure_future(c.changed.wait()) for c in clients]
        _, pending = await asyncio.wait(waits, timeout=1, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()


def config(db: str, **changes: Any) -> ServerConfig:
    """A server config for tests: bots answer at once, grace periods are short."""
    values: dict[str, Any] = {"db": db, "bot_delay_s": 0.0, "grace_s": 30.0}
    values.update(changes)
    return ServerConfig(**values)
