"""One person's match against bots, without any screen: who is who, what happened, the record.

The Textual app (and the line-based ``--plain`` game) drive a ``Session``: it
owns the ``Match``, the bots and the record file, and it hands the face only
what the human seat may know — its ``Observation`` and the public results of
finished deals (``DealResult``), never a ``Deal`` with other hands in it.
Keeping this out of the app keeps the app thin and lets the resume and record
logic be tested without a terminal.
"""

from __future__ import annotations

import contextlib
import os
import random
from pathlib import Path
from typing import Any

from callbreak.advice import hint_spec
from callbreak.bots import Bot, make_bot, refusal
from callbreak.bots.levels import LEVELS
from callbreak.engine import Action, Match, Observation, TrickView
from callbreak.faces import DealResult, deal_result, name_seats, seat_name
from callbreak.points import Points
from callbreak.rules import Rules

HUMAN = "human"
"""The ``player`` of a person's seat in a record."""


class ResumeError(ValueError):
    """A record that cannot be continued: finished, several matches, or seats not ours."""


def level_of(spec: str) -> str | None:
    """The level name whose bot spec is ``spec``, if any (levels are read when asked)."""
    for level, level_spec in LEVELS.items():
        if level_spec == spec:
            return level
    return None


def playable_spec(spec: str, rules: Rules) -> tuple[str, str]:
    """``spec``, or the bot that stands in for it in this game, and a notice saying so.

    A bot that does not know the game at all is replaced by ``random`` — said, never
    silently.  (The expert and the levels built on it play every game.)
    """
    notice = ""
    if refusal(spec, rules) is not None:
        notice = (
            f"The {spec.split(':', 1)[0]} bot does not know {rules.title} yet: "
            "the bots choose at random."
        )
        spec = "random"
    return spec, notice


def next_free_path(path: Path) -> Path:
    """``game.json`` → ``game-2.json`` (or -3, …): where a new match records without
    overwriting the finished one."""
    for n in range(2, 10_000):
        candidate = path.with_name(f"{path.stem}-{n}{path.suffix}")
        if not candidate.exists():
            return candidate
    raise OSError(f"no free record name next to {path}")


class Session:
    """A match with a person at ``human`` and bots at every other seat.

    ``specs`` gives each bot seat's spec (as recorded: ``bot:SPEC``); ``record``
    is rewritten after every action, atomically, so a crash or Ctrl-C leaves a
    record that resumes.
    """

    def __init__(
        self,
        match: Match,
        specs: dict[int, str],
        *,
        human: int = 0,
        name: str = "You",
        record: Path | None = None,
        bot_seed: int | None = None,
    ) -> None:
        self.match = match
        self.human = human
        self.name = name
        self.specs = dict(specs)
        self.record = record
        rng = random.Random(match.seed if bot_seed is None else bot_seed)
        self.bots: dict[int, Bot] = {
            seat: make_bot(spec, seed=rng.getrandbits(32)) for seat, spec in sorted(specs.items())
        }
        self._hint_bot: Bot | None = None
        self.notice = ""
        """A word for the person when the table starts (a bot replaced for this game)."""
        self.save_failure: str | None = None
        """Why the last save of the record failed ("could not save the record to …: …"), or
        None when it worked (or nothing is recorded)."""
        self._save_news = ""

    # ----------------------------------------------------------- building
    @classmethod
    def start(
        cls,
        rules: Rules,
        spec: str,
        *,
        seed: int | None = None,
        name: str = "You",
        record: Path | None = None,
    ) -> Session:
        """A new match, the person at seat 0 (South), ``spec`` at every other seat.

        Bots are seeded from ``seed`` the way the line-based game always did, so
        a seed gives the same cards and the same bot answers.  A bot that does
        not play this game is replaced (``playable_spec``) and ``notice`` says so.
        """
        rng = random.Random(seed)
        bot_seed = rng.getrandbits(32)
        match = Match(rules, seed=seed)
        spec, notice = playable_spec(spec, rules)
        specs = {seat: spec for seat in range(1, rules.players)}
        session = cls(match, specs, name=name, record=record, bot_seed=bot_seed)
        session.notice = notice
        return session

    @classmethod
    def resume(cls, path: Path, record: Path | None = None) -> Session:
        """Continue the unfinished match recorded in ``path`` with the same seats and bots.

        The record is re-played through the engine (``callbreak.record.replay``),
        so a record that does not add up is refused before anyone plays a card.
        Saving continues to ``record``, or to ``path`` itself when none is given.
        """
        from callbreak.record import read_records, replay

        records = read_records(path)
        unfinished = [r for r in records if not r.get("result", {}).get("complete", False)]
        if not unfinished:
            raise ResumeError(f"{path}: the match is finished: there is nothing to resume")
        if len(unfinished) > 1:
            raise ResumeError(f"{path}: {len(unfinished)} unfinished matches: keep one per file")
        document = unfinished[0]
        report = replay(document)
        seats = document.get("seats") or []
        humans = [i for i, s in enumerate(seats) if s.get("player") == HUMAN]
        if len(humans) != 1:
            raise ResumeError(f"{path}: the record has no single human seat to sit in")
        human = humans[0]
        specs: dict[int, str] = {}
        for i, seat in enumerate(seats):
            player = str(seat.get("player", ""))
            if i == human:
                continue
            if not player.startswith("bot:"):
                raise ResumeError(f"{path}: seat {i} was played by {player!r}, not a bot")
            specs[i] = player[4:]
        match = report.match
        name = str(seats[human].get("name", "You"))
        bot_seed = random.Random(f"resume/{match.seed}/{len(match.entries)}").getrandbits(32)
        return cls(
            match,
            specs,
            human=human,
            name=name,
            record=path if record is None else record,
            bot_seed=bot_seed,
        )

    def next_match(self) -> Session:
        """A fresh match with the same rules, seats and bots; records go to a new file."""
        record = None if self.record is None else next_free_path(self.record)
        seed = random.SystemRandom().getrandbits(63)
        match = Match(self.match.rules, seed=seed)
        return Session(
            match, self.specs, human=self.human, name=self.name, record=record, bot_seed=seed
        )

    # ------------------------------------------------------------ who is who
    @property
    def players(self) -> int:
        return self.match.players

    @property
    def rules(self) -> Rules:
        return self.match.rules

    def seat_name(self, seat: int) -> str:
        """The person's own name at its seat, else the compass name (four seats) or "Seat N"."""
        if seat == self.human:
            return self.name
        return seat_name(seat, self.players)

    def seat_kind(self, seat: int) -> str:
        """What plays a seat, in a word: the level when the spec is one, else the bot's spec."""
        if seat == self.human:
            return "you"
        spec = self.specs[seat]
        return level_of(spec) or spec

    def describe_void(self, reason: str) -> str:
        """A void reason with ``seat N`` replaced by the seat's name."""
        return name_seats(reason, [self.seat_name(seat) for seat in range(self.players)])

    # ------------------------------------------------------------ the game
    def view(self) -> Observation:
        """What the person may know now: the only view of the current deal a face gets."""
        return self.match.observation(self.human)

    def bot_view(self, seat: int) -> Observation:
        """The observation a bot decides on (its own seat's, never shown on the screen)."""
        return self.match.observation(seat)

    @property
    def over(self) -> bool:
        return self.match.over

    @property
    def to_act(self) -> int | None:
        return self.match.to_act

    @property
    def human_to_act(self) -> bool:
        return self.match.to_act == self.human

    def act(self, action: Action) -> None:
        """The person's action; an illegal one raises IllegalAction (explained, nothing changes)."""
        if self.match.to_act != self.human:
            raise RuntimeError("it is not the person's turn")
        self.match.act(action)
        self.save()

    def apply_bot(self, seat: int, action: Action) -> None:
        """A bot's answer, computed elsewhere (a worker thread) from ``bot_view(seat)``."""
        if self.match.to_act != seat or seat == self.human:
            raise RuntimeError(f"seat {seat} is not a bot to act")
        self.match.act(action)
        self.save()

    def decide(self, seat: int, observation: Observation) -> Action:
        """Ask the bot of ``seat``; safe to call off the main thread (observations are frozen)."""
        return self.bots[seat].act(observation)

    def hint(self, observation: Observation) -> Action:
        """The hint bot's choice for the person's own observation."""
        if self._hint_bot is None:
            spec = hint_spec()
            self._hint_bot = make_bot(spec, seed=self.match.seed % (1 << 32))
        return self._hint_bot.act(observation)

    def finish(self) -> None:
        """End an open-ended match between deals (``match_end = open``)."""
        self.match.finish()
        self.save()

    @property
    def can_finish(self) -> bool:
        """Whether the person may stop the match here: open-ended, between deals, no tie-break."""
        match = self.match
        return (
            match.rules.match_end == "open"
            and not match.over
            and not match.tie_break
            and bool(match.scored_deals)
            and not match.deal.claims
            and all(c is None for c in match.deal.calls)
        )

    # ------------------------------------------------------------ results
    def results(self) -> list[DealResult]:
        """Every finished deal's public outcome, void ones included, in order."""
        return [deal_result(entry, self.rules, self.describe_void) for entry in self.match.entries]

    def last_trick_of_finished_deal(self) -> tuple[int, TrickView] | None:
        """The final trick of the deal settled last, with its number (that deal's hand size:
        Oh Hell's change deal by deal); None if that deal was thrown in.

        Every card of it was played face up, so it is public: the result screen
        shows it because the table has already moved on to the next deal.
        """
        if not self.match.entries:
            return None
        deal = self.match.entries[-1].deal
        if deal.phase != "over" or not deal.history:
            return None
        leader, cards, winner = deal.history[-1]
        active = tuple(deal.active) if len(deal.active) < deal.players else ()
        names = tuple(deal.deck.names[c] for c in cards)
        return len(deal.history), TrickView(leader, names, winner, active)

    @property
    def finished_deals(self) -> int:
        """How many deals have been settled (void ones included): a face watches it grow."""
        return len(self.match.entries)

    @property
    def totals(self) -> tuple[Points, ...]:
        return tuple(self.match.totals)

    @property
    def winners(self) -> list[int]:
        return list(self.match.winners)

    @property
    def deal_number(self) -> int:
        return self.match.deal_number

    @property
    def tie_break(self) -> bool:
        return self.match.tie_break

    # ------------------------------------------------------------ record
    def seats(self) -> list[dict[str, str]]:
        """The record's seats: the person as ``human``, each bot as ``bot:SPEC``."""
        return [
            {"name": self.seat_name(seat), "player": HUMAN}
            if seat == self.human
            else {"name": self.seat_name(seat), "player": f"bot:{self.specs[seat]}"}
            for seat in range(self.players)
        ]

    def save(self) -> None:
        """Rewrite the record (if any) through a temporary file, so it is never half written.

        A save that fails (the folder deleted, the disk full, made read-only) must not cost
        the person the match being played: the failure is kept in ``save_failure``, the
        next save tries again, and ``take_save_news`` tells the face once when saving
        stops working and once when it works again — not at every move.
        """
        if self.record is None:
            return
        from callbreak.record import match_record, write_record

        record: dict[str, Any] = match_record(self.match, seats=self.seats(), seed=self.match.seed)
        target = self.record
        temporary = target.with_name(f".{target.stem}.saving{target.suffix}")
        try:
            write_record(temporary, record)
            os.replace(temporary, target)
        except OSError as error:
            with contextlib.suppress(OSError):  # no stray temporary file left behind
                temporary.unlink(missing_ok=True)
            failed = self.save_failure is None
            self.save_failure = f"could not save the record to {target}: {error.strerror or error}"
            if failed:
                self._save_news = (
                    f"{self.save_failure[:1].upper()}{self.save_failure[1:]}. The match goes on, "
                    "unsaved; saving is tried again as it goes."
                )
            return
        if self.save_failure is not None:
            self.save_failure = None
            # A failure nobody was told of yet is not news any more; a told one needs its end.
            told = not self._save_news
            self._save_news = f"The record is saved again to {target}." if told else ""

    def take_save_news(self) -> str:
        """What changed in saving since a face last asked ("" when nothing did): a failure
        is said when it starts and a recovery when it comes, so the person is told once,
        whichever call (a move, a bot's, finishing) happened to save."""
        news, self._save_news = self._save_news, ""
        return news

    def unsaved_words(self) -> str:
        """The line a face ends with when the last save failed, so that nobody leaves
        believing the record holds the match ("" when it does, or there is none)."""
        if self.save_failure is None:
            return ""
        return (
            f"Record NOT saved: {self.save_failure}. A file there, if any, holds the match only "
            "as far as an earlier save."
        )
