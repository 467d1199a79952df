"""The review in a real browser: the result card's "Review" and the match result's links.

Set up as ``test_server_browser.py`` (Debian's Chromium through Playwright's
``executable_path``; its absence skips here and fails in CI).  The server's
analysis is the real ``Analyst`` on the plain Python solver with a node limit,
so no numba compilation is waited for.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from callbreak.analysis import Analyst
from callbreak.bots.search.solver import Solver
from callbreak.review import Reviewer, set_reviewer
from server_support import ThreadServer, config, create_table, db_url
from test_server_browser import browser, play_until

__all__ = ["browser"]  # the module's fixture, shared


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    plain = Reviewer(
        lambda: Analyst(solver=Solver(compiled=False, node_limit=5_000), expert="heuristic")
    )
    old = set_reviewer(plain)
    try:
        with ThreadServer(config(db_url("sqlite", tmp_path), bot_delay_s=0.02)) as running:
            yield running
    finally:
        set_reviewer(old)


def review_lines(page: Page, number: int) -> list[str]:
    dialog = f".overlay.review[aria-label='review of deal {number}']"
    page.wait_for_selector(f"{dialog} .review-lines li")
    verdicts: list[str] = page.eval_on_selector_all(
        ".overlay.review .review-lines li", "items => items.map(i => i.dataset.verdict)"
    )
    return verdicts


def practice_table(
    browser: Browser, server: ThreadServer, preset: str, seed: int
) -> tuple[BrowserContext, Page]:
    """A practice table of ``preset`` dealt from ``seed``, started, its felt on the page."""
    created = create_table(server.http, "Asha", preset=preset, options={}, seed=seed, practice=True)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(f"{server.http}{created['seat_url']}")
    page.wait_for_selector("#start-btn")
    page.click("#start-btn")
    page.wait_for_selector(".felt")
    return context, page


def test_the_result_card_links_to_the_review(browser: Browser, server: ThreadServer) -> None:
    created = create_table(server.http, "Asha", options={"match_deals": 2}, seed=3, practice=True)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.http}{created['seat_url']}")
    page.wait_for_selector("#start-btn")
    page.click("#start-btn")
    page.wait_for_selector(".felt")
    play_until([page], lambda: page.locator(".deal-result .review-link").count() > 0)
    page.click(".deal-result .review-link")
    verdicts = review_lines(page, 1)
    assert len(verdicts) == 13
    assert set(verdicts) <= {"ok", "forced", "unknown", "blunder", "mistake", "hidden"}
    text = page.inner_text(".overlay.review")
    assert "Review of deal 1" in text and "against best defence" in text
    page.keyboard.press("Escape")
    assert page.locator(".overlay.review").count() == 0

    play_until([page], lambda: page.locator("#record-link").count() > 0)
    links = page.locator(".match-result .review-link")
    assert links.all_inner_texts() == ["deal 1", "deal 2"]
    links.nth(1).click()
    assert len(review_lines(page, 2)) == 13
    page.click(".overlay.review button.primary")
    assert page.locator(".overlay.review").count() == 0
    assert not errors
    context.close()


def test_a_game_the_solver_does_not_play_is_reviewable_in_the_browser(
    browser: Browser, server: ThreadServer
) -> None:
    context, page = practice_table(browser, server, "donut", seed=3)
    assert page.evaluate("window.cb.state.table.reviewable") is True
    context.close()


def test_a_rook_review_names_cards_and_colours_as_the_table_does(
    browser: Browser, server: ThreadServer
) -> None:
    """The review of a Call Partner deal showed the engine's codes ("13Y", trump "B")."""
    from test_server_browser import family_turn

    context, page = practice_table(browser, server, "rook-call-partner", seed=4)
    phases: set[str] = set()
    greyed: set[int] = set()
    deadline = time.monotonic() + 120
    while page.locator(".deal-result .review-link").count() == 0:
        assert time.monotonic() < deadline, "the deal did not end"
        if not family_turn(page, phases, greyed):
            page.wait_for_timeout(40)
    page.click(".deal-result .review-link")
    page.wait_for_selector(".overlay.review .review-lines li", timeout=60_000)
    lines = page.locator(".overlay.review .review-lines li").all_inner_texts()
    assert "trump" in phases and any(line.startswith("trump") for line in lines), lines
    text = "\n".join(lines)
    assert not re.search(r"\b(1[0-4]|[1-9])[RYGB]\b|\bROOK\b", text), text
    assert not re.search(r"^trump.*\b[RYGB]\b", text, re.MULTILINE), text
    assert re.search(r"\b\d+ (red|yellow|green|black)\b", text), text
    context.close()
