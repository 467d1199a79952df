"""Run the app under uvicorn: what ``callbreak serve`` does.

Before uvicorn starts, the database and Redis are tried (``preflight``): a wrong
``--db`` or ``--redis`` is the commonest mistake of a first production start, and
failing inside the app's start-up printed a page of traceback from asyncpg or
redis-py, with the one line that mattered near its end.  The check says what is
wrong and what to do in a sentence, and ``serve`` exits with status 1.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sys

from callbreak.server.config import ServerConfig

WS_MAX_BYTES = 64 * 1024
"""Frames above this are cut off by the WebSocket layer itself (the app refuses above 4 KiB)."""

CONNECT_TIMEOUT_S = 15.0
"""How long the start waits for the database or Redis to answer (an unreachable host may
otherwise hang for a minute, asyncpg's own limit, before saying anything)."""


class StartError(Exception):
    """The server cannot start; the message says why and what to do, for a person."""


def _chain(error: BaseException) -> list[BaseException]:
    """``error`` and its causes: SQLAlchemy wraps the driver's error, which may wrap an OS one."""
    seen: list[BaseException] = []
    current: BaseException | None = error
    while current is not None and current not in seen:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def shown_db(url: str) -> str:
    """The ``--db`` URL as the console and the logs may show it: its password hidden."""
    from sqlalchemy.engine import make_url

    from callbreak.server.config import async_db_url

    shown = make_url(async_db_url(url)).render_as_string(hide_password=True)
    return shown.replace("+asyncpg", "").replace("+aiosqlite", "")


def database_problem(url: str, error: BaseException) -> str:
    """One sentence for a database that refused the start (password hidden), with a remedy."""
    from sqlalchemy.engine import make_url

    from callbreak.server.config import async_db_url

    parsed = make_url(async_db_url(url))
    shown = shown_db(url)
    chain = _chain(error)
    names = {type(e).__name__ for e in chain}
    last = chain[-1]
    words = str(last).strip().splitlines()[0] if str(last).strip() else type(last).__name__
    if parsed.get_backend_name() == "sqlite":
        return (
            f"cannot open the SQLite database {parsed.database!r} ({words}): check that its "
            "folder exists and that this user may write there, or fix --db"
        )
    where = f"{parsed.host or 'localhost'}:{parsed.port or 5432}"
    if "InvalidCatalogNameError" in names:
        return (
            f'database "{parsed.database}" does not exist on the PostgreSQL server at {where}: '
            f'create it (createdb {parsed.database}, or CREATE DATABASE "{parsed.database}") '
            "or fix the name in --db"
        )
    if names & {"InvalidPasswordError", "InvalidAuthorizationSpecificationError"}:
        return (
            f"PostgreSQL at {where} refused user {parsed.username!r} ({words}): check the user "
            "and password in --db (postgresql://USER:PASSWORD@HOST/DB)"
        )
    if any(isinstance(e, OSError | TimeoutError) for e in chain):
        return (
            f"cannot reach PostgreSQL at {where} ({words}): check that it is running and that "
            "the host and port in --db are right"
        )
    if isinstance(last, TypeError):
        return f"--db {shown} has an option the PostgreSQL driver does not take ({words})"
    return f"the database {shown} refused the start: {words}"


def redis_problem(url: str, error: BaseException) -> str:
    """One sentence for a Redis that refused the start (password hidden), with a remedy."""
    url = re.sub(r"//([^/@]*?):[^/@]*@", r"//\1:***@", url)
    chain = _chain(error)
    last = chain[-1]
    words = str(last).strip().splitlines()[0] if str(last).strip() else type(last).__name__
    if isinstance(error, ValueError):
        return f"--redis {url!r} is not a Redis URL ({words}): write redis://HOST:6379/0"
    if any(isinstance(e, OSError | TimeoutError) for e in chain) or "ConnectionError" in {
        type(e).__name__ for e in chain
    }:
        return (
            f"cannot reach Redis at {url} ({words}): start it, or fix --redis; "
            "a single server process needs no --redis"
        )
    return f"Redis at {url} refused the start ({words}): fix --redis"


async def preflight(config: ServerConfig) -> None:
    """Reach the database (and migrate it) and Redis, or raise ``StartError`` saying why."""
    from callbreak.server.store import Store

    store = Store(config.async_db)
    try:
        await asyncio.wait_for(store.ping(), CONNECT_TIMEOUT_S)
        await store.migrate()
    except Exception as error:
        raise StartError(database_problem(config.db, error)) from error
    finally:
        await store.close()
    if config.redis is None:
        return
    try:
        import redis.asyncio as redis

        client = redis.Redis.from_url(config.redis, socket_connect_timeout=CONNECT_TIMEOUT_S)
        try:
            await client.ping()
        finally:
            await client.aclose()
    except Exception as error:
        raise StartError(redis_problem(config.redis, error)) from error


def serve(
    config: ServerConfig, host: str = "127.0.0.1", port: int = 8000, log_level: str = "info"
) -> None:
    """Serve ``config`` on host:port until interrupted; exit 1 with a sentence if it cannot.

    The address is announced once the database and Redis have answered, so that a start
    that fails never names a page nobody can open."""
    import uvicorn

    from callbreak.server.app import create_app

    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(name)s %(message)s")
    if log_level.lower() != "debug":  # Alembic lists its plugins at INFO on every start
        logging.getLogger("alembic").setLevel(logging.WARNING)
    try:
        asyncio.run(preflight(config))
    except StartError as error:
        print(f"callbreak serve: {error}", file=sys.stderr)
        raise SystemExit(1) from None
    print(f"Call Break tables on http://{host}:{port}/  (database {shown_db(config.db)})")
    uvicorn.run(
        create_app(config),
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=WS_MAX_BYTES,
        ws_ping_interval=10.0,
        ws_ping_timeout=10.0,
        access_log=log_level == "debug",
        timeout_graceful_shutdown=3,
    )
