"""Read a Bhoos tournament request and turn it into the observation of the seat that asks.

The server is stateless: everything a decision needs is in the request (the
calls, the tricks so far, the trick in progress and the asker's own cards), so
each request is rebuilt into a ``Deal`` and the observation is taken from it
with the engine's one builder (``Deal.observation``).  The other seats' cards
are not in the request; they are filled with placeholders — the unseen cards,
dealt deterministically to the other seats in the right numbers and so that
every card they played stays legal under the rules (a seat that did not follow
a suit is given none of it, one that did not overtake no higher card).  The
observation holds only the asker's own hand, so the placeholders never reach
the bot; they exist so that the history replays through the real engine,
which checks every call and card of it.

Everything that does not add up is a ``BhoosRequestError`` naming what is
wrong (the server answers 400 with it): missing or mistyped fields, unknown or
repeated cards, a card both in the hand and already played, a trick led by the
wrong player, a card that breaks the rules, a wrong trick winner, a request
from a player whose turn it is not.  A card another seat could not have played
while holding a card it plays later is reported as that contradiction, before
any replay: the replay would blame it on placeholders, which nobody holds.

``totalPoints`` become the observation's match totals and ``round`` its deal
number; ``won`` is only checked to be a count, since the tricks won follow
from the history, which the engine replays.

Rules: the tournament's arena is the ``callbreak-bhoos`` preset.  It had no
minimum total of calls, so ``BHOOS_RULES`` sets ``min_total_calls`` to None;
the placeholder deal is replayed with ``misdeal = off`` (placeholders need not
look like a real deal), and the observation reports ``BHOOS_RULES``.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from callbreak.cards import (
    CARD_NAMES,
    DECK_SIZE,
    FULL_DECK,
    RANK_COUNT,
    SPADES,
    SUIT_NAMES,
    cards_of,
    parse_card,
)
from callbreak.engine import Deal, IllegalAction, Observation, observe
from callbreak.engine.deal import play_rules
from callbreak.engine.tricks import PlayRules, beats, legal_mask, trick_winner_offset
from callbreak.points import Points
from callbreak.rules import Rules

BHOOS_RULES = Rules.preset("callbreak-bhoos").replace(min_total_calls=None)
"""The tournament's rules: the ``callbreak-bhoos`` preset without a minimum total of calls."""

PLAYERS = 4
HAND = 13
BID, PLAY = "bid", "play"


class BhoosRequestError(ValueError):
    """A request that cannot be: the server answers 400 with ``{"error": str(error)}``."""


@dataclass(frozen=True)
class BhoosRequest:
    """A checked request: who asks, its time budget, and its observation."""

    kind: str
    """``bid`` or ``play``."""
    player_ids: tuple[str, ...]
    seat: int
    time_budget_ms: float
    observation: Observation
    decisions_left: int
    """Decisions this player still has to make in the round, this one included."""


# ------------------------------------------------------------------ fields
def _need(data: Mapping[str, Any], key: str, where: str = "") -> Any:
    if key not in data:
        raise BhoosRequestError(f"missing field {where}{key}")
    return data[key]


def _obj(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise BhoosRequestError(f"{what} must be a JSON object, not {type(value).__name__}")
    return value


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise BhoosRequestError(f"{what} must be a list, not {type(value).__name__}")
    return value


def _int(value: Any, what: str, low: int | None = None, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise BhoosRequestError(f"{what} must be a whole number, not {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        if high is None:
            raise BhoosRequestError(f"{what} must be at least {low}, not {value}")
        if low is None:
            raise BhoosRequestError(f"{what} must be at most {high}, not {value}")
        raise BhoosRequestError(f"{what} must be from {low} to {high}, not {value}")
    return value


NUMBER_LIMIT = 1e12
"""Larger than any budget or score a game can have; a 400-digit "number" is refused."""


def read_number(value: Any, what: str) -> float:
    """A finite JSON number of sensible size, else a BhoosRequestError naming ``what``."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise BhoosRequestError(f"{what} must be a number, not {value!r}")
    try:
        number = float(value)  # a huge int overflows here
    except OverflowError:
        number = math.inf
    if not math.isfinite(number) or abs(number) > NUMBER_LIMIT:
        raise BhoosRequestError(f"{what} must be a number of at most {NUMBER_LIMIT:g} either way")
    return number


def _card(value: Any, what: str) -> int:
    if not isinstance(value, str):
        raise BhoosRequestError(f"{what}: {value!r} is not a card name such as 1S, TD or 7H")
    try:
        return parse_card(value)
    except ValueError:
        raise BhoosRequestError(
            f"{what}: {value!r} is not a card (rank 2-9, T, J, Q, K or 1 for the ace, "
            "then suit S, H, C or D)"
        ) from None


class _Cards:
    """Every card named in the request, so a second mention anywhere is caught at once."""

    def __init__(self) -> None:
        self.where: dict[int, str] = {}

    def take(self, value: Any, what: str) -> int:
        card = _card(value, what)
        if card in self.where:
            raise BhoosRequestError(
                f"{what}: {CARD_NAMES[card]} is already in {self.where[card]}: "
                "every card can appear once"
            )
        self.where[card] = what
        return card


# ------------------------------------------------------------------ reading
def parse_request(kind: str, body: Any, rules: Rules = BHOOS_RULES) -> BhoosRequest:
    """Check a ``/bid`` or ``/play`` body and build the asking seat's observation."""
    if kind not in (BID, PLAY):
        raise BhoosRequestError(f"no such request {kind!r}: the protocol has bid and play")
    data = _obj(body, "the request")
    ids_raw = _list(_need(data, "playerIds"), "playerIds")
    if len(ids_raw) != PLAYERS or not all(isinstance(i, str) for i in ids_raw):
        raise BhoosRequestError(f"playerIds must list {PLAYERS} player ids (strings)")
    ids = tuple(ids_raw)
    if len(set(ids)) != PLAYERS:
        raise BhoosRequestError(f"playerIds must be {PLAYERS} different ids, not {list(ids)}")
    me_id = _need(data, "playerId")
    if me_id not in ids:
        raise BhoosRequestError(f"playerId {me_id!r} is not one of playerIds {list(ids)}")
    me = ids.index(me_id)
    budget = read_number(_need(data, "timeBudget"), "timeBudget")
    if budget < 0:
        raise BhoosRequestError(f"timeBudget must not be negative, not {budget}")
    context = _obj(_need(data, "context"), "context")
    round_ = context.get("round")
    deal_number = None if round_ is None else _int(round_, "context.round", 1, None)
    players = _obj(_need(context, "players", "context."), "context.players")
    if set(players) != set(ids):
        raise BhoosRequestError(
            f"context.players must have one entry for each of playerIds {list(ids)}, "
            f"not {sorted(players)}"
        )
    bids: list[int] = []
    totals: list[Points] = []
    for pid in ids:
        entry = _obj(players[pid], f"context.players[{pid!r}]")
        bids.append(_int(_need(entry, "bid", f"context.players[{pid!r}]."), f"{pid}'s bid", 0))
        total = read_number(entry.get("totalPoints", 0), f"{pid}'s totalPoints")
        totals.append(Points(round(total * 10)))
        if "won" in entry:
            _int(entry["won"], f"{pid}'s won", 0, HAND)

    seen = _Cards()
    hand_list = _list(_need(data, "cards"), "cards")
    mine = 0
    for value in hand_list:
        mine |= 1 << seen.take(value, "cards")
    history: list[tuple[int, list[int], int]] = []
    played: list[int] = []
    if kind == PLAY:
        for t, item in enumerate(_list(_need(data, "history"), "history")):
            where = f"history[{t}]"
            entry_ = _list(item, where)
            if len(entry_) != 3:
                raise BhoosRequestError(f"{where} must be [startIdx, [4 cards], winnerIdx]")
            leader = _int(entry_[0], f"{where} startIdx", 0, PLAYERS - 1)
            cards = _list(entry_[1], f"{where} cards")
            if len(cards) != PLAYERS:
                raise BhoosRequestError(f"{where} must hold {PLAYERS} cards, not {len(cards)}")
            taken = [seen.take(c, f"{where}") for c in cards]
            winner = _int(entry_[2], f"{where} winnerIdx", 0, PLAYERS - 1)
            history.append((leader, taken, winner))
        played_list = _list(_need(data, "played"), "played")
        if len(played_list) >= PLAYERS:
            raise BhoosRequestError(
                f"played holds {len(played_list)} cards: a trick in progress has 0 to {PLAYERS - 1}"
            )
        played = [seen.take(c, "played") for c in played_list]
    else:
        for key in ("history", "played"):
            if data.get(key):
                raise BhoosRequestError(f"a bid comes before any card: {key} must be empty")

    expected = HAND - len(history)
    if len(hand_list) != expected:
        raise BhoosRequestError(
            f"cards holds {len(hand_list)} cards; after {len(history)} tricks "
            f"{me_id} holds {expected}"
        )
    dealer = _dealer(kind, me, ids, bids, history, played)
    deal = _replay(rules, kind, me, ids, dealer, mine, bids, history, played)
    observation = observe(deal, me, totals, deal_number)
    # The placeholder deal ran with misdeal = off; the seat plays under the tournament's rules.
    observation = dataclasses.replace(observation, rules=rules)
    return BhoosRequest(
        kind, ids, me, budget, observation, HAND + 1 if kind == BID else len(hand_list)
    )


def _dealer(
    kind: str,
    me: int,
    ids: Sequence[str],
    bids: Sequence[int],
    history: Sequence[tuple[int, list[int], int]],
    played: Sequence[int],
) -> int:
    """The dealer, from who has called (a bid) or who led the first trick (a play).

    Calls go round from the seat after the dealer, who also leads the first
    trick; a player who has not called shows ``bid: 0``.
    """
    if kind == BID:
        if bids[me]:
            raise BhoosRequestError(
                f"{ids[me]} shows bid {bids[me]}: /bid asks for a call not made yet (bid 0)"
            )
        made = [seat for seat in range(PLAYERS) if bids[seat]]
        before = sorted((me - k) % PLAYERS for k in range(1, len(made) + 1))
        if sorted(made) != before:
            shown = ", ".join(f"{ids[s]}={bids[s]}" for s in range(PLAYERS))
            raise BhoosRequestError(
                f"the calls ({shown}) cannot come before {ids[me]}'s: calls go round in "
                "playerIds order, and a player who has not called shows bid 0"
            )
        return (me - len(made) - 1) % PLAYERS
    for seat in range(PLAYERS):
        if not bids[seat]:
            raise BhoosRequestError(
                f"{ids[seat]} shows bid 0, but every player calls before the first card"
            )
    first_leader = history[0][0] if history else (me - len(played)) % PLAYERS
    return (first_leader - 1) % PLAYERS


# ------------------------------------------------------------------ placeholders
def _plays(
    history: Sequence[tuple[int, list[int], int]], played: Sequence[int], leader_now: int
) -> list[tuple[int, int, int, int, int]]:
    """Every card played, in order: (seat, card, suit led, card winning before it, trick index).

    The trick index is ``len(history)`` for the trick in progress.
    """
    out = []
    tricks = [(leader, cards) for leader, cards, _ in history]
    tricks.append((leader_now, list(played)))
    trump = SPADES  # the Bhoos arena plays Call Break: spades are always trump
    for number, (leader, cards) in enumerate(tricks):
        led, win = -1, -1
        for offset, card in enumerate(cards):
            out.append(((leader + offset) % PLAYERS, card, led, win, number))
            if win < 0:
                led, win = card // RANK_COUNT, card
            elif beats(card, win, trump):
                win = card
    return out


def _placeholders(
    rules: Rules,
    me: int,
    ids: Sequence[str],
    mine: int,
    history: Sequence[tuple[int, list[int], int]],
    played: Sequence[int],
) -> list[int]:
    """Hands as dealt for every seat: the asker's real one, placeholders for the others.

    A card may go to a seat only if holding it would not have made any card
    that seat played illegal.  For the Call Break play rules this is a per-card
    test (holding more cards can only forbid more), so finding hands is a
    matching of the unseen cards to the seats' free places, solved by
    augmenting paths; the real deal is one answer, so a request from a real
    game always has one.  Cards and seats are tried in a fixed order, so the
    same request always gets the same placeholders.
    """
    leader_now = history[-1][2] if history else (me - len(played)) % PLAYERS
    plays = _plays(history, played, leader_now)
    pr = play_rules(rules)
    played_by = [0] * PLAYERS
    for seat, card, *_ in plays:
        played_by[seat] |= 1 << card
    unseen = FULL_DECK & ~mine & ~(played_by[0] | played_by[1] | played_by[2] | played_by[3])
    others = [s for s in range(PLAYERS) if s != me]
    room = {s: HAND - played_by[s].bit_count() for s in others}
    # What each seat still held when it played each card, from the known cards only.
    later = [0] * PLAYERS
    checks: list[tuple[int, int, int, int, int, bool, int]] = []
    for index in reversed(range(len(plays))):
        seat, card, led, win, number = plays[index]
        later[seat] |= 1 << card
        if seat != me and led >= 0:
            checks.append((seat, card, later[seat], led, win, number == 0, index))
    allowed: dict[int, list[int]] = {}
    forbidden = {s: 0 for s in others}
    contradictions: list[tuple[int, str]] = []
    for seat, card, known, led, win, first, index in checks:
        if not legal_mask(pr, known, led, win, first, True) >> card & 1:
            # Illegal with the cards this seat plays later alone: no placeholders can
            # make it legal, and the replay would blame it on invented cards.
            contradictions.append(_contradiction(pr, ids, plays, index, len(history)))
            continue
        suspects = unseen & (_suit(led) | _suit(rules.trump_suit))
        for candidate in cards_of(suspects & ~forbidden[seat]):
            hand = known | 1 << candidate
            if not legal_mask(pr, hand, led, win, first, True) >> card & 1:
                forbidden[seat] |= 1 << candidate
    if contradictions:
        raise BhoosRequestError(min(contradictions)[1])
    for card in cards_of(unseen):
        allowed[card] = [s for s in others if not forbidden[s] >> card & 1]
    owner = _match(allowed, room)
    if owner is None:
        raise BhoosRequestError(
            "no deal fits this history: the other players cannot hold the unseen cards "
            "(a player who did not follow a suit held none of it, one who did not overtake "
            "or trump held no card that would have)"
        )
    hands = list(played_by)
    hands[me] |= mine
    for card, seat in owner.items():
        hands[seat] |= 1 << card
    return hands


def _contradiction(
    pr: PlayRules,
    ids: Sequence[str],
    plays: Sequence[tuple[int, int, int, int, int]],
    index: int,
    tricks: int,
) -> tuple[int, str]:
    """Why the card ``plays[index]`` cannot be, from real cards only, and where that shows.

    The card is illegal whatever else its player held, because of a card the
    player plays later (and so held then).  The message names that later card
    and both tricks; the position (the later card's index in ``plays``) lets the
    caller report the contradiction that shows first.
    """
    seat, card, led, win, number = plays[index]
    who, name, won = ids[seat], CARD_NAMES[card], CARD_NAMES[win]
    later = [(i, play) for i, play in enumerate(plays) if i > index and play[0] == seat]
    for position, play in later:
        witness = play[1]
        if legal_mask(pr, 1 << card | 1 << witness, led, win, number == 0, True) >> card & 1:
            continue
        suit, witness_suit, trump = card // RANK_COUNT, witness // RANK_COUNT, pr.trump
        suit_led, here = SUIT_NAMES[led], _trick(number, tricks)
        then = f"but plays {CARD_NAMES[witness]} in {_trick(play[4], tricks)}"
        if witness_suit == led and suit != led:
            what = f"showed out of {suit_led} in {here} (played {name} to a {suit_led[:-1]} lead)"
        elif witness_suit == suit:
            what = f"did not beat the {won} in {here} (played {name})"
            then += ", which would have"
        elif witness_suit == trump and win // RANK_COUNT == trump and beats(witness, win, trump):
            what = f"showed out of {suit_led} and did not beat the {won} in {here} (played {name})"
            then += ", which would have"
        elif witness_suit == trump:
            what = (
                f"showed out of {suit_led} and did not trump in {here} "
                f"(played {name} to a {suit_led[:-1]} lead)"
            )
        else:
            what = (
                f"played {name} in {here}, which the rules forbid to a player holding "
                f"{CARD_NAMES[witness]},"
            )
        return position, f"history: {who} {what} {then}: no deal fits this history"
    # No single later card explains it (not so under any rules the engine has).
    names = ", ".join(CARD_NAMES[play[1]] for _, play in later)
    return later[-1][0] if later else index, (
        f"history: {who}'s {name} in {_trick(number, tricks)} breaks the rules with the "
        f"cards {who} plays later ({names}): no deal fits this history"
    )


def _trick(number: int, tricks: int) -> str:
    """A trick as a person counts it: from 1, and the trick in progress by that name."""
    return "the trick in progress" if number >= tricks else f"trick {number + 1}"


def _suit(suit: int) -> int:
    return ((1 << RANK_COUNT) - 1) << (RANK_COUNT * suit)


def _match(allowed: dict[int, list[int]], room: dict[int, int]) -> dict[int, int] | None:
    """Give every card a seat it is allowed to, within each seat's room; None if impossible."""
    holding: dict[int, list[int]] = {s: [] for s in room}
    owner: dict[int, int] = {}

    def place(card: int, visited: set[int]) -> bool:
        for seat in allowed[card]:
            if seat in visited:
                continue
            visited.add(seat)
            if len(holding[seat]) < room[seat]:
                holding[seat].append(card)
                owner[card] = seat
                return True
            for other in list(holding[seat]):
                if place(other, visited):
                    holding[seat].remove(other)
                    holding[seat].append(card)
                    owner[card] = seat
                    return True
        return False

    # Most constrained cards first: fewer paths to augment.
    for card in sorted(allowed, key=lambda c: (len(allowed[c]), c)):
        if not place(card, set()):
            return None
    return owner


# ------------------------------------------------------------------ replay
def _replay(
    rules: Rules,
    kind: str,
    me: int,
    ids: Sequence[str],
    dealer: int,
    mine: int,
    bids: Sequence[int],
    history: Sequence[tuple[int, list[int], int]],
    played: Sequence[int],
) -> Deal:
    """The placeholder deal, with every call and card of the request played through it."""
    _check_turns(rules, kind, me, ids, dealer, history, played)
    hands = _placeholders(rules, me, ids, mine, history, played)
    assert sum(h.bit_count() for h in hands) == DECK_SIZE
    deal = Deal(_replay_rules(rules), [cards_of(h) for h in hands], dealer=dealer)
    for offset in range(1, PLAYERS + 1):
        seat = (dealer + offset) % PLAYERS
        if kind == BID and seat == me:
            break
        try:
            deal.act(bids[seat])
        except IllegalAction as error:
            raise BhoosRequestError(f"{ids[seat]}'s call: {error}") from None
    for number, (leader, cards, winner) in enumerate(history):
        where = f"history[{number}]"
        if leader != deal.leader:
            why = "the player after the dealer" if number == 0 else "the winner of the last trick"
            raise BhoosRequestError(
                f"{where}: startIdx is {leader} ({ids[leader]}), but {why} leads: "
                f"{deal.leader} ({ids[deal.leader]})"
            )
        _play(deal, cards, ids, where)
        if deal.history[-1][2] != winner:
            actual = deal.history[-1][2]
            raise BhoosRequestError(
                f"{where}: winnerIdx is {winner} ({ids[winner]}), but the trick is won by "
                f"{actual} ({ids[actual]})"
            )
    _play(deal, played, ids, "played")
    want = "call" if kind == BID else "play"
    if deal.phase != want or deal.to_act != me:
        turn = "nobody" if deal.to_act is None else ids[deal.to_act]
        raise BhoosRequestError(
            f"it is not {ids[me]}'s turn to {kind}: after this history it is {turn}'s "
            f"turn to {'call' if deal.phase == 'call' else 'play'}"
        )
    return deal


def _check_turns(
    rules: Rules,
    kind: str,
    me: int,
    ids: Sequence[str],
    dealer: int,
    history: Sequence[tuple[int, list[int], int]],
    played: Sequence[int],
) -> None:
    """Leaders, winners and whose turn it is, checked before any placeholder is dealt.

    The replay checks them again, card by card; checking first means a wrong
    ``winnerIdx`` or a request out of turn is reported as such, not as hands
    that fit no deal (which is what a misplaced trick would look like).
    """
    leader = (dealer + 1) % PLAYERS
    for number, (start, cards, winner) in enumerate(history):
        where = f"history[{number}]"
        if start != leader:
            why = "the player after the dealer" if number == 0 else "the winner of the last trick"
            raise BhoosRequestError(
                f"{where}: startIdx is {start} ({ids[start]}), but {why} leads: "
                f"{leader} ({ids[leader]})"
            )
        actual = (start + trick_winner_offset(cards, rules.trump_suit)) % PLAYERS
        if actual != winner:
            raise BhoosRequestError(
                f"{where}: winnerIdx is {winner} ({ids[winner]}), but the trick is won by "
                f"{actual} ({ids[actual]})"
            )
        leader = winner
    if kind == PLAY and len(history) >= HAND:
        # Nobody is to play, the winner of the last trick no more than the others.
        raise BhoosRequestError(
            f"the round is over: the history holds all {HAND} tricks, so nobody is to play"
        )
    if kind == PLAY and (leader + len(played)) % PLAYERS != me:
        turn = ids[(leader + len(played)) % PLAYERS]
        raise BhoosRequestError(
            f"it is not {ids[me]}'s turn to play: with {ids[leader]} leading and "
            f"{len(played)} card(s) played, it is {turn}'s turn"
        )


@functools.lru_cache(maxsize=8)
def _replay_rules(rules: Rules) -> Rules:
    """The rules the placeholder deal runs under: the same, but never thrown in as dealt."""
    return rules.replace(misdeal="off", misdeal_no_spade=False)


def _play(deal: Deal, cards: Sequence[int], ids: Sequence[str], where: str) -> None:
    for card in cards:
        seat = deal.to_act
        try:
            deal.act(CARD_NAMES[card])
        except IllegalAction as error:
            who = "?" if seat is None else ids[seat]
            raise BhoosRequestError(f"{where}: {who}'s card: {error}") from None
