"""The page in a real browser: Playwright drives Debian's Chromium against a real server.

One person plays a whole deal against bots by clicking; then two people in two
browser contexts share a table, and one of them loses the connection and comes
back in the middle of a trick.  Chromium is the system one (``executable_path``);
in CI it must be there (``.ci/run`` installs it), elsewhere its absence skips.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright import sync_api as playwright_sync
from playwright.sync_api import Browser, Page

from callbreak.record import replay
from server_support import ThreadServer, chromium, config, db_url

ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    path = chromium()
    with playwright_sync.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=path, args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    with ThreadServer(config(db_url("sqlite", tmp_path), bot_delay_s=0.03)) as running:
        yield running


def state(page: Page) -> Any:
    return page.evaluate("window.cb && window.cb.state")


SNAPSHOT = """() => ({
    state: window.cb && window.cb.state,
    pending: window.cb && window.cb.pendingSeq,
    legal: [...document.querySelectorAll('.hand .card.legal')].map(c => c.dataset.card),
    dim: document.querySelectorAll('.hand .card.dim').length,
    hand: document.querySelectorAll('.hand .card').length,
})"""


def take_turn(page: Page) -> bool:
    """Click whatever this page's player must decide now; False if it is not their turn."""
    seen = page.evaluate(SNAPSHOT)  # state and page read in one go: they belong together
    current = seen["state"]
    if not current or current["result"] or current["obs"] is None:
        return False
    obs = current["obs"]
    if obs["to_act"] != current["you"]["seat"] or not obs["legal"]:
        return False
    if seen["pending"] == current["seq"]:
        return False
    try:
        if obs["phase"] == "call":
            page.click(f"button.call[data-call='{obs['legal'][0]}']", timeout=2000)
        elif obs["phase"] in ("misdeal", "declare"):
            page.click("[data-answer='false']", timeout=2000)
        else:
            # the legal cards, and only they, are raised; the others are dimmed
            assert sorted(seen["legal"]) == sorted(obs["legal"])
            assert seen["hand"] == len(obs["hand"]) == len(seen["legal"]) + seen["dim"]
            page.click(f".hand .card.legal[data-card='{seen['legal'][0]}']", timeout=2000)
    except playwright_sync.Error:
        return False  # the page re-rendered under the click: try again
    return True


def play_until(pages: list[Page], done: Callable[[], bool], timeout_s: float = 60) -> int:
    import time

    clicks = 0
    deadline = time.monotonic() + timeout_s
    while not done():
        assert time.monotonic() < deadline, "the game did not get there in time"
        acted = False
        for page in pages:
            if done():
                break
            if take_turn(page):
                clicks += 1
                acted = True
        if not acted:
            pages[0].wait_for_timeout(40)
    return clicks


def create_by_form(page: Page, base: str, name: str) -> str:
    page.goto(f"{base}/")
    page.fill("#create-name", name)
    page.select_option("#create-deals", "1")
    page.click("#create-btn")
    page.wait_for_selector("#start-btn")
    code: str = page.inner_text("#table-code")
    assert re.fullmatch(r"[A-Z0-9]{6}", code)
    return code


def test_a_whole_deal_against_bots_by_clicking(browser: Browser, server: ThreadServer) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    code = create_by_form(page, server.http, "Asha")
    assert "Start — bots take 3 empty seats" in page.inner_text("#start-btn")
    page.click("#start-btn")
    page.wait_for_selector(".felt")
    clicks = play_until([page], lambda: page.locator("#record-link").count() > 0)
    assert clicks >= 14  # a call and thirteen cards (and any misdeal question)
    assert "Match over" in page.inner_text(".match-result")
    assert page.locator(".scoreboard tbody tr").count() >= 1
    totals = page.locator(".scoreboard tfoot th").all_inner_texts()[1:]
    final = state(page)
    assert totals == final["result"]["totals"]
    record = page.request.get(page.eval_on_selector("#record-link", "a => a.href")).json()
    report = replay(record)
    assert report.complete and record["seats"][0] == {"name": "Asha", "player": "human"}
    page.goto(f"{server.http}/history")
    page.wait_for_selector(f"a[href='/t/{code}']")
    assert not errors
    context.close()


def test_two_people_and_a_reconnect_mid_trick(browser: Browser, server: ThreadServer) -> None:
    host_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    guest_ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    host = host_ctx.new_page()
    guest = guest_ctx.new_page()
    code = create_by_form(host, server.http, "Host")
    invite = host.input_value("#invite-link")
    assert invite.endswith(f"/t/{code}")

    guest.goto(invite)
    guest.fill("#join-name", "Guest")
    guest.click(".join-seat[data-seat='1']")
    guest.wait_for_selector(".lobby-seats .badge.you")
    host.wait_for_selector(".lobby-seats li[data-seat='1'] .dot.on")
    assert "Waiting for Host to start" in guest.inner_text(".lobby-table")
    host.click("#start-btn")
    guest.wait_for_selector(".felt")

    def mid_trick() -> bool:
        # the host must play now, with cards already in the trick and a trick done before
        s = state(host)
        obs = s and s["obs"]
        return bool(
            obs
            and obs["phase"] == "play"
            and obs["to_act"] == 0
            and obs["history"]
            and obs["trick"]["cards"]
        )

    play_until([host, guest], mid_trick)
    guest.wait_for_function(f"window.cb.state.seq === {state(host)['seq']}")
    trick = guest.locator(".trick .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    hand = guest.locator(".hand .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    assert trick == state(host)["obs"]["trick"]["cards"]

    guest.close()  # the phone drops off; the host sees it
    host.wait_for_selector(".seat[data-seat='1'] .badge.warn")
    guest = guest_ctx.new_page()  # and comes back: the token is in its storage
    guest.goto(f"{server.http}/t/{code}")
    guest.wait_for_selector(".felt")
    assert guest.locator(".trick .card").evaluate_all("cs => cs.map(c => c.dataset.card)") == trick
    assert guest.locator(".hand .card").evaluate_all("cs => cs.map(c => c.dataset.card)") == hand
    assert state(guest)["you"]["seat"] == 1
    host.wait_for_function(
        "!document.querySelector(\".seat[data-seat='1'] .badge.warn\")", timeout=5000
    )

    guest.evaluate("window.cb.ws.close()")  # a dropped socket: banner, then back by itself
    guest.wait_for_selector("#banner:not([hidden])")
    guest.wait_for_function("document.getElementById('banner').textContent.includes('back')")

    play_until(
        [host, guest],
        lambda: all(p.locator("#record-link").count() > 0 for p in (host, guest)),
    )
    assert state(host)["result"] == state(guest)["result"]
    host_ctx.close()
    guest_ctx.close()


FAMILY_SNAPSHOT = """() => ({
    state: window.cb && window.cb.state,
    pending: window.cb && window.cb.pendingSeq,
    legal: [...document.querySelectorAll('.hand .card.legal')].map(c => c.dataset.card),
    actions: [...document.querySelectorAll('.action-bar button[data-action]')]
        .map(b => b.dataset.action),
    picks: [...document.querySelectorAll('.picker .pick')].map(b => b.dataset.card),
    tabs: [...document.querySelectorAll('.picker .picker-suit')].map(b => b.dataset.suit),
    seats: document.querySelectorAll('.felt .seat').length,
    greyed: [...document.querySelectorAll('.felt .seat.dropped, .felt .seat.out')]
        .map(s => Number(s.dataset.seat)),
})"""


def family_turn(page: Page, phases: set[str], greyed: set[int]) -> bool:
    """Answer whatever this page asks now, by the control the phase is drawn with."""
    seen = page.evaluate(FAMILY_SNAPSHOT)
    current = seen["state"]
    if not current or current["obs"] is None:
        return False
    obs = current["obs"]
    assert seen["seats"] == len(current["table"]["seats"])
    assert set(seen["greyed"]) == set(obs["dropped"]) | (
        set(range(len(current["table"]["seats"]))) - set(obs["dealt_in"] or [])
    )
    greyed.update(seen["greyed"])
    if obs["to_act"] == current["you"]["seat"] and obs["legal"] and not current["result"]:
        phases.add(obs["phase"])
    if current["result"] or obs["to_act"] != current["you"]["seat"] or not obs["legal"]:
        return False
    if seen["pending"] == current["seq"]:
        return False
    phase = obs["phase"]
    legal = obs["legal"]
    words = [str(a) for a in legal if not isinstance(a, str) or a in ("pass", "done", "in", "out")]
    try:
        if phase in ("play", "discard"):
            assert sorted(seen["legal"]) == sorted(legal)
            page.click(f".hand .card.legal[data-card='{seen['legal'][-1]}']", timeout=2000)
        elif phase == "exchange":
            assert sorted(seen["legal"]) == sorted(a for a in legal if a != "done")
            if "threw" not in phases:  # throw one card by clicking it, then keep the rest
                phases.add("threw")
                page.click(f".hand .card.legal[data-card='{seen['legal'][0]}']", timeout=2000)
            else:
                page.click(".action-bar button[data-action='done']", timeout=2000)
        elif phase == "partner":
            # a long list: the page offers it colour by colour
            assert len(seen["tabs"]) >= 4 and set(seen["picks"]) <= set(legal)
            assert "★" not in seen["tabs"][:-1]  # colours first, the Rook's own tab last
            page.click(f".picker-suit[data-suit='{seen['tabs'][1]}']", timeout=2000)
            page.wait_for_selector(f".picker .pick[data-card$='{seen['tabs'][1]}']", timeout=2000)
            pick = page.locator(".picker .pick").first.get_attribute("data-card")
            page.click(f".picker .pick[data-card='{pick}']", timeout=2000)
        else:
            assert sorted(seen["actions"]) == sorted(str(a) for a in legal)
            if phase == "auction":  # the highest bid: the person names trump (and the rest)
                bids = [a for a in legal if a != "pass"]
                choice = str(bids[-1]) if bids else "pass"
            elif phase == "drop":
                choice = "in"
            else:
                choice = str(legal[0]) if not words else words[0]
            page.click(f".action-bar button[data-action='{choice}']", timeout=2000)
    except playwright_sync.Error:
        return False
    return True


@pytest.mark.parametrize(
    ("preset", "players", "expected", "phone"),
    [
        # the person bids the most it may, so it names trump (Batak's dealer takes the contract
        # unasked when the three before it pass; a Snarples bidder whom all leave settles)
        ("batak-ihale", None, [{"auction", "trump", "play"}, {"trump", "play"}], False),
        ("rook-call-partner", None, [{"discard", "trump", "partner", "play"}], False),
        ("snarples", 6, [{"auction", "play"}, {"auction", "settle"}], False),
        # the person always plays: it is asked in or out, then plays (Horsethief: exchanges first)
        ("donut", 6, [{"drop", "play"}], False),
        ("horsethief", 5, [{"drop", "exchange", "threw", "play"}], False),
        # the most seats on a phone: eight (and seven) panels round a narrow felt, none overlapping
        ("snarples", 8, [{"auction", "play"}, {"auction", "settle"}, {"auction"}], True),
        ("snarples", 7, [{"auction", "play"}, {"auction", "settle"}, {"auction"}], True),
    ],
    ids=[
        "batak",
        "rook",
        "snarples-6",
        "donut-6",
        "horsethief-5",
        "snarples-8-phone",
        "snarples-7-phone",
    ],
)
def test_a_deal_of_the_family_games_in_the_browser(
    browser: Browser,
    server: ThreadServer,
    preset: str,
    players: int | None,
    expected: list[set[str]],
    phone: bool,
) -> None:
    """The form makes the table, the page asks each phase by its control, a deal is played."""
    if phone:
        context = browser.new_context(
            viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
        )
    else:
        context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.http}/")
    page.fill("#create-name", "Asha")
    page.select_option("#create-preset", preset)
    # The expert plays every game of the family now: every level is offered, with no note.
    assert page.locator("#create-level option[value='expert']").count() == 1
    assert page.inner_text("#level-note").strip() == ""
    if players is not None:
        page.select_option("#create-players", str(players))
    else:
        assert page.locator("#create-players").is_hidden()
    if preset == "rook-call-partner":  # to 500 points: no count of deals to choose
        assert page.locator("#create-deals").is_hidden()
    if page.locator("#create-deals").is_visible():
        page.select_option("#create-deals", "1")
    page.click("#create-btn")
    page.wait_for_selector("#start-btn")
    if preset == "rook-call-partner":
        rules_text = page.locator(".rules-panel p.muted").first.text_content() or ""
        assert "first to 500 points" in rules_text and "deal(s)" not in rules_text, rules_text
    seats = players or 4
    assert page.locator(".lobby-seats li").count() == seats
    title = page.locator(".rules-title").first.text_content() or ""
    page.click("#start-btn")
    page.wait_for_selector(".felt")
    assert page.locator(".felt .seat").count() == seats
    # the seats sit apart round the table: no two panels overlap
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('.felt .seat')].map(s => {
            const r = s.getBoundingClientRect();
            return {x: r.x, y: r.y, width: r.width, height: r.height};
        })"""
    )
    assert len(boxes) == seats and all(b["width"] > 0 for b in boxes)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            apart = (
                a["x"] + a["width"] <= b["x"] + 1
                or b["x"] + b["width"] <= a["x"] + 1
                or a["y"] + a["height"] <= b["y"] + 1
                or b["y"] + b["height"] <= a["y"] + 1
            )
            assert apart, f"seats overlap: {a} {b}"
    phases: set[str] = set()
    greyed: set[int] = set()

    def dealt() -> bool:
        """A deal played, and the phases looked for asked (a drop needs the right upcard: up to
        six deals are played for it) or the match over."""
        s = state(page)
        played = [d for d in s["deals"] if not d["void"]] if s else []
        if not played:
            return False
        return any(e <= phases for e in expected) or bool(s["result"]) or len(played) >= 6

    import time

    deadline = time.monotonic() + 150
    while not dealt():
        assert time.monotonic() < deadline, (
            f"no deal played; phases {phases}; "
            f"{state(page)['obs']['phase']} {page.inner_text('.action-bar')}"
        )
        if not family_turn(page, phases, greyed):
            page.wait_for_timeout(40)
    final = state(page)
    row = next(d for d in final["deals"] if not d["void"])
    assert any(e <= phases for e in expected), f"{preset}: the page asked for {phases}"
    assert final["table"]["title"] in title
    assert page.locator(".scoreboard tbody tr").count() >= 1
    if not phone:  # every player's column in sight, with no sideways scrolling (Rook, 6 seats)
        overflow = page.evaluate(
            "(() => { const s = document.querySelector('.scoreboard .scroll');"
            " return s.scrollWidth - s.clientWidth; })()"
        )
        assert overflow <= 1, f"{preset}: the scoresheet scrolls sideways by {overflow}px"
    page.wait_for_selector(".deal-result, .match-result")
    if page.locator(".deal-result").count():
        summary = page.inner_text(".deal-result")
        assert "Asha" in summary
        if row["declarer"] is not None:
            assert f"bid {row['contract']}" in summary
    else:
        assert "Match over" in page.inner_text(".match-result")
    assert not errors, errors
    context.close()


@pytest.mark.parametrize("width", [1280, 390])
def test_a_rook_declarers_eighteen_cards_stay_on_the_screen(browser: Browser, width: int) -> None:
    """A Call Partner declarer holds 18 cards after the nest: the row overlaps them as it needs
    (it ran off the left edge, where the first cards could not be clicked)."""
    css = (Path(__file__).parents[1] / "src/callbreak/server/static/css/style.css").read_text()
    cards = "".join(f'<div class="card" data-card="{i}R">{i}</div>' for i in range(1, 19))
    page = browser.new_page(viewport={"width": width, "height": 800})
    try:
        page.set_content(
            f'<style>{css}</style><main><div class="hand" style="--n: 18">{cards}</div></main>'
        )
        boxes = page.locator(".hand .card").evaluate_all(
            "cs => cs.map(c => { const r = c.getBoundingClientRect(); return [r.left, r.right]; })"
        )
        assert len(boxes) == 18
        assert boxes[0][0] >= 0 and boxes[-1][1] <= width, boxes
        assert all(b[0] > a[0] for a, b in itertools.pairwise(boxes))  # each one shows
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        page.close()


@pytest.mark.parametrize(
    ("preset", "players"),
    [("rook-call-partner", None), ("oh-hell", 7), ("horsethief", 5), ("spades", None)],
)
def test_on_a_phone_the_facts_and_the_seats_stay_clear_and_on_the_screen(
    browser: Browser, server: ThreadServer, preset: str, players: int | None
) -> None:
    """The facts box (trump, partner, hand size) sat under the top seat panels at these tables,
    and a Spades side panel started off the left edge of the screen."""
    width = 390
    context = browser.new_context(
        viewport={"width": width, "height": 844}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.goto(f"{server.http}/")
    page.fill("#create-name", "Asha")
    page.select_option("#create-preset", preset)
    if players is not None:
        page.select_option("#create-players", str(players))
    page.click("#create-btn")
    page.click("#start-btn")
    page.wait_for_selector(".felt .seat")
    phases: set[str] = set()
    while not page.locator(".deal-info .info").count():  # Call Partner's: once bid and named
        if not family_turn(page, phases, set()):
            page.wait_for_timeout(40)
    # measured in one go: a message between two measures may draw the table again
    facts, felt, seats = page.evaluate(
        """() => {
            const box = (e) => {
                const r = e.getBoundingClientRect();
                return [r.left, r.top, r.right, r.bottom];
            };
            return [box(document.querySelector('.deal-info')), box(document.querySelector('.felt')),
                    [...document.querySelectorAll('.felt .seat')].map(box)];
        }"""
    )
    assert facts[3] <= felt[1] + 1, (facts, felt)  # above the felt, so under no panel
    assert all(s[0] >= 0 and s[2] <= width for s in seats), seats
    # no seat's panel covers the card it played (Spades' side panels, kept on the screen, did)
    while page.locator(".trick .card").count() < 3:
        if not family_turn(page, phases, set()):
            page.wait_for_timeout(40)
    covered = page.evaluate(
        """() => [...document.querySelectorAll('.trick .card')].filter(card => {
            const panel = document.querySelector(`.felt .seat[data-seat='${card.dataset.seat}']`);
            const a = card.getBoundingClientRect(), b = panel.getBoundingClientRect();
            return a.left < b.right - 1 && b.left < a.right - 1
                && a.top < b.bottom - 1 && b.top < a.bottom - 1;
        }).map(card => card.dataset.card)"""
    )
    assert covered == [], covered
    context.close()


def test_a_phones_result_card_shows_the_total_beside_a_dropped_name(browser: Browser) -> None:
    """ "(dropped)" after a name widened the first column until the total ran off the card."""
    css = (Path(__file__).parents[1] / "src/callbreak/server/static/css/style.css").read_text()
    head = "".join(f"<th>{h}</th>" for h in ("", "bid", "won", "points", "total"))
    row = (
        '<tr class="dropped"><td class="who">Sagarmatha {i}<span class="small"> (dropped)</span>'
        "</td><td>pass</td><td>–</td><td>+3</td><td data-col='total'>−12</td></tr>"
    )
    rows = "".join(row.format(i=i) for i in range(8))
    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        page.set_content(
            f"<style>{css}</style><div class='deal-result panel'><h2>Deal 3 result</h2>"
            f"<table class='scores'><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"
            "</div>"
        )
        card = page.locator(".deal-result").evaluate("e => e.getBoundingClientRect().right")
        totals = page.locator("td[data-col='total']").evaluate_all(
            "ts => ts.map(t => t.getBoundingClientRect().right)"
        )
        assert len(totals) == 8 and max(totals) <= card, (totals, card)
    finally:
        page.close()


def test_the_deal_result_gives_way_when_you_must_play(
    browser: Browser, server: ThreadServer
) -> None:
    """The result card stayed over the trick into the next deal's play (on a phone it hid the
    cards played): once the person must play, and it has been shown three seconds, it goes."""
    import time

    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.goto(f"{server.http}/")
    page.fill("#create-name", "Asha")
    page.select_option("#create-deals", "3")
    page.click("#create-btn")
    page.click("#start-btn")
    page.wait_for_selector(".felt")
    play_until([page], lambda: page.locator(".deal-result").count() > 0, timeout_s=90)
    shown = time.monotonic()

    def my_play_turn() -> bool:
        s = state(page)
        obs = s["obs"]
        return bool(obs["phase"] == "play" and obs["to_act"] == s["you"]["seat"])

    play_until([page], my_play_turn, timeout_s=60)
    page.wait_for_selector(".deal-result", state="detached", timeout=6000)
    assert time.monotonic() - shown >= 2.5  # not before it could be read
    context.close()
