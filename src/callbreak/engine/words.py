"""What each phase says, once: its question, its answers, how it is told, logged and keyed.

Every reader of a phase's words finds them here: the terminal table and the web
page (through ``callbreak.faces``, which turns these words into a ``PhaseFace``),
the line-based ``play --plain`` game, the keys of the help screen, the one-line
order of a deal, and the replay's error messages.  The module is plain data and
sits beside the engine's phases, the lowest layer every one of those readers may
import (the replay is below the faces).

A new phase is one entry in ``PHASE_WORDS``; its place in that dict is the place
of its keys in the help screen.  The contract phase is written in Call Break's
words; a game whose seats bid (its ``Contract``) reads it through
``phase_words("call", contract)``, on every face and in the replay's messages.
A question may name facts of the person's view in braces (``{calls}``,
``{reason}``): ``callbreak.faces.PROMPT_FACTS`` fills them.

>>> phase_words("auction").logged_action("pass"), phase_words("auction").logged_action(8)
('a pass', 'a bid of 8')
>>> phase_words("shuffle").waiting, phase_words("shuffle").logged_action(3)
('', 'a shuffle decision (3)')
>>> from callbreak.games import BID
>>> phase_words("call", BID).waiting, phase_words("call", BID).logged_action(4)
('is to bid', 'a bid of 4')
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from callbreak.games import CALL, Contract

WORD, NUMBER, SUIT, CARD, LEGAL = "word", "number", "suit", "card", "legal"
"""What a phase's actions are (``PhaseWords.answers``): words only, numbers, suits (a trump
suit or Rook colour), cards, or anything legal shown as it is (a phase without words)."""


@dataclass(frozen=True)
class Word:
    """An answer that is a word, not a card or a number: its label, its action, its key."""

    label: str
    action: Any
    key: str
    told: tuple[str, str] = ("", "")
    """What the person did by it / what another seat did, after its name ("plays on")."""
    logged: str = ""
    """How it reads in a replay message; empty: as the phase's other actions."""


@dataclass(frozen=True)
class PhaseWords:
    """Everything one phase says, on every face and in every message."""

    name: str
    verb: str
    """What a seat does in this phase, for "waiting for East to …" and "your turn to …"."""
    step: str
    """How the phase reads in the one-line order of a deal ("an auction (a pass is final)")."""
    question: str
    """The question put to the person on its turn; ``{fact}`` names a fact of its view."""
    answers: str = WORD
    """What its actions are (``WORD``, ``NUMBER``, ``SUIT``, ``CARD``, ``LEGAL``)."""
    listed: bool = False
    """Whether its non-word actions are listed on a choice bar (numbers, suits, a partner card
    not in the hand) rather than picked from the hand."""
    words: tuple[Word, ...] = ()
    """The answers that are words; each face shows their labels and takes their keys."""
    told: tuple[str, str] = ("", "")
    """An action that is not a word, told after the seat's name: the person's / another seat's
    (``{action}`` is the card, number or suit as people read it)."""
    secret: bool = False
    """Whether another seat's card goes face down: it is told as "a card"."""
    echoed: bool = False
    """Whether ``--plain`` repeats the person's own action (a card it typed) once taken."""
    waiting: str = ""
    """What the seat to act is doing, for the replay's messages ("is to bid or pass");
    ``{trick}`` is the number of the trick to play.  Empty: the replay names the phase."""
    logged: str = ""
    """How a recorded action reads in the replay's messages (``{action}``, ``{action!r}``);
    empty: "a <phase> decision (<action>)"."""
    control: str = "buttons"
    """How the browser answers: ``buttons`` (the legal actions), ``cards`` (click the hand,
    plus any word) or ``picker`` (a long list of cards grouped by suit)."""
    typed_number: bool = False
    """A number may be typed (calls, bids)."""
    typed_card: bool = False
    """A card may be typed by rank and suit (a card not in the hand too: the partner card)."""
    pause: bool = True
    """Whether a bot's action here is shown for a moment before play goes on."""
    shows_hand: bool = True
    """Whether ``--plain`` shows the hand before asking (the play shows the whole table)."""
    recap: str = ""
    """What ``--plain`` recalls before asking: ``calls`` or ``bids`` so far, or the ``nest``."""
    keys: tuple[tuple[str, str], ...] = ()
    """The help screen's lines for this phase's keys (a line two phases share shows once);
    ``{calls}`` in a key stands for the game's range of calls."""
    suit_keys: str = ""
    """What the suit letters also do in this phase, added to their help line."""
    keys_hint: str = ""
    """The terminal's status line on the person's turn: which keys answer."""
    click_hint: str = ""
    """The browser's prompt on the person's turn: what to click."""

    def logged_action(self, action: Any) -> str:
        """A recorded action in words, for the replay's messages."""
        for word in self.words:
            if word.logged and type(word.action) is type(action) and word.action == action:
                return word.logged
        template = self.logged or "a {phase} decision ({action})"
        return template.format(phase=self.name, action=action)


_MISDEAL_KEYS = ("y / n", "claim a misdeal (or declare voids) / play on")

PHASE_WORDS: dict[str, PhaseWords] = {
    "call": PhaseWords(
        name="call",
        verb="call",
        step="everyone calls",
        question="Your call ({calls}):",
        answers=NUMBER,
        listed=True,
        # Spades under blind_nil: a seat first bids blind nil or looks at its cards ("l" is
        # the table's last trick, so looking is "k").
        words=(
            Word("Blind nil", "blind nil", "b", ("bid blind nil", "bids blind nil"), "a blind nil"),
            Word(
                "Look at your cards",
                "look",
                "k",
                ("look at your cards", "looks at its cards"),
                "a look at the cards",
            ),
        ),
        told=("call {action}", "calls {action}"),
        waiting="is to call",
        logged="a call of {action!r}",
        typed_number=True,
        recap="calls",
        keys=(("{calls}", "type your call, then Enter"),),
        keys_hint="Your call: ← → and Enter, type the number, or click it",
        click_hint="Your call:",
    ),
    "auction": PhaseWords(
        name="auction",
        verb="bid",
        step="an auction (a pass is final)",
        question="Your bid ({bids}):",
        answers=NUMBER,
        listed=True,
        words=(Word("Pass", "pass", "x", ("pass", "passes"), "a pass"),),
        told=("bid {action}", "bids {action}"),
        waiting="is to bid or pass",
        logged="a bid of {action!r}",
        typed_number=True,
        recap="bids",
        keys=(("0–9, x", "type your bid, then Enter; x passes"),),
        keys_hint="Your bid: ← → and Enter, type the number, x passes",
        click_hint="Your bid (a pass is final):",
    ),
    "misdeal": PhaseWords(
        name="misdeal",
        verb="decide on a redeal",
        step="a misdeal may be claimed",
        question="Misdeal? Your hand has {reason}:",
        words=(
            Word("Claim a redeal", True, "y", ("claim a misdeal", "claims a misdeal")),
            Word("Play on", False, "n", ("play on", "plays on")),
        ),
        waiting="is to decide whether to claim a misdeal",
        logged="a misdeal decision",
        keys=(_MISDEAL_KEYS,),
        keys_hint="Your hand qualifies for a misdeal: y claims a redeal, n plays on",
        click_hint="Your hand qualifies for a redeal. Show it and redeal?",
    ),
    "declare": PhaseWords(
        name="declare",
        verb="declare voids",
        step="voids may be declared",
        question="Declare your void suits ({voids}) to the table?",
        words=(
            Word("Declare", True, "y", ("declare a void", "declares a void")),
            Word("Keep quiet", False, "n", ("declare nothing", "declares nothing")),
        ),
        waiting="is to decide whether to declare its void suits",
        logged="a void declaration",
        pause=False,
        shows_hand=False,
        keys=(_MISDEAL_KEYS,),
        keys_hint="You hold a void: y declares it to the table, n keeps it quiet",
        click_hint="Declare your void suits to the table?",
    ),
    "drop": PhaseWords(
        name="drop",
        verb="play or sit out",
        step="each seat plays or sits out",
        question="Play this deal?",
        words=(
            Word("Play", "in", "y", ("play this deal", "plays this deal")),  # not a card
            Word("Sit out", "out", "n", ("sit out", "sits out")),
        ),
        waiting="is to say whether it plays (in or out)",
        keys=(("y / n", "play this deal / sit it out"),),
        keys_hint="Play this deal: y plays, n sits it out",
        click_hint="Play this deal, or sit it out?",
    ),
    "settle": PhaseWords(
        name="settle",
        verb="take or give",
        step="a bidder left alone takes −5 or gives +5",
        question="Everyone else sat out:",
        words=(
            Word("Take −5", "take", "t", ("take −5", "takes −5")),
            Word(
                "Give +5 to the others",
                "give",
                "g",
                ("give +5 to every other seat", "gives +5 to every other seat"),
            ),
        ),
        waiting="is to take or give",
        shows_hand=False,
        keys=(("t / g", "take −5 yourself / give +5 to every other seat"),),
        keys_hint="Everyone else sat out: t takes −5 yourself, g gives +5 to every other seat",
        click_hint="Everyone else sat out: take 5 off your own score, or give 5 to every other?",
    ),
    "exchange": PhaseWords(
        name="exchange",
        verb="exchange",
        step="the seats still in exchange cards with the stock",
        question="Throw cards to exchange, then done:",
        answers=CARD,
        words=(Word("Done", "done", "x", ("keep the rest", "is done exchanging")),),
        told=("throw {action}", "throws {action}"),
        secret=True,
        waiting="is to exchange a card or say done",
        control="cards",
        typed_card=True,
        pause=False,
        keys=(("x", "done exchanging (Enter throws the card under the cursor)"),),
        keys_hint="Exchange: Enter throws the card under the cursor (type it too); x when done",
        click_hint="Throw away cards one at a time (click them), then Done: you draw as many.",
    ),
    "discard": PhaseWords(
        name="discard",
        verb="lay cards away",
        step="the bidder takes the nest and lays five cards away",
        question="Lay a card away ({laid} of 5):",
        answers=CARD,
        told=("lay away {action}", "lays away {action}"),
        secret=True,
        waiting="is to lay a card away from its hand and the nest",
        logged="a discard ({action})",
        control="cards",
        typed_card=True,
        pause=False,
        recap="nest",
        keys=(("Enter", "after taking the nest: lay the card under the cursor away"),),
        keys_hint="The nest is yours: Enter lays the card under the cursor away (or type it)",
        click_hint="You took the nest: discard five cards (click them one at a time).",
    ),
    "partner": PhaseWords(
        name="partner",
        verb="call a partner",
        step="the bidder calls a partner card",
        question="Call your partner's card:",
        answers=CARD,
        listed=True,
        told=("call the {action} as partner", "calls the {action} as partner"),
        echoed=True,
        waiting="is to call the partner card",
        logged="a partner card ({action})",
        control="picker",
        typed_card=True,
        keys=(("1g, 14r", "type the partner card you call, or ← → and Enter"),),
        keys_hint="Call a partner card: type it (1g, 14r) or ← → and Enter; one you hold: alone",
        click_hint="Call the partner card (a card you hold means you play alone):",
    ),
    "trump": PhaseWords(
        name="trump",
        verb="name trump",
        step="trump is named",
        question="Name trump:",
        answers=SUIT,
        listed=True,
        told=("name trump: {action}", "names trump: {action}"),
        waiting="is to name trump",
        logged="trump {action}",
        suit_keys=" (or name it trump)",
        keys_hint="Name trump: its letter, or ← → and Enter",
        click_hint="Name trump:",
    ),
    "play": PhaseWords(
        name="play",
        verb="play",
        step="the tricks are played",
        question="Your card:",
        answers=CARD,
        told=("play {action}", "plays {action}"),
        echoed=True,
        waiting="is to play to trick {trick}",
        logged="a card ({action})",
        control="cards",
        typed_card=True,
        shows_hand=False,
        keys_hint="Your turn: ← → and Enter, type a card ({typed}), or click one",
        click_hint="Your turn: play one of the raised cards.",
    ),
}
"""Every phase of the family, in the order their keys show in the help screen."""

CARD_ANSWERS = frozenset(name for name, said in PHASE_WORDS.items() if said.answers == CARD)
"""Phases answered with a card (the partner call names one not in the hand).  The engine
reads a whole number there as a card's own number, so a face or an env that turns an index
or a typed number into an action must not hand it a call's number in these phases."""


CONTRACT_PHASE = "call"
"""The phase whose words name a seat's contract; a game words it as its ``Contract`` says."""
_WORDED = (
    "verb",
    "step",
    "question",
    "told",
    "waiting",
    "logged",
    "keys",
    "keys_hint",
    "click_hint",
)
"""The fields of a phase's words that people read (its name and answers are no words)."""


def phase_words(name: str, contract: Contract = CALL) -> PhaseWords:
    """The words of the phase ``name``, the contract phase in ``contract``'s words (a Spades
    seat bids where a Call Break seat calls): the faces and the replay's messages read the
    same words.  An unknown phase is asked and told by its name and its legal actions alone."""
    if name == CONTRACT_PHASE and contract != CALL:
        return _contract_words(contract)
    return PHASE_WORDS.get(name) or PhaseWords(
        name=name,
        verb=name,
        step=name,
        question=f"{name}:",
        answers=LEGAL,
        listed=True,
        keys_hint=f"{name}: ← → and Enter",
        click_hint=f"Your turn ({name}):",
    )


@cache
def _contract_words(contract: Contract) -> PhaseWords:
    """The call phase in ``contract``'s words: Spades' "bid", "bids", "a bid of 4"."""
    said = PHASE_WORDS[CONTRACT_PHASE]
    changes: dict[str, Any] = {name: _reworded(getattr(said, name), contract) for name in _WORDED}
    changes["words"] = tuple(
        replace(
            word,
            label=contract.reword(word.label),
            told=_reworded(word.told, contract),
            logged=contract.reword(word.logged),
        )
        for word in said.words
    )
    return replace(said, **changes)


def _reworded(text: Any, contract: Contract) -> Any:
    """A phase's text, or a tuple of them (its told lines, its keys), in ``contract``'s words."""
    if isinstance(text, str):
        return contract.reword(text)
    return tuple(_reworded(part, contract) for part in text)
