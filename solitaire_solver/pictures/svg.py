"""Cards drawn as SVG by code: faces (rank, suit symbol as a path, red or black), backs, empty
places and labels, collected on a Drawing that writes one standalone <svg> element.

Every card in play is one <g> carrying data-card (its name, docs/notation.md), data-place (where
it lies: "pyramid", "stock", "pile 3", ...), data-face ("up" or "down") and, for the cards the
next move removes, data-marked="true". No image files, no web fonts: the suits are paths and the
text uses the generic family sans-serif.
"""

from __future__ import annotations

from html import escape
from typing import Iterable, Sequence

from ..cards import CARD_NAMES, pretty, suit

#: Card size and spacing, in SVG user units.
W, H = 50, 70
GAP = 8
#: The visible strip of a card under the next one in a fanned pile.
FAN = 20
#: The offset between cards squared up in a stock or waste (the pile's depth shows).
DEPTH = 0.6
MARGIN = 16
LABEL = 16

FELT = "#1f6b3f"
RED, BLACK = "#c8102e", "#1a1a1a"
MARK = "#ffb000"
FONT = "sans-serif"

# Suit symbols in a 10 x 10 box (clubs, diamonds, hearts, spades: the order of cards.SUITS).
SUIT_PATHS = (
    "M5 0.4a2.3 2.3 0 1 1 0 4.6a2.3 2.3 0 1 1 0-4.6M2.5 3.8a2.3 2.3 0 1 1 0 4.6a2.3 2.3 0 1 1"
    " 0-4.6M7.5 3.8a2.3 2.3 0 1 1 0 4.6a2.3 2.3 0 1 1 0-4.6M5 4.6L6.6 10H3.4Z",
    "M5 0L9 5L5 10L1 5Z",
    "M5 9.6C1.2 6.6 0 4.8 0 3.1A2.5 2.5 0 0 1 5 3.1A2.5 2.5 0 0 1 10 3.1C10 4.8 8.8 6.6 5 9.6Z",
    "M5 0.3C1.5 3.2 0 5 0 6.6A2.4 2.4 0 0 0 4.4 8L3.4 10H6.6L5.6 8A2.4 2.4 0 0 0 10 6.6C10 5 8.5 3.2"
    " 5 0.3Z",
)
_SUIT_IDS = ("ss-club", "ss-diamond", "ss-heart", "ss-spade")


def defs() -> str:
    """The suit symbols every card uses, as one <defs> block (once per document)."""
    symbols = "".join(f'<symbol id="{i}" viewBox="0 0 10 10"><path d="{p}"/></symbol>'
                      for i, p in zip(_SUIT_IDS, SUIT_PATHS))
    return f"<defs>{symbols}</defs>"


def _rank_text(card: int) -> str:
    r = CARD_NAMES[card][0]
    return "10" if r == "T" else r


class Drawing:
    """Elements placed in user units; the size grows to hold them."""

    def __init__(self, title: str = "") -> None:
        self.title = title
        self.parts: list[str] = []
        self.width = 0.0
        self.height = 0.0

    def _grow(self, x: float, y: float) -> None:
        self.width = max(self.width, x)
        self.height = max(self.height, y)

    def card(self, x: float, y: float, card: int, place: str, marked: bool = False,
             covered: bool = False) -> None:
        """A card face up, its corner index (rank and suit) in the strip a fan leaves showing.
        A `covered` card (its lower half under other cards, as in Pyramid's rows) draws its
        large suit in its upper half, so no part of it shows between the cards over it."""
        colour = RED if suit(card) in (1, 2) else BLACK
        sym = _SUIT_IDS[suit(card)]
        stroke = f'stroke="{MARK}" stroke-width="3.5"' if marked else 'stroke="#777"'
        fill = "#fff4cf" if marked else "#fff"
        mark = ' data-marked="true"' if marked else ""
        rank = _rank_text(card)
        tight = ' letter-spacing="-1"' if len(rank) > 1 else ""
        self.parts.append(
            f'<g data-card="{CARD_NAMES[card]}" data-place="{escape(place)}" data-face="up"{mark}'
            f' transform="translate({x:g},{y:g})"><title>{pretty(card)}</title>'
            f'<rect width="{W}" height="{H}" rx="5" fill="{fill}" {stroke}/>'
            f'<text x="4" y="15" font-family="{FONT}" font-size="14" font-weight="bold"'
            f' fill="{colour}"{tight}>{rank}</text>'
            f'<use href="#{sym}" x="{23 if len(rank) > 1 else 16}" y="4" width="11" height="11"'
            f' fill="{colour}"/>'
            + (f'<use href="#{sym}" x="{W / 2 - 6:g}" y="17" width="12" height="12"'
               if covered else
               f'<use href="#{sym}" x="{W / 2 - 11:g}" y="{H / 2 - 6:g}" width="22" height="22"')
            + f' fill="{colour}"/></g>')
        self._grow(x + W, y + H)

    def back(self, x: float, y: float, card: int, place: str) -> None:
        """A card face down: it is in play (named in data-card) but not shown."""
        self.parts.append(
            f'<g data-card="{CARD_NAMES[card]}" data-place="{escape(place)}" data-face="down"'
            f' transform="translate({x:g},{y:g})">'
            f'<rect width="{W}" height="{H}" rx="5" fill="#24487f" stroke="#0f2447"/>'
            f'<rect x="5" y="5" width="{W - 10}" height="{H - 10}" rx="3" fill="none"'
            f' stroke="#9db6e0" stroke-width="1.5"/>'
            f'<path d="M{W / 2:g} 12L{W - 11} {H / 2:g}L{W / 2:g} {H - 12}L11 {H / 2:g}Z"'
            f' fill="none" stroke="#9db6e0"/></g>')
        self._grow(x + W, y + H)

    def empty(self, x: float, y: float) -> None:
        """An empty place: a dashed outline."""
        self.parts.append(
            f'<rect x="{x:g}" y="{y:g}" width="{W}" height="{H}" rx="5" fill="none"'
            ' stroke="#cfe3d4" stroke-opacity="0.6" stroke-dasharray="4 3" data-empty="true"/>')
        self._grow(x + W, y + H)

    def label(self, x: float, y: float, text: str, anchor: str = "start") -> None:
        """A line of text; y is its baseline."""
        self.parts.append(
            f'<text x="{x:g}" y="{y:g}" font-family="{FONT}" font-size="12" fill="#eef5ef"'
            f' text-anchor="{anchor}">{escape(text)}</text>')
        self._grow(x + (7 * len(text) if anchor == "start" else 0), y + 4)

    def squared(self, x: float, y: float, cards: Sequence[int], place: str,
                face_up: Iterable[int] = (), marked: frozenset[int] = frozenset()) -> None:
        """A pile squared up (a stock, a waste), cards[0] on top: drawn bottom first, each a
        little up and left of the one below, so the pile's depth shows."""
        up = set(face_up)
        n = len(cards)
        if not n:
            self.empty(x, y)
            return
        for k in range(n - 1, -1, -1):
            cx, cy = x + DEPTH * k, y + DEPTH * k
            c = cards[k]
            if c in up:
                self.card(cx, cy, c, place, c in marked)
            else:
                self.back(cx, cy, c, place)

    def fanned(self, x: float, y: float, cards: Sequence[int], place: str,
               marked: frozenset[int] = frozenset(), step: float = FAN) -> None:
        """A pile fanned downwards, cards[0] at the top of the picture, the last card uncovered."""
        if not cards:
            self.empty(x, y)
            return
        for k, c in enumerate(cards):
            self.card(x, y + k * step, c, place, c in marked)

    def to_svg(self, with_defs: bool = True, scale: float = 1.0) -> str:
        """One <svg> element, standalone (xmlns, size, background), its size `scale` times the
        drawing's; with_defs=False leaves the suit symbols to a <defs> block elsewhere in the
        document (an HTML page holds one)."""
        w, h = self.width + MARGIN, self.height + MARGIN
        title = f"<title>{escape(self.title)}</title>" if self.title else ""
        return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w:g} {h:g}"'
                f' width="{w * scale:g}" height="{h * scale:g}" role="img">{title}'
                f'{defs() if with_defs else ""}'
                f'<rect width="{w:g}" height="{h:g}" rx="8" fill="{FELT}"/>'
                + "".join(self.parts) + "</svg>")
