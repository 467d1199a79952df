"""One seat's ``Observation`` as a fixed-size vector, and every action of a game as an index.

The RL faces (the PettingZoo env, the Gymnasium single seat, the OpenSpiel game
and the ``rl`` bot) all encode through ``Encoder``, and ``Encoder.encode``
reads nothing but an ``Observation``: the hidden-information wall of
docs/design.md holds by construction, because no ``Deal`` ever reaches this module.
It sits with the bots, below the envs, because the ``rl`` bot reads it too
(``callbreak.env.encoding`` names the same things).

Seats are *relative*: index 0 is the observing seat, 1 the seat after it, and
so on round the table, so one policy can sit in any chair; P is the table's
seat count (``Rules.players``: 3 to 8 in Snarples, 4 to 6 in Donut, 3 to 5 in
Horsethief, 3 to 7 in Oh Hell, 4 elsewhere), and a seat out of the game or sitting out keeps its
place.  Cards are indexed by ``Encoder.cards`` (the 52 cards ``2S 3S ... AC``
in engine order; in the Rook deck the 56 numbered cards in pack order, then the
Rook, which keeps its index wherever trump puts it).  A card keeps its index
when Donut's 6 reverses the ranks (``reversed`` says so).  The vector is
float32, its fields in this order (P players, C cards, S = 4 suits, K = the
game's call or bid values, H = the hand size, in Oh Hell the match's largest)::

    hand          C      1 for each card the seat holds now
    played        P×C    cards each relative seat has played this deal (done tricks and the
                         trick in progress)
    trick         P×C    the trick in progress in play order: row k is its k-th card
    trick_leader  P      relative seat that led the trick in progress (one-hot)
    to_act        P      relative seat whose decision is next (all 0 once the deal is over)
    dealer        P      relative seat of the dealer
    phase         F      one-hot over the game's phases, then "over" and "void"
  Games with calls or bids (all but Donut and Horsethief):
    calls         P×(K+1) each seat's call (call games) or its last bid (auction games), one-hot
                         over K values; column 0 = none yet
    passed        P      1 for a seat that has passed in the auction
    contract      K      the contract (auction games: the winning bid so far), one-hot
    declarer      P      relative seat of the declarer (auction games)
  Spades only:
    blind_nils    P      1 for each seat that bid blind nil (its call shows as 0, nil)
  Games whose hand size changes deal by deal (Oh Hell, Judgement) only:
    deal_size     H      cards dealt to each seat this deal, one-hot over 1..H (H: the
                         largest hand of the match)
  Every game:
    tricks_won    P      tricks won by each seat / H
    trump         S      trump of this deal, one-hot (all 0 while none is named, and in a
                         deal without trump)
    voids         P×S    public voids: declared ("side off"), or shown by not following the
                         led suit
    points        P      this deal's points by seat once it is over, / ``score_scale`` (else 0),
                         as the game scores them: in the countdown games (Snarples, Donut)
                         lower is better here, unlike the rewards
    totals        P      the scores before this deal / ``score_scale``, clipped to ±10: the
                         match totals (0 outside a match), and in the countdown games the
                         running scores, which start at 16 (Snarples) or 15 (Donut), so a
                         lone deal shows those starting scores
  Call Partner (Rook) only:
    partner_card  C      the card the declarer called
    partner       P      relative seat of the partner, when this seat may know it
    nest          C      the nest as dealt (the declarer's own observation, once taken)
    discards      C      the declarer's discards (its own observation only)
    card_points   P      card points taken in tricks by each seat / 200
  The five-card games (Snarples, Donut, Horsethief) only:
    dealt_in      P      1 for each seat dealt in this deal (Snarples: 0 for a seat out of
                         the game, at 33 or more)
    dropped       P      1 for each seat that dropped or sat out this deal
    chooser       P      relative seat that names (or named) trump, one-hot (all 0 when the
                         upcard decides it or the deal has no trump)
    upcard        C      the face-up card (Donut: the dealer's fifth card, which it holds;
                         Horsethief: the turned-up trump, never drawn)
    reversed      1      1 when ranks run 2 high ... A low this deal (Donut's 6)
    stock         1      cards left in the stock / 52 (Horsethief draws from it; never which)
    exchanges     P×(H+1) cards each seat exchanged (Horsethief), one-hot over 0..H; all 0
                         until it has exchanged
    discards      C      the cards this seat itself threw in the exchange (its own
                         observation only; never another seat's)

Actions (one ``Discrete`` space per game, ``Encoder.actions``), in this order:
the call values (call games: ``min_call..max_call``; Oh Hell: 0 to its largest hand) or
bid values (auction games: ``min_bid..max_bid`` by ``bid_step``), the words a call may be
instead of a number (Spades: ``"blind nil"`` and ``"look"``, whether or not ``blind_nil`` is
on), ``"pass"`` (auction games), the four suit
letters (games where a seat names trump), the C cards (a card action means that
card in whatever phase asks for one: discard, exchange, partner call or play),
``True`` and ``False`` (games with a yes/no phase: misdeal claims, void
declarations), ``"in"`` and ``"out"`` (games where seats may drop or sit out),
``"take"`` and ``"give"`` (Snarples' bidder when everyone else sat out) and
``"done"`` (Horsethief's exchange).  A game has only the groups it uses, so the
four-seat games kept the indices they had before the five-card games came.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from callbreak.decks import DECKS, REVERSED, ROOK_FREE, ROOK_SLOT, ROOK_STRIDE
from callbreak.engine import Action, IllegalAction, Observation
from callbreak.engine.phases import DONE, GIVE, IN, OUT, TAKE, Auction, Call, Trump
from callbreak.engine.words import CARD_ANSWERS
from callbreak.rules import Rules

SCORE_CLIP = 10.0
"""Scaled scores are clipped to ±this, so the observation space has finite bounds."""

FIVE_CARD_POLICY = "five-card"
"""The games of this bot policy have the five-card fields (drops, upcard, stock, exchanges)."""

Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]


class Encoder:
    """The vector layout and action table of one game under one set of ``rules``.

    ``fields`` lists ``(name, offset, shape)`` for every field above, so a model
    (or a test) can slice the vector by name: ``encoder.field(vector, "hand")``.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.players = p = rules.players
        self.game = rules.game
        spec = rules.shape
        deck = DECKS[rules.shape.deck]
        self.rook = deck.has_rook
        self.five = spec.policy == FIVE_CARD_POLICY
        # The largest hand of the match where hands change size deal by deal (Oh Hell).
        schedule = spec.schedule
        self.hand_size = h = rules.hand_size if schedule is None else max(schedule(rules))
        self.deck_size = deck.size
        # Card index: the pack order, the Rook last (it is the last card of ROOK_DECK.cards).
        self.cards: tuple[str, ...] = tuple(deck.names[c] for c in deck.cards)
        c = len(self.cards)
        self._index_of_name = {name: i for i, name in enumerate(self.cards)}
        top = max(deck.cards) + 1
        gather = np.full(max(top, 64), -1, np.int64)
        for i, card in enumerate(deck.cards):
            gather[card] = i
        if self.rook:
            for colour in range(4):  # the Rook placed in any colour keeps its index
                gather[colour * ROOK_STRIDE + ROOK_SLOT] = self._index_of_name["ROOK"]
            gather[ROOK_FREE] = self._index_of_name["ROOK"]
        self._bits = len(gather)
        self._gather_cards = gather >= 0
        self._gather_index = gather[gather >= 0]
        # Donut's 6: the deal's masks move to the REVERSED deck, whose ints name other cards.
        self._reversed_index = np.array(
            [] if self.rook else [self._index_of_name[REVERSED.names[k]] for k in REVERSED.cards],
            np.int64,
        )
        phases = spec.phases
        self.auction = any(isinstance(phase, Auction) for phase in phases)
        if self.auction:
            values = tuple(range(rules.min_bid, rules.max_bid + 1, rules.bid_step))
        elif any(isinstance(phase, Call) for phase in phases):
            values = tuple(range(rules.min_call, rules.max_call + 1))
        else:  # a game's own calling phase (Spades, Oh Hell) names its numbers
            values = next((v for phase in phases if (v := phase.values(rules))), ())
        self.values = values
        self.words: tuple[str, ...] = tuple(
            dict.fromkeys(word for phase in phases for word in phase.words(rules))
        )
        """Words a call may be instead of a number (Spades' blind nil and look)."""
        self.blind = "blind_nil" in spec.options
        """Whether the game may bid blind nil (and so has the ``blind_nils`` field)."""
        self.sized = spec.schedule is not None
        """Whether the hand size changes deal by deal (and so has the ``deal_size`` field)."""
        self.bidding = bool(values)
        """Whether the game has calls or bids (and so the fields that show them)."""
        self._value_index = {v: i for i, v in enumerate(values)}
        k = len(values)
        self.phases: tuple[str, ...] = tuple(
            dict.fromkeys((*(phase.name for phase in phases), "over", "void"))
        )
        self._phase_index = {name: i for i, name in enumerate(self.phases)}
        self.suits = deck.suits
        self.score_scale = self._score_scale(rules)
        self.start = float(rules.shape.start)
        """Every seat's score before the first deal (16 in Snarples, 15 in Donut, else 0)."""
        self._suit_tables: dict[str | None, dict[str, int]] = {}

        layout: list[tuple[str, tuple[int, ...]]] = [
            ("hand", (c,)),
            ("played", (p, c)),
            ("trick", (p, c)),
            ("trick_leader", (p,)),
            ("to_act", (p,)),
            ("dealer", (p,)),
            ("phase", (len(self.phases),)),
        ]
        if self.bidding:
            layout += [
                ("calls", (p, k + 1)),
                ("passed", (p,)),
                ("contract", (k,)),
                ("declarer", (p,)),
            ]
        if self.blind:
            layout.append(("blind_nils", (p,)))
        if self.sized:
            layout.append(("deal_size", (h,)))
        layout += [
            ("tricks_won", (p,)),
            ("trump", (4,)),
            ("voids", (p, 4)),
            ("points", (p,)),
            ("totals", (p,)),
        ]
        if self.rook:
            layout += [
                ("partner_card", (c,)),
                ("partner", (p,)),
                ("nest", (c,)),
                ("discards", (c,)),
                ("card_points", (p,)),
            ]
        if self.five:
            layout += [
                ("dealt_in", (p,)),
                ("dropped", (p,)),
                ("chooser", (p,)),
                ("upcard", (c,)),
                ("reversed", (1,)),
                ("stock", (1,)),
                ("exchanges", (p, h + 1)),
                ("discards", (c,)),
            ]
        self.fields: list[tuple[str, int, tuple[int, ...]]] = []
        at = 0
        for name, shape in layout:
            self.fields.append((name, at, shape))
            at += int(np.prod(shape))
        self.size = at
        self._offset = {name: off for name, off, _ in self.fields}
        low = np.zeros(self.size, np.float32)
        for name in ("points", "totals"):
            low[self._offset[name] : self._offset[name] + p] = -SCORE_CLIP
        high = np.ones(self.size, np.float32)
        for name in ("points", "totals"):
            high[self._offset[name] : self._offset[name] + p] = SCORE_CLIP
        self.low, self.high = low, high
        self._start_totals = [_clip(self.start / self.score_scale)] * p

        # The action table.
        actions: list[Action] = [*values, *self.words]
        if self.auction:
            actions.append("pass")
        if any(isinstance(phase, Trump) for phase in phases):
            actions += list(deck.suits)
        actions += list(self.cards)
        phase_names = set(self.phases)
        if "misdeal" in phase_names or "declare" in phase_names:
            actions += [True, False]
        if "drop" in phase_names:
            actions += [IN, OUT]
        if "settle" in phase_names:
            actions += [TAKE, GIVE]
        if "exchange" in phase_names:
            actions.append(DONE)
        self.actions: tuple[Action, ...] = tuple(actions)
        self.num_actions = len(actions)
        self._card_action0 = actions.index(self.cards[0])
        self._action_index: dict[tuple[type, Action], int] = {
            (type(a), a): i for i, a in enumerate(actions)
        }

    def __deepcopy__(self, memo: dict[int, Any]) -> Encoder:
        """Itself: an encoder never changes once built (OpenSpiel's clone deep-copies states
        that hold one)."""
        return self

    @staticmethod
    def _score_scale(rules: Rules) -> float:
        """The largest swing of one deal, so scaled points stay in [-1, 1]."""
        return rules.shape.swing(rules)

    # ------------------------------------------------------------- actions
    def action_index(self, action: Action) -> int:
        """The index of an engine action (bools, ints and strings are told apart)."""
        return self._action_index[(type(action), action)]

    def action(self, index: int) -> Action:
        """The engine action of an index (a card as its name)."""
        return self.actions[self.checked(index)]

    def action_in(self, index: Any, phase: str) -> Action:
        """The engine action of an index chosen in ``phase``; a call's or bid's number where a
        card is asked is refused (``IllegalAction``): the engine would read it as the card of
        that number and play it."""
        action = self.action(index)
        if isinstance(action, int) and not isinstance(action, bool) and phase in CARD_ANSWERS:
            raise IllegalAction(
                f"action {index} is a call or bid of {action}, not an action of the {phase} "
                "phase: choose one the action mask marks legal",
                "phase",
            )
        return action

    def checked(self, index: Any) -> int:
        """A learner's action index as an ``int``, if it is one: a whole number inside the
        action space (numpy scalars and whole floats welcome), else a ValueError saying so.

        Unchecked, -1 would count from the end, as numpy does, and a mask lookup with it
        would play an action nobody chose; 2.5 would be cut to 2.
        """
        if isinstance(index, np.generic) or (isinstance(index, np.ndarray) and index.shape == ()):
            index = index.item()
        value = int(index) if isinstance(index, float) and index.is_integer() else index
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not 0 <= value < self.num_actions
        ):
            raise ValueError(
                f"action {index!r} is not in the action space: "
                f"a whole number from 0 to {self.num_actions - 1}"
            )
        return value

    def action_mask(self, legal: Sequence[Any]) -> Mask:
        """1 for each legal action, from ``Observation.legal`` (or ``Deal.legal()``)."""
        mask = np.zeros(self.num_actions, np.int8)
        index = self._action_index
        for action in legal:
            mask[index[(type(action), action)]] = 1
        return mask

    # --------------------------------------------------------- observation
    def field(self, vector: Vector, name: str) -> Vector:
        """The named field of an encoded vector, in its shape."""
        for field_name, offset, shape in self.fields:
            if field_name == name:
                return vector[offset : offset + int(np.prod(shape))].reshape(shape)
        raise KeyError(f"no field {name!r}: the fields are {[f[0] for f in self.fields]}")

    def mask_cards(self, mask: int, reversed_ranks: bool = False) -> npt.NDArray[np.bool_]:
        """A card mask of the deal's deck as a bool vector over ``cards`` (``reversed_ranks``:
        a mask of Donut's reversed deck, as ``Observation.hand_mask`` is in such a deal)."""
        raw = np.frombuffer(mask.to_bytes(self._bits // 8 + 1, "little"), np.uint8)
        bits = np.unpackbits(raw, bitorder="little")[: self._bits].astype(bool)
        out = np.zeros(len(self.cards), bool)
        if self.rook:  # several ints stand for the Rook (free, or placed in any colour)
            np.logical_or.at(out, self._gather_index, bits[self._gather_cards])
        elif reversed_ranks:
            out[self._reversed_index] = bits[: len(self._reversed_index)]
        else:
            out[self._gather_index] = bits[self._gather_cards]
        return out

    def encode(self, obs: Observation, out: Vector | None = None) -> Vector:
        """The vector of one seat's observation (see the module docstring for the fields).

        The 0/1 entries are gathered as indices and set in one numpy call: setting
        them one by one costs more than the rest of the work together.
        """
        v = np.zeros(self.size, np.float32) if out is None else out
        if out is not None:
            v[:] = 0
        p, c = self.players, len(self.cards)
        me = obs.seat
        off = self._offset
        index = self._index_of_name
        ones: list[int] = []
        put = ones.append

        hand = off["hand"]
        v[hand : hand + c] = self.mask_cards(obs.hand_mask, obs.reversed_ranks)
        played = off["played"]
        voids = off["voids"]
        suit_of = self._suit_table(obs.trump)
        for trick in (*obs.history, obs.trick):
            names = trick.cards
            if not names:
                continue
            led = suit_of[names[0]]
            if trick.active:  # some seats sit out: the trick goes round the others only
                for seat, name in zip(trick.seats(p), names, strict=False):
                    rel = (seat - me) % p
                    put(played + rel * c + index[name])
                    if led >= 0 and suit_of[name] != led:
                        put(voids + rel * 4 + led)
                continue
            rel = (trick.leader - me) % p
            for name in names:
                put(played + rel * c + index[name])
                if led >= 0 and suit_of[name] != led:
                    put(voids + rel * 4 + led)
                rel = rel + 1 if rel + 1 < p else 0
        trick_at = off["trick"]
        for k, name in enumerate(obs.trick.cards):
            put(trick_at + k * c + index[name])
        if obs.phase == "play":
            put(off["trick_leader"] + (obs.trick.leader - me) % p)
        if obs.to_act is not None:
            put(off["to_act"] + (obs.to_act - me) % p)
        put(off["dealer"] + (obs.dealer - me) % p)
        put(off["phase"] + self._phase_index[obs.phase])

        if self.auction:
            k1 = len(self.values) + 1
            calls = off["calls"]
            last_bid: dict[int, int] = {}
            for seat, bid in obs.bids:
                rel = (seat - me) % p
                if bid == "pass":
                    put(off["passed"] + rel)
                else:
                    last_bid[rel] = self._value_index[int(bid)]
            for rel in range(p):
                column = 0 if rel not in last_bid else 1 + last_bid[rel]
                put(calls + rel * k1 + column)
            if obs.contract is not None and obs.contract in self._value_index:
                put(off["contract"] + self._value_index[obs.contract])
            if obs.declarer is not None:
                put(off["declarer"] + (obs.declarer - me) % p)
        elif self.bidding:
            k1 = len(self.values) + 1
            calls = off["calls"]
            for seat, call in enumerate(obs.calls):
                column = 0 if call is None else 1 + self._value_index[call]
                put(calls + ((seat - me) % p) * k1 + column)
        if self.blind:
            for seat in obs.blind_nils:
                put(off["blind_nils"] + (seat - me) % p)
        if self.sized and obs.hand_size:
            put(off["deal_size"] + obs.hand_size - 1)
        if obs.trump is not None:
            put(off["trump"] + self.suits.index(obs.trump))
        for seat, letters in enumerate(obs.declared_voids):
            for letter in letters:
                put(voids + ((seat - me) % p) * 4 + self.suits.index(letter))
        if self.rook:
            if obs.partner_card is not None:
                put(off["partner_card"] + index[obs.partner_card])
            if obs.partner is not None:
                put(off["partner"] + (obs.partner - me) % p)
            for key, listed in (("nest", obs.nest), ("discards", obs.discards)):
                for name in listed or ():
                    put(off[key] + index[name])
        if self.five:
            self._encode_five(obs, v, put)
        v[ones] = 1

        # The scalar fields, rotated so the observing seat comes first.
        order = [(me + rel) % p for rel in range(p)]
        won = off["tricks_won"]
        v[won : won + p] = [obs.tricks_won[s] / self.hand_size for s in order]
        scale = self.score_scale
        for key, scores in (("points", obs.points), ("totals", obs.totals)):
            if scores is not None:
                v[off[key] : off[key] + p] = [_clip(scores[s].tenths / 10 / scale) for s in order]
        if obs.totals is None and self.start:
            v[off["totals"] : off["totals"] + p] = self._start_totals
        if self.rook and obs.card_points is not None:
            at = off["card_points"]
            v[at : at + p] = [min(obs.card_points[s] / 200, 1.0) for s in order]
        return v

    def _encode_five(self, obs: Observation, v: Vector, put: Any) -> None:
        """The five-card games' fields: who is dealt in, drops, upcard, stock, exchanges."""
        p, me, off = self.players, obs.seat, self._offset
        for key, seats in (("dealt_in", obs.dealt_in), ("dropped", obs.dropped)):
            for seat in seats:
                put(off[key] + (seat - me) % p)
        if obs.chooser is not None:
            put(off["chooser"] + (obs.chooser - me) % p)
        if obs.upcard is not None:
            put(off["upcard"] + self._index_of_name[obs.upcard])
        if obs.reversed_ranks:
            put(off["reversed"])
        width = self.hand_size + 1
        for seat, count in obs.exchanges:
            put(off["exchanges"] + ((seat - me) % p) * width + count)
        for name in obs.discards or ():
            put(off["discards"] + self._index_of_name[name])
        v[off["stock"]] = obs.stock_size / self.deck_size

    def _suit_table(self, trump: str | None) -> dict[str, int]:
        """Suit index of every card name under ``trump`` (the Rook counts as trump)."""
        table = self._suit_tables.get(trump)
        if table is None:
            table = {name: self._suit_of_name(name, trump) for name in self.cards}
            self._suit_tables[trump] = table
        return table

    def _suit_of_name(self, name: str, trump: str | None) -> int:
        """Suit index of a card name (the Rook counts as trump; -1 while trump is unnamed)."""
        if name == "ROOK":
            return -1 if trump is None else self.suits.index(trump)
        return self.suits.index(name[-1])


def _clip(value: float) -> float:
    return max(-SCORE_CLIP, min(SCORE_CLIP, value))
