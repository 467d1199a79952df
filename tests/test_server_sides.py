"""Spades, Oh Hell and Judgement at the online tables: partners are shown as partners, sitting
opposite, and a deal whose hand size changes says how many cards each seat holds.

The page draws them from data, never from a game's name: the faces' per-game table says which
seats are a side (``partnerships``) and whether the hand size changes deal by deal
(``hand_size_varies``), and every state carries the deal's ``hand_size``.  Whole deals go over
the real API and WebSockets; one Playwright check looks at the page itself.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright import sync_api as playwright_sync
from playwright.sync_api import Page

from callbreak import Rules
from callbreak.server.hub import game_levels, table_bots
from server_support import ThreadServer, chromium, config, create_table, db_url
from test_server_browser import ARGS, state, take_turn
from test_server_family import check_scoreboard, play_a_deal


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    with ThreadServer(config(db_url("sqlite", tmp_path))) as running:
        yield running


def test_the_faces_say_which_seats_are_a_side_and_whose_hand_size_changes(
    server: ThreadServer,
) -> None:
    games = httpx.get(f"{server.http}/api/meta").json()["faces"]["games"]
    for preset in ("spades", "oh-hell", "judgement", "callbreak", "rook-call-partner"):
        rules = Rules.preset(preset)
        face = games[rules.game]
        assert face["partnerships"] == [list(side) for side in rules.shape.partnerships]
        assert face["hand_size_varies"] == (rules.shape.schedule is not None)
    assert games[Rules.preset("spades").game]["partnerships"] == [[0, 2], [1, 3]]
    assert games[Rules.preset("oh-hell").game]["hand_size_varies"]
    # the expert searches sides and undealt cards over engine deals: every level is offered
    for preset in ("spades", "oh-hell", "judgement"):
        game = Rules.preset(preset).game
        assert "expert" in game_levels(game) and "medium" in game_levels(game)
        assert table_bots("expert", game) == ("expert:budget_ms=1000", None)


@pytest.mark.asyncio
async def test_a_whole_deal_of_spades_scores_by_side(
    server: ThreadServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR, logger="callbreak.server")
    code, clients, phases, final = await play_a_deal(server, "spades", {})
    assert {"call", "play"} <= phases
    check_scoreboard(server, code, final)
    row = next(d for d in final["deals"] if not d["void"])
    assert sum(row["tricks"]) == 13 and row["trump"] == "S"
    # the host (seat 0) and the guest (seat 1) are opponents; each shares its partner's score
    assert row["points"][0] == row["points"][2] and row["points"][1] == row["points"][3]
    assert row["totals"][0] == row["totals"][2] and row["totals"][1] == row["totals"][3]
    for client in clients:
        assert client.obs is not None and client.obs["hand_size"] == 13
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.asyncio
@pytest.mark.parametrize("preset", ["oh-hell", "judgement"])
async def test_an_oh_hell_deal_carries_its_hand_size_and_trump(
    server: ThreadServer, preset: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR, logger="callbreak.server")
    rules = Rules.preset(preset)
    assert rules.shape.schedule is not None
    first = rules.shape.schedule(rules)[0]
    code, clients, phases, final = await play_a_deal(server, preset, {})
    assert "play" in phases
    check_scoreboard(server, code, final)
    row = final["deals"][0]
    assert sum(row["tricks"]) == first and row["trump"] in (None, "S", "H", "D", "C")
    sizes = {
        message["obs"]["hand_size"]
        for client in clients
        for message in client.messages
        if message["type"] == "state" and message["obs"] is not None
    }
    assert first in sizes
    played = [
        message["obs"]
        for message in clients[0].messages
        if message["type"] == "state"
        and message["obs"] is not None
        and message["obs"]["phase"] == "play"
        and message["obs"]["deal_number"] == 1
    ]
    assert played and all(obs["hand_size"] == first for obs in played)
    assert all(obs["trump"] == row["trump"] for obs in played)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def _open(page: Page, base: str, preset: str) -> None:
    created = create_table(base, preset=preset, options={})
    page.goto(f"{base}{created['seat_url']}")
    page.click("#start-btn")
    page.wait_for_selector(".felt .seat")


def test_the_page_seats_partners_opposite_and_shows_the_hand_size(tmp_path: Path) -> None:
    """A whole deal of Spades by clicking, partners marked and opposite; then an Oh Hell table
    shows its deal's hand size and trump."""
    path = chromium()
    with (
        ThreadServer(config(db_url("sqlite", tmp_path), bot_delay_s=0.02)) as server,
        playwright_sync.sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path=path, args=ARGS)
        page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        _open(page, server.http, "spades")
        sides = page.locator(".felt .seat").evaluate_all(
            "ss => ss.map(s => [Number(s.dataset.seat), s.dataset.side,"
            " [...s.querySelectorAll('.badge')].map(b => b.textContent)])"
        )
        by_seat = {seat: (side, badges) for seat, side, badges in sides}
        assert {seat: side for seat, (side, _) in by_seat.items()} == {
            0: "0",
            1: "1",
            2: "0",
            3: "1",
        }
        assert "partner" in by_seat[2][1] and "side A" in by_seat[2][1]
        assert all("partner" not in by_seat[seat][1] for seat in (0, 1, 3))
        box = {seat: page.locator(f".seat[data-seat='{seat}']").bounding_box() for seat in range(4)}
        assert all(b is not None for b in box.values())
        you, partner = box[0], box[2]
        assert you is not None and partner is not None
        # opposite: straight across the felt from you, the opponents to either side
        assert abs(you["x"] - partner["x"]) < 40 and partner["y"] < you["y"] - 200
        assert box[1] is not None and box[3] is not None
        assert box[1]["x"] > you["x"] + 200 and box[3]["x"] < you["x"] - 200

        def deal_done() -> bool:
            s = state(page)
            return bool(s and any(not d["void"] and d["points"] for d in s["deals"]))

        deadline = 900
        while not deal_done():
            deadline -= 1
            assert deadline > 0, "the deal did not finish"
            if not take_turn(page):
                page.wait_for_timeout(60)
        row = next(d for d in state(page)["deals"] if d["points"])
        assert row["totals"][0] == row["totals"][2] and sum(row["tricks"]) == 13

        _open(page, server.http, "oh-hell")
        page.wait_for_selector(".deal-info .hand-size")
        oh_hell = Rules.preset("oh-hell")
        schedule = oh_hell.shape.schedule
        assert schedule is not None
        first = schedule(oh_hell)[0]
        assert page.inner_text(".deal-info .hand-size") == f"{first} cards each this deal"
        trump = state(page)["obs"]["trump"]
        assert trump is not None  # the turned-up card names it at once
        assert page.get_attribute(".deal-info .trump", "data-trump") == trump
        assert page.locator(".felt .seat .badge.team").count() == 0  # no sides in Oh Hell
        assert not errors
        browser.close()
