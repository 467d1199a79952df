"""The expert's options as one frozen config with named presets (docs/bots.md).

The config replaced fifteen constructor keywords; these tests pin that every default,
every preset and every spec reads as the keywords did, and that bad values are refused
by the config itself, whichever way they come in.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from callbreak.bots import ExpertBot, make_bot
from callbreak.bots.expert_config import MODELS, PRESETS, ExpertConfig
from callbreak.bots.styles import PlainExpertBot

# The keyword defaults of ExpertBot before the config, written out: behaviour is unchanged.
OLD_DEFAULTS: dict[str, Any] = {
    "budget_ms": 1000,
    "worlds": 48,
    "call_worlds": 64,
    "solve_from": 0,
    "call_bias": None,
    "call_spread": None,
    "rivalry": 1.0,
    "call_sigma": 0.6,
    "surprise": 0.02,
    "oversample": 16,
    "deterministic": False,
    "models": (0.0, 1.0),
    "model_noise": 0.2,
    "models_in_calls": False,
    "trust": 0.2,
    "call_model": 0.5,  # added with the learned call model, off; half since 2026-11-29
    "call_weights": "2026-11-29",  # the weights the forecast reads: the newest
    "read_play": False,  # added with the family search's reading of the play: off
    "match_odds": True,  # added with the family search's match value: on, measured
    "shortlist": False,  # added with the heuristic's shortlist of discards and partner cards: off
}


def test_the_defaults_are_the_measured_ones() -> None:
    config = ExpertConfig()
    assert dataclasses.asdict(config) == OLD_DEFAULTS
    assert PRESETS["expert"] == config
    assert len(dataclasses.fields(ExpertConfig)) == 20


def test_the_config_is_frozen_and_replace_checks_again() -> None:
    config = ExpertConfig()
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.worlds = 3  # type: ignore[misc]
    assert config.replace(worlds=64).worlds == 64
    assert config.worlds == 48
    with pytest.raises(ValueError, match="surprise is a likelihood factor"):
        config.replace(surprise=0)
    with pytest.raises(TypeError, match=r"unknown expert option.*colour: choose from budget_ms"):
        config.replace(colour=1)


def test_values_are_normalised_once() -> None:
    config = ExpertConfig(models="0.5/0.5", trust=0, deterministic=1, models_in_calls=1)
    assert config.models == (0.5, 0.5) and config.weights == (0.5, 0.5)
    assert config.trust is None  # 0: surprise per card, every seat alike
    assert config.deterministic is True and config.models_in_calls is True
    assert ExpertConfig(models=1).models == (1.0,)
    assert ExpertConfig(models="1") == ExpertConfig(models=(1.0,))  # equal once normalised


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"budget_ms": 0}, "budget_ms must be positive"),
        ({"call_spread": 0.6}, "call_spread is a share of weight"),
        ({"surprise": 1.5}, "surprise is a likelihood factor"),
        ({"oversample": 0}, "oversample is .*: a whole number, at least 1, not 0"),
        ({"model_noise": -0.1}, "model_noise is a probability"),
        ({"trust": 2}, "trust is a probability"),
        ({"models": "0/0"}, "models are up to 5 weights"),
        ({"models": "1/1/1/1/1/1"}, "heuristic/noisy/trumper/ducker/greedy"),
    ],
)
def test_bad_values_are_refused_by_the_config(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ExpertConfig(**changes)
    with pytest.raises(ValueError, match=message):
        ExpertBot(**changes)


def test_the_presets() -> None:
    plain = PRESETS["plain"]
    assert (plain.surprise, plain.call_bias, plain.call_spread) == (1.0, 0.0, 0.0)
    assert plain.deterministic is True and plain.models == (1.0,)
    fixed = PRESETS["fixed"]
    assert (fixed.deterministic, fixed.worlds, fixed.call_worlds) == (True, 32, 48)
    assert fixed.replace(deterministic=0, worlds=48, call_worlds=64) == PRESETS["expert"]
    assert len(MODELS) == 5
    with pytest.raises(ValueError, match="unknown expert preset 'strong': choose one of expert"):
        ExpertConfig.from_options("strong")


def test_bots_and_specs_read_their_config() -> None:
    assert ExpertBot().config == PRESETS["expert"]
    assert PlainExpertBot().config == PRESETS["plain"]
    bot = make_bot("expert:worlds=64,budget_ms=50", seed=1)
    assert isinstance(bot, ExpertBot)
    assert bot.config == PRESETS["expert"].replace(worlds=64, budget_ms=50)
    assert (bot.worlds, bot.budget) == (64, 0.05)
    plain = make_bot("expert-plain:call_spread=0.1", seed=1)
    assert isinstance(plain, PlainExpertBot)
    assert plain.config == PRESETS["plain"].replace(call_spread=0.1)
    fixed = make_bot("expert:preset=fixed,trust=0.1", seed=1)
    assert isinstance(fixed, ExpertBot)
    assert fixed.config == PRESETS["fixed"].replace(trust=0.1)
    given = ExpertBot(config=PRESETS["fixed"], worlds=16)
    assert given.config == PRESETS["fixed"].replace(worlds=16)
    with pytest.raises(ValueError, match="a config or a preset, not both"):
        ExpertBot(config=PRESETS["fixed"], preset="plain")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("expert:deterministic=x", "deterministic takes a number, not 'x'"),
        ("expert:budget_ms=2.5", "budget_ms takes a whole number, not 2.5"),
        ("expert:colour=red", r"unknown expert option.*colour"),
        ("expert:preset=strong", "unknown expert preset 'strong'"),
    ],
)
def test_a_bad_spec_is_refused_when_the_bot_is_made(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_bot(spec)


def test_an_unknown_spec_option_lists_the_preset_too() -> None:
    with pytest.raises(TypeError, match=r"colour: choose from preset \(expert, v1, v2, plain"):
        ExpertConfig.from_options("fixed", colour=1)
