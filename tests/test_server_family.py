"""Every game of the family at an online table: the form's data, seat counts, bots, whole deals.

Two people and bots play a whole deal of Batak İhaleli, Call Partner (Rook) and a
six-seat Snarples over the real API and WebSockets; what the server says about
the finished deal (the scoreboard) must be what the engine says when the
match is rebuilt from the stored log, for a game without calls as much as for
Call Break.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from callbreak import Rules
from callbreak.bots.base import CALLS
from callbreak.bots.levels import LEVELS
from callbreak.faces import scoring_text
from callbreak.games.rook import points_taken
from callbreak.record import replay
from callbreak.server import hub
from callbreak.server.hub import game_levels, table_bots
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

ALL_PRESETS = [
    "callbreak",
    "callbreak-bhoos",
    "callbridge",
    "batak-ihale",
    "batak-koz-maca",
    "rook-call-partner",
    "snarples",
    "donut",
    "horsethief",
    "spades",
    "oh-hell",
    "judgement",
]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    with ThreadServer(config(db_url("sqlite", tmp_path))) as running:
        yield running


def test_the_form_offers_every_game_with_its_seats_options_and_levels(
    server: ThreadServer,
) -> None:
    meta = httpx.get(f"{server.http}/api/meta").json()
    assert sorted(meta["presets"]) == sorted(ALL_PRESETS)
    seats = {name: tuple(p["seats"]) for name, p in meta["presets"].items()}
    assert seats["snarples"] == (3, 8) and seats["donut"] == (4, 6)
    assert seats["horsethief"] == (3, 5) and seats["batak-ihale"] == (4, 4)
    for name, info in meta["presets"].items():
        rules = Rules.preset(name)
        assert info["title"] == rules.title and info["game"] == rules.game
        assert [o["name"] for o in info["options"]] == list(rules.options())
        assert all(o["help"] for o in info["options"])
        # the expert searches every game of the family: every table may have it
        assert "expert" in info["levels"]
        assert "medium" in info["levels"]
    assert "match_deals" not in [o["name"] for o in meta["presets"]["snarples"]["options"]]
    faces = meta["faces"]
    for phase in ("auction", "trump", "drop", "settle", "exchange", "discard", "partner", "play"):
        assert faces["phases"][phase]["prompt"] and faces["phases"][phase]["control"]
    assert faces["phases"]["partner"]["control"] == "picker"
    assert set(faces["games"]) == {Rules.preset(p).game for p in ALL_PRESETS}


def test_every_level_plays_every_game(server: ThreadServer) -> None:
    assert game_levels("rook") == list(LEVELS)
    assert table_bots("hard", "batak") == ("expert:budget_ms=300", None)
    created = create_table(server.http, preset="batak-ihale", level="expert")
    assert created["bots"] == "expert:budget_ms=1000" and created["bot_note"] is None
    info = httpx.get(f"{server.http}/api/tables/{created['code']}").json()
    assert info["level"] == "expert" and info["bots"] == "expert:budget_ms=1000"


def test_a_level_without_a_bot_for_the_game_falls_back_with_a_note(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A bot that modelled the call games only would be listed so; its levels then fall back.
    monkeypatch.setitem(hub.BOT_POLICIES, "expert", frozenset({CALLS}))
    assert game_levels("rook") == ["easy", "medium"]
    assert table_bots("hard", "callbreak") == ("expert:budget_ms=300", None)
    spec, note = table_bots("expert", "batak")
    assert spec == "heuristic" and note is not None and "Call Break" in note


def test_every_preset_and_seat_count_makes_a_table(server: ThreadServer) -> None:
    for preset in ALL_PRESETS:
        rules = Rules.preset(preset)
        low, high = rules.shape.seats
        for players in sorted({low, high}):
            options: dict[str, Any] = {} if players == rules.players else {"players": players}
            if "match_deals" in rules.options():
                options["match_deals"] = 1
            created = create_table(server.http, preset=preset, options=options, seat=players - 1)
            info = httpx.get(f"{server.http}/api/tables/{created['code']}").json()
            assert len(info["seats"]) == players and info["game"] == rules.game
            assert info["seats"][players - 1]["kind"] == "human"
            assert info["rules"]["players"] == players
            assert info["scoring"] == scoring_text(Rules.from_dict(info["rules"]))  # its own
    too_many = httpx.post(
        f"{server.http}/api/tables",
        json={"name": "A", "preset": "horsethief", "options": {"players": 6}},
    )
    assert too_many.status_code == 422 and "3 to 5" in too_many.text
    bad_seat = httpx.post(
        f"{server.http}/api/tables", json={"name": "A", "preset": "batak-ihale", "seat": 5}
    )
    assert bad_seat.status_code == 422
    alien = httpx.post(
        f"{server.http}/api/tables",
        json={"name": "A", "preset": "snarples", "options": {"match_deals": 3}},
    )
    assert alien.status_code == 422 and "not an option of Snarples" in alien.text


def first_played_deal(client: Client) -> bool:
    """A deal has been played to its end (a thrown-in deal does not count)."""
    state = client.state
    return state is not None and any(not d["void"] for d in state["deals"])


def choose(client: Client) -> Any:
    """Bid the most in auctions (so a person often wins one), stay in, else the first legal."""
    obs = client.obs
    legal = obs["legal"]
    if obs["phase"] == "auction":
        bids = [b for b in legal if b != "pass"]
        return (
            bids[-1] if client.obs["seat"] == 0 and bids else "pass" if "pass" in legal else bids[0]
        )
    if obs["phase"] == "drop":
        return "in"
    if obs["phase"] == "exchange":
        return "done"
    return legal[0]


def match_over(client: Client) -> bool:
    return client.state is not None and client.state["result"] is not None


async def play_a_deal(
    server: ThreadServer,
    preset: str,
    options: dict[str, Any],
    until: Callable[[Client], bool] = first_played_deal,
) -> tuple[str, list[Client], set[str], dict[str, Any]]:
    """Host and guest (seats 0 and 1) with bots elsewhere, until one deal has been played."""
    created = seeded_table(server, 5, preset=preset, options=options)
    code = created["code"]
    joined = join_table(server.http, code, "Guest")
    phases: set[str] = set()
    async with (
        connect(server.ws, code, created["token"]) as host,
        connect(server.ws, code, joined["token"]) as guest,
        connect(server.ws, code) as watcher,
    ):
        await host.send({"type": "start"})
        await play_turns([host, guest], lambda: until(host), choose=choose, timeout=120)
        await watcher.state_where(lambda s: s["seq"] >= host.seq)
        for client in (host, guest, watcher):
            for message in client.messages:
                if message["type"] == "state" and message["obs"] is not None:
                    phases.add(message["obs"]["phase"])
        final = host.state
        assert final is not None
        return code, [host, guest, watcher], phases, final


def check_scoreboard(server: ThreadServer, code: str, final: dict[str, Any]) -> None:
    """The server's per-deal rows are the engine's facts of the rebuilt match."""
    match, _ = rebuild(server.config.db, code)
    rows = final["deals"]
    assert rows
    for row, entry in zip(rows, match.entries, strict=False):
        deal = entry.deal
        assert row["bids"] == [list(b) for b in deal.bids]
        assert row["contract"] == deal.contract and row["declarer"] == deal.declarer
        assert row["trump"] == deal.trump and row["tricks"] == list(deal.tricks)
        assert row["dropped"] == sorted(deal.dropped)
        assert row["points"] == (None if deal.points is None else [str(p) for p in deal.points])
        assert row["totals"] == [str(t) for t in entry.totals]
        if match.rules.game == "rook":
            assert row["card_points"] == points_taken(deal)
        else:
            assert row["card_points"] is None


@pytest.mark.asyncio
async def test_a_whole_deal_of_batak(
    server: ThreadServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR, logger="callbreak.server")
    code, _, phases, final = await play_a_deal(server, "batak-ihale", {"match_deals": 1})
    assert {"auction", "trump", "play"} <= phases
    check_scoreboard(server, code, final)
    row = next(d for d in final["deals"] if not d["void"])
    assert row["calls"] is None and row["contract"] is not None and row["trump"] in "SHDC"
    assert sum(row["tricks"]) == 13
    assert final["table"]["title"] == "Batak İhaleli"
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.asyncio
async def test_a_whole_deal_of_rook_call_partner(
    server: ThreadServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR, logger="callbreak.server")
    code, clients, phases, final = await play_a_deal(
        server, "rook-call-partner", {"match_deals": 1}
    )
    assert {"auction", "discard", "trump", "partner", "play"} <= phases
    check_scoreboard(server, code, final)
    row = final["deals"][0]
    assert row["partner_card"] is not None and row["trump"] in "RYGB"
    assert sum(row["card_points"]) == 200
    host = clients[0]
    # the declarer, and only the declarer, was shown the nest; the partner is named once known
    nests = {
        m["you"]["seat"]
        for c in clients
        for m in c.messages
        if m["type"] == "state" and m["obs"] and m["obs"]["nest"] is not None
    }
    assert nests <= {row["declarer"]}
    assert host.state is not None and host.state["table"]["deck"] == "rook"
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.asyncio
async def test_a_whole_deal_of_six_seat_snarples(
    server: ThreadServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR, logger="callbreak.server")
    code, _, phases, final = await play_a_deal(server, "snarples", {"players": 6})
    assert {"auction", "play"} <= phases
    assert len(final["table"]["seats"]) == 6
    assert [s["kind"] for s in final["table"]["seats"]] == ["human", "human"] + ["bot"] * 4
    check_scoreboard(server, code, final)
    row = next(d for d in final["deals"] if not d["void"])
    played = [s for s in row["dealt_in"] if s not in row["dropped"]]
    assert sum(row["tricks"]) == (5 if row["unplayed"] is None and len(played) > 1 else 0)
    assert final["table"]["lowest_wins"] and final["table"]["start"] == 16
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.asyncio
async def test_a_finished_family_match_is_a_record(server: ThreadServer) -> None:
    """Batak to its end (one deal): the record downloads and replays, as Call Break's does."""
    code, _, _, final = await play_a_deal(
        server, "batak-ihale", {"match_deals": 1}, until=match_over
    )
    assert final["result"]["record_url"] == f"/api/records/{code}.json"
    record = httpx.get(f"{server.http}/api/records/{code}.json").json()
    assert record["rules"]["preset"] == "batak-ihale"
    assert replay(record).complete
