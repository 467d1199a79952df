"""The shipped call model weights are listed once per process, not once per expert config.

``ExpertConfig`` checks its ``call_weights`` against the list each time one is made (every
bot spec, every ``replace``), and each check read the package folder again.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from callbreak.bots.expert_config import ExpertConfig
from callbreak.bots.learned import CALL_WEIGHTS, call_weight_versions


@pytest.fixture
def globs(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The patterns the package folder is searched for, from an empty cache on."""
    seen: list[str] = []
    glob = Path.glob

    def counted(self: Path, pattern: str, **kwargs: bool) -> Iterator[Path]:
        seen.append(pattern)
        return glob(self, pattern, **kwargs)

    monkeypatch.setattr(Path, "glob", counted)
    call_weight_versions.cache_clear()
    yield seen
    call_weight_versions.cache_clear()


def test_the_folder_is_read_once_for_many_configs(globs: list[str]) -> None:
    configs = [ExpertConfig(worlds=w) for w in range(8, 16)]
    assert [c.call_weights for c in configs] == [CALL_WEIGHTS] * 8
    with pytest.raises(ValueError, match="call_weights names shipped weights"):
        ExpertConfig(call_weights="1999-01-01")
    assert globs == ["callmodel-*.npz"]


def test_the_versions_are_one_tuple_oldest_first(globs: list[str]) -> None:
    versions = call_weight_versions()
    assert isinstance(versions, tuple) and versions == tuple(sorted(versions))
    assert call_weight_versions() is versions
    assert versions[-1] == CALL_WEIGHTS
