"""Persistence of online tables: the schema, Alembic on start, and the few queries the hub needs.

A table is stored as what it takes to rebuild it exactly: its rules, its match
seed and its action log (one row per accepted action, keyed by the table and
the action's sequence number).  Rebuilding is ``Match(rules, seed)`` then every
action through ``Match.act`` — the engine re-judges the whole log, so a restart
can never resume from a state the rules would not reach.  The primary key on
(table, seq) is also what makes an action count once: two processes (or a
repeated message) racing for the same sequence number cannot both commit.
Finished matches keep their game record (``callbreak.record``) beside them.

A fair table (``callbreak.record.fair``) also keeps its secret seed and salt
and each seat's contribution; its match seed is derived from them when the
match starts and stored in ``seed`` then (0 until then).  A table without a
secret (a practice table, or one from before fair tables) deals from ``seed``.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    event,
    false,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import StaticPool

from callbreak.record.fair import match_seed

metadata = MetaData()

tables_t = Table(
    "cb_tables",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("status", String(16), nullable=False),
    Column("rules", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("level", String(64), nullable=False),
    Column("host_seat", Integer, nullable=False),
    Column("grace_s", Float, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("started_at", Float),
    Column("finished_at", Float),
    Column("record", Text),
    Column("secret", String(64)),
    Column("salt", String(64)),
    Column("practice", Boolean, nullable=False, server_default=false()),
    Index("ix_cb_tables_status_finished", "status", "finished_at"),
)

seats_t = Table(
    "cb_seats",
    metadata,
    Column("table_code", String(16), ForeignKey("cb_tables.code"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("name", String(64), nullable=False),
    Column("kind", String(16), nullable=False),
    Column("token_hash", String(64)),
    Column("contribution", String(64)),
    PrimaryKeyConstraint("table_code", "seat"),
)

actions_t = Table(
    "cb_actions",
    metadata,
    Column("table_code", String(16), ForeignKey("cb_tables.code"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),
    Column("actor", String(16), nullable=False),
    Column("created_at", Float, nullable=False),
    PrimaryKeyConstraint("table_code", "seq"),
)

MIGRATIONS = Path(__file__).parent / "migrations"


@dataclass
class SeatRow:
    seat: int
    name: str
    kind: str
    """``open`` (nobody yet), ``human`` (a person holds its token) or ``bot``."""
    token_hash: str | None
    contribution: bytes | None = None
    """The player's random contribution to a fair table's match seed (secret until the end)."""


@dataclass
class TableRow:
    code: str
    status: str
    """``lobby``, ``playing`` or ``finished``."""
    rules: dict[str, Any]
    seed: int
    level: str
    host_seat: int
    grace_s: float
    created_at: float
    started_at: float | None
    finished_at: float | None
    seats: list[SeatRow]
    secret: bytes | None = None
    """A fair table's secret seed (``None``: the table deals from ``seed`` as given)."""
    salt: bytes | None = None
    practice: bool = False
    """The host chose the seed (or may have): nobody else may join."""


@dataclass
class ActionRow:
    seq: int
    seat: int
    action: Any
    actor: str


@dataclass
class _Append:
    """One action waiting to be committed."""

    code: str
    seq: int
    seat: int
    action: str
    actor: str
    at: float
    record: dict[str, Any] | None

    def row(self) -> dict[str, Any]:
        return {
            "table_code": self.code,
            "seq": self.seq,
            "seat": self.seat,
            "action": self.action,
            "actor": self.actor,
            "created_at": self.at,
        }

    def finish(self) -> Any:
        return (
            update(tables_t)
            .where(tables_t.c.code == self.code)
            .values(status="finished", finished_at=self.at, record=json.dumps(self.record))
        )


class SeqTaken(Exception):
    """Another writer committed this sequence number first: the caller's state is stale."""


def _upgrade(connection: Connection) -> None:
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


def _table_row(row: Any, seats: list[SeatRow]) -> TableRow:
    return TableRow(
        code=row.code,
        status=row.status,
        rules=json.loads(row.rules),
        seed=int(row.seed),
        level=row.level,
        host_seat=row.host_seat,
        grace_s=float(row.grace_s),
        created_at=float(row.created_at),
        started_at=row.started_at,
        finished_at=row.finished_at,
        seats=seats,
        secret=_bytes(row.secret),
        salt=_bytes(row.salt),
        practice=bool(row.practice),
    )


def _bytes(value: str | None) -> bytes | None:
    return None if value is None else bytes.fromhex(value)


def _seat_row(row: Any) -> SeatRow:
    return SeatRow(row.seat, row.name, row.kind, row.token_hash, _bytes(row.contribution))


class Store:
    """Async access to the tables, their seats and their action logs."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.sqlite = url.startswith("sqlite")
        kwargs: dict[str, Any] = {}
        if self.sqlite and (":memory:" in url or url.rstrip("/").endswith("sqlite+aiosqlite:")):
            kwargs["poolclass"] = StaticPool
        elif not self.sqlite:
            kwargs.update(pool_size=10, max_overflow=10, pool_pre_ping=True)
        self.engine: AsyncEngine = create_async_engine(url, **kwargs)
        # SQLite takes one writer at a time; queueing writers here is cheaper than
        # letting them collide on the file lock and wait in a busy loop.
        self._write_lock = asyncio.Lock() if self.sqlite else None
        self._pending: list[tuple[_Append, asyncio.Future[None]]] = []
        self._committer: asyncio.Task[None] | None = None
        if self.sqlite:
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)

    async def migrate(self) -> None:
        """Bring the schema to the newest Alembic revision (several processes may start at once)."""
        async with self.engine.begin() as conn:
            if self.engine.dialect.name == "postgresql":
                await conn.execute(text("SELECT pg_advisory_xact_lock(7262237)"))
            await conn.run_sync(_upgrade)

    async def close(self) -> None:
        await self.engine.dispose()

    async def ping(self) -> None:
        """One round trip to the database (``/healthz``, and the check before serving)."""
        async with self.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))

    async def identity(self) -> str:
        """What names this database whatever URL reached it, for the Redis channel.

        Two processes may write one database as ``localhost`` and ``127.0.0.1``, or with
        and without ``:5432``; a channel named after the URL's spelling split them in
        silence (each process deaf to the other's moves).  PostgreSQL: its cluster's
        system identifier, the database and the schema; SQLite: the file's real path.
        """
        url = self.engine.url
        if self.sqlite:
            name = url.database or ""
            return f"sqlite:{name if name in ('', ':memory:') else Path(name).resolve()}"
        async with self.engine.connect() as conn:
            try:
                row = (
                    await conn.execute(
                        text(
                            "SELECT (SELECT system_identifier FROM pg_control_system()), "
                            "current_database(), current_schema()"
                        )
                    )
                ).one()
            except Exception:  # a provider that hides pg_control_system: the URL, less who
                return f"postgresql:{url.host}:{url.port or 5432}/{url.database}"
        return f"postgresql:{row[0]}/{row[1]}/{row[2]}"

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[AsyncConnection]:
        if self._write_lock is None:
            async with self.engine.begin() as conn:
                yield conn
            return
        async with self._write_lock, self.engine.begin() as conn:
            yield conn

    # ----------------------------------------------------------------- writes
    async def create_table(
        self,
        code: str,
        rules: dict[str, Any],
        seed: int,
        level: str,
        host_seat: int,
        grace_s: float,
        seats: Sequence[SeatRow],
        *,
        secret: bytes | None = None,
        salt: bytes | None = None,
        practice: bool = False,
    ) -> bool:
        """Insert a new table in the lobby; False if the code is taken (the caller draws again)."""
        try:
            async with self._write() as conn:
                await conn.execute(
                    insert(tables_t).values(
                        code=code,
                        status="lobby",
                        rules=json.dumps(rules),
                        seed=seed,
                        level=level,
                        host_seat=host_seat,
                        grace_s=grace_s,
                        created_at=time.time(),
                        secret=None if secret is None else secret.hex(),
                        salt=None if salt is None else salt.hex(),
                        practice=practice,
                    )
                )
                await conn.execute(
                    insert(seats_t),
                    [
                        {
                            "table_code": code,
                            "seat": s.seat,
                            "name": s.name,
                            "kind": s.kind,
                            "token_hash": s.token_hash,
                            "contribution": None
                            if s.contribution is None
                            else s.contribution.hex(),
                        }
                        for s in seats
                    ],
                )
        except IntegrityError:
            return False
        return True

    async def claim_seat(
        self,
        code: str,
        seat: int,
        name: str,
        token_hash: str,
        contribution: bytes | None = None,
    ) -> bool:
        """Give an open seat of a table still in its lobby to a person; False if it is gone."""
        async with self._write() as conn:
            status = await conn.scalar(select(tables_t.c.status).where(tables_t.c.code == code))
            if status != "lobby":
                return False
            result = await conn.execute(
                update(seats_t)
                .where(
                    seats_t.c.table_code == code, seats_t.c.seat == seat, seats_t.c.kind == "open"
                )
                .values(
                    kind="human",
                    name=name,
                    token_hash=token_hash,
                    contribution=None if contribution is None else contribution.hex(),
                )
            )
            return bool(result.rowcount == 1)

    async def start_table(
        self, code: str, host_seat: int | None = None, contribution: bytes | None = None
    ) -> bool:
        """Lobby → playing; every open seat becomes a bot.  False if it had already started.

        ``contribution`` is the host's (``host_seat``), given with the Start, after the
        host has seen the commitment.  A fair table's match seed is derived here, in the
        same transaction, from its secret and every seat's contribution: once the match
        has started nobody can add one.
        """
        async with self._write() as conn:
            result = await conn.execute(
                update(tables_t)
                .where(tables_t.c.code == code, tables_t.c.status == "lobby")
                .values(status="playing", started_at=time.time())
            )
            if result.rowcount != 1:
                return False
            open_seats = await conn.scalars(
                select(seats_t.c.seat).where(seats_t.c.table_code == code, seats_t.c.kind == "open")
            )
            for seat in list(open_seats):
                await conn.execute(
                    update(seats_t)
                    .where(seats_t.c.table_code == code, seats_t.c.seat == seat)
                    .values(kind="bot", name=f"Bot {seat + 1}")
                )
            if contribution is not None and host_seat is not None:
                await conn.execute(
                    update(seats_t)
                    .where(
                        seats_t.c.table_code == code,
                        seats_t.c.seat == host_seat,
                        seats_t.c.contribution.is_(None),
                    )
                    .values(contribution=contribution.hex())
                )
            secret = await conn.scalar(select(tables_t.c.secret).where(tables_t.c.code == code))
            if secret is not None:
                rows = await conn.execute(
                    select(seats_t).where(seats_t.c.table_code == code).order_by(seats_t.c.seat)
                )
                given = [_seat_row(row).contribution for row in rows]
                seed = match_seed(bytes.fromhex(secret), given)
                await conn.execute(
                    update(tables_t).where(tables_t.c.code == code).values(seed=seed)
                )
        return True

    async def append_action(
        self,
        code: str,
        seq: int,
        seat: int,
        action: Any,
        actor: str,
        record: dict[str, Any] | None = None,
    ) -> None:
        """Commit one accepted action (and, with the last one, the finished match's record).

        Returns once the action is committed.  Raises ``SeqTaken`` when the
        sequence number is already used: the caller acted on a stale state and
        must reload.  The actions of all tables that arrive while a commit is
        under way are committed together in the next transaction (group
        commit): SQLite takes one writer at a time, and PostgreSQL waits for the
        disk at every commit, so one transaction per action would make the
        commit the bottleneck long before the CPU is.
        """
        item = _Append(code, seq, seat, json.dumps(action), actor, time.time(), record)
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((item, future))
        if self._committer is None or self._committer.done():
            self._committer = asyncio.create_task(self._commit_pending())
        await future

    async def _commit_one(self, item: _Append) -> None:
        try:
            async with self._write() as conn:
                await conn.execute(insert(actions_t).values(**item.row()))
                if item.record is not None:
                    await conn.execute(item.finish())
        except IntegrityError:
            raise SeqTaken(f"table {item.code}: action {item.seq} is already recorded") from None

    async def _commit_pending(self) -> None:
        """Commit every queued action, batch after batch, until the queue is empty."""
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                async with self._write() as conn:
                    await conn.execute(insert(actions_t), [item.row() for item, _ in batch])
                    for item, _ in batch:
                        if item.record is not None:
                            await conn.execute(item.finish())
            except IntegrityError:
                # someone else (another process on the same file) took a number: go one
                # by one so that only the stale action fails
                for item, future in batch:
                    try:
                        await self._commit_one(item)
                    except Exception as error:
                        if not future.done():
                            future.set_exception(error)
                    else:
                        if not future.done():
                            future.set_result(None)
                continue
            except Exception as error:
                for _, future in batch:
                    if not future.done():
                        future.set_exception(error)
                continue
            for _, future in batch:
                if not future.done():
                    future.set_result(None)

    # ------------------------------------------------------------------ reads
    async def load_table(self, code: str) -> TableRow | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(tables_t).where(tables_t.c.code == code))).first()
            if row is None:
                return None
            seats = await conn.execute(
                select(seats_t).where(seats_t.c.table_code == code).order_by(seats_t.c.seat)
            )
            seat_rows = [_seat_row(s) for s in seats]
        return _table_row(row, seat_rows)

    async def load_actions(self, code: str, start: int = 0) -> list[ActionRow]:
        """The action log from sequence number ``start`` on, in order."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(actions_t.c.seq, actions_t.c.seat, actions_t.c.action, actions_t.c.actor)
                .where(actions_t.c.table_code == code, actions_t.c.seq >= start)
                .order_by(actions_t.c.seq)
            )
            return [ActionRow(r.seq, r.seat, json.loads(r.action), r.actor) for r in rows]

    async def action_count(self, code: str) -> int:
        async with self.engine.connect() as conn:
            count = await conn.scalar(
                select(func.count()).select_from(actions_t).where(actions_t.c.table_code == code)
            )
            return int(count or 0)

    async def record(self, code: str) -> dict[str, Any] | None:
        """The game record of a finished match (None while it is being played)."""
        async with self.engine.connect() as conn:
            text_ = await conn.scalar(
                select(tables_t.c.record).where(
                    tables_t.c.code == code, tables_t.c.status == "finished"
                )
            )
        return None if text_ is None else dict(json.loads(text_))

    async def history(self, limit: int = 50, offset: int = 0) -> list[dict[str, Any]]:
        """Finished matches, newest first: code, when, seats, totals and winners."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(tables_t.c.code, tables_t.c.finished_at, tables_t.c.record)
                .where(tables_t.c.status == "finished")
                .order_by(tables_t.c.finished_at.desc())
                .limit(limit)
                .offset(offset)
            )
            out = []
            for row in rows:
                record = json.loads(row.record)
                # a deal thrown in (a misdeal) is redealt: "1 deal(s)" of a one-deal match read
                # "2 deal(s)" when its count held the thrown-in deal too
                thrown_in = sum(1 for deal in record["deals"] if deal.get("void"))
                out.append(
                    {
                        "code": row.code,
                        "finished_at": row.finished_at,
                        "rules": record["rules"].get("preset"),
                        "seats": record["seats"],
                        "totals": record["result"]["totals"],
                        "winners": record["result"]["winners"],
                        "deals": len(record["deals"]) - thrown_in,
                        "thrown_in": thrown_in,
                    }
                )
        return out

    async def active_codes(self) -> list[str]:
        """Tables in their lobby or under way (what a restarted server may be asked for)."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(tables_t.c.code).where(tables_t.c.status.in_(("lobby", "playing")))
            )
            return [r.code for r in rows]


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL lets readers run beside the writer; NORMAL sync keeps every commit through a killed
    server (what ``serve`` promises) without an fsync per action; a busy timeout covers a second
    process on the same file."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
