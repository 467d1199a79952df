"""The table page in a real browser: the seats inside the oval, the facts in sight, the result
card's totals, the review's word on the call, and the Hint button of a practice table.

Set up as ``test_server_browser.py`` (Debian's Chromium through Playwright's
``executable_path``; its absence skips here and fails in CI).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from callbreak.analysis import Analyst
from callbreak.bots.search.solver import Solver
from callbreak.engine import Deal
from callbreak.points import Points
from callbreak.review import Reviewer, set_reviewer
from callbreak.verdicts import CallReview, DealReview
from server_support import ThreadServer, config, create_table, db_url
from test_server_browser import browser, family_turn, play_until, state

__all__ = ["browser"]  # the module's fixture, shared


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    with ThreadServer(config(db_url("sqlite", tmp_path), bot_delay_s=0.02)) as running:
        yield running


def practice(
    browser: Browser,
    server: ThreadServer,
    preset: str,
    players: int | None,
    viewport: tuple[int, int],
    name: str = "Asha",
    seed: int = 5,
    phone: bool = False,
) -> tuple[BrowserContext, Page]:
    """A practice table of ``preset`` started in a page of ``viewport``, its felt drawn."""
    options = {} if players is None else {"players": players}
    created = create_table(
        server.http, name, preset=preset, options=options, seed=seed, practice=True
    )
    context = browser.new_context(
        viewport={"width": viewport[0], "height": viewport[1]}, is_mobile=phone, has_touch=phone
    )
    page = context.new_page()
    page.goto(f"{server.http}{created['seat_url']}")
    page.click("#start-btn")
    page.wait_for_selector(".felt .seat")
    return context, page


def my_turn(page: Page) -> bool:
    s = state(page)
    obs = s and s["obs"]
    return bool(obs and obs["to_act"] == s["you"]["seat"] and obs["legal"] and not s["result"])


def until(page: Page, done: Any, timeout_s: float = 60) -> set[str]:
    """Answer the page's questions (``family_turn``) until ``done()``; the phases asked."""
    phases: set[str] = set()
    deadline = time.monotonic() + timeout_s
    while not done():
        assert time.monotonic() < deadline, f"not there in time; phases {phases}"
        if not family_turn(page, phases, set()):
            page.wait_for_timeout(40)
    return phases


OUTSIDE_THE_OVAL = """() => {
    const felt = document.querySelector('.felt');
    const f = felt.getBoundingClientRect();
    const [a, b = a] = getComputedStyle(felt).borderTopLeftRadius.split(' ');
    const px = (v, size) => v.endsWith('%') ? parseFloat(v) / 100 * size : parseFloat(v);
    const rx = px(a, f.width), ry = px(b, f.height), slack = 2;
    const inside = (x, y) => {
        x -= f.left; y -= f.top;
        if (x < -slack || y < -slack || x > f.width + slack || y > f.height + slack) return false;
        const cx = x < rx ? rx : x > f.width - rx ? f.width - rx : null;
        const cy = y < ry ? ry : y > f.height - ry ? f.height - ry : null;
        if (cx === null || cy === null) return true;
        return Math.hypot((x - cx) / (rx + slack), (y - cy) / (ry + slack)) <= 1;
    };
    const panels = [...felt.querySelectorAll('.seat')]
        .map(s => [s.dataset.seat, s.getBoundingClientRect()]);
    const out = panels.filter(([, r]) => ![[r.left, r.top], [r.right, r.top], [r.left, r.bottom],
        [r.right, r.bottom]].every(([x, y]) => inside(x, y))).map(([seat]) => seat);
    const overlap = [];
    panels.forEach(([s, p], i) => panels.slice(i + 1).forEach(([t, q]) => {
        if (p.left < q.right - 1 && q.left < p.right - 1
            && p.top < q.bottom - 1 && q.top < p.bottom - 1) overlap.push([s, t]);
    }));
    return {out, overlap, seats: panels.length};
}"""

TABLES = [
    ("snarples", 3),
    ("callbreak", None),
    ("snarples", 5),
    ("snarples", 6),
    ("snarples", 7),
    ("snarples", 8),
    ("rook-call-partner", None),
    ("horsethief", 5),
]


@pytest.mark.parametrize("viewport", [(1280, 800), (1440, 900), (1024, 768)])
def test_on_a_desktop_every_seat_panel_sits_inside_the_oval(
    browser: Browser, server: ThreadServer, viewport: tuple[int, int]
) -> None:
    """The panels between the top and the sides stuck out past the oval's curve (Snarples at
    five to eight seats, three seats' top corners); pulled in, they still overlap nowhere."""
    for preset, players in TABLES:
        context, page = practice(browser, server, preset, players, viewport)
        until(page, lambda page=page: my_turn(page))  # the page is still while it asks
        found = page.evaluate(OUTSIDE_THE_OVAL)
        assert found["seats"] == (players or 4)
        assert found["out"] == [], f"{preset} {players} at {viewport}: {found}"
        assert found["overlap"] == [], f"{preset} {players} at {viewport}: {found}"
        page.set_viewport_size({"width": viewport[0] - 200, "height": viewport[1] - 100})
        page.wait_for_timeout(100)  # the panels follow a resized window
        assert page.evaluate(OUTSIDE_THE_OVAL)["out"] == [], f"{preset} {players} resized"
        context.close()


FACTS_COVERED = """() => {
    const facts = document.querySelector('.deal-info').getBoundingClientRect();
    return [...document.querySelectorAll('.felt .seat')].filter(s => {
        const r = s.getBoundingClientRect();
        return r.left < facts.right - 1 && facts.left < r.right - 1
            && r.top < facts.bottom - 1 && facts.top < r.bottom - 1;
    }).map(s => s.dataset.seat);
}"""


@pytest.mark.parametrize(
    ("preset", "players", "viewport"),
    [
        ("rook-call-partner", None, (390, 844)),
        ("oh-hell", 7, (390, 844)),
        ("horsethief", 5, (390, 844)),
        # a phone on its side: a low felt, whose top panels covered the facts at its corner
        ("horsethief", 5, (844, 390)),
        ("rook-call-partner", None, (844, 390)),
    ],
)
def test_no_seat_panel_covers_the_deals_facts(
    browser: Browser,
    server: ThreadServer,
    preset: str,
    players: int | None,
    viewport: tuple[int, int],
) -> None:
    context, page = practice(browser, server, preset, players, viewport, phone=True)
    until(page, lambda: page.locator(".deal-info .info").count() > 0)
    deadline = time.monotonic() + 20
    checked = 0
    while checked < 5 and time.monotonic() < deadline:  # as the deal goes on
        assert page.evaluate(FACTS_COVERED) == [], page.inner_text(".deal-info")
        checked += 1
        if not family_turn(page, set(), set()):
            page.wait_for_timeout(80)
    context.close()


@pytest.mark.parametrize(("preset", "players", "width"), [("donut", 6, 360), ("snarples", 8, 390)])
def test_a_phones_result_card_shows_every_total_beside_dropped_seats(
    browser: Browser, server: ThreadServer, preset: str, players: int, width: int
) -> None:
    """A name that does not break (32 letters, the longest allowed) held the first column wide
    and pushed the total off the card, on a card with "(dropped)" rows."""
    name = "SagarmathaEverestKathmanduNepal1"
    context, page = practice(
        browser, server, preset, players, (width, 844), name=name, seed=3, phone=True
    )
    until(page, lambda: page.locator(".deal-result tr.dropped").count() > 0, timeout_s=90)
    found = page.evaluate(
        """() => {
            const card = document.querySelector('.deal-result');
            const right = card.getBoundingClientRect().right;
            return {right, scrolls: card.scrollWidth - card.clientWidth,
                totals: [...card.querySelectorAll("td[data-col='total']")]
                    .map(t => t.getBoundingClientRect().right)};
        }"""
    )
    assert found["totals"] and max(found["totals"]) <= found["right"], found
    assert found["scrolls"] <= 1, found
    context.close()


class CallLosing:
    """The review's analyst with a node limit (no numba), whose call values are stated.

    The plain solver's node limit cannot value a call from the first trick (it answers
    "unknown"), so this analyst says what the call was worth: 1 where 4 was to be had.
    The cards are reviewed for real; what is under test is the page's word on the call.
    """

    def __init__(self) -> None:
        self.inner = Analyst(solver=Solver(compiled=False, node_limit=5_000), expert="heuristic")

    def deal(self, deal: Deal, seat: int, number: int) -> DealReview:
        review = self.inner.deal(deal, seat, number)
        call = review.call
        worth, best = Points.whole(1), Points.whole(4)
        return dataclasses.replace(
            review, call=CallReview(call.call, call.scored, worth, 4, 4, best)
        )


def test_the_review_says_what_the_call_lost(browser: Browser, tmp_path: Path) -> None:
    """The terminal's review said "the call lost N" (test_tui_review); the page's did too,
    untested: a deal played to the end, its review opened from the result card."""
    old = set_reviewer(Reviewer(CallLosing))
    try:
        with ThreadServer(config(db_url("sqlite", tmp_path), bot_delay_s=0.02)) as running:
            context, page = practice(browser, running, "callbreak", None, (1280, 800), seed=3)
            play_until([page], lambda: page.locator(".deal-result .review-link").count() > 0)
            page.click(".deal-result .review-link")
            page.wait_for_selector(".overlay.review .review-head", timeout=60_000)
            head = page.inner_text(".overlay.review .review-head")
            assert "the call lost 3." in head and "perfect" not in head, head
            assert page.inner_text(".overlay.review .review-call").startswith("Call ")
            context.close()
    finally:
        set_reviewer(old)


def test_a_practice_table_offers_a_hint_on_your_turn(
    browser: Browser, server: ThreadServer
) -> None:
    """The terminal's `i` key, in the page: a Hint button (and the key), answered for your own
    seat; the suggestion is named and ringed, and it can be played."""
    context, page = practice(browser, server, "callbreak", None, (1280, 800), seed=3)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    until(page, lambda: my_turn(page) and state(page)["obs"]["phase"] == "call")
    page.click("#hint-btn")
    page.wait_for_selector(".hint-text")
    hinted = page.get_attribute(".hint-text", "data-action")
    assert hinted in [str(a) for a in state(page)["obs"]["legal"]]
    assert f"call {hinted}" in page.inner_text(".hint-text")
    assert " — " in page.inner_text(".hint-text")  # and why, as the terminal says it
    ringed = page.locator(".action-bar button.hinted")
    assert ringed.count() == 1 and ringed.get_attribute("data-action") == hinted
    ringed.click()

    def play_turn() -> bool:
        return my_turn(page) and state(page)["obs"]["phase"] == "play"

    until(page, play_turn)
    page.wait_for_selector("#hint-btn")  # the page draws the state it holds a moment later
    page.keyboard.press("i")
    page.wait_for_selector(".hand .card.hinted")
    card = page.get_attribute(".hand .card.hinted", "data-card")
    assert card in state(page)["obs"]["legal"]
    assert page.get_attribute(".hint-text", "data-action") == card
    page.click(f".hand .card.hinted[data-card='{card}']")
    page.wait_for_function(f"!window.cb.state.obs.hand.includes('{card}')")
    # not your turn: no button (and no hint for another seat's turn)
    page.wait_for_function("window.cb.state.obs.to_act !== window.cb.state.you.seat")
    page.wait_for_selector("#hint-btn", state="detached")
    assert page.locator(".hint-text").count() == 0
    assert not errors, errors
    context.close()


def test_a_spades_table_bids_in_the_page(browser: Browser, server: ThreadServer) -> None:
    """Spades' rule book bids: the prompt, each seat's facts and the hint say so, as the
    terminal does (``Face.contract``); Call Break's page still calls."""
    context, page = practice(browser, server, "spades", None, (1280, 800), seed=3)
    until(page, lambda: my_turn(page) and state(page)["obs"]["phase"] == "call")
    assert page.inner_text(".action-bar .prompt").startswith("Your bid")
    stats = page.locator(".seat .stat.call").all_inner_texts()
    assert stats and all(text.startswith("bid ") for text in stats), stats
    page.click("#hint-btn")
    page.wait_for_selector(".hint-text")
    assert page.inner_text(".hint-text").startswith("Hint: bid")
    context.close()
