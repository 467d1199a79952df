"""Re-play a game record through the real engine and verify every step of it.

Nothing in a record is trusted: the hands are fed to a fresh ``Match`` and
every recorded decision goes through ``Match.act``, so the one rules engine
judges each call and card (an illegal card fails with the engine's own
explanation), and everything the record derives (dealers, trick leaders and
winners, void reasons, points, totals, the result) is compared with what the
engine computes.  The first difference raises a ``RecordError`` whose message
starts with its location, e.g. ``deal 3, trick 5, seat 2: JS is not allowed: ...``.

A deal that appears twice under one number (a void deal and its redeal) is
called ``deal N`` the first time and ``deal N (redeal K)`` after that.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from callbreak.cards import CARD_NAMES, format_hand, parse_card
from callbreak.engine.deal import OVER, VOID, Deal
from callbreak.engine.errors import IllegalAction
from callbreak.engine.match import DealerDraw, Match
from callbreak.points import Points
from callbreak.record.format import RecordError, check_format
from callbreak.rules import Rules


@dataclass
class ReplayReport:
    """What a clean replay found, and the rebuilt match to carry on from."""

    deals: int
    """Deals replayed: every deal of the record, void ones and one in progress included."""
    scored_deals: int
    """Deals that were played out and scored."""
    totals: list[Points]
    winners: list[int]
    complete: bool
    match: Match
    """The match rebuilt by the replay, in the state where the record stops.

    Its first-dealer draw and its deals' shuffle seeds are set from the record,
    so ``match_record(report.match)`` writes the same record again.
    """


def replay(record: Mapping[str, Any]) -> ReplayReport:
    """Re-play ``record`` through the engine; any inconsistency raises ``RecordError``."""
    return _Replay(check_format(dict(record))).run()


class _HandsFeed:
    """The hands a replayed match deals: always those of the record's next unsettled deal.

    ``Match`` pulls the next hands whenever it creates a deal.  Keying the
    answer on how many deals the match has settled (rather than on how many
    times it asked) keeps the record's deals lined up with the match's even
    when the match creates a deal it then throws away (``finish`` discards the
    fresh deal; a tie-break may be set up twice): only settled deals advance.
    """

    def __init__(self, hands: list[list[list[str]]]) -> None:
        self.hands = hands
        self.match: Match | None = None
        self._asked = 0  # until the match exists (its constructor asks first)

    def __iter__(self) -> _HandsFeed:
        return self

    def __next__(self) -> list[list[str]]:
        if self.match is None:
            index, self._asked = self._asked, self._asked + 1
        else:
            index = len(self.match.entries)
        if index >= len(self.hands):
            raise StopIteration
        return self.hands[index]


def _state(deal: Deal) -> str:
    """What the engine expects next in ``deal``, for error messages."""
    phase, seat = deal.phase, deal.to_act
    if phase == VOID:
        return f"the deal is void ({deal.void_reason})"
    if phase == OVER:
        return "the deal is over (all tricks played)"
    if phase == "misdeal":
        return f"seat {seat} is to decide whether to claim a misdeal"
    if phase == "call":
        return f"seat {seat} is to call"
    if phase == "declare":
        return f"seat {seat} is to decide whether to declare its void suits"
    if phase == "play":
        return f"seat {seat} is to play to trick {len(deal.history) + 1}"
    return f"the deal is in phase {phase!r} with seat {seat} to act"


def _field(obj: Any, key: str, where: str) -> Any:
    if not isinstance(obj, Mapping):
        raise RecordError(f"{where}: expected a JSON object, found {type(obj).__name__}")
    if key not in obj:
        raise RecordError(f"{where}: missing {key!r}")
    return obj[key]


def _int(value: Any, where: str, what: str, players: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(f"{where}: {what} must be a whole number, not {value!r}")
    if players is not None and not 0 <= value < players:
        raise RecordError(f"{where}: {what} must be a seat from 0 to {players - 1}, not {value}")
    return value


def _list(value: Any, where: str, what: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise RecordError(f"{where}: {what} must be a list, not {value!r}")
    if length is not None and len(value) != length:
        raise RecordError(f"{where}: {what} must list {length} values, one per seat")
    return value


def _bool(value: Any, where: str, what: str) -> bool:
    if not isinstance(value, bool):
        raise RecordError(f"{where}: {what} must be true or false, not {value!r}")
    return value


def _points(value: Any, where: str, what: str) -> Points:
    try:
        return Points.parse(value)
    except (ValueError, TypeError):
        raise RecordError(f"{where}: {what} {value!r} is not a score") from None


def _compare_points(
    recorded: Any, actual: Sequence[Points], where: str, what: str, source: str
) -> None:
    """Seat by seat, exactly: a record's 4.1 is read as 41 tenths, never as a float."""
    values = _list(recorded, where, "points" if what == "points" else "totals", len(actual))
    for seat, (value, expected) in enumerate(zip(values, actual, strict=True)):
        got = _points(value, where, f"{what} for seat {seat}")
        if got != expected:
            verb = "are" if what == "points" else "is"
            raise RecordError(
                f"{where}: {what} for seat {seat} {verb} {got} in the record, {source} {expected}"
            )


class _Replay:
    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record
        try:
            self.rules = Rules.from_dict(_field(record, "rules", "rules"))
        except RecordError:
            raise
        except (ValueError, TypeError) as error:
            raise RecordError(f"rules: {error}") from None
        self.players = self.rules.players
        self.deals = _list(_field(record, "deals", "record"), "deals", "deals")
        if not self.deals:
            raise RecordError("deals: the record has no deal")
        self.labels = self._labels()

    # ------------------------------------------------------------ structure
    def _labels(self) -> list[str]:
        seen: dict[int, int] = {}
        labels = []
        for i, deal in enumerate(self.deals):
            number = _int(_field(deal, "number", f"deals[{i}]"), f"deals[{i}]", "number")
            redeal = seen.get(number, 0)
            seen[number] = redeal + 1
            labels.append(f"deal {number}" + (f" (redeal {redeal})" if redeal else ""))
        return labels

    def _hands(self, index: int) -> list[list[str]]:
        """The deal's hands, checked: the right number of distinct cards, the deck exactly once."""
        label, n, size = self.labels[index], self.players, self.rules.hand_size
        hands = _list(_field(self.deals[index], "hands", label), label, "hands", n)
        owner: dict[int, int] = {}
        canonical = []
        for seat, hand in enumerate(hands):
            where = f"{label}, seat {seat}"
            cards = _list(hand, where, "the hand")
            names = []
            for text in cards:
                try:
                    card = parse_card(text)
                except ValueError as error:
                    raise RecordError(f"{where}: {error}") from None
                if card in owner:
                    other = owner[card]
                    where_else = "twice in this hand" if other == seat else f"also to seat {other}"
                    raise RecordError(f"{where}: {CARD_NAMES[card]} is dealt {where_else}")
                owner[card] = seat
                names.append(CARD_NAMES[card])
            if len(names) != size:
                raise RecordError(f"{where}: the hand holds {len(names)} cards; each needs {size}")
            canonical.append(names)
        return canonical

    # ----------------------------------------------------------------- run
    def run(self) -> ReplayReport:
        record, n = self.record, self.players
        seats = record.get("seats")
        if seats is not None and len(_list(seats, "seats", "seats")) != n:
            raise RecordError(f"seats: {len(seats)} seats for a game of {n} players")
        hands = [self._hands(i) for i in range(len(self.deals))]
        first = _field(self.deals[0], "dealer", self.labels[0])
        dealer = _int(first, self.labels[0], "the dealer", n)
        seed = record.get("seed")
        if seed is not None:
            _int(seed, "seed", "the seed")
        draw = self._first_dealer(dealer, seed)
        feed = _HandsFeed(hands)
        try:
            self.match = match = Match(self.rules, seed, dealer=dealer, hands=feed)
        except ValueError as error:
            raise RecordError(f"{self.labels[0]}: {error}") from None
        feed.match = match
        match.dealer_draw = draw
        for index in range(len(self.deals)):
            self._deal(index)
        self._result()
        return ReplayReport(
            deals=len(self.deals),
            scored_deals=len(match.scored_deals),
            totals=list(match.totals),
            winners=list(match.winners),
            complete=match.over,
            match=match,
        )

    def _first_dealer(self, dealer: int, seed: int | None) -> DealerDraw:
        n, where = self.players, "first_dealer"
        data = _field(self.record, "first_dealer", "record")
        method = _field(data, "method", where)
        if method not in ("given", "random", "draw_low", "draw_high"):
            raise RecordError(f"{where}: unknown method {method!r}")
        recorded = _int(_field(data, "dealer", where), where, "the dealer", n)
        if recorded != dealer:
            raise RecordError(
                f"{where}: the first dealer is seat {recorded}, but {self.labels[0]} is dealt "
                f"by seat {dealer}"
            )
        rounds: list[tuple[tuple[int, str], ...]] = []
        for round_ in _list(data.get("draws", []), where, "draws"):
            pairs = []
            for pair in _list(round_, where, "a round of draws"):
                seat, card = _list(pair, where, "a draw [seat, card]", 2)
                try:
                    name = CARD_NAMES[parse_card(card)]
                except ValueError as error:
                    raise RecordError(f"{where}: {error}") from None
                pairs.append((_int(seat, where, "a drawing seat", n), name))
            rounds.append(tuple(pairs))
        draw = DealerDraw(method, dealer, tuple(rounds))
        if method != "given" and method != self.rules.first_dealer:
            raise RecordError(
                f"{where}: the method is {method!r}, but the rules say "
                f"first_dealer={self.rules.first_dealer!r}"
            )
        if method != "given" and seed is not None:
            expected = Match(self.rules, seed).dealer_draw
            if expected != draw:
                raise RecordError(
                    f"{where}: seed {seed} draws seat {expected.dealer} as first dealer "
                    f"(draws {[list(r) for r in expected.rounds]}), not what the record says"
                )
        return draw

    def _deal(self, index: int) -> None:
        match, label, n = self.match, self.labels[index], self.players
        data = self.deals[index]
        if index < len(match.entries):
            deal = match.entries[index].deal  # settled as soon as it was dealt
        elif match.over:
            raise RecordError(
                f"{label}: the match was already over (winners: seats "
                f"{', '.join(map(str, match.winners))}), but the record goes on"
            )
        else:
            if (
                _field(data, "tie_break", label) is True
                and not match.tie_break
                and self.rules.match_end == "open"
                and not match.deal.claims
                and all(call is None for call in match.deal.calls)
            ):
                # An open match stopped with ``finish()`` and the top was tied.
                self._finish(label)
            deal = match.deal
        dealer = _int(_field(data, "dealer", label), label, "the dealer", n)
        if dealer != deal.dealer:
            raise RecordError(
                f"{label}: the dealer is seat {dealer} in the record, the match gives seat "
                f"{deal.dealer} (the deal passes to the next seat after a scored deal; "
                "a void deal is redealt by the same dealer)"
            )
        seed = _field(data, "seed", label)
        if seed is not None:
            _int(seed, label, "the seed")
            shuffled = Deal(self.rules, seed=seed, dealer=dealer).dealt
            if shuffled != deal.dealt:
                first = next(s for s in range(n) if shuffled[s] != deal.dealt[s])
                raise RecordError(
                    f"{label}, seat {first}: the hand is not the one shuffle seed {seed} deals "
                    f"({format_hand(shuffled[first])})"
                )
            deal.seed = seed
        self._decisions(index, deal)
        self._tricks(index, deal)
        self._outcome(index, deal)

    def _finish(self, where: str) -> None:
        try:
            self.match.finish()
        except ValueError as error:
            raise RecordError(f"{where}: {error}") from None

    def _act(self, action: Any, where: str) -> None:
        try:
            self.match.act(action)
        except IllegalAction as error:
            raise RecordError(f"{where}: {error}") from None
        except ValueError as error:  # the next deal's hands (already checked) or the engine
            raise RecordError(f"{where}: {error}") from None

    def _expect(self, deal: Deal, phase: str, seat: int, where: str, what: str) -> None:
        if deal is not self.match.deal or deal.phase != phase or deal.to_act != seat:
            raise RecordError(f"{where}: {what} is recorded, but {_state(deal)}")

    def _decisions(self, index: int, deal: Deal) -> None:
        label, data, n = self.labels[index], self.deals[index], self.players
        for claim in _list(_field(data, "misdeal_claims", label), label, "misdeal_claims"):
            seat = _int(_field(claim, "seat", label), label, "a claiming seat", n)
            where = f"{label}, seat {seat}"
            claimed = _bool(_field(claim, "claim", where), where, "claim")
            self._expect(deal, "misdeal", seat, where, "a misdeal decision")
            self._act(claimed, where)
        calls = _list(_field(data, "calls", label), label, "calls", n)
        missing: int | None = None
        for offset in range(1, n + 1):
            seat = (deal.dealer + offset) % n
            call = calls[seat]
            where = f"{label}, seat {seat}"
            if call is None:
                missing = seat if missing is None else missing
                continue
            if missing is not None:
                raise RecordError(
                    f"{where}: a call is recorded, but seat {missing} before it has none"
                )
            _int(call, where, "the call")
            self._expect(deal, "call", seat, where, f"a call of {call}")
            self._act(call, where)
        declarations = _field(data, "declarations", label)
        for item in _list(declarations, label, "declarations"):
            seat = _int(_field(item, "seat", label), label, "a declaring seat", n)
            where = f"{label}, seat {seat}"
            declared = _bool(_field(item, "declared", where), where, "declared")
            self._expect(deal, "declare", seat, where, "a void declaration")
            self._act(declared, where)

    def _tricks(self, index: int, deal: Deal) -> None:
        label, n = self.labels[index], self.players
        tricks = _list(_field(self.deals[index], "tricks", label), label, "tricks")
        last_deal = index == len(self.deals) - 1
        for number, trick in enumerate(tricks, 1):
            where = f"{label}, trick {number}"
            leader = _int(_field(trick, "leader", where), where, "the leader", n)
            cards = _list(_field(trick, "cards", where), where, "cards")
            if not 1 <= len(cards) <= n:
                raise RecordError(f"{where}: {len(cards)} cards; a trick has 1 to {n}")
            if deal is not self.match.deal or deal.phase != "play":
                raise RecordError(f"{where}: a trick is recorded, but {_state(deal)}")
            if leader != deal.leader:
                why = (
                    "the seat after the dealer leads the first trick"
                    if number == 1
                    else f"the winner of trick {number - 1} leads"
                )
                raise RecordError(
                    f"{where}: the leader is seat {leader} in the record, the play gives seat "
                    f"{deal.leader} ({why})"
                )
            for offset, card in enumerate(cards):
                seat = (leader + offset) % n
                if not isinstance(card, str):
                    raise RecordError(f"{where}, seat {seat}: {card!r} is not a card name")
                self._act(card, f"{where}, seat {seat}")
            winner = trick.get("winner")
            if len(cards) < n:
                if winner is not None:
                    raise RecordError(
                        f"{where}: the trick has {len(cards)} of {n} cards but a winner"
                    )
                if number != len(tricks) or not last_deal:
                    raise RecordError(
                        f"{where}: the trick has {len(cards)} of {n} cards, but the record goes on"
                    )
                continue
            _, played, actual = deal.history[number - 1]
            if winner is None:
                raise RecordError(f"{where}: the trick is complete but has no winner")
            if _int(winner, where, "the winner", n) != actual:
                card = CARD_NAMES[played[(actual - leader) % n]]
                raise RecordError(
                    f"{where}: the winner is seat {winner} in the record, the play gives seat "
                    f"{actual} ({card} takes the trick)"
                )

    def _outcome(self, index: int, deal: Deal) -> None:
        """Compare what the record says the deal came to with what the engine made of it."""
        match, label, data = self.match, self.labels[index], self.deals[index]
        void = _field(data, "void", label)
        points = _field(data, "points", label)
        totals = _field(data, "totals", label)
        if not deal.over:
            if index != len(self.deals) - 1:
                raise RecordError(
                    f"{label}: the deal stops unfinished ({_state(deal)}), "
                    "but more deals follow in the record"
                )
            if void is not None or points is not None or totals is not None:
                raise RecordError(
                    f"{label}: the record gives the deal's outcome, but its play stops "
                    f"unfinished: {_state(deal)}"
                )
            self._placement(label, data, match.deal_number, match.tie_break, match.counting_seats)
            return
        if deal.phase == VOID and void is None:
            raise RecordError(
                f"{label}: the record does not mark the deal void, but the rules throw it in "
                f"({deal.void_reason})"
            )
        if deal.phase != VOID and void is not None:
            raise RecordError(
                f"{label}: the record marks the deal void ({void}), but the rules do not "
                "throw it in"
            )
        if void != deal.void_reason:
            raise RecordError(
                f"{label}: the void reason is {void!r} in the record, the rules give "
                f"{deal.void_reason!r}"
            )
        actual = deal.points
        assert actual is not None
        if points is None:
            raise RecordError(f"{label}: the deal is over but the record gives no points")
        _compare_points(points, actual, label, "points", "the rules give")
        entry = next((e for e in match.entries if e.deal is deal), None)
        if entry is None:  # pragma: no cover - the match settles every finished deal
            raise RecordError(f"{label}: the match did not settle this deal")
        self._placement(label, data, entry.number, entry.tie_break, entry.counting_seats)
        if totals is None:
            raise RecordError(f"{label}: the deal is over but the record gives no totals")
        _compare_points(totals, entry.totals, label, "total", "the match gives")

    def _placement(
        self, label: str, data: Any, number: int, tie_break: bool, counting: Sequence[int]
    ) -> None:
        recorded = _int(_field(data, "number", label), label, "number")
        if recorded != number:
            raise RecordError(
                f"{label}: the deal number is {recorded} in the record, the match gives {number}"
            )
        if _bool(_field(data, "tie_break", label), label, "tie_break") != tie_break:
            state = "a tie-break deal" if tie_break else "not a tie-break deal"
            raise RecordError(f"{label}: tie_break is wrong: the match says this is {state}")
        seats = _list(_field(data, "counting_seats", label), label, "counting_seats")
        if seats != list(counting):
            raise RecordError(
                f"{label}: counting_seats are {seats} in the record, the match gives "
                f"{list(counting)}"
            )

    def _result(self) -> None:
        match, where = self.match, "result"
        result = _field(self.record, "result", "record")
        complete = _bool(_field(result, "complete", where), where, "complete")
        if complete and not match.over:
            if self.rules.match_end == "open" and not (
                match.deal.claims or any(call is not None for call in match.deal.calls)
            ):
                self._finish(where)  # an open match ends when the players stop
            if not match.over:
                raise RecordError(
                    f"{where}: the record says the match is complete, but the rules call for "
                    f"more (after {len(match.scored_deals)} scored deals: {_state(match.deal)})"
                )
        if not complete and match.over:
            raise RecordError(f"{where}: the record says the match is unfinished, but it is over")
        _compare_points(
            _field(result, "totals", where), match.totals, where, "total", "the match gives"
        )
        winners = _list(_field(result, "winners", where), where, "winners")
        if sorted(winners) != sorted(match.winners):
            raise RecordError(
                f"{where}: the winners are {winners} in the record, the match gives {match.winners}"
            )
