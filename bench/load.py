"""Load on the online tables: many simulated people over real WebSockets on loopback.

Starts ``callbreak serve`` (SQLite in a temporary file unless ``--db`` says
otherwise), then for each step opens N tables, each with one simulated person
(who thinks ``--think`` seconds on average before each decision) and three
server bots (``--bot-delay``, the server's own pause).  For every decision the
person sends, the latency is the time until the state carrying that action
comes back: the action was checked by the engine, committed to the database
and broadcast.  Each client also checks that it was told of every action of
its table once and in order (no gap, no repeat, no step back), and at the end
of each step every table's log in the database is compared with what its
client was told and replayed through the engine.

Steps go up until p99 crosses ``--limit-ms``; the run never takes more than
``--max-seconds``.  Only 127.0.0.1 is ever contacted.  ``psi`` is the share of
time other work kept some task waiting for a CPU (Linux pressure stall
information) and ``load`` the 1-minute load average: figures from a busy
machine say so.

    python bench/load.py [--tables 50,100,200,300,400] [--duration 20] [--think 1.0]
                         [--bot-delay 0.7] [--db URL] [--max-seconds 420] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

HOST = "127.0.0.1"


@dataclass
class Person:
    """One simulated person at one table, and what it observed."""

    code: str
    token: str
    rng: random.Random
    think: float
    latencies: list[float] = field(default_factory=list)
    told: dict[int, tuple[int, Any]] = field(default_factory=dict)
    last_seq: int = -1
    gaps: int = 0
    repeats: int = 0
    backwards: int = 0
    errors: int = 0
    sent_at: dict[int, float] = field(default_factory=dict)
    measuring: bool = False
    finished: bool = False

    def see(self, message: dict[str, Any]) -> None:
        last = message.get("last")
        if not last:
            return
        seq = int(last["seq"])
        if seq in self.told:
            if self.told[seq] != (last["seat"], last["action"]):
                self.repeats += 1  # the same number for another action: a real fault
            return  # the same state again (a presence change), not a new action
        if seq < self.last_seq:
            self.backwards += 1
        elif seq > self.last_seq + 1:
            self.gaps += seq - self.last_seq - 1
        self.last_seq = max(self.last_seq, seq)
        self.told[seq] = (last["seat"], last["action"])
        sent = self.sent_at.pop(seq, None)
        if sent is not None and self.measuring and last["seat"] == message["you"]["seat"]:
            self.latencies.append(time.perf_counter() - sent)


async def person_loop(person: Person, base_ws: str, stop: asyncio.Event) -> None:
    async with websockets.connect(f"{base_ws}/ws/{person.code}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": person.token}))
        await ws.send(json.dumps({"type": "start"}))
        pending: asyncio.Task[None] | None = None

        async def decide(state: dict[str, Any]) -> None:
            obs = state["obs"]
            await asyncio.sleep(person.rng.uniform(0.5, 1.5) * person.think)
            legal = obs["legal"]
            action = False if obs["phase"] in ("misdeal", "declare") else person.rng.choice(legal)
            person.sent_at[state["seq"]] = time.perf_counter()
            await ws.send(json.dumps({"type": "act", "seq": state["seq"], "action": action}))

        receive = asyncio.ensure_future(ws.recv())
        halt = asyncio.ensure_future(stop.wait())
        try:
            while True:
                done, _ = await asyncio.wait({receive, halt}, return_when=asyncio.FIRST_COMPLETED)
                if halt in done:
                    break
                message = json.loads(receive.result())
                receive = asyncio.ensure_future(ws.recv())
                if message["type"] == "error":
                    person.errors += 1
                    continue
                if message["type"] != "state":
                    continue
                person.see(message)
                if message["result"] is not None:
                    person.finished = True
                obs = message["obs"]
                mine = (
                    obs is not None
                    and message["result"] is None
                    and obs["to_act"] == message["you"]["seat"]
                    and obs["legal"]
                )
                if mine and (pending is None or pending.done()):
                    pending = asyncio.create_task(decide(message))
        finally:
            for task in (receive, halt, pending):
                if task is not None:
                    task.cancel()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process, from /proc (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_pressure() -> float:
    """Share of the last 10 s in which some task waited for a CPU (Linux PSI), in percent.

    The machine is shared: this says how much other work competed with the run.
    """
    try:
        line = Path("/proc/pressure/cpu").read_text().splitlines()[0]
        return float(line.split()[1].split("=")[1])
    except (OSError, IndexError, ValueError):
        return float("nan")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def create_tables(base: str, count: int) -> list[tuple[str, str]]:
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:

        async def one(i: int) -> tuple[str, str]:
            body = {"name": f"p{i}", "options": {"match_deals": 9}, "level": "medium"}
            response = await client.post("/api/tables", json=body)
            response.raise_for_status()
            made = response.json()
            return made["code"], made["token"]

        out: list[tuple[str, str]] = []
        for start in range(0, count, 50):
            out += await asyncio.gather(*(one(i) for i in range(start, min(count, start + 50))))
        return out


async def db_logs(db: str, codes: list[str]) -> tuple[dict[str, dict[int, tuple[int, Any]]], int]:
    """Each table's action log as stored, and how many logs the engine refuses to replay."""
    from callbreak import Match, Rules
    from callbreak.server.config import async_db_url
    from callbreak.server.store import Store

    store = Store(async_db_url(db))
    refused = 0
    try:
        logs = {}
        for code in codes:
            row = await store.load_table(code)
            actions = await store.load_actions(code)
            logs[code] = {a.seq: (a.seat, a.action) for a in actions}
            assert row is not None
            match = Match(Rules.from_dict(row.rules), seed=row.seed)
            try:
                for action in actions:
                    assert match.to_act == action.seat
                    match.act(action.action)
            except (AssertionError, ValueError):
                refused += 1
        return logs, refused
    finally:
        await store.close()


async def run_step(
    args: argparse.Namespace, base: str, pid: int, tables: int, rng: random.Random
) -> dict[str, Any]:
    base_ws = base.replace("http://", "ws://")
    made = await create_tables(base, tables)
    people = [Person(code, token, random.Random(rng.random()), args.think) for code, token in made]
    stop = asyncio.Event()
    tasks = [asyncio.create_task(person_loop(p, base_ws, stop)) for p in people]
    await asyncio.sleep(args.warmup)
    for person in people:
        person.measuring = True
    told_before = sum(len(p.told) for p in people)
    server_cpu, client_cpu = cpu_seconds(pid), time.process_time()
    started = time.perf_counter()
    await asyncio.sleep(args.duration)
    pressure = cpu_pressure()
    elapsed = time.perf_counter() - started
    server_cpu, client_cpu = cpu_seconds(pid) - server_cpu, time.process_time() - client_cpu
    for person in people:
        person.measuring = False
    actions = sum(len(p.told) for p in people) - told_before
    stop.set()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    crashed = sum(1 for r in results if isinstance(r, BaseException))
    await asyncio.sleep(0.5)  # let the last commits land before reading the logs
    logs, refused = await db_logs(args.db, [p.code for p in people])
    mismatched = 0
    for person in people:
        log = logs[person.code]
        mismatched += sum(1 for seq, seen in person.told.items() if log.get(seq) != seen)
    latencies = [x for p in people for x in p.latencies]
    return {
        "tables": tables,
        "actions_per_s": actions / elapsed,
        "measured_actions": len(latencies),
        "p50_ms": 1000 * percentile(latencies, 0.50),
        "p95_ms": 1000 * percentile(latencies, 0.95),
        "p99_ms": 1000 * percentile(latencies, 0.99),
        "max_ms": 1000 * max(latencies, default=float("nan")),
        "lost": sum(p.gaps for p in people),
        "duplicated": sum(p.repeats for p in people),
        "misordered": sum(p.backwards for p in people),
        "not_in_db": mismatched + refused,
        "errors": sum(p.errors for p in people),
        "crashed_clients": crashed,
        "server_cpu_pct": 100 * server_cpu / elapsed,
        "client_cpu_pct": 100 * client_cpu / elapsed,
        "cpu_pressure_pct": pressure,
        "load_avg": os.getloadavg()[0],
    }


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(args: argparse.Namespace, port: int, log: Path) -> subprocess.Popen[bytes]:
    command = [
        sys.executable,
        "-m",
        "callbreak.cli.main",
        "serve",
        "--host",
        HOST,
        "--port",
        str(port),
        "--db",
        args.db,
        "--bot-delay",
        str(args.bot_delay),
        "--log-level",
        "warning",
    ]
    proc = subprocess.Popen(command, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"http://{HOST}:{port}/healthz", timeout=1).status_code == 200:
                return proc
        if proc.poll() is not None:
            break
        time.sleep(0.2)
    proc.kill()
    raise SystemExit(f"the server did not start:\n{log.read_text()[-2000:]}")


async def main_async(args: argparse.Namespace) -> list[dict[str, Any]]:
    port = free_port()
    base = f"http://{HOST}:{port}"
    log = Path(args.workdir) / "serve.log"
    proc = start_server(args, port, log)
    rng = random.Random(args.seed)
    rows: list[dict[str, Any]] = []
    deadline = time.monotonic() + args.max_seconds
    try:
        for tables in args.tables:
            needed = args.warmup + args.duration + 10 + tables * 0.02
            if time.monotonic() + needed > deadline:
                print(f"stopping before {tables} tables: --max-seconds reached", file=sys.stderr)
                break
            row = await run_step(args, base, proc.pid, tables, rng)
            rows.append(row)
            if not args.json:
                print(format_row(row), flush=True)
            if row["p99_ms"] > args.limit_ms:
                break
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
    return rows


HEADER = (
    f"{'tables':>6} {'act/s':>7} {'n':>6} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} "
    f"{'max ms':>7} {'lost':>4} {'dup':>4} {'order':>5} {'!db':>4} {'srv cpu':>7} {'cli cpu':>7} "
    f"{'psi':>4} {'load':>4}"
)


def format_row(row: dict[str, Any]) -> str:
    return (
        f"{row['tables']:>6} {row['actions_per_s']:>7.0f} {row['measured_actions']:>6} "
        f"{row['p50_ms']:>7.1f} {row['p95_ms']:>7.1f} {row['p99_ms']:>7.1f} {row['max_ms']:>7.1f} "
        f"{row['lost']:>4} {row['duplicated']:>4} {row['misordered']:>5} {row['not_in_db']:>4} "
        f"{row['server_cpu_pct']:>6.0f}% {row['client_cpu_pct']:>6.0f}% "
        f"{row['cpu_pressure_pct']:>3.0f}% {row['load_avg']:>4.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--tables",
        default="50,100,200,300,400",
        help="table counts to step through (comma-separated)",
    )
    parser.add_argument("--duration", type=float, default=20.0, help="seconds measured per step")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a person thinks")
    parser.add_argument("--bot-delay", type=float, default=0.7, help="the server's bot pause")
    parser.add_argument("--db", default=None, help="database URL (default: a temporary SQLite)")
    parser.add_argument("--limit-ms", type=float, default=100.0, help="p99 target")
    parser.add_argument("--max-seconds", type=float, default=420.0, help="bound on the run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args()
    args.tables = [int(x) for x in args.tables.split(",") if x.strip()]
    with tempfile.TemporaryDirectory(prefix="callbreak-load-") as workdir:
        args.workdir = workdir
        if args.db is None:
            args.db = f"sqlite:///{Path(workdir) / 'tables.db'}"
        if not args.json:
            print(
                f"{platform.python_implementation()} {platform.python_version()}, "
                f"{os.cpu_count()} CPUs; think {args.think} s, bot delay {args.bot_delay} s, "
                f"{args.duration:.0f} s per step, db {args.db.split(':', 1)[0]}"
            )
            print(HEADER)
        try:
            import uvloop

            uvloop.install()
        except ImportError:
            pass
        rows = asyncio.run(main_async(args))
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    over = [r["tables"] for r in rows if r["p99_ms"] > args.limit_ms]
    ok = [r["tables"] for r in rows if r["p99_ms"] <= args.limit_ms]
    if over:
        lo, hi = max(ok, default=0), over[0]
        print(f"p99 crosses {args.limit_ms:.0f} ms between {lo} and {hi} tables")
    else:
        print(f"p99 stayed under {args.limit_ms:.0f} ms up to {max(ok, default=0)} tables")
    faults = sum(r["lost"] + r["duplicated"] + r["misordered"] + r["not_in_db"] for r in rows)
    print("no lost, duplicated or misordered action" if not faults else f"{faults} FAULTS")


if __name__ == "__main__":
    main()
