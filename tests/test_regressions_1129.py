"""Defects found in the changes of 2026-11-29 (the game's own words, the browser's hints and seat
layout): the plain table's verb after "You", the Hint button after a lost connection, and a seat
panel near the right edge of a desktop felt that stuck out of the oval.

The browser tests are set up as ``test_server_browser.py`` (Debian's Chromium through
Playwright's ``executable_path``; its absence skips here and fails in CI).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from callbreak import Match, Rules
from callbreak.engine import Deal
from callbreak.review import Reviewer, review_document
from callbreak.verdicts import DealReview
from server_support import ThreadServer, config, db_url
from test_browser_layout_fixes import OUTSIDE_THE_OVAL, my_turn, practice, until
from test_server_browser import browser, state
from test_words_fixes import plain_text, played_deal, spades_review

__all__ = ["browser"]  # the module's fixture, shared


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    with ThreadServer(config(db_url("sqlite", tmp_path), bot_delay_s=0.02)) as running:
        yield running


# ------------------------------------------------------------------ the plain table's verbs
def test_the_plain_table_says_you_win_a_trick_and_a_name_wins_the_match() -> None:
    """The plain table said "→ You wins the trick." (the default name) and "Asha win the
    match." (a name given)."""
    text = plain_text(Match(Rules.preset("callbreak"), seed=8), [])
    assert "You wins" not in text
    assert re.search(r"→ You win the trick\.", text)
    assert re.search(r"→ \w+ \(heuristic\) wins the trick\.", text)

    named = Match(Rules.preset("callbreak").replace(match_deals=1), seed=8)
    text = plain_text(named, [], name="Asha")
    assert named.over and named.winners == [0]  # the person alone, by the name given
    assert "Asha wins the match." in text and "Asha win " not in text


# ------------------------------------------------------------------ a review's words
class GamelessAnalyst:
    """An analyst that does not say the deal's game (a stand-in, as tests and tools set with
    ``set_reviewer``): its review was read in Call Break's words at a Spades table."""

    def deal(self, deal: Deal, seat: int, number: int) -> DealReview:
        return spades_review(number, seat, 0)  # game left at its default, "callbreak"


def test_a_review_is_read_in_the_words_of_the_deals_game() -> None:
    review = Reviewer(GamelessAnalyst).review(played_deal(Rules.preset("spades")), 0, 1)
    assert review.game == "spades"
    assert review_document(review)["decisions"][0]["text"].startswith("bid: 4 was worth")


# ------------------------------------------------------------------ the browser's hint
def test_the_hint_can_be_asked_again_after_the_connection_was_lost(
    browser: Browser, server: ThreadServer
) -> None:
    """A hint asked just before the socket dropped never comes: the button stayed "Thinking…"
    (disabled, and the i key did nothing) once the page had reconnected."""
    context, page = practice(browser, server, "callbreak", None, (1280, 800), seed=3)
    until(page, lambda: my_turn(page))
    page.wait_for_selector("#hint-btn")
    page.evaluate("() => { window.cb.askHint(); window.cb.ws.close(); }")  # asked, then lost
    page.wait_for_function("window.cb.lost === false && window.cb.messages > 1", timeout=10_000)
    page.wait_for_selector("#hint-btn:not([disabled])", timeout=5_000)
    page.keyboard.press("i")
    page.wait_for_selector(".hint-text", timeout=30_000)
    assert page.get_attribute(".hint-text", "data-action") in [
        str(a) for a in state(page)["obs"]["legal"]
    ]
    context.close()


# ------------------------------------------------------------------ the seats in the oval
def test_a_panel_near_the_right_edge_is_measured_as_it_is_drawn(
    browser: Browser, server: ThreadServer
) -> None:
    """Near the right edge a panel was only as wide as the room to its right (its stats
    wrapped: narrower and taller), so fitSeats measured one size and drew another, and at
    800×600 a seven-seat felt's lower right panel stuck out of the oval."""
    context, page = practice(browser, server, "snarples", 7, (800, 600), seed=7)
    until(page, lambda: my_turn(page))
    found = page.evaluate(OUTSIDE_THE_OVAL)
    assert found["seats"] == 7
    assert found["out"] == [] and found["overlap"] == [], found
    # a panel's size does not depend on where it sits: mirrored seats are as wide
    widths = page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('.felt .seat')]"
        ".map(s => [s.dataset.seat, s.getBoundingClientRect().width]))"
    )
    natural = page.evaluate(
        """() => [...document.querySelectorAll('.felt .seat')].map(s => {
            const copy = s.cloneNode(true);
            copy.style.setProperty('--x', '50%'); copy.style.top = '50%';
            s.parentElement.append(copy);
            const width = copy.getBoundingClientRect().width;
            copy.remove();
            return [s.dataset.seat, width];
        })"""
    )
    for seat, width in natural:
        assert abs(widths[seat] - width) <= 1, (seat, widths[seat], width)
    context.close()


def test_a_named_pool_leaves_out_a_member_that_cannot_play_the_game() -> None:
    """``--pool default`` holds ``selfplay``, learned on Call Break: in Oh Hell the pool plays
    without it and says so, where the whole run used to be refused; named alone, it is kept
    for the lineup's check to refuse with its reason."""
    from callbreak.arena.pool import POOLS, playable_pool

    oh_hell = Rules.preset("oh-hell")
    members, notes = playable_pool(["default"], oh_hell)
    assert "selfplay" not in members and len(members) == len(POOLS["default"]) - 1
    assert len(notes) == 1 and "selfplay" in notes[0] and "Call Break" in notes[0]
    assert playable_pool(["default"], Rules.preset("callbreak")) == (POOLS["default"], [])
    assert playable_pool(["styles", "selfplay"], oh_hell)[0][-1] == "selfplay"


COVERED_CARDS = """() => [...document.querySelectorAll('.felt .trick .card[data-seat]')]
  .flatMap(card => {
    const panel = document.querySelector(`.felt .seat[data-seat="${card.dataset.seat}"]`);
    const a = card.getBoundingClientRect(), b = panel.getBoundingClientRect();
    const covered = a.left < b.right - 1 && b.left < a.right - 1
        && a.top < b.bottom - 1 && b.top < a.bottom - 1;
    return covered ? [card.dataset.card || card.textContent] : [];
})"""


@pytest.mark.parametrize(("preset", "players", "viewport"), [("snarples", 3, (900, 700))])
def test_a_seat_panel_pulled_in_leaves_its_trick_card_in_sight(
    browser: Browser,
    server: ThreadServer,
    preset: str,
    players: int,
    viewport: tuple[int, int],
) -> None:
    """Pulling a panel inside the oval pulled its trick card in by as much, but the panel keeps
    its size: on a narrow felt the card slid under its own panel (the A♣ under "Bot 2")."""
    context, page = practice(browser, server, preset, players, viewport, seed=7)
    seen = 0

    def cards_on_the_felt() -> bool:
        return page.locator(".felt .trick .card[data-seat]").count() >= 2

    for _ in range(3):  # three tricks' worth of moments with cards on the felt
        until(page, lambda: cards_on_the_felt() and my_turn(page))
        assert page.evaluate(COVERED_CARDS) == []
        seen += 1
        until(page, lambda: not cards_on_the_felt() or not my_turn(page))
    assert seen == 3
    context.close()


@pytest.mark.parametrize(("preset", "word"), [("spades", "Bid"), ("callbreak", "Call")])
def test_the_arena_names_the_contract_in_the_games_word(preset: str, word: str) -> None:
    """A researcher reading a Spades run sees its bids: the arena's columns and legend said
    "Call" in every game."""
    from typer.testing import CliRunner

    from callbreak.cli.main import app

    args = ["arena", "--rules", preset, "--seat", "heuristic", "--deals", "1", "--workers", "1"]
    shown = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    assert f"{word}−won" in shown.output and f"Calibration by {word.lower()}" in shown.output
    other = "Call" if word == "Bid" else "Bid"
    assert f"{other}−won" not in shown.output


def test_donuts_decision_to_play_names_the_deal_not_a_card() -> None:
    """A seat that stays in read "East (heuristic) plays", as if a card were missing."""
    text = plain_text(Match(Rules.preset("donut"), seed=2), [])
    assert re.search(r"\) plays this deal$", text, re.MULTILINE), text
    assert not re.search(r"\) plays$", text, re.MULTILINE), text


def test_replay_names_the_winner_as_the_record_names_the_seat(tmp_path: Path) -> None:
    """``replay`` said "winner seat(s) 1", a 0-based number where every face counts seats by
    name: the winner is now named, with its seat number as the record counts seats."""
    from typer.testing import CliRunner

    from callbreak.cli.main import app

    out = tmp_path / "game.json"
    runner = CliRunner()
    made = runner.invoke(
        app, ["selfplay", "--games", "1", "--bot", "heuristic", "--seed", "1", "--out", str(out)]
    )
    assert made.exit_code == 0, made.output
    shown = runner.invoke(app, ["replay", str(out)])
    assert shown.exit_code == 0, shown.output
    assert re.search(r"won by \w+ \(seat \d\)$", shown.output.strip()), shown.output
