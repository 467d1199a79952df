"""Running ``callbreak serve`` in production, several processes on one PostgreSQL and Redis.

What a host meets first: a wrong ``--db`` or ``--redis`` (a sentence that says what to
do, status 1, no traceback), a provider's ``?sslmode=`` URL, processes that spell the
same database differently (they must still hear each other), ``/healthz`` that tells a
load balancer whether the process can store a move, and a Redis outage that must not
hand a connected person's seat to a bot.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import httpx
import pytest

from callbreak.server.config import async_db_url, channel_for
from callbreak.server.hub import REMOTE_STALE_S, Hub, TableSlot
from callbreak.server.store import Store
from server_support import (
    ProcessServer,
    ThreadServer,
    config,
    connect,
    create_table,
    free_port,
    join_table,
    postgres_url,
    redis_url,
    run_async,
)


def serve(*args: str) -> subprocess.CompletedProcess[str]:
    """``callbreak serve ARGS`` expected to refuse to start: its output and status."""
    command = [sys.executable, "-m", "callbreak.cli.main", "serve", "--port", str(free_port())]
    return subprocess.run(
        [*command, "--log-level", "warning", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def refused(result: subprocess.CompletedProcess[str], *words: str) -> None:
    out = result.stdout + result.stderr
    assert result.returncode == 1, out
    assert "Traceback" not in out, out
    assert "Call Break tables on" not in out, out  # no address announced for a failed start
    for word in words:
        assert word in out, out


def test_a_sqlite_file_in_a_missing_folder_is_named(tmp_path: Path) -> None:
    refused(
        serve("--db", f"sqlite:///{tmp_path / 'no' / 'such' / 'tables.db'}"),
        "cannot open the SQLite database",
        "folder exists",
    )


def test_an_unreachable_postgres_says_where_it_looked() -> None:
    port = free_port()
    refused(
        serve("--db", f"postgresql://postgres:hunter2@127.0.0.1:{port}/callbreak"),
        f"cannot reach PostgreSQL at 127.0.0.1:{port}",
        "running",
    )


def test_the_password_never_reaches_the_error() -> None:
    result = serve("--db", f"postgresql://me:hunter2@127.0.0.1:{free_port()}/cb")
    assert "hunter2" not in result.stderr


def test_a_missing_database_says_how_to_create_it() -> None:
    base = postgres_url().rpartition("/")[0]
    refused(
        serve("--db", f"{base}/callbreak_qa_1129_missing"),
        'database "callbreak_qa_1129_missing" does not exist',
        "CREATE DATABASE",
    )


def test_an_unknown_role_is_named() -> None:
    url = postgres_url().replace("postgres@", "callbreak_qa_nobody:pw@", 1)
    assert "callbreak_qa_nobody" in url
    refused(serve("--db", url), "refused user 'callbreak_qa_nobody'", "password in --db")


def test_redis_down_at_start_is_said_not_traced(tmp_path: Path) -> None:
    refused(
        serve(
            "--db",
            f"sqlite:///{tmp_path / 't.db'}",
            "--redis",
            f"redis://:pw@127.0.0.1:{free_port()}/0",
        ),
        "cannot reach Redis at redis://:***@127.0.0.1",
        "needs no --redis",
    )


def test_a_redis_url_of_another_scheme_is_said(tmp_path: Path) -> None:
    refused(
        serve("--db", f"sqlite:///{tmp_path / 't.db'}", "--redis", "http://127.0.0.1:6379"),
        "is not a Redis URL",
    )


def test_sslmode_is_passed_as_asyncpg_ssl() -> None:
    assert async_db_url("postgresql://u@h/db?sslmode=require&x=1") == (
        "postgresql+asyncpg://u@h/db?ssl=require&x=1"
    )
    assert async_db_url("postgresql://u@h/db?ssl=true&sslmode=require").endswith(
        "?ssl=true&sslmode=require"
    )


def test_a_provider_url_with_sslmode_starts(tmp_path: Path) -> None:
    server = ProcessServer(postgres_url() + "?sslmode=disable").start(tmp_path / "serve.log")
    try:
        assert httpx.get(f"{server.http}/healthz").json()["database"] == "ok"
    finally:
        server.stop()


def test_one_sqlite_file_has_one_identity(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()

    async def identities() -> list[str]:
        found = []
        for url in (f"sqlite:///{tmp_path}/t.db", f"sqlite:///{tmp_path}/sub/../t.db"):
            store = Store(async_db_url(url))
            try:
                found.append(await store.identity())
            finally:
                await store.close()
        return found

    first, second = run_async(identities)
    assert first == second


@pytest.mark.asyncio
async def test_two_spellings_of_one_database_share_the_events(tmp_path: Path) -> None:
    """A on ``127.0.0.1``, B on ``127.0.0.1:5432`` with a password: one database.  The
    channel was a hash of the URL as typed, so B never heard A's moves (a silent split)."""
    db, redis = postgres_url(), redis_url()
    scheme, _, rest = db.partition("://")
    user, _, where = rest.partition("@")
    host, _, name = where.partition("/")
    if ":" in host or ":" in user:
        pytest.skip("the test database URL already names a port or a password")
    other = f"{scheme}://{user}:ignored@{host}:5432/{name}"
    channels = run_async(lambda: _channels([db, other]))
    assert channels[0] == channels[1]
    extra = ("--redis", redis, "--bot-delay", "0", "--grace", "30")
    a = ProcessServer(db, *extra).start(tmp_path / "a.log")
    b = ProcessServer(other, *extra).start(tmp_path / "b.log")
    try:
        created = create_table(a.http)
        joined = join_table(b.http, created["code"], "Guest")
        async with connect(b.ws, created["code"], joined["token"]) as guest:
            started = httpx.post(
                f"{a.http}/api/tables/{created['code']}/start",
                headers={"Authorization": f"Bearer {created['token']}"},
                timeout=10,
            )
            assert started.status_code == 200, started.text
            state = await guest.state_where(lambda s: s["table"]["status"] == "playing", 10)
            assert state["table"]["status"] == "playing"
    finally:
        a.stop()
        b.stop()


async def _channels(urls: list[str]) -> list[str]:
    found = []
    for url in urls:
        store = Store(async_db_url(url))
        try:
            found.append(channel_for(await store.identity()))
        finally:
            await store.close()
    return found


def test_healthz_says_whether_a_move_can_be_stored(tmp_path: Path) -> None:
    with ThreadServer(config(f"sqlite:///{tmp_path / 't.db'}")) as server:
        healthy = httpx.get(f"{server.http}/healthz")
        assert healthy.status_code == 200
        assert healthy.json()["database"] == "ok" and healthy.json()["redis"] is None
        hub: Hub = cast(Any, server.server.config.app).state.hub

        async def down() -> None:
            raise ConnectionRefusedError("the database went away")

        hub.store.ping = down  # type: ignore[method-assign]
        hub.bus = cast(Any, SimpleNamespace(distributed=True, connected=False))
        sick = httpx.get(f"{server.http}/healthz")
        assert sick.status_code == 503
        body = sick.json()
        assert body["ok"] is False
        assert body["database"].startswith("unreachable")
        assert body["redis"] == "unreachable"


def test_while_redis_is_away_a_remote_player_stays_present() -> None:
    """With Redis down no heartbeat arrives, and the player on the other process aged
    out after 7 s: after the grace period this process's bot played their seat while
    they sat there waiting for moves that could not reach them."""

    async def present(connected: bool) -> frozenset[int]:
        bus = SimpleNamespace(distributed=True, connected=connected)
        hub = Hub(config("sqlite://"), cast(Store, None), cast(Any, bus))
        hub._remote["other"] = (
            time.monotonic() - REMOTE_STALE_S - 60,
            {"ABCDEF": (frozenset({1}), 0)},
        )
        slot = SimpleNamespace(conns=set(), table=SimpleNamespace(code="ABCDEF"))
        return hub._present(cast(TableSlot, slot))

    assert asyncio.run(present(connected=False)) == frozenset({1})
    assert asyncio.run(present(connected=True)) == frozenset()


def test_the_banner_comes_after_the_check_and_hides_the_password(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``serve`` printed "(database postgresql://me:hunter2@...)" to the console and its logs,
    and announced the address before the database had answered."""
    import uvicorn

    from callbreak.server import run
    from callbreak.server.config import ServerConfig

    order: list[str] = []

    async def checked(config: ServerConfig) -> None:
        order.append("preflight")

    monkeypatch.setattr(run, "preflight", checked)
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: order.append("uvicorn"))
    run.serve(ServerConfig(db="postgresql://me:hunter2@db.example/cb"), port=8123)
    out = capsys.readouterr().out
    assert order == ["preflight", "uvicorn"]
    assert "Call Break tables on http://127.0.0.1:8123/" in out, out
    assert "postgresql://me:***@db.example/cb" in out and "hunter2" not in out, out
