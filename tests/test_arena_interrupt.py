"""Ctrl-C stops an arena run on a process pool at once, its workers included.

Before, every chunk was handed to the pool up front, the pool was shut down waiting for
all of them, and each worker took the terminal's SIGINT as its chunk's result and went on
to the next: a run of 3,000 deal sets took 20-40 s to stop.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from callbreak import Rules
from callbreak.arena import ArenaConfig, run_arena

LINEUP = ("heuristic", "random", "random", "random")


def test_a_run_stopped_in_its_progress_ends_its_workers_at_once() -> None:
    """Ctrl-C lands in the main process wherever it is, here in the progress callback: the
    pool's workers are ended before the exception leaves ``run_arena``."""

    interrupted: list[float] = []

    def interrupt(done: int) -> None:
        interrupted.append(time.monotonic())
        raise KeyboardInterrupt

    config = ArenaConfig(Rules.preset("callbreak"), LINEUP, 3000, seed=1)
    with pytest.raises(KeyboardInterrupt):
        run_arena(config, workers=2, progress=interrupt)
    # Not the 59 other chunks of 50 deal sets (15-20 s on two cores), played for nothing.
    assert time.monotonic() - interrupted[0] < 5
    # No worker goes on playing (a moment for the last to be reaped), nor does the pool's
    # thread wait for ever on a worker killed in the middle of sending its result (the
    # interpreter would hang at exit, joining it).
    deadline = time.monotonic() + 3
    while (multiprocessing.active_children() or _pool_threads()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert multiprocessing.active_children() == []
    assert _pool_threads() == []


def _pool_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if type(t).__name__ == "_ExecutorManagerThread"]


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_stops_the_arena_command_and_says_so(tmp_path: Path) -> None:
    """The terminal's Ctrl-C reaches the whole process group, workers too: the command
    stops within a second or two, ends its workers and says the run was interrupted; the
    report folder it made for nothing is gone."""
    command = [sys.executable, "-c", "from callbreak.cli.main import run; run()"]
    report = tmp_path / "R"
    arena = ["arena", "--deals", "3000", "--workers", "2", "--seed", "1", "--report", str(report)]
    process = subprocess.Popen(
        command + arena,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while len(_children(process.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        workers = _children(process.pid)
        assert len(workers) >= 2, "the pool never started"
        time.sleep(1.0)  # every worker inside a chunk
        os.killpg(process.pid, signal.SIGINT)
        interrupted = time.monotonic()
        _, err = process.communicate(timeout=15)
        assert time.monotonic() - interrupted < 5
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == 130
    assert "Interrupted" in err and "Traceback" not in err
    assert not any(Path(f"/proc/{pid}").exists() for pid in workers)
    assert not report.exists()
