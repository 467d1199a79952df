"""The game record: one JSON document per match, written from a ``Match`` and read back.

A record holds everything needed to re-play a match through the engine and
check it (see ``callbreak.record.replay``): the rules with every option, each
deal's layout as dealt (hands, nest, face-up card, stock) and every decision
in order, by seat and phase.  What the engine made of them (bids, contract,
trump, tricks, points, running totals) is written too, redundantly and on
purpose: it lets a reader use a record without an engine, and it lets the
replay catch a record that was edited or written by a different rule set.

The format is documented field by field in ``docs/record-format.md``; bump
``FORMAT`` whenever a reader of the old version could misread the new one.
Records of the previous version (``FORMAT_V1``, Call Break games only) are
still read: ``upgrade`` converts them, and ``loads``/``read_records`` do so
on reading, so the rest of the program only ever sees the current version.

>>> import random
>>> from callbreak import Match, Rules
>>> match = Match(Rules.preset("callbreak"), seed=5)
>>> rng = random.Random(5)
>>> for _ in range(20):
...     match.act(rng.choice(match.legal()))
>>> record = match_record(match)
>>> record["format"], len(record["seats"]), record["result"]["complete"]
('callbreak-record/2', 4, False)
>>> record["deals"][0]["actions"][0]["phase"] in ("misdeal", "call")
True
>>> loads(dumps(record)) == record
True
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from callbreak.engine.deal import PLAY, VOID, Deal
from callbreak.engine.match import Match
from callbreak.points import Points

FORMAT = "callbreak-record/2"
"""The value of every record's ``"format"`` field: the format's name and major version."""

FORMAT_V1 = "callbreak-record/1"
"""The previous version (Call Break games only): read and converted by ``upgrade``."""

READABLE = (FORMAT, FORMAT_V1)
"""Every version this code reads."""

Record = dict[str, Any]
"""A record as plain JSON data (dicts, lists, str, int, float, bool, None)."""

SeatSpec = Mapping[str, str] | tuple[str, str] | str
"""How a caller describes a seat: ``{"name": .., "player": ..}``, ``(name, player)`` or a player."""

PRETTY_WIDTH = 100
"""Pretty records keep a value on one line while it fits in this many columns."""


class RecordError(ValueError):
    """A record that cannot be read or does not replay; the message starts with where.

    The location comes first ("deal 3, trick 5, seat 2: ...") so that a person
    can go straight to the offending spot in the file.
    """


def json_text(value: Any) -> str:
    """A value as the record spells it, for a message about it: ``true``, ``null``, ``"S"``,
    never Python's ``True`` or ``None``, which its writer never typed.

    >>> json_text(True), json_text(None), json_text("S"), json_text([1, False])
    ('true', 'null', '"S"', '[1, false]')
    """
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):  # not a JSON value (a record built in Python)
        return repr(value)


# ------------------------------------------------------------------ writing
def match_record(
    match: Match,
    seats: Sequence[SeatSpec] | None = None,
    seed: int | None = None,
    *,
    fair: Mapping[str, Any] | None = None,
    practice: bool = False,
) -> Record:
    """The record of ``match`` as it stands now: finished, or stopped in the middle of a deal.

    ``seats`` names the seats and what played them (default ``Seat 0``.. and
    ``unknown``); ``seed`` overrides ``match.seed`` for a match the caller built
    from given hands but whose origin it knows.  An online table adds ``fair``
    (its revealed commitment, ``callbreak.record.fair.fair_record``) or marks a
    ``practice`` table, whose host chose the seed; other records have neither
    field, so records written before them read the same.  Void deals are included
    because a redeal changes what came after it (the same dealer deals again),
    and the deal in progress is included so that an unfinished match can be
    resumed from its record.
    """
    if not isinstance(match, Match):
        raise TypeError(
            f"match_record records a callbreak.Match, not {type(match).__name__}: "
            "a Deal on its own is no match (play it in Match(rules, seed=...))"
        )
    players = match.players
    draw = match.dealer_draw
    deals: list[Record] = []
    recorded: set[int] = set()
    for entry in match.entries:
        recorded.add(id(entry.deal))
        deals.append(
            _deal_record(
                entry.deal, entry.number, entry.tie_break, entry.counting_seats, entry.totals
            )
        )
    current = match.deal
    if not match.over and id(current) not in recorded:
        # A deal thrown in as it was dealt has no entry yet but already leaves the totals alone.
        totals = tuple(match.totals) if current.phase == VOID else None
        deals.append(
            _deal_record(current, match.deal_number, match.tie_break, match.counting_seats, totals)
        )
    record: Record = {
        "format": FORMAT,
        "rules": match.rules.to_dict(),
        "seats": _seats(seats, players),
        "seed": match.seed if seed is None else seed,
        "first_dealer": {
            "method": draw.method,
            "dealer": draw.dealer,
            "draws": [[[seat, card] for seat, card in round_] for round_ in draw.rounds],
        },
        "deals": deals,
        "result": {
            "complete": match.over,
            "totals": [total.json() for total in match.totals],
            "winners": list(match.winners),
        },
    }
    if fair is not None:
        record["fair"] = dict(fair)
    if practice:
        record["practice"] = True
    return record


def deal_actions(deal: Deal) -> list[Record]:
    """Every decision of ``deal`` in order as ``{"phase", "seat", "action"}``: the decisions
    before the play as the engine logged them, then each card played, seat by seat."""
    actions: list[Record] = [
        {"phase": phase, "seat": seat, "action": action} for phase, seat, action in deal.log
    ]
    names = deal.deck.names
    played = [(leader, cards) for leader, cards, _ in deal.history]
    if deal.trick:
        played.append((deal.leader, tuple(deal.trick)))
    for leader, cards in played:
        seat = leader
        for card in cards:
            actions.append({"phase": PLAY, "seat": seat, "action": names[card]})
            seat = deal.next_seat(seat)
    return actions


def _deal_record(
    deal: Deal,
    number: int,
    tie_break: bool,
    counting_seats: Sequence[int],
    totals: Sequence[Points] | None,
) -> Record:
    names = deal.deck.names
    tricks: list[Record] = [
        {"leader": leader, "cards": [names[c] for c in cards], "winner": winner}
        for leader, cards, winner in deal.history
    ]
    if deal.trick:
        tricks.append({"leader": deal.leader, "cards": [names[c] for c in deal.trick]})
    points = deal.points if deal.over else None
    return {
        "number": number,
        "dealer": deal.dealer,
        "seed": deal.seed,
        "dealt_in": list(deal.dealt_in),
        "active": list(deal.active),
        "hands": [deal.names_of(mask) for mask in deal.dealt],
        "nest": deal.names_of(deal.nest),
        "upcard": None if deal.upcard is None else names[deal.upcard],
        "stock": [names[card] for card in deal.dealt_stock],
        "actions": deal_actions(deal),
        "misdeal_claims": [{"seat": seat, "claim": claim} for seat, claim in deal.claims],
        "calls": list(deal.calls),
        "declarations": [{"seat": seat, "declared": said} for seat, said in deal.declared],
        "bids": [{"seat": seat, "bid": bid} for seat, bid in deal.bids],
        "contract": deal.contract,
        "declarer": deal.declarer,
        "discards": deal.names_of(deal.discards),
        "trump": deal.trump,
        "partner_card": None if deal.partner_card is None else names[deal.partner_card],
        "partner": deal.partner,
        "dropped": sorted(deal.dropped),
        "exchanges": [{"seat": seat, "cards": count} for seat, count in deal.exchanges],
        "reversed_ranks": deal.reversed_ranks,
        "settled": deal.settled,
        "context": deal_context(deal),
        "tricks": tricks,
        "unplayed": deal.unplayed,
        "void": deal.void_reason,
        "tie_break": tie_break,
        "counting_seats": list(counting_seats),
        "points": None if points is None else [p.json() for p in points],
        "totals": None if totals is None else [t.json() for t in totals],
    }


def deal_context(deal: Deal) -> Record | None:
    """What the match told ``deal`` (``engine.games.Context``), for games whose deals read it
    (Snarples, Donut): ``None`` for the others.  A deal built without a match has empty lists.

    It is written although the replay could work it out, because it is what the deal's own
    rules turned on (who may sit out, who names trump, who is dealt in, who pays for sitting
    out): a reader of one deal sees why it went as it did without replaying the match.
    """
    if not deal.spec.needs_context:
        return None
    context = deal.context
    return {
        "scores": [total.json() for total in context.totals],
        "out": sorted(context.out),
        "sat_out": list(context.sat_out),
    }


def _seats(seats: Sequence[SeatSpec] | None, players: int) -> list[dict[str, str]]:
    if seats is None:
        return [{"name": f"Seat {i}", "player": "unknown"} for i in range(players)]
    if isinstance(seats, str) or len(seats) != players:
        raise ValueError(f"give {players} seats, one per seat in seat order")
    out = []
    for i, spec in enumerate(seats):
        name, player = f"Seat {i}", "unknown"
        if isinstance(spec, str):
            player = spec
        elif isinstance(spec, tuple):
            if len(spec) != 2:
                raise ValueError(f"seat {i}: a seat as a tuple is (name, player), not {spec!r}")
            name, player = spec
        else:
            name, player = spec.get("name", name), spec.get("player", player)
        if not isinstance(name, str) or not isinstance(player, str):
            raise ValueError(f"seat {i}: the name and the player must be strings")
        out.append({"name": name, "player": player})
    return out


# ------------------------------------------------------- version 1 → version 2
def upgrade(record: Record) -> Record:
    """``record`` in the current version: a version-1 record is converted, a current one is
    returned as it is.

    Version 1 recorded only Call Break games, whose deals are four hands of
    thirteen with spades trump and no auction, so every version-2 field follows
    from it: the actions are the misdeal decisions, the calls in turn from the
    seat after the dealer, the void declarations and the cards of each trick
    from its leader.  Nothing is judged here (a call out of turn or an illegal
    card converts as recorded); ``replay`` finds and names such faults.  Only a
    deal too malformed to convert is an error, named by its place in the list.
    """
    if record.get("format") != FORMAT_V1:
        return record
    deals = record.get("deals")
    if not isinstance(deals, list):
        raise RecordError(f"deals: deals must be a list, not {json_text(deals)}")
    out = {key: value for key, value in record.items() if key != "deals"}
    out["format"] = FORMAT
    out["deals"] = [_upgrade_deal(deal, f"deals[{i}]") for i, deal in enumerate(deals)]
    return out


def _v1_field(deal: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
    value = deal.get(key)
    if not isinstance(value, kind):
        raise RecordError(f"{where}: {key} must be a {kind.__name__} in a version-1 record")
    return value


def _upgrade_deal(deal: Any, where: str) -> Record:
    if not isinstance(deal, dict):
        raise RecordError(f"{where}: expected a JSON object, found {type(deal).__name__}")
    hands = _v1_field(deal, "hands", list, where)
    players = len(hands)
    dealer = _v1_field(deal, "dealer", int, where)
    claims = _v1_field(deal, "misdeal_claims", list, where)
    calls = _v1_field(deal, "calls", list, where)
    declarations = _v1_field(deal, "declarations", list, where)
    tricks = _v1_field(deal, "tricks", list, where)
    actions: list[Record] = []
    for claim in claims:
        item = claim if isinstance(claim, dict) else {}
        actions.append({"phase": "misdeal", "seat": item.get("seat"), "action": item.get("claim")})
    for offset in range(1, len(calls) + 1):
        seat = (dealer + offset) % len(calls)
        if calls[seat] is not None:
            actions.append({"phase": "call", "seat": seat, "action": calls[seat]})
    for declaration in declarations:
        item = declaration if isinstance(declaration, dict) else {}
        actions.append(
            {"phase": "declare", "seat": item.get("seat"), "action": item.get("declared")}
        )
    for number, trick in enumerate(tricks, 1):
        place = f"{where}, trick {number}"
        if not isinstance(trick, dict):
            raise RecordError(f"{place}: expected a JSON object, found {type(trick).__name__}")
        leader = _v1_field(trick, "leader", int, place)
        for offset, card in enumerate(_v1_field(trick, "cards", list, place)):
            actions.append({"phase": PLAY, "seat": (leader + offset) % players, "action": card})
    return {
        "number": deal.get("number"),
        "dealer": dealer,
        "seed": deal.get("seed"),
        "dealt_in": list(range(players)),
        "active": list(range(players)),
        "hands": hands,
        "nest": [],
        "upcard": None,
        "stock": [],
        "actions": actions,
        "misdeal_claims": claims,
        "calls": calls,
        "declarations": declarations,
        "bids": [],
        "contract": None,
        "declarer": None,
        "discards": [],
        "trump": "S",  # Call Break: spades, always
        "partner_card": None,
        "partner": None,
        "dropped": [],
        "exchanges": [],
        "reversed_ranks": False,
        "settled": None,
        "context": None,
        "tricks": tricks,
        "unplayed": None,
        "void": deal.get("void"),
        "tie_break": deal.get("tie_break"),
        "counting_seats": deal.get("counting_seats"),
        "points": deal.get("points"),
        "totals": deal.get("totals"),
    }


# ------------------------------------------------------------- text and files
def check_format(document: object, where: str = "record") -> Record:
    """``document`` as a record if its ``"format"`` is one this code reads, else a RecordError.

    Checking the version before anything else turns "some other JSON file" and
    "a record from a newer version" into one clear message instead of a
    confusing failure deep inside the replay.  The document is returned as it
    is, in whichever version it is written (``upgrade`` converts).
    """
    if not isinstance(document, dict):
        raise RecordError(f"{where}: a record is a JSON object, not {type(document).__name__}")
    found = document.get("format")
    if found is None:
        raise RecordError(
            f'{where}: no "format" field: this is not a callbreak game record '
            f'(expected "format": "{FORMAT}")'
        )
    if found not in READABLE:
        raise RecordError(
            f'{where}: unsupported format {json_text(found)}: this version reads "{FORMAT}" '
            f'(and converts "{FORMAT_V1}")'
        )
    return document


def _read(document: object, where: str) -> Record:
    """A document read from text: checked, and converted to the current version."""
    record = check_format(document, where)
    try:
        return upgrade(record)
    except RecordError as error:
        raise RecordError(f"{where}: {error}") from None


def dumps(record: Mapping[str, Any], *, pretty: bool = False) -> str:
    """A record as JSON text: one line (for JSON Lines), or indented for people and diffs.

    The pretty form keeps short lists (a hand, a trick) on one line, so a
    whole match stays readable and a changed card shows up as a one-line diff.
    """
    if pretty:
        return _pretty(record, 0, 0)
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
"""A ``\\uD800``..``\\uDFFF`` escape: half of a pair, or a pair (which is fine)."""


def plain_json(text: str, where: str) -> Any:
    """``json.loads``, refusing what JSON allows but a record (or a log) cannot be: nesting
    deeper than Python reads, and strings with a lone surrogate (``"\\ud800"``), which are
    not text and cannot be printed or written back as UTF-8.  Bad JSON still raises
    ``json.JSONDecodeError``; the rest a ``RecordError`` naming ``where``."""
    try:
        document = json.loads(text)
    except RecursionError:
        raise RecordError(f"{where}: nested too deeply to be a record") from None
    if _SURROGATE_ESCAPE.search(text):  # text read as UTF-8 holds none but as an escape
        try:
            json.dumps(document, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError as error:
            bad = error.object[error.start : error.end].encode("unicode_escape").decode()
            raise RecordError(
                f"{where}: holds {bad}, half of a character, which is not text"
            ) from None
    return document


def loads(text: str, where: str = "record") -> Record:
    """One record from JSON text, in the current version (a version-1 record is converted);
    bad JSON or an unknown ``"format"`` is a RecordError."""
    try:
        document = plain_json(text, where)
    except json.JSONDecodeError as error:
        raise RecordError(
            f"{where}: not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})"
        ) from None
    return _read(document, where)


def _pretty(value: Any, indent: int, column: int) -> str:
    """JSON for ``value`` starting at ``column``, its inner lines indented by ``indent`` + 2."""
    flat = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, (dict, list)) or not value or column + len(flat) < PRETTY_WIDTH:
        return flat
    inner = indent + 2
    pad = " " * inner
    if isinstance(value, dict):
        items = []
        for key, item in value.items():
            head = json.dumps(key, ensure_ascii=False) + ": "
            items.append(pad + head + _pretty(item, inner, inner + len(head)))
    else:
        items = [pad + _pretty(item, inner, inner) for item in value]
    close = "}" if isinstance(value, dict) else "]"
    return ("{" if close == "}" else "[") + "\n" + ",\n".join(items) + "\n" + " " * indent + close


PathLike = str | os.PathLike[str]


def write_record(path: PathLike, record_or_records: Mapping[str, Any] | Sequence[Any]) -> None:
    """Write one record as pretty JSON, or JSON Lines (one match per line).

    JSON Lines is used for a ``.jsonl`` path or whenever a list is given: many
    matches (an arena run) then append and stream line by line.
    """
    target = Path(path)
    if isinstance(record_or_records, Mapping):
        records: list[Any] = [record_or_records]
        lines = target.suffix == ".jsonl"
    else:
        records, lines = list(record_or_records), True
    for i, record in enumerate(records):
        check_format(record, f"record {i + 1}" if lines else "record")
    if lines:
        text = "".join(dumps(record) + "\n" for record in records)
    else:
        text = dumps(records[0], pretty=True) + "\n"
    target.write_text(text, encoding="utf-8")


def read_records(path: PathLike) -> list[Record]:
    """Every record in a file: one JSON document (or a JSON list), or JSON Lines, each in the
    current version (version-1 records are converted as they are read).

    The form is recognised from the content as well as the name, so a JSON
    Lines file called ``.json`` still reads; an error names the file and line.
    """
    source = Path(path)
    try:
        text = source.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise RecordError(
            f"{source}: not UTF-8 text (byte {error.start}): a record is JSON in UTF-8"
        ) from None
    if not text.strip():
        raise RecordError(f"{source}: the file is empty: no record in it")
    if source.suffix != ".jsonl":
        try:
            document = plain_json(text, str(source))
        except json.JSONDecodeError as error:
            if error.msg != "Extra data":
                raise RecordError(
                    f"{source}: not valid JSON (line {error.lineno}, column {error.colno}: "
                    f"{error.msg})"
                ) from None
        else:
            if isinstance(document, list):
                return [_read(item, f"{source}, record {i + 1}") for i, item in enumerate(document)]
            return [_read(document, str(source))]
    records = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            records.append(loads(line, f"{source}, line {number}"))
    return records
