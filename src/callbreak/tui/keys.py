"""The table's keys and clicks: moving along the hand or the choice bar, typing a card,
a call or a bid, and the keys that open the screens.
"""

from __future__ import annotations

from typing import Any

from callbreak.decks import DECKS
from callbreak.engine import Observation
from callbreak.engine.words import PHASE_WORDS
from callbreak.faces import (
    CARD_PHASES,
    contract_words,
    deck_of,
    phase_face,
)
from callbreak.review import reviewable
from callbreak.tui.base import TableState
from callbreak.tui.widgets import ChoiceBar

KEYS_HELP: tuple[tuple[str, str], ...] = (
    ("← →", "move along your cards (or the calls); ↑ ↓ jump to the next legal card"),
    ("Enter", "play the card under the cursor (or make the call)"),
    ("as, td, 10h", "type a card: rank then suit (t or 10 is the ten, 1 also the ace)"),
    ("s h d c", "on their own: jump to that suit"),
    ("mouse", "click a card, a call, a button, or a key below"),
    ("i", "hint: the expert's choice and why"),
    ("l", "the last trick"),
    ("p", "the scoresheet: every deal's calls, tricks and points"),
    ("space", "go on now instead of waiting after a bot's card"),
    ("f", "fast: no waiting after bots' cards (press again to wait)"),
    ("Esc", "clear what you typed"),
    ("?", "this help"),
    ("Ctrl-C", "leave (asks first; the record, if any, is kept)"),
)
"""The keys of Call Break; ``keys_help`` adds or leaves out lines by the game's phases."""


def keys_help(rules: Any) -> list[tuple[str, str]]:
    """The keys of the game in force: the common ones, then those of the phases it has (their
    words, ``engine/words.py``, in the order listed there; a line two phases share shows once),
    in the game's words (a Spades seat bids)."""
    phases = [said for name, said in PHASE_WORDS.items() if name in rules.shape.phase_names]
    rook = DECKS[rules.shape.deck].has_rook
    keys = list(KEYS_HELP[:2])
    if rook:
        keys.append(("1r, 14g, 10b", "type a card: number then colour (R Y G B)"))
        keys.append(("r y g b", "on their own: jump to that colour (or name it trump)"))
    else:
        keys.append(KEYS_HELP[2])
        suits = "on their own: jump to that suit" + "".join(said.suit_keys for said in phases)
        keys.append(("s h d c", suits))
    for said in phases:
        keys += [(key.format(calls=_calls(rules)), meaning) for key, meaning in said.keys]
    keys = list(dict.fromkeys(keys))
    keys += KEYS_HELP[4:]
    if reviewable(rules):
        keys.insert(-3, ("r", "on a deal's result: the review of your decisions"))
    words = contract_words(rules.game)
    return [(key, words.reword(meaning)) for key, meaning in keys]


def _calls(rules: Any) -> str:
    """The calls the game in force offers, for the help's ``{calls}`` (Call Bridge 2–12,
    Spades 0–13, Judgement 0–7)."""
    phase = next((p for p in rules.shape.phases if p.name == "call"), None)
    numbers = (phase.values(rules) if phase else ()) or (rules.min_call, rules.max_call)
    return f"{min(numbers)}–{max(numbers)}"


class TableKeys(TableState):
    """Keys on the table, and the key bar's buttons, turned into actions."""

    def press(self, action: str) -> None:
        """A key's action, from the keyboard or a click on the key bar."""
        if action == "help":
            self.show_help()
        elif action == "hint":
            self.hint()
        elif action == "last":
            self.show_last_trick()
        elif action == "scores":
            self.show_scores()
        elif action == "skip":
            self.skip()
        elif action == "fast":
            self.fast = not self.fast
            self._set_message("Fast: bots' cards no longer wait." if self.fast else "", "hint")
            if self.fast:
                self.skip()
            self.redraw()
        elif action == "enter":
            self._enter()
        elif action == "quit":
            self.action_request_quit()
        elif action.startswith("key:"):
            self.table_key(action[4:], action[4:])

    def table_key(self, key: str, character: str | None) -> bool:
        """Keys on the table; True when the key was used."""
        char = (character or "").lower() if character and character.isprintable() else ""
        named = {
            "?": "help",
            "i": "hint",
            "l": "last",
            "p": "scores",
            "f": "fast",
        }
        if key == "f1" or char in named:
            self.press("help" if key == "f1" else named[char])
            return True
        if key in ("space", "enter") and self.state == "pause":
            self.skip()
            return True
        if self.state != "human":
            return False
        view = self.session.view()
        if key == "escape":
            self.typed = ""
            self._set_message("", "")
            self.redraw()
            return True
        if key == "enter":
            self._enter()
            return True
        described = phase_face(view.phase, view.game)
        answer = described.keys.get(char) if char else None
        if answer is not None and answer in view.legal:
            self.typed = ""  # a word's key answers, whatever digits were typed before it
            self.act(answer)
            return True
        if view.phase in CARD_PHASES:
            return self._card_key(view, key, char, self._hand(view))
        bar = self.table.query_one(ChoiceBar)
        if key in ("left", "right", "tab", "shift+tab"):
            bar.move(-1 if key in ("left", "shift+tab") else 1)
            self.typed = ""
        elif key in ("home", "end"):  # the cursor decides now, not a number typed before
            bar.cursor = 0 if key == "home" else len(bar.options) - 1
            bar.refresh()  # the bar shows what Enter makes
            self.typed = ""
        elif key == "backspace":
            self.typed = self.typed[:-1]
        elif described.typed_number and char and char in "0123456789":  # not "²"
            self._type_number(bar, char)
        elif described.typed_card and char:
            return self._card_key(view, key, char, [])
        else:
            return False
        self.redraw()
        return True

    def _type_number(self, bar: ChoiceBar, char: str) -> None:
        """Digits make a call or bid, which Enter makes; the bar's cursor follows the number
        while it is offered.  Every digit is kept: a number that is not offered is refused
        at Enter, never turned into another (14 into 4, 73 into the lowest bid)."""
        self.typed += char
        bar.select(int(self.typed))

    def _enter(self) -> None:
        if self.state == "pause":
            self.skip()
            return
        if self.state != "human":
            return
        view = self.session.view()
        hand = self._hand(view)
        if view.phase in CARD_PHASES and hand:
            self.act(hand[min(self.cursor, len(hand) - 1)])
        elif self.typed.isdigit() and phase_face(view.phase, view.game).typed_number:
            self._act_typed(view)
        else:
            bar = self.table.query_one(ChoiceBar)
            if bar.active:
                self.act(bar.value)

    def _act_typed(self, view: Observation) -> None:
        """The number typed, made; or refused with why (not a number the phase takes now, or
        the engine's rule), and nothing made."""
        typed, self.typed = self.typed, ""
        refusal = phase_face(view.phase, view.game).typed_refusal(view, typed)
        if refusal is None:
            self.act(int(typed))
            return
        self._set_message(refusal, "refused")
        self.redraw()

    def _card_key(self, view: Observation, key: str, char: str, hand: list[str]) -> bool:
        """Keys that move along the hand or type a card (rank then suit: ``as``, ``14g``).

        ``hand`` is empty when the card is typed but not picked from the hand (the
        Rook partner card): then a typed card answers, and arrows move the choice bar.
        """
        deck = deck_of(view)
        suits = deck.suits.lower()
        spellings = [name.lower() for name in deck.inputs]
        legal = [i for i, c in enumerate(hand) if c in set(map(str, view.legal))]
        if hand and key in ("left", "right"):
            self.cursor = (self.cursor + (1 if key == "right" else -1)) % len(hand)
        elif hand and key in ("up", "down") and legal:
            step = 1 if key == "up" else -1
            ahead = [i for i in legal if (i - self.cursor) * step > 0]
            if ahead:
                self.cursor = min(ahead) if step > 0 else max(ahead)
            else:
                self.cursor = legal[0] if step > 0 else legal[-1]
        elif hand and key == "home":
            self.cursor = 0
        elif hand and key == "end":
            self.cursor = len(hand) - 1
        elif key == "backspace":
            self.typed = self.typed[:-1]
        elif char and char in suits and self.typed:
            typed, self.typed = self.typed + char, ""
            try:
                card = deck.names[deck.parse(typed)]
            except ValueError:
                self._set_message(f"{typed} is not a card: {self._spelling(view)}", "")
                self.redraw()
                return True
            if card in hand:
                self.cursor = hand.index(card)
            self.act(card)
            return True
        elif char and char in suits and hand:
            suit = char.upper()
            in_suit = [i for i, c in enumerate(hand) if c[-1] == suit and c != "ROOK"]
            if in_suit:
                legal_in_suit = [i for i in in_suit if i in legal]
                self.cursor = (legal_in_suit or in_suit)[0]
            else:
                name = deck.suit_names[deck.suits.index(suit)]
                self._set_message(f"You hold no {name}.", "")
        elif char and any(s.startswith(self.typed + char) for s in spellings):
            self.typed += char
            whole = self.typed
            if whole in spellings and not any(
                s != whole and s.startswith(whole) for s in spellings
            ):
                self.typed = ""  # a card spelt out in full (ROOK): nothing can follow
                self.act(deck.names[deck.parse(whole)])
                return True
        elif char and any(s.startswith(char) for s in spellings):
            self.typed = char
        else:
            return False
        self.redraw()
        return True

    @staticmethod
    def _spelling(view: Observation) -> str:
        if DECKS[view.rules.shape.deck].has_rook:
            return "type number then colour, e.g. 1r, 14g"
        return "type rank then suit, e.g. as, td"
