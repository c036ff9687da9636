"""Montana (Gaps): four rows of places; a card moves into the gap right of the card one rank below
it in its suit; won with each row Two to the top rank of one suit (docs/montana.md).

The executable specification: plain Python, a position as the card in each place. Variants:
`ranks` (4..13: the cards Ace to that rank, rows of that many places) and `redeals` (how many
times the cards outside the rows' runs may be gathered, shuffled and dealt again).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Optional, Sequence

from ...cards import CARD_NAMES, value
from ...deal import Deal
from ...errors import DealError, LayoutError, quoted
from ...moves import Move
from ..rules import LayoutCards, Rules

ROWS = 4
GAP = "--"
#: Texts read as a gap in a typed layout (an Ace stands for one too: it is taken out).
GAP_TEXTS = ("--", "-", "..", ".")
_SPLIT = re.compile(r"[\s,]+")


def game_cards(ranks: int) -> list[int]:
    """The cards of the game with `ranks` ranks, in index order (suits C D H S, Ace upwards)."""
    return [c for c in range(52) if value(c) <= ranks]


def dealt(deal: Deal, ranks: int) -> list[int]:
    """The game's cards in dealing order: a seeded deal shuffles the game's own cards with
    random.Random(seed) (for 13 ranks that is the deal itself); any other deal gives its cards of
    those ranks in its order."""
    origin = deal.origin
    if ranks < 13 and origin is not None and origin[0] == "seed":
        cards = game_cards(ranks)
        random.Random(origin[1]).shuffle(cards)
        return cards
    return [c for c in deal.cards if value(c) <= ranks]


def layout_of(cards: Sequence[int]) -> tuple[Optional[int], ...]:
    """The places after the deal: card k in place k, the Aces taken out (their places the gaps)."""
    return tuple(None if value(c) == 1 else c for c in cards)


# -- the redeal's shuffle ---------------------------------------------------------------------------

def redeal_order(origin: Optional[tuple], ranks: int, lengths: Sequence[int],
                 gathered: list[int]) -> list[int]:
    """The gathered cards in the order they fill the places (docs/montana.md, "Variants": redeals): the
    deal's own generator, where the deal's shuffle and the earlier redeals' shuffles (of
    `lengths` cards) left it. A seeded deal: random.Random(seed).shuffle, filling in the list's
    order; a PySolFC number: PySolFC's shuffle of its talon, filling from the talon's top (the
    list's end)."""
    cards = list(gathered)
    if origin is None:
        raise DealError("a redeal shuffles with the deal's own generator: give the deal by its "
                        "seed or its PySolFC number")
    if origin[0] == "seed":
        rng = random.Random(origin[1])
        rng.shuffle(game_cards(ranks))
        for n in lengths:
            rng.shuffle([0] * n)
        rng.shuffle(cards)
        return cards
    # A module-level import would close a circle (pysolfc.py imports the games).
    from ...pysolfc import generator_after_deal, shuffle

    rng = generator_after_deal(origin[1])
    for n in lengths:
        shuffle(rng, [0] * n)
    shuffle(rng, cards)
    return cards[::-1]


def run_length(places: Sequence[Optional[int]], row: int, ranks: int) -> int:
    """How many places from the row's start hold its Two and the Three, Four, ... of that suit."""
    first = places[row * ranks]
    if first is None or value(first) != 2:
        return 0
    k = 1
    while k < ranks and places[row * ranks + k] == first + k:
        k += 1
    return k


@dataclass(frozen=True)
class MontanaPosition:
    places: tuple[Optional[int], ...]  # the card in each place, row by row; None for a gap
    lengths: tuple[int, ...] = ()      # the cards each redeal so far gathered, in order
    #: The deal's origin (Deal.origin), for the redeal's shuffle; the same for every position
    #: of a game, so not part of the key.
    origin: Optional[tuple] = field(default=None, compare=False)


class MontanaRules(Rules):
    """Move a card into a gap right of the card one rank below it in its suit (a Two into a gap
    in the first column); won with each row Two..top rank of one suit in its first places."""

    game = "montana"
    pile_moves = True

    def __init__(self, ranks: int = 13, redeals: int = 0):
        self.ranks = ranks
        self.redeals = redeals

    def start(self, deal: Deal) -> MontanaPosition:
        if self.redeals and deal.origin is None:
            raise DealError("redeals shuffle with the deal's own generator (the seed's "
                            "random.Random, or PySolFC's for its numbers; docs/montana.md): "
                            "give the deal by its seed or its PySolFC number, or play redeals=0")
        return MontanaPosition(layout_of(dealt(deal, self.ranks)), (), deal.origin)

    def moves(self, pos: MontanaPosition) -> list[Move]:
        n, places = self.ranks, pos.places
        out = []
        twos = [c for c in places if c is not None and value(c) == 2]
        for p, c in enumerate(places):
            if c is not None:
                continue
            if p % n == 0:
                out.extend(Move.to_pile(t, p // n + 1) for t in sorted(twos))
                continue
            left = places[p - 1]
            if left is not None and value(left) < n:
                out.append(Move(cards=(left + 1,)))
        if len(pos.lengths) < self.redeals:
            out.append(Move(word="redeal"))
        return out

    def apply(self, pos: MontanaPosition, move: Move) -> MontanaPosition:
        if move.word == "redeal":
            return self.redealt(pos)
        card = move.cards[0]
        places = list(pos.places)
        src = places.index(card)
        dst = (move.pile - 1) * self.ranks if move.pile else places.index(card - 1) + 1
        places[dst], places[src] = card, None
        return MontanaPosition(tuple(places), pos.lengths, pos.origin)

    def redealt(self, pos: MontanaPosition) -> MontanaPosition:
        n, places = self.ranks, list(pos.places)
        runs = [run_length(places, r, n) for r in range(ROWS)]
        gathered = [places[r * n + k] for r in range(ROWS) for k in range(runs[r], n)
                    if places[r * n + k] is not None]
        order = redeal_order(pos.origin, n, pos.lengths, gathered)
        it = iter(order)
        for r in range(ROWS):
            places[r * n + runs[r]] = None
            for k in range(runs[r] + 1, n):
                places[r * n + k] = next(it)
        return MontanaPosition(tuple(places), pos.lengths + (len(gathered),), pos.origin)

    def won(self, pos: MontanaPosition) -> bool:
        return all(run_length(pos.places, r, self.ranks) == self.ranks - 1 for r in range(ROWS))

    def key(self, pos: MontanaPosition) -> tuple:
        return (pos.places, pos.lengths)

    def cards_left(self, pos: MontanaPosition) -> int:
        """The cards not yet in a row's run from its Two."""
        return ROWS * (self.ranks - 1) - sum(run_length(pos.places, r, self.ranks)
                                             for r in range(ROWS))

    def render(self, pos: MontanaPosition) -> str:
        text = layout_text(pos.places, self.ranks)
        if self.redeals:
            text += f"\nredeals left: {self.redeals - len(pos.lengths)}"
        return text

    def describe(self, pos: MontanaPosition) -> dict:
        n = self.ranks
        return {"rows": [[None if c is None else CARD_NAMES[c] for c in pos.places[r * n:
                                                                                    (r + 1) * n]]
                         for r in range(ROWS)],
                "redeals_left": self.redeals - len(pos.lengths),
                "gathered": list(pos.lengths)}

    def why_illegal(self, pos: MontanaPosition, move: Move) -> str:
        n, places = self.ranks, pos.places
        if move.word == "redeal":
            return (f"redeal: no redeal left (redeals={self.redeals})" if self.redeals
                    else "redeal: this game has no redeals (variant redeals=1, 2, ...)")
        if move.word is not None or len(move.cards) != 1:
            return f"{move} is not a move of Montana: a move is one card (7H, or 2H>3 for a Two)"
        card = move.cards[0]
        if card not in places:
            return f"{move}: {CARD_NAMES[card]} is not in this game (ranks={n})"
        if move.pile:
            if value(card) != 2:
                return f"{move}: only a Two goes into the first place of a row"
            if move.pile > ROWS:
                return f"{move}: there are {ROWS} rows"
            if places[(move.pile - 1) * n] is not None:
                return f"{move}: the first place of row {move.pile} is not a gap"
        if value(card) == 2:
            return f"{move}: a Two names the row whose first place it fills: {move}>1 .. >4"
        where = places.index(card - 1)
        if where % n == n - 1 or places[where + 1] is not None:
            return (f"{move}: the place right of {CARD_NAMES[card - 1]} is not a gap")
        return f"{move} is not a legal move here"  # pragma: no cover - every case is named above


# -- layout text ------------------------------------------------------------------------------------

def layout_text(places: Sequence[Optional[int]], ranks: int) -> str:
    """Four lines of `ranks` places, `--` for a gap."""
    return "\n".join(" ".join(GAP if c is None else CARD_NAMES[c]
                              for c in places[r * ranks:(r + 1) * ranks]) for r in range(ROWS))


def looks_like_layout(text: str) -> bool:
    """A text of four non-blank lines, or one that shows a gap (`--`), is a layout; a pack's text
    is otherwise read as a pack (of 52 cards, on lines of any other count)."""
    lines = [line for line in text.splitlines() if line.strip()]
    return len(lines) == ROWS or any(t in GAP_TEXTS for t in _SPLIT.split(text.strip()))


def read_layout(text: str, ranks: int, redeals: Optional[int] = None) -> Deal:
    """The deal whose start is this layout: four lines of `ranks` places, each a card of rank Two
    to `ranks` or a gap (`--`, or an Ace, which is taken out), every card once, four gaps; the
    line `redeals left: N` that `render` adds in a game with redeals may follow, N the game's
    `redeals` (when given).

    The deal puts the Aces in the gaps (in suit order) and the cards above `ranks` after the
    layout. LayoutError names the line and place of any fault."""
    lines = [line for line in text.splitlines() if line.strip()]
    m = re.fullmatch(r"\s*redeals\s+left\s*:\s*(\d+)\s*", lines[-1], re.IGNORECASE) if lines else None
    if m:
        if redeals is not None and int(m.group(1)) != redeals:
            raise LayoutError(f"line {len(lines)}: {quoted(lines[-1].strip())} but this game has "
                              f"redeals={redeals}")
        lines = lines[:-1]
    if len(lines) != ROWS:
        raise LayoutError(f"a Montana layout has {ROWS} rows (lines), this one {len(lines)}")
    seen = LayoutCards()
    places: list[Optional[int]] = []
    for i, line in enumerate(lines, start=1):
        words = [w for w in _SPLIT.split(line.strip()) if w]
        if len(words) != ranks:
            raise LayoutError(f"line {i} (row {i}) has {len(words)} places; a row has {ranks} "
                              f"(ranks={ranks})")
        for k, w in enumerate(words, start=1):
            if w in GAP_TEXTS:
                places.append(None)
                continue
            c = seen.read(i, f"row {i}, place {k}", [w])[0]
            if value(c) > ranks:
                raise LayoutError(f"line {i} (row {i}), place {k}: {CARD_NAMES[c]} is not in a "
                                  f"game of ranks={ranks} (Ace to {ranks})")
            places.append(None if value(c) == 1 else c)
    gaps = places.count(None)
    if gaps != ROWS:
        raise LayoutError(f"a Montana layout has {ROWS} gaps (`--` or an Ace), this one {gaps}")
    missing = [CARD_NAMES[c] for c in game_cards(ranks) if value(c) > 1 and c not in places]
    if missing:  # pragma: no cover - 4N places, 4 gaps and no duplicate leave none missing
        raise LayoutError(f"the layout lacks {' '.join(missing)}")
    aces = iter(13 * s for s in range(4))
    cards = [next(aces) if c is None else c for c in places]
    cards += [c for c in range(52) if value(c) > ranks]
    return Deal(cards)

