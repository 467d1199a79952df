"""Pictures of cards, hands, tricks and scoresheets as Rich text, without Textual.

Pure functions of what the person may see, so that the app's widgets only
ask for a picture of a given width and the pictures can be tested on their own.
Legality is shown by shape as well as colour — legal cards have solid
corners, the others dotted and dim — so the table reads the same with
``NO_COLOR`` as in colour.

>>> sort_hand(["2C", "AS", "KD", "7H", "TS"])
['AS', 'TS', '7H', '2C', 'KD']
>>> layout_hand(["AS", "KS", "QH"], 40).index_at(layout_hand(["AS", "KS", "QH"], 40).starts[2])
2
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich import box
from rich.table import Table
from rich.text import Text

from callbreak.cards import RANKS, SUIT_SYMBOLS, SUITS
from callbreak.engine import TrickView
from callbreak.points import Points
from callbreak.rules import OPTIONS, Rules, option_text
from callbreak.tui.session import DealResult

SUIT_ORDER = "SHCD"
"""Left to right in the hand: spades (the trump) first, then colours alternating."""

_RED = frozenset("HD")

FACE = {"black": "bold black on white", "red": "bold red3 on white"}
FACE_ILLEGAL = "grey50 on grey15"
FACE_CURSOR = {"black": "bold black on yellow", "red": "bold red3 on yellow"}
BORDER = "bold"
BORDER_ILLEGAL = "grey42"
BORDER_CURSOR = "bold yellow"
BORDER_HOVER = "bold cyan"

_SOLID = ("╭", "─", "╮", "│", "╰", "╯")
_DOTTED = ("┌", "┄", "┐", "┆", "└", "┘")


def face(name: str) -> str:
    """A card as people read it: rank and suit symbol, ``A♠``, ``T♥``."""
    return name[:-1] + SUIT_SYMBOLS[SUITS.index(name[-1])]


def colour(name: str) -> str:
    return "red" if name[-1] in _RED else "black"


def chip(name: str, *, pad: int = 1) -> Text:
    """A played card as a small white chip, ``␣K♥␣``."""
    return Text(" " * pad + face(name) + " " * pad, style=FACE[colour(name)])


def sort_hand(cards: Sequence[str]) -> list[str]:
    """Cards grouped by suit in ``SUIT_ORDER``, highest first within a suit."""
    return sorted(cards, key=lambda c: (SUIT_ORDER.index(c[-1]), -RANKS.index(c[0])))


# ---------------------------------------------------------------------- the hand
@dataclass(frozen=True)
class HandLayout:
    """Where each card of a hand sits in a row of ``width`` cells."""

    cards: tuple[str, ...]
    starts: tuple[int, ...]
    card_width: int
    boxed: bool
    width: int

    def index_at(self, x: int) -> int | None:
        """The card under column ``x`` (a click), None between cards."""
        for i, start in enumerate(self.starts):
            if start <= x < start + self.card_width:
                return i
        return None


_SIZES = ((6, 1, 3, True), (4, 1, 2, True), (4, 0, 1, True), (3, 0, 1, False))
"""(card width, gap, extra gap between suits, boxed), tried from the roomiest down."""


def layout_hand(cards: Sequence[str], width: int) -> HandLayout:
    """Lay out a hand (already sorted) in ``width`` columns, as roomy as fits, centred."""
    ordered = tuple(cards)
    groups = len({c[-1] for c in ordered})
    card_width, gap, suit_gap, boxed = _SIZES[-1]
    for card_width, gap, suit_gap, boxed in _SIZES:  # noqa: B007 (the fitting size is kept)
        total = len(ordered) * card_width + max(0, len(ordered) - 1) * gap
        total += max(0, groups - 1) * suit_gap
        if total <= width:
            break
    total = len(ordered) * card_width + max(0, len(ordered) - 1) * gap
    total += max(0, groups - 1) * suit_gap
    x = max(0, (width - total) // 2)
    starts = []
    for i, card in enumerate(ordered):
        if i:
            x += gap + (suit_gap if card[-1] != ordered[i - 1][-1] else 0)
        starts.append(x)
        x += card_width
    return HandLayout(ordered, tuple(starts), card_width, boxed, width)


def render_hand(
    layout: HandLayout,
    *,
    legal: frozenset[str] | None = None,
    cursor: int | None = None,
    hover: int | None = None,
) -> Text:
    """Four rows: cards standing in rows 1–3, the cursor's card raised into rows 0–2.

    ``legal`` is None when nothing is to be marked (not the person's turn to play);
    otherwise cards outside it are drawn dotted and dim.
    """
    rows = [Text() for _ in range(4)]
    for i, (name, start) in enumerate(zip(layout.cards, layout.starts, strict=True)):
        for row in rows:
            row.append(" " * (start - len(row.plain)))
        is_legal = legal is None or name in legal
        raised = i == cursor
        if raised:
            face_style = FACE_CURSOR[colour(name)]
            border_style = BORDER_CURSOR
        elif is_legal:
            face_style = FACE[colour(name)]
            border_style = BORDER_HOVER if i == hover else BORDER
        else:
            face_style = FACE_ILLEGAL
            border_style = BORDER_HOVER if i == hover else BORDER_ILLEGAL
        top = 0 if raised else 1
        w = layout.card_width
        if layout.boxed:
            tl, h, tr, v, bl, br = _SOLID if is_legal else _DOTTED
            inner = face(name).center(w - 2)
            rows[top].append(tl + h * (w - 2) + tr, style=border_style)
            rows[top + 1].append(v, style=border_style)
            rows[top + 1].append(inner, style=face_style)
            rows[top + 1].append(v, style=border_style)
            rows[top + 2].append(bl + h * (w - 2) + br, style=border_style)
            rows[3 if raised else 0].append(" " * w)
        else:
            mark = "▴" if is_legal else " "
            rows[top].append(" " * w)
            rows[top + 1].append(face(name).center(w), style=face_style)
            rows[top + 2].append(mark.center(w), style=border_style)
            rows[3 if raised else 0].append(" " * w)
    text = Text("\n").join(row for row in rows)
    text.no_wrap = True
    return text


# --------------------------------------------------------------------- the trick
def relative(seat: int, human: int, players: int) -> int:
    """Where a seat sits seen from the person: 0 bottom, 1 right, 2 top, 3 left."""
    return (seat - human) % players


def render_trick(
    trick: TrickView,
    *,
    players: int,
    human: int,
    winning: int | None,
    width: int,
    title: str,
    footer: str,
    height: int = 7,
) -> Text:
    """The cards of one trick placed by where each seat sits, with a title and a footer line.

    With room (``height`` of 13 rows or more) the cards are drawn as boxes like
    the hand's; otherwise as one-line chips, so the table fits in 80×24.
    """
    played = dict(zip(trick.seats(players), trick.cards, strict=True))
    by_place = {relative(seat, human, players): seat for seat in range(players)}
    boxed = height >= 13 and width >= 30
    w = max(20, min(width, 40 if boxed else 34))
    card_w = 6 if boxed else 4

    def slot(place: int) -> list[Text]:
        """The rows of one seat's place: a chip, or a boxed card (three rows)."""
        seat = by_place[place]
        card = played.get(seat)
        if not boxed:
            if card is None:
                return [Text(" ·· ", style="grey50")]
            piece = chip(card)
            if seat == winning:
                piece.stylize("underline")
            return [piece]
        if card is None:
            tl, h, tr, v, bl, br = _DOTTED
            border, inner = "grey42", Text("    ")
        else:
            tl, h, tr, v, bl, br = _SOLID
            border = BORDER_CURSOR if seat == winning else BORDER
            inner = Text(face(card).center(4), style=FACE[colour(card)])
        middle_row = Text.assemble((v, border), inner, (v, border))
        return [
            Text(tl + h * 4 + tr, style=border),
            middle_row,
            Text(bl + h * 4 + br, style=border),
        ]

    def rows(*pieces: tuple[int, list[Text]]) -> list[Text]:
        out = [Text() for _ in range(max(len(p) for _, p in pieces))]
        for column, piece in pieces:
            for row, part in zip(out, piece, strict=False):
                row.append(" " * max(0, column - len(row.plain)))
                row.append_text(part)
        return out

    middle = (w - card_w) // 2
    head, foot = Text(title, style="bold"), Text(footer)
    head.align("center", w)
    foot.align("center", w)
    lines = [
        head,
        Text(""),
        *rows((middle, slot(2))),
        *rows((1, slot(3)), (w - card_w - 1, slot(1))),
        *rows((middle, slot(0))),
        Text(""),
        foot,
    ]
    return Text("\n").join(lines)


# ------------------------------------------------------------------ scoresheet
def scoresheet(
    results: Sequence[DealResult],
    names: Sequence[str],
    totals: Sequence[Points],
    *,
    title: str | None = None,
    winners: Sequence[int] = (),
) -> Table:
    """Every scored deal: each seat's call/won and points, the running total under it."""
    table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, expand=False)
    table.add_column("Deal", justify="left", no_wrap=True)
    for name in names:
        table.add_column(name, justify="right", no_wrap=True)
    for result in results:
        if result.points is None:
            continue
        label = f"{result.number}" + (" tie" if result.tie_break else "")
        cells = []
        for seat in range(len(names)):
            won = f"{result.calls[seat]}/{result.tricks[seat]}"
            points = str(result.points[seat])
            if seat not in result.counting:
                points = f"({points})"
            cells.append(Text.assemble(f"{won}  ", (f"{points:>5}", "bold")))
        table.add_row(label, *cells)
        table.add_row(
            Text("Σ", style="dim"),
            *(Text(str(t), style="dim") for t in result.totals),
        )
    table.add_section()
    table.add_row(
        Text("Total", style="bold"),
        *(
            Text(f"{'★ ' if seat in winners else ''}{total}", style="bold")
            for seat, total in enumerate(totals)
        ),
    )
    return table


def deal_table(result: DealResult, names: Sequence[str]) -> Table:
    """One deal: each seat's call, tricks won, points and the match total after it."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for heading in ("", "Call", "Won", "Points", "Total"):
        table.add_column(heading, justify="left" if not heading else "right", no_wrap=True)
    points = result.points or ()
    for seat, name in enumerate(names):
        counted = seat in result.counting
        shown = str(points[seat]) if points else "-"
        table.add_row(
            name,
            str(result.calls[seat]),
            str(result.tricks[seat]),
            shown if counted else f"({shown})",
            str(result.totals[seat]),
        )
    return table


# ------------------------------------------------------------------------ rules
def rules_table(rules: Rules) -> Table:
    """Every option of the rules in force with its value; options changed from the preset first."""
    changed = rules.changed()
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, expand=True)
    table.add_column("Option", no_wrap=True)
    table.add_column("Value", no_wrap=True)
    table.add_column("Meaning", ratio=1)
    ordered = sorted(OPTIONS, key=lambda o: o.name not in changed)
    for option in ordered:
        value = option_text(getattr(rules, option.name))
        mark = "*" if option.name in changed else ""
        style = "bold" if mark else ""
        table.add_row(Text(option.name + mark, style=style), Text(value, style=style), option.help)
    return table


def rules_summary(rules: Rules) -> str:
    """The game in a few sentences, from the rules in force (for the help screen)."""
    calls = f"Call {rules.min_call} to {rules.max_call} tricks"
    parts = [f"{calls}; spades are always trump."]
    if rules.must_overtake:
        parts.append("Follow suit and beat the winning card of the suit led if you can.")
    else:
        parts.append("Follow suit if you can.")
    trump = {
        "winning": "Void in the suit led: play a spade that beats every spade in the trick "
        "if you hold one.",
        "always": "Void in the suit led: play a spade whenever you hold one, a winning one "
        "if you can.",
        "never": "Void in the suit led: play any card.",
    }[rules.must_trump]
    parts.append(trump)
    if rules.misdeal != "off":
        how = "may be thrown in by its holder" if rules.misdeal == "claim" else "is redealt"
        parts.append(f"A hand with no spade or none of {', '.join(rules.misdeal_faces)} {how}.")
    if rules.success_window == "at_least":
        extra = rules.overtrick_points
        parts.append(f"Win at least your call: +call, +{extra} per extra trick; fall short: −call.")
    else:
        parts.append(f"Success window {rules.success_window}: +call, otherwise −call.")
    if rules.bonus_call is not None:
        parts.append(f"A made call of {rules.bonus_call} or more scores {rules.bonus_points}.")
    if rules.min_total_calls is not None:
        parts.append(f"Calls totalling under {rules.min_total_calls}: the deal is thrown in.")
    if rules.match_end == "deals":
        parts.append(f"{rules.match_deals} deals; the highest total wins.")
    elif rules.match_end == "open":
        parts.append("Play as many deals as you like; the highest total wins.")
    else:
        parts.append(f"First to {rules.match_end.split(':')[1]} points wins.")
    return " ".join(parts)


def render_calls(
    order: Sequence[int],
    names: Sequence[str],
    calls: Sequence[int | None],
    *,
    to_act: int | None,
    title: str,
    footer: str,
) -> Text:
    """The calls so far in calling order, the seat to call marked, for the middle of the table."""
    width = max(len(names[s]) for s in order)
    rows = []
    for seat in order:
        call = calls[seat]
        shown = "…" if seat == to_act else ("–" if call is None else str(call))
        marker = "▶ " if seat == to_act else "  "
        rows.append(Text.assemble(marker, f"{names[seat]:<{width}}  ", (f"{shown:>2}", "bold")))
    block = max(len(title), len(footer), *(len(r.plain) for r in rows))
    head, foot = Text(title, style="bold"), Text(footer)
    head.align("center", block)
    foot.align("center", block)
    for row in rows:  # the list itself centred under the title
        row.pad_left((block - len(row.plain)) // 2)
    return Text("\n").join([head, Text(""), *rows, Text(""), foot])
