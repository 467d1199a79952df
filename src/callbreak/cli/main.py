"""The ``callbreak`` command (Typer): play, selfplay, replay, rules."""

from __future__ import annotations

import inspect
import os
import random
from collections.abc import Callable, Sequence
from functools import partial, wraps
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ParamSpec, TypeVar

import typer
from rich import box
from rich.console import Console
from rich.measure import Measurement
from rich.padding import PaddingDimensions
from rich.table import Table
from rich.text import Text

from callbreak.bots import available_bots, make_bot, refusal
from callbreak.bots.levels import LEVELS, level_spec
from callbreak.cli.analyze import analyze
from callbreak.cli.common import (
    add_name_columns,
    count,
    fit_table,
    located,
    rules_from_flags,
    writable,
)
from callbreak.cli.interrupt import EXIT_INTERRUPTED, INTERRUPTED
from callbreak.cli.pool import MIXES_HELP, POOL_HELP, arena_pool
from callbreak.engine import Match
from callbreak.faces import contract_words, seat_name
from callbreak.games import PRESETS
from callbreak.rules import OPTION_BY_NAME, Rules, option_text
from callbreak.server.config import GRACE_MAX_S

if TYPE_CHECKING:
    from callbreak.arena import ArenaSummary
    from callbreak.arena.stats import Interval
    from callbreak.record.bhoos import BhoosImport
    from callbreak.tui.session import Session

P = ParamSpec("P")
R = TypeVar("R")

app = typer.Typer(
    help="Call Break and its family: play at the terminal, let bots play, verify game records.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

RulesFlag = Annotated[
    str,
    typer.Option(
        "--rules",
        "-r",
        help=f"Preset: {', '.join(PRESETS)} (callbreak rules PRESET shows its options).",
    ),
]
OptionFlag = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="Change a rule option: name=value (repeatable)."),
]


SEED_MAX = 2**63 - 1 - 10_000
"""The largest seed a command takes: a record holds seeds up to 2**63 − 1, and selfplay and the
arena count up from the one given."""


def seed_in_range(text: str) -> int:
    """A ``--seed`` from 0 to ``SEED_MAX``, checked here rather than by ``min``/``max``, whose
    range Typer prints in the column of types, where its 19 digits broke at 80 columns."""
    try:
        seed = int(text)
    except ValueError:
        raise typer.BadParameter(f"{text!r} is not a whole number") from None
    if not 0 <= seed <= SEED_MAX:
        raise typer.BadParameter(f"{seed} is not from 0 to 2**63 - 10001")
    return seed


RESUMED_FROM_RECORD = ("rules", "option", "level", "bot", "seed", "name")
"""``play`` options that a resumed match takes from its record instead."""


@app.command()
def play(
    ctx: typer.Context,
    rules: RulesFlag = "callbreak",
    option: OptionFlag = None,
    level: Annotated[
        str, typer.Option(help="How strong the bots play: " + ", ".join(LEVELS) + ".")
    ] = "medium",
    bot: Annotated[
        str | None,
        typer.Option(help="A bot spec for every other seat instead of a level."),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            parser=seed_in_range,
            help="Seed, from 0 to 2**63 - 10001: the same seed deals the same cards.",
        ),
    ] = None,
    record: Annotated[
        Path | None, typer.Option(help="Save the match record (JSON) here as it goes.")
    ] = None,
    name: Annotated[str, typer.Option(help="Your name at the table.")] = "You",
    resume: Annotated[
        Path | None,
        typer.Option(
            help="Continue the unfinished match recorded in FILE (same seats and bots); "
            "it keeps saving there unless --record says otherwise.",
            metavar="FILE",
        ),
    ] = None,
    pause: Annotated[
        float,
        typer.Option(min=0.0, help="Seconds a bot's card stays before play goes on (space skips)."),
    ] = 0.6,
    plain: Annotated[
        bool, typer.Option("--plain", help="The line-based game instead of the full-screen table.")
    ] = False,
    no_color: Annotated[
        bool, typer.Option("--no-color", help="No colours (as the NO_COLOR variable does).")
    ] = False,
) -> None:
    """Play a match at the terminal against bots (you are seat 0, South at four seats).

    Opens the full-screen table; --plain (or input or output that is not a terminal) plays line
    by line.
    A record that could not be saved does not stop the match; the exit status is then 1.
    """
    import sys

    from callbreak.record import RecordError
    from callbreak.tui.session import Session

    _check_play_files(ctx, record, resume)
    try:
        if resume is not None:
            session = Session.resume(resume, record)
        else:
            spec = bot if bot is not None else level_spec(level)
            game_rules = rules_from_flags(rules, option)
            session = Session.start(game_rules, spec, seed=seed, name=name, record=record)
    except (OSError, RecordError) as error:  # a file that is not there: the record's
        hint = "--resume" if resume is not None else "--record"
        raise typer.BadParameter(str(error), param_hint=hint) from None
    except ValueError as error:
        hint = "--resume" if resume is not None else "--bot/--level"
        raise typer.BadParameter(str(error), param_hint=hint) from None
    if session.notice:
        typer.echo(session.notice)
    if plain or not (sys.stdin.isatty() and sys.stdout.isatty()):
        from callbreak.cli.play import TerminalGame

        TerminalGame(
            session.match,
            session.bots,
            human=session.human,
            name=session.name,
            console=Console(highlight=False, no_color=True if no_color else None),
            save=lambda _match: _save_and_tell(session),
        ).run()
    else:
        if no_color:
            os.environ["NO_COLOR"] = "1"
        from callbreak.tui.app import CallBreakApp

        notice = "" if resume is None else f"Resumed from {resume}: deal {session.deal_number}."
        table = CallBreakApp(session, pause=pause, notice=notice)
        table.run()
        session = table.session
    if session.record is None:
        return
    if session.save_failure is not None:
        session.save()  # one more try: the folder may be back, or room made on the disk
    if session.save_failure is not None:
        typer.secho(session.unsaved_words(), fg="red", bold=True, err=True)
        raise typer.Exit(1)
    state = "" if session.over else f" (continue with: callbreak play --resume {session.record})"
    typer.echo(f"Record saved to {session.record}{state}")


def _save_and_tell(session: Session) -> str:
    """The plain game's saver: save, and hand back what the person must hear about it."""
    session.save()
    return session.take_save_news()


def _given(ctx: typer.Context, name: str) -> bool:
    """Whether the option ``name`` was given (on the command line or by its variable), not
    left at its default.  Typer's own click names the sources, so they are compared by name."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")


def _check_play_files(ctx: typer.Context, record: Path | None, resume: Path | None) -> None:
    """Refuse, before any card is dealt, what ``play`` would silently get wrong: a new match
    written over an existing record (a finished match too), or options that a resumed
    match does not take (its record has its rules, bots, seed and the person's name)."""
    if resume is not None:
        given = [f"--{name}" for name in RESUMED_FROM_RECORD if _given(ctx, name)]
        if given:
            raise typer.BadParameter(
                f"a resumed match takes its rules, bots, seed and your name from {resume}: "
                f"leave out {', '.join(given)}",
                param_hint="--resume",
            )
    if record is None:
        return
    writable(record, "--record")
    if record.exists() and (resume is None or record.resolve() != resume.resolve()):
        keep = f"continue its match with --resume {record}"
        if resume is not None:
            keep = f"leave out --record to keep saving to {resume}"
        raise typer.BadParameter(
            f"{record} already exists and would be overwritten: {keep}, or give --record a "
            "new file name",
            param_hint="--record",
        )


@app.command()
def selfplay(
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Matches to play.")] = 10,
    seed: Annotated[
        int,
        typer.Option(
            parser=seed_in_range,
            help="Seed of the first match, from 0 to 2**63 - 10001; each next adds 1.",
        ),
    ] = 0,
    rules: RulesFlag = "callbreak",
    option: OptionFlag = None,
    bot: Annotated[
        list[str] | None,
        typer.Option(
            help="Bot spec: once for every seat, or once per seat in seat order (default random)."
        ),
    ] = None,
    deals: Annotated[
        int,
        typer.Option(
            min=1,
            help="With match_end=open (as in Call Bridge): scored deals to play before stopping, "
            "1 or more; other games end by their own rules.",
        ),
    ] = 5,
    max_deals: Annotated[
        int,
        typer.Option(
            min=1,
            help="Stop a match still going after this many scored deals (a target such as "
            "Rook's 500 may never be reached by weak bots); its record is left unfinished.",
        ),
    ] = 200,
    out: Annotated[
        Path, typer.Option("--out", help="Where to write records (JSON Lines if .jsonl or many).")
    ] = Path("selfplay.jsonl"),
) -> None:
    """Let bots play matches of any game of the family and write their game records.

    Check them with: callbreak replay FILE.
    """
    from rich.progress import track

    from callbreak.record import match_record, write_record

    game_rules = rules_from_flags(rules, option)
    writable(out, "--out")
    players = game_rules.players
    specs = list(bot or ["random"])
    if len(specs) == 1:
        specs *= players
    if len(specs) != players:
        raise typer.BadParameter(
            f"give one --bot for all seats or one for each of the {players} seats",
            param_hint="--bot",
        )
    for spec in dict.fromkeys(specs):
        try:
            why = refusal(spec, game_rules)
        except ValueError as error:
            raise typer.BadParameter(str(error), param_hint="--bot") from None
        if why is not None:
            raise typer.BadParameter(
                f"{spec!r} cannot play {game_rules.title}: {why}", param_hint="--bot"
            )
    records = []
    stopped = 0
    for game in track(range(games), description="Playing", disable=games < 20):
        match_seed = seed + game
        rng = random.Random(match_seed)
        try:
            bots = [make_bot(spec, seed=rng.getrandbits(32)) for spec in specs]
        except ValueError as error:
            raise typer.BadParameter(str(error), param_hint="--bot") from None
        match = Match(game_rules, seed=match_seed)
        while not match.over:
            if len(match.scored_deals) >= max_deals:
                stopped += 1
                break
            seat = match.to_act
            assert seat is not None
            match.act(bots[seat].act(match.observation(seat)))
            if (
                game_rules.match_end == "open"
                and len(match.scored_deals) >= deals
                and not match.tie_break
                and not match.over
                and not match.deal.log  # nobody has acted in the fresh deal yet
            ):
                match.finish()
        seats = [
            {"name": seat_name(s, players), "player": f"bot:{spec}"} for s, spec in enumerate(specs)
        ]
        records.append(match_record(match, seats=seats, seed=match_seed))
    write_record(out, records if len(records) > 1 or out.suffix == ".jsonl" else records[0])
    typer.echo(f"Wrote {len(records)} match record(s) to {out}")
    if stopped:
        typer.echo(f"{stopped} match(es) stopped unfinished after {max_deals} deals (--max-deals)")


@app.command()
def replay(
    files: Annotated[list[Path], typer.Argument(help="Record files (.json or .jsonl).")],
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only errors.")] = False,
    check_seed: Annotated[
        bool,
        typer.Option(
            "--verify-seed",
            help="Also check a fair online table's shuffle: the revealed seed and salt match "
            "the commitment, the match seed follows from them and the players' contributions, "
            "and every deal is what that seed deals (docs/fair-tables.md).",
        ),
    ] = False,
) -> None:
    """Re-play game records through the rules engine and verify every action and total.

    Reads records of every game of the family, in the current format or the old
    callbreak-record/1 (converted as read); the first error names the deal, trick and seat.
    """
    from callbreak.record import RecordError, read_records, verify_seed
    from callbreak.record import replay as replay_record

    failed = 0
    for path in files:
        try:
            records = read_records(path)
        except (OSError, ValueError) as error:
            typer.secho(located(path, error), fg="red", err=True)
            failed += 1
            continue
        for index, record in enumerate(records, start=1):
            where = f"{path}" if len(records) == 1 else f"{path} match {index}"
            try:
                report = replay_record(record)
            except RecordError as error:
                typer.secho(f"{where}: {error}", fg="red", err=True)
                failed += 1
                continue
            if not quiet:  # the replay passed, whatever the seed check says after it
                totals = ", ".join(str(t) for t in report.totals)
                state = "complete" if report.complete else "unfinished"
                typer.echo(
                    f"{where}: OK — {report.match.rules.name}, "
                    f"{report.deals} deal{'' if report.deals == 1 else 's'}, {state}, "
                    f"totals [{totals}], won by {_winners(record, report.winners)}"
                )
            try:
                check = verify_seed(record) if check_seed else None
            except RecordError as error:
                typer.secho(f"{where}: seed check failed: {error}", fg="red", err=True)
                failed += 1
                continue
            if check is not None and not quiet:
                typer.echo(
                    f"{where}: seed verified — commitment {check.commitment[:16]}… matches the "
                    f"revealed seed and salt; match seed {check.match_seed} follows from them and "
                    f"{check.contributions} contribution(s); every deal ({check.deals}) follows "
                    "from it"
                )
    if failed:
        raise typer.Exit(1)


ImportFlag = Annotated[
    list[str] | None,
    typer.Option(
        "--import",
        metavar="MODULE",
        help="Import MODULE first, for the bots it registers with callbreak.bots.register_bot "
        "(repeatable; the current directory is searched first; worker processes import it too).",
    ),
]


def _import_bots(modules: list[str] | None) -> None:
    """``--import``: a module that fails to import is the option's fault, said as such."""
    from callbreak.bots import import_bots

    try:
        import_bots(modules or [])
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--import") from None


def _interruptible(command: Callable[P, None]) -> Callable[P, None]:
    """Ctrl-C in ``command`` (an arena run, with ``--pool`` too): its workers are already
    ended (``arena.runner``); say so, rather than exit in silence, which could be taken for
    a finished run.  A ``--report`` folder that the run made and left empty is taken away:
    nothing is written then (docs/arena.md)."""

    @wraps(command)
    def run(*args: P.args, **kwargs: P.kwargs) -> None:
        report = kwargs.get("report")
        made = isinstance(report, Path) and not report.exists()
        try:
            command(*args, **kwargs)
        except KeyboardInterrupt:
            if made and isinstance(report, Path) and report.is_dir() and not any(report.iterdir()):
                report.rmdir()
            typer.secho("Interrupted: the arena run stopped and its workers ended.", err=True)
            raise typer.Exit(EXIT_INTERRUPTED) from None

    return run


@app.command()
@_interruptible
def arena(
    seat: Annotated[
        list[str] | None,
        typer.Option(
            help="Bot spec for a seat, e.g. expert:budget_ms=300 (repeat: once for every seat, "
            "once per seat, or once per side in Spades; default heuristic in the first seat, "
            "random in every other)."
        ),
    ] = None,
    pool: Annotated[list[str] | None, typer.Option(help=POOL_HELP)] = None,
    candidate: Annotated[
        str | None,
        typer.Option(help="With --pool: the bot spec measured against the pool (required)."),
    ] = None,
    mixes: Annotated[str, typer.Option(help=MIXES_HELP)] = "auto",
    rules: RulesFlag = "callbreak",
    option: OptionFlag = None,
    deals: Annotated[
        int,
        typer.Option(
            min=1, help="Distinct deals; each is played once per seat rotation (once a seat)."
        ),
    ] = 1000,
    seed: Annotated[
        int,
        typer.Option(
            parser=seed_in_range,
            help="Seed of the deals and the bots, from 0 to 2**63 - 10001: the same seed, "
            "the same games.",
        ),
    ] = 0,
    workers: Annotated[
        int | None,
        typer.Option(min=1, help="Processes to play in (default: CPU count; 1 plays inline)."),
    ] = None,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            help="Run the chunks as Ray tasks: a cluster address, or 'local' "
            "(needs pip install 'callbreak\\[ray]').",
        ),
    ] = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="Print a JSON summary instead of tables.")
    ] = False,
    report: Annotated[
        Path | None,
        typer.Option(help="Write DIR/index.html with plots, and DIR/records.jsonl of every game."),
    ] = None,
    report_deals: Annotated[
        int,
        typer.Option(
            min=0,
            help="With --report: how many games (deals as played, whole deal sets first) the "
            "exact solver reviews, every seat, for each bot's value lost per decision by trick "
            "(Call Break, its Bhoos preset, Call Bridge and Koz Maça; seconds per game; 0: none).",
        ),
    ] = 8,
    whole_matches: Annotated[
        bool,
        typer.Option(
            "--whole-matches",
            help="Play each deal set as the start of a whole match under the rules (to its "
            "target, its number of deals, or Snarples' and Donut's zero), in every rotation: "
            "--deals then counts matches, and Won counts the matches the engine says were won "
            "(with --pool too).",
        ),
    ] = False,
    imports: ImportFlag = None,
) -> None:
    """Measure bots on duplicate deals: each deal is played with the seats rotated, luck cancels.

    With --pool and --candidate: the candidate against every mix of the pool in the other
    seats, the edge per mix, over each member and over the whole pool, and the worst mix.
    """
    import json

    from rich.progress import MofNCompleteColumn, Progress, TimeRemainingColumn

    from callbreak.arena import ArenaConfig, ArenaError, lineup, run_arena, summarize
    from callbreak.arena.errors import GameStalled
    from callbreak.arena.remote import RemoteSeatDown

    _import_bots(imports)
    game_rules = rules_from_flags(rules, option)
    if pool or candidate is not None:
        if not pool:
            raise typer.BadParameter("--candidate goes with --pool", param_hint="--candidate")
        if seat or report is not None:
            raise typer.BadParameter(
                "--pool seats its own lineups: leave out --seat and --report", param_hint="--pool"
            )
        arena_pool(
            game_rules, pool, candidate, mixes, deals, seed, workers, ray, json_out, whole_matches
        )
        return
    try:
        specs = lineup(seat or default_lineup(game_rules), game_rules.players, rules=game_rules)
    except ArenaError as error:
        raise typer.BadParameter(str(error), param_hint="--seat") from None
    if report is not None:
        writable(report, "--report", directory=True)
    config = ArenaConfig(
        game_rules, specs, deals, seed, keep_records=report is not None, whole_matches=whole_matches
    )
    console = Console(stderr=json_out)
    columns = (*Progress.get_default_columns()[:-1], MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(
            "Playing whole matches" if whole_matches else "Playing deal sets", total=deals
        )
        try:
            run = run_arena(
                config,
                workers,
                ray_address=ray,
                progress=lambda done: bar.advance(task, done),
            )
        except (RemoteSeatDown, GameStalled) as error:  # mid-run: the run stops
            typer.secho(str(error), fg="red", err=True)
            raise typer.Exit(1) from None
        except ArenaError as error:
            raise typer.BadParameter(str(error), param_hint="--ray") from None
    summary = summarize(run)
    page = value_lost = None
    if report is not None:
        from callbreak.arena.report import write_report
        from callbreak.arena.value_lost import analyse_run, work

        with Progress(*columns, console=console, transient=True) as bar:
            task = bar.add_task("Value lost: the solver reviews", total=work(run, report_deals))
            value_lost = analyse_run(run, report_deals, progress=lambda n: bar.advance(task, n))
        page = write_report(summary, report, value_lost)
    if json_out:
        document = summary.json()
        if page is not None:
            document["report"] = str(page)
        if value_lost is not None:
            document["value_lost"] = value_lost.json()
        typer.echo(json.dumps(document, indent=2))
        return
    _print_arena(console, summary)
    if value_lost is not None:
        console.print(value_lost.text(), highlight=False)
    if page is not None:
        console.print(f"Report written to {page}")


def default_lineup(rules: Rules) -> list[str]:
    """``arena``'s lineup without ``--seat``: one heuristic against random bots in every other
    seat, as many as the rules seat (``players=5`` in Donut, three in Oh Hell), since four
    fixed seats were refused by any other count.  It is given seat by seat, which every
    game takes, partnerships too: in Spades the heuristic's side (with a random partner)
    meets a random side, as it always did."""
    return ["heuristic", *["random"] * (rules.players - 1)]


def _milliseconds(value: float) -> str:
    """A time in ms in at most five characters, so the decisions table fits 80 columns."""
    digits = 0 if value >= 100 else 1 if value >= 10 else 2 if value >= 1 else 3
    return f"{value:.{digits}f}"


ARENA_LAYOUTS: tuple[tuple[bool, PaddingDimensions], ...] = (
    (False, (0, 1)),
    (True, (0, 1)),
    (True, (0, 1, 0, 0)),
    (True, 0),
)
"""The arena table's layouts, widest first, as (compact intervals, cell padding): as always;
intervals to the decimals their half-width warrants; then two spaces between columns, one."""

TIMING_PADDINGS: tuple[PaddingDimensions, ...] = ((0, 1, 0, 0), 0)
"""The decisions table's cell padding, widest first: two spaces between columns, one."""


def _interval(interval: Interval, compact: bool) -> str:
    """``mean±half``, to two decimals; compact, to the decimals the half-width warrants (two
    below 1, one below 10, none from 10: Spades' ±150 needs no hundredths), or without one
    the mean's size (none from 100)."""
    if not compact:
        return interval.text().replace(" ± ", "±")
    half = interval.half_width
    size = abs(interval.mean) / 10 if half is None else half
    digits = 2 if size < 1 else 1 if size < 10 else 0
    mean = f"{interval.mean:.{digits}f}"
    mean = mean.lstrip("-") if float(mean) == 0 else mean  # no "-0"
    return mean if half is None else f"{mean}±{half:.{digits}f}"


def _arena_table(summary: ArenaSummary, unit: str, layout: int, names: Sequence[str]) -> Table:
    """One row per bot (or side), by ``names`` (cut short to fit: ``fit_table``): points,
    edge, matches won, calls made, rating."""
    compact, padding = ARENA_LAYOUTS[layout]
    table = Table(
        title="Arena (± is a 95% interval over deal sets)", box=box.SIMPLE_HEAD, padding=padding
    )
    called = contract_words(summary.run.config.rules.game).word.capitalize()  # Spades: Bid
    add_name_columns(table, unit, ("Points/deal", "Edge", "Won", "Made", f"{called}−won", "Rating"))
    for bot, name in zip(summary.bots, names, strict=True):
        table.add_row(
            name,
            _interval(bot.points, compact),
            "-" if bot.edge is None else _interval(bot.edge, compact),
            "-" if bot.match_share is None else f"{bot.match_share:.1%}",
            "-" if bot.made_rate is None else f"{bot.made_rate:.1%}",
            "-" if bot.mean_call_minus_tricks is None else f"{bot.mean_call_minus_tricks:+.2f}",
            f"{bot.rating_mu:.1f}±{bot.rating_sigma:.1f}",
        )
    return table


def _timing_table(summary: ArenaSummary, unit: str, layout: int, names: Sequence[str]) -> Table:
    """Decision counts and times by bot (or side), by ``names``, in one of ``TIMING_PADDINGS``."""
    timing = Table(
        title="Decisions (times in ms)", box=box.SIMPLE_HEAD, padding=TIMING_PADDINGS[layout]
    )
    figures = ("Count", "p50", "p99", "Max", "Illegal", "Timeouts", "Fallbacks", "Misdeals")
    add_name_columns(timing, unit, figures, whole_headings=True)
    for bot, name in zip(summary.bots, names, strict=True):
        ms = bot.decision_ms or {}
        timing.add_row(
            name,
            str(bot.decisions),
            *(_milliseconds(ms[key]) if key in ms else "-" for key in ("p50", "p99", "max")),
            str(bot.illegal),
            str(bot.timeouts),
            str(bot.fallbacks),
            str(bot.misdeal_claims),
            style="red" if bot.illegal or bot.timeouts else None,
        )
    return timing


def _print_arena(console: Console, summary: ArenaSummary) -> None:
    """The arena's figures as rich tables: one row per bot, then calibration by call."""
    run = summary.run
    config = run.config
    changed = ", ".join(f"{k}={option_text(v)}" for k, v in config.rules.changed().items())
    console.print(
        f"[bold]{config.rules.name}[/]{f' ({changed})' if changed else ''}: "
        f"{count(config.deals, 'match' if config.whole_matches else 'deal')} × {config.players} "
        f"rotations = {config.deals * config.players} games, seed {config.seed}, "
        f"{run.workers} worker(s) ({run.backend}), {run.wall_s:.1f} s"
    )
    unit = "Side" if summary.by_side else "Bot"
    names = [bot.spec for bot in summary.bots]
    arena = partial(_arena_table, summary, unit)
    console.print(fit_table(console, arena, len(ARENA_LAYOUTS), names))
    timing = partial(_timing_table, summary, unit)
    console.print(fit_table(console, timing, len(TIMING_PADDINGS), names))
    console.print(fit_table(console, partial(_calibration_table, summary), 1, names))
    words = contract_words(config.rules.game)  # a Spades seat bids
    countdown = config.rules.shape.lowest_wins
    par = f"{summary.par:.0%}"
    console.print(
        (
            "Partnership game: a row is a side (lineup entries "
            + ", ".join("+".join(f"#{e}" for e in team) for team in config.teams)
            + ", partners in every rotation), whose partners share one score; its edge is "
            "against the other sides. "
            if summary.by_side
            else ""
        )
        + (
            "Countdown game: fewer points are better, and Edge, Won and Rating count them so "
            "(a positive edge is a bot that loses points faster than the others). "
            if countdown
            else ""
        )
        + f"Edge: paired per-deal-set difference from the other bots' points per deal. Won: "
        f"share of matches ({summary.match_unit}) won, ties shared; {par} is par. "
        + words.reword(
            "Made: calls (or, declaring, contracts) made. "
            f"{words.word.capitalize()}−won: mean call minus what it won (tricks; Call "
            "Partner: its side's card points). "
        )
        + "Rating: openskill "
        "Plackett–Luce μ±σ. Fallbacks: decisions a bot answered with a stand-in's move (the "
        "expert out of time, or a served bot's heuristic answer). Misdeals: misdeals claimed."
    )
    for example in run.illegal_examples:  # each labelled with its kind: "timeout: deal 3, ..."
        kind, _, what = example.partition(": ")
        console.print(Text.assemble((f"{kind}: ", "red"), what))


def _calibration_table(summary: ArenaSummary, layout: int, names: Sequence[str]) -> Table:
    """By call, a column per bot (or side), headed by ``names``: games, made, mean won."""
    words = contract_words(summary.run.config.rules.game)  # a Spades seat bids
    calibration = Table(
        title=words.reword(
            "Calibration by call: games, made, mean won (tricks; Call Partner: card points)"
        ),
        box=box.SIMPLE_HEAD,
    )
    calibration.add_column(words.word.capitalize(), justify="right")
    for name in names:
        calibration.add_column(name, justify="right", overflow="fold")
    by_bot = [{row.call: row for row in bot.calibration} for bot in summary.bots]
    for call in sorted({call for rows in by_bot for call in rows}):
        cells = []
        for rows in by_bot:
            row = rows.get(call)
            cells.append(
                "" if row is None else f"{row.count}  {row.made_rate:.0%}  {row.mean_tricks:.2f}"
            )
        calibration.add_row(str(call), *cells)
    return calibration


@app.command("rules")
def show_rules(
    preset: Annotated[str | None, typer.Argument(help="A preset to show in full.")] = None,
) -> None:
    """List the presets, or show every option of one preset with its meaning."""
    console = Console()
    if preset is None:
        # Every cell is something to type (a preset name, an option=value), so on a
        # narrow terminal cells fold onto more lines rather than end in an ellipsis.
        # Options go one per line, each wrapping alone.
        table = Table(title="Presets (callbreak rules PRESET shows one)")
        table.add_column("Preset", overflow="fold")
        table.add_column("Game", overflow="fold")
        table.add_column("Players", overflow="fold")
        table.add_column("Options set by the preset", overflow="fold")
        for name in Rules.presets():
            rules = Rules.preset(name)
            low, high = rules.shape.seats
            settings = [f"{k}={option_text(v)}" for k, v in _preset_settings(rules).items()]
            seats = str(low) if low == high else f"{low}-{high}"
            table.add_row(name, rules.title, seats, "\n".join(settings) or "-")
        unbounded = console.options.update_width(UNBOUNDED_WIDTH)
        if Measurement.get(console, unbounded, table).maximum > console.width:
            # The game's title wraps at words; narrowed, it leaves the options their
            # whole width at 80 columns, where rich would share the squeeze out evenly.
            table.columns[1].max_width = 12
        console.print(table)
        console.print("Bots: " + "; ".join(f"{k} — {v}" for k, v in available_bots().items()))
        return
    try:
        rules = Rules.preset(preset)
    except ValueError as error:
        raise typer.BadParameter(str(error)) from None
    table = Table(title=f"Rules of {preset}: {rules.title}", show_lines=True)
    # Names and values are typed back as --rules options: folded, never cut short.
    table.add_column("Option", style="bold", overflow="fold")
    table.add_column("Value", overflow="fold")
    table.add_column("Allowed", overflow="fold")
    table.add_column("Meaning", overflow="fold")
    for name in rules.shape.options:
        opt = OPTION_BY_NAME[name]
        allowed = opt.allowed
        if name == "players":
            low, high = rules.shape.seats
            allowed = str(low) if low == high else f"{low}..{high}"
        table.add_row(opt.name, option_text(getattr(rules, opt.name)), allowed, opt.help)
    console.print(table)


UNBOUNDED_WIDTH = 10_000
"""Wider than any table: measured in it, a table shows its natural width, not the screen's."""


def _preset_settings(rules: Rules) -> dict[str, object]:
    """The options a preset sets away from the defaults (what makes it that preset)."""
    base = Rules(game=rules.game).options()
    return {k: v for k, v in rules.options().items() if base[k] != v}


LOG_LEVELS = ("debug", "info", "warning", "error")
"""``serve --log-level``: the levels both ``logging`` and uvicorn know, so that a typo is a
usage error before the server starts, not a traceback after it announced its address."""


def _log_level(value: str) -> str:
    level = value.lower()
    if level not in LOG_LEVELS:
        raise typer.BadParameter(
            f"unknown log level {value!r}: choose one of {', '.join(LOG_LEVELS)}"
        )
    return level


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0 for a LAN).")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port to listen on.")] = 8000,
    db: Annotated[
        str,
        typer.Option(
            help="Database URL: sqlite:///FILE (default, nothing to set up) or "
            "postgresql://user@host/db; the async driver is chosen for you."
        ),
    ] = "sqlite:///callbreak-tables.db",
    redis: Annotated[
        str | None,
        typer.Option(help="Redis URL, to let several server processes serve the same tables."),
    ] = None,
    grace: Annotated[
        float,
        typer.Option(
            min=0.0,
            max=GRACE_MAX_S,
            help="Seconds a dropped player keeps the seat before a bot plays on.",
        ),
    ] = 30.0,
    bot_delay: Annotated[
        float,
        typer.Option(
            min=0.0, help="Seconds a bot waits before it plays, so people can follow (0: none)."
        ),
    ] = 0.7,
    log_level: Annotated[
        str,
        typer.Option(callback=_log_level, metavar="LEVEL", help="debug, info, warning or error."),
    ] = "info",
) -> None:
    """Serve online tables: play any game of the family with friends in the browser."""
    from callbreak.server.config import ServerConfig, async_db_url
    from callbreak.server.run import serve as run_server

    try:
        async_db_url(db)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--db") from None
    config = ServerConfig(db=db, redis=redis, grace_s=grace, bot_delay_s=bot_delay)
    run_server(config, host=host, port=port, log_level=log_level)


@app.command("serve-bot")
def serve_bot(
    bot: Annotated[
        str, typer.Option(help="Bot spec to serve, e.g. heuristic or expert:budget_ms=300.")
    ] = "heuristic",
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[
        int, typer.Option(min=0, max=65535, help="Port (the tournament used 7000).")
    ] = 7000,
    threads: Annotated[
        int, typer.Option(min=1, help="Decisions computed at once by a quick bot (threads).")
    ] = 4,
    processes: Annotated[
        int | None,
        typer.Option(
            min=0,
            help="Worker processes for the decisions (default: one per CPU, at least four, for "
            "a bot that takes budget_ms, such as the expert; 0: threads for any bot).",
        ),
    ] = None,
    max_budget_ms: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Cap on a budgeted bot's thinking per decision: it thinks for at most the "
            "least of this, its own budget_ms (else 1000) and a safe share of timeBudget.",
        ),
    ] = None,
    imports: ImportFlag = None,
) -> None:
    """Serve a bot over the Bhoos tournament protocol (GET /hi, POST /bid, POST /play)."""
    from callbreak.protocol.bhoos.server import BotStartError, create_app
    from callbreak.protocol.bhoos.server import serve as serve_app

    _import_bots(imports)
    try:
        try:
            application = create_app(
                bot, threads=threads, processes=processes, max_budget_ms=max_budget_ms
            )
        except ValueError as error:
            raise typer.BadParameter(str(error), param_hint="--bot") from None
        typer.echo(f"Starting {bot}: its workers warm up before it serves.")
        serve_app(
            application,
            host,
            port,
            ready=lambda url: typer.echo(
                f"Serving {bot} on {url} (Bhoos protocol: /hi, /bid, /play)"
            ),
        )
    except (OSError, BotStartError) as error:
        where = f" on {host}:{port}" if isinstance(error, OSError) else ""
        typer.secho(f"serve-bot did not start{where}: {error}", fg="red", err=True)
        raise typer.Exit(1) from None
    except KeyboardInterrupt:  # at any time, warming up or serving: the workers are ended
        typer.secho("Interrupted: serve-bot stopped and its workers ended.", err=True)
        raise typer.Exit(EXIT_INTERRUPTED) from None


@app.command("import-bhoos")
def import_bhoos(
    log: Annotated[Path, typer.Argument(help="A Bhoos tournament game log (JSON).")],
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Where to write the game record (JSON).")
    ] = Path("bhoos-record.json"),
) -> None:
    """Turn a Bhoos tournament game log into a game record, checking every play and score.

    Exit status: 0 when every play keeps the rules and every logged score is the
    rules' score, 1 when something does not (the record is still written, up to
    the first play the rules refuse), 2 when the log cannot be read or the record cannot
    be written.
    """
    from callbreak.record import RecordError, write_record
    from callbreak.record import replay as replay_record
    from callbreak.record.bhoos import BhoosLogError, import_bhoos_log
    from callbreak.record.format import plain_json

    try:
        result = import_bhoos_log(plain_json(log.read_text(encoding="utf-8"), str(log)))
    except RecordError as error:  # nested too deep, or not text: it names the file
        typer.secho(str(error), fg="red", err=True)
        raise typer.Exit(2) from None
    except (OSError, ValueError) as error:  # BhoosLogError and bad JSON are ValueErrors
        kind = "log" if isinstance(error, BhoosLogError) else "file"
        typer.secho(f"{log}: cannot read the {kind}: {error}", fg="red", err=True)
        raise typer.Exit(2) from None
    for note in result.adjustments:
        typer.echo(f"rules: callbreak-bhoos with {note}")
    typer.echo(
        f"{log}: {result.rounds} rounds, {result.plays_checked} calls and cards checked, "
        f"{len(result.problems)} problem(s), {result.logged_errors} error(s) logged by the arena"
    )
    for problem in result.problems:
        typer.secho(f"  {problem}", fg="red")
    typer.echo(_scores_verdict(result))
    if result.final_totals is not None:
        typer.echo(
            "totals by the rules: "
            + ", ".join(
                f"{name} {total}"
                for name, total in zip(result.players, result.final_totals, strict=True)
            )
        )
    if result.record is None:
        typer.secho("no record written: not even the first round could be recorded", fg="red")
        raise typer.Exit(1)
    try:
        write_record(out, result.record)
    except OSError as error:  # a folder that does not exist, or one not ours to write
        typer.secho(f"{out}: cannot write the record: {error.strerror or error}", fg="red")
        raise typer.Exit(2) from None
    report = replay_record(result.record)
    state = "complete" if report.complete else "stops early"
    typer.echo(
        f"record written to {out}: {result.recorded_rounds} of {result.rounds} rounds, {state}, "
        "replays OK"
    )
    if not result.ok:
        raise typer.Exit(1)


def _scores_verdict(result: BhoosImport) -> str:
    """What the logged scores were found to be, claiming no more than was compared: a round
    the rules refused (or one logged without scores) is not compared, and "logged scores
    match" under a log whose round 2 was refused was read as all five checked."""
    checked = [s for s in result.scores if s.matches is not None]
    differ = [s.round for s in checked if s.matches is False]
    missed = [s for s in result.scores if s.matches is None]
    if not checked:
        verdict = "logged scores could not be compared with the rules' scores"
    elif differ:
        verdict = (
            f"logged scores DIFFER from the rules' scores in {_rounds(differ)} "
            f"({len(differ)} of the {count(len(checked), 'round')} checked)"
        )
    elif not missed:
        verdict = f"logged scores match the rules' scores in all {count(len(checked), 'round')}"
    else:
        verdict = (
            f"the logged scores of the {count(len(checked), 'round')} checked match the "
            "rules' scores"
        )
    unplayed = [s.round for s in missed if s.computed is None]
    unlogged = [s.round for s in missed if s.computed is not None]
    if unplayed:
        verdict += (
            f"; {_rounds(unplayed)} not compared: not played out under the rules (the problem "
            "above)"
        )
    if unlogged:
        verdict += f"; {_rounds(unlogged)} not compared: the log gives no change in scores for it"
    return verdict


def _rounds(numbers: Sequence[int]) -> str:
    """``round 2``, ``rounds 2, 4``: round numbers as a phrase."""
    return f"round{'s' if len(numbers) != 1 else ''} {', '.join(map(str, numbers))}"


app.command()(analyze)


def _one_line_paragraphs(text: str) -> str:
    """``text`` with each paragraph on one line, for the terminal to wrap.

    Typer's help joins the lines of a command's first paragraph but keeps the line breaks of
    the others, so a docstring wrapped at 100 columns broke mid-sentence at 80 ("every mix of
    the pool in the other / seats").  A paragraph marked ``\\b`` keeps its lines, as in click.
    """
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(p if p.startswith("\b") else " ".join(p.split()) for p in paragraphs)


def _interrupted_quietly(command: Callable[P, R]) -> Callable[P, R]:
    """Ctrl-C in a command that has no words of its own for it ends with the line and the
    status 130 that ``cli.entry`` gives one before the command started: typer would end it
    in silence, which could be taken for a finished command.  A command that catches Ctrl-C
    itself (arena, serve-bot, play) says what it stopped, and this never sees it."""

    @wraps(command)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except KeyboardInterrupt:
            typer.echo(INTERRUPTED, err=True)
            raise typer.Exit(EXIT_INTERRUPTED) from None

    return run


for _command in app.registered_commands:
    _command.help = _one_line_paragraphs(_command.help or inspect.getdoc(_command.callback) or "")
    if _command.callback is not None:
        _command.callback = _interrupted_quietly(_command.callback)


def _winners(record: dict[str, Any], winners: Sequence[int]) -> str:
    """The winners by the names the record gives its seats, each with its seat number as the
    record counts seats (from 0): "Asha (seat 0)"; "-" for a match not yet won."""
    seats = record.get("seats") or []
    named = [
        f"{seats[w]['name']} (seat {w})"
        if w < len(seats) and isinstance(seats[w], dict) and seats[w].get("name")
        else f"seat {w}"
        for w in winners
    ]
    return ", ".join(named) or "-"


def run() -> None:
    """``python -m callbreak.cli.main``; the ``callbreak`` script starts at ``cli.entry``,
    which also covers Ctrl-C while this module is imported."""
    app()


if __name__ == "__main__":
    run()
