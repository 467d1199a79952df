"""Online tables as players use them: what a QA pass over the page and the API found.

A review opened from the match result was covered by the result card as soon as any state
arrived; a hint named a card the engine's way ("14R"); joining a finished match said it "has
started"; a NaN grace period was refused as above 3600; a seed typed without "Practice" was
dropped without a word; the history counted a thrown-in deal as one of the match's; a table
link with a broken %-escape stopped the page before it said anything; on a phone the seat
panel nearest the right edge was squeezed to one word a line; and two people at one table
could go by the same name; a review asked of a lobby was told "while the match is played",
and one of a seat the table does not have was refused as someone else's (403).

Set up as ``test_server_browser.py`` (Debian's Chromium through Playwright's
``executable_path``; its absence skips here and fails in CI).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser

from callbreak.engine import Deal
from callbreak.review import Reviewer, set_reviewer
from callbreak.verdicts import DealReview
from server_support import (
    ThreadServer,
    config,
    connect,
    create_table,
    db_url,
    join_table,
    play_turns,
    run_async,
    seeded_table,
)
from test_server_browser import browser, family_turn, state

__all__ = ["browser"]  # the module's fixture, shared

THROWN_IN_SEED = 23
"""Call Break's first deal from this seed leaves seat 0 without a spade: ``misdeal=auto``
throws it in, whatever the bots do."""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    with ThreadServer(config(db_url("sqlite", tmp_path), bot_delay_s=0.0)) as running:
        yield running


def play_out(server: ThreadServer, code: str, token: str) -> None:
    """Start the table as its host (seat 0) and play it to the end over the socket."""

    async def run() -> None:
        async with connect(server.ws, code, token) as host:
            await host.send({"type": "start"})
            await host.state_where(lambda s: s["table"]["status"] != "lobby")
            await play_turns([host], lambda: bool(host.state and host.state["result"]), 60)

    run_async(run)


# ------------------------------------------------------------------ the API
def test_joining_a_finished_match_says_it_is_over(server: ThreadServer) -> None:
    """Joining a finished match was refused with "the match has started: watch it as a
    spectator", as if it were still being played."""
    table = seeded_table(server, THROWN_IN_SEED)
    play_out(server, table["code"], table["token"])
    response = httpx.post(
        f"{server.http}/api/tables/{table['code']}/join", json={"name": "Late"}, timeout=10
    )
    assert response.status_code == 409
    assert response.json() == {
        "detail": "the match is over: its result and record are on the table's page"
    }


def test_a_name_already_at_the_table_is_numbered(server: ThreadServer) -> None:
    """Two seats called "Asha" made "it is Asha's turn" ambiguous: the second (in any case)
    is "asha 2", the third "Asha 3", and the table shows the names each joined under."""
    table = create_table(server.http, name="Asha")
    second = join_table(server.http, table["code"], "asha")
    third = join_table(server.http, table["code"], "Asha")
    other = join_table(server.http, table["code"], "Ravi")
    assert [second["name"], third["name"], other["name"]] == ["asha 2", "Asha 3", "Ravi"]
    shown = httpx.get(f"{server.http}/api/tables/{table['code']}", timeout=10).json()
    names = [seat["name"] for seat in shown["seats"]]
    assert sorted(names) == ["Asha", "Asha 3", "Ravi", "asha 2"], shown


def test_a_review_of_a_lobby_or_of_no_seat_says_so(server: ThreadServer) -> None:
    table = create_table(server.http)
    url = f"{server.http}/api/tables/{table['code']}/review"
    lobby = httpx.get(url, params={"deal": 1}, timeout=10)
    assert lobby.status_code == 409
    assert lobby.json() == {"detail": "the match has not started: there is nothing to review yet"}
    started = httpx.post(
        f"{server.http}/api/tables/{table['code']}/start",
        headers={"Authorization": f"Bearer {table['token']}"},
        timeout=10,
    )
    assert started.status_code == 200, started.text
    no_seat = httpx.get(
        url,
        params={"deal": 1, "seat": 9},
        headers={"Authorization": f"Bearer {table['token']}"},
        timeout=10,
    )
    assert no_seat.status_code == 422
    assert no_seat.json() == {"detail": "seat must be from 0 to 3"}


def test_a_nan_grace_is_refused_as_not_a_number(server: ThreadServer) -> None:
    """NaN is no number of seconds; it was refused with "should be less than or equal to 3600",
    which it is not either."""
    response = httpx.post(
        f"{server.http}/api/tables",
        content=b'{"name": "Asha", "grace_s": NaN}',
        headers={"content-type": "application/json"},
        timeout=10,
    )
    assert response.status_code == 422
    (item,) = response.json()["detail"]
    assert item["loc"] == ["body", "grace_s"]
    assert item["msg"] == "Input should be a finite number"


def test_the_history_counts_a_thrown_in_deal_apart(browser: Browser, server: ThreadServer) -> None:
    """A one-deal match whose deal was thrown in and dealt again was listed as "2 deal(s)"."""
    options = {"match_deals": 1, "misdeal": "auto"}
    table = seeded_table(server, THROWN_IN_SEED, options=options)
    play_out(server, table["code"], table["token"])
    record = httpx.get(f"{server.http}/api/records/{table['code']}.json", timeout=10).json()
    thrown_in = sum(1 for deal in record["deals"] if deal["void"])
    assert thrown_in >= 1 and record["deals"][0]["void"].startswith("misdeal")
    rows = httpx.get(f"{server.http}/api/history", timeout=10).json()
    row = next(r for r in rows if r["code"] == table["code"])
    assert (row["deals"], row["thrown_in"]) == (1, thrown_in)
    page = browser.new_page()
    page.goto(f"{server.http}/history")
    page.wait_for_selector(".history-table")
    assert f"callbreak, 1 deal(s) (and {thrown_in} thrown in)" in page.inner_text(".history-table")
    page.close()


# ----------------------------------------------------------------- the page
class NoReview:
    """A reviewer's analyst that answers at once (the solver is not what is tested here)."""

    def deal(self, deal: Deal, seat: int, number: int) -> DealReview:
        raise ValueError("no review in this test")


ON_TOP = """() => {
    const node = document.elementFromPoint(innerWidth / 2, innerHeight / 2);
    const overlay = node && node.closest('.overlay');
    return overlay ? overlay.className : null;
}"""


def test_a_review_opened_from_the_match_result_stays_above_it(
    browser: Browser, server: ThreadServer
) -> None:
    """The result card is drawn again on every state; it was put back at the end of the page,
    over the review opened from it, as soon as anyone came or went."""
    old = set_reviewer(Reviewer(NoReview))
    try:
        table = create_table(server.http, "Asha", options={"match_deals": 1}, seed=3, practice=True)
        play_out(server, table["code"], table["token"])
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(f"{server.http}{table['seat_url']}")
        page.click(".review-links .review-link")
        page.wait_for_selector(".overlay.review .review-error")
        assert page.evaluate(ON_TOP) == "overlay review"
        seen = page.evaluate("window.cb.messages")
        watcher = browser.new_page()  # a spectator comes: a state to every socket
        watcher.goto(f"{server.http}/t/{table['code']}")
        page.wait_for_function(f"window.cb.messages > {seen}")
        assert page.locator(".overlay.match-result").count() == 1
        assert page.evaluate(ON_TOP) == "overlay review"
        page.click(".overlay.review button.primary")  # Close: the result card is there again
        assert page.evaluate(ON_TOP) == "overlay match-result"
        watcher.close()
        page.close()
    finally:
        set_reviewer(old)


def test_a_hint_names_cards_as_the_page_shows_them(browser: Browser, server: ThreadServer) -> None:
    """The hint's words are the terminal's ("call the 14R as partner"); the page showed the
    engine's card names in them, where it says "14 red" and "K♥" everywhere else."""
    table = create_table(server.http, "Asha", options={"match_deals": 1}, seed=3, practice=True)
    page = browser.new_page()
    page.goto(f"{server.http}{table['seat_url']}")
    page.click("#start-btn")
    deadline = time.monotonic() + 30
    while not page.locator("#hint-btn").count():
        assert time.monotonic() < deadline, "never the person's turn"
        page.wait_for_timeout(30)
    page.evaluate(
        """() => window.cb.onMessage({type: "hint", seq: window.cb.state.seq, action: "14R",
            card: false, text: "call the 14R as partner",
            reason: "the best trump you lack, above your KH"})"""
    )
    assert page.inner_text(".hint-text") == (
        "Hint: call the 14 red as partner — the best trump you lack, above your K♥"
    )
    page.close()


def test_a_seed_without_practice_is_not_dropped_silently(
    browser: Browser, server: ThreadServer
) -> None:
    """A seed typed with "Practice alone" unticked was left out of the request: the table dealt
    other cards than the ones asked for, and nothing said so."""
    page = browser.new_page()
    page.goto(f"{server.http}/")
    page.fill("#create-name", "Asha")
    page.click("details summary")
    page.fill("#create-seed", "42")
    page.click("#create-btn")
    page.wait_for_selector(".toast")
    assert page.inner_text(".toast") == (
        'A seed is only for a practice table: tick "Practice alone" or clear the seed.'
    )
    assert page.url == f"{server.http}/"  # no table was made
    page.check("#create-practice")
    page.click("#create-btn")
    page.wait_for_selector("#start-btn")
    assert state(page)["table"]["practice"] is True
    page.close()


def test_a_table_link_with_a_broken_escape_still_says_there_is_no_table(
    browser: Browser, server: ThreadServer
) -> None:
    """A link cut short inside a %-escape threw "URI malformed" before the toast was made."""
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.http}/t/AB%E0%A4%A")
    page.wait_for_selector(".toast")
    assert page.inner_text(".toast") == 'No table has the code "AB%E0%A4%A": check the invite link.'
    assert not errors, errors
    page.close()


STAT_LINES = """() => [...document.querySelectorAll('.felt .seat')].map(panel => ({
    seat: panel.dataset.seat,
    wrapped: [...panel.querySelectorAll('.stat')].filter(stat => {
        const range = document.createRange();  // one rectangle a line of the text
        range.selectNodeContents(stat);
        return range.getClientRects().length > 1;
    }).map(stat => stat.textContent),
}))"""


def test_on_a_phone_no_seat_panel_is_squeezed_to_a_word_a_line(
    browser: Browser, server: ThreadServer
) -> None:
    """On a phone the panel nearest the right edge was only as wide as the room left of its
    spot: "bid pass" and "score 16" broke over two lines, a panel twice the others' height."""
    table = create_table(
        server.http, "Asha", preset="snarples", options={"players": 8}, seed=11, practice=True
    )
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.goto(f"{server.http}{table['seat_url']}")
    page.click("#start-btn")
    deadline = time.monotonic() + 60
    while True:  # to the cards, where every seat shows its bid, tricks and score
        current = state(page)
        if current and current["obs"] and current["obs"]["phase"] == "play":
            break
        assert time.monotonic() < deadline, "the play never came"
        if not family_turn(page, set(), set()):
            page.wait_for_timeout(30)
    page.wait_for_timeout(100)
    panels = page.evaluate(STAT_LINES)
    assert len(panels) == 8
    assert [p for p in panels if p["wrapped"]] == []
    context.close()
