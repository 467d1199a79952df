"""The game record: one JSON document per match, written from a ``Match`` and read back.

A record holds everything needed to re-play a match through the engine and
check it (see ``callbreak.record.replay``): the rules with every option, the
hands as dealt, every decision in order and what the engine made of them
(trick winners, points, running totals).  The derived parts are redundant on
purpose: they let a reader use a record without an engine, and they let the
replay catch a record that was edited or written by a different rule set.

The format is documented field by field in ``docs/record-format.md``; bump
``FORMAT`` whenever a reader of the old version could misread the new one.

>>> import random
>>> from callbreak import Match, Rules
>>> match = Match(Rules.preset("callbreak"), seed=5)
>>> rng = random.Random(5)
>>> for _ in range(20):
...     match.act(rng.choice(match.legal()))
>>> record = match_record(match)
>>> record["format"], len(record["seats"]), record["result"]["complete"]
('callbreak-record/1', 4, False)
>>> loads(dumps(record)) == record
True
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from callbreak.cards import CARD_NAMES, hand_names
from callbreak.engine.deal import VOID, Deal
from callbreak.engine.match import Match
from callbreak.points import Points

FORMAT = "callbreak-record/1"
"""The value of every record's ``"format"`` field: the format's name and major version."""

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


# ------------------------------------------------------------------ writing
def match_record(
    match: Match, seats: Sequence[SeatSpec] | None = None, seed: int | None = None
) -> Record:
    """The record of ``match`` as it stands now: finished, or stopped in the middle of a deal.

    ``seats`` names the seats and what played them (default ``Seat 0``.. and
    ``unknown``); ``seed`` overrides ``match.seed`` for a match the caller built
    from given hands but whose origin it knows.  Void deals are included
    because a redeal changes what came after it (the same dealer deals again),
    and the deal in progress is included so that an unfinished match can be
    resumed from its record.
    """
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
    return {
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


def _deal_record(
    deal: Deal,
    number: int,
    tie_break: bool,
    counting_seats: Sequence[int],
    totals: Sequence[Points] | None,
) -> Record:
    tricks: list[Record] = [
        {"leader": leader, "cards": [CARD_NAMES[c] for c in cards], "winner": winner}
        for leader, cards, winner in deal.history
    ]
    if deal.trick:
        tricks.append({"leader": deal.leader, "cards": [CARD_NAMES[c] for c in deal.trick]})
    points = deal.points if deal.over else None
    return {
        "number": number,
        "dealer": deal.dealer,
        "seed": deal.seed,
        "hands": [hand_names(mask) for mask in deal.dealt],
        "misdeal_claims": [{"seat": seat, "claim": claim} for seat, claim in deal.claims],
        "declarations": [{"seat": seat, "declared": said} for seat, said in deal.declared],
        "calls": list(deal.calls),
        "tricks": tricks,
        "void": deal.void_reason,
        "tie_break": tie_break,
        "counting_seats": list(counting_seats),
        "points": None if points is None else [p.json() for p in points],
        "totals": None if totals is None else [t.json() for t in totals],
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
            name, player = spec
        else:
            name, player = spec.get("name", name), spec.get("player", player)
        if not isinstance(name, str) or not isinstance(player, str):
            raise ValueError(f"seat {i}: the name and the player must be strings")
        out.append({"name": name, "player": player})
    return out


# ------------------------------------------------------------- text and files
def check_format(document: object, where: str = "record") -> Record:
    """``document`` as a record if its ``"format"`` is one this code reads, else a RecordError.

    Checking the version before anything else turns "some other JSON file" and
    "a record from a newer version" into one clear message instead of a
    confusing failure deep inside the replay.
    """
    if not isinstance(document, dict):
        raise RecordError(f"{where}: a record is a JSON object, not {type(document).__name__}")
    found = document.get("format")
    if found is None:
        raise RecordError(
            f'{where}: no "format" field: this is not a callbreak game record '
            f'(expected "format": "{FORMAT}")'
        )
    if found != FORMAT:
        raise RecordError(f'{where}: unsupported format {found!r}: this version reads "{FORMAT}"')
    return document


def dumps(record: Mapping[str, Any], *, pretty: bool = False) -> str:
    """A record as JSON text: one line (for JSON Lines), or indented for people and diffs.

    The pretty form keeps short lists (a hand, a trick) on one line, so a
    whole match stays readable and a changed card shows up as a one-line diff.
    """
    if pretty:
        return _pretty(record, 0, 0)
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def loads(text: str, where: str = "record") -> Record:
    """One record from JSON text; bad JSON or a wrong ``"format"`` is a RecordError."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(
            f"{where}: not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})"
        ) from None
    return check_format(document, where)


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
    """Every record in a file: one JSON document (or a JSON list), or JSON Lines.

    The form is recognised from the content as well as the name, so a JSON
    Lines file called ``.json`` still reads; an error names the file and line.
    """
    source = Path(path)
    text = source.read_text(encoding="utf-8")
    if not text.strip():
        raise RecordError(f"{source}: the file is empty: no record in it")
    if source.suffix != ".jsonl":
        try:
            document = json.loads(text)
        except json.JSONDecodeError as error:
            if error.msg != "Extra data":
                raise RecordError(
                    f"{source}: not valid JSON (line {error.lineno}, column {error.colno}: "
                    f"{error.msg})"
                ) from None
        else:
            if isinstance(document, list):
                return [
                    check_format(item, f"{source}, record {i + 1}")
                    for i, item in enumerate(document)
                ]
            return [check_format(document, str(source))]
    records = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            records.append(loads(line, f"{source}, line {number}"))
    return records
