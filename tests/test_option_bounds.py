"""Bad bot options and env options are refused where they are given, with a message that
names the option, says what it takes and what to do.

A QA pass found four ways a mistake went unnoticed or was answered in numpy's words:
``expert:worlds=0`` (and other out-of-range expert options) made a bot that quietly played
the heuristic's moves; ``expert:models=abc`` said only "could not convert string to float";
a file that is no policy, given as ``rl:path=``, got numpy's advice to load it with
``allow_pickle``; and ``reset(options=...)`` ignored a misspelt key.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from callbreak.bots import ExpertBot, MctsBot, make_bot
from callbreak.bots.expert_config import PRESETS, V1, V2, ExpertConfig
from callbreak.bots.family_search import FamilySearchBot
from callbreak.bots.heuristic import HeuristicBot
from callbreak.bots.policy import LinearPolicy, PolicyBot
from callbreak.bots.styles import AggressiveBot, CautiousBot
from callbreak.rules import Rules

EXAMPLE_POLICY = Path(__file__).resolve().parents[1] / "examples" / "callbreak-rl.npz"

# ---------------------------------------------------------------- 1: ranges


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("expert:worlds=0", r"worlds is the count of worlds .*at least 1, not 0"),
        ("expert:worlds=-3", r"worlds is .*at least 1, not -3"),
        ("expert:call_worlds=0", r"call_worlds is .*at least 1, not 0"),
        ("expert:solve_from=-1", r"solve_from is .*at least 0, not -1"),
        ("expert:call_sigma=-1", r"call_sigma is .*more than 0, 0\.6 by default, not -1"),
        ("expert:call_sigma=0", r"call_sigma is .*more than 0"),
        ("expert:rivalry=-5", r"rivalry is .*0 \(its own points only\) or more, .*not -5"),
        ("expert:deterministic=2", r"deterministic is a switch: 0 \(off\) or 1 \(on\), not 2"),
        ("expert:shortlist=-1", r"shortlist is a switch"),
        ("expert-v1:worlds=0", r"worlds is .*at least 1"),  # every expert reads the config
        ("expert-plain:call_worlds=0", r"call_worlds is .*at least 1"),
        ("mcts:rivalry=-1", r"rivalry is .*or more, not -1"),
        ("mcts:worlds=0", r"worlds and iterations are whole numbers, at least 1"),
        ("aggressive:greedy=5", r"greedy is a switch: 1 .* or 0 .*not 5"),
        ("rl:sample=2", r"sample is a switch: 0 .* or 1 .*not 2"),
    ],
)
def test_an_option_out_of_range_is_refused_when_the_bot_is_made(spec: str, message: str) -> None:
    if spec.startswith("rl:"):
        spec = f"rl:path={EXAMPLE_POLICY},{spec[3:]}"
    with pytest.raises(ValueError, match=message):
        make_bot(spec)


def test_worlds_0_no_longer_plays_the_heuristics_moves_as_fallbacks() -> None:
    """The defect itself: the bot was made, and every card was the heuristic's."""
    with pytest.raises(ValueError, match="worlds"):
        ExpertBot(worlds=0, deterministic=1)
    with pytest.raises(ValueError, match="worlds"):
        ExpertConfig(worlds=0)
    with pytest.raises(ValueError, match="worlds"):
        PRESETS["fixed"].replace(worlds=0)


@pytest.mark.parametrize(
    "changes",
    [
        {"worlds": math.nan},
        {"worlds": 2.5},
        {"worlds": True},
        {"oversample": math.nan},
        {"budget_ms": math.nan},
        {"budget_ms": math.inf},
        {"call_bias": math.nan},
        {"call_bias": -math.inf},
        {"rivalry": math.nan},
        {"rivalry": math.inf},
        {"call_sigma": math.nan},
        {"models": "nan/1"},
        {"models": (1.0, math.inf)},
    ],
)
def test_nan_and_inf_fail_the_configs_ranges(changes: dict[str, Any]) -> None:
    """nan fails every comparison, so a check written as "outside the range" let it in."""
    with pytest.raises(ValueError, match=next(iter(changes))):
        ExpertConfig(**changes)


def test_every_preset_and_frozen_expert_still_passes_the_checks() -> None:
    for name, config in PRESETS.items():
        assert ExpertConfig(**dataclasses.asdict(config)) == config, name
    assert ExpertConfig(**V1) == PRESETS["v1"]
    assert ExpertConfig(**V2) == PRESETS["v2"]
    # The bounds themselves are allowed: 0 means something for these.
    edge = ExpertConfig(worlds=1, call_worlds=1, solve_from=0, rivalry=0, call_bias=-1.5)
    assert (edge.worlds, edge.rivalry, edge.call_bias) == (1, 0, -1.5)


def test_the_other_bots_refuse_nan_and_out_of_range_values_made_in_python() -> None:
    with pytest.raises(ValueError, match="explore is the UCT constant"):
        MctsBot(explore=math.nan)
    with pytest.raises(ValueError, match="margin is tricks added"):
        MctsBot(margin=math.nan)
    MctsBot(margin=-1.0)  # a negative margin calls lower: meaningful, kept
    with pytest.raises(ValueError, match="rivalry is the weight"):
        FamilySearchBot(rivalry=-1.0)
    with pytest.raises(ValueError, match="margin is the standard errors"):
        FamilySearchBot(margin=-0.5)
    with pytest.raises(ValueError, match="budget_ms must be positive"):
        FamilySearchBot(budget_ms=math.nan)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="caution is tricks kept below"):
        HeuristicBot(caution=math.inf)
    with pytest.raises(ValueError, match="under is tricks off the estimate"):
        CautiousBot(under=math.nan)
    with pytest.raises(ValueError, match="over is tricks off the estimate"):
        AggressiveBot(over=math.nan)
    assert CautiousBot(under=-1).caution == -0.75  # calls over: meaningful, kept


# ---------------------------------------------------------------- 2: numbers in specs


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            "expert:models=abc",
            r"models: 'abc' is not a number; models are up to 5 weights, '/'-separated, "
            r"not all 0: heuristic/noisy/trumper/ducker/greedy \(such as models=0/1",
        ),
        ("expert:models=1/x", r"models: 'x' is not a number"),
        ("expert:models=1/", r"models: '' is not a number"),
        ("expert:models=1/-1", r"models: a weight is 0 or more, not '-1'"),
        ("expert:models=1/1/1/1/1/1", r"models: 6 weights given; models are up to 5"),
        ("expert:models=0/0", r"models: every weight is 0"),
        ("expert:worlds=many", r"worlds takes a number, not 'many': give a whole number, "),
        ("expert:worlds=2.5", r"worlds takes a whole number, not 2\.5: give one such as worlds=48"),
        ("expert:call_bias=nan", r"call_bias takes a finite number, not nan"),
        ("expert:rivalry=inf", r"rivalry takes a finite number, not inf"),
        ("mcts:explore=nan", r"explore takes a finite number, not nan: give one such as explore"),
        ("mcts:iterations=1e3", r"iterations takes a whole number, not 1e3"),
        ("heuristic:blunder=abc", r"blunder takes a number, not 'abc': give a number"),
        ("cautious:under=-inf", r"under takes a finite number"),
        ("random:seed=x", r"seed takes a number, not 'x'"),
        ("expert:config=fixed", r"config is an ExpertConfig made in Python, not 'fixed': a "),
        ("trumper:under=1", r"it has no option under; choose from blunder, caution, seed"),
        ("rl:bogus=1", r"it has no option bogus; choose from path, sample, seed"),
    ],
)
def test_a_bad_value_names_its_option_and_what_it_takes(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_bot(spec)


def test_every_bots_number_options_are_checked_before_it_is_made() -> None:
    """The conversion is the registry's, by each factory's hints, not each bot's own."""
    from callbreak.bots.base import _REGISTRY, _option_kinds, _parameters

    for name, (factory, _) in _REGISTRY.items():
        taken = _parameters(factory)
        for key, kinds in _option_kinds(factory).items():
            if taken is not None and key not in taken:
                continue  # a keyword of an ancestor's __init__ the bot does not take
            if kinds and set(kinds) <= {int, float} and key != "seed":
                with pytest.raises(ValueError, match=rf"bad options for bot .*{key} takes"):
                    make_bot(f"{name}:{key}=word")


def test_a_switch_hinted_bool_takes_0_and_1_and_refuses_words() -> None:
    """A bot of one's own may hint a switch ``bool``; the spec's 0 and 1 reach it as such."""
    from callbreak.bots import register_bot
    from callbreak.bots.base import _REGISTRY
    from callbreak.bots.random_bot import RandomBot

    class Switched(RandomBot):
        def __init__(self, seed: int | None = None, loud: bool = False) -> None:
            super().__init__(seed)
            self.loud = loud

    register_bot("test-switched", "a bot with a switch, for this test")(Switched)
    try:
        assert make_bot("test-switched:loud=1").loud is True  # type: ignore[attr-defined]
        assert make_bot("test-switched:loud=0").loud is False  # type: ignore[attr-defined]
        with pytest.raises(ValueError, match=r"loud is a switch, not 'maybe': give loud=1"):
            make_bot("test-switched:loud=maybe")
    finally:
        del _REGISTRY["test-switched"]


def test_a_text_option_keeps_the_text_as_written(tmp_path: Path, monkeypatch: Any) -> None:
    """``rl:path=1`` named the file ``1``, but arrived as the number 1 and failed in
    ``Path``; the options that take text now get it as written."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "1").write_bytes(EXAMPLE_POLICY.read_bytes())
    assert make_bot("rl:path=1").name == "rl"
    assert make_bot("expert:call_weights=2026-11-29").config.call_weights == "2026-11-29"  # type: ignore[attr-defined]


# ---------------------------------------------------------------- 3: policy files


def _policy_arrays() -> dict[str, Any]:
    with np.load(EXAMPLE_POLICY) as data:
        return {name: data[name] for name in data.files}


def _bad_files(folder: Path) -> dict[str, tuple[Path, str]]:
    """Each kind of file that is no policy, and the reason its refusal gives."""
    record = folder / "game.json"
    record.write_text(json.dumps({"format": "callbreak-match", "deals": []}))
    text = folder / "notes.txt"
    text.write_text("not a policy")
    empty = folder / "empty.npz"
    empty.write_bytes(b"")
    truncated = folder / "truncated.npz"
    whole = EXAMPLE_POLICY.read_bytes()
    truncated.write_bytes(whole[: len(whole) // 2])
    other = folder / "other.npz"
    np.savez(other, a=np.zeros(3))
    single = folder / "single.npy"
    np.save(single, np.zeros(3))
    objects = folder / "objects.npz"
    arrays = _policy_arrays()
    np.savez(objects, **(arrays | {"weights": np.array([{"a": 1}], dtype=object)}))
    rules = folder / "rules.npz"
    np.savez(rules, **(arrays | {"rules": np.array("{not json")}))
    shape = folder / "shape.npz"
    np.savez(shape, **(arrays | {"weights": np.zeros((3, 3), np.float32)}))
    words = folder / "words.npz"
    np.savez(words, **(arrays | {"bias": np.array(["x"] * 67)}))
    return {
        "record": (record, "it is JSON text"),
        "text": (text, "it is text, not a .npz archive"),
        "empty": (empty, "it is empty"),
        "truncated": (truncated, "it is a damaged or truncated .npz"),
        "other": (other, "it holds the arrays a, not weights, bias and rules"),
        "single": (single, r"it is one numpy array \(\.npy\)"),
        "objects": (objects, "its weights hold Python objects"),
        "rules": (rules, "its rules are not a game's rules"),
        "shape": (shape, r"its arrays do not fit: weights for callbreak must have shape"),
        "words": (words, "its bias are <U1, not numbers"),
    }


@pytest.mark.parametrize(
    "kind",
    [
        "record",
        "text",
        "empty",
        "truncated",
        "other",
        "single",
        "objects",
        "rules",
        "shape",
        "words",
    ],
)
@pytest.mark.parametrize("bot", ["rl", "selfplay"])
def test_a_file_that_is_no_policy_is_refused_in_our_words(
    tmp_path: Path, kind: str, bot: str
) -> None:
    path, reason = _bad_files(tmp_path)[kind]
    with pytest.raises(ValueError) as caught:
        make_bot(f"{bot}:path={path}")
    said = str(caught.value)
    assert said.startswith(f"{bot}:path={path} is not a policy file (a .npz that ")
    assert "examples/train_callbreak.py" in said and "examples/callbreak-rl.npz" in said
    assert "pickle" not in said  # numpy's advice would run whatever the file holds
    assert re.search(reason, said), said


def test_a_missing_file_and_a_folder_are_named_as_such(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"no policy file at .*: give one with rl:path=FILE"):
        make_bot(f"rl:path={tmp_path / 'missing.npz'}")
    with pytest.raises(ValueError, match=r"no self-play policy at .*selfplay:path=FILE"):
        make_bot(f"selfplay:path={tmp_path}")
    # Made in Python, past the factories' own check: still our words.
    with pytest.raises(ValueError, match=r"is not a policy file .*: there is no such file"):
        PolicyBot(str(tmp_path / "missing.npz"))
    with pytest.raises(ValueError, match=r"is not a policy file .*: it is a folder"):
        LinearPolicy.load(tmp_path)


def test_a_saved_policy_loads_as_before(tmp_path: Path) -> None:
    policy = LinearPolicy(Rules.preset("callbreak"))
    policy.weights[0, 0] = 0.5
    policy.save(tmp_path / "p.npz")
    again = LinearPolicy.load(tmp_path / "p.npz")
    assert again.rules == policy.rules and again.weights[0, 0] == 0.5
    assert make_bot(f"selfplay:path={tmp_path / 'p.npz'}").name == "selfplay"


# ---------------------------------------------------------------- 4: reset options


def _envs() -> list[Any]:
    from callbreak.env import SingleSeat, env

    return [
        env("callbreak", fast=False),
        env("callbreak"),
        env("oh-hell", reward="match"),
        SingleSeat("callbreak", opponents="random"),
        SingleSeat("spades", opponents="heuristic"),
    ]


@pytest.mark.parametrize("key", ["bogus", "deals", "Dealer"])
def test_reset_refuses_an_unknown_option_naming_it_and_the_known_ones(key: str) -> None:
    for e in _envs():
        with pytest.raises(
            ValueError,
            match=rf"unknown reset option '{key}': the env takes deal, dealer, deck, hands",
        ):
            e.reset(seed=1, options={key: 1})


def test_a_refused_reset_changes_nothing() -> None:
    """The key is checked before the seed moves a generator or a deal is dealt."""
    from callbreak.env import SingleSeat

    e = SingleSeat("callbreak", opponents="random")
    first, _ = e.reset(seed=4)
    with pytest.raises(ValueError, match="unknown reset option"):
        e.reset(seed=9, options={"deals": 1})
    assert np.array_equal(e.aec.observe(e.agent)["observation"], first["observation"])


def test_reset_still_takes_its_own_options_and_pettingzoos_probe() -> None:
    from callbreak.env import env

    e = env("callbreak", fast=False)
    e.reset(seed=1, options={"dealer": 2, "deal": 0})
    assert e.deal is not None and e.deal.dealer == 2
    e.reset(seed=0, options={"options": 1})  # PettingZoo's api_test passes exactly this
    e.reset(seed=0, options={})
    e.reset(seed=0, options=None)
    with pytest.raises(ValueError, match=r"options is a dict of reset options .*not list"):
        e.reset(seed=0, options=["dealer"])  # type: ignore[arg-type]
