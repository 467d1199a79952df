"""The FastAPI app: pages, the JSON API, and the table WebSocket.

HTTP does what happens once (create a table, take a seat, download a record);
the WebSocket carries the game.  A seat is proved by its secret token — given
once when the seat is taken, kept by the browser (and in an HttpOnly cookie),
stored only hashed — so the invite link can be shared freely.

Nobody chooses the deals of a table others can join: the server draws its seed,
commits to it before anyone joins, and mixes in each player's contribution
(``callbreak.record.fair``).  A seed sent with a new table is accepted only for
a practice table, which nobody else may join.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import unicodedata
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, MutableMapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import Body, FastAPI, HTTPException, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import AfterValidator, BaseModel, Field
from starlette.websockets import WebSocketDisconnect

from callbreak.bots.levels import LEVELS
from callbreak.engine.deal import MAX_SEED
from callbreak.faces import face_tables
from callbreak.record import RecordError, verify_seed
from callbreak.record.fair import parse_hex
from callbreak.rules import OPTION_BY_NAME, Rules
from callbreak.server.bus import LocalBus, RedisBus
from callbreak.server.config import GRACE_MAX_S, ServerConfig, channel_for
from callbreak.server.hub import (
    CODE_ALPHABET,
    CODE_LENGTH,
    NAME_MAX,
    Conn,
    Hub,
    TableSlot,
    game_levels,
    hash_token,
    table_bots,
)
from callbreak.server.protocol import (
    CLOSE_BAD_TOKEN,
    CLOSE_NO_TABLE,
    CLOSE_POLICY,
    CLOSE_TOO_BIG,
    ERROR_CODES,
    Act,
    Hello,
    Hint,
    Message,
    ProtocolError,
    Start,
    TokenBucket,
    error_message,
    parse,
)
from callbreak.server.review import TableReviews, table_review
from callbreak.server.store import Store

STATIC = Path(__file__).parent / "static"
COOKIE_AGE_S = 14 * 24 * 3600
MAX_BODY_BYTES = 16 * 1024
MAX_SEATS = 8
"""The most seats any game of the family has (Snarples)."""
HEALTH_DB_S = 3.0
"""How long ``/healthz`` waits for the database before it reports it unreachable."""
VERIFIED_KEPT = 256
"""Finished matches whose seed check the server keeps, so a result card asks it only once."""

log = logging.getLogger("callbreak.server")

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Embeddings, overrides and isolates: they reorder the text after them.  The joiners that
Devanagari and emoji need (U+200C, U+200D) are letters' business and stay allowed."""


def _visible(name: str) -> str:
    """A player's name without the spaces around it; one of only spaces is no name, and
    control or format characters (a NUL, which PostgreSQL cannot store; a right-to-left
    override, which would turn the names after it around) have no place in one."""
    name = name.strip()
    if not any(unicodedata.category(c)[0] not in "ZC" for c in name):  # U+200B alone too
        raise ValueError("a name needs a visible character, not only spaces")
    hidden = [
        c for c in name if unicodedata.category(c) in ("Cc", "Zl", "Zp") or c in _BIDI_CONTROLS
    ]
    if hidden:
        raise ValueError(
            f"a name may not hold control characters or direction overrides "
            f"(found U+{ord(hidden[0]):04X})"
        )
    return name


PlayerName = Annotated[str, Field(min_length=1, max_length=NAME_MAX), AfterValidator(_visible)]


def _contribution(value: str | None) -> str | None:
    if value is not None:
        parse_hex(value, "a contribution")  # raises with the reason
    return value


Contribution = Annotated[str | None, Field(default=None), AfterValidator(_contribution)]
"""A player's random bytes for a fair table's match seed: 32 bytes as 64 hex digits."""

SEED_REFUSED = (
    'a seed can be given only for a practice table ("practice": true), which nobody else '
    "can join: at a table others join, the server draws the seed so that nobody knows the "
    "deals in advance"
)


class CreateTable(BaseModel):
    name: PlayerName
    preset: str = Field(default="callbreak", max_length=32)
    options: dict[str, str | int | float | bool | None] = Field(default_factory=dict)
    level: str = Field(default="medium", max_length=32)
    seat: int = Field(default=0, ge=0, lt=MAX_SEATS)
    grace_s: float | None = Field(default=None, ge=0, le=GRACE_MAX_S, allow_inf_nan=False)
    """Seconds; a NaN was refused as "should be less than or equal to 3600", which it is not
    (no comparison holds for it): it is refused as what it is, not a finite number."""
    seed: int | None = Field(default=None, ge=0, le=MAX_SEED)
    """Only with ``practice``: to deal known cards (tests, a rematch of a recorded match, so
    any seed a record holds)."""
    practice: bool = False
    """A table for the host alone (bots fill the other seats): nobody else may join it, and
    it alone may be given a ``seed``."""


class JoinTable(BaseModel):
    name: PlayerName
    seat: int | None = Field(default=None, ge=0, lt=MAX_SEATS)
    contribution: Contribution = None


class StartTable(BaseModel):
    contribution: Contribution = None


def _bytes(value: str | None) -> bytes | None:
    return None if value is None else bytes.fromhex(value)


def cookie_name(code: str) -> str:
    return f"cb_{code}"


def valid_code(code: str) -> bool:
    return len(code) == CODE_LENGTH and all(c in CODE_ALPHABET for c in code)


def table_rules(preset: str, options: dict[str, Any]) -> Rules:
    """The rules of a new online table; an open-ended match gets an end (``match_deals``).

    An online table has to finish to become a record, and nobody at a table of
    strangers can be trusted to call it off, so ``match_end = open`` plays
    ``match_deals`` deals instead.
    """
    rules = Rules.preset(preset).replace(**options)
    if "match_end" in rules.options() and rules.match_end == "open":
        rules = rules.replace(match_end="deals")
    return rules


def preset_meta(name: str) -> dict[str, Any]:
    """One preset as the "New table" form needs it: its game, seat counts, options, levels."""
    rules = Rules.preset(name)
    shape = rules.shape
    return {
        "title": rules.title,
        "game": rules.game,
        "seats": list(shape.seats),
        "rules": rules.to_dict(),
        "options": [
            {
                "name": option,
                "allowed": OPTION_BY_NAME[option].allowed,
                "help": OPTION_BY_NAME[option].help,
            }
            for option in rules.options()
        ],
        "levels": game_levels(rules.game),
        "lowest_wins": shape.lowest_wins,
        "start": shape.start,
    }


async def _too_large(scope: Scope, receive: Receive, send: Send) -> None:
    await JSONResponse({"detail": "request body too large"}, status_code=413)(scope, receive, send)


class _BodyLimit:
    """Refuse HTTP bodies above MAX_BODY_BYTES (no form here needs more): at once by their
    Content-Length, and a body sent in chunks without one by reading it first, up to the
    limit, then handing it on as if it had come in one piece."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for key, value in scope.get("headers", []):
            if key == b"content-length" and value.isdigit() and int(value) > MAX_BODY_BYTES:
                await _too_large(scope, receive, send)
                return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client left before its request was whole: no one to answer
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > MAX_BODY_BYTES:
                await _too_large(scope, receive, send)
                return
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> MutableMapping[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def _printable(value: Any) -> Any:
    """``value`` safe for a JSON reply: a string's lone surrogates become "?"."""
    if isinstance(value, str):
        return value.encode("utf-8", "replace").decode("utf-8")
    return value


def _lifespan(
    config: ServerConfig, reviews: TableReviews
) -> Callable[[FastAPI], contextlib.AbstractAsyncContextManager[None]]:
    """The app's start-up and shut-down: the store migrated, the bus joined, the hub run."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(config.async_db)
        await store.migrate()
        bus: LocalBus | RedisBus = (
            RedisBus(config.redis, channel_for(await store.identity()))
            if config.redis
            else LocalBus()
        )
        hub = Hub(config, store, bus)
        await hub.start()
        app.state.hub = hub
        try:
            yield
        finally:
            reviews.close()
            await hub.stop()
            await bus.close()
            await store.close()

    return lifespan


def _reason(item: Mapping[str, Any]) -> str:
    """One refusal's words: a validator's own (``_visible``: "a name needs a visible
    character, not only spaces") without the "Value error, " that pydantic puts before them,
    since the browser shows them to a player as they are; pydantic's own checks (a name too
    long) keep pydantic's words."""
    cause = item.get("ctx", {}).get("error")
    if item.get("type") == "value_error" and isinstance(cause, ValueError):
        return str(cause)
    return str(item.get("msg", ""))


async def invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
    """422 with where and why, without echoing the input: a NaN or a lone surrogate in
    it cannot be written as JSON, and the default reply turned such a 422 into a 500."""
    detail = [
        {
            "loc": [_printable(part) for part in item.get("loc", ())],
            "msg": _printable(_reason(item)),
            "type": item.get("type", ""),
        }
        for item in error.errors()
    ]
    return JSONResponse({"detail": detail}, status_code=422)


def hub_of(request: Request | WebSocket) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


async def seated(request: Request, code: str) -> tuple[TableSlot, int | None]:
    """The table of ``code`` (404 if there is none) and the seat whose token the request
    carries (``Authorization: Bearer`` or the table's cookie), None for anyone else.
    Codes are read in capitals, as the lobby shows them, however they are typed."""
    code = code.upper()
    slot = await hub_of(request).table(code) if valid_code(code) else None
    if slot is None:
        raise HTTPException(404, "there is no table with this code")
    token = request.headers.get("authorization", "").removeprefix("Bearer ").strip()
    token = token or request.cookies.get(cookie_name(code), "")
    return slot, slot.table.seat_for_token_hash(hash_token(token)) if token else None


def page() -> FileResponse:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


def seat_cookie(response: Response, code: str, token: str) -> None:
    response.set_cookie(
        cookie_name(code),
        token,
        max_age=COOKIE_AGE_S,
        httponly=True,
        samesite="lax",
        path="/",
    )


def create_app(config: ServerConfig | None = None) -> FastAPI:
    """The app for ``config``; the database is migrated and the bus joined on start-up."""
    config = config or ServerConfig()
    reviews = TableReviews()
    app = FastAPI(
        title="callbreak tables", lifespan=_lifespan(config, reviews), docs_url="/api/docs"
    )
    app.add_middleware(_BodyLimit)
    app.exception_handler(RequestValidationError)(invalid_request)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    _add_pages(app)
    _add_tables(app, reviews)
    _add_records(app, config)
    return app


def _add_pages(app: FastAPI) -> None:
    """The pages (one single-page app under three paths), the health check and the meta."""

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return page()

    @app.get("/t/{code}", include_in_schema=False)
    async def table_page(code: str) -> FileResponse:
        return page()

    @app.get("/history", include_in_schema=False)
    async def history_page() -> FileResponse:
        return page()

    @app.get("/healthz")
    async def healthz(request: Request, response: Response) -> dict[str, Any]:
        """Whether this process can serve its tables: 503 when it cannot reach the database
        (no move can be stored).  ``redis`` says whether it hears the other processes
        (``None`` without ``--redis``); without Redis it still serves, its tables catch up
        when Redis is back, so that alone is no 503 (every process would be taken out)."""
        hub = hub_of(request)
        try:
            await asyncio.wait_for(hub.store.ping(), HEALTH_DB_S)
            database = "ok"
        except Exception as error:
            database = f"unreachable: {type(error).__name__}"
        redis = ("ok" if hub.bus.connected else "unreachable") if hub.bus.distributed else None
        if database != "ok":
            response.status_code = 503
        return {
            "ok": database == "ok",
            "proc": hub.proc,
            "tables": len(hub.slots),
            "database": database,
            "redis": redis,
        }

    @app.get("/api/meta")
    async def meta() -> dict[str, Any]:
        """What the create form offers and how the page draws a game.

        Per preset: its title, game, seat counts, own options with their meaning and
        the levels whose bots play it; then the faces' per-phase and per-game tables.
        """
        return {
            "presets": {name: preset_meta(name) for name in Rules.presets()},
            "levels": list(LEVELS),
            "errors": ERROR_CODES,
            "faces": face_tables(),
        }


def _add_tables(app: FastAPI, reviews: TableReviews) -> None:
    """Creating, reading, joining and starting a table, and the review of its deals."""

    @app.post("/api/tables", status_code=201)
    async def create_table(
        request: Request, response: Response, body: Annotated[CreateTable, Body()]
    ) -> dict[str, Any]:
        if body.level not in LEVELS:
            raise HTTPException(422, f"unknown level {body.level!r}: choose {', '.join(LEVELS)}")
        if body.seed is not None and not body.practice:
            raise HTTPException(422, SEED_REFUSED)
        try:
            rules = table_rules(body.preset, dict(body.options))
        except ValueError as error:
            raise HTTPException(422, str(error)) from None
        if not 0 <= body.seat < rules.players:
            raise HTTPException(422, f"seat must be from 0 to {rules.players - 1}")
        bots, note = table_bots(body.level, rules.game)
        code, token = await hub_of(request).create(
            body.name.strip(),
            rules,
            body.level,
            body.seat,
            body.grace_s,
            body.seed,
            practice=body.practice,
        )
        seat_cookie(response, code, token)
        return {
            "code": code,
            "seat": body.seat,
            "token": token,
            "url": f"/t/{code}",
            "seat_url": f"/t/{code}#seat={token}",
            "bots": bots,
            "bot_note": note,
            "practice": body.practice,
        }

    @app.get("/api/tables/{code}")
    async def table_info(request: Request, code: str) -> dict[str, Any]:
        hub = hub_of(request)
        slot = await hub.table(code.upper()) if valid_code(code.upper()) else None
        if slot is None:
            raise HTTPException(404, "there is no table with this code")
        return slot.table.public(hub.presence(slot))

    @app.post("/api/tables/{code}/join")
    async def join_table(
        request: Request, response: Response, code: str, body: Annotated[JoinTable, Body()]
    ) -> dict[str, Any]:
        code = code.upper()
        if not valid_code(code):
            raise HTTPException(404, "there is no table with this code")
        try:
            seat, token, name = await hub_of(request).join(
                code, body.name.strip(), body.seat, _bytes(body.contribution)
            )
        except ProtocolError as error:
            status = {"no_table": 404, "practice": 403, "no_seat": 422}.get(error.code, 409)
            raise HTTPException(status, error.message) from None
        seat_cookie(response, code, token)
        return {
            "code": code,
            "seat": seat,
            "name": name,
            "token": token,
            "seat_url": f"/t/{code}#seat={token}",
        }

    @app.post("/api/tables/{code}/start")
    async def start_table(
        request: Request, code: str, body: Annotated[StartTable | None, Body()] = None
    ) -> dict[str, Any]:
        """The host starts the match, optionally with its own contribution."""
        slot, seat = await seated(request, code)
        contribution = _bytes(body.contribution) if body is not None else None
        try:
            await hub_of(request).start_match(slot, seat, contribution)
        except ProtocolError as error:
            raise HTTPException(403 if error.code == "not_host" else 409, error.message) from None
        return {"ok": True}

    @app.get("/api/tables/{code}/review")
    async def review_deal(
        request: Request, code: str, deal: int, seat: int | None = None
    ) -> dict[str, Any]:
        """The solver's review of a finished deal: your own seat's while the match is played
        (seat token), any seat's once it is over (see ``server.review``)."""
        code = code.upper()
        slot, viewer = await seated(request, code)
        return await table_review(reviews, slot.table, viewer, deal, seat)


def _add_records(app: FastAPI, config: ServerConfig) -> None:
    """The finished matches (history, records to download, their seed checks) and the
    table socket."""
    verified: dict[str, dict[str, Any]] = {}

    @app.get("/api/history")
    async def history(request: Request, limit: int = 50, offset: int = 0) -> list[dict[str, Any]]:
        limit = max(1, min(limit, 200))
        return await hub_of(request).store.history(limit, max(0, min(offset, 2**62)))

    @app.get("/api/records/{code}.json")
    async def record(request: Request, code: str) -> Response:
        code = code.upper()
        record = await hub_of(request).store.record(code) if valid_code(code) else None
        if record is None:
            raise HTTPException(404, "no finished match with this code")
        return Response(
            json.dumps(record, indent=1),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="callbreak-{code}.json"'},
        )

    @app.get("/api/records/{code}/verify")
    async def verify_record(request: Request, code: str) -> dict[str, Any]:
        """``callbreak replay --verify-seed`` run here on a finished match's record, for the
        result card (which checks the commitment and the match seed itself as well)."""
        code = code.upper()
        known = verified.get(code)
        if known is not None:  # a finished record never changes: replay it once
            return known
        record = await hub_of(request).store.record(code) if valid_code(code) else None
        if record is None:
            raise HTTPException(404, "no finished match with this code")
        answer: dict[str, Any]
        try:
            check = await asyncio.to_thread(verify_seed, record)
        except RecordError as error:
            answer = {"ok": False, "error": str(error)}
        else:
            answer = {
                "ok": True,
                "commitment": check.commitment,
                "match_seed": str(check.match_seed),
                "contributions": check.contributions,
                "deals": check.deals,
            }
        if len(verified) >= VERIFIED_KEPT:
            verified.pop(next(iter(verified)))
        verified[code] = answer
        return answer

    @app.websocket("/ws/{code}")
    async def table_socket(ws: WebSocket, code: str) -> None:
        await serve_socket(hub_of(ws), config, ws, code)


async def serve_socket(hub: Hub, config: ServerConfig, ws: WebSocket, code: str) -> None:
    """One client's socket from hello to close; see ``protocol`` for the messages."""
    await ws.accept()

    async def refuse(error: ProtocolError, close: int) -> None:
        with contextlib.suppress(Exception):
            await ws.send_text(error_message(error))
            await ws.close(close, error.code)

    code = code.upper()
    slot = await hub.table(code) if valid_code(code) else None
    if slot is None:
        await refuse(ProtocolError("no_table"), CLOSE_NO_TABLE)
        return
    try:
        first = await asyncio.wait_for(ws.receive(), timeout=15)
    except (TimeoutError, WebSocketDisconnect, RuntimeError):
        with contextlib.suppress(Exception):
            await ws.close(CLOSE_POLICY, "hello_first")
        return
    if first["type"] == "websocket.disconnect":
        return
    try:
        hello = parse(first.get("text") or "", config.max_message_bytes)
        if not isinstance(hello, Hello):
            raise ProtocolError("hello_first")
    except ProtocolError as error:
        await refuse(error, CLOSE_TOO_BIG if error.code == "too_big" else CLOSE_POLICY)
        return
    token = hello.token or ws.cookies.get(cookie_name(code))
    seat: int | None = None
    if token:
        seat = slot.table.seat_for_token_hash(hash_token(token))
        if seat is None and hello.token:
            await refuse(ProtocolError("bad_token"), CLOSE_BAD_TOKEN)
            return
    conn = Conn(ws, seat, config.send_queue)
    sender = asyncio.create_task(conn.pump())
    hub.attach(slot, conn)
    bucket = TokenBucket(config.rate_per_s, config.rate_burst)
    strikes = 0
    try:
        while not conn.closing:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            try:
                if not bucket.allow():
                    raise ProtocolError("flood")
                text = message.get("text")
                if text is None:
                    raise ProtocolError("bad_json", "send text frames with JSON")
                request = parse(text, config.max_message_bytes)
                slot = await _handle(hub, slot, conn, request)
            except ProtocolError as error:
                conn.send(error_message(error, slot.table.seq))
                if error.code == "too_big":
                    conn.close(CLOSE_TOO_BIG, "message too big")
                elif error.code in ("bad_json", "bad_message", "unknown_type", "flood"):
                    strikes += 1
                    if strikes > config.max_strikes:
                        conn.close(CLOSE_POLICY, "too many bad messages")
                elif error.code in ("stale", "not_your_turn", "illegal"):
                    hub.send_state(slot, conn)  # show the client where the table really is
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        hub.detach(slot, conn)
        conn.close(1000, "bye")
        with contextlib.suppress(Exception):
            await asyncio.wait_for(sender, timeout=5)


async def _handle(hub: Hub, slot: TableSlot, conn: Conn, request: Message) -> TableSlot:
    if isinstance(request, Act):
        if conn.seat is None:
            raise ProtocolError("not_seated")
        await hub.act(slot, conn.seat, request.seq, request.action, "human")
    elif isinstance(request, Hint):
        if conn.seat is None:
            raise ProtocolError("not_seated", "a hint is for a seated player's own turn")
        conn.send(json.dumps(await hub.hint(slot, conn.seat, request.seq), separators=(",", ":")))
    elif isinstance(request, Hello):
        raise ProtocolError("bad_message", "already said hello")
    elif isinstance(request, Start):
        await hub.start_match(slot, conn.seat, request.contribution)
    elif request.type == "sync":
        hub.send_state(slot, conn)
    elif request.type == "ping":
        conn.send('{"type":"pong"}')
    return slot
