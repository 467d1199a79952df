"""The hub: live tables, their sockets, bots and timers, and the one path an action takes.

An action goes: checked (sequence number, turn, the engine's rules) →
committed to the database → published to the other processes → sent to every
socket at the table, each its own view.  The per-table lock covers all of it,
so the sockets of a table see its actions in log order, one state per action.

Bots play the bot seats and, after the grace period, the seats of players who
dropped; a table with no player connected pauses rather than play itself out.
With several processes the one that stored the last action drives the next
bot move at once and the others only step in after ``takeover_s`` (the
primary key on the sequence number settles any race).

The grace clock of a seat runs only while the match is played: in the lobby
nobody is replaced, and a player away at the Start keeps the seat for the
whole grace period from the Start on.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from callbreak.advice import hint_spec
from callbreak.bots import Bot, make_bot
from callbreak.bots.levels import LEVELS
from callbreak.engine import IllegalAction
from callbreak.games import find_game
from callbreak.record.fair import new_secret
from callbreak.rules import Rules
from callbreak.server.bus import LocalBus, RedisBus
from callbreak.server.config import ServerConfig
from callbreak.server.hints import NOT_ALONE, hint_message
from callbreak.server.protocol import CLOSE_RELOAD, CLOSE_TOO_SLOW, ProtocolError
from callbreak.server.store import SeatRow, SeqTaken, Store
from callbreak.server.table import LiveTable, Presence

log = logging.getLogger("callbreak.server")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Table codes avoid 0/O and 1/I so a code read aloud or off a phone is typed right."""
CODE_LENGTH = 6
HEARTBEAT_S = 2.0
REMOTE_STALE_S = 7.0


def hash_token(token: str) -> str:
    """Seat tokens are stored hashed: a leaked database does not hand out seats."""
    # "replace": a token with a lone surrogate (valid JSON, not UTF-8) matches no seat.
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


BOT_POLICIES: dict[str, frozenset[str]] = {}
"""Bots that play only the games of some policies (``Game.policy``); any other plays them all.

None does today (the expert searches every game), but a bot that models one game's
deal belongs here, so that a table of another game is never promised its level."""

FALLBACK_LEVEL = "medium"
"""The level a table gets when the one asked for has no bot for its game."""


def bot_spec_for(level: str) -> str:
    """A table's level names its bots: a level from ``LEVELS`` or a bot spec."""
    return LEVELS.get(level, level)


def level_plays(level: str, game: str) -> bool:
    """Whether the bots of ``level`` play ``game`` (a ``Rules.game``).

    A bot of ``BOT_POLICIES`` (none today) would also need Call Break's deal as a compiled
    search models it: every seat for itself and the whole deck dealt, which Spades' sides and
    Oh Hell's shrinking hands are not.  The expert searches those over engine deals.
    """
    policies = BOT_POLICIES.get(bot_spec_for(level).partition(":")[0])
    if policies is None:
        return True
    record = find_game(game)
    searchable = not record.partnerships and record.schedule is None
    return record.policy in policies and searchable


def game_levels(game: str) -> list[str]:
    """The levels a new table of ``game`` may be given, easiest first."""
    return [level for level in LEVELS if level_plays(level, game)]


def table_bots(level: str, game: str) -> tuple[str, str | None]:
    """The bot spec a table of ``game`` at ``level`` seats, and a note when it had to fall back.

    A table stores the level its host asked for; where that level's bot cannot play
    the game, the table's bots are the heuristic's (``FALLBACK_LEVEL``) and the note
    says so, so nobody believes they face a stronger bot than they do.
    """
    if level_plays(level, game):
        return bot_spec_for(level), None
    spec = bot_spec_for(FALLBACK_LEVEL)
    return spec, (
        f"the {level} bots play only Call Break games: this table's bots play at "
        f"{FALLBACK_LEVEL} ({spec})"
    )


class Socket(Protocol):
    """The part of a WebSocket the hub uses (Starlette's, or a test double)."""

    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


@dataclass(frozen=True)
class _Close:
    code: int
    reason: str


class Conn:
    """One socket at a table: its seat (``None`` for a spectator) and its outgoing queue.

    Broadcasting only queues; each socket has its own sender, so one slow phone
    never holds up the rest of the table.
    """

    def __init__(self, ws: Socket, seat: int | None, limit: int) -> None:
        self.ws = ws
        self.seat = seat
        self.queue: asyncio.Queue[str | _Close] = asyncio.Queue(maxsize=limit)
        self.closing = False

    def send(self, text: str) -> None:
        if self.closing:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.close(CLOSE_TOO_SLOW, "too slow to read the table; reconnect")

    def close(self, code: int, reason: str) -> None:
        if self.closing:
            return
        self.closing = True
        try:
            self.queue.put_nowait(_Close(code, reason))
        except asyncio.QueueFull:  # make room for the close itself
            with contextlib.suppress(asyncio.QueueEmpty):
                self.queue.get_nowait()
            self.queue.put_nowait(_Close(code, reason))

    async def pump(self) -> None:
        """Send queued messages until closed (run as this socket's sender task)."""
        while True:
            item = await self.queue.get()
            if isinstance(item, _Close):
                with contextlib.suppress(Exception):
                    await self.ws.close(item.code, item.reason)
                return
            try:
                await self.ws.send_text(item)
            except Exception:
                self.closing = True
                return


@dataclass
class TableSlot:
    """A loaded table and what the hub keeps beside it in this process."""

    table: LiveTable
    conns: set[Conn] = field(default_factory=set)
    dropped: dict[int, float] = field(default_factory=dict)
    """Human seats not connected anywhere, and since when (monotonic)."""
    timer: asyncio.TimerHandle | None = None
    origin_local: bool = True
    """This process stored the last action, so it drives the next bot move."""
    changed_at: float = field(default_factory=time.monotonic)
    touched: float = field(default_factory=time.monotonic)
    shown: tuple[bool, ...] = ()
    local_seats: tuple[frozenset[int], int] = (frozenset(), 0)
    hint_bot: Bot | None = None
    """The bot that gives this table's hints (``server.hints``), made on the first one."""
    hint_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """One hint at a time: a bot is not asked twice at once."""


def _check_turn(table: LiveTable, seat: int, seq: int, what: str) -> None:
    """Refuse ``what`` (a stale action, a hint) unless the match is being played, at state
    ``seq``, and it is ``seat``'s turn: a ProtocolError says which of these failed."""
    if table.status == "lobby":
        raise ProtocolError("not_started")
    if table.status == "finished" or table.match.over:
        raise ProtocolError("finished")
    if seq != table.seq:
        raise ProtocolError("stale", f"{what} for state {seq}: the table is at state {table.seq}")
    to_act = table.match.to_act
    if to_act != seat:
        who = table.seats[to_act].name if to_act is not None else "nobody"
        raise ProtocolError("not_your_turn", f"it is {who}'s turn, not yours")


NAME_MAX = 32
"""The longest player name the API takes (``server.app.PlayerName``)."""


def distinct_name(name: str, taken: list[str]) -> str:
    """``name``, or ``name 2``, ``name 3``… if a person at the table already goes by it
    (compared without case), cut so that the number still fits in ``NAME_MAX``.

    >>> distinct_name("Asha", ["asha", "Asha 2"])
    'Asha 3'
    >>> distinct_name("Ravi", ["Asha"])
    'Ravi'
    """
    used = {other.casefold() for other in taken if other}
    if name.casefold() not in used:
        return name
    number = 2
    while True:
        suffix = f" {number}"
        candidate = name[: NAME_MAX - len(suffix)].rstrip() + suffix
        if candidate.casefold() not in used:
            return candidate
        number += 1


class Hub:
    """Every table this process serves; the app's HTTP and WebSocket routes call into it."""

    def __init__(self, config: ServerConfig, store: Store, bus: LocalBus | RedisBus) -> None:
        self.config = config
        self.store = store
        self.bus = bus
        self.proc = secrets.token_hex(6)
        self.slots: dict[str, TableSlot] = {}
        self._load_lock = asyncio.Lock()
        self._remote: dict[str, tuple[float, dict[str, tuple[frozenset[int], int]]]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loops: list[asyncio.Task[None]] = []

    # ------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        await self.bus.start(self.on_event)
        self._loops.append(asyncio.create_task(self._sweep_loop()))
        if self.bus.distributed:
            self._loops.append(asyncio.create_task(self._heartbeat_loop()))

    async def stop(self) -> None:
        for task in self._loops:
            task.cancel()
        for slot in self.slots.values():
            if slot.timer is not None:
                slot.timer.cancel()
            for conn in list(slot.conns):
                conn.close(1012, "server restarting")
        for task in [*self._loops, *self._tasks]:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def _spawn(self, make: Callable[[], Any]) -> None:
        task = asyncio.create_task(make())
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task failed", exc_info=task.exception())

    # --------------------------------------------------------------- tables
    async def create(
        self,
        name: str,
        rules: Rules,
        level: str,
        seat: int = 0,
        grace_s: float | None = None,
        seed: int | None = None,
        practice: bool = False,
    ) -> tuple[str, str]:
        """A new table in its lobby with ``name`` in ``seat`` as host; returns (code, token).

        A table others can join is fair: the server draws its secret seed and salt
        (``callbreak.record.fair``) and nobody chooses the deals.  Only a ``practice``
        table, which nobody else may join, deals from a ``seed`` given here.
        """
        if seed is not None and not practice:
            raise ValueError("a seed may be given only for a practice table")
        token = secrets.token_urlsafe(24)
        secret = salt = None
        if practice:
            seed = secrets.randbits(62) if seed is None else seed
        else:
            secret, salt = new_secret(), new_secret()
            seed = 0  # the match seed is derived at the Start (Store.start_table)
        seats = [
            SeatRow(s, name, "human", hash_token(token))
            if s == seat
            else SeatRow(s, "", "open", None)
            for s in range(rules.players)
        ]
        for _ in range(50):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if await self.store.create_table(
                code,
                rules.to_dict(),
                seed,
                level,
                seat,
                self.config.grace_s if grace_s is None else grace_s,
                seats,
                secret=secret,
                salt=salt,
                practice=practice,
            ):
                return code, token
        raise RuntimeError("no free table code after 50 draws")

    async def table(self, code: str) -> TableSlot | None:
        """The table with this code, loaded from the database on first use (None if unknown)."""
        slot = self.slots.get(code)
        if slot is not None:
            slot.touched = time.monotonic()
            return slot
        async with self._load_lock:
            slot = self.slots.get(code)
            if slot is None:
                slot = await self._load(code)
                if slot is not None:
                    self.slots[code] = slot
        return slot

    async def _load(self, code: str) -> TableSlot | None:
        row = await self.store.load_table(code)
        if row is None:
            return None
        spec, note = table_bots(row.level, Rules.from_dict(row.rules).game)
        table = LiveTable.from_row(row, spec, note)
        for action in await self.store.load_actions(code):
            table.apply(action.seat, action.action, action.actor)
        slot = TableSlot(table)
        if table.status == "playing":  # a reload (a restart) gives an absent seat a new grace
            now = time.monotonic()
            slot.dropped = {s.seat: now for s in table.seats if s.kind == "human"}
        return slot

    async def _rebuild(self, slot: TableSlot, shown: int | None = None) -> None:
        """Rebuild a table from the database (another writer won a race, or we fell behind).

        ``shown``: the last state this process's sockets were sent; they are sent
        every state after it, so no client misses an action.
        """
        table = slot.table
        shown = table.seq if shown is None else shown
        row = await self.store.load_table(table.code)
        if row is None:
            return
        table.refresh(row)
        table.reset()
        actions = await self.store.load_actions(table.code)
        for i, action in enumerate(actions):
            table.apply(action.seat, action.action, action.actor)
            if table.seq > shown and i < len(actions) - 1:
                self._announce(slot)
        if table.match.over:
            table.status = "finished"

    async def _catch_up(self, slot: TableSlot) -> None:
        """Read what other processes stored since our last state, one state per action.

        The caller announces the final state; the ones in between are sent here.
        """
        table = slot.table
        shown, status = table.seq, table.status
        row = await self.store.load_table(table.code)
        if row is not None:
            table.refresh(row)
        actions = await self.store.load_actions(table.code, table.seq)
        try:
            for i, action in enumerate(actions):
                if i == 0 and table.status != status:
                    self._announce(slot)  # the table's own change (it started) comes first
                table.apply(action.seat, action.action, action.actor)
                if i < len(actions) - 1:
                    self._announce(slot)
        except IllegalAction:
            await self._rebuild(slot, shown)
        if table.match.over:
            table.status = "finished"

    def _evict(self, slot: TableSlot, reason: str) -> None:
        """Forget a table whose memory may not match the database; its sockets reconnect."""
        if self.slots.get(slot.table.code) is slot:
            del self.slots[slot.table.code]
        if slot.timer is not None:
            slot.timer.cancel()
        for conn in list(slot.conns):
            conn.close(CLOSE_RELOAD, reason)

    async def join(
        self, code: str, name: str, seat: int | None, contribution: bytes | None = None
    ) -> tuple[int, str, str]:
        """Give a person an open seat of a table in its lobby; returns (seat, token, name).

        ``contribution``: the player's random bytes for a fair table's match seed.  A name
        another person at the table already has is numbered (``Asha 2``): two seats of one
        name made "it is Asha's turn" ambiguous.
        """
        slot = await self.table(code)
        if slot is None:
            raise ProtocolError("no_table")
        table = slot.table
        if table.practice:
            raise ProtocolError("practice")
        if table.status == "finished" or table.match.over:  # "has started" misled here
            raise ProtocolError(
                "finished", "the match is over: its result and record are on the table's page"
            )
        if table.status != "lobby":
            raise ProtocolError("started", "the match has started: watch it as a spectator")
        if seat is not None and not 0 <= seat < len(table.seats):
            raise ProtocolError("no_seat", f"seat must be from 0 to {len(table.seats) - 1}")
        name = distinct_name(name, [s.name for s in table.seats if s.kind == "human"])
        open_seats = [s.seat for s in table.seats if s.kind == "open"]
        wanted = open_seats if seat is None else [seat]
        token = secrets.token_urlsafe(24)
        for candidate in wanted:
            if await self.store.claim_seat(code, candidate, name, hash_token(token), contribution):
                break
        else:
            raise ProtocolError("seat_taken", "that seat is taken" if seat is not None else None)
        async with table.lock:
            await self._catch_up(slot)
        await self.bus.publish({"k": "meta", "proc": self.proc, "code": code})
        self._presence_changed(slot)
        return candidate, token, name

    async def start_match(
        self, slot: TableSlot, seat: int | None, contribution: bytes | None = None
    ) -> None:
        """The host starts the match (with its own contribution, if any); open seats get bots."""
        table = slot.table
        if seat is None or seat != table.host_seat:
            raise ProtocolError("not_host")
        async with table.lock:
            if table.status != "lobby":
                raise ProtocolError("started")
            if not await self.store.start_table(table.code, seat, contribution):
                await self._catch_up(slot)
                raise ProtocolError("started")
            await self._catch_up(slot)
            slot.origin_local = True
            slot.changed_at = time.monotonic()
            await self.bus.publish({"k": "meta", "proc": self.proc, "code": table.code})
            self._presence_changed(slot, publish=False)

    # -------------------------------------------------------------- actions
    async def act(self, slot: TableSlot, seat: int, seq: int, action: Any, actor: str) -> None:
        """Check, store, publish and broadcast one action; a ProtocolError says why not."""
        table = slot.table
        async with table.lock:
            if self.slots.get(table.code) is not slot:
                raise ProtocolError("server_error", "the table was reloaded: reconnect")
            _check_turn(table, seat, seq, "stale action")
            if actor == "bot" and not self._bot_controls(slot, seat, self._present(slot)):
                raise ProtocolError("stale", "the player is back")
            try:
                logged = table.apply(seat, action, actor)
            except ValueError as error:  # IllegalAction names its rule; refuse any other too
                rule = error.rule if isinstance(error, IllegalAction) else None
                raise ProtocolError("illegal", str(error), rule=rule) from None
            record = table.record() if table.match.over else None
            try:
                await self.store.append_action(table.code, seq, seat, logged, actor, record)
            except SeqTaken:
                await self._rebuild(slot, seq)
                self._changed(slot)
                raise ProtocolError("stale", "another move was stored first") from None
            except Exception:
                log.exception("table %s: storing action %d failed", table.code, seq)
                self._evict(slot, "storage failed; reloading")
                raise ProtocolError("server_error") from None
            slot.origin_local = True
            slot.changed_at = time.monotonic()
            await self.bus.publish(
                {
                    "k": "act",
                    "proc": self.proc,
                    "code": table.code,
                    "seq": seq,
                    "seat": seat,
                    "action": logged,
                    "actor": actor,
                }
            )
            self._changed(slot)

    async def hint(self, slot: TableSlot, seat: int, seq: int) -> dict[str, Any]:
        """The hint message for ``seat`` on its turn at state ``seq`` (``server.hints``): only
        where every other seat is a bot; a ProtocolError says why not."""
        table = slot.table
        if any(s.kind == "human" and s.seat != seat for s in table.seats):
            raise ProtocolError("no_hint", NOT_ALONE)
        async with table.lock:
            _check_turn(table, seat, seq, "a hint")
            observation = table.match.observation(seat)
        async with slot.hint_lock:
            if slot.hint_bot is None:
                spec = self.config.hint_bot or hint_spec()
                slot.hint_bot = make_bot(spec, seed=table.seed % (1 << 32))
            action = await asyncio.to_thread(slot.hint_bot.act, observation)
        return hint_message(observation, action, seq)

    # ------------------------------------------------------------- sockets
    def attach(self, slot: TableSlot, conn: Conn) -> None:
        slot.conns.add(conn)
        slot.touched = time.monotonic()
        self._presence_changed(slot, force=True)

    def detach(self, slot: TableSlot, conn: Conn) -> None:
        slot.conns.discard(conn)
        slot.touched = time.monotonic()
        if self.slots.get(slot.table.code) is slot:
            self._presence_changed(slot, force=True)

    def _present(self, slot: TableSlot) -> frozenset[int]:
        seats = {c.seat for c in slot.conns if c.seat is not None and not c.closing}
        now = time.monotonic()
        for seen, tables in self._remote.values():
            if self._fresh(seen, now) and slot.table.code in tables:
                seats |= tables[slot.table.code][0]
        return frozenset(seats)

    def _fresh(self, seen: float, now: float) -> bool:
        """Whether another process's presence, last heard at ``seen``, still counts.

        Its heartbeats stop when it dies, and also when Redis is away; in the second case
        the people it serves are still playing there, and a bot must not take their seats
        after the grace period while they wait for their moves to arrive.  So while this
        process is cut off from Redis the last word of every process stands.
        """
        return not self.bus.connected or now - seen <= REMOTE_STALE_S

    def presence(self, slot: TableSlot) -> Presence:
        present = self._present(slot)
        spectators = sum(1 for c in slot.conns if c.seat is None and not c.closing)
        now = time.monotonic()
        for seen, tables in self._remote.values():
            if self._fresh(seen, now) and slot.table.code in tables:
                spectators += tables[slot.table.code][1]
        bot_playing = tuple(
            self._bot_controls(slot, s.seat, present, now) for s in slot.table.seats
        )
        return Presence(present, spectators, bot_playing)

    def _bot_controls(
        self, slot: TableSlot, seat: int, present: frozenset[int], now: float | None = None
    ) -> bool:
        kind = slot.table.seats[seat].kind
        if kind == "bot":
            return True
        if kind != "human" or seat in present:
            return False
        since = slot.dropped.get(seat)
        now = time.monotonic() if now is None else now
        # the same sum as the timer's due time in _schedule, so the two never disagree
        return since is not None and now >= since + slot.table.grace_s

    def _presence_changed(
        self, slot: TableSlot, *, publish: bool = True, force: bool = False
    ) -> None:
        table = slot.table
        present = self._present(slot)
        now = time.monotonic()
        for s in table.seats:
            if s.kind != "human" or s.seat in present or table.status != "playing":
                slot.dropped.pop(s.seat, None)  # the grace clock runs only in the match
            else:
                slot.dropped.setdefault(s.seat, now)
        local = (
            frozenset(c.seat for c in slot.conns if c.seat is not None and not c.closing),
            sum(1 for c in slot.conns if c.seat is None and not c.closing),
        )
        if publish and self.bus.distributed and local != slot.local_seats:
            event = {
                "k": "presence",
                "proc": self.proc,
                "tables": {table.code: [sorted(local[0]), local[1]]},
            }
            self._spawn(lambda: self.bus.publish(event))
        slot.local_seats = local
        self._changed(slot)

    def _changed(self, slot: TableSlot) -> None:
        self._announce(slot)
        self._schedule(slot)

    def _announce(self, slot: TableSlot) -> None:
        slot.table.version += 1
        self._broadcast(slot)

    def _broadcast(self, slot: TableSlot) -> None:
        table = slot.table
        presence = self.presence(slot)
        slot.shown = presence.bot_playing
        for conn in list(slot.conns):
            conn.send(table.state_text(conn.seat, presence))

    def send_state(self, slot: TableSlot, conn: Conn) -> None:
        conn.send(slot.table.state_text(conn.seat, self.presence(slot)))

    # ----------------------------------------------------------------- bots
    def _schedule(self, slot: TableSlot) -> None:
        """Set the table's one timer: the next bot move, or the next grace period to run out."""
        if slot.timer is not None:
            slot.timer.cancel()
            slot.timer = None
        table = slot.table
        if table.status != "playing" or table.match.over:
            return
        present = self._present(slot)
        if not any(s.kind == "human" and s.seat in present for s in table.seats):
            return  # nobody to play with: the table waits for its players
        now = time.monotonic()
        due: float | None = None
        shown = tuple(self._bot_controls(slot, s.seat, present, now) for s in table.seats)
        if shown != slot.shown:
            due = now  # a grace period ran out since the last broadcast: show it at once
        for since in slot.dropped.values():
            expiry = since + table.grace_s
            if expiry > now:
                due = expiry if due is None else min(due, expiry)
        to_act = table.match.to_act
        if to_act is not None and self._bot_controls(slot, to_act, present, now):
            delay = self.config.bot_delay_s + (0.0 if slot.origin_local else self.config.takeover_s)
            move = max(now, slot.changed_at + delay)
            due = move if due is None else min(due, move)
        if due is not None:
            loop = asyncio.get_running_loop()
            slot.timer = loop.call_later(max(0.0, due - now), self._fire, slot)

    def _fire(self, slot: TableSlot) -> None:
        slot.timer = None
        self._spawn(lambda: self._tick(slot))

    async def _tick(self, slot: TableSlot) -> None:
        if self.slots.get(slot.table.code) is not slot:
            return
        table = slot.table
        present = self._present(slot)
        now = time.monotonic()
        bot_playing = tuple(self._bot_controls(slot, s.seat, present, now) for s in table.seats)
        if bot_playing != slot.shown:
            self._changed(slot)  # a grace period ran out: show who plays the seat now
        to_act = table.match.to_act
        delay = self.config.bot_delay_s + (0.0 if slot.origin_local else self.config.takeover_s)
        if (
            table.status == "playing"
            and to_act is not None
            and bot_playing[to_act]
            and now >= slot.changed_at + delay - 0.001
            and any(s.kind == "human" and s.seat in present for s in table.seats)
        ):
            await self._bot_move(slot, to_act)
        else:
            self._schedule(slot)

    async def _bot_move(self, slot: TableSlot, seat: int) -> None:
        table = slot.table
        seq = table.seq
        observation = table.match.observation(seat)
        bot = table.bot_for(seat)
        try:
            if table.fast_bots:
                action = bot.act(observation)
            else:
                action = await asyncio.to_thread(bot.act, observation)
        except Exception:
            log.exception(
                "table %s: bot for seat %d failed; playing its first legal", table.code, seat
            )
            action = observation.legal[0]
        try:
            await self.act(slot, seat, seq, action, "bot")
        except ProtocolError as error:
            if error.code == "illegal" and table.seq == seq:
                log.error("table %s: bot gave an illegal action: %s", table.code, error.message)
                with contextlib.suppress(ProtocolError):
                    await self.act(slot, seat, seq, observation.legal[0], "bot")
            self._schedule(slot)

    # --------------------------------------------------------------- events
    async def on_event(self, event: dict[str, Any]) -> None:
        """An event from another process (Redis); our own come back too and are skipped."""
        if event.get("proc") == self.proc:
            return
        kind = event.get("k")
        if kind == "presence":
            self._remote_presence(event)
            return
        if kind == "resync":  # Redis is back: the others' presence counts from now on
            now = time.monotonic()
            self._remote = {proc: (now, tables) for proc, (_, tables) in self._remote.items()}
            for slot in list(self.slots.values()):
                async with slot.table.lock:
                    await self._catch_up(slot)
                self._presence_changed(slot, publish=False)
            return
        found = self.slots.get(str(event.get("code")))
        if found is None:
            return
        slot = found
        table = slot.table
        async with table.lock:
            if kind == "act":
                seq = int(event["seq"])
                if seq < table.seq:
                    return
                if seq == table.seq and table.status == "playing":
                    try:
                        table.apply(int(event["seat"]), event["action"], str(event["actor"]))
                    except IllegalAction:
                        await self._rebuild(slot)
                else:
                    await self._catch_up(slot)
                slot.origin_local = False
                slot.changed_at = time.monotonic()
            elif kind == "meta":
                await self._catch_up(slot)
            else:
                return
        self._presence_changed(slot, publish=False)

    def _remote_presence(self, event: dict[str, Any]) -> None:
        proc = str(event.get("proc"))
        tables_in = event.get("tables")
        if not isinstance(tables_in, dict):
            return
        full = bool(event.get("full"))
        previous = self._remote.get(proc, (0.0, {}))[1]
        tables = {} if full else dict(previous)
        for code, (seats, watchers) in tables_in.items():
            tables[str(code)] = (frozenset(int(s) for s in seats), int(watchers))
        tables = {c: v for c, v in tables.items() if v[0] or v[1]}
        self._remote[proc] = (time.monotonic(), tables)
        for code in set(previous) | set(tables):
            if previous.get(code) != tables.get(code) and code in self.slots:
                self._presence_changed(self.slots[code], publish=False)

    async def _heartbeat_loop(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_S)
            tables = {
                code: [sorted(slot.local_seats[0]), slot.local_seats[1]]
                for code, slot in self.slots.items()
                if slot.local_seats[0] or slot.local_seats[1]
            }
            await self.bus.publish(
                {"k": "presence", "proc": self.proc, "full": True, "tables": tables}
            )

    async def _sweep_loop(self) -> None:
        """Drop idle tables from memory and forget processes that stopped beating."""
        while True:
            await asyncio.sleep(min(5.0, self.config.idle_evict_s / 4))
            now = time.monotonic()
            for proc, (seen, tables) in list(self._remote.items()):
                if not self._fresh(seen, now):
                    del self._remote[proc]
                    for code in tables:
                        if code in self.slots:
                            self._presence_changed(self.slots[code], publish=False)
            for code, slot in list(self.slots.items()):
                if (
                    not slot.conns
                    and slot.timer is None
                    and now - slot.touched > self.config.idle_evict_s
                    and not slot.table.lock.locked()
                ):
                    del self.slots[code]
