"""The solver's review of a deal (``callbreak.analysis``) and ``callbreak analyze``.

The reference for the values is the most direct thing that can be right: a
minimax over the engine's own legal moves with no pruning and no bounds,
maximising the seat's *points* (``rules.score``) at the end against the
three others minimising them, on endings of 3 and 4 tricks reached by random
play.  Then whole deals: a line in which the seat always plays a card the
analysis calls best must be flagged nowhere, and the same line with one
deliberately worse card must be flagged at exactly that card, also after a
round trip through a record file and the command line.
"""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from callbreak import Match, Rules
from callbreak.analysis import Analyst, Scoring, world_of
from callbreak.bots import make_bot
from callbreak.bots.search.solver import NodeLimitExceeded, Solver, numba_available
from callbreak.bots.search.world import World
from callbreak.cards import CARD_NAMES, RANK_COUNT
from callbreak.cli.main import app
from callbreak.engine import Deal
from callbreak.engine.deal import play_rules
from callbreak.engine.tricks import beats, legal_mask
from callbreak.points import Points
from callbreak.record import match_record, read_records, replay, write_record

PRESETS = ["callbreak", "callbreak-bhoos", "callbridge", "batak-koz-maca"]


@pytest.fixture(scope="module")
def solver() -> Solver:
    """One solver for the module (compiled when numba is there: it compiles once).

    Its node limit keeps a hard early window search (Call Bridge) from running for
    minutes: ``line`` then tries the next seed."""
    return Solver(compiled=numba_available(), node_limit=LIMIT)


LIMIT = 5_000_000


# ------------------------------------------------------------------ brute force
def brute_values(world: World, seat: int, points: tuple[Points, ...]) -> dict[int, Points]:
    """Each legal card's value for ``seat``: plain minimax over final points, no pruning."""
    rules = world.rules
    n = world.players

    @functools.cache
    def value(
        hands: tuple[int, ...],
        leader: int,
        trick: tuple[int, ...],
        tricks: tuple[int, ...],
        trump_played: bool,
    ) -> Points:
        if len(trick) == n:
            win, at = trick[0], 0
            for i, card in enumerate(trick[1:], 1):
                if beats(card, win, rules.trump):
                    win, at = card, i
            winner = (leader + at) % n
            tricks = tuple(t + (1 if s == winner else 0) for s, t in enumerate(tricks))
            if not hands[winner]:
                return points[tricks[seat]]
            return value(hands, winner, (), tricks, trump_played)
        outcomes = [
            value(*after(hands, leader, trick, tricks, trump_played, card))
            for card in moves(hands, leader, trick, tricks, trump_played)
        ]
        return max(outcomes) if (leader + len(trick)) % n == seat else min(outcomes)

    def moves(
        hands: tuple[int, ...],
        leader: int,
        trick: tuple[int, ...],
        tricks: tuple[int, ...],
        trump_played: bool,
    ) -> list[int]:
        mover = (leader + len(trick)) % n
        led = trick[0] // RANK_COUNT if trick else -1
        win = trick[0] if trick else -1
        for card in trick[1:]:
            if beats(card, win, rules.trump):
                win = card
        mask = legal_mask(rules, hands[mover], led, win, sum(tricks) == 0, trump_played)
        return [c for c in range(52) if mask >> c & 1]

    def after(
        hands: tuple[int, ...],
        leader: int,
        trick: tuple[int, ...],
        tricks: tuple[int, ...],
        trump_played: bool,
        card: int,
    ) -> tuple[tuple[int, ...], int, tuple[int, ...], tuple[int, ...], bool]:
        mover = (leader + len(trick)) % n
        hands = tuple(h & ~(1 << card) if s == mover else h for s, h in enumerate(hands))
        played = trump_played or card // RANK_COUNT == rules.trump
        return hands, leader, (*trick, card), tricks, played

    state = (world.hands, world.leader, world.trick, world.tricks, world.trump_played)
    return {card: value(*after(*state, card)) for card in moves(*state)}


def random_ending(preset: str, seed: int, tricks_left: int) -> tuple[Deal, int]:
    """A deal played at random until ``tricks_left`` remain, a random number of cards into
    the trick; and the seat to play there."""
    rng = random.Random(seed)
    rules = Rules.preset(preset).replace(misdeal="off", min_total_calls=None)
    deal = Deal(rules, seed=seed, dealer=rng.randrange(4))
    stop = (13 - tricks_left) * 4 + rng.randrange(4)
    played = 0
    while deal.phase != "play" or played < stop:
        choice = rng.choice(deal.legal())
        if deal.phase == "play":
            played += 1
        deal.act(choice)
    assert deal.to_act is not None
    return deal, deal.to_act


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("tricks_left", [3, 4])
def test_values_equal_brute_force_minimax(solver: Solver, preset: str, tricks_left: int) -> None:
    rules = Rules.preset(preset)
    checked = 0
    for seed in range(12):
        deal, seat = random_ending(preset, seed * 7 + tricks_left, tricks_left)
        world = world_of(deal, play_rules(rules).trump)
        rng = random.Random(seed)
        # The seat's own call and three other calls of the range, bonus calls included.
        calls = {deal.calls[seat] or rules.min_call, rules.max_call}
        calls |= {rng.randint(rules.min_call, min(rules.max_call, 9)) for _ in range(3)}
        for call in sorted(calls):
            scoring = Scoring.of(rules, call)
            expected = brute_values(world, seat, scoring.points)
            values, tricks = scoring.cards(solver, world, seat)
            assert values == expected, (preset, seed, call)
            position, _ = scoring.position(solver, world, seat)
            assert position == max(expected.values())
            if tricks is not None:
                assert all(scoring.points[tricks[c]] == v for c, v in values.items())
            checked += 1
    assert checked >= 24


def test_scoring_shapes() -> None:
    callbreak = Scoring.of(Rules.preset("callbreak"), 4)
    assert callbreak.monotone and not callbreak.by_window
    assert callbreak.success() == (4, 13)
    assert [str(callbreak.points[w]) for w in (3, 4, 5)] == ["-4", "4", "4.1"]
    bridge = Scoring.of(Rules.preset("callbridge"), 9)
    assert not bridge.monotone and bridge.by_window
    assert bridge.levels == ((Points.whole(13), 9, 10),)
    koz = Scoring.of(Rules.preset("batak-koz-maca"), 5)
    assert koz.monotone and koz.by_window and koz.success() == (5, 13)


# ------------------------------------------------------------------ whole deals
def line(solver: Solver, preset: str, blunder: bool, first_seed: int = 1) -> tuple[Match, int]:
    """``play_line`` from the first seed whose every decision the solver answers within
    its node limit (and, with ``blunder``, that has a card worth less from trick 6 on);
    returns the match and the trick of the blunder (0: none)."""
    for seed in range(first_seed, first_seed + 40):
        try:
            match, trick = play_line(solver, preset, seed, blunder)
        except NodeLimitExceeded:
            continue
        if not blunder or trick is not None:
            return match, trick or 0
    raise AssertionError("no seed gave a line")


def play_line(solver: Solver, preset: str, seed: int, blunder: bool) -> tuple[Match, int | None]:
    """A one-deal match: seat 0 always plays a card the analysis values best, except (with
    ``blunder``) at its first decision from trick 6 on where some card is worth less: there
    it plays the worst.  The others are heuristic bots.  Returns the match and the trick
    of the blunder."""
    rules = Rules.preset(preset).replace(match_end="deals", match_deals=1, misdeal="off")
    match = Match(rules, seed=seed)
    bots = [make_bot("heuristic", seed=seed + s) for s in range(4)]
    trump = play_rules(rules).trump
    blundered: int | None = None
    while not match.over:
        seat = match.to_act
        assert seat is not None
        deal = match.deal
        if seat != 0 or deal.phase != "play" or len(deal.legal()) == 1:
            match.act(bots[seat].act(match.observation(seat)))
            continue
        call = deal.calls[0]
        assert call is not None
        values, _ = Scoring.of(rules, call).cards(solver, world_of(deal, trump), 0)
        best = max(values.values())
        card = max(values, key=lambda c: (values[c], c))
        trick = deal.trick_number + 1
        if blunder and blundered is None and trick >= 6 and min(values.values()) < best:
            card = min(values, key=lambda c: (values[c], c))
            blundered = trick
        match.act(CARD_NAMES[card])
    return match, blundered


@pytest.mark.parametrize("preset", ["callbreak", "callbridge"])
def test_a_perfect_line_is_flagged_nowhere(solver: Solver, preset: str) -> None:
    match, _ = line(solver, preset, blunder=False)
    [review] = Analyst(solver=solver, expert=None).match(match, 0)
    assert [d.trick for d in review.decisions] == list(range(1, 14))
    assert review.unknown == 0
    assert review.mistakes == ()
    assert review.lost == Points(0)
    assert all(d.verdict in ("ok", "forced") for d in review.decisions)
    assert review.call.worth is not None and review.call.max_tricks is not None
    ending = Analyst(solver=solver, expert=None, from_trick=10).match(match, 0)[0]
    assert [d.trick for d in ending.decisions] == [10, 11, 12, 13]


@pytest.mark.parametrize("preset", ["callbreak", "callbridge", "batak-koz-maca"])
def test_a_blunder_is_flagged_at_exactly_that_card(
    solver: Solver, preset: str, tmp_path: Path
) -> None:
    match, trick = line(solver, preset, blunder=True)
    # Through a record file, as the command reads it.
    path = tmp_path / "blunder.json"
    write_record(path, match_record(match))
    rebuilt = replay(read_records(path)[0]).match
    [review] = Analyst(solver=solver, expert=None).match(rebuilt, 0)
    assert review.unknown == 0
    assert [d.trick for d in review.mistakes] == [trick]
    [mistake] = review.mistakes
    assert mistake.lost.tenths > 0 and mistake.played not in mistake.best
    assert mistake.verdict == "mistake"
    text = mistake.text(review.call.call)
    assert text.startswith(f"trick {trick}: ") and mistake.played in text and "instead of" in text


def test_the_call_review(solver: Solver) -> None:
    match, _ = line(solver, "callbreak", blunder=False)
    [review] = Analyst(solver=solver, expert=None).match(match, 0)
    call = review.call
    rules = match.rules
    assert call.max_tricks is not None
    expected = call.max_tricks if call.max_tricks >= rules.min_call else None
    assert call.makeable == expected
    assert call.worth == rules.score(call.call, call.max_tricks)
    entry = match.entries[0].deal
    assert entry.points is not None and call.scored == entry.points[0]
    assert call.call == entry.calls[0]


def test_a_kept_table_answers_as_a_fresh_one(solver: Solver) -> None:
    """``Solver(keep_table=True)`` (what the analysis uses) keeps its table from question
    to question, per seat and rules: the answers are those of a table cleared every time."""
    match, _ = line(solver, "callbridge", blunder=False)
    kept = Solver(compiled=numba_available(), node_limit=LIMIT, keep_table=True)
    fresh = Analyst(solver=solver, expert=None).match(match, 0)
    assert [r.json() for r in Analyst(solver=kept, expert=None).match(match, 0)] == [
        r.json() for r in fresh
    ]
    # Every seat in turn at each trick start, the table never cleared by hand.
    deal = match.entries[0].deal
    walk = Deal(deal.rules, hands=[deal.names_of(h) for h in deal.dealt], dealer=deal.dealer)
    trump = play_rules(deal.rules).trump
    for phase, _, action in deal.log:
        if phase == "play" and not walk.trick and walk.trick_number >= 5:
            world = world_of(walk, trump)
            for seat in range(4):
                assert kept.solve(world, seat) == solver.solve(world, seat)
                assert kept.can_reach(world, seat, 3, 4) == solver.can_reach(world, seat, 3, 4)
        walk.act(action)


def test_a_stopped_search_says_unknown(solver: Solver) -> None:
    match, _ = line(solver, "callbreak", blunder=False)
    analyst = Analyst(solver=Solver(compiled=numba_available(), node_limit=200), expert=None)
    [review] = analyst.match(match, 0)
    assert review.call.unknown and review.call.makeable is None
    first = next(d for d in review.decisions if not d.forced)
    assert first.verdict == "unknown" and not first.mistake
    assert review.unknown >= 1


def test_the_expert_tells_a_blunder_from_bad_luck(solver: Solver) -> None:
    match, trick = line(solver, "callbreak", blunder=True)
    analyst = Analyst(solver=solver, expert="expert:deterministic=1,worlds=8,call_worlds=8")
    [review] = analyst.match(match, 0)
    assert review.call.expert is not None
    [mistake] = review.mistakes
    assert mistake.trick == trick and mistake.expert in mistake.legal
    assert mistake.verdict == ("blunder" if mistake.expert in mistake.best else "hidden")
    assert all(d.expert is not None for d in review.decisions if not d.forced)


# ------------------------------------------------------------------ the command
def test_the_command_prints_and_its_json_parses(solver: Solver, tmp_path: Path) -> None:
    match, trick = line(solver, "callbreak", blunder=True)
    path = tmp_path / "match.json"
    write_record(path, match_record(match))
    runner = CliRunner()
    base = ["analyze", str(path), "--expert", "none", "--threads", "1"]
    result = runner.invoke(app, [*base, "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    [deal] = document["deals"]
    assert deal["seat"] == 0 and len(deal["decisions"]) == 13
    flagged = [d["trick"] for d in deal["decisions"] if d["lost"] > 0]
    assert flagged == [trick]
    assert document["summary"]["mistakes"] == 1
    decision = next(d for d in deal["decisions"] if d["trick"] == trick)
    assert decision["played"] not in decision["best"]
    assert decision["values"][decision["played"]] < decision["values"][decision["best"][0]]
    text = runner.invoke(app, [*base, "--deal", "1"])
    assert text.exit_code == 0, text.output
    assert f"trick {trick}: " in text.stdout and "1 of 13 cards lost value" in text.stdout
    assert "makeable" in text.stdout or "no call could be made" in text.stdout


def test_the_command_reviews_other_games_by_playouts_and_refuses_bad_input(
    tmp_path: Path,
) -> None:
    rules = Rules.preset("batak-ihale")
    match = Match(rules, seed=2)
    bot = make_bot("random", seed=2)
    while not match.over and len(match.scored_deals) < 1:
        seat = match.to_act
        assert seat is not None
        match.act(bot.act(match.observation(seat)))
    path = tmp_path / "batak.json"
    write_record(path, match_record(match))
    runner = CliRunner()
    result = runner.invoke(app, ["analyze", str(path)])
    assert result.exit_code == 0, result.output
    assert "valued by playouts with the hands shown" in result.output
    missing = runner.invoke(app, ["analyze", str(tmp_path / "nothing.json")])
    assert missing.exit_code == 1
