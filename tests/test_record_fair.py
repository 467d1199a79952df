"""``verify_seed`` and ``callbreak replay --verify-seed``: a fair table's record is checked against
the seed its table committed to, and every kind of tampering is named.

The records here are made as a fair table makes them (``fair_record`` beside a match dealt
from ``match_seed``), without a server; ``test_server_fair.py`` checks the server's own.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from callbreak import Match, Rules
from callbreak.cli.main import app
from callbreak.record import RecordError, match_record, verify_seed
from callbreak.record.fair import commitment, fair_record, match_seed

SEED = bytes(range(32))
SALT = bytes(range(100, 132))
HOST = b"\x07" * 32
GUEST = b"\x99" * 32


def fair_match(preset: str = "callbreak", deals: int = 2) -> dict[str, Any]:
    """A finished match of ``preset`` as a fair table records it (two of four seats contributed)."""
    rules = Rules.preset(preset)
    if "match_deals" in rules.options():
        rules = rules.replace(match_deals=deals)
    contributions = [HOST, GUEST] + [None] * (rules.players - 2)
    match = Match(rules, seed=match_seed(SEED, contributions))
    rng = random.Random(3)
    while not match.over:
        match.act(rng.choice(match.legal()))
    return match_record(match, fair=fair_record(SEED, SALT, contributions))


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return fair_match()


def test_the_byte_layout_is_the_documented_one() -> None:
    assert commitment(SEED, SALT) == hashlib.sha256(SEED + SALT).hexdigest()
    digest = hashlib.sha256(b"callbreak-match-seed/1" + SEED + HOST + bytes(32)).digest()
    assert match_seed(SEED, [HOST, None]) == int.from_bytes(digest[:8], "big") >> 1


@pytest.mark.parametrize("preset", ["callbreak", "rook-call-partner", "horsethief", "snarples"])
def test_an_honest_record_verifies(preset: str) -> None:
    record = fair_match(preset, deals=1)
    check = verify_seed(json.loads(json.dumps(record)))  # as read back from a file
    assert check.commitment == commitment(SEED, SALT)
    assert check.match_seed == record["seed"]
    assert check.contributions == 2
    assert check.deals == len(record["deals"])


def tampered(record: dict[str, Any], change: str) -> dict[str, Any]:
    out = copy.deepcopy(record)
    fair = out["fair"]
    if change == "seed":
        fair["seed"] = "ff" + fair["seed"][2:]
    elif change == "salt":
        fair["salt"] = fair["salt"][:-2] + "00"
    elif change == "contribution":
        fair["contributions"][1] = "aa" * 32
    elif change == "hand":  # two cards change hands between seats 0 and 2
        hands = out["deals"][0]["hands"]
        hands[0][0], hands[2][0] = hands[2][0], hands[0][0]
    elif change == "match seed":
        out["seed"] += 1
    elif change == "deal seed":  # a layout "given": the replay alone cannot tell
        out["deals"][1]["seed"] = None
    return out


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ("seed", "fair.commitment: the table committed to"),
        ("salt", "fair.commitment: the table committed to"),
        ("contribution", "seed: the match seed is"),
        ("match seed", "seed: the match seed is"),
        ("hand", "deal 1, seat 0: the hand"),
        ("deal seed", "deal 1 (redeal 1): the shuffle seed is null in the record, but"),
    ],
)
def test_a_tampered_record_fails_naming_what(
    record: dict[str, Any], change: str, named: str
) -> None:
    with pytest.raises(RecordError) as failed:
        verify_seed(tampered(record, change))
    assert str(failed.value).startswith(named), str(failed.value)


def test_records_without_a_commitment_say_why() -> None:
    plain = match_record(Match(Rules.preset("callbreak"), seed=4))
    with pytest.raises(RecordError, match="holds no commitment"):
        verify_seed(plain)
    practice = {**plain, "practice": True}
    with pytest.raises(RecordError, match="practice table, whose host chose the seed"):
        verify_seed(practice)
    bad = {**plain, "fair": {**fair_record(SEED, SALT, [None] * 4), "salt": "xyz"}}
    with pytest.raises(RecordError, match=r"fair\.salt must be 32 bytes written as 64 hex"):
        verify_seed(bad)


def test_the_command_verifies_and_names_a_failure(record: dict[str, Any], tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record))
    result = CliRunner().invoke(app, ["replay", "--verify-seed", str(good)])
    assert result.exit_code == 0, result.output
    assert "seed verified" in result.output
    assert f"every deal ({len(record['deals'])}) follows" in result.output
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(tampered(record, "salt")))
    result = CliRunner().invoke(app, ["replay", "--verify-seed", str(bad)])
    assert result.exit_code == 1
    assert "seed check failed: fair.commitment" in result.output
    plain = CliRunner().invoke(app, ["replay", str(bad)])  # without the flag: it replays
    assert plain.exit_code == 0, plain.output
