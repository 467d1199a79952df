"""Re-play a game record through the real engine and verify every step of it.

Nothing in a record is trusted.  Each deal's layout (hands, nest, face-up
card, stock) is checked to hold the whole deck once, turned back into the
deck in dealing order and dealt by a fresh ``Match``; every recorded action
then goes through ``Match.act`` by the seat and in the phase the record
says, so the one rules engine judges each call, bid, discard, trump, partner
card and card played (an illegal one fails with the engine's own
explanation).  Everything the record derives (dealers, calls, bids,
contract, trump, partner, trick leaders, cards and winners, void reasons,
points, totals, the result) is compared with what the engine computes.  The
first difference raises a ``RecordError`` whose message starts with its
location, e.g. ``deal 3, trick 5, seat 2: JS is not allowed: ...``.

A deal that appears twice under one number (a void deal and its redeal) is
called ``deal N`` the first time and ``deal N (redeal K)`` after that.  A
version-1 record is converted (``format.upgrade``) and replayed the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from callbreak.cards import cards_of
from callbreak.decks import DECKS, Deck
from callbreak.engine.deal import OVER, PLAY, VOID, Deal, dealing_of
from callbreak.engine.errors import IllegalAction
from callbreak.engine.match import DealerDraw, Match, check_seed
from callbreak.engine.phases import Play
from callbreak.engine.words import phase_words
from callbreak.games import Contract
from callbreak.points import Points
from callbreak.record.format import RecordError, check_format, deal_context, json_text, upgrade
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
    """Re-play ``record`` through the engine; any inconsistency raises ``RecordError``.

    A version-1 record is converted to the current version first.  Anything but one record
    (a dict) is a ``RecordError`` saying so: ``read_records`` returns a list, and
    ``dict(list)`` would fail with a message about "dictionary update sequences".
    """
    if not isinstance(record, Mapping):
        hint = (
            ": replay one record at a time (read_records returns a list of them)"
            if isinstance(record, list)
            else ""
        )
        raise RecordError(f"record: a record is a JSON object, not {type(record).__name__}{hint}")
    return _Replay(upgrade(check_format(dict(record)))).run()


class _DeckFeed:
    """The decks a replayed match deals: always that of the record's next unsettled deal.

    ``Match`` pulls the next deck whenever it creates a deal.  Keying the
    answer on how many deals the match has settled (rather than on how many
    times it asked) keeps the record's deals lined up with the match's even
    when the match creates a deal it then throws away (``finish`` discards the
    fresh deal; a tie-break may be set up twice): only settled deals advance.
    """

    def __init__(self, decks: list[list[int]]) -> None:
        self.decks = decks
        self.match: Match | None = None
        self._asked = 0  # until the match exists (its constructor asks first)

    def __iter__(self) -> _DeckFeed:
        return self

    def __next__(self) -> list[int]:
        if self.match is None:
            index, self._asked = self._asked, self._asked + 1
        else:
            index = len(self.match.entries)
        if index >= len(self.decks):
            raise StopIteration
        return self.decks[index]


_FIRST_LEADER = {
    "after_dealer": "the seat after the dealer leads the first trick",
    "declarer": "the declarer leads the first trick",
    "after_declarer": "the seat after the declarer leads the first trick",
}


def _contract(rules: Rules) -> Contract:
    """How the game of ``rules`` names each seat's contract (Spades' seats bid), as the faces
    say it (``faces.contract_words``): the replay sits below the faces, so it reads the
    game's record itself."""
    return rules.shape.face.contract


def _state(deal: Deal) -> str:
    """What the engine expects next in ``deal``, for error messages."""
    phase, seat = deal.phase, deal.to_act
    if phase == VOID:
        return f"the deal is void ({deal.void_reason})"
    if phase == OVER:
        return "the deal is over (all tricks played)"
    waiting = phase_words(phase, _contract(deal.rules)).waiting
    if waiting:
        return f"seat {seat} {waiting.format(trick=len(deal.history) + 1)}"
    return f"the deal is in phase {phase!r} with seat {seat} to act"


def _what(phase: str, action: Any, contract: Contract) -> str:
    """A recorded action in words, in the game's own (a Spades seat bids), for error messages."""
    return phase_words(phase, contract).logged_action(action)


def _equal(recorded: Any, actual: Any) -> bool:
    """Equal as JSON: ``true`` is not ``1`` and ``1`` is not ``"1"``."""
    return json_text(recorded) == json_text(actual)


def _field(obj: Any, key: str, where: str) -> Any:
    if not isinstance(obj, Mapping):
        raise RecordError(f"{where}: expected a JSON object, found {type(obj).__name__}")
    if key not in obj:
        raise RecordError(f"{where}: missing {key!r}")
    return obj[key]


def _int(value: Any, where: str, what: str, players: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(f"{where}: {what} must be a whole number, not {json_text(value)}")
    if players is not None and not 0 <= value < players:
        raise RecordError(f"{where}: {what} must be a seat from 0 to {players - 1}, not {value}")
    return value


def _list(value: Any, where: str, what: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise RecordError(f"{where}: {what} must be a list, not {json_text(value)}")
    if length is not None and len(value) != length:
        raise RecordError(f"{where}: {what} must list {length} values, one per seat")
    return value


def _seed(value: Any, where: str, what: str) -> int:
    """A seed as records hold them: a whole number from 0 to 2**63 - 1 (a refused one spelt
    as the record spells it: ``true``, not Python's ``True``)."""
    try:
        return check_seed(value, what, show=json_text)
    except ValueError as error:
        raise RecordError(f"{where}: {error}") from None


def _bool(value: Any, where: str, what: str) -> bool:
    if not isinstance(value, bool):
        raise RecordError(f"{where}: {what} must be true or false, not {json_text(value)}")
    return value


def _points(value: Any, where: str, what: str) -> Points:
    try:
        return Points.parse(value)
    except (ValueError, TypeError):
        raise RecordError(f"{where}: {what} {json_text(value)} is not a score") from None


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


def _same(recorded: Any, actual: Any, where: str, what: str) -> None:
    """One derived value, e.g. ``the contract is 150 in the record, the play gives 160``."""
    if not _equal(recorded, actual):
        raise RecordError(
            f"{where}: {what} is {json_text(recorded)} in the record, the play gives "
            f"{json_text(actual)}"
        )


def _same_list(recorded: Any, actual: list[Any], where: str, noun: str) -> None:
    """A derived list item by item, naming the first item that differs (1-based)."""
    items = _list(recorded, where, f"the {noun}s")
    for number, (item, expected) in enumerate(zip(items, actual, strict=False), 1):
        if not _equal(item, expected):
            raise RecordError(
                f"{where}: {noun} {number} is {json_text(item)} in the record, the play gives "
                f"{json_text(expected)}"
            )
    if len(items) != len(actual):
        raise RecordError(
            f"{where}: the record lists {len(items)} {noun}s, the play makes {len(actual)}"
        )


class _Replay:
    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record
        try:
            rules = _field(record, "rules", "rules")
            if not isinstance(rules, dict):  # an empty list would read as the defaults
                raise RecordError(f"rules: an object of every option, not {json_text(rules)}")
            self.rules = Rules.from_dict(rules)
        except RecordError:
            raise
        except (ValueError, TypeError) as error:
            raise RecordError(f"rules: {error}") from None
        self.players = self.rules.players
        self.deck: Deck = DECKS[self.rules.shape.deck]
        self.spec = self.rules.shape
        self.contract = _contract(self.rules)
        """The game's word for a seat's contract, in every message: Spades' seats bid."""
        play = self.spec.phases[-1]
        self.first_leader = _FIRST_LEADER[play.leader if isinstance(play, Play) else "after_dealer"]
        self.deals = _list(_field(record, "deals", "record"), "deals", "deals")
        if not self.deals:
            raise RecordError("deals: the record has no deal")
        self.labels = self._labels()
        self.seed: int | None = None
        """The match seed the record names (checked by ``run``), if any."""
        self.given_dealer = False
        """Whether the caller named the first dealer (``first_dealer.method`` is "given")."""

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

    def _hand_size(self, index: int) -> int:
        """The hand size the record's deal ``index`` deals: the game's one size, or, where it
        changes deal by deal, that of the record's first hand dealt (the match checks it)."""
        if self.rules.shape.schedule is None:
            return self.rules.hand_size
        label, data = self.labels[index], self.deals[index]
        hands = _list(_field(data, "hands", label), label, "hands", self.players)
        return max((len(hand) for hand in hands if isinstance(hand, list)), default=0)

    def _seats(self, index: int, key: str) -> list[int]:
        """A list of seats (``dealt_in``, ``active``): distinct, in seat order."""
        label, n = self.labels[index], self.players
        listed = _list(_field(self.deals[index], key, label), label, key)
        seats = [_int(seat, label, f"a seat in {key}", n) for seat in listed]
        if seats != sorted(set(seats)):
            raise RecordError(f"{label}: {key} must list distinct seats in seat order, not {seats}")
        return seats

    def _cards(self, items: list[Any], where: str, place: str, owner: dict[int, str]) -> list[int]:
        """Parse the cards dealt to ``place``; a card dealt twice names both places."""
        cards = []
        for text in items:
            if not isinstance(text, str):
                raise RecordError(f"{where}: {json_text(text)} is not a card name")
            try:
                card = self.deck.parse(text)
            except ValueError as error:
                raise RecordError(f"{where}: {error}") from None
            if card in owner:
                other = owner[card]
                if other != place:
                    again = f"also to {other}"
                elif place.startswith("seat"):
                    again = "twice in this hand"
                else:
                    again = f"twice to {place}"
                raise RecordError(f"{where}: {self.deck.names[card]} is dealt {again}")
            owner[card] = place
            cards.append(card)
        return cards

    def _layout(self, index: int) -> list[int]:
        """The deal's layout, checked (the whole deck once, the sizes the game deals), as the
        deck in dealing order that puts every card where the record says it was dealt.

        The order is found by dealing card *positions* with the game's own deal
        function and writing each recorded card into a position of its place, so
        it follows whatever way the game deals (round by round, a nest between
        rounds, a face-up card, a stock) without knowing it.  The face-up card may
        be one of a hand's cards (Donut turns up the dealer's last card).
        """
        label, data, n, deck = self.labels[index], self.deals[index], self.players, self.deck
        dealer = _int(_field(data, "dealer", label), label, "the dealer", n)
        dealt_in = self._seats(index, "dealt_in")
        owner: dict[int, str] = {}
        hands = []
        size = self._hand_size(index)
        for seat, hand in enumerate(_list(_field(data, "hands", label), label, "hands", n)):
            where = f"{label}, seat {seat}"
            cards = self._cards(_list(hand, where, "the hand"), where, f"seat {seat}", owner)
            if seat not in dealt_in and cards:
                raise RecordError(f"{where}: the seat is not dealt in (dealt_in {dealt_in})")
            if seat in dealt_in and len(cards) != size:
                raise RecordError(f"{where}: the hand holds {len(cards)} cards; each needs {size}")
            hands.append(cards)
        where = f"{label}, nest"
        listed = _list(_field(data, "nest", label), where, "the nest")
        nest = self._cards(listed, where, "the nest", owner)
        where = f"{label}, stock"
        listed = _list(_field(data, "stock", label), where, "the stock")
        stock = self._cards(listed, where, "the stock", owner)
        seats = sorted(dealt_in, key=lambda seat: (seat - dealer - 1) % n)
        traced = dealing_of(self.rules)(list(range(deck.size)), seats, size)
        up = traced.upcard
        upcard = self._upcard(index, up is not None)
        order: list[int | None] = [None] * deck.size
        places: list[tuple[str, list[int], list[int]]] = [
            (f"seat {seat}", cards_of(traced.hands[seat]), hands[seat]) for seat in dealt_in
        ]
        places += [
            ("the nest", cards_of(traced.nest), nest),
            ("the stock", list(traced.stock), stock),
        ]
        for place, positions, cards in places:
            if len(positions) != len(cards):
                where = f"{label}, {place.removeprefix('the ')}"
                what = "the hand" if place.startswith("seat") else place
                raise RecordError(
                    f"{where}: {what} holds {len(cards)} cards; {self.rules.title} deals "
                    f"{len(positions)} there"
                )
            if up is not None and up in positions:  # a card of this place lies face up
                assert upcard is not None
                if upcard not in cards:
                    raise RecordError(
                        f"{label}, upcard: the face-up card is {deck.names[upcard]} in the "
                        f"record, but {self.rules.title} turns up one of the cards of {place}"
                    )
                order[up] = upcard
                positions = [p for p in positions if p != up]
                cards = [c for c in cards if c != upcard]
            for position, card in zip(positions, cards, strict=True):
                order[position] = card
        if up is not None and order[up] is None:  # a card of its own
            assert upcard is not None
            if upcard in owner:
                raise RecordError(
                    f"{label}, upcard: {deck.names[upcard]} is dealt also to {owner[upcard]}"
                )
            owner[upcard] = "the upcard"
            order[up] = upcard
        missing = deck.full & ~sum(1 << card for card in owner)
        if missing:
            raise RecordError(
                f"{label}: {' '.join(deck.hand_names(missing))} dealt nowhere: the hands, nest, "
                "upcard and stock hold the whole deck once"
            )
        dealt = [card for card in order if card is not None]
        if len(dealt) != deck.size:  # pragma: no cover - the sizes above add up to the deck
            raise RecordError(f"{label}: the layout does not fill the deck")
        return dealt

    def _upcard(self, index: int, turned: bool) -> int | None:
        """The recorded face-up card, which the game turns up (``turned``) or not."""
        label = self.labels[index]
        where = f"{label}, upcard"
        name = _field(self.deals[index], "upcard", label)
        if name is None or not turned:
            if name is not None or turned:
                what = "turns up a card" if turned else "turns up no card"
                raise RecordError(
                    f"{where}: {self.rules.title} {what}; the record has {json_text(name)}"
                )
            return None
        if not isinstance(name, str):
            raise RecordError(f"{where}: {json_text(name)} is not a card name")
        try:
            return self.deck.parse(name)
        except ValueError as error:
            raise RecordError(f"{where}: {error}") from None

    # ----------------------------------------------------------------- run
    def run(self) -> ReplayReport:
        record, n = self.record, self.players
        self._seats_named()
        decks = [self._layout(i) for i in range(len(self.deals))]
        first = _field(self.deals[0], "dealer", self.labels[0])
        dealer = _int(first, self.labels[0], "the dealer", n)
        seed = _field(record, "seed", "record")
        if seed is not None:
            seed = _seed(seed, "seed", "the match seed")
        self.seed = seed
        draw = self._first_dealer(dealer, seed)
        self.given_dealer = draw.method == "given"
        feed = _DeckFeed(decks)
        # A match may start partway (the arena's deal sets of Oh Hell): its first deal's number.
        start = _int(_field(self.deals[0], "number", self.labels[0]), self.labels[0], "number")
        if start < 1:
            raise RecordError(f"{self.labels[0]}: deals are numbered from 1, not {start}")
        try:
            # A record is finite, so its thrown-in deals, however many, are replayed.
            self.match = match = Match(
                self.rules, seed, dealer=dealer, decks=feed, void_limit=None, deals_before=start - 1
            )
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

    def _seats_named(self) -> None:
        """One seat entry per seat, each with a name and what played it, both strings: the
        format has no optional field, so a reader may take ``seats[i]["player"]`` as text."""
        n = self.players
        seats = _list(_field(self.record, "seats", "record"), "seats", "seats")
        if len(seats) != n:
            raise RecordError(f"seats: {len(seats)} seats for a game of {n} players")
        for seat, entry in enumerate(seats):
            where = f"seats, seat {seat}"
            for key in ("name", "player"):
                value = _field(entry, key, where)
                if not isinstance(value, str):
                    raise RecordError(
                        f"{where}: the {key} must be a string, not {json_text(value)}"
                    )

    def _first_dealer(self, dealer: int, seed: int | None) -> DealerDraw:
        n, where = self.players, "first_dealer"
        data = _field(self.record, "first_dealer", "record")
        method = _field(data, "method", where)
        if method not in ("given", "random", "draw_low", "draw_high"):
            raise RecordError(f"{where}: unknown method {json_text(method)}")
        recorded = _int(_field(data, "dealer", where), where, "the dealer", n)
        if recorded != dealer:
            raise RecordError(
                f"{where}: the first dealer is seat {recorded}, but {self.labels[0]} is dealt "
                f"by seat {dealer}"
            )
        rounds: list[tuple[tuple[int, str], ...]] = []
        for round_ in _list(_field(data, "draws", where), where, "draws"):
            pairs = []
            for pair in _list(round_, where, "a round of draws"):
                seat, card = _list(pair, where, "a draw [seat, card]", 2)
                if not isinstance(card, str):
                    raise RecordError(f"{where}: {json_text(card)} is not a card name")
                try:  # the game's own deck: Call Partner draws from the Rook deck
                    name = self.deck.names[self.deck.parse(card)]
                except ValueError as error:
                    raise RecordError(f"{where}: {error}") from None
                pairs.append((_int(seat, where, "a drawing seat", n), name))
            rounds.append(tuple(pairs))
        draw = DealerDraw(method, dealer, tuple(rounds))
        if method != "given" and method != self.rules.first_dealer:
            raise RecordError(
                f"{where}: the method is {json_text(method)}, but the rules say "
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
                and _untouched(match.deal)
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
        dealt_in = self._seats(index, "dealt_in")
        if dealt_in != list(deal.dealt_in):
            raise RecordError(
                f"{label}: the seats dealt in are {dealt_in} in the record, the match deals "
                f"{list(deal.dealt_in)} in"
            )
        self._context(index, deal)
        seed = _field(data, "seed", label)
        if seed is not None:
            seed = _seed(seed, label, "the shuffle seed")
            self._seeded(label, deal, seed)
            self._from_match_seed(index, seed)
        self._actions(index, deal)
        self._tricks(index, deal)
        self._outcome(index, deal)

    def _context(self, index: int, deal: Deal) -> None:
        """Compare what the record says the match told the deal (scores before it, seats out of
        the game, sit-out runs) with what the rebuilt match tells it.  The deal's rules turn on
        it (who may sit out, who names Donut's trump, who pays for sitting out), so a record
        whose context differs describes a different game even where every action is legal."""
        label, data = self.labels[index], self.deals[index]
        recorded = _field(data, "context", label)
        expected = deal_context(deal)
        if recorded is None or expected is None:
            _same(recorded, expected, label, "the match context")
            return
        where = f"{label}, context"
        scores = _field(recorded, "scores", where)
        _compare_points(
            scores, deal.context.totals, where, "score before the deal", "the match gives"
        )
        _same(_field(recorded, "out", where), expected["out"], where, "the seats out of the game")
        _same(_field(recorded, "sat_out", where), expected["sat_out"], where, "the sit-out runs")

    def _seeded(self, label: str, deal: Deal, seed: int) -> None:
        """Check that shuffle ``seed`` deals exactly the recorded layout (before any action:
        naming trump moves the Rook in the dealt hands)."""
        shuffled = Deal(
            self.rules,
            seed=seed,
            dealer=deal.dealer,
            context=deal.context,
            hand_size=deal.hand_size,
        )
        why = f"is not the one shuffle seed {seed} deals"
        for seat in range(self.players):
            if shuffled.dealt[seat] != deal.dealt[seat]:
                cards = " ".join(shuffled.names_of(shuffled.dealt[seat]))
                raise RecordError(f"{label}, seat {seat}: the hand {why} ({cards})")
        if shuffled.nest != deal.nest:
            cards = " ".join(shuffled.names_of(shuffled.nest))
            raise RecordError(f"{label}, nest: the nest {why} ({cards})")
        if shuffled.upcard != deal.upcard or shuffled.dealt_stock != deal.dealt_stock:
            raise RecordError(f"{label}, stock: the face-up card or the stock {why}")
        deal.seed = seed

    def _from_match_seed(self, index: int, seed: int) -> None:
        """Check that a shuffled deal's seed is the one the match seed gives it.

        A resumed match deals on from the match seed (``Match.deal_seed``), so a match seed
        changed in the record, or a deal's seed changed along with its layout, would pass every
        other check and then deal what the original never would have.  A record without a
        match seed has nothing to check against.  The first deal of a match whose dealer was
        given may name a shuffle of its own: the arena deals each deal set from a seed of the
        set, then the match deals any later deal from its own seed.
        """
        if self.seed is None or (index == 0 and self.given_dealer):
            return
        expected = self.match.deal_seed(index)
        if seed != expected:
            raise RecordError(
                f"{self.labels[index]}: the shuffle seed is {seed} in the record, but the match "
                f"seed {self.seed} gives {expected} (Match(rules, seed).deal_seed({index})): a "
                "shuffled deal's seed follows from the match seed"
            )

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
        except ValueError as error:  # the next deal's layout (already checked) or the engine
            raise RecordError(f"{where}: {error}") from None

    def _expect(self, deal: Deal, phase: str, seat: int, where: str, what: str) -> None:
        if deal is not self.match.deal or deal.phase != phase or deal.to_act != seat:
            raise RecordError(f"{where}: {what} is recorded, but {_state(deal)}")

    def _actions(self, index: int, deal: Deal) -> None:
        """Feed every recorded action to the match, by the recorded seat in the recorded phase.

        The decisions before the play are compared with the record's derived
        fields as the play begins (or at the end, for a deal that never gets
        there), so a changed bid or trump is reported as such, before the
        cards it makes wrong.
        """
        label, n = self.labels[index], self.players
        actions = _list(_field(self.deals[index], "actions", label), label, "actions")
        checked = False
        for number, item in enumerate(actions, 1):
            at = f"{label}, action {number}"
            phase = _field(item, "phase", at)
            seat = _int(_field(item, "seat", at), at, "the seat", n)
            action = _field(item, "action", at)
            if not isinstance(phase, str):
                raise RecordError(f"{at}: the phase must be a name, not {json_text(phase)}")
            if phase == PLAY:
                if not checked and deal is self.match.deal and deal.phase == PLAY:
                    self._setup(index, deal)
                    checked = True
                where = f"{label}, trick {len(deal.history) + 1}, seat {seat}"
                if not isinstance(action, str):
                    raise RecordError(f"{where}: {json_text(action)} is not a card name")
            else:
                where = f"{label}, seat {seat}"
                if not isinstance(action, (bool, int, str)):
                    raise RecordError(f"{where}: {json_text(action)} is not an action")
            self._expect(deal, phase, seat, where, _what(phase, action, self.contract))
            self._act(action, where)
        if not checked:
            self._setup(index, deal)

    def _setup(self, index: int, deal: Deal) -> None:
        """Compare what the decisions before the play came to with the record."""
        label, data, n = self.labels[index], self.deals[index], self.players
        _same(self._seats(index, "active"), list(deal.active), label, "the seats in play")
        claims = [{"seat": seat, "claim": claim} for seat, claim in deal.claims]
        _same_list(_field(data, "misdeal_claims", label), claims, label, "misdeal decision")
        calls = _list(_field(data, "calls", label), label, "calls", n)
        for seat, (call, actual) in enumerate(zip(calls, deal.calls, strict=True)):
            _same(call, actual, f"{label}, seat {seat}", f"the {self.contract.word}")
        declared = [{"seat": seat, "declared": said} for seat, said in deal.declared]
        _same_list(_field(data, "declarations", label), declared, label, "void declaration")
        bids = [{"seat": seat, "bid": bid} for seat, bid in deal.bids]
        _same_list(_field(data, "bids", label), bids, label, "bid")
        _same(_field(data, "contract", label), deal.contract, label, "the contract")
        _same(_field(data, "declarer", label), deal.declarer, label, "the declarer")
        discards = _list(_field(data, "discards", label), label, "discards")
        named = self._named(discards, deal)
        _same(named, deal.names_of(deal.discards), label, "the discards")
        _same(_field(data, "trump", label), deal.trump, label, "trump")
        card = _field(data, "partner_card", label)
        named_card = None if card is None else self._named([card], deal)[0]
        called = None if deal.partner_card is None else deal.deck.names[deal.partner_card]
        _same(named_card, called, label, "the partner card")
        _same(_field(data, "partner", label), deal.partner, label, "the partner")
        _same(_field(data, "dropped", label), sorted(deal.dropped), label, "the seats out")
        exchanges = [{"seat": seat, "cards": count} for seat, count in deal.exchanges]
        _same_list(_field(data, "exchanges", label), exchanges, label, "exchange")
        reversed_ranks = _field(data, "reversed_ranks", label)
        _same(reversed_ranks, deal.reversed_ranks, label, "reversed_ranks")
        _same(_field(data, "settled", label), deal.settled, label, "the bidder's settlement")

    @staticmethod
    def _named(items: list[Any], deal: Deal) -> list[Any]:
        """Recorded cards in the deal's canonical spelling and order (unreadable ones kept,
        so that the comparison shows them)."""
        mask, odd = 0, []
        for item in items:
            try:
                mask |= 1 << deal.deck.parse(item)
            except (ValueError, TypeError):
                odd.append(item)
        return deal.names_of(mask) + odd

    def _tricks(self, index: int, deal: Deal) -> None:
        label, n = self.labels[index], len(deal.active)
        tricks = _list(_field(self.deals[index], "tricks", label), label, "tricks")
        played: list[tuple[int, tuple[int, ...], int | None]] = list(deal.history)
        if deal.trick:
            played.append((deal.leader, tuple(deal.trick), None))
        names = deal.deck.names
        for number, trick in enumerate(tricks, 1):
            where = f"{label}, trick {number}"
            leader = _int(_field(trick, "leader", where), where, "the leader", self.players)
            cards = _list(_field(trick, "cards", where), where, "cards")
            if number > len(played):
                raise RecordError(
                    f"{where}: the trick is in the record, but the actions play "
                    f"{len(played)} trick(s)"
                )
            actual_leader, actual_cards, actual = played[number - 1]
            if leader != actual_leader:
                why = (
                    self.first_leader if number == 1 else f"the winner of trick {number - 1} leads"
                )
                raise RecordError(
                    f"{where}: the leader is seat {leader} in the record, the play gives seat "
                    f"{actual_leader} ({why})"
                )
            spelt = [names[card] for card in actual_cards]
            if [self._spelling(card, deal) for card in cards] != spelt:
                raise RecordError(
                    f"{where}: the cards are {' '.join(map(str, cards))} in the record, the "
                    f"actions play {' '.join(spelt)}"
                )
            winner = trick.get("winner")
            if actual is None:
                if winner is not None:
                    raise RecordError(
                        f"{where}: the trick has {len(cards)} of {n} cards but a winner"
                    )
                continue
            if winner is None:
                raise RecordError(f"{where}: the trick is complete but has no winner")
            if _int(winner, where, "the winner", self.players) != actual:
                card = spelt[_position(deal, actual_leader, actual)]
                raise RecordError(
                    f"{where}: the winner is seat {winner} in the record, the play gives seat "
                    f"{actual} ({card} takes the trick)"
                )
        if len(tricks) < len(played):
            raise RecordError(
                f"{label}, trick {len(tricks) + 1}: the actions play this trick, but the "
                f"record's tricks stop at {len(tricks)}"
            )

    @staticmethod
    def _spelling(card: Any, deal: Deal) -> Any:
        try:
            return deal.deck.names[deal.deck.parse(card)]
        except (ValueError, TypeError):
            return card

    def _outcome(self, index: int, deal: Deal) -> None:
        """Compare what the record says the deal came to with what the engine made of it."""
        match, label, data = self.match, self.labels[index], self.deals[index]
        void = _field(data, "void", label)
        points = _field(data, "points", label)
        totals = _field(data, "totals", label)
        unplayed = _field(data, "unplayed", label)
        _same(unplayed, deal.unplayed, label, "the reason the deal ended unplayed")
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
                f"{label}: the void reason is {json_text(void)} in the record, the rules give "
                f"{json_text(deal.void_reason)}"
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
            if self.rules.match_end == "open" and _untouched(match.deal):
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
        if not all(isinstance(w, int) and not isinstance(w, bool) for w in winners):
            raise RecordError(f"{where}: the winners are seat numbers, not {json_text(winners)}")
        if sorted(winners) != sorted(match.winners):
            raise RecordError(
                f"{where}: the winners are {winners} in the record, the match gives {match.winners}"
            )


def _untouched(deal: Deal) -> bool:
    """Whether nobody has acted in ``deal`` yet: an open match may still stop before it."""
    return not deal.log and not deal.history and not deal.trick


def _position(deal: Deal, leader: int, seat: int) -> int:
    """How many cards into a trick led by ``leader`` the card of ``seat`` comes."""
    steps = 0
    while leader != seat:
        leader = deal.next_seat(leader)
        steps += 1
    return steps
