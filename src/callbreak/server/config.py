"""Server settings and the database URL rules, in one place so the CLI, tests and bench agree.

A person types the URL they know (``sqlite:///tables.db``,
``postgresql://user@host/db``); the async driver SQLAlchemy needs
(aiosqlite, asyncpg) is an implementation detail, so it is chosen here.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

DEFAULT_DB = "sqlite:///callbreak-tables.db"
"""A file next to where the server starts: nothing to set up for a first game."""


def async_db_url(url: str) -> str:
    """The SQLAlchemy async URL for what a person typed.

    >>> async_db_url("sqlite:///tables.db")
    'sqlite+aiosqlite:///tables.db'
    >>> async_db_url("postgresql://me@127.0.0.1/callbreak")
    'postgresql+asyncpg://me@127.0.0.1/callbreak'
    >>> async_db_url("postgres://me@db/cb")
    'postgresql+asyncpg://me@db/cb'
    >>> async_db_url("tables.db")
    'sqlite+aiosqlite:///tables.db'

    ``sslmode`` (libpq's name, the one a hosting provider's URL carries) is asyncpg's ``ssl``,
    which takes the same modes; asyncpg itself refused the URL with a TypeError:

    >>> async_db_url("postgresql://me@db.example/cb?sslmode=require")
    'postgresql+asyncpg://me@db.example/cb?ssl=require'
    """
    if "://" not in url:
        return f"sqlite+aiosqlite:///{url}"
    scheme, rest = url.split("://", 1)
    base = scheme.split("+", 1)[0].lower()
    if base == "sqlite":
        return f"sqlite+aiosqlite://{rest}"
    if base in ("postgresql", "postgres"):
        return f"postgresql+asyncpg://{_libpq_ssl(rest)}"
    raise ValueError(f"unsupported database URL {url!r}: use sqlite:///FILE or postgresql://...")


def _libpq_ssl(rest: str) -> str:
    """``sslmode=MODE`` in a PostgreSQL URL's query as ``ssl=MODE`` (unless ``ssl`` is set)."""
    where, mark, query = rest.partition("?")
    if not mark:
        return rest
    pairs = [pair.partition("=") for pair in query.split("&")]
    if any(key == "ssl" for key, _, _ in pairs):
        return rest
    renamed = "&".join(
        f"{'ssl' if key == 'sslmode' else key}{eq}{value}" for key, eq, value in pairs
    )
    return f"{where}?{renamed}"


def channel_for(identity: str) -> str:
    """The Redis channel of the database ``identity`` (``Store.identity``): processes that
    share a database share the event stream, however each one spells its URL."""
    return f"callbreak:{hashlib.sha256(identity.encode()).hexdigest()[:16]}"


GRACE_MAX_S = 3600.0
"""The longest a dropped player keeps the seat: a table's ``grace_s`` (the web API) and
``serve --grace`` take 0 to this."""


@dataclass(frozen=True)
class ServerConfig:
    """Everything a server process needs; defaults are for people playing, tests shorten them."""

    db: str = DEFAULT_DB
    redis: str | None = None
    grace_s: float = 30.0
    """How long a dropped player keeps the seat before a bot plays on for it."""
    bot_delay_s: float = 0.7
    """Pause before a bot acts, so people can follow the cards; 0 in tests and the bench."""
    takeover_s: float = 3.0
    """With several processes: how long another process waits before driving a bot whose
    table it did not move last (the usual driver may have died)."""
    max_message_bytes: int = 4096
    """A client message larger than this is refused and its socket closed (no legal message
    comes near it)."""
    rate_per_s: float = 20.0
    rate_burst: float = 40.0
    """Token bucket per socket: a person clicks a few times a second; far more is a flood."""
    max_strikes: int = 20
    """Refused messages (bad JSON, floods, ...) after which a socket is closed as abusive."""
    idle_evict_s: float = 120.0
    """A table nobody in this process watches is dropped from memory after this long."""
    send_queue: int = 256
    """Messages waiting for a slow client before it is disconnected (it can reconnect)."""
    hint_bot: str | None = None
    """The bot spec that gives hints at practice tables (None: the terminal's, the expert)."""

    @property
    def async_db(self) -> str:
        return async_db_url(self.db)
