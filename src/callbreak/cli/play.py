"""``callbreak play``: a match at the terminal against three bots, line by line.

The loop only ever reads the human seat's ``Observation``: the table a person
sees is built from what that seat may know, never from the deal itself.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.table import Table
from rich.text import Text

from callbreak.bots import Bot
from callbreak.cli.common import fmt_points, styled_card, styled_cards
from callbreak.decks import DECKS
from callbreak.engine import IllegalAction, Match, Observation
from callbreak.engine.words import SUIT
from callbreak.faces import (
    column_label,
    contract_words,
    deal_result,
    game_face,
    name_seats,
    phase_face,
    seat_name,
    summary_cell,
)

HELP = """Type a call or bid as a number (e.g. 3), "pass" (or x) in an auction, a trump
as its letter (S H D C; Rook colours R Y G B), a card as rank then suit: AS,
td, 10h, 7c (Rook cards number then colour: 1R, 14g, ROOK).  Where a question
lists letters ([y/n], [b/k]), a letter or the word it stands for answers.
  ?      this help          hand   show your hand
  legal  show legal moves   score  show the scores
  quit   leave (the record, if any, is saved)"""


def card_text(name: str) -> Text:
    """A card in its colours: ``styled_card``'s markup read here, where it is all ours."""
    return Text.from_markup(styled_card(name))


def joined(parts: list[Text]) -> Text:
    """Pieces of a line (a seat and its card), comma-separated, each kept as drawn."""
    return Text(", ").join(parts)


class Quit(Exception):
    """The person asked to leave (or input ended)."""


class TerminalGame:
    """Runs one match with a person at ``human`` and bots elsewhere."""

    def __init__(
        self,
        match: Match,
        bots: dict[int, Bot],
        *,
        human: int = 0,
        name: str = "You",
        console: Console | None = None,
        ask: Callable[[str], str] = input,
        save: Callable[[Match], str | None] | None = None,
    ) -> None:
        self.match = match
        self.bots = bots
        self.human = human
        # Names are never read as markup: every line that holds one is built as Text, so
        # that "[red]Bob", a\[b] or a trailing backslash prints as it was typed.
        self.names = [
            name if seat == human else f"{seat_name(seat, match.players)} ({bots[seat].name})"
            for seat in range(match.players)
        ]
        self.seat_names = [
            name if seat == human else seat_name(seat, match.players)
            for seat in range(match.players)
        ]
        """The names without the bots' kinds, for a scoresheet too wide for the console."""
        self.words = contract_words(match.rules.game)
        self.console = console or Console(highlight=False)
        self.ask = ask
        self.save = save or (lambda _match: None)
        """Saves the record; what it returns (a save that failed, or works again) is told."""

    # ------------------------------------------------------------------ loop
    def run(self) -> None:
        match, out = self.match, self.console
        rules = f" — rules: {match.rules.name}. Type ? for help.\n"  # a name of one's own too
        out.print(Text.assemble((match.rules.title, "bold"), rules))
        shown_deal = None
        try:
            while not match.over:
                deal = match.deal
                if deal is not shown_deal:
                    self._announce_deal()
                    shown_deal = deal
                seat = match.to_act
                assert seat is not None
                before = len(match.entries)
                tricks_before = len(deal.history)
                if seat == self.human:
                    self._human_turn()
                else:
                    self._bot_turn(seat)
                if len(deal.history) > tricks_before:
                    winner = deal.history[-1][2]
                    wins = f"{self.names[winner]} {self._win_verb([winner])}"
                    out.print(Text(f"  → {wins} the trick.", style="bold"))
                if len(match.entries) > before:
                    self._deal_finished()
                    self._save()
                    if match.rules.match_end == "open" and not match.over and not self._again():
                        match.finish()
                        if not match.over:
                            out.print("[bold]Tie at the top: a tie-break deal follows.[/]")
            self._match_finished()
        except (Quit, KeyboardInterrupt):  # Ctrl-C while a bot thinks leaves as "quit" does
            out.print("\nLeaving the match.")
        finally:
            self._save(tell=False)  # the command's last line says whether the record is saved

    def _save(self, *, tell: bool = True) -> None:
        """Save, and tell the person what the saver says (a record that could not be saved):
        the match goes on either way, since losing the game to a full disk is worse."""
        news = self.save(self.match)
        if news and tell:
            self.console.print(Text(news, style="bold yellow"))

    # ------------------------------------------------------------ turns
    def _human_turn(self) -> None:
        obs = self.match.observation(self.human)
        if obs.phase == "play":
            self._show_table(obs)
        prompt = self._prompt(obs)
        while True:
            text = self._read(prompt).strip()
            if not text:
                continue
            if self._command(text, obs):
                continue
            action = self._to_action(text, obs)
            if action is None:
                continue
            try:
                self.match.act(action)
            except IllegalAction as error:
                self.console.print(Text(str(error), style="red"))
                continue
            described = phase_face(obs.phase, obs.game)
            if described.said.echoed:
                told = described.tell(obs, str(action).upper(), True)
                self.console.print(Text(f"  You {told}"))
            return

    def _bot_turn(self, seat: int) -> None:
        obs = self.match.observation(seat)
        obs_deal = self.match.deal
        exchanged = len(obs_deal.exchanges)
        action = self.bots[seat].act(obs)
        self.match.act(action)
        who = self.names[seat]
        if len(obs_deal.exchanges) > exchanged:
            count = obs_deal.exchanges[-1][1]
            self.console.print(Text(f"  {who} exchanges {count} card{'s' * (count != 1)}"))
        # What a bot lays face down is told as "a card" (the shared description says so).
        told = phase_face(obs.phase, obs.game).tell(self._view(), action, False)
        if told and not (obs.phase == "exchange" and action == "done"):
            self.console.print(Text(f"  {who} {told}"))
        if obs.phase != "play" and self.match.deal is obs_deal and self.match.deal.phase == "play":
            self._announce_contract()

    def _view(self) -> Observation:
        """The person's view now, which is all a line about the table may be built from."""
        return self.match.observation(self.human)

    def _prompt(self, obs: Observation) -> str:
        """The phase's question (from the shared description), after what the person needs."""
        described = phase_face(obs.phase, obs.game)
        if described.said.shows_hand:
            hand = self._hand_by_suit(obs) or "face down (you have not looked at it)"
            self.console.print(f"Your hand: {hand}{self._trump_text(obs)}")
        self._recap(obs, described.said.recap)
        words = "/".join(word.key for word in described.words if word.action in obs.legal)
        if described.said.answers == SUIT:
            words = " ".join(str(a) for a in obs.legal)
        return described.prompt(obs).rstrip(":?") + (f" [{words}]" if words else "") + ": "

    def _recap(self, obs: Observation, recap: str) -> None:
        """What was said so far that the question builds on: calls or bids, or the nest."""
        said: list[tuple[int, object]] = []
        if recap == "calls":
            said = [(s, c) for s, c in enumerate(obs.calls) if c is not None]
        elif recap == "bids":
            said = list(obs.bids)
        elif recap == "nest" and not obs.discards:
            self.console.print(f"You take the nest: {styled_cards(list(obs.nest or ()))}")
        if said:
            head = self.words.plural if recap == "calls" else "bids"
            made = ", ".join(f"{self.names[s]} {c}" for s, c in said)
            self.console.print(Text(f"{head.capitalize()} so far: {made}"))

    def _trump_text(self, obs: Observation) -> str:
        if obs.rules.trump_suit >= 0 or (obs.trump is None and obs.upcard is None):
            return ""
        parts = []
        if obs.upcard:
            parts.append(f"face up: {styled_card(obs.upcard)}")
        parts.append(f"trump: {self._suit_name(obs, obs.trump) if obs.trump else 'none'}")
        if obs.reversed_ranks:
            parts.append("ranks reversed (2 high, A low)")
        return "   (" + ", ".join(parts) + ")"

    def _suit_name(self, obs: Observation, letter: str) -> str:
        deck = DECKS[obs.rules.shape.deck]
        return deck.suit_names[deck.suits.index(letter)] if letter in deck.suits else letter

    def _announce_contract(self) -> None:
        obs = self.match.observation(self.human)
        if obs.declarer is None:
            return
        parts = [Text(f"Contract: {obs.contract} by {self.names[obs.declarer]}")]
        if obs.trump:
            parts.append(Text(f"trump {self._suit_name(obs, obs.trump)}"))
        if obs.partner_card:
            parts.append(Text("partner: the holder of the ") + card_text(obs.partner_card))
        line = joined(parts)
        line.stylize("bold")
        self.console.print(line)

    def _read(self, prompt: str) -> str:
        try:
            text = self.ask(prompt)
        except (EOFError, KeyboardInterrupt):
            raise Quit from None
        if text.strip().lower() in {"q", "quit", "exit"}:
            raise Quit
        return text

    def _command(self, text: str, obs: Observation) -> bool:
        word = text.lower()
        if word == "h" and obs.phase == "trump":
            return False  # H is hearts here
        if word in {"?", "h", "help"}:
            self.console.print(HELP, markup=False)  # its "[y/n]" is text, not a style
        elif word == "hand":
            self.console.print(f"Your hand: {self._hand_by_suit(obs)}")
        elif word == "legal":
            legal = obs.legal
            words = [str(a) for a in legal]
            shown = styled_cards(words) if obs.phase == "play" else ", ".join(words)
            self.console.print(f"Legal: {shown}")
        elif word == "score":
            self._show_scores()
        else:
            return False
        return True

    def _to_action(self, text: str, obs: Observation) -> int | str | bool | None:
        """The typed text as an action: a word of the phase, a number, or a card as typed."""
        described = phase_face(obs.phase, obs.game)
        word = described.answer(text)
        if word is not None and (word in obs.legal or not described.typed_number):
            return word  # type: ignore[no-any-return]
        if described.typed_number:
            refusal = described.typed_refusal(obs, text)
            if refusal is not None:
                self.console.print(Text(refusal, style="red"))
                return None
            return int(text)
        if described.words and not described.typed_card and described.choices is None:
            keys = " or ".join(f"{w.key} ({w.label.lower()})" for w in described.words)
            self.console.print(f"[red]Answer {keys}.[/]")
            return None
        return text

    def _again(self) -> bool:
        try:
            text = self.ask("Play another deal? [Y/n]: ")
        except (EOFError, KeyboardInterrupt):
            return False
        return text.strip().lower() not in {"n", "no", "q", "quit"}

    # ------------------------------------------------------------ display
    def _hand_by_suit(self, obs: Observation) -> str:
        groups = []
        for suit in DECKS[obs.rules.shape.deck].suits:
            cards = [c for c in obs.hand if c[-1] == suit or (c == "ROOK" and obs.trump == suit)]
            if cards:
                groups.append(styled_cards(cards))
        if "ROOK" in obs.hand and obs.trump is None:
            groups.append(styled_card("ROOK"))
        return "   ".join(groups)

    def _announce_deal(self) -> None:
        match = self.match
        deal_no = match.deal_number
        tie = " (tie-break deal)" if match.tie_break else ""
        self.console.rule(Text(f"Deal {deal_no}{tie} — dealer: {self.names[match.dealer]}"))
        obs = match.observation(self.human)
        if obs.upcard:
            text = self._trump_text(obs).strip(" ()")
            self.console.print(text[:1].upper() + text[1:])  # a card's rank keeps its case
        if self.human not in obs.dealt_in:
            self.console.print("You are out of the game: the others play on.")

    def _show_table(self, obs: Observation) -> None:
        out = self.console
        self._show_standing(obs)
        if obs.trick.cards:
            seats = obs.trick.seats(obs.players)
            played = [
                Text(f"{self.names[s]} ") + card_text(c)
                for s, c in zip(seats, obs.trick.cards, strict=True)
            ]
            out.print(Text(f"Trick {obs.trick_number + 1}: ") + joined(played))
        else:
            out.print(f"Trick {obs.trick_number + 1}: you lead")
        out.print(f"Your hand: {self._hand_by_suit(obs)}")
        out.print(f"Legal:     {styled_cards([str(a) for a in obs.legal])}")

    def _show_standing(self, obs: Observation) -> None:
        """Each seat's tricks so far, against its call (in the game's word) or the contract."""
        out, names = self.console, self.names
        if obs.declarer is None and any(c is not None for c in obs.calls):
            calls = "  ".join(f"{names[s]}: {obs.tricks_won[s]}/{obs.calls[s]}" for s in obs.active)
            out.print(Text(f"\nTricks won / {self.words.past} — {calls}"))
            return
        won = "  ".join(f"{names[s]}: {obs.tricks_won[s]}" for s in obs.active)
        out.print(Text(f"\nTricks won — {won}"))
        if obs.declarer is not None and obs.contract is not None:
            out.print(Text(f"Contract: {obs.contract} by {names[obs.declarer]}"))
        if obs.card_points is not None:
            taken = "  ".join(f"{names[s]}: {obs.card_points[s]}" for s in obs.active)
            partner = "unknown" if obs.partner is None else names[obs.partner]
            out.print(Text(f"Card points taken — {taken}   (partner: {partner})"))

    def _deal_finished(self) -> None:
        result = deal_result(self.match.entries[-1], self.match.rules, self._name_seats)
        out = self.console
        if result.void_reason:
            why = f" {result.void_reason}. Same dealer deals again."
            out.print(Text.assemble(("Deal thrown in:", "yellow"), why))
            return
        if result.unplayed:
            out.print(Text.assemble(("Not played out:", "yellow"), f" {result.unplayed}."))
        columns = game_face(result.game).summary
        if result.declarer is None:
            columns = tuple(key for key in columns if key != "bid")
        table = Table(title=f"Deal {result.number} result")
        table.add_column("Seat")
        for key in columns:
            table.add_column(column_label(key, result.game).capitalize(), justify="right")
        for seat in range(self.match.players):
            cells = (summary_cell(result, seat, key) for key in columns)
            table.add_row(Text(self.names[seat]), *cells)
        out.print(table)

    def _win_verb(self, seats: list[int]) -> str:
        """The verb after ``seats``' names: "You win the trick" (the person's name unless they
        gave one), "Asha wins the match", "East and West win the match"."""
        if len(seats) > 1 or (len(seats) == 1 and self.names[seats[0]] == "You"):
            return "win"
        return "wins"

    def _name_seats(self, reason: str) -> str:
        """An engine's reason with its seat numbers as the seats' names here."""
        return name_seats(reason, self.names)

    def _show_scores(self) -> None:
        match = self.match
        table = Table(title="Scoresheet")
        table.add_column("Deal")
        for head in self._score_heads():
            table.add_column(Text(head), justify="right")
        for entry in match.scored_deals:
            pts = fmt_points(entry.deal.points or [])
            table.add_row(str(entry.number), *pts)
        table.add_row("Total", *fmt_points(match.totals))
        self.console.print(table)

    def _score_heads(self) -> list[str]:
        """Each seat's column head: its name with its bot's kind where every head fits the
        console, else the seat's name alone (at eight seats and 80 columns each head was cut
        to "Seat 2 (heur…"; every deal's result names the kinds)."""
        room = self.console.width - 8  # the Deal column and the borders
        wide = sum(len(name) + 3 for name in self.names) <= room
        return self.names if wide else self.seat_names

    def _match_finished(self) -> None:
        match = self.match
        self._show_scores()
        winners = " and ".join(self.names[s] for s in match.winners)
        verb = self._win_verb(match.winners)
        self.console.print(Text(f"{winners} {verb} the match.", style="bold green"))
