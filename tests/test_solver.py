"""The perfect-information solver against a plain minimax, and compiled against interpreted.

The reference is the most direct thing that can be right: a minimax over
``PlayState`` with no pruning, no table and no bounds, on small endings
(2 to 4 tricks left) from random deals under several rule sets.  The solver
must agree exactly on the most and fewest tricks, on every legal card's value
and on window questions.  Bigger positions are checked against the solver's
own ``exact`` mode (no rank abstraction, no equivalent-card pruning), and
the numba build against the plain-Python one, node for node.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from callbreak import Rules
from callbreak.bots.search.solver import NodeLimitExceeded, Solver
from callbreak.bots.search.world import World
from callbreak.cards import iter_cards, parse_card, parse_hand
from callbreak.engine.deal import play_rules, shuffled_hands
from callbreak.engine.fast import PlayState, random_card

OPTION_SETS: list[dict[str, object]] = [
    {},
    {"must_overtake": False},
    {"must_trump": "always"},
    {"must_trump": "never"},
    {"no_waste_trump": True},
    {"must_overtake": False, "no_waste_trump": True, "spades_broken": True},
]


def state_of(world: World) -> PlayState:
    return PlayState(
        world.rules,
        world.hands,
        world.leader,
        trick=world.trick,
        tricks=world.tricks,
        trump_played=world.trump_played,
    )


def minimax(state: PlayState, seat: int, seat_max: bool = True) -> int:
    """Final tricks of ``seat`` when it maximises (or minimises) and the others do the reverse."""
    if state.over:
        return state.tricks[seat]
    values = []
    for card in iter_cards(state.legal()):
        state.play(card)
        values.append(minimax(state, seat, seat_max))
        state.undo()
    mine = state.to_act == seat
    return max(values) if mine == seat_max else min(values)


def reachable(
    state: PlayState, seat: int, lo: int, hi: int, memo: dict[tuple[object, ...], bool]
) -> bool:
    """Whether ``seat`` can force its final tricks into ``[lo, hi]`` (plain AND/OR tree;
    ``memo`` only remembers positions already walked, it prunes nothing)."""
    if state.over:
        return lo <= state.tricks[seat] <= hi
    key = (tuple(state.hands), tuple(state.trick), state.leader, tuple(state.tricks), lo, hi)
    known = memo.get(key)
    if known is not None:
        return known
    answers = []
    for card in iter_cards(state.legal()):
        state.play(card)
        answers.append(reachable(state, seat, lo, hi, memo))
        state.undo()
    answer = any(answers) if state.to_act == seat else all(answers)
    memo[key] = answer
    return answer


def random_worlds(
    options: dict[str, object], seed: int, count: int, lefts: tuple[int, ...]
) -> Iterator[tuple[World, int]]:
    """Random positions: a deal played at random to ``left`` tricks (and some cards of the
    next), with a seat to solve for (usually the one to play)."""
    rules = play_rules(Rules.preset("callbreak").replace(**options))
    rng = random.Random(seed)
    for _ in range(count):
        left = rng.choice(lefts)
        state = PlayState(rules, shuffled_hands(4, rng.randrange(4), rng), rng.randrange(4))
        extra = rng.randrange(4)
        while state.tricks_left > left or (state.tricks_left == left and len(state.trick) < extra):
            state.play(random_card(state.legal(), rng.random()))
        world = World(
            rules,
            tuple(state.hands),
            state.leader,
            tuple(state.trick),
            tuple(state.tricks),
            state.trump_played,
        )
        seat = world.to_act if rng.random() < 0.75 else rng.randrange(4)
        yield world, seat


@pytest.fixture(scope="module")
def compiled() -> Solver:
    """One numba solver for the module: it compiles once per test session."""
    return Solver(compiled=True, table_bits=16)


def check_against_minimax(solver: Solver, world: World, seat: int) -> None:
    """Most and fewest tricks, every window, and per card: the solver against the tree."""
    state = state_of(world)
    assert solver.solve(world, seat) == minimax(state, seat)
    assert solver.min_tricks(world, seat) == minimax(state, seat, seat_max=False)
    won, left = world.tricks[seat], world.tricks_left
    memo: dict[tuple[object, ...], bool] = {}
    windows = [(lo, hi) for lo in range(won, won + left + 1) for hi in (lo, lo + 1, lo + 2)]
    for lo, hi in windows:
        assert solver.can_reach(world, seat, lo, hi) == reachable(state, seat, lo, hi, memo)
    if world.to_act != seat:
        with pytest.raises(ValueError, match="not to play"):
            solver.move_values(world, seat)
        return
    values = solver.move_values(world, seat)
    lows = solver.min_move_values(world, seat)
    legal = list(iter_cards(state.legal()))
    assert sorted(values) == sorted(lows) == legal
    for lo, hi in windows[1::3]:
        inside = solver.window_move_values(world, seat, lo, hi)
        assert sorted(inside) == legal
        for card in legal:
            state.play(card)
            assert inside[card] == reachable(state, seat, lo, hi, memo), (card, lo, hi)
            state.undo()
    for card in legal:
        state.play(card)
        assert values[card] == minimax(state, seat), card
        assert lows[card] == minimax(state, seat, seat_max=False), card
        state.undo()


@pytest.mark.parametrize("options", OPTION_SETS)
def test_interpreted_solver_matches_minimax(options: dict[str, object]) -> None:
    solver = Solver(compiled=False, table_bits=12)
    for world, seat in random_worlds(options, seed=len(str(options)), count=25, lefts=(1, 2, 3)):
        check_against_minimax(solver, world, seat)


@pytest.mark.parametrize("options", OPTION_SETS)
def test_compiled_solver_matches_minimax(compiled: Solver, options: dict[str, object]) -> None:
    worlds = random_worlds(options, seed=100 + len(str(options)), count=30, lefts=(2, 3, 3, 4))
    for world, seat in worlds:
        check_against_minimax(compiled, world, seat)


@pytest.mark.parametrize("options", OPTION_SETS[:4])
def test_abstractions_change_no_answer(compiled: Solver, options: dict[str, object]) -> None:
    """On bigger positions: rank abstraction and equivalent cards against the exact mode."""
    exact = Solver(compiled=True, table_bits=16, exact=True)
    for world, seat in random_worlds(options, seed=7, count=12, lefts=(5, 6)):
        assert compiled.solve(world, seat) == exact.solve(world, seat)
        assert compiled.min_tricks(world, seat) == exact.min_tricks(world, seat)
        won = world.tricks[seat]
        for lo in range(won, won + world.tricks_left + 1):
            assert compiled.can_reach(world, seat, lo, lo + 1) == exact.can_reach(
                world, seat, lo, lo + 1
            )
        if world.to_act == seat:
            assert compiled.move_values(world, seat) == exact.move_values(world, seat)


def test_compiled_and_interpreted_search_the_same_tree(compiled: Solver) -> None:
    """Same source, same table size: the same answers from the same number of nodes."""
    plain = Solver(compiled=False, table_bits=16)
    fresh = Solver(compiled=True, table_bits=16)
    for world, seat in random_worlds({}, seed=3, count=8, lefts=(4, 5)):
        before = (plain.nodes, fresh.nodes)
        assert plain.solve(world, seat) == fresh.solve(world, seat)
        if world.to_act == seat:
            assert plain.move_values(world, seat) == fresh.move_values(world, seat)
        assert plain.nodes - before[0] == fresh.nodes - before[1]


def test_two_threads_give_the_same_answers(compiled: Solver) -> None:
    """A helper thread sharing the table (big questions only) changes no answer."""
    pair = Solver(compiled=True, table_bits=16, threads=2)
    for world, seat in random_worlds({}, seed=12, count=6, lefts=(9, 10)):
        assert pair.solve(world, seat) == compiled.solve(world, seat)
        assert pair.min_tricks(world, seat) == compiled.min_tricks(world, seat)
        if world.to_act == seat:
            assert pair.move_values(world, seat) == compiled.move_values(world, seat)
    assert pair._helper_nodes > 0  # the helper did search
    with pytest.raises(ValueError, match="needs the compiled solver"):
        Solver(compiled=False, threads=2)


def test_machine_bits_match_the_portable_ones() -> None:
    """The compiled core's popcount and top_card instructions against ``_core``'s own."""
    pytest.importorskip("numba")
    from callbreak.bots.search import _core
    from callbreak.bots.search.solver import _machine_bits

    bits = _machine_bits()
    rng = random.Random(5)
    masks = [1, 2, 3, (1 << 52) - 1, 1 << 55] + [rng.getrandbits(52) | 1 for _ in range(500)]
    for mask in masks:
        assert bits["popcount"](mask) == _core.popcount(mask)
        assert bits["top_card"](mask) == _core.top_card(mask)


def test_trick_code_follows_the_cards_played() -> None:
    """The code a trick start derives from the previous one's (``code_after``) is the
    code ``position_code`` writes from scratch, through whole random deals."""
    from callbreak.bots.search import _core

    rng = random.Random(9)
    moves = [0] * (_core.MAX_DEPTH * _core.DEPTH_WORDS)
    for _ in range(40):
        hands = list(shuffled_hands(4, rng.randrange(4), rng))
        leader = rng.randrange(4)
        for depth in range(0, 13 * 4, 4):
            flags = rng.randrange(4)
            expected = _core.position_code(hands, leader, flags)
            alive = hands[0] | hands[1] | hands[2] | hands[3]
            assert _core.trick_code(hands, moves, depth, leader, flags, alive) == expected
            for offset in range(4):
                p = (leader + offset) % 4
                hands[p] ^= 1 << rng.choice(list(iter_cards(hands[p])))
            leader = rng.randrange(4)


@pytest.mark.parametrize("options", OPTION_SETS)
def test_untrumped_floor_never_promises_too_much(options: dict[str, object]) -> None:
    """The seat's sure tricks once the others hold no trump, whoever leads, against the
    minimax of endings in which they hold none (and at times the floor is the value)."""
    from callbreak.bots.search import _core

    rules = play_rules(Rules.preset("callbreak").replace(**options))
    rng = random.Random(11)
    spades = 0x1FFF << (13 * rules.trump)
    checked = tight = 0
    while checked < 60:
        state = PlayState(rules, shuffled_hands(4, rng.randrange(4), rng), rng.randrange(4))
        while state.tricks_left > 3:
            state.play(random_card(state.legal(), rng.random()))
        hands = list(state.hands)
        for seat in range(4):
            others = 0
            for p in range(4):
                others |= hands[p] if p != seat else 0
            if others & spades:
                continue
            sure, _ = _core.seat_floor_untrumped(rules, seat, hands)
            for leader in range(4):
                ending = PlayState(
                    rules, hands, leader, tricks=state.tricks, trump_played=state.trump_played
                )
                value = minimax(ending, seat) - state.tricks[seat]
                assert sure <= value, (hands, seat, leader)
                tight += sure == value > 0
                checked += 1
    assert tight > 10


def hand_world(hands: list[str], leader: int, trick: str = "", **options: object) -> World:
    rules = play_rules(Rules.preset("callbreak").replace(**options))
    masks = tuple(parse_hand(h) for h in hands)
    cards = tuple(parse_card(c) for c in trick.split())
    won = 13 - masks[leader].bit_count() - (1 if cards else 0)
    return World(rules, masks, leader, cards, (won, 0, 0, 0), trump_played=True)


def test_top_spades_win_every_trick(compiled: Solver) -> None:
    world = hand_world(["AS KS QS JS", "2H 3H 4H 5H", "2D 3D 4D 5D", "2C 3C 4C 5C"], leader=1)
    for solver in (compiled, Solver(compiled=False)):
        assert solver.solve(world, 0) == 9 + 4
        assert solver.min_tricks(world, 0) == 9 + 4
        assert solver.solve(world, 1) == 0


def test_lone_low_cards_win_nothing(compiled: Solver) -> None:
    world = hand_world(["2H 3H 4D 5D", "AH KH AD KD", "QH JH QD JD", "AS KS QS JS"], leader=0)
    assert compiled.solve(world, 0) == 9
    assert compiled.move_values(world, 0) == {parse_card(c): 9 for c in ("2H", "3H", "4D", "5D")}


def test_ruffing_when_the_rules_let_it_choose(compiled: Solver) -> None:
    """Seat 0, void in hearts, ruffs the AH with its one small spade and then cashes 6D."""
    hands = ["2S 6D", "3D", "4D", "5D"]
    world = hand_world(hands, leader=1, trick="AH KH QH")
    assert world.tricks[0] == 11
    assert compiled.move_values(world, 0) == {parse_card("2S"): 13}  # must_trump=winning
    free = hand_world(hands, leader=1, trick="AH KH QH", must_trump="never")
    # Discarding the 6D lets seat 1 lead a diamond: the 2S then wins one trick only.
    assert compiled.move_values(free, 0) == {parse_card("2S"): 13, parse_card("6D"): 12}
    assert compiled.min_move_values(free, 0) == {parse_card("2S"): 13, parse_card("6D"): 12}
    assert compiled.can_reach(free, 0, 12, 12)
    assert compiled.window_move_values(free, 0, 12, 12) == {
        parse_card("2S"): False,
        parse_card("6D"): True,
    }


def test_call_bridge_window(compiled: Solver) -> None:
    """A window of exactly the call or one more: four sure winners cannot make [1, 2]."""
    hands = ["AS KS QS JS", "2H 3H 4H 5H", "2D 3D 4D 5D", "2C 3C 4C 5C"]
    world = hand_world(hands, leader=1)
    won = world.tricks[0]
    assert not compiled.can_reach(world, 0, won + 1, won + 2)
    assert compiled.can_reach(world, 0, won + 4, won + 5)
    leading = hand_world(hands, leader=0)
    assert compiled.window_move_values(leading, 0, 12, 12) == {
        parse_card(c): False for c in ("AS", "KS", "QS", "JS")
    }


def test_node_limit_stops_and_recovers() -> None:
    solver = Solver(compiled=False, node_limit=20)
    for world, seat in random_worlds({}, seed=5, count=5, lefts=(8,)):
        with pytest.raises(NodeLimitExceeded):
            solver.solve(world, seat)
    solver.node_limit = None
    small = next(random_worlds({}, seed=6, count=1, lefts=(2,)))
    assert solver.solve(*small) == minimax(state_of(small[0]), small[1])


def test_world_refuses_impossible_positions() -> None:
    rules = play_rules(Rules.preset("callbreak"))
    with pytest.raises(ValueError, match="twice"):
        World(rules, (parse_hand("AS"), parse_hand("AS"), parse_hand("2H"), parse_hand("3H")), 0)
    with pytest.raises(ValueError, match="same count"):
        World(rules, (parse_hand("AS KS"), parse_hand("2D"), parse_hand("2H"), parse_hand("3H")), 0)
    world = World(
        rules,
        (parse_hand("AS"), parse_hand("2D 3D"), parse_hand("2H 4H"), parse_hand("3H 5H")),
        0,
        (parse_card("KS"),),
    )
    assert world.to_act == 1 and world.tricks_left == 2 and world.winning == (parse_card("KS"), 0)
