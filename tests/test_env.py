"""The RL faces: PettingZoo's and Gymnasium's own checkers, seeds, the hidden-information wall.

Every preset, and the five-card games and Oh Hell at their extreme seat counts (``TABLES``).
PettingZoo and Gymnasium come with the dev extra (and the rl extra): missing, these tests fail.
The five-card games' own fields, rewards and lifecycle: ``tests/test_env_family.py``; Spades'
blind nil and sides, Oh Hell's and Judgement's hand sizes: ``tests/test_env_calls.py``.
"""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from callbreak.bots import encoding as encoding_module
from callbreak.bots import make_bot
from callbreak.cards import CARD_NAMES, cards_of
from callbreak.engine import Deal, IllegalAction, Match
from callbreak.env import (
    ENV_PRESETS,
    BatchCallBreak,
    CallBreakEnv,
    Encoder,
    SingleSeat,
    env,
)
from callbreak.env.policy import LinearPolicy
from callbreak.rules import Rules
from helpers import step_twin_envs

CARD_FIELDS = ("hand", "played", "trick", "nest", "discards")
"""Fields indexed by card that a seat's own knowledge fills (partner_card, upcard are public)."""

SEAT_RANGES = [("snarples", 3), ("snarples", 8), ("donut", 4), ("donut", 6)]
SEAT_RANGES += [("horsethief", 3), ("horsethief", 5), ("oh-hell", 3), ("oh-hell", 7)]
TABLES = [(preset, None) for preset in ENV_PRESETS] + SEAT_RANGES
"""Every preset at its own seat count, and the five-card games and Oh Hell at their fewest and
most seats (Spades with blind nil, and Oh Hell's hand sizes: ``tests/test_env_calls.py``)."""


def _table_id(table: tuple[str, int | None]) -> str:
    preset, players = table
    return preset if players is None else f"{preset}-{players}"


def _random_episode(e: CallBreakEnv, seed: int, rng_seed: int) -> list[np.ndarray]:
    """Play one episode with random legal actions; every observation vector seen."""
    rng = np.random.default_rng(rng_seed)
    e.reset(seed=seed)
    seen = []
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        seen.append(obs["observation"].copy())
        if term or trunc:
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        del agent
    return seen


@pytest.mark.parametrize("table", TABLES, ids=_table_id)
@pytest.mark.parametrize("reward", ["deal", "match"])
def test_pettingzoo_api_test_passes(table: tuple[str, int | None], reward: str) -> None:
    preset, players = table
    e = env(preset, players=players, reward=reward, render_mode="ansi")
    assert e.possible_agents == [f"player_{seat}" for seat in range(e.rules.players)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # advice on dict observations, as for PettingZoo's own
        api_test(e, num_cycles=300)
    text = e.render()
    assert text is not None and e.rules.title in text


@pytest.mark.parametrize("preset", ENV_PRESETS)
def test_gymnasium_check_env_passes(preset: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "not made through gymnasium.make": no spec here
        check_env(SingleSeat(preset, opponents="heuristic", render_mode="ansi"))


@pytest.mark.parametrize("table", [("callbreak", None), *SEAT_RANGES], ids=_table_id)
def test_seeds_reproduce_and_differ(table: tuple[str, int | None]) -> None:
    preset, players = table
    e = env(preset, players=players)
    first = _random_episode(e, seed=11, rng_seed=3)
    again = _random_episode(e, seed=11, rng_seed=3)
    other = _random_episode(e, seed=12, rng_seed=3)
    assert len(first) == len(again)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert not np.array_equal(first[0], other[0])


def test_single_seat_seed_reproduces_against_bots() -> None:
    s = SingleSeat("callbridge", opponents=["heuristic", "random", "heuristic"], seat=1)
    runs = []
    for _ in range(2):
        obs, _ = s.reset(seed=5)
        trace = [obs["observation"].copy()]
        done = False
        total = 0.0
        while not done:
            action = int(np.flatnonzero(obs["action_mask"])[0])
            obs, reward, done, _, _ = s.step(action)
            trace.append(obs["observation"].copy())
            total += reward
        runs.append((trace, total))
    assert runs[0][1] == runs[1][1]
    assert all(np.array_equal(a, b) for a, b in zip(runs[0][0], runs[1][0], strict=True))


def test_single_seat_refuses_an_illegal_action_without_changing_the_deal() -> None:
    s = SingleSeat("callbreak", opponents="random")
    obs, _ = s.reset(seed=2)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    again, reward, done, _, info = s.step(illegal)
    assert reward == s.illegal_penalty and not done and info == {"illegal": True}
    assert np.array_equal(again["observation"], obs["observation"])
    strict = SingleSeat("callbreak", opponents="random", illegal="raise")
    obs, _ = strict.reset(seed=2)
    with pytest.raises(ValueError):
        strict.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))


@pytest.mark.parametrize("action", [-1, 67, 2.5, "3", None, True])
def test_an_index_outside_the_action_space_is_refused_by_every_env(action: object) -> None:
    # -1 used to count from the end of the mask and could play an action nobody chose.
    aec = env("callbreak")
    aec.reset(seed=3)
    before = aec.observe(aec.agent_selection)
    with pytest.raises(ValueError, match="not in the action space: a whole number from 0 to 66"):
        aec.step(action)
    after = aec.observe(aec.agent_selection)
    assert np.array_equal(after["observation"], before["observation"])
    single = SingleSeat("callbreak", opponents="random")
    obs, _ = single.reset(seed=3)
    with pytest.raises(ValueError, match="not in the action space"):
        single.step(action)  # type: ignore[arg-type]
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    assert single.step(np.int64(legal))[2] is False  # numpy scalars are indices too


@pytest.mark.parametrize(
    ("second", "message"),
    [
        (-1, "table 1: action -1 is not in the action space"),
        (67, "table 1: action 67 is not"),
        (2.5, "table 1: action 2.5 is not"),
        ("3", "indices into the action space .* not <U"),
        (None, "indices into the action space .* not object"),
    ],
)
def test_the_batch_env_names_the_table_of_an_index_outside_the_space(
    second: object, message: str
) -> None:
    batch = BatchCallBreak(2, seed=1, compiled=False)
    obs, mask = batch.reset()
    before = obs.copy()
    first = int(np.flatnonzero(mask[0])[0])
    with pytest.raises(ValueError, match=message):
        batch.step(np.array([first, second], dtype=object if second is None else None))
    assert np.array_equal(batch.obs, before)


def test_whole_floats_and_numpy_scalars_are_action_indices() -> None:
    encoder = Encoder(Rules.preset("callbreak"))
    assert encoder.checked(np.int64(5)) == encoder.checked(5.0) == encoder.checked(np.array(5)) == 5
    assert encoder.action(66) == encoder.actions[66]
    with pytest.raises(ValueError, match="not in the action space"):
        encoder.action(-1)


def test_match_rewards_add_up_to_the_match_totals() -> None:
    e = env("callbreak", reward="match")
    rng = np.random.default_rng(0)
    e.reset(seed=4)
    earned = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, _, _ = e.last()
        earned[agent] += reward
        e.step(None if term else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert e.match is not None and e.match.over
    for seat, agent in enumerate(e.possible_agents):
        assert earned[agent] == pytest.approx(e.match.totals[seat].tenths / 10)


def test_deal_rewards_are_the_deals_points() -> None:
    e = env("batak-ihale")
    rng = np.random.default_rng(1)
    e.reset(seed=9)
    final = {}
    for agent in e.agent_iter():
        obs, reward, term, _, _ = e.last()
        if term:
            final[agent] = reward
        e.step(None if term else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert e.deal is not None and e.deal.points is not None
    assert [final[a] for a in e.possible_agents] == [p.tenths / 10 for p in e.deal.points]


def test_actions_cover_every_legal_action_of_every_phase() -> None:
    """Every action the engine offers has an index, and the index maps back to it."""
    for preset, players in TABLES:
        rules = Rules.preset(preset)
        if players is not None:
            rules = rules.replace(players=players)
        encoder = Encoder(rules)
        rng = random.Random(preset)
        for seed in range(8):
            deal = Deal(rules, seed=seed, dealer=seed % rules.players)
            while not deal.over:
                legal = deal.legal()
                mask = encoder.action_mask(legal)
                assert mask.sum() == len(legal)
                for action in legal:
                    assert encoder.action(encoder.action_index(action)) == action
                deal.act(rng.choice(legal))


@pytest.mark.parametrize("preset", ENV_PRESETS)
def test_the_vector_documents_its_fields_in_order(preset: str) -> None:
    encoder = Encoder(Rules.preset(preset))
    offset = 0
    for _, at, shape in encoder.fields:
        assert at == offset
        offset += int(np.prod(shape))
    assert offset == encoder.size
    assert len({name for name, _, _ in encoder.fields}) == len(encoder.fields)
    doc = encoding_module.__doc__ or ""
    for name, _, _ in encoder.fields:
        assert f"    {name} " in doc, f"field {name} is not documented"


# ----------------------------------------------------------- hidden information
def hidden_from(deal: Deal, seat: int) -> set[str]:
    """Cards ``seat`` may not see now: the other hands (less a face-up upcard), the stock
    (undealt, or not yet drawn), the nest until it takes it, the others' discards."""
    names = deal.names_of
    hidden: set[str] = set()
    for other in range(deal.players):
        if other != seat:
            hidden |= set(names(deal.hands[other]))
    hidden |= set(names(sum(1 << card for card in deal.stock)))
    if deal.phase == "auction":  # later the nest lies in the declarer's hand or discards
        hidden |= set(names(deal.nest))
    if seat != deal.declarer or not deal.nest:
        own = {str(a) for phase, who, a in deal.log if phase == "exchange" and who == seat}
        hidden |= set(names(deal.discards)) - own
    if deal.upcard is not None:
        hidden.discard(names(1 << deal.upcard)[0])
    return hidden


def assert_no_hidden_card(e: CallBreakEnv, context: object) -> None:
    """For every seat: its hand field is exactly its hand, and no card field shows a card
    hidden from it; the upcard field shows the upcard and nothing else."""
    deal, encoder = e.deal, e.encoder
    assert deal is not None
    for seat, agent in enumerate(e.possible_agents):
        vector = e.observe(agent)["observation"]
        hand = {encoder.cards[i] for i in np.flatnonzero(encoder.field(vector, "hand"))}
        assert hand == set(deal.names_of(deal.hands[seat])), (context, seat)
        hidden = hidden_from(deal, seat)
        for name in CARD_FIELDS:
            if any(f[0] == name for f in encoder.fields):
                block = encoder.field(vector, name).reshape(-1, len(encoder.cards))
                shown = {encoder.cards[i] for i in np.flatnonzero(block.any(axis=0))}
                assert not shown & hidden, (context, seat, name, shown & hidden)
        if encoder.five:
            upcard = {encoder.cards[i] for i in np.flatnonzero(encoder.field(vector, "upcard"))}
            public = set() if deal.upcard is None else {deal.names_of(1 << deal.upcard)[0]}
            assert upcard == public, (context, seat)


@pytest.mark.parametrize("table", TABLES, ids=_table_id)
def test_no_vector_holds_a_card_hidden_from_its_seat(table: tuple[str, int | None]) -> None:
    """At every step, for every seat: no card field holds another seat's card, the stock,
    another seat's exchanged cards or the nest (the declarer's own, once taken, aside)."""
    preset, players = table
    e = env(preset, players=players)
    rng = np.random.default_rng(7)
    for seed in range(4):
        e.reset(seed=seed)
        while e.agents and not any(e.terminations.values()):
            assert_no_hidden_card(e, (preset, players, seed))
            mask = e.observe(e.agent_selection)["action_mask"]
            e.step(int(rng.choice(np.flatnonzero(mask))))
        assert_no_hidden_card(e, (preset, players, seed, "over"))


def test_a_seats_vector_is_the_same_whatever_the_others_hold() -> None:
    """Two deals that differ only in the other seats' unplayed cards look the same to seat 0
    at every step (and different to seat 1, whose hand differs: the check can fail)."""
    # Without must_overtake and must_trump, what is legal depends only on the suits held,
    # which swapping two cards of one suit keeps: both deals can take the same actions.
    rules = Rules.preset("callbreak").replace(
        must_overtake=False, must_trump="never", misdeal="off", min_total_calls=None
    )
    hands = [cards_of(h) for h in Deal(rules, seed=21, dealer=3).hands]
    a, b = next(
        (a, b) for a in hands[1] for b in hands[2] if a // 13 == b // 13
    )  # a card of seat 1 and one of the same suit of seat 2
    swapped = [list(h) for h in hands]
    swapped[1][swapped[1].index(a)] = b
    swapped[2][swapped[2].index(b)] = a
    envs = []
    for deal_hands in (hands, swapped):
        e = CallBreakEnv(rules=rules)
        e.reset(options={"hands": [[CARD_NAMES[c] for c in h] for h in deal_hands], "dealer": 3})
        envs.append(e)
    never = {envs[0].encoder.action_index(CARD_NAMES[c]) for c in (a, b)}
    steps = step_twin_envs(envs, never, random.Random(5), seat_1_always_differs=True)
    assert steps >= 12  # the calls and at least two tricks


# ------------------------------------------------------- AEC env on the kernel
CALL_PRESETS = ("callbreak", "callbreak-bhoos", "callbridge", "batak-koz-maca")
"""The presets whose deals the AEC env plays on the compiled kernel (``fast``)."""


def _step_fast_and_engine(a: CallBreakEnv, b: CallBreakEnv, rng: random.Random) -> int:
    """Step the fast env ``a`` and the engine env ``b`` (reset alike) with the same random
    legal actions to the end, checking every agent's observation, mask, reward and
    termination after every step, and now and then that ``a.deal`` caught up with ``b``'s.
    Returns the steps taken."""
    steps = 0
    for agent in a.agent_iter():
        assert agent == b.agent_selection and a.agents == b.agents
        for name in a.agents:
            fast, slow = a.observe(name), b.observe(name)
            assert np.array_equal(fast["observation"], slow["observation"]), (name, steps)
            assert np.array_equal(fast["action_mask"], slow["action_mask"]), (name, steps)
        assert a.rewards == b.rewards and a._cumulative_rewards == b._cumulative_rewards
        assert a.terminations == b.terminations
        obs, _, term, _, _ = a.last()
        if term:
            a.step(None)
            b.step(None)
            continue
        if steps % 7 == 3:  # reading the deal catches it up; the kernel plays on after
            assert a.deal is not None and b.deal is not None
            assert a.deal.observation(a.deal.to_act or 0) == b.deal.observation(b.deal.to_act or 0)
        action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        a.step(action)
        b.step(action)
        steps += 1
    assert a.deal is not None and b.deal is not None and a.deal.points == b.deal.points
    if a.match is not None and b.match is not None:
        assert a.match.totals == b.match.totals
    return steps


@pytest.mark.parametrize("preset", CALL_PRESETS)
def test_fast_env_steps_as_the_engine_does(preset: str) -> None:
    """Same vectors, masks, rewards and lifecycle, seeded deals (misdeals included)."""
    pytest.importorskip("numba", reason="the kernel needs numba (a default dependency)")
    a, b = env(preset), env(preset, fast=False)
    assert a.fast and not b.fast
    steps = 0
    for seed in range(25):
        a.reset(seed=seed)
        b.reset(seed=seed)
        steps += _step_fast_and_engine(a, b, random.Random(seed))
    assert steps >= 25 * 50


@pytest.mark.parametrize("preset", ["callbreak", "batak-koz-maca"])
def test_fast_env_plays_whole_matches_as_the_engine_does(preset: str) -> None:
    """``reward="match"``: the match books each deal the kernel played, and deals the next."""
    pytest.importorskip("numba", reason="the kernel needs numba (a default dependency)")
    a, b = env(preset, reward="match"), env(preset, reward="match", fast=False)
    assert a.fast and not b.fast
    a.reset(seed=6)
    b.reset(seed=6)
    steps = _step_fast_and_engine(a, b, random.Random(6))
    assert a.match is not None and b.match is not None and a.match.over
    assert a.match.totals == b.match.totals and len(a.match.scored_deals) >= 2
    assert steps >= 2 * 52


def test_fast_env_plays_a_claimed_misdeal_and_a_void_deal_as_the_engine() -> None:
    pytest.importorskip("numba", reason="the kernel needs numba (a default dependency)")
    rules = Rules.preset("callbreak")  # misdeal=claim, min_total_calls=8
    spadeless = [range(13, 26), [*range(0, 12), 51], range(26, 39), [12, *range(39, 51)]]
    hands = [[CARD_NAMES[c] for c in hand] for hand in spadeless]
    for claim in (True, False):
        a, b = CallBreakEnv(rules=rules), CallBreakEnv(rules=rules, fast=False)
        for e in (a, b):
            e.reset(options={"hands": hands, "dealer": 3})
            assert e.deal is not None and e.deal.phase == "misdeal"
            e.step(e.encoder.action_index(claim))
        steps = _step_fast_and_engine(a, b, random.Random(1))
        assert (steps == 0) == claim  # a claim throws the deal in; else calls and play
    a, b = CallBreakEnv(rules=rules), CallBreakEnv(rules=rules, fast=False)
    for e in (a, b):
        e.reset(seed=3)
        for _ in range(4):  # four calls of 1: under min_total_calls, the deal is void
            e.step(e.encoder.action_index(1))
    assert b.deal is not None and b.deal.phase == "void" and a.terminations == b.terminations
    assert _step_fast_and_engine(a, b, random.Random(2)) == 0


def test_fast_env_refuses_an_illegal_card_naming_the_rule_and_changes_nothing() -> None:
    pytest.importorskip("numba", reason="the kernel needs numba (a default dependency)")
    e = env("callbreak-bhoos")
    e.reset(seed=8)
    for _ in range(4):
        e.step(e.encoder.action_index(3))
    e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))  # a lead
    agent = e.agent_selection
    before = e.observe(agent)
    assert e.deal is not None
    led = e.deal.trick[0] // 13
    hand = e.deal.hands[e.deal.to_act or 0]
    off_suit = next(c for c in cards_of(hand) if c // 13 != led and hand >> (led * 13) & 8191)
    with pytest.raises(IllegalAction, match="follow"):
        e.step(e.encoder.action_index(CARD_NAMES[off_suit]))
    after = e.observe(agent)
    assert e.agent_selection == agent
    assert np.array_equal(after["observation"], before["observation"])
    assert np.array_equal(after["action_mask"], before["action_mask"])


# ------------------------------------------------------------------ batch env
def _play_batch_against_aec(compiled: bool) -> int:
    """Step 3 batch tables and 3 AEC envs on the same deals and actions; every vector,
    mask and reward must agree.  Returns the steps compared."""
    rules = Rules.preset("callbreak").replace(misdeal="off")
    batch = BatchCallBreak(3, rules, seed=5, compiled=compiled)
    obs, mask = batch.reset()
    envs = []
    for i in range(3):
        e = CallBreakEnv(rules=rules)
        hands = [[CARD_NAMES[c] for c in cards_of(int(h))] for h in batch.hands[i]]
        e.reset(options={"hands": hands, "dealer": int(batch.dealers[i])})
        envs.append(e)
    rng = np.random.default_rng(0)
    steps = 0
    while not all(e.terminations[e.agent_selection] for e in envs):
        live = [not e.terminations[e.agent_selection] for e in envs]
        for i, e in enumerate(envs):
            if live[i]:
                o = e.observe(e.agent_selection)
                assert np.array_equal(o["observation"], obs[i]), (compiled, i, steps)
                assert np.array_equal(o["action_mask"], mask[i]), (compiled, i, steps)
        actions = np.array([rng.choice(np.flatnonzero(mask[i])) for i in range(3)])
        obs, mask, rewards, done = batch.step(actions)
        for i, e in enumerate(envs):
            if live[i]:
                e.step(int(actions[i]))
                if done[i]:
                    assert e.deal is not None and e.deal.points is not None
                    assert list(rewards[i]) == [p.tenths / 10 for p in e.deal.points]
        steps += 1
    return steps


def test_batch_env_gives_the_aec_envs_vectors_masks_and_rewards() -> None:
    assert _play_batch_against_aec(compiled=False) >= 52


def test_batch_env_compiled_agrees_too() -> None:
    pytest.importorskip("numba", reason="the compiled batch env needs numba (a default dependency)")
    assert _play_batch_against_aec(compiled=True) >= 52


def test_batch_env_refuses_an_illegal_action_and_changes_nothing() -> None:
    batch = BatchCallBreak(2, seed=1, compiled=False)
    obs, mask = batch.reset()
    before = obs.copy()
    illegal = int(np.flatnonzero(mask[1] == 0)[0])
    with pytest.raises(ValueError, match="table 1"):
        batch.step(np.array([int(np.flatnonzero(mask[0])[0]), illegal]))
    assert np.array_equal(batch.obs, before)
    with pytest.raises(ValueError, match="batch env plays"):
        BatchCallBreak(1, Rules.preset("batak-ihale"))
    for tables in (0, -1, 2.5, "4"):
        with pytest.raises(ValueError, match="how many tables"):
            BatchCallBreak(tables, compiled=False)  # type: ignore[arg-type]


def test_batch_env_random_actions_are_legal_and_reproducible() -> None:
    batch = BatchCallBreak(4, seed=2, compiled=False)
    _, mask = batch.reset()
    rng, again = np.random.default_rng(7), np.random.default_rng(7)
    for _ in range(60):  # the calls and well into the play
        actions = batch.random_actions(rng)
        assert np.array_equal(actions, batch.random_actions(again))
        assert all(mask[i, a] == 1 for i, a in enumerate(actions))
        _, mask, _, _ = batch.step(actions)


def test_batch_env_parallel_steps_as_the_serial_one() -> None:
    """The threads change nothing: same deals (redeals and voided calls included), same
    vectors, masks, rewards, step after step."""
    pytest.importorskip("numba", reason="the compiled batch env needs numba (a default dependency)")
    rules = Rules.preset("callbreak-bhoos")  # misdeal=auto: redeals; min_total_calls voids

    def play(parallel: bool) -> list[np.ndarray]:
        batch = BatchCallBreak(16, rules, seed=4, parallel=parallel)
        assert batch.parallel == parallel
        seen = [a.copy() for a in batch.reset()]
        rng = np.random.default_rng(1)
        for _ in range(160):  # two deals and more at every table
            seen += [a.copy() for a in batch.step(batch.random_actions(rng))]
        return seen

    serial = play(parallel=False)
    assert sum(int(a.sum()) for a in serial[5::4]) >= 32  # deals ended (done flags)
    threads = play(parallel=True)
    assert all(np.array_equal(a, b) for a, b in zip(serial, threads, strict=True))


def test_batch_envs_stepped_in_turn_deal_as_each_alone() -> None:
    """Each env seeds the shared generator from its own seed and step count, so two envs
    stepped in turn (and a draw from numba's generator between steps) change nothing."""
    pytest.importorskip("numba", reason="the compiled batch env needs numba (a default dependency)")
    rules = Rules.preset("callbreak-bhoos")

    def run(batches: list[BatchCallBreak], meddle: bool) -> list[list[np.ndarray]]:
        rngs = [np.random.default_rng(9) for _ in batches]
        seen: list[list[np.ndarray]] = [[a.copy() for a in b.reset()] for b in batches]
        for step in range(120):  # two deals and more at every table
            for b, rng, out in zip(batches, rngs, seen, strict=True):
                out += [a.copy() for a in b.step(b.random_actions(rng))]
                if meddle:  # someone else's use of the generator in between
                    b._k.seed(step)
        return seen

    alone = run([BatchCallBreak(8, rules, seed=1)], meddle=False)[0]
    pair = [BatchCallBreak(8, rules, seed=1), BatchCallBreak(8, rules, seed=2)]
    together = run(pair, meddle=True)
    assert all(np.array_equal(a, b) for a, b in zip(alone, together[0], strict=True))
    assert not all(np.array_equal(a, b) for a, b in zip(together[0], together[1], strict=True))


# ----------------------------------------------------------- the rl bot
def test_rl_bot_plays_a_saved_policy_through_the_registry(tmp_path: Path) -> None:
    rules = Rules.preset("callbreak")
    policy = LinearPolicy(rules)
    policy.bias[policy.encoder.action_index(2)] = 5.0  # always call 2
    path = tmp_path / "policy.npz"
    policy.save(path)
    bot = make_bot(f"rl:path={path}")
    match = Match(rules, seed=3)
    while not match.over:
        seat = match.to_act
        assert seat is not None
        observation = match.observation(seat)
        action = bot.act(observation)
        assert action in observation.legal
        if observation.phase == "call":
            assert action == 2
        match.act(action)
    with pytest.raises(ValueError, match="path"):
        make_bot("rl")


# ----------------------------------------------------------------- OpenSpiel
SPIEL_TABLES = [f"python_{preset.replace('-', '_')}" for preset in ENV_PRESETS] + [
    f"python_{preset.replace('-', '_')}(players={players})" for preset, players in SEAT_RANGES
]
SPIEL_TABLES += ["python_spades(blind_nil=True)", "python_oh_hell(deal=11)"]
SPIEL_TABLES += ["python_judgement(deal=6)", "python_oh_hell(players=7,deal=3)"]


@pytest.mark.parametrize("name", SPIEL_TABLES)
def test_openspiel_registration(name: str) -> None:
    """Every preset loads, passes OpenSpiel's own random simulation test (serializing and
    restoring states too), plays to the end with tensors of the documented sizes and the
    engine's points as returns, and OpenSpiel's ``evaluate_bots`` runs random bots on it."""
    pyspiel = pytest.importorskip(
        "pyspiel", reason="OpenSpiel is not installed (pip install callbreak[bench])"
    )
    from callbreak.env import spiel

    assert set(spiel.register()) <= set(pyspiel.registered_names())
    game = pyspiel.load_game(name)
    assert game.num_players() == game.rules.players
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    encoder = Encoder(game.rules)
    history_size = game.decisions * (encoder.num_actions + 1)
    sign = -1 if game.rules.shape.lowest_wins else 1
    for seed in range(3):
        state = game.new_initial_state()
        rng = random.Random(seed)
        length = 0
        while not state.is_terminal():
            length += 1
            if state.is_chance_node():
                state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
                continue
            player = state.current_player()
            tensor = state.observation_tensor(player)
            assert len(tensor) == encoder.size
            info = state.information_state_tensor(player)
            assert len(info) == encoder.size + len(encoder.cards) + history_size
            assert info[: encoder.size] == tensor
            state.apply_action(rng.choice(state.legal_actions()))
        assert length <= game.max_game_length()
        assert state.returns() == [sign * p.tenths / 10 for p in state.deal.points]
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

    bots = [pyspiel.make_uniform_random_bot(p, p) for p in range(game.num_players())]
    returns = evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
    assert len(returns) == game.num_players()
    assert all(game.min_utility() <= r <= game.max_utility() for r in returns)


@pytest.mark.parametrize("fast", [True, False])
def test_a_calls_index_in_the_play_is_refused_not_played_as_a_card(fast: bool) -> None:
    """The engine reads a whole number in the play as a card's own number (5 is the 7S): an
    env that passed a call's index on played a card nobody chose, or fell out of step with
    its kernel."""
    e = env("callbreak", fast=fast)
    e.reset(seed=0)
    for _ in range(4):
        e.step(e.encoder.action_index(3))
    assert e.deal is not None and e.deal.phase == "play"
    call = e.encoder.action_index(6)
    agent = e.agent_selection
    before = e.observe(agent)
    assert before["action_mask"][call] == 0
    with pytest.raises(IllegalAction, match="not an action of the play phase"):
        e.step(call)
    assert e.deal.trick == [] and e.agent_selection == agent
    assert np.array_equal(e.observe(agent)["action_mask"], before["action_mask"])
    e.step(int(np.flatnonzero(before["action_mask"])[0]))  # and it plays on
    assert len(e.deal.trick) == 1


def test_openspiel_refuses_a_calls_index_in_the_play() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed")
    from callbreak.env import spiel

    spiel.register()
    state = pyspiel.load_game("python_callbreak").new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node():
        state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
    encoder = Encoder(Rules.preset("callbreak"))
    for _ in range(4):
        state.apply_action(encoder.action_index(3))
    call = encoder.action_index(6)
    assert call not in state.legal_actions()
    with pytest.raises(IllegalAction, match="not an action of the play phase"):
        state.apply_action(call)
    assert state.legal_actions()  # unchanged: still the first card to lead


def test_an_open_ended_match_ends_after_its_deals_for_a_learner() -> None:
    """Call Bridge's matches run until the players stop: a learner's match plays its
    ``match_deals`` deals (as the arena's whole matches do) instead of never ending."""
    e = env("callbridge", reward="match")
    e.reset(seed=0)
    rng = np.random.default_rng(0)
    steps = 0
    while not all(e.terminations.values()):
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
        assert steps < 5_000, "the match did not end"
    assert e.match is not None and e.match.over
    assert len(e.match.scored_deals) == Rules.preset("callbridge").match_deals


def test_the_match_is_current_mid_deal_on_the_kernel_too() -> None:
    pytest.importorskip("numba", reason="the kernel needs numba (a default dependency)")
    e = env("callbreak", reward="match")
    assert e.fast
    e.reset(seed=0)
    for _ in range(10):
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[-1]))
    assert e.match is not None and e.match.deal.phase == "play"
    assert e.possible_agents[e.match.to_act or 0] == e.agent_selection


def test_a_step_before_reset_says_to_reset() -> None:
    with pytest.raises(RuntimeError, match="call reset"):
        env("donut").step(0)


def test_a_preset_and_rules_of_another_game_are_refused() -> None:
    with pytest.raises(ValueError, match="callbreak's, not spades'"):
        env("spades", rules=Rules.preset("callbreak"))
    assert env(rules=Rules.preset("donut")).rules.name == "donut"
    assert SingleSeat(rules=Rules.preset("spades")).aec.rules.name == "spades"
    assert env().rules.name == "callbreak"
