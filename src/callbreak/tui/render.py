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
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from callbreak.decks import DECKS, STANDARD, Deck
from callbreak.engine import TrickView
from callbreak.faces import (
    DealResult,
    column_label,
    face,
    game_face,
    phase_face,
    seat_places,
    summary_cell,
)
from callbreak.games import find_game, match_end_text
from callbreak.points import Points
from callbreak.rules import OPTION_BY_NAME, Rules, option_text

SUIT_ORDER = "SHCD"
"""Left to right in the hand: spades (the trump) first, then colours alternating."""

_RED = frozenset("HD")
_ROOK_COLOURS = {"R": "red", "Y": "yellow", "G": "green", "B": "black"}

FACE = {
    "black": "bold black on white",
    "red": "bold red3 on white",
    "yellow": "bold dark_goldenrod on white",
    "green": "bold green4 on white",
    "rook": "bold magenta on white",
}
FACE_ILLEGAL = "grey50 on grey15"
FACE_CURSOR = {
    "black": "bold black on yellow",
    "red": "bold red3 on yellow",
    "yellow": "bold dark_goldenrod on bright_yellow",
    "green": "bold green4 on yellow",
    "rook": "bold magenta on yellow",
}
BORDER = "bold"
BORDER_ILLEGAL = "grey42"
BORDER_CURSOR = "bold yellow"
BORDER_HOVER = "bold cyan"

_SOLID = ("╭", "─", "╮", "│", "╰", "╯")
_DOTTED = ("┌", "┄", "┐", "┆", "└", "┘")


def colour(name: str) -> str:
    """The ink of a card: red or black, a Rook colour, or the Rook bird's own."""
    if name == "ROOK":
        return "rook"
    if len(name) == 2 and name[-1] in "SHDC":
        return "red" if name[-1] in _RED else "black"
    return _ROOK_COLOURS.get(name[-1], "black")


def chip(name: str, *, pad: int = 1) -> Text:
    """A played card as a small white chip, ``␣K♥␣``."""
    return Text(" " * pad + face(name) + " " * pad, style=FACE[colour(name)])


def sort_hand(cards: Sequence[str], deck: Deck = STANDARD) -> list[str]:
    """Cards grouped by suit (``SUIT_ORDER`` for the standard deck), highest first in a suit.

    "Highest" is the deck's own order, so Donut's reversed deal puts the 2 first
    and a placed Rook sits among the trump colour; an unplaced Rook goes last.
    """
    order = SUIT_ORDER if deck.suits == STANDARD.suits else deck.suits

    def key(name: str) -> tuple[int, int]:
        card = deck.parse(name)
        suit = card // deck.stride
        place = order.index(deck.suits[suit]) if suit < len(deck.suits) else len(order)
        return place, -card

    return sorted(cards, key=key)


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


def _sizes(label: int) -> tuple[tuple[int, int, int, bool], ...]:
    """(card width, gap, extra gap between suits, boxed), tried from the roomiest down,
    for faces ``label`` characters wide (2 for ``A♠``; 3 for ``14G``; 4 for ``ROOK``)."""
    return (
        (label + 4, 1, 3, True),
        (label + 2, 1, 2, True),
        (label + 2, 0, 1, True),
        (label + 1, 0, 1, False),
    )


def layout_hand(cards: Sequence[str], width: int) -> HandLayout:
    """Lay out a hand (already sorted) in ``width`` columns, as roomy as fits, centred."""
    ordered = tuple(cards)
    groups = len({c[-1] for c in ordered})
    labels = sorted((len(face(c)) for c in ordered), reverse=True) or [2]
    sizes = _sizes(labels[0])
    if len(labels) > 1 and labels[1] < labels[0]:
        # Last resort: the one long face (the Rook among 18 cards after the nest, at 80
        # columns) fills its card edge to edge, the others keep a column between them.
        sizes += _sizes(labels[1])[-1:]
    card_width, gap, suit_gap, boxed = sizes[-1]
    for card_width, gap, suit_gap, boxed in sizes:  # noqa: B007 (the fitting size is kept)
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


def _two_columns(rows: list[Text]) -> list[Text]:
    """``rows`` as two columns side by side, the first half on the left."""
    half = (len(rows) + 1) // 2
    left, right = rows[:half], rows[half:]
    column = max(len(row.plain) for row in left) + 3
    out = []
    for i, row in enumerate(left):
        line = row.copy()
        if i < len(right):
            line.pad_right(column - len(line.plain))
            line.append_text(right[i])
        out.append(line)
    return out


# --------------------------------------------------------------------- the trick
def relative(seat: int, human: int, players: int) -> int:
    """Where a seat sits seen from the person: 0 bottom, then on round the table (1 right …)."""
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
    facts: str = "",
    playing: Sequence[int] | None = None,
) -> Text:
    """The cards of one trick placed by where each seat sits, with a title and a footer line.

    The places follow the seats around the table (``seat_places``), for 3 to 8
    players.  With room (``height`` of 13 rows or more) the cards are drawn as
    boxes like the hand's; otherwise as one-line chips, so the table fits in
    80×24.  ``facts`` (trump, contract, …) goes under the title when given;
    seats not in ``playing`` (sat out, out of the game) get no place marker.
    """
    played = dict(zip(trick.seats(players), trick.cards, strict=True))
    by_place = {relative(seat, human, players): seat for seat in range(players)}
    in_play = set(range(players) if playing is None else playing)
    right, top, left = seat_places(players)
    label = max((len(face(c)) for c in trick.cards), default=2)
    boxed = height >= 13 and width >= 30 and label <= 4
    w = max(20, min(width, 40 if boxed else 34))
    card_w = 6 if boxed else max(4, label + 2)
    inner = 4

    def slot(place: int) -> list[Text]:
        """The rows of one seat's place: a chip, or a boxed card (three rows)."""
        seat = by_place[place]
        card = played.get(seat)
        if not boxed:
            if card is None:
                mark = " ·· " if seat in in_play else "    "
                return [Text(mark.center(card_w), style="grey50")]
            piece = chip(card, pad=1 if len(face(card)) <= 2 else 0)
            piece.pad_right(max(0, card_w - len(piece.plain)))
            if seat == winning:
                piece.stylize("underline")
            return [piece]
        if card is None and seat not in in_play:
            return [Text(" " * card_w)] * 3
        if card is None:
            tl, h, tr, v, bl, br = _DOTTED
            border, middle_text = "grey42", Text(" " * inner)
        else:
            tl, h, tr, v, bl, br = _SOLID
            border = BORDER_CURSOR if seat == winning else BORDER
            middle_text = Text(face(card).center(inner), style=FACE[colour(card)])
        middle_row = Text.assemble((v, border), middle_text, (v, border))
        return [
            Text(tl + h * inner + tr, style=border),
            middle_row,
            Text(bl + h * inner + br, style=border),
        ]

    def rows(*pieces: tuple[int, list[Text]]) -> list[Text]:
        out = [Text() for _ in range(max(len(p) for _, p in pieces))]
        for column, piece in pieces:
            for row, part in zip(out, piece, strict=False):
                row.append(" " * max(0, column - len(row.plain)))
                row.append_text(part)
        return out

    middle = (w - card_w) // 2
    grid: list[Text] = []
    if top:
        # The top seats spread evenly across the width, in their order round the table.
        step = (w - card_w) / (len(top) + 1)
        columns = [round(step * (i + 1)) for i in range(len(top))] if len(top) > 1 else [middle]
        grid += rows(*((col, slot(place)) for col, place in zip(columns, top, strict=True)))
    for row in range(max(len(left), len(right))):
        pieces: list[tuple[int, list[Text]]] = []
        if row < len(left):
            pieces.append((1, slot(left[row])))
        if row < len(right):
            pieces.append((w - card_w - 1, slot(right[row])))
        grid += rows(*pieces)
    grid += rows((middle, slot(0)))
    # The facts (trump, contract, partner card) take the whole width they need where the
    # table has it, the cards staying centred under them; else they wrap at the " · ".
    full = min(max(w, len(facts)), max(w, width))
    head = [Text(title, style="bold"), *(Text(f, style="italic") for f in _wrapped(facts, full))]
    foot = Text(footer)
    for line in (*head, foot):
        line.align("center", full)
    indent = Text(" " * ((full - w) // 2))
    return Text("\n").join([*head, Text(""), *(indent + row for row in grid), Text(""), foot])


def _wrapped(facts: str, width: int) -> list[str]:
    """``facts`` (parts joined by " · ") in lines of at most ``width``, broken between parts."""
    lines: list[str] = []
    for part in facts.split(" · ") if facts else ():
        joined = f"{lines[-1]} · {part}" if lines else part
        if lines and len(joined) <= width:
            lines[-1] = joined
        else:
            lines.append(part[:width])
    return lines


# ------------------------------------------------------------------ scoresheet
def _cell_said(result: DealResult, seat: int) -> str:
    """A seat's part in a deal before its points: call/won, its bid, or why it did not play."""
    if result.dealt_in and seat not in result.dealt_in:
        return "out"
    if seat in result.dropped:
        return "sat out"
    if find_game(result.game).calls:
        return f"{result.calls[seat]}/{result.tricks[seat]}"
    won = f"{result.tricks[seat]}"
    if seat == result.declarer and result.contract is not None:
        return f"bid {result.contract}: {won}"
    return won


def scoresheet(
    results: Sequence[DealResult],
    names: Sequence[str],
    totals: Sequence[Points],
    *,
    title: str | None = None,
    winners: Sequence[int] = (),
    seats: Sequence[int] | None = None,
) -> Table:
    """Every scored deal: each seat's call/won (or tricks) and points, the running total below;
    ``seats`` picks the columns (all seats by default)."""
    shown = range(len(names)) if seats is None else seats
    table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, expand=False)
    table.add_column("Deal", justify="left", no_wrap=True)
    for seat in shown:  # a name is text, never markup ("[red]Bob", "[/]")
        table.add_column(Text(names[seat]), justify="right", no_wrap=True)
    for result in results:
        if result.points is None:
            continue
        label = f"{result.number}" + (" tie" if result.tie_break else "")
        cells = []
        for seat in shown:
            won = _cell_said(result, seat)
            points = str(result.points[seat])
            if seat not in result.counting:
                points = f"({points})"
            cells.append(Text.assemble(f"{won}  ", (f"{points:>5}", "bold")))
        table.add_row(label, *cells)
        table.add_row(
            Text("Σ", style="dim"),
            *(Text(str(result.totals[seat]), style="dim") for seat in shown),
        )
    table.add_section()
    table.add_row(
        Text("Total", style="bold"),
        *(Text(f"{'★ ' if seat in winners else ''}{totals[seat]}", style="bold") for seat in shown),
    )
    return table


@dataclass(frozen=True)
class FittedScoresheet:
    """The scoresheet in as few parts as the width allows, each part a few seats' columns.

    One table of five to eight seats is wider than 80 columns once deals are scored
    ("sat out      5" in each cell), and Rich would cut every cell and name to "…";
    here the seats are split into even groups, one table each, under one another
    (the dialog scrolls), so every name, call and point stays whole.
    """

    results: Sequence[DealResult]
    names: Sequence[str]
    totals: Sequence[Points]
    title: str | None = None
    winners: Sequence[int] = ()

    def parts(self, width: int, console: Console) -> list[Table]:
        """The tables for ``width`` columns: all seats in one where they fit, else halves,
        thirds, … (a part too wide even alone is left for Rich to squeeze)."""
        players = len(self.names)
        wide = console.options.update_width(10_000)
        tables: list[Table] = []
        for count in range(1, players + 1):
            size = -(-players // count)
            tables = [
                scoresheet(
                    self.results,
                    self.names,
                    self.totals,
                    title=self.title if start == 0 else None,
                    winners=self.winners,
                    seats=range(start, min(players, start + size)),
                )
                for start in range(0, players, size)
            ]
            if all(Measurement.get(console, wide, t).maximum <= width for t in tables):
                break
        return tables

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        whole = self.parts(10_000, console)[0]
        return Measurement.get(console, options, whole)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield from self.parts(options.max_width, console)  # a part ends in a blank line


def deal_table(result: DealResult, names: Sequence[str]) -> Table:
    """One deal: the game's summary columns (its record's ``face``) for each seat.

    Call Break shows calls, the auction games the bid (the winning one, and
    each other seat's last word), Call Partner its card points, the drop games
    who sat out.
    """
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    columns = game_face(result.game).summary
    if result.declarer is None:
        columns = tuple(key for key in columns if key != "bid")
    table.add_column("", justify="left", no_wrap=True)
    for key in columns:
        label = column_label(key, result.game).capitalize()
        table.add_column(label, justify="right", no_wrap=True)
    for seat, name in enumerate(names):
        table.add_row(Text(name), *(summary_cell(result, seat, key) for key in columns))
    return table


# ------------------------------------------------------------------------ rules
def rules_table(rules: Rules) -> Table:
    """Every option of the game in force with its value; options changed from the preset first."""
    changed = rules.changed()
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, expand=True)
    table.add_column("Option", no_wrap=True)
    table.add_column("Value", no_wrap=True)
    table.add_column("Meaning", ratio=1)
    ordered = sorted(rules.options(), key=lambda name: name not in changed)
    for name in ordered:
        value = option_text(getattr(rules, name))
        mark = "*" if name in changed else ""
        style = "bold" if mark else ""
        help_text = OPTION_BY_NAME[name].help
        table.add_row(Text(name + mark, style=style), Text(value, style=style), help_text)
    return table


def rules_summary(rules: Rules) -> str:
    """The game in a few sentences, from the rules in force (for the help screen): the
    game's own words where its record has them, else its shape and phases."""
    told = rules.shape.summary
    return told(rules) if told is not None else family_summary(rules)


def family_summary(rules: Rules) -> str:
    """A game of the family in a few sentences, from its shape and phases (not per game)."""
    shape = rules.shape
    deck = "the Rook deck (57 cards)" if DECKS[shape.deck].has_rook else "a 52-card deck"
    low, high = shape.seats
    seats = f"{rules.players} players" + (f" (this game: {low}–{high})" if low != high else "")
    parts = [f"{rules.title}: {seats}, {shape.hand_size} cards each from {deck}."]
    steps = [phase_face(p.name, rules.game).said.step for p in rules.shape.phases]
    parts.append("Each deal: " + ", then ".join(steps) + ".")
    if shape.trump >= 0:
        parts.append("Spades are always trump.")
    parts.append("Follow suit if you can; the highest trump, else the highest card led, wins.")
    if shape.lowest_wins:
        parts.append(
            f"Scores count down from {shape.start}: lower is better; "
            + (
                "the match ends after a deal with a score at 0 or below."
                if shape.ends_at_zero
                else ""
            )
        )
    if shape.out_at is not None:
        parts.append(f"A score of {shape.out_at} or more puts a seat out of the game.")
    if not shape.lowest_wins:
        parts.append(match_end_text(rules))
    parts.append("docs/rules/ has the full rules.")
    return " ".join(parts)


def render_said(
    order: Sequence[int],
    names: Sequence[str],
    said: Sequence[str],
    *,
    to_act: int | None,
    title: str,
    footer: str,
    facts: str = "",
    height: int | None = None,
) -> Text:
    """What each seat said (a call, a bid, "pass", "out") in turn order, the seat to act marked
    (with "…" while it has said nothing yet: a bidder naming trump keeps its bid in sight).

    ``facts`` (trump, the face-up card) goes last; when ``height`` is too small
    for the spacing lines (many seats in 80×24) they are left out.
    """
    width = max(len(names[s]) for s in order)
    rows = []
    for seat in order:
        shown = "…" if seat == to_act and said[seat] in ("–", "") else said[seat]
        marker = "▶ " if seat == to_act else "  "
        rows.append(Text.assemble(marker, f"{names[seat]:<{width}}  ", (f"{shown:>2}", "bold")))
    tail_rows = 1 + (1 if facts else 0)
    if height is not None and len(rows) > 2 and len(rows) + tail_rows + 1 > height:
        rows = _two_columns(rows)  # eight seats in 80×24: in turn order, down then across
    block = max(len(title), len(footer), len(facts), *(len(r.plain) for r in rows))
    head, foot = Text(title, style="bold"), Text(footer)
    head.align("center", block)
    foot.align("center", block)
    indent = (block - max(len(row.plain) for row in rows)) // 2
    for row in rows:  # the list itself centred under the title, its rows aligned
        row.pad_left(indent)
    tail = [foot]
    if facts:
        line = Text(facts, style="italic")
        line.align("center", block)
        tail.append(line)
    roomy = height is None or len(rows) + len(tail) + 3 <= height
    gap = [Text("")] if roomy else []
    return Text("\n").join([head, *gap, *rows, *gap, *tail])
