"""No client is ever sent a card it may not know (docs/rules/what-bots-know.md), checked
message by message.

Two people, two bots and a spectator play a whole match; every message each
socket received is kept raw.  Afterwards the match is rebuilt from the action
log, one action at a time, and every card name in every message (found by
pattern, wherever it sits in the JSON, debug fields included) must be one the
receiver may know at that moment: its own hand, or a card already played.
Void deals (too few calls) are provoked on purpose: their hands are never
played, so they must never show up at all.
"""

from __future__ import annotations

import re
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
    db_url,
    join_table,
    play_turns,
    rebuild,
    seeded_table,
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
        created = seeded_table(server, 11, options={"match_deals": 2})
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


STANDARD_RE = re.compile(r"\b[2-9TJQKA][SHDC]\b")
ROOK_RE = re.compile(r"\b(?:1[0-4]|[1-9])[RYGB]\b|\bROOK\b")
FAMILY = [
    ("callbreak-bhoos", {"match_deals": 1}),
    ("callbridge", {"match_deals": 1}),
    ("batak-ihale", {"match_deals": 1}),
    ("batak-koz-maca", {"match_deals": 1}),
    ("rook-call-partner", {"match_deals": 1}),
    ("snarples", {"players": 6}),
    ("donut", {"players": 5}),
    ("horsethief", {"players": 3}),
]


def family_visible(match: Match, seat: int | None) -> set[str]:
    """What ``seat`` (None: a spectator) may know in any game of the family right now.

    Public: every card played, face-up cards, a called partner card.  A seat also
    knows every card it was dealt or drew (its hand now), what it threw away
    itself (Horsethief's exchange, the Rook bidder's discards), and the Rook nest
    once it took it as the bidder (and, calling a partner, the names of the cards it
    may call).  Never another hand, the stock, or the nest.
    """
    names: set[str] = set()
    deals = [entry.deal for entry in match.entries]
    if match.deal not in deals:
        deals.append(match.deal)
    for deal in deals:
        played = 0
        for _, cards, _ in deal.history:
            for card in cards:
                played |= 1 << card
        for card in deal.trick:
            played |= 1 << card
        names.update(deal.names_of(played))
        if deal.upcard is not None:
            names.add(deal.deck.names[deal.upcard])
        if deal.partner_card is not None:
            names.add(deal.deck.names[deal.partner_card])
        if seat is None:
            continue
        names.update(deal.names_of(deal.hands[seat] | deal.dealt[seat]))
        names.update(
            str(action)
            for phase, who, action in deal.log
            if who == seat and phase in ("discard", "exchange")
        )
        if seat == deal.declarer and deal.nest and deal.phase != "auction":
            names.update(deal.names_of(deal.nest))
        if deal is match.deal and deal.to_act == seat and deal.phase == "partner":
            # the cards it may call: every one but its discards, which tells it nothing
            names.update(str(action) for action in deal.legal())
    return names


@pytest.mark.asyncio
@pytest.mark.parametrize(("preset", "options"), FAMILY, ids=[p for p, _ in FAMILY])
async def test_no_game_sends_a_card_its_receiver_may_not_know(
    preset: str, options: dict[str, object], tmp_path: Path
) -> None:
    """A deal of every other preset, with bots: the same check, any deck, nest and stock."""
    cfg = config(db_url("sqlite", tmp_path))
    with ThreadServer(cfg) as server:
        created = seeded_table(server, 4, preset=preset, options=options)
        code = created["code"]
        joined = join_table(server.http, code, "Guest")
        async with (
            connect(server.ws, code) as watcher,
            connect(server.ws, code, created["token"]) as host,
            connect(server.ws, code, joined["token"]) as guest,
        ):
            await host.send({"type": "start"})

            def played_a_deal() -> bool:
                state = host.state
                return state is not None and any(not d["void"] for d in state["deals"])

            await play_turns([host, guest], played_a_deal, timeout=120)
            seq = host.seq
            await watcher.state_where(lambda s: s["seq"] >= seq)
            await guest.state_where(lambda s: s["seq"] >= seq)
        final, log = rebuild(cfg.db, code)

    card_re = ROOK_RE if final.rules.game == "rook" else STANDARD_RE
    match = Match(final.rules, seed=final.seed)
    allowed: list[dict[int | None, set[str]]] = []
    for seq in range(len(log) + 1):
        allowed.append({s: family_visible(match, s) for s in (None, 0, 1)})
        if seq < len(log):
            match.act(log[seq].action)
    checked = 0
    for client, seat in ((host, 0), (guest, 1), (watcher, None)):
        for raw, message in zip(client.raw, client.messages, strict=True):
            for forbidden in ('"hands"', '"dealt"', '"hand_mask"', '"played_mask"', '"stock"'):
                assert forbidden not in raw
            if message["type"] != "state" or message["seq"] > len(log):
                continue
            seen = set(card_re.findall(raw))
            extra = sorted(seen - allowed[message["seq"]][seat])
            assert not extra, f"{preset}: seat {seat} was sent {extra} at state {message['seq']}"
            checked += 1
    assert checked >= 3 * len(log)
