"""Worlds for the games the Call Break search does not model: whole ``Deal`` objects that
one seat cannot tell from the deal it is in.

The compiled search (``sampler``, ``rollout``) knows one game's deal.  The other
games of the family differ in their phases (auctions, a nest, a partner card,
drops and sit-outs, an exchange with a stock), and writing each of them again
for a search would be a second copy of their rules.  So a world here is a real
``Deal``, built by the engine itself and brought to the seat's position by
*replaying* the deal's history through ``Deal.act``:

1. the cards whose place the seat knows are put there (its own dealt hand, the
   cards each seat played, the face-up card, the nest it took as declarer), and
   the rest are dealt at random to the hidden places, keeping each seat clear of
   the suits its play showed it lacks;
2. a ``Deal`` is dealt from that deck order by the game's own dealing, and every
   decision before the play is replayed: where the observation says what was
   done (bids, trump, partner card, drops, exchange sizes) only that action is
   taken; where it was secret (another declarer's discards, another seat's
   exchanged cards) a random one of the legal actions is taken that keeps every
   card the seat later played;
3. the tricks are replayed card by card.

A world that the engine refuses on the way (a card its hand cannot follow
with, a partner card the declarer holds) or that does not end at exactly the
seat's own observation is thrown away, so every world kept is consistent by
the engine's own rules, never by a copy of them.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from callbreak.bots.heuristic import HeuristicBot
from callbreak.decks import DECKS, Deck
from callbreak.engine import Deal, IllegalAction, Observation
from callbreak.engine.games import Context
from callbreak.engine.observation import observe

_ROOK = "ROOK"
"""The Rook's name in every view of the Rook deck."""
_PLAY, _DROP = "play", "drop"
_SECRET = object()
"""In a replay's record: a secret action, chosen afresh in each world."""
SECRET_PHASES = ("discard", "exchange")
"""Phases whose actions the other seats do not see (cards laid away face down)."""
_TRIES = 8
"""Attempts at a consistent set of hands before a world is given up as not found."""


def _suit_letter(name: str, trump: str | None) -> str:
    """The suit a card belongs to in the play, by its name (the Rook: trump's colour)."""
    if name == _ROOK:
        return trump or ""
    return name[-1]


@dataclass(frozen=True)
class _Slots:
    """The deck positions of one deal's layout: which hand, the nest, the face-up card and
    the stock (in order) each position of the dealing order goes to."""

    hands: dict[int, list[int]]
    nest: list[int]
    upcard: int | None
    stock: list[int]


def _slots(observation: Observation, deck: Deck, hand_size: int) -> _Slots:
    """Where each position of the dealing order lands, found by dealing the deck in its own
    order with the game's dealing function (so no layout is written twice)."""
    game = observation.rules.shape
    dealt_in = observation.dealt_in or tuple(range(observation.players))
    seats: list[int] = []
    seat = observation.dealer
    for _ in dealt_in:
        seat = (seat + 1) % observation.players
        while seat not in dealt_in:
            seat = (seat + 1) % observation.players
        seats.append(seat)
    order = list(deck.cards)
    at = {card: i for i, card in enumerate(order)}
    layout = game.dealing(order, seats, hand_size)

    def positions(mask: int) -> list[int]:
        return sorted(at[c] for c in order if mask >> c & 1)

    hands = {s: positions(layout.hands[s]) for s in seats}
    upcard = None if layout.upcard is None else at[layout.upcard]
    if upcard is not None:
        for s in seats:
            if upcard in hands[s]:  # a face-up card held in a hand (Donut) is placed by name
                hands[s].remove(upcard)
    return _Slots(hands, positions(layout.nest), upcard, [at[c] for c in layout.stock])


class FamilyWorlds:
    """Draws worlds (``Deal`` objects at the seat's position) for one observation."""

    def __init__(
        self, observation: Observation, surprise: float = 1.0, trust: float | None = None
    ) -> None:
        """``surprise``: the weight factor of a world for each decision of another seat (a
        bid, trump, in or out, a card) that the heuristic would not have taken with the
        hand the world gives it (1: the decisions say nothing about the hands).  With
        ``trust`` the decisions are read seat by seat as a mixture, as the call games'
        sampler reads the play (``search.sampler``): with probability ``trust`` the seat
        decides like the heuristic, else it counts as choosing at random, so a seat that
        strays in every world stops steering them."""
        self.observation = observation
        self.surprise = surprise
        self.trust = trust
        self._keep = (1 - surprise) / (1 + 3 * surprise)
        """The mixture's chance of the heuristic's own action: with four legal actions,
        another one then weighs ``surprise`` times as much (as in ``search.sampler``)."""
        self.weight = 1.0
        """The weight of the last world drawn: how well the heuristic explains the others'
        decisions in it (1 when they are not read)."""
        self._models: list[Any] = []
        self._logs: dict[int, list[float]] = {}
        """Per other seat, the log likelihood of its decisions so far in the world being
        replayed: ``[as the heuristic's mixture, as a random player]``."""
        self.seat = observation.seat
        rules = observation.rules
        self.deck = deck = DECKS[rules.shape.deck]
        self.slots: _Slots
        trump = observation.trump
        self.played: dict[int, list[str]] = {s: [] for s in range(observation.players)}
        self.voids: dict[int, set[str]] = {s: set() for s in range(observation.players)}
        self.moves: list[str] = []
        """The cards of the play in order, to replay."""
        for trick in (*observation.history, observation.trick):
            seats = trick.seats(observation.players)
            led = _suit_letter(trick.cards[0], trump) if trick.cards else ""
            for who, name in zip(seats, trick.cards, strict=False):
                self.played[who].append(name)
                self.moves.append(name)
                if _suit_letter(name, trump) != led:
                    self.voids[who].add(led)
        self.exchanged = {s: k for s, k in observation.exchanges}
        self.mine = self._own_dealt()
        self.blind = not any(self.mine)
        """The seat has not looked at its cards (Spades' blind nil): its own are drawn too."""
        self.hand_size = observation.hand_size or len(self.mine[0])
        """Cards dealt to each seat this deal (a match's schedule may change it: Oh Hell)."""
        self.slots = _slots(observation, deck, self.hand_size)
        self.context = Context(
            tuple(observation.totals or ()),
            frozenset(s for s in range(observation.players) if s not in self._dealt_in),
            number=(observation.deal_number or 1) - 1,
        )
        self.target = self._signature(observation)
        self.script: list[tuple[int, object]] | None = None
        """The decisions before the play, once a world has found them (``_before_play``)."""
        self.tries = 0
        """Worlds attempted, kept or not (for the bot's report)."""
        self.kept = 0

    @property
    def _dealt_in(self) -> tuple[int, ...]:
        obs = self.observation
        return obs.dealt_in or tuple(range(obs.players))

    def _card(self, name: str) -> int:
        return self.deck.parse(name)

    def _own_dealt(self) -> tuple[list[int], list[int]]:
        """The seat's own dealt cards (as the base deck's ints), and the cards it drew in an
        exchange, which the stock must hold where the seat drew them."""
        obs = self.observation
        held = [self._card(n) for n in obs.hand] + [self._card(n) for n in self.played[self.seat]]
        thrown = [self._card(n) for n in obs.discards or ()]
        if obs.nest is not None:  # the declarer took the nest: its cards were not dealt to it
            nest = {self._card(n) for n in obs.nest}
            return [c for c in held + thrown if c not in nest], []
        drew = self.exchanged.get(self.seat, 0)
        return held[drew:] + thrown, held[:drew]

    @staticmethod
    def _signature(obs: Observation) -> tuple[object, ...]:
        """What must be equal between a world's view and the seat's own for the world to
        be at the seat's position (the hand included)."""
        return (
            obs.phase,
            obs.to_act,
            obs.bids,
            obs.calls,
            obs.trump,
            obs.declarer,
            obs.contract,
            obs.partner_card,
            obs.partner,
            obs.dropped,
            obs.settled,
            obs.exchanges,
            obs.discards,
            obs.tricks_won,
            obs.trick.cards,
            frozenset(obs.hand),
            obs.upcard,
        )

    # ------------------------------------------------------------ dealing
    def _order(self, rng: random.Random) -> list[int] | None:
        """A deck order consistent with what the seat knows, or None if the random fill got
        stuck on the voids."""
        obs = self.observation
        slots = self.slots
        order: list[int | None] = [None] * self.deck.size
        placed: set[int] = set()

        def put(position: int, card: int) -> None:
            order[position] = card
            placed.add(card)

        if slots.upcard is not None and obs.upcard is not None:
            upcard = self._card(obs.upcard)
            put(slots.upcard, upcard)
        dealt, drew = self.mine
        own = [] if self.blind else slots.hands[self.seat]
        if slots.upcard is not None and obs.upcard is not None and upcard in dealt:
            dealt = [c for c in dealt if c != upcard]  # the dealer's own face-up card
        if len(dealt) != len(own):
            return None
        for position, card in zip(own, dealt, strict=True):
            put(position, card)
        draws = self._draw_positions()
        for position, card in zip(draws.get(self.seat, []), drew, strict=False):
            put(position, card)
        if obs.nest is not None:
            for position, name in zip(slots.nest, obs.nest, strict=True):
                put(position, self._card(name))
        # The others: the cards they played first, then the unseen cards at random.
        free: dict[int, list[int]] = {}
        for s, positions in slots.hands.items():
            if s == self.seat and not self.blind:
                continue
            spare = [p for p in positions if order[p] is None]
            rng.shuffle(spare)
            # Up to as many cards as it exchanged, the cards it played may have been drawn.
            drawn = [p for p in draws.get(s, []) if order[p] is None]
            played = [self._card(n) for n in self.played[s]]
            face_up = None if slots.upcard is None else order[slots.upcard]
            if face_up is not None and face_up in played:
                played.remove(face_up)  # the dealer's face-up card, placed already
            if any(c in placed for c in played) or len(played) > len(spare) + len(drawn):
                return None
            rng.shuffle(played)
            keep = max(0, len(spare) - len(drawn))
            for card in played[keep:]:
                put(drawn.pop(), card)
            for card in played[:keep]:
                put(spare.pop(), card)
            free[s] = spare
        # The nest, the stock, and a face-up card the observation does not show (turned for
        # a dealing rule that this game does not use) lie hidden.
        face_down = () if slots.upcard is None else (slots.upcard,)
        hidden = [p for p in (*slots.nest, *slots.stock, *face_down) if order[p] is None]
        rest = [c for c in self.deck.cards if c not in placed]
        rng.shuffle(rest)
        trump = obs.trump
        names = self.deck.names
        # Cards that some seat cannot hold go first, where the hidden places can take them.
        voids = list(self.voids.values())
        rest.sort(key=lambda c: -sum(_suit_letter(names[c], trump) in v for v in voids))
        for card in rest:
            suit = _suit_letter(names[card], trump)
            choices = [s for s, spare in free.items() if spare and suit not in self.voids[s]]
            weights = [len(free[s]) for s in choices]
            room = len(hidden)
            if not choices and not room:
                return None
            pick = rng.randrange(sum(weights) + room)
            if pick >= sum(weights):
                put(hidden.pop(), card)
                continue
            for s, w in zip(choices, weights, strict=True):
                if pick < w:
                    put(free[s].pop(), card)
                    break
                pick -= w
        if any(c is None for c in order):
            return None
        return [c for c in order if c is not None]

    def _draw_positions(self) -> dict[int, list[int]]:
        """The stock positions each seat drew from in an exchange (the stock is drawn from
        the top, in the order the exchanges were made)."""
        out: dict[int, list[int]] = {}
        at = 0
        for seat, count in self.observation.exchanges:
            out[seat] = self.slots.stock[at : at + count]
            at += count
        return out

    # ------------------------------------------------------------ replay
    def draw(self, rng: random.Random) -> Deal | None:
        """One world at the seat's position, or None when the attempts all failed."""
        for _ in range(_TRIES):
            self.tries += 1
            order = self._order(rng)
            if order is None:
                continue
            world = self._replay(order, rng)
            if world is not None:
                self.kept += 1
                return world
        return None

    def _replay(self, order: Sequence[int], rng: random.Random) -> Deal | None:
        obs = self.observation
        self.weight = 1.0
        self._logs = {}
        try:
            deal = Deal(
                obs.rules,
                deck=order,
                dealer=obs.dealer,
                context=self.context,
                hand_size=None if self.hand_size == obs.rules.hand_size else self.hand_size,
            )
            if not self._before_play(deal, rng):
                return None
            if obs.phase == _PLAY:
                for name in self.moves:
                    if deal.to_act is not None:
                        self._weigh(deal, deal.to_act, name)
                    deal.act(name)
        except IllegalAction:
            return None
        if self._signature(observe(deal, self.seat)) != self.target:
            return None
        if self._logs:
            self.weight = math.exp(sum(self._mixed(logs) for logs in self._logs.values()))
        return deal

    def _before_play(self, deal: Deal, rng: random.Random) -> bool:
        """Replay the decisions before the play; False when the world cannot reach them.

        The public decisions are the same in every world, so the first world that gets
        through records them (``script``) and the others replay that record, choosing
        afresh only the secret actions; each world is still checked against the seat's
        observation at the end.
        """
        if self.script is not None:
            for who, action in self.script:
                if deal.to_act != who:
                    return False
                if action is _SECRET:
                    options = [a for a in deal.legal() if self._secret_fits(who, a)]
                    if not options:
                        return False
                    action = self._secret_choice(who, options, rng)
                else:
                    self._weigh(deal, who, action)
                deal.act(action)  # type: ignore[arg-type]
            return True
        obs = self.observation
        script: list[tuple[int, object]] = []
        thrown: dict[int, int] = {}
        while deal.phase not in (_PLAY, "over", "void"):
            at_target = deal.phase == obs.phase and deal.to_act == obs.to_act
            if at_target and self._signature(observe(deal, self.seat)) == self.target:
                break
            seat = deal.to_act
            if seat is None:
                return False
            legal = deal.legal()
            if deal.phase in SECRET_PHASES and seat != self.seat:
                options = [a for a in legal if self._fits_secret(deal, seat, a, thrown)]
                if not options:
                    return False
                action = self._secret_choice(seat, options, rng)
                script.append((seat, "done" if action == "done" else _SECRET))
            else:
                action = next(
                    (a for a in self._likely_first(legal) if self._fits(deal, seat, a, thrown)),
                    _SECRET,
                )
                if action is _SECRET:
                    return False
                script.append((seat, action))
                self._weigh(deal, seat, action)
            if deal.phase == "exchange" and action != "done":
                thrown[seat] = thrown.get(seat, 0) + 1
            deal.act(action)  # type: ignore[arg-type]
        self.script = script
        return True

    def _weigh(self, deal: Deal, seat: int, action: object) -> None:
        """Count how well the heuristic, holding this world's hand, explains another seat's
        decision (a public one or a card): the world's weight is made of these once the
        replay ends (``_mixed``)."""
        if self.surprise >= 1.0 or seat == self.seat or deal.phase in SECRET_PHASES:
            return
        if not self._models:
            self._models = [HeuristicBot(seed=s) for s in range(deal.players)]
        view = observe(deal, seat)
        options = max(1, len(view.legal))
        if options == 1:
            return  # a forced action says nothing about the hand
        agrees = str(self._models[seat].act(view)) == str(action)  # replayed: maybe as text
        logs = self._logs.setdefault(seat, [0.0, 0.0])
        if self.trust is None:
            logs[0] += 0.0 if agrees else math.log(self.surprise)
            return
        stray = (1 - self._keep) / options
        logs[0] += math.log(self._keep + stray if agrees else stray)
        logs[1] -= math.log(options)

    def _mixed(self, logs: list[float]) -> float:
        """One seat's log weight: its decisions as the heuristic's mixture, or without
        ``trust`` the plain factor per decision the heuristic would not have taken."""
        model, plain = logs
        if self.trust is None or self.trust >= 1.0:
            return model
        high = max(model, plain)
        return high + math.log(
            self.trust * math.exp(model - high) + (1 - self.trust) * math.exp(plain - high)
        )

    def _likely_first(self, legal: list[Any]) -> list[Any]:
        """The legal actions with those the observation names first (the next bid, trump,
        the partner card), so the replay mostly tries one."""
        obs = self.observation
        named = {str(a) for _, a in obs.bids} | {str(obs.trump), str(obs.partner_card)}
        return sorted(legal, key=lambda a: str(a) not in named)

    def _secret_choice(self, seat: int, options: list[Any], rng: random.Random) -> Any:
        """A secret action at random, a card of a suit the seat later showed it lacked
        first (it must have laid that card away), and "done" only when no such card is left."""
        trump = self.observation.trump
        void = self.voids[seat]
        must = [a for a in options if a != "done" and _suit_letter(str(a), trump) in void]
        pool = must or options
        return pool[rng.randrange(len(pool))]

    def _secret_fits(self, seat: int, action: object) -> bool:
        """A secret action another seat may have taken: it keeps the cards it played later."""
        return action != "done" and action not in self.played[seat]

    def _fits_secret(self, deal: Deal, seat: int, action: object, thrown: dict[int, int]) -> bool:
        if deal.phase == "exchange":
            return self._fits_exchange(seat, action, thrown)
        return self._secret_fits(seat, action)

    def _fits(self, deal: Deal, seat: int, action: object, thrown: dict[int, int]) -> bool:
        """Whether ``action`` keeps the world on the way to the seat's observation."""
        obs = self.observation
        trial = deal.copy()
        try:
            trial.act(action)  # type: ignore[arg-type]
        except IllegalAction:
            return False
        view = observe(trial, self.seat)
        if view.bids != obs.bids[: len(view.bids)]:
            return False
        if any(c is not None and c != t for c, t in zip(view.calls, obs.calls, strict=True)):
            return False
        for mine, theirs in (
            (view.trump, obs.trump),
            (view.partner_card, obs.partner_card),
            (view.settled, obs.settled),
        ):
            if mine is not None and mine != theirs:
                return False
        if not set(view.dropped) <= set(obs.dropped):
            return False
        if deal.phase == _DROP and (seat in view.dropped) != (seat in obs.dropped):
            return False  # every answer replayed is one the seat has seen given
        if view.exchanges != obs.exchanges[: len(view.exchanges)]:
            return False
        if deal.phase in SECRET_PHASES:  # the seat's own: what it laid away
            if deal.phase == "exchange":
                return self._fits_exchange(seat, action, thrown)
            return action in (obs.discards or ())
        return True

    def _fits_exchange(self, seat: int, action: object, thrown: dict[int, int]) -> bool:
        obs = self.observation
        so_far = thrown.get(seat, 0)
        if seat == self.seat:
            mine = obs.discards or ()
            if action == "done":
                return so_far == len(mine) and seat in self.exchanged
            return so_far < len(mine) and action == mine[so_far]  # in the order thrown
        if seat not in self.exchanged:
            return False  # its exchange is still to come in the seat's view
        want = self.exchanged[seat]
        if action == "done":
            return so_far == want
        return so_far < want and action not in self.played[seat]
