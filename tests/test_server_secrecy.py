"""No client is ever sent a card it may not know (RULES.md §9), checked message by message.

Two people, two bots and a spectator play a whole match; every message each
socket received is kept raw.  Afterwards the match is rebuilt from the action
log, one action at a time, and every card name in every message (found by
pattern, wherever it sits in the JSON, debug fields included) must be one the
receiver may know at that moment: its own hand, or a card already played.
Void deals (too few calls) are provoked on purpose: their hands are never
played, so they must never show up at all.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from callbreak import Match
from callbreak.cards import CARD_NAMES, hand_names
from server_support import (
    CARD_RE,
    Client,
    ThreadServer,
    config,
    connect,
    create_table,
    db_url,
    join_table,
    play_turns,
    rebuild,
)


def visible_cards(match: Match, seat: int | None) -> set[str]:
    """What ``seat`` (None: a spectator) may know of the cards right now."""
    played: set[int] = set()
    deals = [entry.deal for entry in match.entries]
    if match.deal not in deals:
        deals.append(match.deal)
    for deal in deals:
        for _, cards, _ in deal.history:
            played.update(cards)
        played.update(deal.trick)
    names = {CARD_NAMES[c] for c in played}
    if seat is not None:
        names.update(hand_names(match.deal.hands[seat]))
    return names


@pytest.mark.asyncio
@pytest.mark.parametrize("kind", ["sqlite"])
async def test_no_message_holds_a_card_its_receiver_may_not_know(kind: str, tmp_path: Path) -> None:
    cfg = config(db_url(kind, tmp_path))
    with ThreadServer(cfg) as server:
        created = create_table(server.http, options={"match_deals": 2}, seed=11)
        code = created["code"]
        joined = join_table(server.http, code, "Guest")
        async with (
            connect(server.ws, code) as watcher,
            connect(server.ws, code, created["token"]) as host,
            connect(server.ws, code, joined["token"]) as guest,
        ):
            await host.send({"type": "start"})
            players = [host, guest]

            def lowest(client: Client) -> object:
                return client.obs["legal"][0]  # calls of 1 make void deals likely

            await play_turns(
                players,
                lambda: host.state is not None and host.state["result"] is not None,
                choose=lowest,
                timeout=120,
            )
            await watcher.state_where(lambda s: s["result"] is not None)
            await guest.state_where(lambda s: s["result"] is not None)
        final, log = rebuild(cfg.db, code)

    assert final.over
    voids = sum(1 for e in final.entries if e.deal.phase == "void")
    # the log again, one action at a time: what each seat may know after each step
    match = Match(final.rules, seed=final.seed)
    allowed: list[dict[int | None, set[str]]] = []
    hands: list[dict[int, list[str]]] = []
    for seq in range(len(log) + 1):
        allowed.append({s: visible_cards(match, s) for s in (None, 0, 1)})
        hands.append({s: hand_names(match.deal.hands[s]) for s in (0, 1)})
        if seq < len(log):
            match.act(log[seq].action)
    checked = 0
    for client, seat in ((host, 0), (guest, 1), (watcher, None)):
        for raw, message in zip(client.raw, client.messages, strict=True):
            for forbidden in ('"hands"', '"dealt"', '"hand_mask"', '"played_mask"'):
                assert forbidden not in raw
            if message["type"] != "state":
                continue
            seq = message["seq"]
            seen = set(CARD_RE.findall(raw))
            extra = sorted(seen - allowed[seq][seat])
            assert not extra, f"seat {seat} was sent {extra} at state {seq}"
            if message["obs"] is not None and seat is not None:
                assert sorted(message["obs"]["hand"]) == sorted(hands[seq][seat])
            checked += 1
    assert checked >= 3 * len(log)  # every action reached every socket
    assert voids >= 1  # seed 11 with calls of 1 throws a deal in: its hands stay secret
