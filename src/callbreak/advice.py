"""A hint and why it is a good idea, in one line a person can act on: the terminal's ``i``
key and the browser's Hint button both ask here, so that they give the same hint.

The hint bot (the expert when it exists) only answers *what* to do; the
reason is read back from the situation the person can see: tricks still
needed against the call or bid, what the hand rates with a trump, whether the
card takes the trick now, the points riding on it.  Everything comes from the
person's own ``Observation`` (and the bots' evaluations of it), so the hint
leaks nothing: a card is only ever named when the person holds it, has seen
it played or chose it.

``explain`` dispatches on the phase; each game of the family differs in what
a trick is worth to the seat (``_stake``), and the cards are read in the deck
in force (``faces.deck_of``: Rook colours, Donut's reversed ranks).

>>> from callbreak import Deal, Rules
>>> deal = Deal(Rules.preset("callbreak"), seed=7, dealer=0)
>>> explain(deal.observation(1), 3).startswith("your hand rates about")
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from callbreak.bots import available_bots, batak, fivecard, rook
from callbreak.bots.heuristic import estimate_tricks
from callbreak.bots.knowledge import Knowledge, read
from callbreak.cards import RANK_COUNT, SUIT_MASKS, SUIT_NAMES, parse_card
from callbreak.decks import ROOK_FREE, Deck
from callbreak.engine import Action, Observation
from callbreak.engine.deal import misdeal_reason
from callbreak.engine.tricks import beats
from callbreak.faces import CARD_PHASES, deck_of, face, phase_face, suit_label, trump_index
from callbreak.games import TURNED_OUT


def hint_spec() -> str:
    """The bot that gives hints: the best there is, the expert, which searches every game of
    the family (the heuristic where a build has no expert), at a budget a person waits for."""
    if "expert" in available_bots():
        return "expert:budget_ms=300"
    return "heuristic"


def hint_words(view: Observation, action: Action) -> str:
    """The hinted ``action`` as a person reads it: the card's face, "call 3" (a Spades seat's
    "bid 3"), or the phase's own words for the answer."""
    if view.phase in CARD_PHASES and str(action) in view.hand:
        return face(str(action))
    if view.phase == "misdeal":
        return "claim a redeal" if action else "play on"
    if view.phase == "declare":
        return "declare" if action else "keep your voids quiet"
    return phase_face(view.phase, view.game).tell(view, action, True)


def explain(observation: Observation, action: Action) -> str:
    """One line on why ``action`` suits ``observation`` (the person's turn).

    Empty only for a phase this module does not know: a hint then shows the
    action alone rather than a guess.
    """
    why = _PHASES.get(observation.phase)
    if why is None:
        return ""
    if len(observation.legal) == 1:
        return "your only legal card" if observation.phase == "play" else "your only choice"
    return why(observation, action)


# ------------------------------------------------------------------ the call games
def _call(observation: Observation, action: Action) -> str:
    if not observation.hand:  # Spades' blind nil is offered before the cards are seen
        if action == "look":
            return "you have not seen your cards: look, then bid what they can make"
        return "you have not seen your cards: a blind nil stakes twice a nil on taking no trick"
    deck = deck_of(observation)
    trump = trump_index(observation, deck)
    rating = estimate_tricks(observation.hand_mask, trump)
    reason = f"your hand rates about {rating:.1f} tricks"
    if observation.rules.trump_suit < 0:  # trump changes deal by deal (Oh Hell, Judgement)
        reason += f" with {suit_label(deck, deck.suits[trump])} trump" if trump >= 0 else ""
    if isinstance(action, int) and action < rating - 0.5:
        reason += f"; {observation.rules.shape.hints.call_short}"
    elif isinstance(action, int) and action > rating + 0.5:
        reason += ", and played out it takes more"
    return reason


def _misdeal(observation: Observation, action: Action) -> str:
    reason = misdeal_reason(observation.rules, observation.hand_mask) or "a weak hand"
    if action:
        return f"the hand holds {reason}: a fresh deal is likely better"
    return "the hand can still make a call: play it"


def _declare(observation: Observation, action: Action) -> str:
    if action:
        return "declaring warns the others off leading your void suit"
    return "a secret void keeps your ruffs a surprise"


def _need_text(need: int) -> str:
    return f"you still need {need}"


def _nil(observation: Observation) -> bool:
    """A seat of a side that bid nil (Spades): its partner's bid is the side's."""
    return bool(observation.rules.shape.partnerships) and not observation.calls[observation.seat]


def _need(observation: Observation) -> int:
    """Tricks the seat still needs for its call: its side's, where partners' bids add up
    (a nil bidder's tricks count for the side, and it needs none itself)."""
    seat = observation.seat
    if _nil(observation):
        return 0
    sides = observation.rules.shape.partnerships
    side = next((s for s in sides if seat in s), (seat,))
    calls = sum(observation.calls[s] or 0 for s in side)
    return calls - sum(observation.tricks_won[s] for s in side)


def _made_text(observation: Observation) -> str:
    """Why an extra trick is unwelcome under the rules in force."""
    rules = observation.rules
    if _nil(observation):
        return "you bid nil, and a single trick breaks it"
    if rules.shape.hints.call_made is not None:
        return rules.shape.hints.call_made
    if rules.success_window == "at_least":
        return f"your call is made and an extra trick is worth only {rules.overtrick_points}"
    return "your call is made and one more trick could break it"


def _explain_card(observation: Observation, card: int) -> str:
    k = read(observation)
    need = _need(observation)
    trump = k.trump
    suit = card // RANK_COUNT
    legal = [parse_card(str(c)) for c in observation.legal]
    if not k.trick:
        return _explain_lead(observation, k, card, need)
    wins_now = beats(card, k.win, trump)
    later = k.seats_after_me()
    any_winner = any(beats(c, k.win, trump) for c in legal)
    if wins_now:
        if need > 0:
            if not later:
                return f"wins the trick: {_need_text(need)}"
            if k.holds(card, later):
                return f"should hold the trick: {_need_text(need)}"
            return f"your best try for the trick: {_need_text(need)}"
        if all(beats(c, k.win, trump) for c in legal):
            return "every legal card wins here: this one costs least"
        return "takes the trick now to keep a dangerous card out of later tricks"
    if need <= 0:
        return f"ducks: {_made_text(observation)}"
    if not any_winner:
        if suit == trump:
            return f"nothing you hold can win this trick: a low {SUIT_NAMES[suit][:-1]} goes"
        return f"nothing you hold can win this trick: throws a low {SUIT_NAMES[suit][:-1]}"
    return f"saves your winners for later: {_need_text(need)}"


def _explain_lead(observation: Observation, k: Knowledge, card: int, need: int) -> str:
    trump = k.trump
    suit = card // RANK_COUNT
    if need > 0:
        if k.is_boss(card):
            if suit == trump:
                kind = SUIT_NAMES[suit][:-1]
                return f"the highest {kind} left draws trumps: {_need_text(need)}"
            return f"the highest {SUIT_NAMES[suit][:-1]} left: {_need_text(need)}"
        if suit == trump:
            return f"draws the others' trumps: {_need_text(need)}"
        length = (k.hand & SUIT_MASKS[suit]).bit_count()
        suits = SUIT_NAMES[suit] if length != 1 else SUIT_NAMES[suit][:-1]
        return f"a low lead from {length} {suits} sets up the suit: {_need_text(need)}"
    return f"a lead that should lose: {_made_text(observation)}"


# ------------------------------------------------------------------ hand ratings
def _suit(deck: Deck, suit: int, plural: bool = False) -> str:
    """``heart``/``hearts``, ``red``/``reds``: a suit in running text."""
    name = deck.suit_names[suit]
    return name if plural else name[:-1]


def _opponents(view: Observation) -> int:
    """Seats still playing against this one (the five-card games' evaluations need it)."""
    return max(1, len(view.active) - len(view.dropped) - 1)


def _five(view: Observation) -> bool:
    """Snarples, Donut, Horsethief: five cards each, most of the pack out of play."""
    return view.rules.shape.policy == fivecard.POLICY


def _rating(view: Observation, suit: int) -> float:
    """Tricks the hand should take with ``suit`` as trump, by the game's own bot."""
    if not _five(view):
        return estimate_tricks(view.hand_mask, suit)
    table = fivecard.table_before_play(view, suit, _opponents(view))
    return fivecard.evaluate(table)[0]


def _best_suit(view: Observation) -> int:
    if not _five(view):
        return batak.best_trump(view.hand_mask)
    return fivecard.best_trump(view, _opponents(view))[0]


def _rates(view: Observation, suit: int) -> str:
    deck = deck_of(view)
    return (
        f"your hand rates about {_rating(view, suit):.1f} tricks "
        f"with {suit_label(deck, deck.suits[suit])} trump"
    )


# ------------------------------------------------------------------ before the play
def _auction(view: Observation, action: Action) -> str:
    """Bid what the hand can make, pass what it cannot: a failed bid is the costly outcome."""
    bids = [b for b in view.legal if isinstance(b, int)]
    lowest = bids[0] if bids else None
    hints = view.rules.shape.hints
    defend = hints.defend
    if _card_points(view):
        value, slack = rook.estimate_points(view.hand_mask), 0.0
        base = f"your hand should bring your side about {value:.0f} points"
    else:
        value, slack = _rating(view, _best_suit(view)), 0.5
        base = _rates(view, _best_suit(view))
    if lowest is None:
        return f"{base}: no higher bid is left"
    if not isinstance(action, int):
        if value < lowest - slack:
            return f"{base}, short of the lowest bid, {lowest}: {defend}"
        return f"{base}, but failing a bid of {lowest} costs {_fail(view, lowest)}: {defend}"
    if action > value + slack:
        return f"{base}: {action} is a stretch, and failing it costs {_fail(view, action)}"
    return f"{base}: {action} is within reach, and the bidder {hints.bid_prize}"


def _card_points(view: Observation) -> bool:
    """Whether the game counts card points, not tricks (Call Partner)."""
    return view.rules.shape.card_points is not None


def _fail(view: Observation, bid: int) -> str:
    """What a failed bid costs the bidder (docs/rules/batak-ihale.md, §5, §8)."""
    return view.rules.shape.hints.failed_bid.format(bid=bid)


def _trump(view: Observation, action: Action) -> str:
    """The suit that makes the hand take most: its rating, against the best one if not it."""
    deck = deck_of(view)
    suit = deck.suits.index(str(action))
    label = suit_label(deck, deck.suits[suit])
    if _card_points(view):
        hand = view.hand_mask
        length = (hand & deck.suit_masks[suit]).bit_count() + (hand >> ROOK_FREE & 1)
        best = rook.best_trump(hand)
        with_rook = ", the Rook included" if hand >> ROOK_FREE & 1 else ""
        reason = f"{length} trumps in {label}{with_rook}"
        if suit == best:
            return f"{reason}: your longest, strongest colour"
        return f"{reason}; {suit_label(deck, deck.suits[best])} is your strongest colour"
    best = _best_suit(view)
    reason = _rates(view, suit)
    if _rating(view, best) > _rating(view, suit) + 0.05:
        reason += f" ({_rating(view, best):.1f} with {suit_label(deck, deck.suits[best])})"
    note = view.rules.shape.hints.trump_notes.get(deck.suits[suit])
    if note is not None:
        return f"{reason}; {note}"
    if view.contract is not None and view.declarer == view.seat:
        return f"{reason}: your bid is {view.contract}"
    return f"{reason}: every trick is −1"


def _signed(value: float) -> str:
    """``+1.2``, ``−0.4``, ``0``: a change of score as people write it."""
    if abs(value) < 0.05:
        return "0"
    return f"{'+' if value > 0 else '−'}{abs(value):.1f}"


def _whole(value: float) -> str:
    """A score as people write it: ``12``, ``−1``."""
    return f"{value:.0f}".replace("-", "−")


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _drop(view: Observation, action: Action) -> str:
    """Playing is worth the tricks less the cost of none times its chance; dropping is free
    (but for a low Snarples score), so a hand likely to take nothing sits out."""
    table = fivecard.table_before_play(view, fivecard.trump_of(view), _opponents(view))
    tricks, none = fivecard.evaluate(table)
    game = view.rules.shape
    cost = game.hints.none_cost
    rating = f"your hand rates about {tricks:.1f} tricks with a {none:.0%} chance of none"
    playing = action in ("in", True)
    if not game.lowest_wins:
        worth = tricks - cost * none
        said = f"staying in is worth about {_signed(worth)} as dealt (−{cost} for none)"
        return f"{rating}: {said}, dropping 0{_against(playing, worth > 0)}"
    moves = cost * none - tricks
    said = f"playing moves your score about {_signed(moves)} (+{cost} for none)"
    out, cost_out = "dropping 0", 0
    score = fivecard.score_of(view, view.seat)
    sit_out = game.hints.sit_out
    if sit_out is not None and score <= sit_out[0]:
        out, cost_out = f"sitting out +{sit_out[1]} at your score of {_whole(score)}", sit_out[1]
    return f"{rating}: {said}, {out}{_against(playing, moves < cost_out)}"


def _against(chosen: bool, rated: bool) -> str:
    """Where the hand's rating alone points the other way, say that the choice is the
    search's: it played the deal out over many deals the seat cannot tell from this one."""
    if chosen == rated:
        return ""
    return "; the rating alone says otherwise, but many deals played out favour this"


def _settle(view: Observation, action: Action) -> str:
    """Everyone else sat out: −5 for the bidder and +5 for the others move it as far ahead;
    what differs is whether the end comes nearer (good when leading) or not."""
    mine = fivecard.score_of(view, view.seat)
    others = [fivecard.score_of(view, s) for s in view.dealt_in if s != view.seat]
    best = min(others, default=mine + 1)
    if action == "take":
        if mine - 5 <= 0 and mine - 5 < best:
            return f"−5 takes you to {_whole(mine - 5)}: at or below 0 and lowest, you win"
        if best >= mine:
            return "nobody is ahead of you: −5 yourself brings the end nearer"
        return f"−5 takes you to {_whole(mine - 5)}, the others staying where they are"
    if best < mine:
        return f"+5 to the others keeps the leader, at {_whole(best)}, away from 0"
    return (
        f"+5 to the others moves them away as much as −5 would move you: you stay at {_whole(mine)}"
    )


def _exchange(view: Observation, action: Action) -> str:
    """Throw the side cards unlikely to take a trick; a blind draw is worth a little."""
    thrown = view.hand_size - view.hand_mask.bit_count()
    draw = f"a card drawn blind is worth about {fivecard.DRAW_CHANCE:.0%}"
    if thrown >= view.stock_size:
        short = "a card thrown now would not be replaced"
        return f"the stock has no card left for another throw: {short}"
    table = fivecard.table_before_play(view, fivecard.trump_of(view), _opponents(view))
    chances = dict(fivecard.card_chances(table))
    if action == "done":
        side = [c for card, c in chances.items() if card // fivecard.STRIDE != table.trump]
        if not side:
            return "you hold only trumps: keep them all"
        if min(side) >= fivecard.KEEP:
            return f"every side card left has a fair chance of a trick: {draw}"
        return f"your weakest card has about a {min(side):.0%} chance of a trick; {draw}"
    card = fivecard.deck_of(view).parse(str(action))
    chance = chances.get(card, 0.0)
    what = "a trump" if card // fivecard.STRIDE == table.trump else f"the {face(str(action))}"
    if chance < fivecard.KEEP:
        return f"{what} has only about a {chance:.0%} chance of a trick: a fresh card may do better"
    return (
        f"{what} has about a {chance:.0%} chance of a trick, but many deals played out favour "
        "throwing it"
    )


def _discard(view: Observation, action: Action) -> str:
    """Lay away what is neither a trump nor points: the nest goes to the last trick's winner."""
    deck = deck_of(view)
    card = deck.parse(str(action))
    hand = view.hand_mask
    if card == ROOK_FREE:
        return "the Rook is worth 20: laid away, it goes to whoever takes the last trick"
    points = rook.points(card)
    if points:
        return f"worth {points} points: laid away, they go to whoever takes the last trick"
    whole = hand | deck.parse_hand(list(view.discards or ()))
    suit = card // deck.stride
    colour = _suit(deck, suit)
    best = rook.best_trump(whole)
    if suit == best:
        return f"a {colour}, your best colour for trump: side cards are better laid away"
    if not hand & deck.suit_masks[suit] & ~(1 << card):
        return f"worth no points, and your last {colour}: you can trump {_suit(deck, suit, True)}"
    return f"worth no points, and {_suit(deck, best, True)} make a better trump"


def _partner(view: Observation, action: Action) -> str:
    """Call a card that wins: its holder joins the side with a trick in hand."""
    deck = deck_of(view)
    card = deck.parse(str(action))
    hand = view.hand_mask
    if hand >> card & 1:
        return "you hold it yourself: you play alone against three"
    suit = card // deck.stride
    mine = hand | deck.parse_hand(list(view.discards or ()))
    higher = deck.full & deck.suit_masks[suit] & ~((2 << card) - 1) & ~mine
    kind = "trump" if deck.suits[suit] == view.trump else _suit(deck, suit)
    if not higher:
        return f"the best {kind} you lack: its holder joins your side with a winner"
    count = higher.bit_count()
    verb = "is" if count == 1 else "are"
    return f"its holder joins your side, though {_plural(count, 'higher ' + kind)} {verb} out"


# ------------------------------------------------------------------ the play
@dataclass(frozen=True)
class _Seen:
    """The play as this seat sees it, in the deck in force: cards still out, voids shown,
    the trick so far and who still plays to it."""

    deck: Deck
    trump: int
    hand: int
    unseen: int
    voids: dict[int, int]
    trick: tuple[int, ...]
    win: int
    win_seat: int
    later: tuple[int, ...]

    @classmethod
    def read(cls, view: Observation) -> _Seen:
        deck = deck_of(view)
        trump = trump_index(view, deck)
        voids: dict[int, int] = {}
        for past in (*view.history, view.trick):
            cards = [deck.parse(c) for c in past.cards]
            for seat, card in zip(past.seats(view.players)[1:], cards[1:], strict=True):
                if card // deck.stride != cards[0] // deck.stride:
                    voids[seat] = voids.get(seat, 0) | 1 << cards[0] // deck.stride
        known = view.hand_mask | view.played_mask | deck.parse_hand(list(view.discards or ()))
        if view.upcard is not None and view.rules.shape.upcard == TURNED_OUT:
            known |= 1 << deck.parse(view.upcard)  # turned up and never drawn
        trick = tuple(deck.parse(c) for c in view.trick.cards)
        seats = view.trick.seats(view.players)
        win, win_seat = -1, -1
        for seat, card in zip(seats, trick, strict=True):
            if win < 0 or beats(card, win, trump, deck.stride):
                win, win_seat = card, seat
        active = list(view.active or range(view.players))
        at = active.index(view.trick.leader) if view.trick.leader in active else 0
        order = active[at:] + active[:at]
        later = tuple(order[len(trick) + 1 :])
        return cls(
            deck, trump, view.hand_mask, deck.full & ~known, voids, trick, win, win_seat, later
        )

    def suit(self, card: int) -> int:
        return card // self.deck.stride

    def top(self, card: int) -> bool:
        """No card still out of sight beats it in its suit."""
        return not self.unseen & self.deck.suit_masks[self.suit(card)] & ~((2 << card) - 1)

    def highest(self, card: int, kind: str) -> str:
        """``card`` is ``top``: "the highest heart left", or, when the hand holds a higher
        one, that nothing higher is out against it."""
        if self.hand & self.deck.suit_masks[self.suit(card)] & ~((2 << card) - 1):
            return f"no higher {kind} is out"
        return f"the highest {kind} left"

    def wins(self, card: int) -> bool:
        """Whether ``card`` takes the trick from the card winning it now."""
        return beats(card, self.win, self.trump, self.deck.stride)

    def safe(self, card: int) -> bool:
        """Nobody still to play has shown a void in its suit while trumps are out."""
        suit = self.suit(card)
        if suit == self.trump or self.trump < 0:
            return True
        trumps_out = self.unseen & self.deck.suit_masks[self.trump]
        return not trumps_out or not any(self.voids.get(s, 0) >> suit & 1 for s in self.later)

    def holds(self, card: int) -> bool:
        """Whether ``card`` still wins once the later seats have played (as ``Knowledge.holds``)."""
        return self.top(card) and self.safe(card)


def _play(view: Observation, action: Action) -> str:
    if view.rules.shape.calls:
        return _explain_card(view, parse_card(str(action)))
    seen = _Seen.read(view)
    card = seen.deck.parse(str(action))
    if _card_points(view):
        return _rook_card(view, seen, card)
    return _trick_card(view, seen, card)


def _stake(view: Observation) -> str:
    """What one more trick is worth to this seat now, in its game."""
    me, hints = view.seat, view.rules.shape.hints
    won = view.tricks_won[me]
    bid = view.contract
    if hints.bid_made is not None and me == view.declarer and bid is not None:
        need = bid - won
        if need > 0:
            return _need_text(need) + f" for your bid of {bid}"
        return "your bid is made, and " + hints.bid_made
    if hints.defenders_score and bid is not None and view.declarer is not None:
        if not won:
            return f"a first trick saves you the −{bid}"
        short = bid - view.tricks_won[view.declarer]
        left = view.hand_size - len(view.history)
        if short > left:
            return "the bid is set: each trick is still +1"
        if short > 0:
            return f"each trick is +1, and the bidder still needs {short}"
        return "each trick is +1"
    if not won:
        return f"a first trick saves you the {hints.no_trick}"
    return hints.trick


def _chance(view: Observation, seen: _Seen, card: int) -> float:
    """Chance that ``card`` takes the trick: the five-card bots' estimate (most of the pack is
    out of play, so "the highest left" is too strict); 1 or 0 with thirteen cards each."""
    if not _five(view):
        return 1.0 if (not seen.trick or seen.wins(card)) and seen.holds(card) else 0.0
    led = seen.suit(seen.trick[0]) if seen.trick else -1
    table = fivecard.table_in_play(view)
    return table.win_chance(card, led, list(seen.later))


def _odds(chance: float) -> str:
    return "should take the trick" if chance >= 0.95 else f"about {chance:.0%} to take the trick"


def _trick_card(view: Observation, seen: _Seen, card: int) -> str:
    """Batak and the five-card games: every trick is good for the seat that takes it."""
    stake = _stake(view)
    suit = seen.suit(card)
    deck = seen.deck
    legal = [deck.parse(str(c)) for c in view.legal]
    chance = _chance(view, seen, card)
    flipped = " (ranks reversed)" if view.reversed_ranks else ""
    if not seen.trick:
        if chance >= fivecard.WIN_WORTH:
            if not _five(view):
                kind = "trump" if suit == seen.trump else _suit(deck, suit)
                return f"{seen.highest(card, kind)}: {stake}"
            return f"{_odds(chance)}{flipped}: {stake}"
        if suit == seen.trump:
            return f"draws the others' trumps: {stake}"
        if seen.top(card):
            kind = _suit(deck, suit)
            return f"{seen.highest(card, kind)}, though it may be trumped: {stake}"
        length = (seen.hand & deck.suit_masks[suit]).bit_count()
        suits = _suit(deck, suit, length != 1)
        return f"a lead from {length} {suits} that keeps your winners: {stake}"
    if seen.wins(card):
        if not seen.later:
            return f"wins the trick: {stake}"
        if chance >= fivecard.WIN_WORTH:
            return f"{_odds(chance)}{flipped}: {stake}"
        return f"takes the lead, though a later card may beat it: {stake}"
    beaten = face(deck.names[seen.win])
    if not any(seen.wins(c) for c in legal):
        return f"nothing you hold beats the {beaten}: give up your least useful card"
    return f"lets the {beaten} win, keeping your better cards: {stake}"


def _rook_card(view: Observation, seen: _Seen, card: int) -> str:
    """Call Partner: points decide, so a card is told by the points it wins, feeds or saves."""
    points = rook.points(card)
    worth = f", worth {points} points" if points else ""
    deck = seen.deck
    kind = "trump" if seen.suit(card) == seen.trump else _suit(deck, seen.suit(card))
    if not seen.trick:
        if seen.top(card):
            if kind == "trump":
                return f"{seen.highest(card, kind)}{worth}: draws the others' trumps"
            if seen.safe(card):
                return f"{seen.highest(card, kind)}{worth}: it should win the trick"
            return f"{seen.highest(card, kind)}{worth}, though a void seat may trump it"
        if points:
            return f"worth {points} points, though a higher {kind} is still out"
        return "a lead worth no points: little is lost if it loses"
    at_stake = sum(rook.points(c) for c in seen.trick) + points
    if len(view.history) == view.hand_size - 1:
        at_stake += view.rules.last_trick_points  # and the nest, which only its owner knows
    prize = f"its {at_stake} points" if at_stake else "a trick with no points"
    legal = [deck.parse(str(c)) for c in view.legal]
    if seen.win_seat in rook.friends(view) and not seen.wins(card):
        if points:
            return f"your side is winning the trick: feeds it {points} points"
        return "your side is winning the trick: a card worth no points will do"
    if seen.wins(card):
        if not seen.later or seen.holds(card):
            return f"takes the trick and {prize}" if at_stake else "takes the trick"
        return f"takes the lead for {prize}, though a later seat may still beat it"
    beaten = face(deck.names[seen.win])
    if not any(seen.wins(c) for c in legal):
        lost = f"its {points} points go with it" if points else "it gives away no points"
        return f"nothing you hold beats the {beaten}: {lost}"
    return f"lets the {beaten} win {prize}, keeping your winners"


_PHASES: dict[str, Callable[[Observation, Action], str]] = {
    "call": _call,
    "misdeal": _misdeal,
    "declare": _declare,
    "auction": _auction,
    "trump": _trump,
    "drop": _drop,
    "settle": _settle,
    "exchange": _exchange,
    "discard": _discard,
    "partner": _partner,
    "play": _play,
}
"""Every phase of the family, by name (``engine.phases``)."""
