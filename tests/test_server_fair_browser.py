"""A fair table in a real browser: the commitment in the waiting room, the contribution sent at
the Start, and the result card's check of the shuffle (set up as ``test_server_browser.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser

from server_support import ThreadServer, config, db_url
from test_server_browser import browser, create_by_form, play_until

__all__ = ["browser"]  # the module's fixture, shared


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    with ThreadServer(config(db_url("sqlite", tmp_path), bot_delay_s=0.02)) as running:
        yield running


def test_the_result_card_verifies_the_shuffle(browser: Browser, server: ThreadServer) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    code = create_by_form(page, server.http, "Asha")
    committed = httpx.get(f"{server.http}/api/tables/{code}").json()["fair"]["commitment"]
    assert page.inner_text(".lobby-table .fair-note code.commitment") == committed
    assert "connected" in page.inner_text(".lobby-seats li[data-seat='0']")
    page.click("#start-btn")
    page.wait_for_selector(".felt")
    play_until([page], lambda: page.locator("#record-link").count() > 0)
    page.wait_for_selector(".fair-check li[data-check='deals'].ok", timeout=20000)
    card = page.inner_text(".fair-check")
    assert "Fair deals: verified" in card
    assert page.locator(".fair-check li.failed").count() == 0
    checks = page.eval_on_selector_all(".fair-check li", "items => items.map(i => i.dataset.check)")
    assert checks == ["seen", "commitment", "contribution", "match-seed", "deals"]
    mine = page.evaluate(f"localStorage.getItem('callbreak.contribution.{code}')")
    record = httpx.get(f"{server.http}/api/records/{code}.json").json()
    assert record["fair"]["contributions"][0] == mine  # the host's bytes, sent with Start
    assert f"callbreak replay --verify-seed callbreak-{code}.json" in card
    assert not errors
    context.close()
