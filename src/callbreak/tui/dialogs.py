"""The screens over the table: a deal's result, the match's summary, help, the scoresheet,
the last trick, and the question before leaving.

A *modal* screen stops the loop until it is answered (results, summary); an *overlay*
holds it (no next card, no timer running out) while it is open.
"""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual.screen import Screen

from callbreak.engine import TrickView
from callbreak.faces import (
    DealResult,
    contract_words,
)
from callbreak.games import find_game
from callbreak.review import reviewable
from callbreak.rules import option_text
from callbreak.tui.base import TableState
from callbreak.tui.keys import keys_help
from callbreak.tui.render import (
    FittedScoresheet,
    chip,
    deal_table,
    render_trick,
    rules_summary,
    rules_table,
)
from callbreak.tui.review import review_screen
from callbreak.tui.screens import ChoiceScreen, InfoScreen


class TableDialogs(TableState):
    """The screens over the table and what their answers do."""

    def _modal(self, screen: Screen[Any], callback: Any) -> None:
        """A screen the loop stops for (a result, the summary); ``callback`` takes its answer."""
        self.state = "modal"
        self.redraw()

        def done(answer: Any) -> None:
            self.state = "idle"
            callback(answer)

        self.push_screen(screen, done)

    def _show_results(self, results: list[DealResult]) -> None:
        session = self.session
        names = [session.seat_name(s) for s in range(session.players)]
        body: list[RenderableType] = []
        scored = [r for r in results if r.points is not None]
        for result in results:
            if result.void_reason is not None:
                body.append(
                    Text(
                        f"Deal {result.number} thrown in: {result.void_reason}. "
                        "The same dealer deals again.",
                        style="bold",
                    )
                )
                made = [f"{names[s]} {c}" for s, c in enumerate(result.calls) if c is not None]
                if made:
                    calls = contract_words(result.game).plural.capitalize()
                    body.append(Text(f"{calls}: " + ", ".join(made)))
        for result in scored:
            if result.unplayed is not None:
                body.append(Text(f"Not played out: {result.unplayed}.", style="bold"))
            body.append(deal_table(result, names))
            body.append(self._verdict(result))
        last = self._finished_last_trick() if scored else None
        if last is not None:
            body.append(last)
        choices: list[tuple[str, Any]] = []
        if session.over:
            choices.append(("See the match result", "next"))
        else:
            choices.append(("Next deal", "next"))
            if session.can_finish:
                choices.append(("End the match here", "finish"))
        shortcuts = {"e": "finish"} if len(choices) > 1 else {}
        played = scored[-1].number if scored and scored[-1].unplayed is None else None
        if played is not None:  # r: the solver's review (a game it does not play: says so)
            shortcuts["r"] = "review"
            if reviewable(session.rules):
                choices.append(("Review (r)", "review"))
        title = f"Deal {scored[-1].number} result" if scored else "Deal thrown in"
        if scored and scored[-1].tie_break:
            title += " (tie-break)"

        def answered(answer: Any) -> None:
            if answer == "review" and played is not None:
                self._modal(review_screen(session, played), lambda _: self._show_results(results))
                return
            if answer == "finish":
                session.finish()
                if not session.over:
                    self._set_message("Tie at the top: a tie-break deal follows.", "hint")
            else:
                self._set_message("", "")
            self.step()

        self._modal(
            ChoiceScreen(title, body, choices, shortcuts=shortcuts),
            answered,
        )

    def _verdict(self, result: DealResult) -> Text:
        """How the person's own call (or bid, or deal) went, in words."""
        session = self.session
        me = session.human
        call, won = result.calls[me], result.tricks[me]
        points = result.points[me] if result.points else None
        if points is None:
            return Text("")
        game = find_game(result.game)
        if not game.calls:
            return Text(self._family_verdict(result, points), style="bold")
        if call is None:
            return Text("")
        side = next((side for side in game.partnerships if me in side), None)
        if side is not None:
            return Text(self._side_verdict(result, side, points), style="bold")
        called = contract_words(result.game).past
        but = "and" if session.rules.success(call, won) else "but"
        return Text(f"You {called} {call} {but} won {won}: {points} points.", style="bold")

    def _side_verdict(self, result: DealResult, side: tuple[int, ...], points: Any) -> str:
        """How the person's side did (Spades): partners score as one, so the points follow
        the side's calls and tricks together, not the person's own call."""
        me = self.session.human
        order = sorted(side, key=lambda seat: seat != me)
        names = ["you" if seat == me else self.session.seat_name(seat) for seat in order]
        calls = [result.calls[seat] or 0 for seat in order]
        won = [result.tricks[seat] for seat in order]
        made = "made" if sum(won) >= sum(calls) else "set"

        def each(values: list[int]) -> str:
            return ", ".join(f"{name} {value}" for name, value in zip(names, values, strict=True))

        # a nil (blind or not) scores on its own, whatever the side's contract did
        nils = [
            f"{'your' if seat == me else name + chr(39) + 's'} "
            f"{'blind nil' if seat in result.blind_nils else 'nil'} "
            f"{'made' if result.tricks[seat] == 0 else 'failed'}"
            for seat, name in zip(order, names, strict=True)
            if result.calls[seat] == 0
        ]
        nil_text = "; " + ", ".join(nils) if nils else ""
        if not sum(calls):
            return f"Your side bid no tricks{nil_text}: {points} points."
        called = contract_words(result.game).past
        return (
            f"Your side {called} {sum(calls)} ({each(calls)}) and won {sum(won)} "
            f"({each(won)}): {made}{nil_text}, {points} points."
        )

    def _family_verdict(self, result: DealResult, points: Any) -> str:
        """The person's deal in a game without calls: its bid, its part, its points."""
        me = self.session.human
        lower = " (lower is better)" if result.lowest_wins else ""
        won = result.tricks[me]
        tricks = f"{won} trick{'s' * (won != 1)}"
        total = result.totals[me]
        if result.dealt_in and me not in result.dealt_in:
            return f"You are out of the game; your total stays {total}."
        if me in result.dropped:
            return f"You sat this deal out: {points} points, total {total}{lower}."
        if me == result.declarer and result.contract is not None:
            return (
                f"You bid {result.contract} and won {tricks}: "
                f"{points} points, total {total}{lower}."
            )
        if me == result.partner:
            return f"You were the partner: {points} points, total {total}{lower}."
        return f"You won {tricks}: {points} points, total {total}{lower}."

    def _finished_last_trick(self) -> Text | None:
        """The last trick of the deal that just ended, for its result screen."""
        found = self.session.last_trick_of_finished_deal()
        if found is None:
            return None
        return self._trick_line("Last trick:", found[1])

    def _trick_line(self, label: str, trick: TrickView) -> Text:
        players = self.session.players
        line = Text(label + " ")
        for seat, card in zip(trick.seats(players), trick.cards, strict=True):
            line.append(f"{self.session.seat_name(seat)} ")
            line.append_text(chip(card, pad=0))
            line.append("  ")
        if trick.winner is not None:
            line.append(f"→ {self.session.seat_name(trick.winner)} won it", style="bold")
        return line

    def _show_summary(self) -> None:
        session = self.session
        names = [session.seat_name(s) for s in range(session.players)]
        winners = session.winners
        sheet = FittedScoresheet(session.results(), names, session.totals, winners=winners)
        who = " and ".join(names[w] for w in winners)
        best = session.totals[winners[0]] if winners else None
        if winners == [session.human]:
            verdict = f"You win the match with {best}!"
        elif len(winners) > 1:
            verdict = f"{who} share the win with {best}."
        else:
            verdict = f"{who} wins the match with {best}."
        body: list[RenderableType] = [sheet, Text(verdict, style="bold")]
        if session.save_failure is not None:
            body.append(Text(session.unsaved_words(), style="bold red"))
        elif session.record is not None:
            body.append(Text(f"Record: {session.record}", style="dim"))

        def answered(answer: Any) -> None:
            if answer == "new":
                self.new_match()
            else:
                self.exit()

        self._modal(
            ChoiceScreen(
                "Match over",
                body,
                [("New match (n)", "new"), ("Quit (x)", "quit")],
                shortcuts={"n": "new", "x": "quit"},
                cancel="quit",
            ),
            answered,
        )

    def new_match(self) -> None:
        """A fresh match with the same rules and bots; answers of old workers are dropped."""
        self.generation += 1
        self.session = self.session.next_match()
        self.session.save()
        self._seen_entries = 0
        self.cursor = 0
        self.show_last = False
        self._set_message("A new match: good luck.", "hint")
        self.state = "idle"
        self.step()

    def show_help(self) -> None:
        rules = self.session.rules
        keys = Table.grid(padding=(0, 2))
        keys.add_column(no_wrap=True, style="bold")
        keys.add_column()
        for key, meaning in keys_help(rules):
            keys.add_row(key, meaning)
        changed = rules.changed()
        title = "" if rules.shape.calls else f"{rules.title} · "
        heading = f"Rules: {title}{rules.name}" + (
            " with " + ", ".join(f"{k}={option_text(v)}" for k, v in changed.items())
            if changed
            else ""
        )
        body: list[RenderableType] = [
            Text("Keys", style="bold underline"),
            keys,
            Text(""),
            Text(heading, style="bold underline"),
            Text(rules_summary(rules)),
            Text(""),
            rules_table(rules),
        ]
        self._info("Help", body, close_keys=("?", "question_mark"))

    def show_scores(self) -> None:
        session = self.session
        names = [session.seat_name(s) for s in range(session.players)]
        body: list[RenderableType] = [FittedScoresheet(session.results(), names, session.totals)]
        if not session.results():
            body.append(Text("No deal finished yet.", style="dim"))
        body.append(Text(self._scores_legend(), style="dim"))
        self._info("Scoresheet", body, close_keys=("p",))

    def _scores_legend(self) -> str:
        """What a scoresheet cell holds in the game in force: calls, or tricks (a bid only
        where the game has an auction, "sat out" only where a seat may sit a deal out)."""
        rules = self.session.rules
        shape = rules.shape
        if shape.calls:
            called = contract_words(rules.game).past
            return f"Each cell: {called}/won, then the points; Σ is the running total."
        said = "tricks won"
        if "auction" in shape.phase_names:
            said += " (the bidder's bid)"
        if "drop" in shape.phase_names:
            said += " or sat out"
        legend = f"Each cell: {said}, then the points; Σ: running total."
        if shape.lowest_wins:
            legend += " Lower is better."
        return legend

    def show_last_trick(self) -> None:
        view = self.session.view()
        heading, of_deal = "Last trick", ""
        if view.history:
            trick, number = view.history[-1], len(view.history)
        else:
            found = self.session.last_trick_of_finished_deal()
            if found is None:
                self._set_message("No trick has been played yet.", "")
                self.redraw()
                return
            number, trick = found
            # No trick of this deal yet: the one shown ended the deal before, and says so.
            previous = self.session.results()[-1].number
            heading, of_deal = f"Last trick of deal {previous}", f" of deal {previous}"
        names = [self.session.seat_name(s) for s in range(self.session.players)]
        assert trick.winner is not None
        picture = render_trick(
            trick,
            players=self.session.players,
            human=self.session.human,
            winning=trick.winner,
            width=40,
            height=13,
            title=f"Trick {number}{of_deal} · {names[trick.leader]} led",
            footer=f"{names[trick.winner]} won it",
        )
        self._info(heading, [picture, self._trick_line("In order:", trick)], close_keys=("l",))

    def _info(self, title: str, body: list[RenderableType], close_keys: tuple[str, ...]) -> None:
        self._overlay(InfoScreen(title, body, close_keys=close_keys))

    def tell_save_news(self) -> bool:
        """A record that stops saving is said on a screen the game waits under, since a line
        in the message bar is gone at the next card; saving that works again is said there.

        True when the screen is up: the loop goes on once it is closed.
        """
        news = self.session.take_save_news()
        if not news:
            return False
        if self.session.save_failure is None:
            self._set_message(news, "hint")
            return False
        self._pending_step = True
        self._overlay(InfoScreen("Record not saved", [Text(news, style="bold")]))
        return True

    def _overlay(self, screen: Screen[Any], callback: Any = None) -> None:
        """A screen the game waits under: a bot may finish its thought, but nothing moves on
        (no next card, no timer running out) until the screen is closed."""
        if self._timer is not None:
            self._timer.pause()
        self._held = True

        def closed(answer: Any) -> None:
            self._held = False
            if callback is not None:
                callback(answer)
            if self._timer is not None:
                self._timer.resume()
            if self._pending_step:
                self._pending_step = False
                self.step()

        self.push_screen(screen, closed)

    def action_request_quit(self) -> None:
        """Ctrl-C: ask before leaving (a second Ctrl-C in the question leaves)."""
        if isinstance(self.screen, ChoiceScreen) and self.screen.title_text == "Leave?":
            self.exit()
            return
        record = self.session.record
        if self.session.save_failure is not None:
            where = self.session.unsaved_words()
        elif self.session.over:
            where = "The match is over."
        elif record is not None:
            where = f"The record is kept in {record}: callbreak play --resume {record} continues."
        else:
            where = "This match is not recorded (--record FILE keeps one), so it ends here."

        def answered(leave: Any) -> None:
            if leave:
                self.exit()

        self._overlay(
            ChoiceScreen(
                "Leave?",
                [Text("Leave the match?", style="bold"), Text(where)],
                [("Stay (n)", False), ("Leave (y)", True)],
                shortcuts={"y": True, "n": False},
                cancel=False,
            ),
            answered,
        )
