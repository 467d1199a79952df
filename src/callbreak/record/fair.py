"""Provably fair deals: a commitment to a secret seed, the players' contributions, and the check.

An online table must not let anyone know the deals in advance, and it must let
every player check afterwards that the deals were not chosen.  The scheme
``callbreak-fair/1`` does it with SHA-256 alone (``docs/fair-tables.md`` says
the same for players):

- the server draws a secret ``seed`` and a ``salt``, 32 random bytes each, and
  publishes ``commitment = SHA-256(seed ‖ salt)`` before anyone joins;
- each player may send a ``contribution`` of 32 random bytes with its join
  (the host with its Start), kept secret until the match is over;
- the match seed is the first 8 bytes, big-endian, shifted right by one bit,
  of ``SHA-256(MATCH_LABEL ‖ seed ‖ c_0 ‖ … ‖ c_{n-1})``, where ``c_i`` is
  seat ``i``'s contribution or 32 zero bytes when it sent none;
- every deal follows from the match seed as in any match (``Match.deal_seed``).

After the match the seed, the salt and the contributions are revealed in the
record (its ``"fair"`` object); ``verify_seed`` redoes every step.  All values
travel as lowercase hex so that a reader in any language (a browser) checks
them without big integers, except the record's own ``"seed"``.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from callbreak.engine.deal import Deal
from callbreak.record.format import Record, RecordError, check_format, json_text, upgrade
from callbreak.record.replay import replay

SCHEME = "callbreak-fair/1"
"""The value of the ``"scheme"`` field: which layout of bytes the hashes use."""

SECRET_BYTES = 32
"""Length of the seed, the salt and a contribution (SHA-256's own size)."""

MATCH_LABEL = b"callbreak-match-seed/1"
"""Prefix of the match seed's hash input: it can never equal a commitment's input."""

NO_CONTRIBUTION = bytes(SECRET_BYTES)
"""What a seat that sent no contribution adds to the match seed."""


def new_secret() -> bytes:
    """32 bytes from the operating system's cryptographic generator."""
    return secrets.token_bytes(SECRET_BYTES)


def commitment(seed: bytes, salt: bytes) -> str:
    """SHA-256(seed ‖ salt) as hex: what the table publishes before the first card."""
    return hashlib.sha256(seed + salt).hexdigest()


def match_seed(seed: bytes, contributions: Sequence[bytes | None]) -> int:
    """The match seed (63 bits) that follows from the server's seed and the contributions.

    >>> match_seed(bytes(32), [None, None, None, None]) == match_seed(bytes(32), [bytes(32)] * 4)
    True
    >>> 0 <= match_seed(b"\\x01" * 32, [b"\\x02" * 32, None]) < 2**63
    True
    """
    parts = [MATCH_LABEL, seed, *(c if c is not None else NO_CONTRIBUTION for c in contributions)]
    digest = hashlib.sha256(b"".join(parts)).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def parse_hex(value: object, what: str, size: int = SECRET_BYTES) -> bytes:
    """``value`` as ``size`` bytes written in hex; a ValueError names ``what`` and the reason.

    >>> parse_hex("AB" * 32, "salt") == b"\\xab" * 32
    True
    >>> parse_hex("abc", "salt")
    Traceback (most recent call last):
    ...
    ValueError: salt must be 32 bytes written as 64 hex digits, not 'abc'
    """
    shown = repr(value) if len(repr(value)) <= 80 else repr(value)[:77] + "..."
    why = f"{what} must be {size} bytes written as {2 * size} hex digits, not {shown}"
    if not isinstance(value, str) or len(value) != 2 * size:
        raise ValueError(why)
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise ValueError(why) from None


def fair_record(seed: bytes, salt: bytes, contributions: Sequence[bytes | None]) -> dict[str, Any]:
    """The record's ``"fair"`` object: everything a reader needs to redo the check."""
    return {
        "scheme": SCHEME,
        "commitment": commitment(seed, salt),
        "seed": seed.hex(),
        "salt": salt.hex(),
        "contributions": [None if c is None else c.hex() for c in contributions],
    }


@dataclass(frozen=True)
class SeedCheck:
    """What ``verify_seed`` confirmed."""

    commitment: str
    match_seed: int
    contributions: int
    """Seats that sent a contribution."""
    deals: int
    """Deals re-dealt from the revealed seed and found equal to the record's."""


def verify_seed(record: Mapping[str, Any]) -> SeedCheck:
    """Check that ``record``'s deals follow from the seed its table committed to.

    In order: the revealed seed and salt hash to the commitment; the match seed
    follows from the seed and the contributions; the record replays (every
    action legal, every total right: ``replay``); and every deal, re-dealt
    from the shuffle seed the match seed gives it, has exactly the recorded
    layout.  The first failure raises a ``RecordError`` naming what failed.
    """
    data = upgrade(check_format(dict(record)))
    fair = _fair_fields(data)
    seed = _hex(fair, "seed")
    salt = _hex(fair, "salt")
    committed = _hex(fair, "commitment").hex()
    computed = commitment(seed, salt)
    if computed != committed:
        raise RecordError(
            f"fair.commitment: the table committed to {committed}, but SHA-256 of the revealed "
            f"seed and salt is {computed}: the seed or the salt is not the one committed to"
        )
    contributions = _contributions(fair, data)
    expected = match_seed(seed, contributions)
    if data.get("seed") != expected:
        raise RecordError(
            f"seed: the match seed is {json_text(data.get('seed'))} in the record, but the "
            f"revealed seed and contributions give {expected}"
        )
    report = replay(data)
    match = report.match
    deals = [entry.deal for entry in match.entries]
    if not match.over and (not deals or deals[-1] is not match.deal):
        deals.append(match.deal)
    recorded = data["deals"]
    for index, (deal, label) in enumerate(zip(deals, _labels(recorded), strict=False)):
        shuffle = match.deal_seed(index)
        if recorded[index].get("seed") != shuffle:
            raise RecordError(
                f"{label}: the shuffle seed is {json_text(recorded[index].get('seed'))} in the "
                f"record, but the match seed gives {shuffle}"
            )
        fresh = Deal(
            match.rules,
            seed=shuffle,
            dealer=deal.dealer,
            context=deal.context,
            hand_size=deal.hand_size,
        )
        _same_layout(recorded[index], fresh, label)
    return SeedCheck(
        committed, expected, sum(1 for c in contributions if c is not None), len(deals)
    )


def _fair_fields(data: Record) -> Mapping[str, Any]:
    if data.get("practice") is True:
        raise RecordError(
            "practice: this match was played at a practice table, whose host chose the seed: "
            "there is no commitment to verify"
        )
    fair = data.get("fair")
    if fair is None:
        raise RecordError(
            'fair: the record holds no commitment (only fair online tables write a "fair" '
            "object), so there is no seed to verify"
        )
    if not isinstance(fair, Mapping):
        raise RecordError(f"fair: expected a JSON object, found {type(fair).__name__}")
    if fair.get("scheme") != SCHEME:
        raise RecordError(
            f"fair.scheme: unknown scheme {fair.get('scheme')!r}: this version reads {SCHEME!r}"
        )
    return fair


def _hex(fair: Mapping[str, Any], key: str) -> bytes:
    try:
        return parse_hex(fair.get(key), f"fair.{key}")
    except ValueError as error:
        raise RecordError(str(error)) from None


def _contributions(fair: Mapping[str, Any], data: Record) -> list[bytes | None]:
    values = fair.get("contributions")
    players = len(data.get("seats") or []) or None
    if not isinstance(values, list) or (players is not None and len(values) != players):
        raise RecordError(
            "fair.contributions: must list one contribution (hex, or null) per seat, "
            f"not {json_text(values)}"
        )
    out: list[bytes | None] = []
    for seat, value in enumerate(values):
        if value is None:
            out.append(None)
            continue
        try:
            out.append(parse_hex(value, f"fair.contributions, seat {seat}"))
        except ValueError as error:
            raise RecordError(str(error)) from None
    return out


def _labels(deals: Sequence[Any]) -> list[str]:
    """``deal N``, and ``deal N (redeal K)`` for a deal that repeats a number (as the replay)."""
    labels: list[str] = []
    seen: dict[Any, int] = {}
    for deal in deals:
        number = deal.get("number") if isinstance(deal, Mapping) else None
        count = seen.get(number, 0)
        seen[number] = count + 1
        labels.append(f"deal {number}" + (f" (redeal {count})" if count else ""))
    return labels


def _same_layout(recorded: Mapping[str, Any], dealt: Deal, label: str) -> None:
    """The recorded layout (already checked by the replay) against the one the shuffle seed
    deals, hands compared as sets of cards; the first difference names the seat (or the nest,
    the face-up card, the stock)."""
    why = "is not what the revealed seed deals"
    names = dealt.deck.names

    def canonical(cards: Sequence[str]) -> list[str]:  # the replay accepted every spelling
        return [names[dealt.deck.parse(card)] for card in cards]

    for seat, hand in enumerate(recorded["hands"]):
        cards = dealt.names_of(dealt.dealt[seat])
        if set(canonical(hand)) != set(cards):
            raise RecordError(f"{label}, seat {seat}: the recorded hand {why} ({' '.join(cards)})")
    if set(canonical(recorded["nest"])) != set(dealt.names_of(dealt.nest)):
        raise RecordError(f"{label}, nest: the recorded nest {why}")
    upcard = None if dealt.upcard is None else names[dealt.upcard]
    stock = [names[card] for card in dealt.dealt_stock]
    given = canonical([recorded["upcard"]]) if recorded["upcard"] is not None else [None]
    if given[0] != upcard or canonical(recorded["stock"]) != stock:
        raise RecordError(f"{label}, stock: the recorded face-up card or stock {why}")
