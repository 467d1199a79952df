"""The WebSocket messages a client may send, checked before the engine sees them."""

from __future__ import annotations

import json
import random

import pytest

import callbreak
from callbreak.server.protocol import Act, ProtocolError, parse


def _act(action: object) -> str:
    return json.dumps({"type": "act", "seq": 3, "action": action})


@pytest.mark.parametrize("preset", callbreak.Rules.presets())
def test_every_word_a_game_offers_passes_the_message_check(preset: str) -> None:
    # Blind nil was refused here once ("blind nil" is longer than a card), so a person could
    # never bid it at an online table: every string any deal offers must get through.
    rules = callbreak.Rules.preset(preset)
    rng = random.Random(5)
    for seed in range(3):
        deal = callbreak.Deal(rules.replace(**_all_words(rules)), seed=seed, dealer=0)
        while deal.to_act is not None:
            legal = deal.legal()
            for action in legal:
                if isinstance(action, str):
                    message = parse(_act(action), 4096)
                    assert message == Act(3, action)
            deal.act(rng.choice(legal))


def _all_words(rules: callbreak.Rules) -> dict[str, object]:
    """Options that make a game offer more words (Spades' blind nil)."""
    return {"blind_nil": True} if "blind_nil" in rules.shape.options else {}


def test_an_overlong_action_is_refused_with_what_an_action_looks_like() -> None:
    with pytest.raises(ProtocolError) as error:
        parse(_act("x" * 17), 4096)
    assert error.value.code == "bad_message"
    assert "AS" in str(error.value) and "pass" in str(error.value)


def test_an_overlong_hello_token_is_told_its_length_not_its_type() -> None:
    """A 200-character token was told "token must be a string"."""
    with pytest.raises(ProtocolError) as error:
        parse(json.dumps({"type": "hello", "token": "t" * 200}), 4096)
    assert error.value.code == "bad_message" and "1 to 128 characters" in str(error.value)
