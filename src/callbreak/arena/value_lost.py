"""Each bot's value lost per decision, by the exact solver: a strength measure finer than points.

Points are noisy: a bot that plays well loses them to the cards, one that
blunders wins them back on the next deal.  The value lost is not: at each of a
seat's decisions the exact solver (``callbreak.analysis``, all hands known,
best defence) values every legal card, and the card played loses the
difference to the best one.  Averaged over every seat of the kept games, per
bot and by trick, it shows where a bot's play leaks value, with far fewer
deals than the points need.

What counts as a decision: the call, and each card played that had an
alternative (a forced card loses nothing and is left out, so it does not
dilute the mean).  The call loses the value of the best call minus the value
of the call made, both against best defence from the start (the best call is
the largest call that could be made: in every scoring of the call games a
larger made call scores more; when none can be made, the failure that costs
least).  A decision whose search met the node limit is counted as unknown and
left out of the means.

Only the call games (Call Break, its Bhoos preset, Call Bridge, Batak Koz
Maça) are analysed, as ``analysis.check_analysable`` says; for the others the
report says the section is not available.  The solver is slow on whole deals,
so ``analyse_run`` reviews the first ``max_games`` kept games only (in
deal-set then rotation order: whole deal sets first, so every bot holds the
same hands from every seat), every seat of each.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from callbreak.arena.figure import new_figure
from callbreak.arena.play import entry_at
from callbreak.arena.runner import ArenaRun

if TYPE_CHECKING:
    from callbreak.analysis import Analyst, CallReview, DealReview
    from callbreak.points import Points
    from callbreak.rules import Rules

Progress = Callable[[int], None]
"""Called with the work units just finished (``Analyst.decisions``: the call and each trick)."""

PLOT = "value_lost.png"
CAPTION = "Mean value lost per decision: the call, then each trick"


@dataclass
class BotValueLost:
    """One bot spec's losses, over every seat it held in the analysed games."""

    spec: str
    call_lost: list[float] = field(default_factory=list)
    """Points lost by each of its calls (valued ones)."""
    trick_lost: dict[int, list[float]] = field(default_factory=dict)
    """Points lost by each card it chose, by trick number (1-based)."""
    forced: int = 0
    unknown: int = 0
    """Decisions whose search met the node limit (left out of the means)."""

    @property
    def decisions(self) -> int:
        """Valued decisions: calls and cards chosen (forced and unknown ones left out)."""
        return len(self.call_lost) + sum(len(v) for v in self.trick_lost.values())

    @property
    def per_decision(self) -> float | None:
        total = sum(self.call_lost) + sum(sum(v) for v in self.trick_lost.values())
        return total / self.decisions if self.decisions else None

    @property
    def per_call(self) -> float | None:
        return _mean(self.call_lost)

    @property
    def per_card(self) -> float | None:
        return _mean([x for v in self.trick_lost.values() for x in v])

    def at_trick(self, trick: int) -> float | None:
        return _mean(self.trick_lost.get(trick, []))

    def json(self, tricks: int) -> dict[str, Any]:
        return {
            "spec": self.spec,
            "decisions": self.decisions,
            "per_decision": _round(self.per_decision),
            "call": {"count": len(self.call_lost), "mean": _round(self.per_call)},
            "cards": {
                "count": self.decisions - len(self.call_lost),
                "mean": _round(self.per_card),
            },
            "by_trick": [
                {
                    "trick": t,
                    "count": len(self.trick_lost.get(t, [])),
                    "mean": _round(self.at_trick(t)),
                }
                for t in range(1, tricks + 1)
            ],
            "forced": self.forced,
            "unknown": self.unknown,
        }


@dataclass
class ValueLost:
    """The value-lost section of an arena report: per bot, or why it is not there."""

    bots: list[BotValueLost]
    games: int = 0
    """Games (deals as played) whose every seat was reviewed."""
    tricks: int = 13
    note: str | None = None
    """Why there is no analysis (another game, no records, none asked for); None when there is."""
    wall_s: float = 0.0

    @property
    def available(self) -> bool:
        return self.note is None

    def json(self) -> dict[str, Any]:
        if not self.available:
            return {"available": False, "note": self.note}
        return {
            "available": True,
            "games": self.games,
            "wall_s": round(self.wall_s, 1),
            "bots": [bot.json(self.tricks) for bot in self.bots],
        }

    def text(self) -> str:
        """One line for the terminal: each bot's mean, or the note."""
        if not self.available:
            return f"Value lost per decision: {self.note}"
        means = ", ".join(f"{bot.spec} {_text(bot.per_decision)}" for bot in self.bots)
        return (
            f"Value lost per decision (exact solver, every seat of {_games(self.games)}, "
            f"{self.wall_s:.0f} s): {means}"
        )

    def html(self) -> str:
        """The report's section: a table (a row per bot) and the plot, or the note."""
        head = "<h2>Value lost per decision (exact solver)</h2>\n"
        if not self.available:
            return f'{head}<p class="note">{html.escape(self.note or "")}</p>'
        tricks = range(1, self.tricks + 1)
        header = "".join(f"<th>{t}</th>" for t in tricks)
        rows = []
        for bot in self.bots:
            cells = [
                bot.spec,
                str(bot.decisions),
                _text(bot.per_decision),
                _text(bot.per_call),
                *(_text(bot.at_trick(t)) for t in tricks),
                str(bot.unknown),
            ]
            rows.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>")
        body = "\n".join(rows)
        return (
            f"{head}<table>\n<tr><th>bot</th><th>decisions</th><th>per decision</th>"
            f"<th>call</th>{header}<th>unknown</th></tr>\n{body}\n</table>\n"
            f'<p class="note">Points lost against the best choice, all hands known and best '
            f"defence, averaged per decision over every seat of the first {_games(self.games)} "
            f"(deal-set then rotation order); columns 1–{self.tricks} are the cards of each "
            "trick. Forced cards are left out; unknown: searches stopped at the node "
            "limit. 0 is perfect play.</p>\n"
            f'<figure><img src="{PLOT}" alt="{CAPTION}"><figcaption>{CAPTION}</figcaption>'
            "</figure>"
        )

    def plot(self, path: Path) -> None:
        """Mean value lost at the call and at each trick, a line per bot."""
        figure = new_figure()
        axes = figure.add_subplot()
        xs = list(range(self.tricks + 1))
        for bot in self.bots:
            ys = [bot.per_call, *(bot.at_trick(t) for t in range(1, self.tricks + 1))]
            axes.plot(
                xs, [float("nan") if y is None else y for y in ys], marker="o", label=bot.spec
            )
        axes.set_xticks(xs, ["call", *(str(t) for t in range(1, self.tricks + 1))])
        axes.set_xlabel("decision (the call, then the trick)")
        axes.set_ylabel("mean points lost")
        axes.set_title("Value lost per decision against the exact solver")
        axes.axhline(0, color="grey", linewidth=0.5)
        axes.legend()
        figure.savefig(path)


def not_available(note: str) -> ValueLost:
    return ValueLost([], note=note)


def kept_games(run: ArenaRun, max_games: int) -> list[tuple[int, dict[str, Any]]]:
    """The first ``max_games`` kept records with their rotations, in deal-set then rotation
    order."""
    games = [
        (game.rotation, game.record)
        for result in run.sets
        for game in result.games
        if game.record is not None
    ]
    return games[:max_games]


def work(run: ArenaRun, max_games: int) -> int:
    """Progress units ``analyse_run`` will report (14 per seat of a 13-trick game)."""
    players = run.config.players
    return len(kept_games(run, max_games)) * players * (1 + run.config.rules.hand_size)


def analyse_run(
    run: ArenaRun,
    max_games: int,
    *,
    analyst: Analyst | None = None,
    progress: Progress | None = None,
) -> ValueLost:
    """Review every seat of the first ``max_games`` kept games and average the losses by bot.

    ``analyst`` defaults to the solver alone (no expert: its second opinion
    does not change a value), two threads where numba is installed.
    """
    import time

    from callbreak.analysis import AnalysisError, Analyst, check_analysable, played_deals
    from callbreak.record import replay

    config = run.config
    try:
        check_analysable(config.rules)
    except AnalysisError as error:
        return not_available(f"Not available for this game: {error}.")
    if max_games <= 0:
        return not_available("Not analysed (--report-deals 0).")
    games = kept_games(run, max_games)
    if not games:
        return not_available("Not analysed: the run kept no game records.")
    started = time.perf_counter()
    if analyst is None:
        analyst = Analyst(expert=None, threads=2)
    players = config.players
    bots: dict[str, BotValueLost] = {spec: BotValueLost(spec) for spec in config.seats}
    try:
        for rotation, record in games:
            # A game's last scored deal: its only one, but in whole matches (void deals are
            # not played out).
            _, deal = played_deals(replay(record).match)[-1]
            for seat in range(players):
                review = analyst.deal(deal, seat, progress=progress)
                _add(bots[config.seats[entry_at(seat, rotation, players)]], review, deal.rules)
    except AnalysisError as error:  # a scoring option the review cannot value
        return not_available(f"Not available for these rules: {error}.")
    return ValueLost(
        list(bots.values()),
        games=len(games),
        tricks=config.rules.hand_size,
        wall_s=time.perf_counter() - started,
    )


def _add(bot: BotValueLost, review: DealReview, rules: Rules) -> None:
    call = call_lost(review.call, rules)
    if call is None:
        bot.unknown += 1
    else:
        bot.call_lost.append(float(call))
    for decision in review.decisions:
        if decision.forced:
            bot.forced += 1
        elif decision.values is None:
            bot.unknown += 1
        else:
            bot.trick_lost.setdefault(decision.trick, []).append(float(decision.lost))


def call_lost(call: CallReview, rules: Rules) -> Points | None:
    """Worth of the best call minus worth of the call made, from the start against best
    defence (None: the search was stopped)."""
    from callbreak.analysis import Scoring

    if call.unknown or call.worth is None:
        return None
    if call.makeable is not None and call.makeable_worth is not None:
        best = max(call.makeable_worth, call.worth)
    else:  # no call can be made: the cheapest failure is the best
        floors = [Scoring.of(rules, c).floor for c in range(rules.min_call, rules.max_call + 1)]
        best = max([call.worth, *floors])
    return best - call.worth


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def _games(count: int) -> str:
    return f"{count} game" if count == 1 else f"{count} games"


def _text(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"
