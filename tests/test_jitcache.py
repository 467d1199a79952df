"""The solver's on-disk numba cache (``bots.search.jitcache``): reused, and stamped with
every source named, so an edit to a module the kernel only *calls into* recompiles it."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType
from typing import Any

import numba
import pytest

from callbreak.bots.search.jitcache import PREFIX, cached_jit


def _module(folder: Path, name: str, source: str) -> ModuleType:
    (folder / f"{name}.py").write_text(source, encoding="utf-8")
    importlib.invalidate_caches()
    return importlib.import_module(name)


def test_compiled_code_is_reused_until_a_named_source_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.syspath_prepend(str(tmp_path))
    kernel = _module(tmp_path, "h19_kernel", "def twice(x):\n    return 2 * x\n")
    helper = _module(tmp_path, "h19_helper", "FACTOR = 2\n")

    def compiled() -> Any:
        function = cached_jit(numba.njit, [kernel, helper], "options")(kernel.twice)
        assert function(21) == 42
        return function

    first = compiled()
    assert sum(first.stats.cache_misses.values()) == 1
    files = sorted(p.name for p in (tmp_path / "cache" / PREFIX).iterdir())
    assert files and all(
        name.startswith(f"{PREFIX}-") and "-h19_kernel.twice-" in name for name in files
    )
    assert sum(compiled().stats.cache_hits.values()) == 1
    (tmp_path / "h19_helper.py").write_text("FACTOR = 3\n", encoding="utf-8")
    assert sum(compiled().stats.cache_hits.values()) == 0
    other = cached_jit(numba.njit, [kernel, helper], "other options")(kernel.twice)
    assert other(1) == 2 and sum(other.stats.cache_hits.values()) == 0


def test_skipped_functions_compile_every_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.syspath_prepend(str(tmp_path))
    kernel = _module(tmp_path, "h19_skipped", "def search(x):\n    return x + 1\n")
    for _ in range(2):
        function = cached_jit(numba.njit, [kernel], "", skip=("search",))(kernel.search)
        assert function(1) == 2 and not function.stats.cache_hits
    assert not (tmp_path / "cache" / PREFIX).exists()


def test_a_kernel_that_calls_another_is_reused_by_a_later_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # numba keys a closure by pickling its cells, and a dispatcher pickles with an id new
    # in every build: without our key, ``outer`` would never be found again.
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.syspath_prepend(str(tmp_path))
    source = (
        "def build(jit, step):\n"
        "    def inner(x):\n"
        "        return x + step\n"
        "    inner = jit(inner)\n"
        "    def outer(x):\n"
        "        return 2 * inner(x)\n"
        "    return jit(outer)\n"
    )
    kernel = _module(tmp_path, "h19_closure", source)

    def build(step: int) -> Any:
        outer = kernel.build(cached_jit(numba.njit, [kernel], "options"), step)
        assert outer(1) == 2 * (1 + step)
        return outer

    assert not build(1).stats.cache_hits
    assert sum(build(1).stats.cache_hits.values()) == 1
    # A value in a cell is still part of the key: another step is compiled, not loaded.
    assert not build(2).stats.cache_hits
