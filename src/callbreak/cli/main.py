"""The ``callbreak`` command (Typer): play, selfplay, replay, rules."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from callbreak.bots import available_bots, make_bot
from callbreak.cli.common import SEAT_NAMES, rules_from_flags
from callbreak.engine import Match
from callbreak.rules import OPTIONS, Rules, option_text

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
    bot: Annotated[
        str, typer.Option(help="Bot for the three other seats (see `callbreak rules`).")
    ] = "heuristic",
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
        bots = {seat: make_bot(bot, seed=rng.getrandbits(32)) for seat in (1, 2, 3)}
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--bot") from None
    match = Match(game_rules, seed=seed)
    seats = [{"name": name, "player": "human"}] + [
        {"name": SEAT_NAMES[s], "player": f"bot:{bot}"} for s in (1, 2, 3)
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
