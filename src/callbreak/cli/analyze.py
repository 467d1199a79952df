"""``callbreak analyze``: the review of a recorded match, deal by deal (the exact solver in the
Call Break games, playouts with the hands shown in the others).

Kept apart from ``cli/main.py`` (which only registers it) so that the
command's imports stay lazy: the solver and numba load when the command runs,
not when ``callbreak --help`` does.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from callbreak.cli.common import located

if TYPE_CHECKING:
    from callbreak.analysis import DealReview


def analyze(
    record: Annotated[Path, typer.Argument(help="A match record (.json or .jsonl).")],
    seat: Annotated[int, typer.Option(help="The seat to review (0 = South, you in play).")] = 0,
    deal: Annotated[
        int | None, typer.Option(help="Review only deal K (1-based, as numbered in the match).")
    ] = None,
    match: Annotated[
        int, typer.Option(min=1, help="Which match of a file holding several (1-based).")
    ] = 1,
    json_out: Annotated[bool, typer.Option("--json", help="Print the review as JSON.")] = False,
    every: Annotated[
        bool, typer.Option("--all", help="List every decision, not only those that lost value.")
    ] = False,
    expert: Annotated[
        str,
        typer.Option(
            help="Bot spec for the second opinion (what it plays with only the seat's "
            "information), or 'none'. The solver's games only."
        ),
    ] = "expert:deterministic=1,worlds=32,call_worlds=32",
    node_limit: Annotated[
        int,
        typer.Option(
            min=1000,
            help="Solver nodes per question; past it a decision is 'unknown'. The solver's "
            "games only.",
        ),
    ] = 30_000_000,
    from_trick: Annotated[
        int,
        typer.Option(
            min=1,
            help="Review the cards from this trick on only (the decisions before the play "
            "are always reviewed).",
        ),
    ] = 1,
    threads: Annotated[
        int, typer.Option(min=1, max=2, help="Solver threads. The solver's games only.")
    ] = 2,
) -> None:
    """Where the points went: every decision of a seat valued, deal by deal.

    Call Break, its Bhoos preset, Call Bridge and Batak Koz Maça: the exact solver values
    each legal card with all hands known, against best defence, under the scoring in force;
    the call is set against the largest call makeable from the start; the expert's choice
    with only the seat's information tells a blunder from bad luck.

    Every other game: each decision (bids, trump, discards, exchanges, drops and the cards) is
    valued by playouts with the hands shown, the deal finished by the heuristic.

    Every decision that lost value is shown with the better one and the cost
    (docs/analysis.md).
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from callbreak.analysis import AnalysisError, Analyst, played_deals
    from callbreak.record import RecordError, read_records
    from callbreak.record import replay as replay_record

    err = Console(stderr=True)
    try:
        records = read_records(record)
        if not 1 <= match <= len(records):
            raise typer.BadParameter(
                f"{record} holds {len(records)} match(es)", param_hint="--match"
            )
        rebuilt = replay_record(records[match - 1]).match
    except (OSError, RecordError, AnalysisError) as error:
        typer.secho(located(record, error), fg="red", err=True)
        raise typer.Exit(1) from None
    if not 0 <= seat < rebuilt.players:
        raise typer.BadParameter(
            f"give a seat from 0 to {rebuilt.players - 1}", param_hint="--seat"
        )
    deals = played_deals(rebuilt)
    if deal is not None:
        deals = [(number, d) for number, d in deals if number == deal]
        if not deals:
            raise typer.BadParameter(f"the match has no played deal {deal}", param_hint="--deal")
    if not deals:
        typer.secho(f"{record}: no deal was played out: nothing to review", fg="red", err=True)
        raise typer.Exit(1)
    longest = max(d.hand_size for _, d in deals)
    if from_trick > longest:
        raise typer.BadParameter(
            f"the deals have {longest} tricks at most", param_hint="--from-trick"
        )
    if expert != "none":
        _check_bot(expert)

    analyst = Analyst(
        node_limit=node_limit,
        expert=None if expert == "none" else expert,
        threads=threads,
        from_trick=from_trick,
    )
    total = sum(Analyst.decisions(d) for _, d in deals)
    reviews: list[DealReview] = []
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, console=err, transient=True, disable=not err.is_terminal) as bar:
        task = bar.add_task("Compiling the solver (once)", total=total)
        analyst.warm_up()
        for number, played in deals:
            bar.update(task, description=f"Deal {number}")
            try:
                reviews.append(analyst.deal(played, seat, number, lambda n: bar.advance(task, n)))
            except (AnalysisError, ValueError) as error:  # one deal: the others still count
                typer.secho(f"{record}: deal {number} is not reviewed: {error}", fg="red", err=True)
    if not reviews:
        raise typer.Exit(1)
    if json_out:
        typer.echo(json.dumps(_document(record, match, rebuilt.rules.name, seat, reviews)))
        return
    _print(Console(), rebuilt.rules.title, seat, reviews, every)


def _check_bot(spec: str) -> None:
    """Refuse an unknown second opinion before any work, as the arena refuses a seat."""
    from callbreak.bots import make_bot

    try:
        make_bot(spec, seed=0)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--expert") from None


def _document(
    record: Path, match: int, rules: str, seat: int, reviews: list[DealReview]
) -> dict[str, Any]:
    from callbreak.points import Points

    lost = sum((r.lost for r in reviews), Points(0))
    call_lost = sum((r.call_lost for r in reviews), Points(0))
    decisions = sum(len(r.decisions) for r in reviews)
    return {
        "record": str(record),
        "match": match,
        "rules": rules,
        "seat": seat,
        "deals": [r.json() for r in reviews],
        "summary": {
            "decisions": decisions,
            "mistakes": sum(len(r.mistakes) for r in reviews),
            "unknown": sum(r.unknown for r in reviews),
            "lost": lost.json(),
            "call_lost": call_lost.json(),  # the solver's calls, reviewed apart from the cards
            "lost_per_decision": round(float(lost) / decisions, 3) if decisions else 0.0,
        },
    }


def _print(console: Console, title: str, seat: int, reviews: list[DealReview], every: bool) -> None:
    from callbreak.analysis import SOLVER, signed

    method = reviews[0].method if reviews else SOLVER
    how = "all hands known, best defence" if method == SOLVER else f"valued by {method}"
    console.print(f"[bold]{title}[/]: review of seat {seat}, {how}")
    for review in reviews:
        call, words = review.call.call, review.words  # a Spades seat bids
        console.print()
        heading = words.reword(review.heading("")).strip()
        console.print(f"[bold]Deal {review.number}[/] (dealer {review.dealer}): {heading}")
        console.print(f"  {words.reword(review.call.text())}", highlight=False)
        shown = review.decisions if every else review.mistakes
        for decision in shown:
            if decision.mistake:
                style = "red" if decision.verdict in ("blunder", "mistake") else "yellow"
                console.print(f"  [{style}]{words.reword(decision.text(call))}[/]", highlight=False)
            elif decision.values is not None and review.called:
                value = decision.played_value
                assert value is not None
                console.print(
                    f"  trick {decision.trick}: {decision.played}: best, {signed(value)}",
                    highlight=False,
                )
            else:
                console.print(f"  {words.reword(decision.text(call))}", highlight=False)
        console.print(f"  {words.reword(summary_line(review))}", highlight=False)


def summary_line(review: DealReview) -> str:
    """A deal's last line: its decisions in their own noun, and what the call lost beside
    them (``DealReview.noun``, ``DealReview.call_lost``)."""
    from callbreak.analysis import signed
    from callbreak.points import Points

    line = (
        f"{len(review.mistakes)} of {len(review.decisions)} {review.noun} lost value "
        f"({signed(-review.lost)} in all)"
    )
    if review.unknown:
        line += f", {review.unknown} unknown"
    if review.call_lost > Points(0):
        line += f"; the call lost {review.call_lost.tenths / 10:.1f}"
    return line
