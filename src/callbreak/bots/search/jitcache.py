"""numba's on-disk cache for the search kernels, stamped with every source the build reads.

Compiling the expert's playouts and sampler kernels takes numba 30 s and more,
the solver's core about 20 s, once per process: every arena worker, every
``serve-bot`` worker, every ``callbreak analyze``, every start of a table with
the expert in it (whose first decisions the heuristic answers meanwhile).
numba can keep compiled code on disk (``cache=True``), but not safely here, as
it stands:

* its stamp is the hash of the one file a function is written in, while the
  kernels take in the engine's ``legal_mask`` and ``beats``
  (``engine/tricks.py``), the constants of ``cards.py`` and, compiled, the
  machine's bit instructions (``solver._machine_bits``): an edit to any of
  those would load stale code;
* its key leaves out the compile options (``_nrt``, ``nogil``), so a function
  jitted with other options elsewhere (``legal_mask`` is, by the engine's
  kernel and the playouts) would share its files;
* it keys a closure by pickling its cells, and a jitted function pickles with
  an id new in every process, so a kernel built as a closure over the others
  (the playouts, the sampler, ``uct``) is never found again;
* the recursive ``search`` crashes when it is loaded from the cache (numba
  0.68): it is always compiled afresh.

``cached_jit`` gives each dispatcher numba's own cache machinery with a
locator whose stamp is the hash of every source named (and the options), a
closure key that follows the jitted functions in its cells to what they run,
and files named ``callbreak-<stamp>-...`` so they never meet numba's own or
another build's.  Where that machinery is not there as expected (another
numba), or no folder is writable, it compiles as before: the cache only ever
saves time.  The folder is ``$NUMBA_CACHE_DIR/callbreak`` when that is set,
else the ``__pycache__`` beside the source, else ``~/.cache/callbreak/numba``.
"""

from __future__ import annotations

import contextlib
import hashlib
import inspect
import os
import pickle
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

PREFIX = "callbreak"
"""Start of every cache file's name (numba's own start with the module's name)."""


def stamp(modules: Sequence[ModuleType], options: str) -> str:
    """Hash of the modules' source files and the compile options: the cache's freshness."""
    digest = hashlib.sha256(options.encode())
    for module in modules:
        digest.update(Path(inspect.getfile(module)).read_bytes())
    return digest.hexdigest()


def folders(source: str) -> list[Path]:
    """Where to keep the cache of a function written in ``source``, by preference."""
    found = []
    numba_dir = os.environ.get("NUMBA_CACHE_DIR")
    if numba_dir:
        found.append(Path(numba_dir) / PREFIX)
    found.append(Path(source).parent / "__pycache__")
    home = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    found.append(Path(home) / PREFIX / "numba")
    return found


def njit(
    modules: Sequence[ModuleType], skip: Sequence[str] = (), **options: Any
) -> Callable[[Any], Any]:
    """``numba.njit(**options)`` kept on disk (``cached_jit``), stamped with ``modules``
    (every source the build reads) and this module; ImportError without numba."""
    import sys

    import numba

    options = {"cache": False, **options}  # the files are ours, not numba's own
    sources = (*modules, sys.modules[__name__])
    return cached_jit(numba.njit(**options), sources, repr(options), skip)


def cached_jit(
    jit: Callable[[Any], Any],
    modules: Sequence[ModuleType],
    options: str,
    skip: Sequence[str] = (),
) -> Callable[[Any], Any]:
    """``jit``, with each dispatcher it makes kept on disk under ``stamp(modules, options)``
    (except the functions named in ``skip``); ``jit`` itself where that cannot be had."""
    try:
        cache_class = _cache_class(stamp(modules, options))
    except Exception:  # numba's cache internals are not as expected: compile every time
        return jit

    def wrap(function: Any) -> Any:
        dispatcher = jit(function)
        if function.__name__ not in skip:
            # No writable folder: this one compiles every time, as without the cache.
            with contextlib.suppress(Exception):
                dispatcher._cache = cache_class(dispatcher.py_func)
        return dispatcher

    return wrap


def _cache_class(fresh: str) -> Any:
    """numba's ``FunctionCache`` with a locator of our own (stamp, folder, file names)."""
    import importlib

    numba: Any = importlib.import_module("numba")
    caching: Any = importlib.import_module("numba.core.caching")  # untyped, and private
    if getattr(numba.config, "CACHE_LOCATOR_CLASSES", None):
        raise RuntimeError("numba is told to use other locators")

    class Locator(caching._CacheLocator):  # type: ignore[misc]
        def __init__(self, py_func: Any, path: Path) -> None:
            self._lineno = py_func.__code__.co_firstlineno
            self._path = str(path)

        def get_cache_path(self) -> str:
            return self._path

        def get_source_stamp(self) -> str:
            return fresh

        def get_disambiguator(self) -> str:
            return str(self._lineno)

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Locator | None:
            for folder in folders(py_file):
                locator = cls(py_func, folder)
                try:
                    locator.ensure_cache_path()
                except OSError:
                    continue
                return locator
            return None

    class Impl(caching.CompileResultCacheImpl):  # type: ignore[misc]
        _locator_classes = (Locator,)

        def get_filename_base(self, fullname: str, abiflags: str) -> str:
            # The stamp in the name too: builds with other sources or options (the engine's
            # ``legal_mask`` is jitted by several) keep their own files, not each other's.
            return f"{PREFIX}-{fresh[:10]}-{super().get_filename_base(fullname, abiflags)}"

    class Cache(caching.FunctionCache):  # type: ignore[misc]
        _impl_class = Impl

        def _index_key(self, sig: Any, codegen: Any) -> Any:
            # numba keys a closure by pickling its cells, and a dispatcher pickles with an
            # id new in every process: a kernel that calls another (most of the
            # playouts') would be compiled afresh every time.  A dispatcher in a cell is
            # keyed by what it runs instead (``_cell_key``).
            cells = tuple(_cell_key(c.cell_contents) for c in self._py_func.__closure__ or ())
            return (
                sig,
                codegen.magic_tuple(),
                (_sha(self._py_func.__code__.co_code), _sha(repr(cells).encode())),
            )

    return Cache


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _cell_key(value: Any, depth: int = 0) -> str:
    """What a closure cell contributes to a cache key: a jitted function's name, code and
    (in turn) cells, since its compiled code is linked into the caller's; else the
    value's pickle (its repr where it has none)."""
    function = getattr(value, "py_func", None)
    if function is not None:
        cells = (function.__closure__ or ()) if depth < 16 else ()
        inner = ",".join(_cell_key(c.cell_contents, depth + 1) for c in cells)
        code = _sha(function.__code__.co_code)
        return f"{function.__module__}.{function.__qualname__}:{code}({inner})"
    try:
        return _sha(pickle.dumps(value))
    except Exception:
        return repr(value)
