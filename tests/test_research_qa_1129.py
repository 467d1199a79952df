"""Defects found by a researcher's and a bot author's pass over the public API (2026-11-29):
a learner's reward lost at ``SingleSeat.reset``, opponents that cannot play the game accepted
by ``SingleSeat``, env and engine misuse that failed with an ``AssertionError``,
``AttributeError`` or ``TypeError`` instead of saying what to do, the rule named for a call or
bid that is no number, bot names that no spec could reach, and ``replay`` handed the list that
``read_records`` returns.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest

import callbreak
from callbreak import Deal, IllegalAction, Match, Rules
from callbreak.bots import base, import_bots, make_bot, register_bot
from callbreak.env import SingleSeat, env
from callbreak.record import RecordError, match_record, read_records, replay, write_record


# ------------------------------------------------------------------ SingleSeat's rewards
def play_out(learner: SingleSeat, seed: int) -> float:
    """Play one episode with the first legal action at every turn; the sum of its rewards."""
    obs, _ = learner.reset(seed=seed)
    total, done = 0.0, False
    while not done:
        action = int(np.flatnonzero(obs["action_mask"])[0])
        obs, reward, done, _, _ = learner.step(action)
        total += reward
    return total


def test_a_deal_played_out_before_the_learners_first_decision_is_still_rewarded() -> None:
    """Horsethief, seed 3: the three bots drop in the match's first deal, the learner is the
    last seat in and scores +5 without deciding anything.  ``reset`` dropped that reward,
    so the episode's rewards added up to -12 against a match total of -7."""
    learner = SingleSeat("horsethief", opponents="random", reward="match")
    obs, _ = learner.reset(seed=3)
    match = learner.aec.match
    assert match is not None
    first = match.entries[0].deal
    assert first.points is not None and first.points[0].tenths == 50  # played before step 1
    total = 0.0
    rng = np.random.default_rng(0)
    done = False
    while not done:
        obs, reward, done, _, _ = learner.step(rng.choice(np.flatnonzero(obs["action_mask"])))
        total += reward
    assert match.over
    assert total == match.totals[0].tenths / 10 == -7.0


@pytest.mark.parametrize("preset", ["horsethief", "donut", "snarples"])
def test_match_rewards_add_up_to_the_learners_match_total(preset: str) -> None:
    for seed in range(4):
        learner = SingleSeat(preset, opponents="random", reward="match", seat=1)
        total = play_out(learner, seed)
        match = learner.aec.match
        assert match is not None  # over, or (Snarples) the learner out of the game
        start = match.rules.shape.start * 10
        assert total == pytest.approx(
            learner.aec.reward_sign * (match.totals[1].tenths - start) / 10
        )


def test_an_illegal_first_action_keeps_the_carried_reward_for_the_next() -> None:
    """The reward carried from ``reset`` is paid once, with the first action taken, not with a
    refused one (which pays only its penalty)."""
    learner = SingleSeat("horsethief", opponents="random", reward="match")
    obs, _ = learner.reset(seed=3)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, penalty, _, _, info = learner.step(illegal)
    assert (penalty, info) == (-1.0, {"illegal": True})
    assert learner._carried == 5.0
    learner.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert learner._carried == 0.0


# ------------------------------------------------------------------ the AEC env's misuse
def test_observe_last_and_render_before_reset_say_to_call_reset() -> None:
    e = env("callbreak", render_mode="ansi")
    for call in (lambda: e.observe("player_0"), e.last, e.render):
        with pytest.raises(RuntimeError, match=r"call reset\(\) first"):
            call()
    with pytest.raises(RuntimeError, match=r"call reset\(\) first"):
        e.observation_of("player_0")


def test_last_after_the_episode_says_to_call_reset() -> None:
    e = env("callbreak")
    e.reset(seed=1)
    for _agent in e.agent_iter():
        obs, _, done, _, _ = e.last()
        assert obs is not None
        e.step(None if done else int(np.flatnonzero(obs["action_mask"])[0]))
    with pytest.raises(RuntimeError, match=r"the episode is over .*call reset\(\)"):
        e.last()


def test_an_unknown_agent_is_named_with_the_agents() -> None:
    e = env("callbreak")
    e.reset(seed=1)
    with pytest.raises(KeyError, match="'player_9' is not an agent: the agents are player_0, "):
        e.observe("player_9")
    with pytest.raises(KeyError, match="0 is not an agent"):
        e.observe(0)  # type: ignore[arg-type]


def test_rules_given_as_a_name_is_a_type_error_saying_how() -> None:
    with pytest.raises(TypeError, match=r"rules= takes a callbreak.Rules.*env\('callbreak'\)"):
        env(rules="callbreak")
    with pytest.raises(TypeError, match="a Rules goes to rules="):
        env(Rules.preset("callbreak"))  # type: ignore[arg-type]


@pytest.mark.parametrize("deal", [5, -1, "1", 1.5, True])
def test_a_match_start_outside_the_match_names_the_deal_option(deal: Any) -> None:
    """It said ``deals_before=5 leaves nothing to play``: an engine name nobody wrote."""
    e = env("callbreak", reward="match")
    with pytest.raises(ValueError, match=r"^deal=.*counted from 0, is a whole number from 0 to 4"):
        e.reset(options={"deal": deal})


def test_a_numpy_match_start_is_a_whole_number() -> None:
    e = env("callbreak", reward="match")
    e.reset(seed=2, options={"deal": np.int64(4)})
    assert e.match is not None and e.match.deal_number == 5


# ------------------------------------------------------------------ the engine's misuse
def test_a_deal_or_match_of_a_preset_name_is_a_type_error_saying_how() -> None:
    for make in (lambda: Deal("callbreak", seed=1), lambda: Match("callbreak", seed=1)):  # type: ignore[arg-type]
        with pytest.raises(TypeError, match=r"rules must be a callbreak.Rules, not 'callbreak'"):
            make()


@pytest.mark.parametrize("dealer", ["0", 1.0, None, True])
def test_a_dealer_that_is_no_seat_number_is_a_value_error(dealer: Any) -> None:
    with pytest.raises(ValueError, match=r"dealer must be a seat from 0 to 3, not"):
        Deal(Rules.preset("callbreak"), seed=1, dealer=dealer)


def test_a_numpy_dealer_is_kept_as_a_plain_int() -> None:
    deal = Deal(Rules.preset("callbreak"), seed=1, dealer=np.int64(2))  # type: ignore[arg-type]
    assert type(deal.dealer) is int and deal.dealer == 2


@pytest.mark.parametrize("seat", ["1", True, 1.0])
def test_an_observation_seat_that_is_no_number_is_refused(seat: Any) -> None:
    """``"1"`` failed with a comparison's TypeError, ``True`` was seat 1 with ``seat=True``."""
    deal = Deal(Rules.preset("callbreak"), seed=1)
    with pytest.raises(ValueError, match=r"seat must be a whole number from 0 to 3, not"):
        deal.observation(seat)
    match = Match(Rules.preset("callbreak"), seed=1)
    with pytest.raises(ValueError, match=r"seat must be a whole number"):
        match.observation(seat)


def test_an_observation_of_a_numpy_seat_still_works() -> None:
    deal = Deal(Rules.preset("callbreak"), seed=1)
    assert deal.observation(np.int64(1)).hand == deal.observation(1).hand  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("action", "rule"),
    [("AS", "call"), (True, "call"), (None, "call"), (0, "min_call"), (14, "max_call")],
)
def test_a_call_that_is_no_number_names_the_rule_call(action: Any, rule: str) -> None:
    """A card or a yes/no where a call is asked named ``min_call``, a bound it does not break."""
    deal = Deal(Rules.preset("callbreak"), seed=1)
    with pytest.raises(
        IllegalAction, match=r"is not a call: call a whole number from 1 to 13"
    ) as error:
        deal.act(action)
    assert error.value.rule == rule


@pytest.mark.parametrize(
    ("action", "rule"),
    [("AS", "bid"), (None, "bid"), (999, "max_bid"), (5, "min_bid"), (72, "bid_step")],
)
def test_a_bid_that_is_no_number_names_the_rule_bid(action: Any, rule: str) -> None:
    deal = Deal(Rules.preset("rook-call-partner"), seed=1)
    assert deal.phase == "auction"
    with pytest.raises(IllegalAction, match=r"is not allowed: ") as error:
        deal.act(action)
    assert error.value.rule == rule


def test_an_env_index_of_the_wrong_kind_in_the_calls_names_the_rule_call() -> None:
    e = env("callbreak")
    e.reset(seed=1)
    with pytest.raises(IllegalAction, match="False is not a call") as error:
        e.step(66)  # "no", an answer to the misdeal question
    assert error.value.rule == "call"


# ------------------------------------------------------------------ the bot registry
@pytest.fixture
def registry() -> Iterator[None]:
    """The registry as it was: these tests register bots of their own."""
    saved = dict(base._REGISTRY)
    yield
    base._REGISTRY.clear()
    base._REGISTRY.update(saved)


class FirstLegal:
    name = "first-legal"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def act(self, observation: callbreak.Observation) -> callbreak.Action:
        action: callbreak.Action = observation.legal[0]
        return action


@pytest.mark.parametrize("name", ["my:bot", "a,b", "k=v", "", "two words", "http://host", "x#y", 3])
def test_a_name_no_spec_can_reach_is_refused_at_registration(name: Any, registry: None) -> None:
    """``register_bot("my:bot")`` registered a bot that ``make_bot("my:bot")`` read as the bot
    ``my`` with a bad option: a name that could never be made."""
    with pytest.raises(ValueError, match=r"a bot's name is one word without spaces, ':'"):
        register_bot(name, "unreachable")


def test_a_factory_that_cannot_be_called_is_refused(registry: None) -> None:
    """It was registered, and ``make_bot`` then said ``bad options ...: 'int' object is not
    callable``."""
    with pytest.raises(TypeError, match="registers a class or a function that makes the bot"):
        register_bot("qa-not-callable", "x")(42)  # type: ignore[arg-type]
    assert "qa-not-callable" not in base._REGISTRY


def test_a_name_of_another_module_is_not_taken_over(registry: None) -> None:
    with pytest.raises(
        ValueError, match=r"bot name 'heuristic' is taken by callbreak.bots.heuristic"
    ):
        register_bot("heuristic", "mine")(FirstLegal)
    assert type(make_bot("heuristic")).__name__ == "HeuristicBot"


def test_the_same_module_may_register_a_name_again(registry: None) -> None:
    register_bot("qa-again", "first")(FirstLegal)
    again = type("FirstLegalAgain", (FirstLegal,), {"__module__": FirstLegal.__module__})
    register_bot("qa-again", "second")(again)
    assert type(make_bot("qa-again")) is again


def test_a_factory_that_makes_no_bot_is_refused_when_made(registry: None) -> None:
    register_bot("qa-no-bot", "returns a number")(cast(Any, lambda seed=None: 5))
    with pytest.raises(ValueError, match=r"returned int 5, which has no act\(observation\) method"):
        make_bot("qa-no-bot")


def test_import_of_a_file_name_says_to_give_the_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "qa_file_bot.py").write_text("X = 1\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    with pytest.raises(
        ValueError, match=r"give the module's name, not its file: --import qa_file_bot\)"
    ):
        import_bots(["qa_file_bot.py"])
    with pytest.raises(ValueError, match=r"--import bots.qa_file_bot\)"):
        import_bots(["bots/qa_file_bot.py"])
    with pytest.raises(ValueError, match=r"No module named 'qa_no_such_bot'$"):
        import_bots(["qa_no_such_bot"])


# ------------------------------------------------------------------ records
def short_match() -> Match:
    match = Match(Rules.preset("callbreak"), seed=9)
    for _ in range(10):
        match.act(match.legal()[0] if match.phase != "call" else 3)
    return match


def test_replay_of_the_list_read_records_returns_says_one_at_a_time(tmp_path: Path) -> None:
    """``replay(read_records(path))`` failed with "dictionary update sequence element #0 has
    length 7; 2 is required"."""
    path = tmp_path / "game.json"
    write_record(path, match_record(short_match()))
    records = read_records(path)
    with pytest.raises(
        RecordError, match=r"^record: a record is a JSON object, not list: replay one"
    ):
        replay(records)  # type: ignore[arg-type]
    with pytest.raises(RecordError, match=r"^record: a record is a JSON object, not str$"):
        replay("game.json")  # type: ignore[arg-type]
    assert replay(records[0]).match is not None


def test_match_record_of_something_else_is_a_type_error() -> None:
    deal = Deal(Rules.preset("callbreak"), seed=1)
    with pytest.raises(TypeError, match=r"match_record records a callbreak\.Match, not Deal"):
        match_record(deal)  # type: ignore[arg-type]


def test_a_seat_tuple_of_the_wrong_length_is_named() -> None:
    with pytest.raises(ValueError, match=r"seat 1: a seat as a tuple is \(name, player\)"):
        match_record(short_match(), seats=["human", cast(Any, ("a", "b", "c")), "x", "y"])


def test_an_opponent_that_cannot_play_the_game_is_refused_when_the_env_is_made() -> None:
    """``SingleSeat`` made only the opponents' bots, so a policy trained on Call Break passed
    for Donut and failed in the middle of the first ``reset``."""
    with pytest.raises(ValueError, match=r"opponent 'selfplay' cannot play Donut: .*Call Break"):
        SingleSeat("donut", opponents="selfplay")
    with pytest.raises(ValueError, match="opponent 'selfplay' cannot play Donut"):
        SingleSeat("donut", opponents=["heuristic", "selfplay", "random"])
    learner = SingleSeat("callbreak", opponents="selfplay")
    assert learner.reset(seed=1)[0]["action_mask"].any()
