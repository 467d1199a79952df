"""The phases of a deal before and after the play, each with the state it adds and its secrets.

A game's record (``callbreak.games``) lists its phases in order.  ``Deal`` walks
them: ``begin`` sets up the phase and says who acts (or returns False to skip
it: nobody qualifies, or the option is off); ``legal`` lists the actions of the
seat to act; ``act`` checks and applies one, raising ``IllegalAction`` that names
the rule and changing nothing, and calls ``deal.advance()`` when the phase is
done.  The play itself is a phase too, but its ``act`` is inlined in
``Deal.act`` because every random playout runs through it.

What a phase adds to a deal (the calls, an auction's bids, the nest, the seats
that dropped, ...) is a ``Part`` (``engine/parts.py``) that the phase names in
``parts`` and reaches as ``deal.parts[Kind]``: the deal makes it when a phase
first asks, so it holds the parts of the phases it has walked and nothing else
of theirs (a game with no auction carries no bids).  A part says what of itself
every seat may see (``public``) and what only one seat may (``private``); the
one observation builder assembles those pieces and never asks which phase it is
in.  Each decision is logged as a typed entry (``engine/actions.py``).  The
phases work on ``DealState``, the deal as they may use it, never import ``Deal``.
"""

from __future__ import annotations

import numbers
import operator
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from callbreak.engine.actions import (
    Action,
    Bid,
    CallMade,
    Discarded,
    Exchanged,
    InOrOut,
    MisdealClaim,
    PartnerCalled,
    Settled,
    TrumpNamed,
    VoidsDeclared,
)
from callbreak.engine.errors import IllegalAction
from callbreak.engine.parts import DealState, Part, Pieces

if TYPE_CHECKING:
    from callbreak.engine.games import Layout

PASS = "pass"


def _move_card(move: Callable[[int], int], card: int | None) -> int | None:
    return None if card is None else move(1 << card).bit_length() - 1


class Phase:
    """One step of a deal; subclasses fill in the lifecycle."""

    name: ClassVar[str]
    parts: ClassVar[tuple[type[Part], ...]] = ()
    """The state this phase adds to a deal (shared with other phases naming the same part);
    a deal fills the parts named here that take something from the dealing (``Part.dealt``)."""

    def begin(self, deal: DealState) -> bool:
        """Set ``deal.to_act`` for the first decision; False skips the phase."""
        raise NotImplementedError

    def legal(self, deal: DealState) -> list[Any]:
        raise NotImplementedError

    def act(self, deal: DealState, action: Action) -> None:
        raise NotImplementedError

    def values(self, rules: Any) -> tuple[int, ...]:
        """Every number this phase may ever offer under ``rules`` (a call or bid), for a fixed
        action space (the RL encoder); empty where it offers none.  ``Call`` and ``Auction``
        are read from their options by the encoder itself."""
        return ()

    def words(self, rules: Any) -> tuple[str, ...]:
        """Every word this phase may offer in place of a number (Spades' ``"blind nil"`` and
        ``"look"``), for the fixed action space; by game, not by option, so that a game's
        action space stays the same whichever options are on.  Empty where it offers none."""
        return ()

    def __repr__(self) -> str:
        return f"<phase {self.name}>"


def _ask(deal: DealState, seats: list[int]) -> bool:
    """Queue ``seats`` to answer in turn; False (skip the phase) when nobody is asked."""
    if not seats:
        return False
    deal.pending = seats
    deal.to_act = seats[0]
    return True


def _yes_no(deal: DealState, action: Action, question: str, rule: str) -> int:
    """Check a yes/no answer and take the seat that gave it off the pending list."""
    if not isinstance(action, bool):
        raise IllegalAction(
            f"seat {deal.to_act} {question}: answer True or False, not {action!r}", rule
        )
    return deal.pending.pop(0)


class Claims(Part):
    """Misdeal decisions in the order they were taken: (seat, claimed); all public."""

    __slots__ = ("claims",)

    def __init__(self, players: int) -> None:
        self.claims: list[tuple[int, bool]] = []

    def copy(self) -> Claims:
        other = Claims.__new__(Claims)
        other.claims = self.claims.copy()
        return other

    def public(self, deal: DealState) -> Pieces:
        return {"misdeal_claims": tuple(self.claims)}


class Misdeal(Phase):
    """docs/rules/callbreak.md rule 2: a hand with no spade or no honour may be thrown in."""

    name = "misdeal"
    parts = (Claims,)

    def begin(self, deal: DealState) -> bool:
        rules = deal.rules
        order = deal.turn_order()
        if rules.misdeal_no_spade:
            for seat in order:
                if not deal.dealt[seat] & deal.deck.suit_masks[rules.trump_suit]:
                    deal.void(f"seat {seat} holds no spade (misdeal_no_spade)")
                    return True
        if rules.misdeal == "off":
            return False
        qualifying = [s for s in order if deal.misdeal_reason(s)]
        if not qualifying:
            return False
        if rules.misdeal == "auto":
            seat = qualifying[0]
            deal.void(f"misdeal: seat {seat} holds {deal.misdeal_reason(seat)} (misdeal=auto)")
            return True
        return _ask(deal, qualifying)

    def legal(self, deal: DealState) -> list[Any]:
        return [True, False]

    def act(self, deal: DealState, action: Action) -> None:
        seat = _yes_no(deal, action, "may claim a misdeal (True) or play on (False)", "misdeal")
        deal.log.append(MisdealClaim((self.name, seat, bool(action))))
        deal.parts[Claims].claims.append((seat, bool(action)))
        if action:
            deal.void(f"misdeal claimed by seat {seat} (holds {deal.misdeal_reason(seat)})")
        else:
            deal.ask_next()


class Calls(Part):
    """Each seat's call (None until made); public, since calls are made aloud in turn."""

    __slots__ = ("calls",)

    def __init__(self, players: int) -> None:
        self.calls: list[int | None] = [None] * players

    def copy(self) -> Calls:
        other = Calls.__new__(Calls)
        other.calls = self.calls.copy()
        return other

    def public(self, deal: DealState) -> Pieces:
        return {"calls": tuple(self.calls)}


class Call(Phase):
    """docs/rules/callbreak.md rules 3–4: each seat once calls its tricks; too few in all
    voids the deal."""

    name = "call"
    parts = (Calls,)

    def begin(self, deal: DealState) -> bool:
        deal.to_act = deal.next_seat(deal.dealer)
        return True

    def legal(self, deal: DealState) -> list[Any]:
        return list(range(deal.rules.min_call, deal.rules.max_call + 1))

    def act(self, deal: DealState, action: Action) -> None:
        rules = deal.rules
        call = number_of(action)
        if call is None or not rules.min_call <= call <= rules.max_call:
            raise IllegalAction(
                f"{action!r} is not a call: call a whole number from {rules.min_call} "
                f"to {rules.max_call} (min_call, max_call)",
                # Not a number at all breaks no bound: rule "call", as "card" for a non-card.
                "call" if call is None else "max_call" if call > rules.max_call else "min_call",
            )
        seat = deal.to_act
        assert seat is not None
        if not take_call(deal, self.name, seat, call, call):
            return
        total = sum(c for c in deal.parts[Calls].calls if c is not None)
        if rules.min_total_calls is not None and total < rules.min_total_calls:
            deal.void(f"calls total {total}, below min_total_calls={rules.min_total_calls}")
            return
        deal.advance()


class Declarations(Part):
    """Void declarations in order, (seat, declared), and the suit letters each seat has made
    public; all public."""

    __slots__ = ("declared", "declared_voids")

    def __init__(self, players: int) -> None:
        self.declared: list[tuple[int, bool]] = []
        self.declared_voids: list[str] = [""] * players

    def copy(self) -> Declarations:
        other = Declarations.__new__(Declarations)
        other.declared = self.declared.copy()
        other.declared_voids = self.declared_voids.copy()
        return other

    def public(self, deal: DealState) -> Pieces:
        return {"declared_voids": tuple(self.declared_voids)}


class Declare(Phase):
    """docs/rules/callbridge.md rule 7 (``declare_voids``): after the calls a seat may make its
    voids public."""

    name = "declare"
    parts = (Declarations,)

    def begin(self, deal: DealState) -> bool:
        if not deal.rules.declare_voids:
            return False
        return _ask(deal, [s for s in deal.turn_order() if deal.void_suits(s)])

    def legal(self, deal: DealState) -> list[Any]:
        return [True, False]

    def act(self, deal: DealState, action: Action) -> None:
        seat = _yes_no(deal, action, "may declare its void suits", "declare_voids")
        deal.log.append(VoidsDeclared((self.name, seat, bool(action))))
        part = deal.parts[Declarations]
        part.declared.append((seat, bool(action)))
        if action:
            part.declared_voids[seat] = deal.void_suits(seat)
        deal.ask_next()


class Bidding(Part):
    """The auction in order, (seat, bid or "pass"), the seats that passed, and the winning bid
    with its bidder (the one being bid up while the auction runs); all public."""

    __slots__ = ("bids", "contract", "declarer", "passed")

    def __init__(self, players: int) -> None:
        self.bids: list[tuple[int, int | str]] = []
        self.passed: frozenset[int] = frozenset()
        self.contract: int | None = None
        self.declarer: int | None = None

    def copy(self) -> Bidding:
        other = Bidding.__new__(Bidding)
        other.bids = self.bids.copy()
        other.passed = self.passed
        other.contract = self.contract
        other.declarer = self.declarer
        return other

    def public(self, deal: DealState) -> Pieces:
        return {"bids": tuple(self.bids), "contract": self.contract, "declarer": self.declarer}


class Auction(Phase):
    """Bids round and round, each higher than the last; a pass is final (docs/rules/batak-ihale.md,
    docs/rules/rook-call-partner.md).

    It ends once every seat but one has passed.  The last seat in becomes the
    declarer at its own last bid, or, if it never bid, at ``forced_bid`` (Batak's
    dealer at 4) or ``min_bid`` (Call Partner) without being asked.
    """

    name = "auction"
    parts = (Bidding,)

    def __init__(self, dealer_first: bool = False) -> None:
        self.dealer_first = dealer_first
        """Call Partner: the dealer speaks first; Batak: the seat after the dealer."""

    def begin(self, deal: DealState) -> bool:
        deal.to_act = deal.dealer if self.dealer_first else deal.next_seat(deal.dealer)
        return True

    def _bids(self, deal: DealState, contract: int | None) -> range:
        rules = deal.rules
        low = rules.min_bid if contract is None else contract + rules.bid_step
        return range(low, rules.max_bid + 1, rules.bid_step)

    def _allowed(self, deal: DealState, contract: int | None, bid: int) -> bool:
        """``bid in self._bids(deal, contract)``, without making the range (every bid asks)."""
        rules = deal.rules
        step = rules.bid_step
        low = rules.min_bid if contract is None else contract + step
        return low <= bid <= rules.max_bid and (bid - low) % step == 0

    def legal(self, deal: DealState) -> list[Any]:
        bidding = deal.parts.get(Bidding)  # no part yet before the first bid
        return [*self._bids(deal, None if bidding is None else bidding.contract), PASS]

    def act(self, deal: DealState, action: Action) -> None:
        seat = deal.to_act
        assert seat is not None
        part = deal.parts[Bidding]
        if isinstance(action, str) and action.strip().lower() == PASS:
            deal.log.append(Bid((self.name, seat, PASS)))
            part.bids.append((seat, PASS))
            part.passed |= {seat}
        else:
            bid = action if type(action) is int else number_of(action)
            if bid is None or not self._allowed(deal, part.contract, bid):
                allowed = self._bids(deal, part.contract)
                rules = deal.rules
                if part.contract is not None and bid is not None and bid <= part.contract:
                    why = f"a bid must be higher than the last bid, {part.contract}"
                    rule = "auction"
                elif bid is not None and rules.min_bid <= bid <= rules.max_bid:
                    why = f"bids go up in steps of {rules.bid_step} (bid_step)"
                    rule = "bid_step"
                else:
                    why = f"bid from {rules.min_bid} to {rules.max_bid} (min_bid, max_bid)"
                    # The bound broken; no bound at all for what is not a number.
                    rule = "bid" if bid is None else "max_bid" if bid > rules.max_bid else "min_bid"
                choices = f"{allowed.start}..{allowed[-1]} or pass" if allowed else "pass"
                raise IllegalAction(f"{action!r} is not allowed: {why}; say {choices}", rule)
            deal.log.append(Bid((self.name, seat, bid)))
            part.bids.append((seat, bid))
            part.contract, part.declarer = bid, seat
        still_in = [s for s in deal.turn_order() if s not in part.passed]
        if len(still_in) == 1:
            last = still_in[0]
            if part.declarer != last:
                rules = deal.rules
                forced = rules.forced_bid if rules.forced_bid is not None else rules.min_bid
                part.contract, part.declarer = forced, last
            deal.advance()
            return
        nxt = deal.next_seat(seat)
        while nxt in part.passed:
            nxt = deal.next_seat(nxt)
        deal.to_act = nxt


class LaidAway(Part):
    """Cards laid away from the hands (Call Partner's nest discards, Horsethief's exchanged
    cards), as a mask.  Whose eyes may see them is the business of the part that lays them
    away, so this one reveals nothing itself."""

    __slots__ = ("discards",)

    def __init__(self, players: int) -> None:
        self.discards = 0

    def copy(self) -> LaidAway:
        other = LaidAway.__new__(LaidAway)
        other.discards = self.discards
        return other

    def move_cards(self, move: Callable[[int], int]) -> None:
        self.discards = move(self.discards)


class Nest(Part):
    """The nest as dealt (Call Partner): the declarer's alone, and only once it has taken it
    into its hand; then the declarer also sees its own discards."""

    __slots__ = ("nest", "taken")

    def __init__(self, players: int) -> None:
        self.nest = 0
        self.taken = False

    def copy(self) -> Nest:
        other = Nest.__new__(Nest)
        other.nest = self.nest
        other.taken = self.taken
        return other

    def dealt(self, layout: Layout) -> None:
        self.nest = layout.nest

    def move_cards(self, move: Callable[[int], int]) -> None:
        self.nest = move(self.nest)

    def private(self, deal: DealState, seat: int) -> Pieces:
        if not (self.taken and self.nest and seat == deal.declarer):
            return {}
        return {
            "nest": tuple(deal.names_of(self.nest)),
            "discards": tuple(deal.names_of(deal.discards)),
        }


class Discard(Phase):
    """Call Partner: the declarer takes the nest into its hand and lays five cards away."""

    name = "discard"
    parts = (Nest, LaidAway)

    def begin(self, deal: DealState) -> bool:
        declarer = deal.parts[Bidding].declarer  # the auction's winner: the auction came first
        assert declarer is not None
        nest = deal.parts[Nest]
        deal.hands[declarer] |= nest.nest
        nest.taken = True
        deal.to_act = declarer
        return True

    def legal(self, deal: DealState) -> list[Any]:
        return deal.names_of(deal.hands[deal.to_act or 0])

    def act(self, deal: DealState, action: Action) -> None:
        seat = deal.to_act
        assert seat is not None
        card = deal.card_or_refuse(action)
        if not deal.hands[seat] >> card & 1:
            raise IllegalAction(
                f"you do not hold the {deal.deck.names[card]}: discard one of your cards",
                "hold_card",
            )
        deal.log.append(Discarded((self.name, seat, deal.deck.names[card])))
        deal.hands[seat] ^= 1 << card
        laid = deal.parts[LaidAway]
        laid.discards |= 1 << card
        if laid.discards.bit_count() == deal.parts[Nest].nest.bit_count():
            deal.advance()


class TrumpChoice(Part):
    """Who names (or named) trump this deal; public.  Trump itself is the deal's own fact."""

    __slots__ = ("chooser",)

    def __init__(self, players: int) -> None:
        self.chooser: int | None = None

    def copy(self) -> TrumpChoice:
        other = TrumpChoice.__new__(TrumpChoice)
        other.chooser = self.chooser
        return other

    def public(self, deal: DealState) -> Pieces:
        return {"chooser": self.chooser}


class Trump(Phase):
    """The declarer names trump (Batak, Call Partner, Snarples; Donut's chooser)."""

    name = "trump"
    parts: ClassVar[tuple[type[Part], ...]] = (TrumpChoice,)

    def begin(self, deal: DealState) -> bool:
        # the auction's winner; its part is there, as the auction came first
        deal.parts[TrumpChoice].chooser = deal.to_act = deal.parts[Bidding].declarer
        return True

    def legal(self, deal: DealState) -> list[Any]:
        return list(deal.deck.suits)

    def act(self, deal: DealState, action: Action) -> None:
        suits = deal.deck.suits
        text = action.strip().upper() if isinstance(action, str) else None
        if text is None or len(text) != 1 or text not in suits:
            raise IllegalAction(
                f"{action!r} is not a suit: name trump as one of {', '.join(suits)}", "trump"
            )
        seat = deal.to_act
        assert seat is not None
        deal.log.append(TrumpNamed((self.name, seat, text)))
        deal.set_trump(suits.index(text))
        deal.advance()


class PartnerCall(Part):
    """Call Partner: the called card (public once called) and its holder, the partner, known
    to itself at once and to everyone once the card is played."""

    __slots__ = ("partner", "partner_card")

    def __init__(self, players: int) -> None:
        self.partner_card: int | None = None
        self.partner: int | None = None

    def copy(self) -> PartnerCall:
        other = PartnerCall.__new__(PartnerCall)
        other.partner_card = self.partner_card
        other.partner = self.partner
        return other

    def move_cards(self, move: Callable[[int], int]) -> None:
        self.partner_card = _move_card(move, self.partner_card)

    def known(self, deal: DealState) -> bool:
        """Whether the partner is public: its card has been played (or the deal is over)."""
        card = self.partner_card
        if card is None:
            return False
        if deal.over or card in deal.trick:
            return True
        return any(card in cards for _, cards, _ in deal.history)

    def public(self, deal: DealState) -> Pieces:
        card = self.partner_card
        if card is None:
            return {}
        return {
            "partner_card": deal.deck.names[card],
            "partner": self.partner if self.known(deal) else None,
        }

    def private(self, deal: DealState, seat: int) -> Pieces:
        if self.partner_card is None or self.partner != seat:
            return {}
        return {"partner": self.partner}


class Partner(Phase):
    """Call Partner: the declarer calls a card; its holder is the secret partner."""

    name = "partner"
    parts = (PartnerCall, LaidAway)

    def begin(self, deal: DealState) -> bool:
        deal.to_act = deal.declarer
        return True

    def _callable(self, deal: DealState) -> int:
        return deal.deck_mask & ~deal.discards

    def legal(self, deal: DealState) -> list[Any]:
        return deal.names_of(self._callable(deal))

    def act(self, deal: DealState, action: Action) -> None:
        card = deal.card_or_refuse(action)
        if not self._callable(deal) >> card & 1:
            raise IllegalAction(
                f"the {deal.deck.names[card]} is in your own discards: call another card",
                "partner",
            )
        seat = deal.to_act
        assert seat is not None
        deal.log.append(PartnerCalled((self.name, seat, deal.deck.names[card])))
        part = deal.parts[PartnerCall]
        part.partner_card = card
        part.partner = next(s for s in range(deal.players) if deal.hands[s] >> card & 1)
        deal.advance()


class Play(Phase):
    """The tricks.  ``leader`` says who leads the first: ``after_dealer``, ``declarer`` or
    ``after_declarer``.  The card itself is applied by ``Deal.act`` (the hot path)."""

    name = "play"

    def __init__(self, leader: str = "after_dealer") -> None:
        self.leader = leader

    def begin(self, deal: DealState) -> bool:
        if self.leader == "declarer":
            first = deal.declarer
        elif self.leader == "after_declarer":
            assert deal.declarer is not None
            first = deal.next_seat(deal.declarer)
        else:
            first = deal.next_seat(deal.dealer)
        assert first is not None
        deal.begin_play(first)
        return True

    def legal(self, deal: DealState) -> list[Any]:
        return deal.names_of(deal.legal_mask())


def take_call(deal: DealState, phase: str, seat: int, said: Action, call: int) -> bool:
    """Log ``seat``'s call as ``said`` and keep it as ``call``, then pass the turn to the
    next seat that has not called; True once every seat has, when the calling phase ends
    its own way (a total too low, the play)."""
    deal.log.append(CallMade((phase, seat, said)))
    calls = deal.parts[Calls].calls
    calls[seat] = call
    nxt = deal.next_seat(seat)
    if calls[nxt] is None:
        deal.to_act = nxt
        return False
    return True


def whole_number(value: object) -> int | None:
    """``value`` as a plain int if it is a whole number: an int or an integer of numpy's, as a
    learner's policy or an env's caller gives (a bool is no number here); else None."""
    if type(value) is int:  # the common case, without the slower check of the ABC
        return value
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return operator.index(value)
    return None


def number_of(action: Action) -> int | None:
    """An int from an integer (``whole_number``) or a string of digits; None for anything
    else (bools too).

    Decimal digits only: ``"²"`` is a digit to ``str.isdigit`` but not a number to ``int``.
    """
    if isinstance(action, str) and action.strip().isdecimal():
        return int(action)
    return whole_number(action)


IN, OUT = "in", "out"
TAKE, GIVE = "take", "give"
DONE = "done"


class OneRoundAuction(Auction):
    """Snarples (docs/rules/snarples.md): each seat speaks once from the seat after the dealer,
    passing or bidding higher than any earlier bid; the highest bid wins; all passing voids the
    deal."""

    def act(self, deal: DealState, action: Action) -> None:
        seat = deal.to_act
        assert seat is not None
        part = deal.parts[Bidding]
        if isinstance(action, str) and action.strip().lower() == PASS:
            deal.log.append(Bid((self.name, seat, PASS)))
            part.bids.append((seat, PASS))
        else:
            bid = action if type(action) is int else number_of(action)
            if bid is None or not self._allowed(deal, part.contract, bid):
                low = deal.rules.min_bid if part.contract is None else part.contract + 1
                raise IllegalAction(
                    f"{action!r} is not allowed: bid from {low} to {deal.rules.max_bid}, "
                    "higher than any earlier bid, or pass",
                    "auction",
                )
            deal.log.append(Bid((self.name, seat, bid)))
            part.bids.append((seat, bid))
            part.contract, part.declarer = bid, seat
        if len(part.bids) < len(deal.active):
            deal.to_act = deal.next_seat(seat)
        elif part.declarer is None:
            deal.void("everyone passed: the same dealer deals again")
        else:
            deal.advance()


class Drops(Part):
    """Seats that dropped or sat out this deal; public."""

    __slots__ = ("dropped",)

    def __init__(self, players: int) -> None:
        self.dropped: frozenset[int] = frozenset()

    def copy(self) -> Drops:
        other = Drops.__new__(Drops)
        other.dropped = self.dropped
        return other

    def public(self, deal: DealState) -> Pieces:
        return {"dropped": tuple(sorted(self.dropped))}


class Drop(Phase):
    """In or out: each seat that may drop says so in turn (a phase nobody may play is skipped).

    Subclasses say who is asked and what happens once all have answered: the
    seats still in become the deal's ``active`` seats, or the deal ends unplayed.
    """

    name = "drop"
    parts: ClassVar[tuple[type[Part], ...]] = (Drops,)

    def asked(self, deal: DealState) -> list[int]:
        raise NotImplementedError

    def settle(self, deal: DealState) -> None:
        """All answered: play on with the seats still in (or end the deal)."""
        drops = deal.parts.get(Drops)  # none when every seat stayed in
        if drops is not None and drops.dropped:
            deal.set_active([s for s in deal.active if s not in drops.dropped])
        deal.advance()

    def begin(self, deal: DealState) -> bool:
        return _ask(deal, self.asked(deal))

    def legal(self, deal: DealState) -> list[Any]:
        return [IN, OUT]

    def act(self, deal: DealState, action: Action) -> None:
        answer = action.strip().lower() if isinstance(action, str) else None
        if answer not in (IN, OUT):
            raise IllegalAction(
                f"seat {deal.to_act} says whether it plays: answer in or out, not {action!r}",
                "drop",
            )
        seat = deal.pending.pop(0)
        deal.log.append(InOrOut((self.name, seat, answer)))
        if answer == OUT:
            part = deal.parts[Drops]
            part.dropped |= {seat}
        if self.decided(deal):
            deal.pending = []
            self.settle(deal)
        elif deal.pending:
            deal.to_act = deal.pending[0]
        else:
            self.settle(deal)

    def decided(self, deal: DealState) -> bool:
        """Whether the answers so far already end the phase (Horsethief's last seat in)."""
        return False


class SitOut(Drop):
    """Snarples: the others may sit out, except after a bid of 1 or with spades trump, and
    no seat more than two deals in a row; if all sit out, the bidder settles."""

    def asked(self, deal: DealState) -> list[int]:
        bidding = deal.parts[Bidding]
        if bidding.contract == 1 or deal.trump == "S":
            return []
        runs = deal.context.sat_out
        declarer = bidding.declarer
        return [
            s for s in deal.turn_order() if s != declarer and (not runs or runs[s] < SIT_OUT_LIMIT)
        ]


SIT_OUT_LIMIT = 2
"""Snarples: no seat may sit out more than two deals in a row."""


class Settlement(Part):
    """Snarples, everyone else sat out: the bidder's choice, "take" or "give"; public."""

    __slots__ = ("settled",)

    def __init__(self, players: int) -> None:
        self.settled: str | None = None

    def copy(self) -> Settlement:
        other = Settlement.__new__(Settlement)
        other.settled = self.settled
        return other

    def public(self, deal: DealState) -> Pieces:
        return {"settled": self.settled}


class Settle(Phase):
    """Snarples: everyone else sat out, so the bidder takes −5 or gives +5 to every other."""

    name = "settle"
    parts = (Settlement,)

    def begin(self, deal: DealState) -> bool:
        if len(deal.active) > 1:
            return False  # someone plays against the bidder
        deal.to_act = deal.parts[Bidding].declarer
        return True

    def legal(self, deal: DealState) -> list[Any]:
        return [TAKE, GIVE]

    def act(self, deal: DealState, action: Action) -> None:
        answer = action.strip().lower() if isinstance(action, str) else None
        if answer not in (TAKE, GIVE):
            raise IllegalAction(
                f"everyone else sat out: take -5 yourself (take) or give +5 to every other "
                f"player (give), not {action!r}",
                "settle",
            )
        seat = deal.to_act
        assert seat is not None
        deal.log.append(Settled((self.name, seat, answer)))
        deal.parts[Settlement].settled = answer
        deal.finish_unplayed(f"everyone else sat out; the bidder chose to {answer}")


class DonutDrop(Drop):
    """Donut: where the upcard allows it, every seat but the dealer may drop; if all do, the
    dealer scores −3 and the deal ends."""

    def asked(self, deal: DealState) -> list[int]:
        if not deal.may_drop:
            return []
        return [s for s in deal.turn_order() if s != deal.dealer]

    def settle(self, deal: DealState) -> None:
        dropped = deal.dropped
        if all(s == deal.dealer or s in dropped for s in deal.active):
            deal.finish_unplayed("everyone but the dealer dropped")
            return
        super().settle(deal)


class HorsethiefDrop(Drop):
    """Horsethief: everyone stays in under clubs; once all but one have dropped, that one
    scores +5 and the deal ends unplayed."""

    def asked(self, deal: DealState) -> list[int]:
        return [] if deal.trump == "C" else deal.turn_order()

    def decided(self, deal: DealState) -> bool:
        drops = deal.parts.get(Drops)  # none until a seat drops
        return drops is not None and len(drops.dropped) == len(deal.active) - 1

    def settle(self, deal: DealState) -> None:
        if self.decided(deal):
            deal.finish_unplayed("all but one dropped")
            return
        super().settle(deal)


class Exchanges(Part):
    """Horsethief: how many cards each seat exchanged, (seat, count), public, and how many
    the seat exchanging now has thrown so far.  The cards each seat threw are known to
    their thrower only (it remembers them: they are in the log, never in a hand)."""

    __slots__ = ("exchanges", "own", "thrown")

    def __init__(self, players: int) -> None:
        self.exchanges: list[tuple[int, int]] = []
        self.thrown = 0
        self.own: dict[int, tuple[str, ...]] = {}
        """The names of the cards each seat threw, in the order of the log's ``Exchanged``
        entries (kept here as they are logged: every observation of a playout shows them,
        and the log grows with every card)."""

    def copy(self) -> Exchanges:
        other = Exchanges.__new__(Exchanges)
        other.exchanges = self.exchanges.copy()
        other.thrown = self.thrown
        other.own = self.own.copy()
        return other

    def public(self, deal: DealState) -> Pieces:
        return {"exchanges": tuple(self.exchanges)}

    def private(self, deal: DealState, seat: int) -> Pieces:
        # Shown from the first card thrown on: the thrower sees what it laid away while
        # its own exchange is still in progress (the search's worlds need it, as a person does).
        if not self.exchanges and not self.thrown:
            return {}
        return {"discards": self.own.get(seat) or None}


class Exchange(Phase):
    """Horsethief: each seat still in, in turn, discards 0 to 5 cards one at a time and draws
    as many from the top of the stock (after ``done`` or its fifth discard)."""

    name = "exchange"
    parts = (Exchanges, LaidAway)

    def begin(self, deal: DealState) -> bool:
        deal.pending = deal.turn_order()
        deal.to_act = deal.pending[0]
        deal.parts[Exchanges]  # made here, empty, so that every seat sees no exchange yet
        return True

    def legal(self, deal: DealState) -> list[Any]:
        return [*deal.names_of(deal.hands[deal.to_act or 0]), DONE]

    def act(self, deal: DealState, action: Action) -> None:
        seat = deal.to_act
        assert seat is not None
        part = deal.parts[Exchanges]
        if isinstance(action, str) and action.strip().lower() == DONE:
            deal.log.append(Exchanged((self.name, seat, DONE)))
            self._draw(deal, part, seat)
            return
        card = deal.card_or_refuse(action)
        if not deal.hands[seat] >> card & 1:
            raise IllegalAction(
                f"you do not hold the {deal.deck.names[card]}: discard one of your cards, "
                "or say done",
                "hold_card",
            )
        name = deal.deck.names[card]
        deal.log.append(Exchanged((self.name, seat, name)))
        part.own[seat] = (*part.own.get(seat, ()), name)
        deal.hands[seat] ^= 1 << card
        part.thrown += 1
        deal.parts[LaidAway].discards |= 1 << card
        if part.thrown == deal.rules.hand_size:
            self._draw(deal, part, seat)

    def _draw(self, deal: DealState, part: Exchanges, seat: int) -> None:
        count = part.thrown
        for card in deal.stock[:count]:
            deal.hands[seat] |= 1 << card
        del deal.stock[:count]
        part.exchanges.append((seat, count))
        deal.pending.pop(0)
        part.thrown = 0
        deal.ask_next()


class TurnedTrump(Phase):
    """Horsethief: the upcard's suit is trump.  No decision: it is set and skipped."""

    name = "trump"

    def begin(self, deal: DealState) -> bool:
        assert deal.upcard is not None
        deal.set_trump(deal.upcard // deal.deck.stride)
        return False


DONUT_RANKS = {
    "2": "dealer",
    "3": "highest",
    "6": "reversed",
    "9": "none",
    "T": "no_drop",
}
"""Donut (docs/rules/donut.md): what the upcard's rank does; any other rank: its suit is trump and
players may drop."""


class UpcardRank(Part):
    """Donut: what the upcard's rank did to this deal: whether players may drop, and whether
    ranks run 2 high … A low (a 6); public, as the upcard is."""

    __slots__ = ("may_drop", "reversed_ranks")

    def __init__(self, players: int) -> None:
        self.may_drop = False
        self.reversed_ranks = False

    def copy(self) -> UpcardRank:
        other = UpcardRank.__new__(UpcardRank)
        other.may_drop = self.may_drop
        other.reversed_ranks = self.reversed_ranks
        return other

    def public(self, deal: DealState) -> Pieces:
        return {"reversed_ranks": self.reversed_ranks}


class DonutTrump(Trump):
    """Donut: the upcard decides trump, who names it, and whether players may drop."""

    parts = (TrumpChoice, UpcardRank)

    def begin(self, deal: DealState) -> bool:
        upcard = deal.upcard
        assert upcard is not None
        rank = deal.deck.names[upcard][0]
        suit = upcard // deal.deck.stride
        effect = DONUT_RANKS.get(rank, "drop")
        said = deal.parts[UpcardRank]
        said.may_drop = effect == "drop"
        if effect == "reversed":
            said.reversed_ranks = True
            deal.reverse_ranks()
            return False
        if effect == "none":
            return False
        if effect in ("drop", "no_drop"):
            deal.set_trump(suit)
            return False
        chooser = deal.dealer
        if effect == "highest":
            top = max(deal.score_before(s) for s in deal.active)
            highest = [s for s in deal.active if deal.score_before(s) == top]
            if len(highest) > 1:
                deal.set_trump(suit)
                said.may_drop = True
                return False
            chooser = highest[0]
        deal.parts[TrumpChoice].chooser = chooser
        deal.to_act = chooser
        return True
