"""The RL faces of Spades (sides, nil, blind nil) and of Oh Hell and Judgement (a hand size
that changes deal by deal).

The checks every preset shares at its default options (``api_test``, ``check_env``, the
hidden-card wall, the OpenSpiel registration) are in ``tests/test_env.py``; here the same
checkers run with ``blind_nil`` on, random episodes check the mask against the engine's legal
actions at every step and that every action comes up, and blind nil is bid and scored.
"""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from callbreak.engine import Action
from callbreak.env import CallBreakEnv, SingleSeat, env
from callbreak.games.spades import Blind
from callbreak.rules import Rules

BLIND = Rules.preset("spades").replace(blind_nil=True)
PACK = [rank + suit for suit in "SHDC" for rank in "AKQJT98765432"]
TABLES: list[tuple[str, Rules]] = [
    ("spades-blind", BLIND),
    ("oh-hell", Rules.preset("oh-hell")),
    ("oh-hell-3", Rules.preset("oh-hell").replace(players=3)),
    ("oh-hell-7", Rules.preset("oh-hell").replace(players=7)),
    ("judgement", Rules.preset("judgement")),
]


@pytest.mark.parametrize("reward", ["deal", "match"])
def test_pettingzoo_api_test_passes_with_blind_nil(reward: str) -> None:
    e = env("spades", rules=BLIND, reward=reward, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # advice on dict observations, as for PettingZoo's own
        api_test(e, num_cycles=300)


def test_gymnasium_check_env_passes_with_blind_nil() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "not made through gymnasium.make": no spec here
        check_env(SingleSeat("spades", rules=BLIND, opponents="random", render_mode="ansi"))


def _legal_indices(e: CallBreakEnv) -> list[int]:
    """The engine's legal actions of the seat to act, as sorted action indices."""
    assert e.deal is not None
    legal = e.deal.legal()
    indices = sorted(e.encoder.action_index(action) for action in legal)
    assert len(set(indices)) == len(legal)
    return indices


def _hidden_cards(e: CallBreakEnv, seat: int) -> set[str]:
    """Cards ``seat`` may not see: the others' hands, and under blind nil its own while the
    calls go on and it has neither looked nor bid blind nil (docs/rules/spades.md rule 4)."""
    deal = e.deal
    assert deal is not None
    hidden = {name for other in range(deal.players) if other != seat for name in deal.hand(other)}
    blind = deal.parts.get(Blind)
    if deal.rules.blind_nil and deal.phase == "call":
        assert blind is not None
        if seat not in blind.looked | blind.blind:
            hidden |= set(deal.hand(seat))
    return hidden


def _check_step(e: CallBreakEnv, seen: dict[str, Any]) -> None:
    """The acting seat's mask is the engine's legal actions; no seat's vector shows a card
    hidden from it, and its hand field is its ``Observation``'s hand (empty before it looks)."""
    encoder = e.encoder
    mask = e.observe(e.agent_selection)["action_mask"]
    assert np.flatnonzero(mask).tolist() == _legal_indices(e)
    seen["mask"] |= mask.astype(bool)
    for seat, agent in enumerate(e.possible_agents):
        vector = e.observe(agent)["observation"]
        hand = {encoder.cards[i] for i in np.flatnonzero(encoder.field(vector, "hand"))}
        assert hand == set(e.observation_of(agent).hand), (seat, e.deal)
        hidden = _hidden_cards(e, seat)
        for name in ("hand", "played", "trick"):
            block = encoder.field(vector, name).reshape(-1, len(encoder.cards))
            assert not {encoder.cards[i] for i in np.flatnonzero(block.any(axis=0))} & hidden
    if encoder.sized:
        assert e.deal is not None
        size = encoder.field(e.observe(e.agent_selection)["observation"], "deal_size")
        assert np.flatnonzero(size).tolist() == [e.deal.hand_size - 1]
        seen["sizes"].add(e.deal.hand_size)


def _episode(e: CallBreakEnv, seed: int, seen: dict[str, Any], **options: Any) -> None:
    """One episode of random legal actions, checked at every step."""
    rng = np.random.default_rng(seed)
    e.reset(seed=seed, options=options)
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        _check_step(e, seen)
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        del agent


@pytest.mark.parametrize(("name", "rules"), TABLES, ids=[name for name, _ in TABLES])
@pytest.mark.parametrize("reward", ["deal", "match"])
def test_random_episodes_mask_the_engines_legal_actions_and_reach_every_action(
    name: str, rules: Rules, reward: str
) -> None:
    """Whole episodes of random legal actions: at every step the mask is exactly the engine's
    legal actions and no vector shows a hidden card; over them, every action of the space
    is legal somewhere (every call from 0 to the largest hand, blind nil and look, every
    card), and every hand size of the schedule is dealt (lone deals: each deal of it)."""
    e = env(rules=rules, reward=reward)
    seen: dict[str, Any] = {"mask": np.zeros(e.encoder.num_actions, bool), "sizes": set()}
    schedule = rules.shape.schedule
    deals = 1 if schedule is None else len(schedule(rules))
    for seed in range(2 if reward == "match" else max(12, deals)):
        if reward == "deal" and schedule is not None:
            _episode(e, seed, seen, deal=seed % deals)
        else:
            _episode(e, seed, seen)
    missing = [e.encoder.actions[i] for i in np.flatnonzero(~seen["mask"])]
    assert not missing, (name, missing)
    if schedule is not None:
        assert seen["sizes"] == set(schedule(rules))


def _play_blind_deal(opening: list[Action]) -> tuple[CallBreakEnv, dict[str, float]]:
    """The docs' pack, dealt by seat 3: seat 0 opens with ``opening`` (its call words and
    bid), seats 1 to 3 look and bid 3; then every seat plays its last legal card.  The
    deal's rewards by agent."""
    e = env("spades", rules=BLIND)
    e.reset(options={"deck": PACK, "dealer": 3})
    script: list[Action] = [*opening, "look", 3, "look", 3, "look", 3]
    rewards: dict[str, float] = {}
    for agent in e.agent_iter():
        obs, reward, term, _, _ = e.last()
        rewards[agent] = rewards.get(agent, 0.0) + reward
        if term:
            e.step(None)
            continue
        mask = obs["action_mask"]
        if script:
            index = e.encoder.action_index(script.pop(0))
            assert mask[index] == 1
        else:
            index = int(np.flatnonzero(mask)[-1])
        e.step(index)
    return e, rewards


def test_blind_nil_is_chosen_and_scored_for_the_side() -> None:
    """Seat 0 bids blind nil; everyone sees it in the ``blind_nils`` field; the deal scores
    the side's points on both partners' rewards, and the very same play after a plain nil
    scores 100 less for a nil made (100 more for a nil set): blind nil is worth ±200."""
    e = env("spades", rules=BLIND)
    e.reset(options={"deck": PACK, "dealer": 3})
    assert e.deal is not None
    assert e.deal.to_act == 0 and e.deal.legal() == ["blind nil", "look"]
    e.step(e.encoder.action_index("blind nil"))
    for seat, agent in enumerate(e.possible_agents):
        marked = e.encoder.field(e.observe(agent)["observation"], "blind_nils")
        assert np.flatnonzero(marked).tolist() == [(0 - seat) % 4]

    blind, blind_rewards = _play_blind_deal(["blind nil"])
    plain, plain_rewards = _play_blind_deal(["look", 0])
    assert blind.deal is not None and plain.deal is not None
    assert blind.deal.calls == plain.deal.calls == [0, 3, 3, 3]
    assert blind.deal.tricks == plain.deal.tricks
    tricks = blind.deal.tricks
    for rewards in (blind_rewards, plain_rewards):
        assert rewards["player_0"] == rewards["player_2"]
        assert rewards["player_1"] == rewards["player_3"]
    # The side's contract (seat 2's 3) and the nil, by docs/rules/spades.md rule 6.
    taken = tricks[0] + tricks[2]
    bags = taken - 3
    contract = 30 + bags - 100 * (bags // 10) if bags >= 0 else -30
    nil = 200 if tricks[0] == 0 else -200
    assert blind_rewards["player_0"] == contract + nil
    assert plain_rewards["player_0"] == contract + nil // 2
    points = blind.deal.points
    assert points is not None
    assert [blind_rewards[a] for a in blind.possible_agents] == [p.tenths / 10 for p in points]


def test_a_seat_that_has_not_looked_sees_no_cards_not_even_its_own() -> None:
    """Before it looks, a seat's vector is the same whatever the deal holds (no hand field,
    no card anywhere); once it looks it sees its hand, and the others still see nothing."""
    vectors = []
    for seed in (1, 2):
        e = env("spades", rules=BLIND)
        e.reset(options={"deck": random.Random(seed).sample(PACK, 52), "dealer": 3})
        vectors.append([e.observe(agent)["observation"] for agent in e.possible_agents])
    for first, second in zip(*vectors, strict=True):
        assert np.array_equal(first, second)
        assert not first[: 52 * 9].any()  # hand, played and trick fields: no card at all

    e = env("spades", rules=BLIND)
    e.reset(options={"deck": PACK, "dealer": 3})
    e.step(e.encoder.action_index("look"))
    assert e.deal is not None
    for seat, agent in enumerate(e.possible_agents):
        hand = e.encoder.field(e.observe(agent)["observation"], "hand")
        shown = {e.encoder.cards[i] for i in np.flatnonzero(hand)}
        assert shown == (set(e.deal.hand(0)) if seat == 0 else set())


def test_a_lone_oh_hell_deal_is_a_deal_of_the_schedule() -> None:
    """``reward="deal"``: the seed draws a deal of the schedule (every hand size comes up),
    ``options={"deal": k}`` picks one, sized and (Judgement) trumped as in a match."""
    rules = Rules.preset("judgement")
    schedule = rules.shape.schedule
    assert schedule is not None
    sizes = schedule(rules)
    e = env("judgement")
    drawn = set()
    for seed in range(60):
        e.reset(seed=seed)
        assert e.deal is not None
        drawn.add(e.deal.hand_size)
    assert drawn == set(sizes)
    for k, size in enumerate(sizes):
        e.reset(seed=0, options={"deal": k})
        assert e.deal is not None
        assert (e.deal.hand_size, e.deal.trump) == (size, "SDCH"[k % 4])
        assert len(e.deal.hand(0)) == size
    with pytest.raises(ValueError, match="deal"):
        e.reset(options={"deal": len(sizes)})


def test_openspiel_hides_the_hand_of_a_seat_that_has_not_looked() -> None:
    """The information-state tensor's dealt hand (perfect recall) stays empty until the seat
    looks, as its observation does; blind nil and look are OpenSpiel actions too."""
    pyspiel = pytest.importorskip(
        "pyspiel", reason="OpenSpiel is not installed (pip install callbreak[bench])"
    )
    from callbreak.env import spiel

    spiel.register()
    game = pyspiel.load_game("python_spades(blind_nil=True)")
    state = game.new_initial_state()
    rng = random.Random(0)
    while state.is_chance_node():
        state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
    encoder = game.encoder
    size, cards = encoder.size, len(encoder.cards)
    look, blind = encoder.action_index("look"), encoder.action_index("blind nil")
    assert state.current_player() == 0 and state.legal_actions() == sorted([look, blind])
    for seat in range(4):
        info = np.array(state.information_state_tensor(seat))
        assert not info[: 52 * 9].any() and not info[size : size + cards].any()
    state.apply_action(look)
    info = np.array(state.information_state_tensor(0))
    dealt = {encoder.cards[i] for i in np.flatnonzero(info[size : size + cards])}
    assert dealt == set(state.deal.hand(0))
    assert not np.array(state.information_state_tensor(1))[size : size + cards].any()
