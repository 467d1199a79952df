"""A table in memory: its match rebuilt from the action log, its seats, and what each seat sees.

Everything a client is sent is built here from ``Match.observation`` (the one
``observe`` of the engine) plus public facts of the table (names, calls,
tricks, scores).  A seat's message holds that seat's observation; a spectator's
holds an observation with the hand and the legal moves taken out.  Nothing
here reads ``deal.hands`` or ``deal.dealt``: hidden cards cannot leak through a
path that never touches them.

A fair table's secret seed, salt and the players' contributions stay out of
every message until the match is over: before, the table shows only the
commitment and which seats contributed (see ``callbreak.record.fair``).
"""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass, field
from typing import Any

from callbreak.bots import Bot, make_bot
from callbreak.engine import IllegalAction, Match
from callbreak.engine.deal import Deal
from callbreak.engine.words import CARD_ANSWERS
from callbreak.faces import deal_result, scoring_text, summary_cell
from callbreak.points import Points
from callbreak.record import match_record
from callbreak.record.fair import SCHEME, commitment, fair_record
from callbreak.review import reviewable, reviewer, waiting_note
from callbreak.rules import Rules
from callbreak.server.store import SeatRow, TableRow

SECRET_PHASES = frozenset({"discard", "exchange"})
"""Phases whose actions are cards thrown face down: only the seat that threw one may see it
(the others learn that a card went, from the observation, never which)."""

FAST_BOTS = frozenset({"heuristic", "random"})
"""Bots quick enough to answer on the event loop; any other thinks in a worker thread."""


def _new_match(rules: Rules, seed: int) -> Match:
    """A table's match, without ``Match``'s guard against endless redeals: each deal here
    waits on its seats' actions, so it cannot spin, and a stored log must always rebuild
    (four people who keep calling too few would otherwise lock their table at the 100th)."""
    return Match(rules, seed=seed, void_limit=None)


@dataclass
class Presence:
    """Who is at the table right now, across every server process."""

    seats: frozenset[int] = frozenset()
    spectators: int = 0
    bot_playing: tuple[bool, ...] = ()
    """Per seat: a bot is making this seat's decisions now (a bot seat, or a dropped player
    whose grace period is over)."""


@dataclass
class LiveTable:
    """One table as a server process holds it: rebuilt from the database, kept in step by events."""

    code: str
    status: str
    rules: Rules
    seed: int
    level: str
    bot_spec: str
    host_seat: int
    grace_s: float
    seats: list[SeatRow]
    match: Match
    seq: int = 0
    last: dict[str, Any] | None = None
    last_trick: dict[str, Any] | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    version: int = 0
    _cache: dict[int | None, str] = field(default_factory=dict)
    _cache_version: int = -1
    _bots: dict[int, Bot] = field(default_factory=dict)
    _rules_view: tuple[dict[str, Any], dict[str, Any]] | None = None
    _scoreboard: list[dict[str, Any]] = field(default_factory=list)
    bot_note: str | None = None
    """Why the bots are not the level's own (its bot does not play this game), if they are not."""
    secret: bytes | None = None
    """A fair table's secret seed; ``None`` for a table that deals from ``seed`` as given."""
    salt: bytes | None = None
    practice: bool = False

    @classmethod
    def from_row(cls, row: TableRow, bot_spec: str, bot_note: str | None = None) -> LiveTable:
        rules = Rules.from_dict(row.rules)
        return cls(
            code=row.code,
            status=row.status,
            rules=rules,
            seed=row.seed,
            level=row.level,
            bot_spec=bot_spec,
            host_seat=row.host_seat,
            grace_s=row.grace_s,
            seats=row.seats,
            match=_new_match(rules, row.seed),
            bot_note=bot_note,
            secret=row.secret,
            salt=row.salt,
            practice=row.practice,
        )

    def refresh(self, row: TableRow) -> None:
        """Take the seats and status the database holds now; a match seed fixed by the start
        (a fair table's) rebuilds the match, which has no action yet at that point."""
        self.seats = row.seats
        self.status = row.status
        if row.seed != self.seed:
            self.seed = row.seed
            self.reset()

    def reset(self) -> None:
        """Back to the first action: the match is rebuilt from the log after this."""
        self.match = _new_match(self.rules, self.seed)
        self._scoreboard = []
        self.seq = 0
        self.last = self.last_trick = None

    # ------------------------------------------------------------- actions
    def canonical(self, action: Any) -> Any:
        """The action in the form the log stores: a card's canonical name, else as given.

        Cards may come as ``10s``, ``1S`` or their index (a Rook card as ``1r``), calls
        as ``"05"``; the engine judges legality either way, but the log (and every
        client) should see one spelling of each.  Words (``pass``, ``in``, a trump
        letter) are not cards and pass through unchanged for the engine to judge.
        """
        deal = self.match.deal
        deck = deal.deck
        cards = deal.phase in CARD_ANSWERS
        if isinstance(action, str) and action not in deal.legal():
            if action.strip().isdecimal() and not cards:
                return int(action)  # a call or bid as " 5" or "05": logged as 5
            try:
                return deck.names[deck.parse(action)]
            except ValueError as error:
                if deal.phase == "play":
                    raise IllegalAction(str(error), "card") from None
        is_index = isinstance(action, int) and not isinstance(action, bool)
        if is_index and cards and action in deck.names:
            return deck.names[action]  # a card by its index: logged by its name
        return action  # the Rook deck's numbering has gaps: the engine names the fault

    def apply(self, seat: int, action: Any, actor: str) -> Any:
        """Apply ``seat``'s action through the engine (IllegalAction changes nothing).

        Returns the action as logged.  The caller has checked the sequence number
        and that ``seat`` is to act.
        """
        match = self.match
        if match.to_act != seat:
            raise IllegalAction(f"seat {seat} is not to act", "turn")
        action = self.canonical(action)
        deal = match.deal
        phase = deal.phase
        tricks_before = len(deal.history)
        match.act(action)
        if len(deal.history) > tricks_before:
            leader, cards, winner = deal.history[-1]
            self.last_trick = {
                "leader": leader,
                "cards": [deal.deck.names[c] for c in cards],
                "seats": trick_seats(deal, leader, len(cards)),
                "winner": winner,
            }
        self.last = {"seq": self.seq, "seat": seat, "action": action, "by": actor, "phase": phase}
        self.seq += 1
        if match.over:
            self.status = "finished"
        return action

    def record(self) -> dict[str, Any]:
        """The game record of the match as it stands (written when it is over)."""
        seats = [
            {"name": s.name, "player": "human" if s.kind == "human" else f"bot:{self.bot_spec}"}
            for s in self.seats
        ]
        fair = None
        if self.secret is not None and self.salt is not None:
            fair = fair_record(self.secret, self.salt, [s.contribution for s in self.seats])
        return match_record(
            self.match, seats=seats, seed=self.seed, fair=fair, practice=self.practice
        )

    def fair_view(self) -> dict[str, Any] | None:
        """The commitment and who contributed; once the match is over, everything revealed.

        The match seed goes as a string: a browser's JSON numbers would lose its low bits.
        """
        if self.secret is None or self.salt is None:
            return None
        view: dict[str, Any] = {
            "scheme": SCHEME,
            "commitment": commitment(self.secret, self.salt),
            "contributed": [s.contribution is not None for s in self.seats],
            "revealed": False,
        }
        if self.match.over:
            revealed = fair_record(self.secret, self.salt, [s.contribution for s in self.seats])
            view.update(revealed, revealed=True, match_seed=str(self.seed))
        return view

    # ---------------------------------------------------------------- bots
    def bot_for(self, seat: int) -> Bot:
        """The bot that plays ``seat`` (a bot seat, or a dropped player's after the grace)."""
        bot = self._bots.get(seat)
        if bot is None:
            seed = random.Random(f"callbreak-table/{self.code}/{self.seed}/{seat}").getrandbits(32)
            bot = self._bots[seat] = make_bot(self.bot_spec, seed=seed)
        return bot

    @property
    def fast_bots(self) -> bool:
        return self.bot_spec.partition(":")[0] in FAST_BOTS

    # ---------------------------------------------------------------- views
    def seat_for_token_hash(self, token_hash: str) -> int | None:
        import hmac

        for seat in self.seats:
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, token_hash):
                return seat.seat
        return None

    def state_text(self, viewer: int | None, presence: Presence) -> str:
        """The state message for one seat (or a spectator, ``None``), cached per version."""
        if self._cache_version != self.version:
            self._cache.clear()
            self._cache_version = self.version
        text = self._cache.get(viewer)
        if text is None:
            text = self._cache[viewer] = json.dumps(
                self.state(viewer, presence), separators=(",", ":")
            )
        return text

    def state(self, viewer: int | None, presence: Presence) -> dict[str, Any]:
        """What ``viewer`` may see of the table now; see the module docstring."""
        match = self.match
        observation: dict[str, Any] | None = None
        if self.status != "lobby":
            if viewer is None:
                observation = public_observation(match)
            else:
                observation = match.observation(viewer).to_dict()
                del observation["rules"]  # sent once in "table", the same for everyone
            # cards dealt to each seat this deal: public, and news where it changes deal by deal
            observation["hand_size"] = match.deal.hand_size
        result = None
        if match.over:
            result = {
                "totals": [str(t) for t in match.totals],
                "winners": list(match.winners),
                "record_url": f"/api/records/{self.code}.json",
            }
        return {
            "type": "state",
            "seq": self.seq,
            "table": self.public(presence),
            "you": {
                "seat": viewer,
                "role": "spectator" if viewer is None else "player",
                "host": viewer == self.host_seat,
            },
            "obs": observation,
            "last": self.last_for(viewer),
            "last_trick": self.last_trick,
            "deals": self.scoreboard(),
            "result": result,
        }

    def last_for(self, viewer: int | None) -> dict[str, Any] | None:
        """The last action as ``viewer`` may see it: a card thrown face down only by its owner."""
        last = self.last
        if last is None or last["phase"] not in SECRET_PHASES or viewer == last["seat"]:
            return last
        if last["action"] == "done":
            return last
        return {**last, "action": None}

    def scoreboard(self) -> list[dict[str, Any]]:
        """``scoreboard(match)``, kept as it grows (finished deals never change)."""
        entries = self.match.entries
        if len(entries) < len(self._scoreboard):  # the match was rebuilt
            self._scoreboard = []
        if len(entries) > len(self._scoreboard):
            self._scoreboard = self._scoreboard + scoreboard(self.match, len(self._scoreboard))
        return self._scoreboard

    def public(self, presence: Presence) -> dict[str, Any]:
        """The table as anyone may see it: no token, no card."""
        bot_playing = presence.bot_playing or tuple(s.kind == "bot" for s in self.seats)
        if self._rules_view is None:  # rules never change: build their JSON once
            changed = self.rules.changed().items()
            self._rules_view = (
                self.rules.to_dict(),
                {k: (v.json() if isinstance(v, Points) else v) for k, v in changed},
            )
        shape = self.rules.shape
        return {
            "code": self.code,
            "status": self.status,
            "host_seat": self.host_seat,
            "level": self.level,
            "bots": self.bot_spec,
            "bot_note": self.bot_note,
            "title": self.rules.title,
            "game": self.rules.game,
            "scoring": scoring_text(self.rules),
            "reviewable": reviewable(self.rules),
            "review_note": waiting_note(self.rules, reviewer().warm),
            "deck": shape.deck,
            "lowest_wins": shape.lowest_wins,
            "start": shape.start,
            "grace_s": self.grace_s,
            "practice": self.practice,
            "fair": self.fair_view(),
            "rules": self._rules_view[0],
            "changed": self._rules_view[1],
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "kind": s.kind,
                    "connected": s.seat in presence.seats or s.kind == "bot",
                    "bot_playing": bot_playing[s.seat],
                }
                for s in self.seats
            ],
            "spectators": presence.spectators,
        }


def public_observation(match: Match) -> dict[str, Any]:
    """A spectator's view: built from the public facts alone (no seat's hand, nest or partner)."""
    observation = match.public_observation().to_dict()
    del observation["rules"]
    observation["seat"] = None
    return observation


def trick_seats(deal: Deal, leader: int, count: int) -> list[int]:
    """The seat that played each of a trick's first ``count`` cards (seats that dropped skip)."""
    order = list(deal.active)
    at = order.index(leader)
    return (order[at:] + order[:at])[:count]


def scoreboard(match: Match, start: int = 0) -> list[dict[str, Any]]:
    """Every finished deal's public outcome, for any game of the family.

    What was public at the table: calls or the auction (bids, contract, declarer,
    trump), who dropped, tricks, card points won (Rook), the partner once revealed,
    points and running totals.  A deal ended before its play says why (``void``
    thrown in, ``unplayed`` decided without play).
    """
    rows = []
    game = match.rules.shape
    columns = game.face.summary
    counted = game.card_points
    for entry in match.entries[start:]:
        deal = entry.deal
        points = deal.points
        result = deal_result(entry, match.rules)
        rows.append(
            {
                "number": entry.number,
                "dealer": deal.dealer,
                "calls": list(deal.calls) if game.calls else None,
                "bids": [[seat, bid] for seat, bid in deal.bids],
                "last_bids": list(result.last_bids),
                "contract": deal.contract,
                "declarer": deal.declarer,
                "trump": deal.trump,
                "upcard": None if deal.upcard is None else deal.deck.names[deal.upcard],
                "partner_card": (
                    None if deal.partner_card is None else deal.deck.names[deal.partner_card]
                ),
                "partner": deal.partner
                if deal.partner_card is not None and deal.partner_known
                else None,
                "dealt_in": list(deal.dealt_in),
                "dropped": sorted(deal.dropped),
                "settled": deal.settled,
                "tricks": list(deal.tricks),
                "card_points": None if counted is None else counted(deal),
                "points": None if points is None else [str(p) for p in points],
                "totals": [str(t) for t in entry.totals],
                "void": deal.void_reason,
                "unplayed": deal.unplayed,
                "tie_break": entry.tie_break,
                "counting_seats": list(entry.counting_seats),
                "cells": {
                    key: [summary_cell(result, seat, key) for seat in range(match.players)]
                    for key in columns
                },
            }
        )
    return rows
