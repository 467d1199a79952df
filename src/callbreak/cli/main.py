"""The ``callbreak`` command (Typer): play, selfplay, replay, rules."""

from __future__ import annotations

import random
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from callbreak.bots import available_bots, make_bot
from callbreak.bots.levels import LEVELS, level_spec
from callbreak.cli.common import SEAT_NAMES, rules_from_flags
from callbreak.engine import Match
from callbreak.rules import OPTIONS, Rules, option_text

if TYPE_CHECKING:
    from callbreak.arena import ArenaSummary

app = typer.Typer(
    help="Call Break and its family: play at the terminal, let bots play, verify game records.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

RulesFlag = Annotated[
    str, typer.Option("--rules", "-r", help="Preset: callbreak, callbreak-bhoos, callbridge.")
]
OptionFlag = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="Change a rule option: name=value (repeatable)."),
]


@app.command()
def play(
    rules: RulesFlag = "callbreak",
    option: OptionFlag = None,
    level: Annotated[
        str, typer.Option(help="How strong the three bots play: " + ", ".join(LEVELS) + ".")
    ] = "medium",
    bot: Annotated[
        str | None,
        typer.Option(help="A bot spec for the three other seats instead of a level."),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed: the same seed deals the same cards.")
    ] = None,
    record: Annotated[
        Path | None, typer.Option(help="Save the match record (JSON) here as it goes.")
    ] = None,
    name: Annotated[str, typer.Option(help="Your name at the table.")] = "You",
) -> None:
    """Play a match at the terminal against three bots (you are South, seat 0)."""
    from callbreak.cli.play import TerminalGame, record_saver

    game_rules = rules_from_flags(rules, option)
    rng = random.Random(seed)
    try:
        spec = bot if bot is not None else level_spec(level)
        bots = {seat: make_bot(spec, seed=rng.getrandbits(32)) for seat in (1, 2, 3)}
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--bot/--level") from None
    match = Match(game_rules, seed=seed)
    seats = [{"name": name, "player": "human"}] + [
        {"name": SEAT_NAMES[s], "player": f"bot:{spec}"} for s in (1, 2, 3)
    ]
    TerminalGame(match, bots, name=name, save=record_saver(record, seats)).run()
    if record is not None:
        Console().print(f"Record saved to {record}")


@app.command()
def selfplay(
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Matches to play.")] = 10,
    seed: Annotated[int, typer.Option(help="Seed of the first match; each next adds 1.")] = 0,
    rules: RulesFlag = "callbreak",
    option: OptionFlag = None,
    bot: Annotated[
        list[str] | None, typer.Option(help="Bot spec per seat (repeat up to 4; default random).")
    ] = None,
    deals: Annotated[
        int, typer.Option(help="With match_end=open: deals to play before stopping.")
    ] = 5,
    out: Annotated[
        Path, typer.Option("--out", help="Where to write records (JSON Lines if .jsonl or many).")
    ] = Path("selfplay.jsonl"),
) -> None:
    """Let bots play matches and write their game records."""
    from rich.progress import track

    from callbreak.record import match_record, write_record

    game_rules = rules_from_flags(rules, option)
    specs = list(bot or ["random"])
    if len(specs) == 1:
        specs *= 4
    if len(specs) != 4:
        raise typer.BadParameter("give one --bot for all seats or one for each of the 4 seats")
    records = []
    for game in track(range(games), description="Playing", disable=games < 20):
        match_seed = seed + game
        rng = random.Random(match_seed)
        try:
            bots = [make_bot(spec, seed=rng.getrandbits(32)) for spec in specs]
        except ValueError as error:
            raise typer.BadParameter(str(error), param_hint="--bot") from None
        match = Match(game_rules, seed=match_seed)
        while not match.over:
            seat = match.to_act
            assert seat is not None
            match.act(bots[seat].act(match.observation(seat)))
            if (
                game_rules.match_end == "open"
                and len(match.scored_deals) >= deals
                and not match.tie_break
                and match.deal.phase in ("call", "misdeal")
                and not any(c is not None for c in match.deal.calls)
                and not match.deal.claims
            ):
                match.finish()
        seats = [{"name": SEAT_NAMES[s], "player": f"bot:{spec}"} for s, spec in enumerate(specs)]
        records.append(match_record(match, seats=seats, seed=match_seed))
    write_record(out, records if len(records) > 1 or out.suffix == ".jsonl" else records[0])
    typer.echo(f"Wrote {len(records)} match record(s) to {out}")


@app.command()
def replay(
    files: Annotated[list[Path], typer.Argument(help="Record files (.json or .jsonl).")],
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only errors.")] = False,
) -> None:
    """Re-play game records through the rules engine and verify every card and total."""
    from callbreak.record import RecordError, read_records
    from callbreak.record import replay as replay_record

    failed = 0
    for path in files:
        try:
            records = read_records(path)
        except (OSError, ValueError) as error:
            typer.secho(f"{path}: {error}", fg="red", err=True)
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
            if not quiet:
                totals = ", ".join(str(t) for t in report.totals)
                state = "complete" if report.complete else "unfinished"
                winners = ", ".join(str(w) for w in report.winners) or "-"
                typer.echo(
                    f"{where}: OK — {report.deals} deals, {state}, totals [{totals}], "
                    f"winner seat(s) {winners}"
                )
    if failed:
        raise typer.Exit(1)


@app.command()
def arena(
    seat: Annotated[
        list[str] | None,
        typer.Option(
            help="Bot spec for a seat, e.g. expert:budget_ms=300 (repeat: once for all four "
            "seats, or four times; default heuristic against three random)."
        ),
    ] = None,
    rules: RulesFlag = "callbreak",
    option: OptionFlag = None,
    deals: Annotated[
        int,
        typer.Option(min=1, help="Distinct deals; each is played once per seat rotation (4×)."),
    ] = 1000,
    seed: Annotated[
        int, typer.Option(help="Seed of the deals and the bots: the same seed, the same games.")
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
) -> None:
    """Measure bots on duplicate deals: each deal is played with the seats rotated, luck cancels."""
    import json

    from rich.progress import MofNCompleteColumn, Progress, TimeRemainingColumn

    from callbreak.arena import ArenaConfig, ArenaError, lineup, run_arena, summarize

    game_rules = rules_from_flags(rules, option)
    try:
        specs = lineup(seat or ["heuristic", "random", "random", "random"], game_rules.players)
    except ArenaError as error:
        raise typer.BadParameter(str(error), param_hint="--seat") from None
    config = ArenaConfig(game_rules, specs, deals, seed, keep_records=report is not None)
    console = Console(stderr=json_out)
    columns = (*Progress.get_default_columns()[:-1], MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("Playing deal sets", total=deals)
        try:
            run = run_arena(
                config,
                workers,
                ray_address=ray,
                progress=lambda done: bar.advance(task, done),
            )
        except ArenaError as error:
            raise typer.BadParameter(str(error), param_hint="--ray") from None
    summary = summarize(run)
    page = None
    if report is not None:
        from callbreak.arena.report import write_report

        page = write_report(summary, report)
    if json_out:
        document = summary.json()
        if page is not None:
            document["report"] = str(page)
        typer.echo(json.dumps(document, indent=2))
        return
    _print_arena(console, summary)
    if page is not None:
        console.print(f"Report written to {page}")


def _print_arena(console: Console, summary: ArenaSummary) -> None:
    """The arena's figures as rich tables: one row per bot, then calibration by call."""
    run = summary.run
    config = run.config
    changed = ", ".join(f"{k}={option_text(v)}" for k, v in config.rules.changed().items())
    console.print(
        f"[bold]{config.rules.name}[/]{f' ({changed})' if changed else ''}: "
        f"{config.deals} deals × {config.players} rotations = {config.deals * config.players} "
        f"games, seed {config.seed}, {run.workers} worker(s) ({run.backend}), {run.wall_s:.1f} s"
    )
    table = Table(title="Arena (± is a 95% interval over deal sets)", box=box.SIMPLE_HEAD)
    for heading in ("Bot", "Points/deal", "Edge", "Won", "Made", "Call−won", "Rating"):
        table.add_column(heading, justify="left" if heading == "Bot" else "right")
    timing = Table(title="Decisions", box=box.SIMPLE_HEAD)
    for heading in ("Bot", "Count", "p50 ms", "p99 ms", "Max ms", "Illegal", "Misdeals"):
        timing.add_column(heading, justify="left" if heading == "Bot" else "right")
    for bot in summary.bots:
        table.add_row(
            bot.spec,
            bot.points.text().replace(" ± ", "±"),
            "-" if bot.edge is None else bot.edge.text().replace(" ± ", "±"),
            "-" if bot.match_share is None else f"{bot.match_share:.1%}",
            f"{bot.made_rate:.1%}",
            f"{bot.mean_call_minus_tricks:+.2f}",
            f"{bot.rating_mu:.1f}±{bot.rating_sigma:.1f}",
        )
        ms = bot.decision_ms or {}
        timing.add_row(
            bot.spec,
            str(bot.decisions),
            *(f"{ms[key]:.3g}" if key in ms else "-" for key in ("p50", "p99", "max")),
            str(bot.illegal),
            str(bot.misdeal_claims),
            style="red" if bot.illegal else None,
        )
    console.print(table)
    console.print(timing)
    calibration = Table(
        title="Calibration by call: games, made, mean tricks won", box=box.SIMPLE_HEAD
    )
    calibration.add_column("Call", justify="right")
    for bot in summary.bots:
        calibration.add_column(bot.spec, justify="right")
    by_bot = [{row.call: row for row in bot.calibration} for bot in summary.bots]
    for call in sorted({call for rows in by_bot for call in rows}):
        cells = []
        for rows in by_bot:
            row = rows.get(call)
            cells.append(
                "" if row is None else f"{row.count}  {row.made_rate:.0%}  {row.mean_tricks:.2f}"
            )
        calibration.add_row(str(call), *cells)
    console.print(calibration)
    console.print(
        f"Edge: paired per-deal-set difference from the other bots' points. Won: share of "
        f"matches ({config.rules.match_deals} consecutive deals, one rotation) won, ties shared; "
        "25% is par. Made: calls made. Call−won: mean call minus tricks won. Rating: openskill "
        "Plackett–Luce μ±σ. Misdeals: misdeals claimed."
    )
    for example in run.illegal_examples:
        console.print(Text.assemble(("illegal: ", "red"), example))


@app.command("rules")
def show_rules(
    preset: Annotated[str | None, typer.Argument(help="A preset to show in full.")] = None,
) -> None:
    """List the presets, or show every option of one preset with its meaning."""
    console = Console()
    if preset is None:
        table = Table(title="Presets (callbreak rules PRESET shows one)")
        table.add_column("Preset")
        table.add_column("Differs from callbreak")
        base = Rules.preset("callbreak").options()
        for name in Rules.presets():
            diff = {k: v for k, v in Rules.preset(name).options().items() if base[k] != v}
            table.add_row(name, ", ".join(f"{k}={option_text(v)}" for k, v in diff.items()) or "-")
        console.print(table)
        console.print("Bots: " + "; ".join(f"{k} — {v}" for k, v in available_bots().items()))
        return
    try:
        rules = Rules.preset(preset)
    except ValueError as error:
        raise typer.BadParameter(str(error)) from None
    table = Table(title=f"Rules of {preset}", show_lines=True)
    table.add_column("Option", style="bold")
    table.add_column("Value")
    table.add_column("Allowed")
    table.add_column("Meaning")
    for opt in OPTIONS:
        table.add_row(opt.name, option_text(getattr(rules, opt.name)), opt.allowed, opt.help)
    console.print(table)


def run() -> None:
    """Entry point of the ``callbreak`` script."""
    app()


if __name__ == "__main__":
    run()
