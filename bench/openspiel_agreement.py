"""Spades and Oh Hell checked deal for deal against OpenSpiel's ``spades`` and ``oh_hell``.

Both get the same cards (OpenSpiel's chance actions are the cards in dealing
order; our ``Deal`` takes the same deck), then the same random legal actions.
At every step the seat to act and the set of legal actions must agree, every
trick's winner must agree, and at the end each seat's points for the deal.

Where our rules and OpenSpiel's differ by design the harness sets our options
to OpenSpiel's, and says so here:

- Spades: OpenSpiel caps partners' bids together at 13 (``cap_side_bids=on``;
  our default lets each seat bid 0 to 13) and has no blind nil
  (``blind_nil=off``, our default).  OpenSpiel plays one deal from the sides'
  scores before it (``score_partnership_0/1``), which tell the bags carried;
  our deal reads them from its context (an OpenSpiel without those parameters
  starts every deal from 0, and so does the harness then).  Those scores are
  drawn from 0 to 499 here: OpenSpiel reads a negative score's bags with C++'s remainder (−23
  carries −3 bags), the rule book counts them up (7), so only scores of 0 or
  more compare.  The mercy rule and the target end the match, not the deal,
  so a deal's scores do not involve them.
  OpenSpiel never marks spades broken (its play does not set the flag it reads),
  so it never lets a seat lead a spade while it holds another suit; the rule
  book (``spades_broken``) allows it once a spade has been played.  At such a
  lead the harness checks that our legal cards are OpenSpiel's plus the
  leader's spades, and both play one of OpenSpiel's; the count of those leads
  is printed.
- Oh Hell: OpenSpiel always deals the first card to seat 0, whoever deals; we
  deal from the seat after the dealer, so the deck given to our deal is
  OpenSpiel's reordered to put every card in the same hand.  Its trump is
  always turned up (``trump=turn_up``, the ``oh-hell`` default), the hook is
  always on, and ``off_bid_penalty`` is our ``miss_points=off_bid``.  Judgement
  is the same game under options OpenSpiel lacks (trump by rotation, nothing
  for a miss), so it is not compared.

Run ``python bench/openspiel_agreement.py`` (OpenSpiel is in the dev extra);
it prints the counts of agreeing deals per preset, seat count and hand size.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from callbreak.engine.deal import Deal
from callbreak.engine.games import Context
from callbreak.points import Points
from callbreak.rules import Rules

RANKS = "23456789TJQKA"


@dataclass(frozen=True)
class Outcome:
    """One compared deal: whether it agreed, and where it first did not."""

    agreed: bool
    steps: int
    why: str = ""


def spades_card(action: int) -> str:
    """OpenSpiel spades: suit * 13 + rank, suits clubs, diamonds, hearts, spades."""
    return RANKS[action % 13] + "CDHS"[action // 13]


def oh_hell_card(action: int) -> str:
    """OpenSpiel oh_hell: rank * 4 + suit, suits clubs, diamonds, spades, hearts."""
    return RANKS[action // 4] + "CDSH"[action % 4]


class Mismatch(Exception):
    """The engines disagree; the message says where."""


KNOWN = {"broken_leads": 0}
"""Leads after spades were broken where OpenSpiel offered no spade (see the top)."""


def _play(
    deal: Deal,
    state: Any,
    rng: random.Random,
    card_of: Callable[[int], str],
    bid_base: int,
) -> int:
    """Plays the same random legal actions on both, comparing as it goes; returns steps."""
    actions: dict[Any, int] = {}
    for action in range(bid_base):
        actions[card_of(action)] = action
    steps = 0
    while not deal.over:
        if state.is_terminal():
            raise Mismatch(f"step {steps}: OpenSpiel's deal is over, ours is not")
        if state.current_player() != deal.to_act:
            raise Mismatch(
                f"step {steps}: seat {deal.to_act} acts, OpenSpiel's seat {state.current_player()}"
            )
        theirs = state.legal_actions()
        if deal.phase == "call":
            their_legal = sorted(a - bid_base for a in theirs)
            ours = sorted(deal.legal())
        else:
            their_legal = sorted(card_of(a) for a in theirs)
            ours = sorted(deal.legal())
        choices = deal.legal()
        if ours != their_legal:
            spades = [c for c in ours if deal.phase == "play" and str(c).endswith("S")]
            broken_lead = (
                deal.phase == "play" and not deal.trick and deal.trump == "S" and spades
                and deal.rules.spades_broken and sorted(their_legal + spades) == ours
            )  # fmt: skip
            if not broken_lead:
                raise Mismatch(f"step {steps} ({deal.phase}): legal {ours} against {their_legal}")
            KNOWN["broken_leads"] += 1
            choices = their_legal
        choice = rng.choice(choices)
        tricks_before = len(deal.history)
        deal.act(choice)
        state.apply_action(choice + bid_base if isinstance(choice, int) else actions[choice])
        steps += 1
        if len(deal.history) > tricks_before and not state.is_terminal():
            winner = deal.history[-1][2]
            if state.current_player() != winner:
                raise Mismatch(
                    f"trick {len(deal.history)}: won by seat {winner}, by OpenSpiel's seat "
                    f"{state.current_player()}"
                )
    if not state.is_terminal():
        raise Mismatch("our deal is over, OpenSpiel's is not")
    points = deal.points
    assert points is not None
    ours_points = [p.tenths / 10 for p in points]
    theirs_points = list(state.returns())
    if ours_points != theirs_points:
        raise Mismatch(f"points {ours_points} against OpenSpiel's {theirs_points}")
    return steps


def spades_deal(seed: int) -> Outcome:
    """One Spades deal from ``seed``, on both engines."""
    import pyspiel

    rng = random.Random(seed)
    before = (rng.randrange(0, 500), rng.randrange(0, 500))
    if "score_partnership_0" in pyspiel.load_game("spades").get_type().parameter_specification:
        game = pyspiel.load_game(
            "spades", {"score_partnership_0": before[0], "score_partnership_1": before[1]}
        )
    else:  # an OpenSpiel whose deals all start from no bags
        before = (0, 0)
        game = pyspiel.load_game("spades")
    state = game.new_initial_state()
    order = list(range(52))
    rng.shuffle(order)
    for card in order:
        state.apply_action(card)
    rules = Rules.preset("spades").replace(cap_side_bids=True)
    totals = tuple(Points.whole(before[seat % 2]) for seat in range(4))
    # OpenSpiel deals the first card to seat 0 and seat 0 bids first: dealer 3.
    deal = Deal(rules, deck=[spades_card(c) for c in order], dealer=3, context=Context(totals))
    try:
        steps = _play(deal, state, rng, spades_card, 52)
    except Mismatch as error:
        return Outcome(False, 0, str(error))
    return Outcome(True, steps)


def oh_hell_deal(seed: int, players: int, tricks: int, off_bid: bool = False) -> Outcome:
    """One Oh Hell deal of ``tricks`` cards a seat at ``players`` from ``seed``, on both."""
    import pyspiel

    rng = random.Random(seed)
    per_trick = rng.choice((1, 2)) if off_bid else 1
    game = pyspiel.load_game(
        "oh_hell",
        {
            "players": players,
            "num_tricks_fixed": tricks,
            "off_bid_penalty": off_bid,
            "points_per_trick": per_trick,
        },
    )
    dealer = rng.randrange(players)
    state = game.new_initial_state()
    state.apply_action(tricks)
    state.apply_action(dealer)
    order = list(range(52))
    rng.shuffle(order)
    dealt = players * tricks
    for card in order[: dealt + 1]:
        state.apply_action(card)
    # OpenSpiel's card k goes to seat k % players; ours from the seat after the dealer.
    ours = [
        order[(i // players) * players + (dealer + 1 + i % players) % players] for i in range(dealt)
    ]
    deck = ours + order[dealt:]
    rules = Rules.preset("oh-hell").replace(
        players=players,
        points_per_trick=per_trick,
        miss_points="off_bid" if off_bid else "tricks",
    )
    deal = Deal(rules, deck=[oh_hell_card(c) for c in deck], dealer=dealer, hand_size=tricks)
    try:
        steps = _play(deal, state, rng, oh_hell_card, 52)
    except Mismatch as error:
        return Outcome(False, 0, str(error))
    return Outcome(True, steps)


def _oh_hell(players: int, tricks: int) -> Callable[[int], Outcome]:
    """Deals of one seat count and hand size; odd seeds score OpenSpiel's ``off_bid_penalty``."""

    def run(seed: int) -> Outcome:
        return oh_hell_deal(seed, players, tricks, off_bid=seed % 2 == 1)

    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals per line (2000)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    failed = 0
    lines: list[tuple[str, Callable[[int], Outcome]]] = [("spades 4 seats 13 cards", spades_deal)]
    for players in range(3, 8):
        most = 51 // players
        for tricks in sorted({1, 2, most // 2, most}):
            lines.append((f"oh-hell {players} seats {tricks} cards", _oh_hell(players, tricks)))
    for label, run in lines:
        outcomes = [run(args.seed * 1_000_003 + i) for i in range(args.deals)]
        agreed = sum(o.agreed for o in outcomes)
        steps = sum(o.steps for o in outcomes)
        known = KNOWN["broken_leads"]
        note = f"; {known} leads after spades broken, see the top" if known else ""
        KNOWN["broken_leads"] = 0
        print(
            f"{label:<28} {agreed:>6}/{len(outcomes)} deals agree ({steps} actions compared{note})"
        )
        for outcome in outcomes:
            if not outcome.agreed:
                failed += 1
                print(f"  first disagreement: {outcome.why}")
                break
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
