"""One drawing per shape of layout. A game names its shape in `Game.picture`; a shape reads the
reference rules' position (never the core's packed state) and draws every card still in play
exactly once, face up where a player sees it, face down where not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable

from ..errors import SolitaireError
from ..games.rules import Rules
from .svg import DEPTH, FAN, GAP, LABEL, MARGIN, Drawing, H, W

if TYPE_CHECKING:
    from ..games.base import Game

Shape = Callable[[Drawing, Rules, Any, frozenset], None]

STEP = W + GAP


def _stack_width(n: int) -> float:
    return W + DEPTH * max(n - 1, 0)


def pyramid(d: Drawing, rules: Any, pos: Any, marked: frozenset) -> None:
    """Pyramid (docs/pyramid.md): seven overlapping rows, the stock (its top card face up: it
    plays) in the top left corner and the waste (face up, its top card last) in the top right."""
    from ..games.pyramid.rules import ROWS, place

    x0, y0 = MARGIN, MARGIN + LABEL
    for r in range(ROWS):
        for i in range(r + 1):
            c = pos.pyramid[place(r, i)]
            if c is not None:
                covered = r + 1 < ROWS and any(pos.pyramid[place(r + 1, j)] is not None
                                               for j in (i, i + 1))
                d.card(x0 + (ROWS - 1 - r) * STEP / 2 + i * STEP, y0 + r * H / 2, c, "pyramid",
                       c in marked, covered)
    right = x0 + ROWS * STEP - GAP
    d.label(x0, y0 - 4, f"Stock {len(pos.stock)}")
    d.squared(x0, y0, pos.stock, "stock", pos.stock[:1], marked)
    d.label(right, y0 - 4, f"Waste {len(pos.waste)}", anchor="end")
    # The waste's top card is its last: squared() puts cards[0] on top.
    d.squared(right - _stack_width(len(pos.waste)), y0, pos.waste[::-1], "waste", pos.waste,
              marked)
    total = rules.passes if rules.passes else "unlimited"
    d.label(right, y0 + H + LABEL, f"Pass {pos.pass_no} of {total}", anchor="end")


def fanned_piles(d: Drawing, rules: Any, pos: Any, marked: frozenset) -> None:
    """Fourteen (docs/fourteen.md): the twelve piles side by side, each fanned from its bottom card
    (at the top of the picture) to its top card, numbered 0..11 as the proofs name them."""
    x0, y0 = MARGIN, MARGIN + LABEL
    for p, pile in enumerate(pos.piles):
        x = x0 + p * STEP
        d.label(x + W / 2, y0 - 4, f"pile {p}", anchor="middle")
        d.fanned(x, y0, pile, f"pile {p}", marked)


def columns_and_reserve(d: Drawing, rules: Any, pos: Any, marked: frozenset) -> None:
    """Nestor (docs/nestor.md): the eight columns overlapping (the exposed card last, at the
    bottom), and to their right the reserve: closed, a face-down stock whose top card shows when
    it is turned, and the discarded cards; open, every stock card left, face up."""
    x0, y0 = MARGIN, MARGIN + LABEL
    for i, col in enumerate(pos.columns):
        x = x0 + i * STEP
        d.label(x + W / 2, y0 - 4, f"column {i + 1}", anchor="middle")
        d.fanned(x, y0, col, f"column {i + 1}", marked)
    xr = x0 + len(pos.columns) * STEP + GAP
    if rules.open:
        left = [s for s in pos.stock if not pos.removed >> s & 1]
        d.label(xr, y0 - 4, f"Reserve {len(left)} (open)")
        d.fanned(xr, y0, left, "reserve", marked)
        return
    stock = pos.stock[pos.turned:]
    up = rules.turned_card(pos)
    d.label(xr, y0 - 4, f"Stock {len(stock)}")
    d.squared(xr, y0, stock, "stock", () if up is None else (up,), marked)
    gone = [s for s in pos.stock[: pos.turned] if not pos.removed >> s & 1]
    if gone:
        yd = y0 + H + 2 * LABEL
        d.label(xr, yd - 4, "Discarded")
        d.fanned(xr, yd, gone, "discarded", marked)


def slot_grid(d: Drawing, rules: Any, pos: Any, marked: frozenset) -> None:
    """The slot family (solitaire_solver/games/slots/tables.py): the table's slots in rows of its
    columns, an empty slot outlined, and the face-down stock to the right; under PySolFC's
    rules (a ReservePosition) the reserve's cards, face up, below the stock."""
    x0, y0 = MARGIN, MARGIN + LABEL
    for k, c in enumerate(pos.slots):
        x, y = x0 + (k % rules.columns) * STEP, y0 + (k // rules.columns) * (H + GAP)
        if c is None:
            d.empty(x, y)
        else:
            d.card(x, y, c, "slots", c in marked)
    xs = x0 + rules.columns * STEP + GAP
    d.label(xs, y0 - 4, f"Stock {len(pos.stock)}")
    d.squared(xs, y0, pos.stock, "stock")
    reserve = getattr(pos, "reserve", None)
    if reserve is not None:
        # Below the stock as deep as it is at the start, so the reserve keeps its place.
        yr = y0 + H + DEPTH * (52 - rules.slots) + GAP + LABEL
        d.label(xs, yr - 4, f"Reserve {len(reserve)} of {rules.reserve_size}")
        if not reserve:
            d.empty(xs, yr)
        for k, c in enumerate(reserve):
            d.card(xs + k * STEP, yr, c, "reserve", c in marked)


def piles_and_apart(d: Drawing, rules: Any, pos: Any, marked: frozenset) -> None:
    """Baroness (docs/baroness.md): the five piles fanned (the top card last), the face-down
    stock, and the two cards the last deal lays apart."""
    x0, y0 = MARGIN, MARGIN + LABEL
    for p, pile in enumerate(pos.piles):
        x = x0 + p * STEP
        d.label(x + W / 2, y0 - 4, f"pile {p + 1}", anchor="middle")
        d.fanned(x, y0, pile, f"pile {p + 1}", marked)
    xs = x0 + len(pos.piles) * STEP + GAP
    d.label(xs, y0 - 4, f"Stock {len(pos.stock)}")
    d.squared(xs, y0, pos.stock, "stock")
    d.label(xs, y0 + H + LABEL, f"Deal {pos.deals} of {rules.total_deals}")
    if pos.reserve:
        ya = y0 + H + 3 * LABEL
        d.label(xs, ya - 4, "Apart")
        for k, c in enumerate(pos.reserve):
            d.card(xs + k * STEP, ya, c, "apart", c in marked)


def grid_and_stock(d: Drawing, rules: Any, pos: Any, marked: frozenset) -> None:
    """Monte Carlo (docs/monte-carlo.md): the five-by-five layout, an empty place outlined, and
    the face-down stock to the right."""
    x0, y0 = MARGIN, MARGIN + LABEL
    side = 5
    for p, c in enumerate(pos.grid):
        x, y = x0 + (p % side) * STEP, y0 + (p // side) * (H + GAP)
        if c is None:
            d.empty(x, y)
        else:
            d.card(x, y, c, "layout", c in marked)
    xs = x0 + side * STEP + GAP
    d.label(xs, y0 - 4, f"Stock {len(pos.stock)}")
    d.squared(xs, y0, pos.stock, "stock")


def rows_and_reserve(d: Drawing, rules: Any, pos: Any, marked: frozenset) -> None:
    """Fifteens under PySolFC's rules (docs/fifteens.md): the sixteen rows in four lines of four,
    each fanned from its bottom card (a card dropped back covers its partner), numbered 1..16 as
    the moves name them; to the right the reserve, fanned from its bottom, and the stock."""
    x0, y = MARGIN, MARGIN + LABEL
    cols = 4
    for line in range(0, len(pos.rows), cols):
        rows = pos.rows[line:line + cols]
        for k, row in enumerate(rows):
            x = x0 + k * STEP
            d.label(x + W / 2, y - 4, f"row {line + k + 1}", anchor="middle")
            d.fanned(x, y, row, f"row {line + k + 1}", marked)
        tallest = max(max((len(r) for r in rows), default=1), 1)
        y += H + (tallest - 1) * FAN + GAP + LABEL
    xr = x0 + cols * STEP + GAP
    yr = MARGIN + LABEL
    d.label(xr, yr - 4, f"Reserve {len(pos.reserve)}")
    d.fanned(xr, yr, pos.reserve, "reserve", marked)
    xs = xr + STEP + GAP
    d.label(xs, yr - 4, f"Stock {len(pos.stock)}")
    d.squared(xs, yr, pos.stock, "stock")


def rows_of_places(d: Drawing, rules: Any, pos: Any, marked: frozenset) -> None:
    """Montana (docs/montana.md): four rows of `rules.ranks` places, a gap outlined; the redeals
    left, where the variant has any."""
    x0, y0 = MARGIN, MARGIN + LABEL
    side = rules.ranks
    if rules.redeals:
        d.label(x0, y0 - 4, f"Redeals left {rules.redeals - len(pos.lengths)}")
    for p, c in enumerate(pos.places):
        x, y = x0 + (p % side) * STEP, y0 + (p // side) * (H + GAP)
        if c is None:
            d.empty(x, y)
        else:
            d.card(x, y, c, "layout", c in marked)


def foundations_and_piles(d: Drawing, rules: Any, pos: Any, marked: frozenset) -> None:
    """Calculation (docs/calculation.md): the four foundations squared in a line (the top card
    face up, each labelled with its step and the value it takes next), the stock to their right
    (its next card face up: the whole order is known), and the four piles fanned below."""
    from ..games.calculation.rules import SEQUENCES

    x0, y0 = MARGIN, MARGIN + LABEL
    for f, cards in enumerate(pos.foundations):
        x = x0 + f * STEP
        h = len(cards)
        wants = "done" if h == 13 else "next " + "A23456789TJQK"[SEQUENCES[f][h] - 1]
        d.label(x, y0 - 4, f"F{f + 1} +{f + 1}")
        d.squared(x, y0, cards[::-1], f"F{f + 1}", cards, marked)
        d.label(x, y0 + H + DEPTH * 12 + LABEL, wants)
    xs = x0 + 4 * STEP + GAP
    d.label(xs, y0 - 4, f"Stock {len(pos.stock)}")
    d.squared(xs, y0, pos.stock, "stock", pos.stock[:1], marked)
    yp = y0 + H + DEPTH * 12 + 3 * LABEL
    for p, pile in enumerate(pos.piles):
        x = x0 + p * STEP
        d.label(x + W / 2, yp - 4, f"P{p + 1}", anchor="middle")
        d.fanned(x, yp, pile, f"P{p + 1}", marked)


def clock_face(d: Drawing, rules: Any, pos: Any, marked: frozenset) -> None:
    """Clock (docs/clock.md): the twelve hour piles round a clock face (the Ace at one o'clock,
    the Queen at twelve) and the Kings' pile in the centre; each pile's face-down cards squared,
    the face-up cards put under it fanned below them; the pile turned next is labelled so."""
    import math

    from ..games.clock.rules import CENTRE, LABELS

    radius = 2.6 * STEP
    cx = MARGIN + radius
    cy = MARGIN + LABEL + radius * 0.95
    for p in range(len(pos.down)):
        if p == CENTRE:
            x, y = cx, cy
        else:
            angle = math.radians(30 * (p + 1))
            x, y = cx + radius * math.sin(angle), cy - radius * 0.95 * math.cos(angle)
        x, y = x - W / 2, y - H / 2
        here = " (next)" if p == pos.at and pos.down[p] else ""
        d.label(x, y - 4, f"{LABELS[p]}{here}")
        d.squared(x, y, pos.down[p][::-1], f"pile {LABELS[p]}")
        if pos.up[p]:
            d.fanned(x + DEPTH * 3, y + H / 2, pos.up[p], f"pile {LABELS[p]}", marked, FAN / 2)


def row_of_piles(d: Drawing, rules: Any, pos: Any, marked: frozenset) -> None:
    """Accordion (docs/accordion.md): the row of piles left to right, in lines of thirteen as its
    layout text sets them, each pile squared with its top card face up (the cards it covers are
    out of sight), numbered from 1."""
    from ..games.accordion.rules import PER_LINE

    x0, y0 = MARGIN, MARGIN + LABEL
    deepest = max((len(p) for p in pos.piles), default=1)
    line_height = H + DEPTH * (deepest - 1) + GAP + LABEL
    for p, pile in enumerate(pos.piles):
        x = x0 + (p % PER_LINE) * (STEP + DEPTH * (deepest - 1))
        y = y0 + (p // PER_LINE) * line_height
        d.label(x + W / 2, y - 4, str(p + 1), anchor="middle")
        d.squared(x, y, pile[::-1], f"pile {p + 1}", pile[-1:], marked)


#: The shapes a Game may name in `picture`.
SHAPES: dict[str, Shape] = {
    "pyramid": pyramid,
    "fanned-piles": fanned_piles,
    "columns-and-reserve": columns_and_reserve,
    "slot-grid": slot_grid,
    "piles-and-apart": piles_and_apart,
    "grid-and-stock": grid_and_stock,
    "rows-and-reserve": rows_and_reserve,
    "rows-of-places": rows_of_places,
    "foundations-and-piles": foundations_and_piles,
    "clock-face": clock_face,
    "row-of-piles": row_of_piles,
}


def draw(g: Game, rules: Any, pos: Any, marked: Iterable[int] = (), title: str = "") -> Drawing:
    """The Drawing of a reference position, the cards in `marked` outlined."""
    shape = SHAPES.get(g.picture)
    if shape is None:
        raise SolitaireError(f"{g.name} has no picture (Game.picture is {g.picture!r}; shapes: "
                             f"{', '.join(SHAPES)})")
    d = Drawing(title)
    shape(d, rules, pos, frozenset(marked))
    return d
