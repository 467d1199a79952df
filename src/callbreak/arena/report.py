"""The arena's HTML report: summary and calibration tables, PNG plots, and every game record.

``write_report(summary, directory)`` writes ``index.html`` (no scripts, no
external styles: it opens from the disk anywhere), the plots it shows as PNG
files beside it, and ``records.jsonl`` with one game record per game played,
in deal-set then rotation order, so any game can be re-played and checked
with ``callbreak replay``.  matplotlib is imported by ``arena.figure`` when the
first plot is drawn, so neither ``import callbreak`` nor a run without ``--report``
pays for it.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING

from callbreak.arena.figure import new_figure
from callbreak.arena.summary import ArenaSummary, BotStats
from callbreak.rules import option_text

if TYPE_CHECKING:
    from callbreak.arena.value_lost import ValueLost

PLOTS = {
    "points.png": "Points per deal, every game of each bot",
    "calibration.png": "Calibration: mean won (tricks; Call Partner: card points) for each call",
    "ratings.png": "Openskill rating μ as the run went on",
}
"""The PNG files of a report and their captions."""


def plot_points(summary: ArenaSummary, path: Path) -> None:
    """Box plot of points per game by bot: the spread the means and intervals summarize."""
    figure = new_figure()
    axes = figure.add_subplot()
    bots = summary.bots
    axes.boxplot([bot.points_per_game for bot in bots], showmeans=True)
    axes.set_xticks(range(1, len(bots) + 1), [bot.spec for bot in bots])
    axes.axhline(0, color="grey", linewidth=0.5)
    axes.set_ylabel("points in one deal")
    axes.set_title("Points per deal (box: quartiles, triangle: mean)")
    figure.savefig(path)


def plot_calibration(summary: ArenaSummary, path: Path) -> None:
    """Mean tricks taken against the call: a well-calibrated bot sits on or just above y = x."""
    figure = new_figure()
    axes = figure.add_subplot()
    top = 1
    for bot in summary.bots:
        calls = [row.call for row in bot.calibration]
        tricks = [row.mean_tricks for row in bot.calibration]
        axes.plot(calls, tricks, marker="o", label=bot.spec)
        top = max([top, *calls])
    axes.plot(
        [0, top], [0, top], color="grey", linestyle="--", linewidth=0.8, label="tricks = call"
    )
    axes.set_xlabel("call")
    axes.set_ylabel("mean won (tricks, or card points)")
    axes.set_title("Calibration")
    axes.legend()
    figure.savefig(path)


def plot_ratings(summary: ArenaSummary, path: Path) -> None:
    """Rating μ by bot against the deal sets played: where it settles and how fast."""
    figure = new_figure()
    axes = figure.add_subplot()
    history = summary.rating_history
    step = max(1, len(history) // 500)
    points = history[::step]
    if history and points[-1] is not history[-1]:
        points.append(history[-1])
    xs = [played for played, _ in points]
    for bot in summary.bots:
        axes.plot(xs, [mus[bot.spec] for _, mus in points], label=bot.spec)
    axes.set_xlabel("deal sets played (4 games each)")
    axes.set_ylabel("openskill μ (Plackett–Luce)")
    axes.set_title("Ratings over the run")
    axes.legend()
    figure.savefig(path)


def _fmt(value: float | None, digits: int = 2, percent: bool = False) -> str:
    if value is None:
        return "–"
    return f"{value * 100:.1f}%" if percent else f"{value:.{digits}f}"


def _summary_rows(bots: list[BotStats]) -> str:
    rows = []
    for bot in bots:
        ms = bot.decision_ms or {}
        cells = [
            bot.spec,
            str(bot.games),
            bot.points.text(),
            "–" if bot.edge is None else bot.edge.text(),
            _fmt(bot.match_share, percent=True),
            _fmt(bot.made_rate, percent=True),
            _fmt(bot.mean_call_minus_tricks),
            f"{bot.rating_mu:.2f} ± {bot.rating_sigma:.2f}",
            " / ".join(_fmt(ms.get(k), 3) for k in ("p50", "p99", "max")),
            str(bot.illegal),
            str(bot.timeouts),
            str(bot.fallbacks),
        ]
        rows.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>")
    return "\n".join(rows)


def _calibration_tables(bots: list[BotStats]) -> str:
    parts = []
    for bot in bots:
        rows = "\n".join(
            f"<tr><td>{row.call}</td><td>{row.count}</td><td>{_fmt(row.made_rate, percent=True)}"
            f"</td><td>{row.mean_tricks:.2f}</td></tr>"
            for row in bot.calibration
        )
        parts.append(
            f"<h3>{html.escape(bot.spec)}</h3>\n<table><tr><th>call</th><th>games</th>"
            f"<th>made</th><th>mean won</th></tr>\n{rows}\n</table>"
        )
    return "\n".join(parts)


def _sides_note(summary: ArenaSummary) -> str:
    """In a partnership game, which lineup entries (seats in rotation 0) make each side."""
    if not summary.by_side:
        return ""
    seats = summary.run.config.seats
    sides = "; ".join(
        " and ".join(f"#{e} {html.escape(seats[e])}" for e in team)
        for team in summary.run.config.teams
    )
    return (
        f'<p class="note">Partnership game: each row is a side, whose partners share one score '
        f"(one result per game), its edge measured against the other sides. Sides, by lineup "
        f"entry (the seat it holds in the first rotation; every rotation keeps partners "
        f"together): {sides}.</p>"
    )


def _rated_as(summary: ArenaSummary) -> str:
    """How openskill saw one game: the sides as teams, or every seat for itself."""
    teams = len(summary.run.config.teams)
    if summary.by_side:
        return f"a match of {teams} teams, the partners of a side one team"
    return f"a {teams}-player free-for-all"


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; }
table { border-collapse: collapse; margin: 1em 0; }
td, th { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
td:first-child, th:first-child { text-align: left; }
img { max-width: 100%; display: block; margin: 1em 0; }
.note { color: #555; }
"""


def render_html(summary: ArenaSummary, value_lost: ValueLost | None = None) -> str:
    """The report page; the plots are referenced by file name, relative to the page.
    ``value_lost`` (``arena.value_lost``) adds its section after the calibration tables."""
    run = summary.run
    config = run.config
    changed = config.rules.changed().items()  # as the rule book writes them: on, not True
    options = ", ".join(f"{k}={option_text(v)}" for k, v in changed) or "preset values"
    plots = "\n".join(
        f'<figure><img src="{name}" alt="{html.escape(caption)}">'
        f"<figcaption>{html.escape(caption)}</figcaption></figure>"
        for name, caption in PLOTS.items()
    )
    illegal = ""
    if run.illegal_examples:
        items = "".join(f"<li>{html.escape(e)}</li>" for e in run.illegal_examples)
        illegal = (
            f"<h2>Illegal answers, errors and timeouts (first {len(run.illegal_examples)})</h2>"
            f"<ul>{items}</ul>"
        )
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>callbreak arena: {html.escape(" vs ".join(config.seats))}</title>
<style>{_STYLE}</style>
</head>
<body>
<h1>callbreak arena</h1>
<p>Rules <b>{html.escape(config.rules.name)}</b> ({html.escape(options)}); seats
{html.escape(", ".join(config.seats))}; {config.deals} deal sets × {config.players} rotations
= {config.deals * config.players} games; seed {config.seed}; {run.workers} worker(s),
{run.backend}; {run.wall_s:.1f} s. Void deals: {summary.redraws} redrawn as dealt,
{summary.redeals} redealt after a claim or low calls.</p>
<h2>Summary</h2>
{_sides_note(summary)}
<table>
<tr><th>{"side" if summary.by_side else "bot"}</th><th>games</th><th>points/deal (95% CI)</th>
<th>edge vs others</th>
<th>matches won</th><th>made</th><th>call − tricks</th><th>rating μ ± σ</th>
<th>decision ms p50 / p99 / max</th><th>illegal</th><th>timeouts</th><th>fallbacks</th></tr>
{_summary_rows(summary.bots)}
</table>
<p class="note">Every deal set is played once per rotation of the seats, so each bot holds every
hand from every seat. Intervals are 95% Student-t; their standard error comes from the
per-deal-set means (points) and the per-deal-set paired differences (edge). Matches won:
{summary.match_unit}, ties shared; {summary.par:.0%}
is par. Ratings: openskill Plackett–Luce, each game {_rated_as(summary)} ranked by points.</p>
<h2>Calibration by call</h2>
{_calibration_tables(summary.bots)}
{"" if value_lost is None else value_lost.html()}
<h2>Plots</h2>
{plots}
{illegal}
<p class="note">Game records: <a href="records.jsonl">records.jsonl</a>
(one per game, in deal-set then rotation order; <code>callbreak replay</code> verifies them).</p>
</body>
</html>
"""


def write_report(
    summary: ArenaSummary, directory: Path, value_lost: ValueLost | None = None
) -> Path:
    """Write ``index.html``, the plots and ``records.jsonl`` into ``directory``; the page's path.

    ``value_lost`` (``arena.value_lost.analyse_run``) adds each bot's value lost per
    decision: a table and its plot, or the note saying why it is not there.

    The records are the ones the run kept (``ArenaConfig.keep_records``); a
    run without them gets an empty ``records.jsonl`` rather than a stale one.
    """
    from callbreak.record import write_record

    directory.mkdir(parents=True, exist_ok=True)
    plot_points(summary, directory / "points.png")
    plot_calibration(summary, directory / "calibration.png")
    plot_ratings(summary, directory / "ratings.png")
    if value_lost is not None and value_lost.available:
        from callbreak.arena.value_lost import PLOT

        value_lost.plot(directory / PLOT)
    records = [
        game.record
        for result in summary.run.sets
        for game in result.games
        if game.record is not None
    ]
    if records:
        write_record(directory / "records.jsonl", records)
    else:
        (directory / "records.jsonl").write_text("", encoding="utf-8")
    page = directory / "index.html"
    page.write_text(render_html(summary, value_lost), encoding="utf-8")
    return page
