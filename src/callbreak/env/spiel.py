"""Every preset as an OpenSpiel Python game (``pyspiel.register_game``).

Importing this module registers one game per preset, named ``python_`` and the
preset with ``-`` as ``_`` (``python_callbreak``, ``python_callbridge``,
``python_batak_ihale``, ``python_snarples``, ``python_rook_call_partner``, ...:
``GAMES``), so OpenSpiel's algorithms and evaluation tools load them with
``pyspiel.load_game("python_callbreak")``.  The games with a seat range take a
``players`` parameter: ``pyspiel.load_game("python_snarples(players=8)")``; Spades
takes ``blind_nil`` (``python_spades(blind_nil=True)``), Oh Hell and Judgement take
``deal``, the deal of the match's schedule to play, from 0 (its hand size and, in
Judgement, its trump: ``python_oh_hell(deal=11)`` deals one card a seat).

One game is one deal.  The deal is chance as data: chance deals the pack one
card at a time (uniform over the cards left), top first, into the engine's
``Deal(rules, deck=...)`` with the last seat as dealer (so seat 0 speaks first).
Only the cards that can matter are chance nodes: the hands, the Rook nest, Oh Hell's
turned-up trump, and in Horsethief the upcard and as much of the stock as the exchanges
can draw; the
rest of the pack, out of play and never seen, follows in pack order.  Misdeals
are off (every deal is played); a deal voided by its rules (Call Break's calls
totalling too few, Snarples' all-pass auction) is terminal with zero returns.
Player actions are ``Encoder``'s action indices, chance outcomes its card
indices.  Returns are the deal's points, sign-flipped in the countdown games
(Snarples, Donut) so that higher is better, as the AEC env's rewards.

Observation tensors are ``Encoder.encode`` of the seat's ``Observation`` (seats
relative to the observer, as everywhere in ``callbreak.env``).  The information
state tensor adds, for perfect recall, the seat's own hand as dealt (taken from
its first ``Observation`` that shows it: under blind nil, once the seat has looked or
bid blind nil) and every decision of the deal in order, one row per
decision, one-hot over the actions plus a last column for a decision the seat
may not see (another seat's discard into the Rook nest or Horsethief exchange):
``information_state_tensor = observation ++ dealt (C) ++ history (L × (A + 1))``.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError:  # stays importable (doctest collection, docs); register() says what to install
    pyspiel = None

from callbreak.bots.encoding import Encoder
from callbreak.decks import DECKS
from callbreak.engine import Deal, Observation
from callbreak.engine.games import Context, deal_upcard_next, deal_with_nest
from callbreak.engine.match import opening_context, scheduled_size
from callbreak.engine.phases import DONE
from callbreak.rules import Rules

GAMES: dict[str, str] = {f"python_{name.replace('-', '_')}": name for name in Rules.presets()}
"""OpenSpiel short name -> preset, for every preset."""

PRIVATE_PHASES = frozenset({"discard", "exchange"})
"""Phases whose card actions only the seat that takes them sees."""


def spiel_rules(preset: str, players: int | None = None, blind_nil: bool | None = None) -> Rules:
    """The rules of the OpenSpiel game of ``preset``: misdeals off, ``players`` seats,
    ``blind_nil`` (Spades) as asked."""
    rules = Rules.preset(preset)
    if "misdeal" in rules.shape.options and rules.misdeal != "off":
        rules = rules.replace(misdeal="off")
    if players is not None and players != rules.players:
        rules = rules.replace(players=players)
    if blind_nil is not None and blind_nil != rules.blind_nil:
        rules = rules.replace(blind_nil=blind_nil)
    return rules


def chance_cards(rules: Rules, hand_size: int | None = None) -> int:
    """How many cards chance deals: those that can matter to a deal of ``hand_size`` cards a
    seat (the rules' own by default)."""
    dealt = rules.players * (rules.hand_size if hand_size is None else hand_size)
    size = DECKS[rules.shape.deck].size
    shape = rules.shape
    deal = shape.dealing if shape.dealing_by_rules is None else shape.dealing_by_rules(rules)
    if deal is deal_with_nest:
        return size  # the hands and the nest: the whole pack
    if deal is deal_upcard_next:
        # The upcard, and every card the exchanges can draw (Horsethief's).
        draws = dealt if "exchange" in shape.phase_names else 0
        return min(size, dealt + 1 + draws)
    return dealt


def max_decisions(encoder: Encoder) -> int:
    """An upper bound on the players' decisions in one deal, from the game's phases."""
    p, h = encoder.players, encoder.hand_size
    per_phase = {
        "misdeal": p,
        "declare": p,
        "call": 2 * p if encoder.words else p,  # blind nil: look, then call
        "auction": len(encoder.values) + p,  # each bid is higher than the last; a pass is final
        "trump": 1,
        "drop": p,
        "settle": 1,
        "exchange": (h + 1) * p,
        "discard": 5,
        "partner": 1,
        "play": h * p,
    }
    return sum(per_phase.get(phase, 0) for phase in encoder.phases)


def _game_type(short_name: str, preset: str) -> Any:
    rules = Rules.preset(preset)
    low, high = rules.shape.seats
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"Python {rules.title} (callbreak)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(rules),
    )


def _parameters(rules: Rules) -> dict[str, Any]:
    """The game's parameters and their defaults: the seat count where the game has a range,
    ``blind_nil`` where it may be bid, the deal of the schedule where hands change size."""
    low, high = rules.shape.seats
    params: dict[str, Any] = {"players": rules.players} if low < high else {}
    if "blind_nil" in rules.shape.options:
        params["blind_nil"] = bool(rules.blind_nil)
    if rules.shape.schedule is not None:
        params["deal"] = 0
    return params


def _game_class(short_name: str, preset: str) -> type:
    game_type = _game_type(short_name, preset)

    class Game(pyspiel.Game):  # type: ignore[misc]
        """One deal of the preset (misdeals off: every deal is played)."""

        def __init__(self, params: dict[str, Any] | None = None) -> None:
            params = dict(params or {})
            players, blind = params.get("players"), params.get("blind_nil")
            self.rules = rules = spiel_rules(
                preset,
                None if players is None else int(players),
                None if blind is None else bool(blind),
            )
            self.encoder = encoder = Encoder(rules)
            self.context, self.hand_size = _schedule_deal(rules, int(params.get("deal", 0)))
            self.chance_cards = chance_cards(rules, self.hand_size)
            self.decisions = max_decisions(encoder)
            self.sign = -1.0 if self.rules.shape.lowest_wins else 1.0
            info = pyspiel.GameInfo(
                num_distinct_actions=encoder.num_actions,
                max_chance_outcomes=len(encoder.cards),
                num_players=self.rules.players,
                min_utility=-encoder.score_scale,
                max_utility=encoder.score_scale,
                max_game_length=self.chance_cards + self.decisions,
            )
            super().__init__(game_type, info, params)

        def new_initial_state(self) -> State:
            return State(self)

        def make_py_observer(
            self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
        ) -> Observer:
            if iig_obs_type is not None and (
                not iig_obs_type.public_info
                or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            ):
                raise ValueError(
                    "the callbreak games observe as one seat: public information and that "
                    "seat's private information (PrivateInfoType.SINGLE_PLAYER)"
                )
            perfect = iig_obs_type is not None and iig_obs_type.perfect_recall
            return Observer(self, perfect)

    Game.__name__ = Game.__qualname__ = f"Game_{preset.replace('-', '_')}"
    return Game


def _schedule_deal(rules: Rules, number: int) -> tuple[Context | None, int]:
    """The context and hand size of deal ``number`` (from 0) of the match's schedule; the
    rules' own hand size, and no context, in a game whose deals are all alike."""
    schedule = rules.shape.schedule
    if schedule is None:
        if number:
            raise ValueError(f"deal={number}: {rules.title}'s deals are all alike")
        return None, rules.hand_size
    deals = len(schedule(rules))
    if not 0 <= number < deals:
        raise ValueError(f"deal={number}: a deal of the schedule, from 0 to {deals - 1}")
    return opening_context(rules, number), scheduled_size(rules, number)


_StateBase: Any = pyspiel.State if pyspiel is not None else object


class State(_StateBase):  # type: ignore[misc]
    """A deal: chance deals the cards, then the engine's ``Deal`` runs every phase."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        # OpenSpiel's clone() deep-copies every attribute: the encoder copies as itself, and
        # the deal through ``Deal.copy`` (see ``_Held``), not through every object it holds.
        self.encoder: Encoder = game.encoder
        self.sign: float = game.sign
        self.to_deal: int = game.chance_cards
        self.schedule_deal: tuple[Context | None, int] = (game.context, game.hand_size)
        """The context and hand size of the deal (a deal of Oh Hell's schedule)."""
        self.dealt: list[int] = []
        """Card indices (``Encoder.cards``) dealt so far, top of the pack first."""
        self._held = _Held(None)
        self.moves: list[tuple[int, int, bool]] = []
        """(seat, action, private) for every decision in order (perfect recall)."""
        self.first_hands: list[tuple[str, ...]] = []
        """Each seat's hand as dealt, from its own first ``Observation`` that shows it."""
        self.unseen: set[int] = set()
        """Seats that have not seen their hand yet (blind nil: they have not looked)."""

    @property
    def rules(self) -> Rules:
        return self.encoder.rules

    @property
    def deal(self) -> Deal | None:
        """The engine's deal once chance has dealt it (None while dealing)."""
        return self._held.deal

    def current_player(self) -> int:
        if self.deal is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.deal.over:
            return int(pyspiel.PlayerId.TERMINAL)
        assert self.deal.to_act is not None
        return self.deal.to_act

    def _legal_actions(self, player: int) -> list[int]:
        assert self.deal is not None
        return sorted(self.encoder.action_index(a) for a in self.deal.legal())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        dealt = set(self.dealt)
        left = [i for i in range(len(self.encoder.cards)) if i not in dealt]
        return [(card, 1.0 / len(left)) for card in left]

    def _apply_action(self, action: int) -> None:
        if self.deal is None:
            self.dealt.append(self._chance_card(action))
            if len(self.dealt) == self.to_deal:
                self._start()
            return
        move = self.encoder.action_in(action, self.deal.phase)
        seat = self.deal.to_act
        assert seat is not None
        private = self.deal.phase in PRIVATE_PHASES and move != DONE
        self.deal.act(move)
        self.moves.append((seat, int(action), private))
        if self.unseen:
            self._see()

    def _chance_card(self, action: int) -> int:
        """``action`` as a chance outcome: a card index not dealt yet (``chance_outcomes``).

        Checked at once: a card dealt twice, or one outside the pack, would otherwise pass
        unseen until the last chance node, where the whole pack is dealt and refused.
        """
        cards = self.encoder.cards
        try:
            card = operator.index(action)
        except TypeError:
            card = -1
        if not 0 <= card < len(cards):
            raise ValueError(
                f"chance outcome {action!r} is not a card: the outcomes are card indices from "
                f"0 to {len(cards) - 1} not dealt yet (chance_outcomes())"
            )
        if card in self.dealt:
            raise ValueError(
                f"chance outcome {card} ({cards[card]}) is dealt already: the outcomes are the "
                "cards not dealt yet (chance_outcomes())"
            )
        return card

    def _see(self) -> None:
        """Each seat's hand as dealt once its own observation shows it (blind nil: once it
        has looked or bid blind nil; no card has been played by then)."""
        assert self.deal is not None
        for seat in sorted(self.unseen):
            hand = self.deal.observation(seat).hand
            if hand:
                self.first_hands[seat] = hand
                self.unseen.discard(seat)

    def _start(self) -> None:
        """The deal from the cards chance dealt, the rest of the pack after them."""
        cards = self.encoder.cards
        dealt = set(self.dealt)
        order = [cards[i] for i in self.dealt] + [
            name for i, name in enumerate(cards) if i not in dealt
        ]
        context, size = self.schedule_deal
        deal = Deal(
            self.rules, deck=order, dealer=self.rules.players - 1, context=context, hand_size=size
        )
        self._held = _Held(deal)
        self.first_hands = [deal.observation(seat).hand for seat in range(self.rules.players)]
        self.unseen = {seat for seat, hand in enumerate(self.first_hands) if not hand}

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {self.encoder.cards[action]}"
        return str(self.encoder.action(action))

    def is_terminal(self) -> bool:
        return self.deal is not None and self.deal.over

    def returns(self) -> list[float]:
        if self.deal is None or self.deal.points is None:
            return [0.0] * self.rules.players
        return [self.sign * p.tenths / 10 + 0.0 for p in self.deal.points]

    def __str__(self) -> str:
        if self.deal is None:
            return f"dealing: {len(self.dealt)} cards"
        deal = self.deal
        trick = " ".join(deal.names_of(1 << c)[0] for c in deal.trick)
        return (
            f"{deal.phase}: to act {deal.to_act}, trump {deal.trump}, bids {deal.bids}, "
            f"calls {deal.calls}, out {sorted(deal.dropped)}, tricks {deal.tricks}, "
            f"trick {trick}"
        )


class _Held:
    """Holds a state's deal; deep-copied (by OpenSpiel's ``clone()``) with ``Deal.copy``."""

    __slots__ = ("deal",)

    def __init__(self, deal: Deal | None) -> None:
        self.deal = deal

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(None if self.deal is None else self.deal.copy())


class Observer:
    """OpenSpiel's Python observer: the seat's ``Encoder`` vector from its ``Observation``;
    for a perfect-recall information state, also its hand as dealt and the decisions so far."""

    def __init__(self, game: Any, perfect_recall: bool) -> None:
        self.encoder = encoder = game.encoder
        self.perfect_recall = perfect_recall
        c, a = len(encoder.cards), encoder.num_actions
        self.hidden = a
        """The history column of a decision this seat may not see."""
        size = encoder.size + (c + game.decisions * (a + 1) if perfect_recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray[Any, Any]] = {"observation": self.tensor[: encoder.size]}
        if perfect_recall:
            at = encoder.size
            self.dict["dealt"] = self.tensor[at : at + c]
            self.dict["history"] = self.tensor[at + c :].reshape(game.decisions, a + 1)

    def set_from(self, state: State, player: int) -> None:
        self.tensor.fill(0)
        if state.deal is None:
            return
        self.encoder.encode(state.deal.observation(player), out=self.dict["observation"])
        if self.perfect_recall:
            index = self.encoder._index_of_name
            dealt = self.dict["dealt"]
            for name in state.first_hands[player]:
                dealt[index[name]] = 1
            history = self.dict["history"]
            for k, (seat, action, private) in enumerate(state.moves):
                history[k, self.hidden if private and seat != player else action] = 1

    def string_from(self, state: State, player: int) -> str:
        if state.deal is None:
            return f"p{player} dealing"
        text = f"p{player} " + _observation_text(state.deal.observation(player))
        if self.perfect_recall:
            encoder = self.encoder
            moves = " ".join(
                f"{seat}:{'?' if private and seat != player else encoder.action(action)}"
                for seat, action, private in state.moves
            )
            text += f" dealt {' '.join(state.first_hands[player])} moves {moves}"
        return text


def _observation_text(obs: Observation) -> str:
    """A line with what the seat sees: its hand and the public state of the deal."""
    parts = [obs.phase, "hand " + " ".join(obs.hand), f"trump {obs.trump}"]
    if obs.bids:
        parts.append("bids " + " ".join(f"{s}:{b}" for s, b in obs.bids))
    if any(call is not None for call in obs.calls):
        parts.append(f"calls {list(obs.calls)}")
    if obs.upcard is not None:
        parts.append(f"upcard {obs.upcard}")
    if obs.dropped:
        parts.append(f"out {list(obs.dropped)}")
    if obs.exchanges:
        parts.append(f"exchanged {list(obs.exchanges)}")
    if obs.partner_card is not None:
        parts.append(f"partner card {obs.partner_card} partner {obs.partner}")
    parts.append(f"tricks {list(obs.tricks_won)}")
    parts.append("played " + " ".join(f"{t.leader}:{' '.join(t.cards)}" for t in obs.history))
    parts.append(f"trick {obs.trick.leader}:{' '.join(obs.trick.cards)}")
    return ", ".join(parts)


def register() -> list[str]:
    """Register the games with OpenSpiel (once per process); their short names."""
    if pyspiel is None:
        raise ImportError("OpenSpiel is not installed: pip install 'callbreak[bench]'")
    known = set(pyspiel.registered_names())
    for short_name, preset in GAMES.items():
        if short_name not in known:
            pyspiel.register_game(_game_type(short_name, preset), _game_class(short_name, preset))
    return list(GAMES)


if pyspiel is not None:
    register()
