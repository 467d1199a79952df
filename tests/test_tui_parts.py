"""The table's parts that need no terminal: hint reasons, hand layout, the session's record."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from callbreak import Deal, Rules
from callbreak.advice import explain, hint_spec
from callbreak.cards import parse_card
from callbreak.engine.tricks import beats
from callbreak.record import read_records, replay
from callbreak.tui.render import layout_hand, render_hand, render_said, sort_hand
from callbreak.tui.session import Session, level_of, next_free_path


def test_every_hint_reason_fits_the_situation() -> None:
    """For every legal card of many random positions: a reason, and the right one when plain."""
    rules = Rules.preset("callbreak")
    rng = random.Random(5)
    checked = 0
    for seed in range(30):
        deal = Deal(rules, seed=seed, dealer=seed % 4)
        while deal.to_act is not None:
            seat = deal.to_act
            obs = deal.observation(seat)
            for action in obs.legal:
                reason = explain(obs, action)
                assert reason, (obs.phase, action)
                if obs.phase != "play" or len(obs.legal) == 1:
                    continue
                need = (obs.calls[seat] or 0) - obs.tricks_won[seat]
                trick = [parse_card(c) for c in obs.trick.cards]
                if len(trick) == 3 and need > 0:
                    win = trick[0]
                    for card in trick[1:]:
                        if beats(card, win, 0):
                            win = card
                    if beats(parse_card(str(action)), win, 0):
                        assert reason == f"wins the trick: you still need {need}"
                        checked += 1
                if need <= 0 and trick and "ducks" in reason:
                    assert "your call is made" in reason
            deal.act(rng.choice(obs.legal) if obs.phase != "call" else 3)
    assert checked > 20


def test_call_and_misdeal_reasons() -> None:
    rules = Rules.preset("callbreak")
    deal = Deal(rules, seed=7, dealer=0)
    assert explain(deal.observation(1), 4).startswith("your hand rates about")
    hands = [
        "AH KH QH JH TH 9H 8H AD KD QD JD TD 9D",
        "AS KS QS JS TS 9S 8S 7H 6H 5H 4H 3H 2H",
        "7S 6S 5S 4S 3S 2S 8D 7D 6D 5D 4D 3D 2D",
        "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
    ]
    misdeal = Deal(rules, hands, dealer=3)
    assert misdeal.phase == "misdeal" and misdeal.to_act == 0
    obs = misdeal.observation(0)
    assert "no spade" in explain(obs, True)
    assert "play it" in explain(obs, False)


def test_hand_sorting_and_layout_fit_80_columns() -> None:
    deal = Deal(Rules.preset("callbreak"), seed=1, dealer=0)
    hand = sort_hand(deal.hand(0))
    suits = [c[-1] for c in hand]
    order = "SHCD"
    assert suits == sorted(suits, key=order.index)
    for width in (60, 78, 118):
        layout = layout_hand(hand, width)
        assert layout.starts[-1] + layout.card_width <= width
        assert [layout.index_at(x) for x in layout.starts] == list(range(len(hand)))
        rows = render_hand(layout, legal=frozenset(hand[:2]), cursor=0).plain.splitlines()
        assert len(rows) == 4
    roomy = layout_hand(hand, 118)
    assert roomy.card_width == 6
    assert layout_hand(hand, 78).card_width == 4


def test_session_records_seats_and_new_matches_keep_old_records(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    session = Session.start(
        Rules.preset("callbreak"), "heuristic:blunder=0.35", seed=4, name="Asha", record=record
    )
    session.save()
    document = read_records(record)[0]
    assert document["seats"][0] == {"name": "Asha", "player": "human"}
    assert document["seats"][1] == {"name": "East", "player": "bot:heuristic:blunder=0.35"}
    assert session.seat_kind(1) == "easy" == level_of("heuristic:blunder=0.35")
    assert session.describe_void("misdeal claimed by seat 2 (holds no spade)") == (
        "misdeal claimed by North (holds no spade)"
    )
    assert replay(document).complete is False
    assert not list(tmp_path.glob(".*"))  # the temporary file is gone
    fresh = session.next_match()
    assert fresh.record == tmp_path / "game-2.json"
    record.with_name("game-2.json").write_text("{}")
    assert next_free_path(record) == tmp_path / "game-3.json"
    assert hint_spec() in ("heuristic", "expert:budget_ms=300")


def test_an_illegal_action_through_the_session_changes_nothing() -> None:
    session = Session.start(Rules.preset("callbreak"), "heuristic", seed=3)
    while not session.human_to_act:
        seat = session.to_act
        assert seat is not None
        session.apply_bot(seat, session.decide(seat, session.bot_view(seat)))
    before = session.view()
    with pytest.raises(ValueError, match="not a call"):
        session.act(99)
    assert session.view() == before
    with pytest.raises(RuntimeError):
        session.apply_bot(0, 3)


def test_a_rook_declarers_eighteen_cards_fit_in_80_columns() -> None:
    """After taking the nest a Call Partner declarer holds 18 cards: each must keep its own
    columns (clicks land on the card drawn there), the Rook's long face filling its card."""
    hand = ["14R", "13R", "10R", "5R", "14Y", "12Y", "7Y", "5Y", "14G", "11G", "8G", "6G"]
    hand += ["13B", "10B", "9B", "6B", "5B", "ROOK"]
    layout = layout_hand(hand, 78)
    assert layout.starts[-1] + layout.card_width <= 78
    assert all(b >= a + layout.card_width for a, b in itertools.pairwise(layout.starts))
    assert [layout.index_at(start) for start in layout.starts] == list(range(len(hand)))
    assert "ROOK" in render_hand(layout).plain


def test_eight_seats_bids_fit_a_short_middle_in_two_columns() -> None:
    """Snarples at 8 seats in 80×24: the middle has nine rows; the dealer's row and the high
    bid were cut when the list ran down one column."""
    names = [f"Seat {s + 1}" for s in range(8)]
    said = ["1", "pass", "pass", "pass", "pass", "–", "–", "–"]
    text = render_said(
        list(range(8)),
        names,
        said,
        to_act=5,
        title="Deal 1 · auction",
        footer="high bid 1",
        facts="bid 1 by Seat 1",
        height=9,
    ).plain
    lines = text.splitlines()
    assert len(lines) <= 9
    assert all(name in text for name in names) and "high bid 1" in text
    roomy = render_said(
        list(range(8)), names, said, to_act=5, title="t", footer="f", height=20
    ).plain
    assert len(roomy.splitlines()) == 8 + 4  # one column where there is room
