"""The solver's review of a finished deal over HTTP: who may read it, and every refusal.

A real server on loopback (SQLite), two people and two bots.  The analysis is
the real ``Analyst`` on the plain Python solver with a node limit and the
heuristic as the second opinion (no numba compilation), put in place of the
server's for the test.  While the match is played a review reaches only its
own seat; once the match is over it is public, as the record is.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import HTTPException

from callbreak import Match, Rules
from callbreak.analysis import Analyst, DealReview
from callbreak.bots.search.solver import Solver
from callbreak.engine import Deal
from callbreak.review import Reviewer, set_reviewer
from callbreak.server.app import cookie_name
from callbreak.server.review import TableReviews
from server_support import (
    Client,
    ThreadServer,
    config,
    connect,
    create_table,
    db_url,
    join_table,
    play_turns,
    rebuild,
    seeded_table,
)


def plain_analyst() -> Analyst:
    return Analyst(solver=Solver(compiled=False, node_limit=5_000), expert="heuristic")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    old = set_reviewer(Reviewer(plain_analyst))
    try:
        with ThreadServer(config(db_url("sqlite", tmp_path))) as running:
            yield running
    finally:
        set_reviewer(old)


def review(
    server: ThreadServer, code: str, deal: int, token: str | None = None, **params: Any
) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.get(
        f"{server.http}/api/tables/{code}/review",
        params={"deal": deal, **params},
        headers=headers,
        timeout=60,
    )


def no_misdeal(client: Client) -> Any:
    """The first legal action, but never a misdeal claim (deal 1 is to be played out)."""
    obs = client.obs
    return False if obs["phase"] == "misdeal" else obs["legal"][0]


def played(client: Client, number: int) -> bool:
    state = client.state
    return state is not None and any(
        d["number"] == number and d["points"] is not None and not d["void"] for d in state["deals"]
    )


@pytest.mark.asyncio
async def test_a_review_reaches_only_its_own_seat_until_the_match_is_over(
    server: ThreadServer,
) -> None:
    created = seeded_table(server, 5, options={"match_deals": 2})
    code, host = created["code"], created["token"]
    guest = join_table(server.http, code, "Guest")["token"]
    lobby = review(server, code, 1, host)
    assert lobby.status_code == 409 and "not started" in lobby.text
    async with connect(server.ws, code, host) as me, connect(server.ws, code, guest) as other:
        await me.send({"type": "start"})
        await me.state_where(lambda s: s["table"]["status"] == "playing")
        running = review(server, code, 1, host)
        assert running.status_code == 409 and "still being played" in running.text
        await play_turns([me, other], lambda: played(me, 1), choose=no_misdeal)

        # Deal 2 is being played: deal 1 reviews for its own seat, by token or cookie.
        mine = review(server, code, 1, host)
        assert mine.status_code == 200, mine.text
        document = mine.json()
        assert document["seat"] == 0 and document["deal"] == 1
        decisions = document["review"]["decisions"]
        assert [d["trick"] for d in decisions] == list(range(1, 14))
        assert all(d["text"].startswith(f"trick {d['trick']}:") for d in decisions)
        assert "against best defence" in document["review"]["call"]["text"]
        by_cookie = httpx.get(
            f"{server.http}/api/tables/{code}/review",
            params={"deal": 1},
            cookies={cookie_name(code): host},
            timeout=60,
        )
        assert by_cookie.status_code == 200 and by_cookie.json() == document
        theirs = review(server, code, 1, guest)
        assert theirs.status_code == 200 and theirs.json()["seat"] == 1

        # Nobody else reads seat 0's review while the match is played.
        assert review(server, code, 1, guest, seat=0).status_code == 403
        assert review(server, code, 1).status_code == 403
        assert review(server, code, 1, seat=0).status_code == 403
        assert review(server, code, 1, "forged-token", seat=0).status_code == 403
        for response in (review(server, code, 2, host), review(server, code, 2, guest)):
            assert response.status_code == 409 and "still being played" in response.text
        assert review(server, code, 3, host).status_code == 404
        assert review(server, code, 0, host).status_code == 404
        assert review(server, "ZZZZZZ", 1, host).status_code == 404
        assert review(server, code, 1, host, seat=7).status_code == 422  # no such seat
        # No review ever travels over a socket.
        for client in (me, other):
            assert not any("makeable" in raw or '"decisions"' in raw for raw in client.raw)

        await play_turns(
            [me, other], lambda: me.state is not None and me.state["result"] is not None
        )

    # Over: every review is public, as the record is.
    public = review(server, code, 1, seat=0)
    assert public.status_code == 200 and public.json() == document
    assert review(server, code, 2, seat=1).status_code == 200
    assert review(server, code, 1).status_code == 422
    assert review(server, code, 1, seat=4).status_code == 422

    # The document is the analysis of the deal as the log rebuilds it.
    match, _ = rebuild(server.config.db, code)
    deal = next(e.deal for e in match.entries if e.number == 1 and e.deal.phase == "over")
    expected = plain_analyst().deal(deal, 0, 1).json()
    got = document["review"]
    for line in got["decisions"]:
        del line["text"]
    del got["call"]["text"], got["valued"]
    assert got == expected


def test_a_game_the_solver_does_not_play_is_reviewable(server: ThreadServer) -> None:
    """Donut has no call for the solver: its table offers the review (by playouts), and a
    deal not yet played is refused as unfinished, not as an unreviewable game."""
    created = create_table(server.http, preset="donut", options={})
    response = review(server, created["code"], 1, created["token"])
    assert response.status_code == 409, response.text
    assert "Donut" not in response.text


class _Gated:
    """An analyst that waits for the test, counting its reviews."""

    def __init__(self, gate: threading.Event) -> None:
        self.gate = gate
        self.calls = 0
        self.inner = Analyst(
            solver=Solver(compiled=False, node_limit=2_000), expert=None, from_trick=12
        )

    def deal(self, deal: Deal, seat: int, number: int) -> DealReview:
        self.calls += 1
        assert self.gate.wait(30)
        return self.inner.deal(deal, seat, number)


def test_one_review_for_many_askers_and_a_busy_queue_says_so() -> None:
    gate = threading.Event()
    gated = _Gated(gate)
    old = set_reviewer(Reviewer(lambda: gated))
    match = Match(Rules.preset("callbridge").replace(misdeal="off"), seed=2)
    while len(match.scored_deals) < 2:
        match.act(match.legal()[0])
    first, second = (e.deal for e in match.scored_deals)

    async def scenario() -> None:
        reviews = TableReviews(queue=1)
        try:
            asks = [asyncio.ensure_future(reviews.review(first, 0, 1)) for _ in range(3)]
            await asyncio.sleep(0.05)
            with pytest.raises(HTTPException) as busy:
                await reviews.review(second, 0, 2)
            assert busy.value.status_code == 503
            asks[0].cancel()  # one asker leaves: the others still get the answer
            gate.set()
            answers = await asyncio.gather(*asks[1:])
            assert answers[0] is answers[1] and gated.calls == 1
            assert (await reviews.review(second, 0, 2)).number == 2
        finally:
            gate.set()
            reviews.close()

    try:
        asyncio.run(scenario())
    finally:
        set_reviewer(old)


@pytest.mark.asyncio
async def test_a_donut_deal_is_reviewed_by_playouts(server: ThreadServer) -> None:
    created = seeded_table(server, 3, preset="donut", options={})
    code, host = created["code"], created["token"]
    async with connect(server.ws, code, host) as me:
        await me.send({"type": "start"})
        await me.state_where(lambda s: s["table"]["status"] == "playing")
        assert me.state is not None and me.state["table"]["reviewable"] is True
        assert me.state["table"]["review_note"].startswith("Playouts with the hands shown")
        await play_turns([me], lambda: played(me, 1))
        mine = review(server, code, 1, host)
        assert mine.status_code == 200, mine.text
        document = mine.json()["review"]
        assert document["method"] == "playouts with the hands shown"
        assert "playouts with the hands shown" in document["call"]["text"]
        assert document["decisions"] and all(d["kind"] for d in document["decisions"])
        assert all(d["text"] for d in document["decisions"])
