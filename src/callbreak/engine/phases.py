"""The phases of a deal before and after the play, each an object with one lifecycle.

A game's record (``callbreak.games``) lists its phases in order.  ``Deal`` walks
them: ``begin`` sets up the phase and says who acts (or returns False to skip
it: nobody qualifies, or the option is off); ``legal`` lists the actions of the
seat to act; ``act`` checks and applies one, raising ``IllegalAction`` that names
the rule and changing nothing, and calls ``deal.advance()`` when the phase is
done.  The state a phase leaves behind (calls, bids, contract, trump, partner
card) lives on the ``Deal``, where the one observation builder reads what is
public.  The play itself is a phase too, but its ``act`` is inlined in
``Deal.act`` because every random playout runs through it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from callbreak.engine.errors import IllegalAction

if TYPE_CHECKING:
    from callbreak.engine.deal import Action, Deal

PASS = "pass"


class Phase:
    """One step of a deal; subclasses fill in the lifecycle."""

    name: ClassVar[str]

    def begin(self, deal: Deal) -> bool:
        """Set ``deal.to_act`` for the first decision; False skips the phase."""
        raise NotImplementedError

    def legal(self, deal: Deal) -> list[Any]:
        raise NotImplementedError

    def act(self, deal: Deal, action: Action) -> None:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<phase {self.name}>"


def _ask(deal: Deal, seats: list[int]) -> bool:
    """Queue ``seats`` to answer in turn; False (skip the phase) when nobody is asked."""
    if not seats:
        return False
    deal.pending = seats
    deal.to_act = seats[0]
    return True


def _yes_no(deal: Deal, action: Action, question: str, rule: str) -> int:
    """Check a yes/no answer and take the seat that gave it off the pending list."""
    if not isinstance(action, bool):
        raise IllegalAction(
            f"seat {deal.to_act} {question}: answer True or False, not {action!r}", rule
        )
    return deal.pending.pop(0)


class Misdeal(Phase):
    """docs/rules/callbreak.md rule 2: a hand with no spade or no honour may be thrown in."""

    name = "misdeal"

    def begin(self, deal: Deal) -> bool:
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

    def legal(self, deal: Deal) -> list[Any]:
        return [True, False]

    def act(self, deal: Deal, action: Action) -> None:
        seat = _yes_no(deal, action, "may claim a misdeal (True) or play on (False)", "misdeal")
        deal.log_action(self.name, seat, bool(action))
        deal.claims.append((seat, bool(action)))
        if action:
            deal.void(f"misdeal claimed by seat {seat} (holds {deal.misdeal_reason(seat)})")
        else:
            deal.ask_next()


class Call(Phase):
    """docs/rules/callbreak.md rules 3–4: each seat once calls its tricks; too few in all
    voids the deal."""

    name = "call"

    def begin(self, deal: Deal) -> bool:
        deal.to_act = deal.next_seat(deal.dealer)
        return True

    def legal(self, deal: Deal) -> list[Any]:
        return list(range(deal.rules.min_call, deal.rules.max_call + 1))

    def act(self, deal: Deal, action: Action) -> None:
        rules = deal.rules
        call = _whole(action)
        if call is None or not rules.min_call <= call <= rules.max_call:
            raise IllegalAction(
                f"{action!r} is not a call: call a whole number from {rules.min_call} "
                f"to {rules.max_call} (min_call, max_call)",
                "max_call" if call is not None and call > rules.max_call else "min_call",
            )
        seat = deal.to_act
        assert seat is not None
        deal.log_action(self.name, seat, call)
        deal.calls[seat] = call
        nxt = deal.next_seat(seat)
        if deal.calls[nxt] is None:
            deal.to_act = nxt
            return
        total = sum(c for c in deal.calls if c is not None)
        if rules.min_total_calls is not None and total < rules.min_total_calls:
            deal.void(f"calls total {total}, below min_total_calls={rules.min_total_calls}")
            return
        deal.advance()


class Declare(Phase):
    """docs/rules/callbridge.md rule 7 (``declare_voids``): after the calls a seat may make its
    voids public."""

    name = "declare"

    def begin(self, deal: Deal) -> bool:
        if not deal.rules.declare_voids:
            return False
        return _ask(deal, [s for s in deal.turn_order() if deal.void_suits(s)])

    def legal(self, deal: Deal) -> list[Any]:
        return [True, False]

    def act(self, deal: Deal, action: Action) -> None:
        seat = _yes_no(deal, action, "may declare its void suits", "declare_voids")
        deal.log_action(self.name, seat, bool(action))
        deal.declared.append((seat, bool(action)))
        if action:
            deal.declared_voids[seat] = deal.void_suits(seat)
        deal.ask_next()


class Auction(Phase):
    """Bids round and round, each higher than the last; a pass is final (docs/rules/batak-ihale.md,
    docs/rules/rook-call-partner.md).

    It ends once every seat but one has passed.  The last seat in becomes the
    declarer at its own last bid, or, if it never bid, at ``forced_bid`` (Batak's
    dealer at 4) or ``min_bid`` (Call Partner) without being asked.
    """

    name = "auction"

    def __init__(self, dealer_first: bool = False) -> None:
        self.dealer_first = dealer_first
        """Call Partner: the dealer speaks first; Batak: the seat after the dealer."""

    def begin(self, deal: Deal) -> bool:
        deal.to_act = deal.dealer if self.dealer_first else deal.next_seat(deal.dealer)
        return True

    def _bids(self, deal: Deal) -> range:
        rules = deal.rules
        low = rules.min_bid if deal.contract is None else deal.contract + rules.bid_step
        return range(low, rules.max_bid + 1, rules.bid_step)

    def legal(self, deal: Deal) -> list[Any]:
        return [*self._bids(deal), PASS]

    def act(self, deal: Deal, action: Action) -> None:
        seat = deal.to_act
        assert seat is not None
        if isinstance(action, str) and action.strip().lower() == PASS:
            deal.log_action(self.name, seat, PASS)
            deal.bids.append((seat, PASS))
            deal.passed |= {seat}
        else:
            bid = _whole(action)
            allowed = self._bids(deal)
            if bid is None or bid not in allowed:
                rules = deal.rules
                if deal.contract is not None and bid is not None and bid <= deal.contract:
                    why = f"a bid must be higher than the last bid, {deal.contract}"
                    rule = "auction"
                elif bid is not None and rules.min_bid <= bid <= rules.max_bid:
                    why = f"bids go up in steps of {rules.bid_step} (bid_step)"
                    rule = "bid_step"
                else:
                    why = f"bid from {rules.min_bid} to {rules.max_bid} (min_bid, max_bid)"
                    rule = "min_bid"
                choices = f"{allowed.start}..{allowed[-1]} or pass" if allowed else "pass"
                raise IllegalAction(f"{action!r} is not allowed: {why}; say {choices}", rule)
            deal.log_action(self.name, seat, bid)
            deal.bids.append((seat, bid))
            deal.contract, deal.declarer = bid, seat
        still_in = [s for s in deal.turn_order() if s not in deal.passed]
        if len(still_in) == 1:
            last = still_in[0]
            if deal.declarer != last:
                rules = deal.rules
                forced = rules.forced_bid if rules.forced_bid is not None else rules.min_bid
                deal.contract, deal.declarer = forced, last
            deal.advance()
            return
        nxt = deal.next_seat(seat)
        while nxt in deal.passed:
            nxt = deal.next_seat(nxt)
        deal.to_act = nxt


class Discard(Phase):
    """Call Partner: the declarer takes the nest into its hand and lays five cards away."""

    name = "discard"

    def begin(self, deal: Deal) -> bool:
        declarer = deal.declarer
        assert declarer is not None
        deal.hands[declarer] |= deal.nest
        deal.to_act = declarer
        return True

    def legal(self, deal: Deal) -> list[Any]:
        return deal.names_of(deal.hands[deal.to_act or 0])

    def act(self, deal: Deal, action: Action) -> None:
        seat = deal.to_act
        assert seat is not None
        card = deal.card_or_refuse(action)
        if not deal.hands[seat] >> card & 1:
            raise IllegalAction(
                f"you do not hold the {deal.deck.names[card]}: discard one of your cards",
                "hold_card",
            )
        deal.log_action(self.name, seat, deal.deck.names[card])
        deal.hands[seat] ^= 1 << card
        deal.discards |= 1 << card
        if deal.discards.bit_count() == deal.nest.bit_count():
            deal.advance()


class Trump(Phase):
    """The declarer names trump (Batak, Call Partner, Snarples; Donut's chooser)."""

    name = "trump"

    def begin(self, deal: Deal) -> bool:
        deal.chooser = deal.declarer
        deal.to_act = deal.declarer
        return True

    def legal(self, deal: Deal) -> list[Any]:
        return list(deal.deck.suits)

    def act(self, deal: Deal, action: Action) -> None:
        suits = deal.deck.suits
        text = action.strip().upper() if isinstance(action, str) else None
        if text is None or len(text) != 1 or text not in suits:
            raise IllegalAction(
                f"{action!r} is not a suit: name trump as one of {', '.join(suits)}", "trump"
            )
        seat = deal.to_act
        assert seat is not None
        deal.log_action(self.name, seat, text)
        deal.set_trump(suits.index(text))
        deal.advance()


class Partner(Phase):
    """Call Partner: the declarer calls a card; its holder is the secret partner."""

    name = "partner"

    def begin(self, deal: Deal) -> bool:
        deal.to_act = deal.declarer
        return True

    def _callable(self, deal: Deal) -> int:
        return deal.deck_mask & ~deal.discards

    def legal(self, deal: Deal) -> list[Any]:
        return deal.names_of(self._callable(deal))

    def act(self, deal: Deal, action: Action) -> None:
        card = deal.card_or_refuse(action)
        if not self._callable(deal) >> card & 1:
            raise IllegalAction(
                f"the {deal.deck.names[card]} is in your own discards: call another card",
                "partner",
            )
        seat = deal.to_act
        assert seat is not None
        deal.log_action(self.name, seat, deal.deck.names[card])
        deal.partner_card = card
        deal.partner = next(s for s in range(deal.players) if deal.hands[s] >> card & 1)
        deal.advance()


class Play(Phase):
    """The tricks.  ``leader`` says who leads the first: ``after_dealer``, ``declarer`` or
    ``after_declarer``.  The card itself is applied by ``Deal.act`` (the hot path)."""

    name = "play"

    def __init__(self, leader: str = "after_dealer") -> None:
        self.leader = leader

    def begin(self, deal: Deal) -> bool:
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

    def legal(self, deal: Deal) -> list[Any]:
        return deal.names_of(deal.legal_mask())


def _whole(action: Action) -> int | None:
    """An int from an int or a string of digits; None for anything else (bools too).

    Decimal digits only: ``"²"`` is a digit to ``str.isdigit`` but not a number to ``int``.
    """
    if isinstance(action, str) and action.strip().isdecimal():
        return int(action)
    if isinstance(action, int) and not isinstance(action, bool):
        return action
    return None


IN, OUT = "in", "out"
TAKE, GIVE = "take", "give"
DONE = "done"


class OneRoundAuction(Auction):
    """Snarples (docs/rules/snarples.md): each seat speaks once from the seat after the dealer,
    passing or bidding higher than any earlier bid; the highest bid wins; all passing voids the
    deal."""

    def act(self, deal: Deal, action: Action) -> None:
        seat = deal.to_act
        assert seat is not None
        if isinstance(action, str) and action.strip().lower() == PASS:
            deal.log_action(self.name, seat, PASS)
            deal.bids.append((seat, PASS))
        else:
            bid = _whole(action)
            allowed = self._bids(deal)
            if bid is None or bid not in allowed:
                low = deal.rules.min_bid if deal.contract is None else deal.contract + 1
                raise IllegalAction(
                    f"{action!r} is not allowed: bid from {low} to {deal.rules.max_bid}, "
                    "higher than any earlier bid, or pass",
                    "auction",
                )
            deal.log_action(self.name, seat, bid)
            deal.bids.append((seat, bid))
            deal.contract, deal.declarer = bid, seat
        if len(deal.bids) < len(deal.active):
            deal.to_act = deal.next_seat(seat)
        elif deal.declarer is None:
            deal.void("everyone passed: the same dealer deals again")
        else:
            deal.advance()


class Drop(Phase):
    """In or out: each seat that may drop says so in turn (a phase nobody may play is skipped).

    Subclasses say who is asked and what happens once all have answered: the
    seats still in become the deal's ``active`` seats, or the deal ends unplayed.
    """

    name = "drop"

    def asked(self, deal: Deal) -> list[int]:
        raise NotImplementedError

    def settle(self, deal: Deal) -> None:
        """All answered: play on with the seats still in (or end the deal)."""
        deal.set_active([s for s in deal.active if s not in deal.dropped])
        deal.advance()

    def begin(self, deal: Deal) -> bool:
        return _ask(deal, self.asked(deal))

    def legal(self, deal: Deal) -> list[Any]:
        return [IN, OUT]

    def act(self, deal: Deal, action: Action) -> None:
        answer = action.strip().lower() if isinstance(action, str) else None
        if answer not in (IN, OUT):
            raise IllegalAction(
                f"seat {deal.to_act} says whether it plays: answer in or out, not {action!r}",
                "drop",
            )
        seat = deal.pending.pop(0)
        deal.log_action(self.name, seat, answer)
        if answer == OUT:
            deal.dropped |= {seat}
        if self.decided(deal):
            deal.pending = []
            self.settle(deal)
        elif deal.pending:
            deal.to_act = deal.pending[0]
        else:
            self.settle(deal)

    def decided(self, deal: Deal) -> bool:
        """Whether the answers so far already end the phase (Horsethief's last seat in)."""
        return False


class SitOut(Drop):
    """Snarples: the others may sit out, except after a bid of 1 or with spades trump, and
    no seat more than two deals in a row; if all sit out, the bidder settles."""

    def asked(self, deal: Deal) -> list[int]:
        if deal.contract == 1 or deal.trump == "S":
            return []
        runs = deal.context.sat_out
        return [
            s
            for s in deal.turn_order()
            if s != deal.declarer and (not runs or runs[s] < SIT_OUT_LIMIT)
        ]


SIT_OUT_LIMIT = 2
"""Snarples: no seat may sit out more than two deals in a row."""


class Settle(Phase):
    """Snarples: everyone else sat out, so the bidder takes −5 or gives +5 to every other."""

    name = "settle"

    def begin(self, deal: Deal) -> bool:
        if len(deal.active) > 1:
            return False  # someone plays against the bidder
        deal.to_act = deal.declarer
        return True

    def legal(self, deal: Deal) -> list[Any]:
        return [TAKE, GIVE]

    def act(self, deal: Deal, action: Action) -> None:
        answer = action.strip().lower() if isinstance(action, str) else None
        if answer not in (TAKE, GIVE):
            raise IllegalAction(
                f"everyone else sat out: take -5 yourself (take) or give +5 to every other "
                f"player (give), not {action!r}",
                "settle",
            )
        seat = deal.to_act
        assert seat is not None
        deal.log_action(self.name, seat, answer)
        deal.settled = answer
        deal.finish_unplayed(f"everyone else sat out; the bidder chose to {answer}")


class DonutDrop(Drop):
    """Donut: where the upcard allows it, every seat but the dealer may drop; if all do, the
    dealer scores −3 and the deal ends."""

    def asked(self, deal: Deal) -> list[int]:
        if not deal.may_drop:
            return []
        return [s for s in deal.turn_order() if s != deal.dealer]

    def settle(self, deal: Deal) -> None:
        if all(s == deal.dealer or s in deal.dropped for s in deal.active):
            deal.finish_unplayed("everyone but the dealer dropped")
            return
        super().settle(deal)


class HorsethiefDrop(Drop):
    """Horsethief: everyone stays in under clubs; once all but one have dropped, that one
    scores +5 and the deal ends unplayed."""

    def asked(self, deal: Deal) -> list[int]:
        return [] if deal.trump == "C" else deal.turn_order()

    def decided(self, deal: Deal) -> bool:
        return len(deal.dropped) == len(deal.active) - 1

    def settle(self, deal: Deal) -> None:
        if len(deal.dropped) == len(deal.active) - 1:
            deal.finish_unplayed("all but one dropped")
            return
        super().settle(deal)


class Exchange(Phase):
    """Horsethief: each seat still in, in turn, discards 0 to 5 cards one at a time and draws
    as many from the top of the stock (after ``done`` or its fifth discard)."""

    name = "exchange"

    def begin(self, deal: Deal) -> bool:
        deal.pending = deal.turn_order()
        deal.to_act = deal.pending[0]
        deal.thrown = 0
        deal.exchanges = []
        return True

    def legal(self, deal: Deal) -> list[Any]:
        return [*deal.names_of(deal.hands[deal.to_act or 0]), DONE]

    def act(self, deal: Deal, action: Action) -> None:
        seat = deal.to_act
        assert seat is not None
        if isinstance(action, str) and action.strip().lower() == DONE:
            deal.log_action(self.name, seat, DONE)
            self._draw(deal, seat)
            return
        card = deal.card_or_refuse(action)
        if not deal.hands[seat] >> card & 1:
            raise IllegalAction(
                f"you do not hold the {deal.deck.names[card]}: discard one of your cards, "
                "or say done",
                "hold_card",
            )
        deal.log_action(self.name, seat, deal.deck.names[card])
        deal.hands[seat] ^= 1 << card
        deal.thrown += 1
        deal.discards |= 1 << card
        if deal.thrown == deal.rules.hand_size:
            self._draw(deal, seat)

    def _draw(self, deal: Deal, seat: int) -> None:
        count = deal.thrown
        for card in deal.stock[:count]:
            deal.hands[seat] |= 1 << card
        del deal.stock[:count]
        deal.exchanges.append((seat, count))
        deal.pending.pop(0)
        deal.thrown = 0
        deal.ask_next()


class TurnedTrump(Phase):
    """Horsethief: the upcard's suit is trump.  No decision: it is set and skipped."""

    name = "trump"

    def begin(self, deal: Deal) -> bool:
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


class DonutTrump(Trump):
    """Donut: the upcard decides trump, who names it, and whether players may drop."""

    def begin(self, deal: Deal) -> bool:
        upcard = deal.upcard
        assert upcard is not None
        rank = deal.deck.names[upcard][0]
        suit = upcard // deal.deck.stride
        effect = DONUT_RANKS.get(rank, "drop")
        deal.may_drop = effect == "drop"
        if effect == "reversed":
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
                deal.may_drop = True
                return False
            chooser = highest[0]
        deal.chooser = chooser
        deal.to_act = chooser
        return True
