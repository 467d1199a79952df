"""serve-bot: a history no deal fits is explained with the cards the request holds.

The server fills the other seats' hands with placeholders to replay a
history.  When a player's card is illegal because of a card that same player
plays later, no placeholders can help, and the replay's own complaint would
list invented cards ("you must follow suit with hearts: 7H, 4H, 3H") against
the earlier trick.  These tests hold the server to naming the player, both
tricks and only real cards.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from callbreak.cards import CARD_NAMES, parse_card
from callbreak.protocol.bhoos import BhoosRequestError, parse_request
from callbreak.protocol.bhoos.server import create_app, serve_in_thread

IDS = ["p0", "p1", "p2", "p3"]
SPADES = [rank + "S" for rank in "1KQJT9876"]
"""The asker's (p0's) nine high spades; each body adds low spades to make up its hand."""


def _body(history: list[Any], cards: list[str], played: list[str] | None = None) -> dict[str, Any]:
    """A /play body for p0, every player having called 2."""
    return {
        "playerId": "p0",
        "playerIds": IDS,
        "cards": cards,
        "played": played or [],
        "history": history,
        "timeBudget": 1000,
        "context": {"round": 1, "players": {i: {"bid": 2, "totalPoints": 0} for i in IDS}},
    }


SHOWS_OUT_THEN_FOLLOWS = _body(
    [
        [0, ["5H", "6H", "8H", "3C"], 2],  # p3 shows out of hearts
        [2, ["2D", "3D", "4D", "5D"], 1],
        [1, ["9H", "TH", "4H", "JH"], 0],  # ... and plays a heart
    ],
    [*SPADES, "5S"],
)


def _error(body: dict[str, Any]) -> str:
    with pytest.raises(BhoosRequestError) as caught:
        parse_request("play", body)
    return str(caught.value)


def _cards_named(message: str) -> set[str]:
    return set(re.findall(r"\b[2-9TJQKA][SHDC]\b", message))


def _request_cards(body: dict[str, Any]) -> set[str]:
    names = [*body["cards"], *body["played"]]
    names += [card for _, cards, _ in body["history"] for card in cards]
    return {CARD_NAMES[parse_card(name)] for name in names}


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with serve_in_thread(create_app("heuristic")) as address:
        yield address


def test_showing_out_then_following_is_400_naming_the_player_and_real_cards(url: str) -> None:
    with httpx.Client(base_url=url) as client:
        response = client.post("/play", json=SHOWS_OUT_THEN_FOLLOWS)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error == (
        "history: p3 showed out of hearts in trick 1 (played 3C to a heart lead) "
        "but plays 4H in trick 3: no deal fits this history"
    )
    assert _cards_named(error) <= _request_cards(SHOWS_OUT_THEN_FOLLOWS)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (  # must_overtake: p1 ducks the 5H while holding the KH it plays later
            _body(
                [
                    [0, ["5H", "3H", "8H", "9H"], 3],
                    [3, ["2D", "3D", "4D", "5D"], 2],
                    [2, ["2C", "3C", "4C", "KH"], 0],
                ],
                [*SPADES, "2S"],
            ),
            "history: p1 did not beat the 5H in trick 1 (played 3H) but plays KH in trick 3, "
            "which would have: no deal fits this history",
        ),
        (  # must_trump: p3 discards to a heart lead while holding the 4S it plays later
            _body(
                [[0, ["5H", "6H", "8H", "3C"], 2], [2, ["2D", "4S", "4D", "5D"], 3]],
                [*SPADES, "2S", "3S"],
                ["2C"],
            ),
            "history: p3 showed out of hearts and did not trump in trick 1 (played 3C to a "
            "heart lead) but plays 4S in trick 2: no deal fits this history",
        ),
        (  # overtrumping: p3 does not beat the 5S while holding the 9S
            _body(
                [[0, ["5H", "6H", "5S", "3C"], 2], [2, ["2D", "9S", "4D", "5D"], 3]],
                ["1S", "KS", "QS", "JS", "TS", "8S", "7S", "6S", "2S", "3S", "4S"],
                ["2C"],
            ),
            "history: p3 showed out of hearts and did not beat the 5S in trick 1 (played 3C) "
            "but plays 9S in trick 2, which would have: no deal fits this history",
        ),
        (  # the contradicting card is in the trick in progress
            _body([[0, ["5H", "6H", "8H", "3C"], 2]], [*SPADES, "2S", "3S", "4S"], ["7H", "4H"]),
            "history: p3 showed out of hearts in trick 1 (played 3C to a heart lead) but plays "
            "4H in the trick in progress: no deal fits this history",
        ),
        (  # two contradictions: the one that shows first (p1's, in trick 2) is named
            _body(
                [
                    [0, ["5H", "3C", "8H", "3H"], 2],  # p1 shows out; p3 ducks the 8H
                    [2, ["2D", "3D", "4D", "6H"], 0],  # p1 plays a heart
                    [0, ["7H", "9H", "TH", "KH"], 3],  # p3 plays the KH
                ],
                [*SPADES, "2S"],
                ["2C"],
            ),
            "history: p1 showed out of hearts in trick 1 (played 3C to a heart lead) but plays "
            "6H in trick 2: no deal fits this history",
        ),
    ],
)
def test_each_rule_broken_by_a_later_card_is_explained(body: dict[str, Any], expected: str) -> None:
    error = _error(body)
    assert error == expected
    assert _cards_named(error) <= _request_cards(body)
