"""The game record: write a match as JSON (or JSON Lines), read it back, re-play and verify it.

``match_record`` turns a ``Match`` into one JSON-ready document
(``docs/record-format.md`` describes it field by field); ``replay`` feeds a
record back through the engine and raises ``RecordError`` at the first thing
that does not add up; ``verify_seed`` checks a fair online table's record
against the seed its table committed to (``callbreak.record.fair``).  This
layer uses only the engine below it, so every face (CLI, web, arena) reads and
writes records the same way.
"""

from callbreak.record.fair import SeedCheck, verify_seed
from callbreak.record.format import (
    FORMAT,
    Record,
    RecordError,
    SeatSpec,
    check_format,
    dumps,
    loads,
    match_record,
    read_records,
    write_record,
)
from callbreak.record.replay import ReplayReport, replay

__all__ = [
    "FORMAT",
    "Record",
    "RecordError",
    "ReplayReport",
    "SeatSpec",
    "SeedCheck",
    "check_format",
    "dumps",
    "loads",
    "match_record",
    "read_records",
    "replay",
    "verify_seed",
    "write_record",
]
