"""Call Break and Call Bridge as OpenSpiel Python games (``pyspiel.register_game``).

Importing this module registers ``python_callbreak`` and ``python_callbridge``
(the presets of the same names), so OpenSpiel's algorithms and evaluation tools
load them with ``pyspiel.load_game("python_callbreak")``.  The deal is chance as
data: 52 chance nodes each deal the next card (uniform over the cards left) one
at a time round the table from the seat after the dealer (seat 3 deals, so seat
0 calls and leads first); then the players act through the engine's ``Deal``.
Player actions are ``Encoder``'s action indices; returns are the deal's points.

Observation tensors are ``Encoder.encode`` of the seat's ``Observation`` (seats
relative to the observer, as everywhere in ``callbreak.env``); the information
state tensor adds the order of play (the k-th card of the deal, one-hot), which
the observation folds into sets, so that it has perfect recall.
"""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError:  # stays importable (doctest collection, docs); register() says what to install
    pyspiel = None

from callbreak.cards import CARD_NAMES
from callbreak.engine import Deal
from callbreak.env.encoding import Encoder
from callbreak.rules import Rules

DEALER = 3
PLAYERS = 4
CARDS = 52
GAMES = {"python_callbreak": "callbreak", "python_callbridge": "callbridge"}


def _game_type(short_name: str, title: str) -> Any:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"Python {title} (callbreak)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=PLAYERS,
        min_num_players=PLAYERS,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={},
    )


def _game_class(short_name: str, preset: str) -> type:
    rules = Rules.preset(preset).replace(misdeal="off")
    encoder = Encoder(rules)
    game_type = _game_type(short_name, rules.title)
    info = pyspiel.GameInfo(
        num_distinct_actions=encoder.num_actions,
        max_chance_outcomes=CARDS,
        num_players=PLAYERS,
        min_utility=-encoder.score_scale,
        max_utility=encoder.score_scale,
        max_game_length=CARDS + PLAYERS + CARDS,
    )

    class Game(pyspiel.Game):  # type: ignore[misc]
        """One deal of the preset (misdeals off: every deal is played)."""

        def __init__(self, params: dict[str, Any] | None = None) -> None:
            super().__init__(game_type, info, params or {})
            self.rules = rules
            self.encoder = encoder

        def new_initial_state(self) -> State:
            return State(self)

        def make_py_observer(
            self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
        ) -> Observer:
            perfect = iig_obs_type is not None and iig_obs_type.perfect_recall
            return Observer(encoder, perfect)

    Game.__name__ = Game.__qualname__ = f"Game_{preset.replace('-', '_')}"
    return Game


_StateBase: Any = pyspiel.State if pyspiel is not None else object


class State(_StateBase):  # type: ignore[misc]
    """A deal: chance deals the cards, then the engine's ``Deal`` runs the calls and tricks."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.rules: Rules = game.rules
        self.encoder: Encoder = game.encoder
        self.dealt: list[int] = []
        self.deal: Deal | None = None
        self.plays: list[tuple[int, int]] = []
        """(seat, card) in the order played, for the perfect-recall information state."""

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
        left = sorted(set(range(CARDS)) - set(self.dealt))
        return [(card, 1.0 / len(left)) for card in left]

    def _apply_action(self, action: int) -> None:
        if self.deal is None:
            self.dealt.append(int(action))
            if len(self.dealt) == CARDS:
                hands: list[list[str]] = [[] for _ in range(PLAYERS)]
                for at, card in enumerate(self.dealt):
                    hands[(DEALER + 1 + at) % PLAYERS].append(CARD_NAMES[card])
                self.deal = Deal(self.rules, hands, dealer=DEALER)
            return
        move = self.encoder.action(action)
        if self.deal.phase == "play":
            seat = self.deal.to_act
            assert seat is not None
            self.plays.append((seat, CARD_NAMES.index(str(move))))
        self.deal.act(move)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {CARD_NAMES[action]}"
        return str(self.encoder.action(action))

    def is_terminal(self) -> bool:
        return self.deal is not None and self.deal.over

    def returns(self) -> list[float]:
        if self.deal is None or self.deal.points is None:
            return [0.0] * PLAYERS
        return [p.tenths / 10 for p in self.deal.points]

    def __str__(self) -> str:
        if self.deal is None:
            return f"dealing: {len(self.dealt)} cards"
        view = self.deal
        return (
            f"{view.phase}: calls {view.calls}, tricks {view.tricks}, "
            f"trick {' '.join(CARD_NAMES[c] for c in view.trick)}"
        )


class Observer:
    """OpenSpiel's Python observer: the seat's ``Encoder`` vector (plus the order of play
    for a perfect-recall information state) from its ``Observation`` only."""

    def __init__(self, encoder: Encoder, perfect_recall: bool) -> None:
        self.encoder = encoder
        self.perfect_recall = perfect_recall
        size = encoder.size + (CARDS * CARDS if perfect_recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray[Any, Any]] = {"observation": self.tensor[: encoder.size]}
        if perfect_recall:
            self.dict["play_order"] = self.tensor[encoder.size :].reshape(CARDS, CARDS)

    def set_from(self, state: State, player: int) -> None:
        self.tensor.fill(0)
        if state.deal is None:
            return
        self.encoder.encode(state.deal.observation(player), out=self.dict["observation"])
        if self.perfect_recall:
            order = self.dict["play_order"]
            for k, (_, card) in enumerate(state.plays):
                order[k, card] = 1

    def string_from(self, state: State, player: int) -> str:
        if state.deal is None:
            return f"p{player} dealing"
        obs = state.deal.observation(player)
        text = (
            f"p{player} {obs.phase} hand {' '.join(obs.hand)} calls {list(obs.calls)} "
            f"tricks {list(obs.tricks_won)} trick {' '.join(obs.trick.cards)}"
        )
        if self.perfect_recall:
            text += " plays " + " ".join(f"{s}:{CARD_NAMES[c]}" for s, c in state.plays)
        return text


def register() -> list[str]:
    """Register the games with OpenSpiel (once per process); their short names."""
    if pyspiel is None:
        raise ImportError("OpenSpiel is not installed: pip install 'callbreak[bench]'")
    known = set(pyspiel.registered_names())
    for short_name, preset in GAMES.items():
        if short_name not in known:
            pyspiel.register_game(
                _game_type(short_name, Rules.preset(preset).title), _game_class(short_name, preset)
            )
    return list(GAMES)


if pyspiel is not None:
    register()
