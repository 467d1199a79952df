"""The RL faces of the five-card games (Snarples, Donut, Horsethief): their own fields, the
sign of the rewards, seats out of the game, the single seat, and their hidden cards.

The checks every preset shares (``api_test``, ``check_env``, the hidden-card wall, the
OpenSpiel registration) are in ``tests/test_env.py``, parametrized over these games too.
"""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from callbreak.engine import Observation
from callbreak.env import CallBreakEnv, Encoder, SingleSeat, env
from callbreak.rules import Rules
from helpers import step_twin_envs

DECK = [r + s for s in "SHDC" for r in "AKQJT98765432"]
FIVE = [("snarples", 3), ("snarples", 8), ("donut", 4), ("donut", 6)]
FIVE += [("horsethief", 3), ("horsethief", 5)]


def _play(e: CallBreakEnv, seed: int, rng: np.random.Generator, each: Any = None) -> None:
    """One random episode; ``each(e)`` before every action."""
    e.reset(seed=seed)
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        if each is not None:
            each(e)
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        del agent


def _seats(encoder: Encoder, vector: np.ndarray, name: str, me: int) -> set[int]:
    """The absolute seats a relative seat field marks."""
    p = encoder.players
    return {(me + int(rel)) % p for rel in np.flatnonzero(encoder.field(vector, name))}


def _cards(encoder: Encoder, vector: np.ndarray, name: str) -> set[str]:
    block = encoder.field(vector, name).reshape(-1, len(encoder.cards))
    return {encoder.cards[i] for i in np.flatnonzero(block.any(axis=0))}


def check_five_card_fields(encoder: Encoder, obs: Observation, vector: np.ndarray) -> None:
    """Every five-card field of ``vector`` says what ``obs`` says."""
    me, p = obs.seat, obs.players
    assert _seats(encoder, vector, "dealt_in", me) == set(obs.dealt_in)
    assert _seats(encoder, vector, "dropped", me) == set(obs.dropped)
    chooser = set() if obs.chooser is None else {obs.chooser}
    assert _seats(encoder, vector, "chooser", me) == chooser
    assert _cards(encoder, vector, "upcard") == ({obs.upcard} if obs.upcard else set())
    assert encoder.field(vector, "reversed")[0] == float(obs.reversed_ranks)
    assert encoder.field(vector, "stock")[0] == pytest.approx(obs.stock_size / 52)
    exchanges = encoder.field(vector, "exchanges")
    assert {((me + int(r)) % p, int(n)) for r, n in zip(*np.nonzero(exchanges), strict=True)} == (
        set(obs.exchanges)
    )
    assert _cards(encoder, vector, "discards") == set(obs.discards or ())
    assert _cards(encoder, vector, "hand") == set(obs.hand)
    played = encoder.field(vector, "played")
    for trick in (*obs.history, obs.trick):
        if not trick.cards:
            continue  # (before the play the leader may be a seat that sat out)
        for seat, card in zip(trick.seats(p), trick.cards, strict=False):
            assert played[(seat - me) % p, encoder.cards.index(card)] == 1
    won = encoder.field(vector, "tricks_won") * encoder.hand_size
    assert [round(float(w)) for w in won] == [obs.tricks_won[(me + r) % p] for r in range(p)]


@pytest.mark.parametrize(("preset", "players"), FIVE)
def test_the_five_card_fields_say_what_the_observation_says(preset: str, players: int) -> None:
    """At every decision, for every seat: dealt in, dropped, chooser, upcard, reversed ranks,
    stock, exchanges, own discards, the hand and each seat's played cards (tricks that go
    round only the seats still in), and the starting scores of the countdown games."""
    e = env(preset, players=players)
    encoder = e.encoder
    seen: set[str] = set()

    def each(e: CallBreakEnv) -> None:
        for agent in e.possible_agents:
            obs = e.observation_of(agent)
            vector = e.observe(agent)["observation"]
            check_five_card_fields(encoder, obs, vector)
            totals = encoder.field(vector, "totals") * encoder.score_scale
            assert list(totals) == pytest.approx([e.rules.shape.start] * players)
            seen.update(
                name
                for name, fact in (
                    ("dropped", obs.dropped),
                    ("exchanged", any(n for _, n in obs.exchanges)),
                    ("sit-out trick", obs.trick.active and obs.trick.cards),
                    ("chooser", obs.chooser is not None),
                )
                if fact
            )

    rng = np.random.default_rng(3)
    for seed in range(6):
        _play(e, seed, rng, each)
    assert "dropped" in seen and "sit-out trick" in seen
    if preset == "horsethief":
        assert "exchanged" in seen
    if preset == "snarples":
        assert "chooser" in seen


def test_donuts_six_reverses_the_ranks_and_the_hand_keeps_its_card_names() -> None:
    """Deal from a deck whose dealer's fifth card is the 6C: no trump, ranks reversed; the hand
    field (read from the reversed deck's mask) still names the cards each seat holds."""
    deck = [c for c in DECK if c != "6C"]
    deck.insert(5 * 4 - 1, "6C")  # the last card of the hands: the dealer's fifth
    e = env("donut")
    e.reset(options={"deck": deck, "dealer": 3})
    assert e.deal is not None and e.deal.reversed_ranks
    rng = np.random.default_rng(0)
    steps = 0
    while not e.terminations["player_0"]:
        for agent in e.possible_agents:
            vector = e.observe(agent)["observation"]
            assert e.encoder.field(vector, "reversed")[0] == 1
            assert not e.encoder.field(vector, "trump").any()
            check_five_card_fields(e.encoder, e.observation_of(agent), vector)
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    assert steps == 20  # nobody drops under a 6: four seats play five tricks


# ------------------------------------------------------------------ rewards
@pytest.mark.parametrize(("preset", "sign"), [("snarples", -1), ("donut", -1), ("horsethief", 1)])
def test_rewards_are_the_points_sign_flipped_in_the_countdown_games(preset: str, sign: int) -> None:
    e = env(preset)
    assert e.reward_sign == sign
    rng = np.random.default_rng(5)
    for seed in range(4):
        final: dict[str, float] = {}
        e.reset(seed=seed)
        for agent in e.agent_iter():
            obs, reward, term, _, _ = e.last()
            if term:
                final[agent] = reward
            e.step(None if term else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert e.deal is not None and e.deal.points is not None
        assert [final[a] for a in e.possible_agents] == [
            sign * p.tenths / 10 for p in e.deal.points
        ]


@pytest.mark.parametrize(("preset", "players"), [("snarples", 3), ("donut", 5), ("horsethief", 4)])
def test_match_rewards_add_up_to_the_change_in_the_totals(preset: str, players: int) -> None:
    e = env(preset, players=players, reward="match")
    rng = np.random.default_rng(2)
    e.reset(seed=8)
    earned = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, _, _ = e.last()
        earned[agent] += reward
        e.step(None if term else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert e.match is not None and e.match.over
    start = e.rules.shape.start
    for seat, agent in enumerate(e.possible_agents):
        change = e.match.totals[seat].tenths / 10 - start
        assert earned[agent] == pytest.approx(e.reward_sign * change)


def test_a_snarples_seat_out_of_the_game_terminates_and_leaves_the_agents() -> None:
    """At 33 or more a seat is out of the game: it is selected once for its dead step right
    after that deal, leaves ``agents``, is never selected again, and the match goes on."""
    e = env("snarples", players=3, reward="match")
    rng = np.random.default_rng(1)
    e.reset(seed=5)
    left: dict[str, int] = {}
    for agent in e.agent_iter():
        assert agent not in left, f"{agent} was selected after leaving"
        obs, _, term, _, _ = e.last()
        assert e.match is not None
        if term:
            if not e.match.over:
                assert e.agent_name_mapping[agent] in e.match.out
                assert e.match.totals[e.agent_name_mapping[agent]].tenths >= 330
            left[agent] = len(e.match.scored_deals)
            e.step(None)
            assert agent not in e.agents
            continue
        for out in e.match.out:
            assert e.possible_agents[out] not in e.agents
            assert out not in e.observation_of(agent).dealt_in
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert e.match is not None and e.match.over
    early = [a for a, deals in left.items() if deals < len(e.match.scored_deals)]
    assert early, "no seat went out before the end: pick another seed"


# ------------------------------------------------------------- single seat
@pytest.mark.parametrize(("preset", "players"), [("snarples", 8), ("donut", 6), ("horsethief", 3)])
def test_single_seat_passes_gymnasiums_checker_at_other_seat_counts(
    preset: str, players: int
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "not made through gymnasium.make": no spec here
        check_env(SingleSeat(preset, players=players, opponents="heuristic", seat=players - 1))


def test_single_seat_plays_a_snarples_match_to_the_learners_end() -> None:
    """A whole match at three seats: the episode ends when the match does or when the
    learner's seat goes out of the game; the rewards add up to its change of score, flipped."""
    outcomes = set()
    for seed in range(6):
        s = SingleSeat("snarples", players=3, opponents="random", reward="match")
        obs, _ = s.reset(seed=seed)
        rng = np.random.default_rng(seed)
        total, done = 0.0, False
        while not done:
            obs, reward, done, _, _ = s.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            total += reward
        match = s.aec.match
        assert match is not None
        outcomes.add("over" if match.over else "out")
        if not match.over:
            assert 0 in match.out
        assert total == pytest.approx(-(match.totals[0].tenths / 10 - 16))
    assert outcomes == {"over", "out"}  # both ends, among these seeds


# ----------------------------------------------------------- hidden information
def _deck_with_swap(preset: str, players: int, seed: int) -> tuple[list[str], list[str], set[str]]:
    """A shuffled deck, and the same deck with a card of seat 1 swapped for one of its suit
    that seat 0 may never see (seat 2's, or in Horsethief one of the stock)."""
    deck = list(DECK)
    random.Random(seed).shuffle(deck)
    dealt = 5 * players
    hand_1 = deck[1:dealt:players]
    if preset == "horsethief":
        # The stock under the turned-up card, below the five cards seat 0 (first to
        # exchange) may draw: seat 1 or seat 2 may draw it, seat 0 never sees it.
        others = list(range(dealt + 6, len(deck)))
    else:
        others = list(range(2, dealt, players)) if players > 2 else []
    if preset == "donut":
        others = [i for i in others if i != dealt - 1]  # the dealer's face-up card is public
    for a in hand_1:
        for i in others:
            if deck[i][1] == a[1]:
                swapped = list(deck)
                j = deck.index(a)
                swapped[i], swapped[j] = swapped[j], swapped[i]
                return deck, swapped, {a, deck[i]}
    raise AssertionError("no card to swap: pick another seed")


@pytest.mark.parametrize(("preset", "players"), [("snarples", 4), ("donut", 4), ("horsethief", 3)])
def test_seat_0_sees_the_same_vector_whatever_the_others_hold(preset: str, players: int) -> None:
    """Two decks that differ only in a card of seat 1 and a card seat 0 may not see look the
    same to seat 0 at every step (and differ to seat 1, whose hand differs)."""
    longest = 0
    for seed in range(3):
        deck, swapped, never_names = _deck_with_swap(preset, players, seed)
        envs = []
        for order in (deck, swapped):
            e = env(preset, players=players)
            e.reset(options={"deck": order, "dealer": players - 1})
            envs.append(e)
        never = {envs[0].encoder.action_index(name) for name in never_names}
        steps = step_twin_envs(envs, never, random.Random(seed), seat_1_always_differs=False)
        longest = max(longest, steps)
    assert longest >= 2 * players  # past the drops into the exchange or the play


# ------------------------------------------------------------------ OpenSpiel
def test_openspiel_hides_another_seats_exchange_in_the_information_state() -> None:
    """Horsethief: a card thrown in the exchange is the thrower's own secret; the others'
    information states mark that decision only as hidden."""
    pyspiel = pytest.importorskip(
        "pyspiel", reason="OpenSpiel is not installed (pip install callbreak[bench])"
    )
    from callbreak.env import spiel

    spiel.register()
    game = pyspiel.load_game("python_horsethief(players=3)")
    encoder, hidden = game.encoder, game.encoder.num_actions
    private_seen = 0
    for seed in range(6):
        state = game.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        width = encoder.num_actions + 1
        for player in range(3):
            info = np.array(state.information_state_tensor(player))
            history = info[encoder.size + len(encoder.cards) :].reshape(-1, width)
            for k, (seat, action, private) in enumerate(state.moves):
                column = int(np.flatnonzero(history[k])[0])
                if private and seat != player:
                    assert column == hidden
                    private_seen += 1
                else:
                    assert column == action
            text = state.information_state_string(player)
            for seat, action, private in state.moves:
                if private and seat != player:
                    assert f"{seat}:{encoder.action(action)}" not in text
    assert private_seen


@pytest.mark.parametrize(
    "name", ["python_snarples(players=8)", "python_donut", "python_horsethief"]
)
def test_openspiel_random_bots_play_and_returns_sum_as_the_scoring_says(name: str) -> None:
    """OpenSpiel's own ``evaluate_bots`` with uniform random bots; the returns add up as the
    rules score, sign-flipped where the lowest score wins: Donut 5 tricks less 3 a donut (or
    +3 for the dealer left alone), Horsethief 5 tricks less 5 a blank (or +5 for the last
    seat in), Snarples the bidder and each other seat in as docs/rules/snarples.md says."""
    pyspiel = pytest.importorskip(
        "pyspiel", reason="OpenSpiel is not installed (pip install callbreak[bench])"
    )
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

    from callbreak.env import spiel

    spiel.register()
    game = pyspiel.load_game(name)
    n = game.num_players()
    rng = np.random.RandomState(4)
    for k in range(12):
        state = game.new_initial_state()
        bots = [pyspiel.make_uniform_random_bot(p, 100 * k + p) for p in range(n)]
        returns = evaluate_bots(state, bots, rng)
        deal = state.deal
        assert len(returns) == n and deal is not None
        blanks = sum(1 for s in deal.active if deal.tricks[s] == 0)
        if deal.phase == "void":
            assert list(returns) == [0.0] * n
        elif game.rules.game == "donut":
            expected = 3 if deal.unplayed else 5 - 3 * blanks
            assert sum(returns) == pytest.approx(expected)
        elif game.rules.game == "horsethief":
            expected = 5 if deal.unplayed else 5 - 5 * blanks
            assert sum(returns) == pytest.approx(expected)
        elif deal.settled is None:  # Snarples, played out: returns are minus the points
            declarer = deal.declarer
            assert declarer is not None and deal.contract is not None
            for seat in range(n):
                won = deal.tricks[seat]
                if seat in deal.dropped:
                    assert returns[seat] == 0  # sitting out costs only at 3 or less
                elif seat == declarer:
                    assert returns[seat] == (won if won >= deal.contract else -5)
                else:
                    assert returns[seat] == (won if won else -5)


def test_rules_of_the_spiel_games_turn_misdeals_off_and_take_the_seat_count() -> None:
    from callbreak.env import spiel  # importable without OpenSpiel

    assert spiel.spiel_rules("callbreak").misdeal == "off"
    assert spiel.spiel_rules("snarples", 8).players == 8
    assert spiel.chance_cards(Rules.preset("horsethief").replace(players=5)) == 51
    assert spiel.chance_cards(Rules.preset("donut")) == 20
    assert spiel.chance_cards(Rules.preset("rook-call-partner")) == 57
