"""The tables' HTTP API and a whole match over WebSockets, against SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from callbreak.record import replay
from server_support import (
    ThreadServer,
    config,
    connect,
    create_table,
    db_url,
    join_table,
    play_turns,
    rebuild,
)


@pytest.fixture(params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ThreadServer]:
    with ThreadServer(config(db_url(request.param, tmp_path))) as running:
        yield running


def test_create_and_inspect_a_table(server: ThreadServer) -> None:
    created = create_table(server.http, "Asha", level="easy", options={"max_call": 8})
    assert len(created["code"]) == 6 and created["token"]
    assert created["seat_url"].endswith(created["token"])
    info = httpx.get(f"{server.http}/api/tables/{created['code']}").json()
    assert info["status"] == "lobby" and info["level"] == "easy"
    assert info["rules"]["max_call"] == 8 and info["changed"] == {"max_call": 8}
    assert [s["kind"] for s in info["seats"]] == ["human", "open", "open", "open"]
    assert info["seats"][0]["name"] == "Asha"
    assert created["token"] not in str(info) and "token" not in str(info)
    page = httpx.get(f"{server.http}/t/{created['code']}")
    assert page.status_code == 200 and "<main" in page.text
    assert httpx.get(f"{server.http}/static/js/table.js").status_code == 200


def test_bad_tables_are_refused_with_the_reason(server: ThreadServer) -> None:
    post = httpx.post
    bad_option = post(f"{server.http}/api/tables", json={"name": "A", "options": {"nope": 1}})
    assert bad_option.status_code == 422 and "unknown rule option 'nope'" in bad_option.text
    bad_value = post(f"{server.http}/api/tables", json={"name": "A", "options": {"max_call": 99}})
    assert bad_value.status_code == 422 and "max_call" in bad_value.text
    bad_preset = post(f"{server.http}/api/tables", json={"name": "A", "preset": "poker"})
    assert bad_preset.status_code == 422 and "unknown preset" in bad_preset.text
    bad_level = post(f"{server.http}/api/tables", json={"name": "A", "level": "godlike"})
    assert bad_level.status_code == 422 and "medium" in bad_level.text
    assert post(f"{server.http}/api/tables", json={"name": ""}).status_code == 422
    huge = post(f"{server.http}/api/tables", content=b"{" + b" " * 20000 + b"}")
    assert huge.status_code == 413
    assert httpx.get(f"{server.http}/api/tables/ZZZZZZ").status_code == 404
    assert httpx.get(f"{server.http}/api/tables/../../etc").status_code == 404


def test_open_ended_rules_get_an_end(server: ThreadServer) -> None:
    created = create_table(server.http, preset="callbridge", options={"match_deals": 3})
    info = httpx.get(f"{server.http}/api/tables/{created['code']}").json()
    assert info["rules"]["match_end"] == "deals" and info["rules"]["match_deals"] == 3


def test_join_and_start(server: ThreadServer) -> None:
    created = create_table(server.http)
    code = created["code"]
    joined = join_table(server.http, code, "Bikram")
    assert joined["seat"] == 1 and joined["token"] != created["token"]
    taken = httpx.post(f"{server.http}/api/tables/{code}/join", json={"name": "C", "seat": 1})
    assert taken.status_code == 409
    none = httpx.post(f"{server.http}/api/tables/{code}/join", json={"name": "C", "seat": 4})
    assert none.status_code == 422 and "from 0 to 3" in none.text  # bad, not taken
    start = f"{server.http}/api/tables/{code}/start"
    guest = {"Authorization": f"Bearer {joined['token']}"}
    assert httpx.post(start, headers=guest).status_code == 403
    assert httpx.post(start, headers={"Authorization": "Bearer forged"}).status_code == 403
    host = {"Authorization": f"Bearer {created['token']}"}
    assert httpx.post(start, headers=host).status_code == 200
    assert httpx.post(start, headers=host).status_code == 409
    late = httpx.post(f"{server.http}/api/tables/{code}/join", json={"name": "Late"})
    assert late.status_code == 409 and "spectator" in late.text
    info = httpx.get(f"{server.http}/api/tables/{code}").json()
    assert info["status"] == "playing"
    assert [s["kind"] for s in info["seats"]] == ["human", "human", "bot", "bot"]
    assert httpx.get(f"{server.http}/api/records/{code}.json").status_code == 404


@pytest.mark.asyncio
async def test_a_whole_match_is_stored_as_a_record(server: ThreadServer) -> None:
    created = create_table(server.http, options={"match_deals": 2})
    code = created["code"]
    async with connect(server.ws, code, created["token"]) as me:
        assert me.state is not None and me.state["you"] == {
            "seat": 0,
            "role": "player",
            "host": True,
        }
        await me.send({"type": "start"})
        await me.state_where(lambda s: s["table"]["status"] == "playing")
        await play_turns([me], lambda: me.state is not None and me.state["result"] is not None)
        final = me.state
    assert final is not None
    seqs = [m["seq"] for m in me.messages if m["type"] == "state"]
    assert seqs == sorted(seqs) and set(range(final["seq"] + 1)) <= set(seqs)
    response = httpx.get(f"{server.http}/api/records/{code}.json")
    assert response.status_code == 200
    assert "attachment" in response.headers["content-disposition"]
    record = response.json()
    report = replay(record)
    assert report.complete and [str(t) for t in report.totals] == final["result"]["totals"]
    assert record["seats"][0] == {"name": "Host", "player": "human"}
    assert record["seats"][1]["player"] == "bot:heuristic"
    history = httpx.get(f"{server.http}/api/history").json()
    assert any(row["code"] == code and row["winners"] == report.winners for row in history)
    match, actions = rebuild(server.config.db, code)
    assert match.over and len(actions) == final["seq"]
    assert [a.seq for a in actions] == list(range(len(actions)))
    page = httpx.get(f"{server.http}/history")
    assert page.status_code == 200


def test_serve_refuses_a_database_it_cannot_drive() -> None:
    from typer.testing import CliRunner

    from callbreak.cli.main import app

    result = CliRunner().invoke(app, ["serve", "--db", "mysql://me@db/cb"])
    assert result.exit_code == 2
    assert "unsupported database" in " ".join(result.output.split())
    assert "--redis" in CliRunner().invoke(app, ["serve", "--help"]).output


def test_input_json_cannot_echo_is_a_422_not_a_500(server: ThreadServer) -> None:
    # FastAPI's 422 repeats the input; NaN, Infinity and lone surrogates cannot be written
    # back as JSON, so these used to be 500s.
    url = f"{server.http}/api/tables"
    raw = {"Content-Type": "application/json"}
    for body in (
        b'{"name": "A", "grace_s": NaN}',
        b'{"name": "A", "grace_s": Infinity}',
        b'{"name": "A", "seat": NaN}',
        b'{"name": "\\ud800"}',
        b'{"name": "A", "level": "\\ud800"}',
    ):
        response = httpx.post(url, content=body, headers=raw)
        assert response.status_code == 422, (body, response.text)
        assert response.json()["detail"][0]["loc"][0] == "body"
    infinite = httpx.post(
        url, content=b'{"name": "A", "options": {"overtrick_points": Infinity}}', headers=raw
    )
    assert infinite.status_code == 422 and "overtrick_points" in infinite.text
    code = create_table(server.http)["code"]
    join = httpx.post(f"{url}/{code}/join", content=b'{"name": "\\ud800"}', headers=raw)
    assert join.status_code == 422


def test_names_of_only_spaces_and_chunked_giants_are_refused(server: ThreadServer) -> None:
    url = f"{server.http}/api/tables"
    blank = httpx.post(url, json={"name": "   "})
    assert blank.status_code == 422 and "only spaces" in blank.text
    code = create_table(server.http, name="  Asha  ")["code"]
    assert httpx.get(f"{url}/{code}").json()["seats"][0]["name"] == "Asha"
    assert httpx.post(f"{url}/{code}/join", json={"name": " "}).status_code == 422
    # a NUL (PostgreSQL cannot store it: a 500 there) and a right-to-left override are refused;
    # the joiners of Devanagari names are not
    for bad in ("a\u0000b", "x\u202ey", "a\u2028b"):
        refused = httpx.post(f"{url}/{code}/join", json={"name": bad})
        assert refused.status_code == 422 and "U+" in refused.text, refused.text
    invisible = httpx.post(f"{url}/{code}/join", json={"name": "\u200b"})
    assert invisible.status_code == 422 and "only spaces" in invisible.text
    assert httpx.post(f"{url}/{code}/join", json={"name": "क्\u200dष"}).status_code == 200

    def chunks() -> Iterator[bytes]:  # no Content-Length: sent chunked
        yield b'{"name": "A", "pad": "'
        for _ in range(64):
            yield b"x" * 1024
        yield b'"}'

    giant = httpx.post(url, content=chunks(), headers={"Content-Type": "application/json"})
    assert giant.status_code == 413

    def small() -> Iterator[bytes]:
        yield b'{"name": '
        yield b'"Chunky"}'

    chunked = httpx.post(url, content=small(), headers={"Content-Type": "application/json"})
    assert chunked.status_code == 201


def test_codes_are_read_in_capitals_everywhere(server: ThreadServer) -> None:
    created = create_table(server.http)
    lower = created["code"].lower()
    host = {"Authorization": f"Bearer {created['token']}"}
    assert httpx.get(f"{server.http}/api/tables/{lower}").status_code == 200
    assert httpx.post(f"{server.http}/api/tables/{lower}/start", headers=host).status_code == 200
    far = httpx.get(f"{server.http}/api/history", params={"offset": 2**63, "limit": 5})
    assert far.status_code == 200 and far.json() == []
