"""``callbreak arena --pool``: a candidate against every mix of a pool, as rich tables or JSON."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from functools import partial

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from callbreak.arena.pool import POOLS, PoolConfig, PoolResult, mix_mode, playable_pool
from callbreak.arena.stats import Interval
from callbreak.cli.common import add_name_columns, count, fit_table
from callbreak.faces import contract_words
from callbreak.rules import Rules, option_text

POOL_HELP = (
    "Measure --candidate against a pool instead of one lineup: a pool name ("
    + ", ".join(f"{name}: {' '.join(specs)}" for name, specs in POOLS.items())
    + ") or bot specs (repeat the option, or separate them with spaces). "
    "The candidate takes one seat and every mix of the pool the others (see --mixes); "
    "--deals counts deal sets per mix, all mixes on the same deals."
)
MIXES_HELP = (
    "Mixes of the other seats with --pool: 'repeat' (combinations with repetition: 4 bots "
    "give 20 mixes, 5 give 35, 7 give 84), 'distinct' (without repetition: 7 bots give 35), "
    "'uniform' (three of one bot, one mix per bot), or 'auto': repeat up to 5 bots, "
    "distinct beyond."
)


def mix_name(mix: tuple[str, ...]) -> str:
    """``('cautious', 'cautious', 'trumper')`` → ``"2× cautious + trumper"``."""
    return " + ".join(
        spec if count == 1 else f"{count}× {spec}" for spec, count in Counter(mix).items()
    )


def arena_pool(
    rules: Rules,
    pool: list[str],
    candidate: str | None,
    mode: str,
    deals: int,
    seed: int,
    workers: int | None,
    ray: str | None,
    json_out: bool,
    whole_matches: bool = False,
) -> None:
    """Run the pool and print its figures (the ``arena`` command with ``--pool``)."""
    from rich.progress import MofNCompleteColumn, Progress, TimeRemainingColumn

    from callbreak.arena import ArenaError
    from callbreak.arena.errors import GameStalled
    from callbreak.arena.pool import run_pool
    from callbreak.arena.remote import RemoteSeatDown

    if candidate is None:
        raise typer.BadParameter(
            "give the bot to measure against the pool, e.g. --candidate expert:budget_ms=50",
            param_hint="--candidate",
        )
    try:
        members, notes = playable_pool(pool, rules)
        config = PoolConfig(rules, candidate, members, deals, seed, mode, whole_matches)
        config.check()
        mix_list = config.mixes
    except ArenaError as error:
        raise typer.BadParameter(str(error), param_hint="--pool") from None
    console = Console(stderr=json_out)
    for note in notes:
        console.print(note, style="yellow", highlight=False, markup=False)
    columns = (*Progress.get_default_columns()[:-1], MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(
            f"Playing {'whole matches' if whole_matches else 'deal sets'} ({len(mix_list)} mixes)",
            total=deals * len(mix_list),
        )
        try:
            result = run_pool(
                config, workers, ray_address=ray, progress=lambda done: bar.advance(task, done)
            )
        except (RemoteSeatDown, GameStalled) as error:  # mid-run: the run stops
            typer.secho(str(error), fg="red", err=True)
            raise typer.Exit(1) from None
        except ArenaError as error:
            raise typer.BadParameter(str(error), param_hint="--ray") from None
    if json_out:
        typer.echo(json.dumps(result.json(), indent=2))
        return
    print_pool(console, result)


def _edge(edge: Interval) -> str:
    """``+0.58±0.31``: an edge with its sign (and no ``-0.00``)."""
    shown = f"{round(edge.mean, 2) + 0.0:+.2f}"
    return shown if edge.half_width is None else f"{shown}±{edge.half_width:.2f}"


def _mix_table(result: PoolResult, called: str, layout: int, names: Sequence[str]) -> Table:
    """One row per mix, by ``names`` (cut short to fit: ``fit_table``), the worst in red."""
    table = Table(
        title=f"{result.config.candidate} against each mix (± is a 95% interval over deal sets)",
        box=box.SIMPLE_HEAD,
    )
    add_name_columns(table, "Mix", ("Edge", "Points/deal", "Mix points", "Won", "Made", called))
    for mix, name in zip(result.mixes, names, strict=True):
        table.add_row(
            name,
            _edge(mix.edge),
            mix.points.text().replace(" ± ", "±"),
            f"{mix.mix_points:.2f}",
            "-" if mix.match_share is None else f"{mix.match_share:.0%}",
            "-" if mix.made_rate is None else f"{mix.made_rate:.1%}",
            "-" if mix.call_minus_won is None else f"{mix.call_minus_won:+.2f}",
            style="bold red" if mix is result.worst else None,
        )
    return table


def _member_table(result: PoolResult, layout: int, names: Sequence[str]) -> Table:
    """The candidate's edge over each member of the pool, by ``names``."""
    members = Table(title="Edge over each member", box=box.SIMPLE_HEAD)
    add_name_columns(members, "Member", ("Edge", "Mixes it sits in"))
    for (spec, edge), name in zip(result.members.items(), names, strict=True):
        sitting = sum(spec in mix.mix for mix in result.mixes)
        members.add_row(name, _edge(edge), str(sitting))
    return members


def print_pool(console: Console, result: PoolResult) -> None:
    """One row per mix, the worst marked; then the edge over each member and over the pool."""
    config = result.config
    rules = config.rules
    changed = ", ".join(f"{k}={option_text(v)}" for k, v in rules.changed().items())
    mode = mix_mode(len(config.pool), config.mode)
    games = config.deals * rules.players * len(result.mixes)
    console.print(
        f"[bold]{rules.name}[/]{f' ({changed})' if changed else ''}: [bold]{config.candidate}[/] "
        f"against {len(result.mixes)} mixes ({mode}) of {len(config.pool)} bots, "
        f"{count(config.deals, 'match' if config.whole_matches else 'deal')} × {rules.players} "
        f"rotations each = {games} games, "
        f"seed {config.seed}, {result.workers} worker(s) ({result.backend}), {result.wall_s:.1f} s"
    )
    worst = result.worst
    words = contract_words(rules.game)  # a Spades seat bids
    called = f"{words.word.capitalize()}−won"
    mixes = [mix_name(mix.mix) + (" *" if mix is worst else "") for mix in result.mixes]
    console.print(fit_table(console, partial(_mix_table, result, called), 1, mixes))
    console.print(fit_table(console, partial(_member_table, result), 1, list(result.members)))
    made = "-" if result.made_rate is None else f"{result.made_rate:.1%}"
    over = "-" if result.call_minus_won is None else f"{result.call_minus_won:+.2f}"
    ms = result.decision_ms
    timing = (
        f"; decisions p50 {ms['p50']:.3g} ms, p99 {ms['p99']:.3g} ms, max {ms['max']:.3g} ms"
        if ms
        else ""
    )
    fallbacks = (
        f", {result.fallbacks} of {result.decisions} answered by a stand-in (out of time)"
        if result.fallbacks
        else ""
    )
    beaten = sum(mix.clear for mix in result.mixes)
    share = result.match_share
    won = (
        "-" if share is None else f"{share:.0%} of {result.matches} matches (par {result.par:.0%})"
    )
    console.print(
        f"Worst mix (*): [bold]{mix_name(worst.mix)}[/], edge {_edge(worst.edge)}. "
        f"Whole pool: edge {_edge(result.overall)}, won {won}, made {made}, "
        f"{called.lower()} {over}{timing}{fallbacks}. Edge clear of zero against {beaten} of "
        f"{len(result.mixes)} mixes."
    )
    console.print(
        "Edge: per deal set, the candidate's mean points minus the mix's seats' mean on the "
        "same games (countdown games: counted the other way round). Points/deal: the "
        "candidate's. Won: its share of the matches ("
        + ("whole matches" if config.whole_matches else f"{rules.match_deals} consecutive deals")
        + ", one per rotation), ties shared. "
        + words.reword(
            f"Made, {called}: its calls made and mean call minus what it won (tricks; "
            "Call Partner: its side's card points)."
        )
    )
    illegal = sum(mix.illegal for mix in result.mixes)
    others = sum(mix.mix_illegal for mix in result.mixes)
    if illegal or others:
        console.print(
            f"[red]illegal or late answers: {illegal} by the candidate, {others} by the pool "
            "(each replaced by a random legal action)[/]"
        )
