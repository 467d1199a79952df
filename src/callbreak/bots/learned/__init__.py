"""Models the bots learned from data, with plain numpy inference.

Weights ship as files named by the day they were trained (``callmodel-2026-11-29.npz``),
never overwritten: an expert frozen on the ladder names the weights it played with
(``ExpertConfig.call_weights``), so a retrained model adds a file and moves the default,
and the frozen expert keeps playing as it did.  This module stays free of numpy so that a
bot's options can be checked without loading it.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

CALL_WEIGHTS = "2026-11-29"
"""The call model's newest weights (``bench/train_call_model.py`` writes them)."""


def call_weights_path(version: str) -> Path:
    """The file of the call model's weights of ``version`` (the day they were trained)."""
    return Path(__file__).with_name(f"callmodel-{version}.npz")


@cache
def call_weight_versions() -> tuple[str, ...]:
    """The versions of the call model's weights that ship, oldest first.

    Read once per process: every ``ExpertConfig`` checks its weights against this list, and
    the shipped files change only with an install (a test that adds one calls
    ``call_weight_versions.cache_clear()``)."""
    found = Path(__file__).parent.glob("callmodel-*.npz")
    return tuple(sorted(path.stem.removeprefix("callmodel-") for path in found))
