"""Clock: thirteen piles of four, turned one card at a time with no choice (docs/clock.md).

The reference rules, and the facts of the forced line behind the proof of a block: the line is
the game, so replaying it under these rules decides and proves every deal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional, Sequence

from ...cards import CARD_NAMES, value
from ...deal import Deal
from ...errors import LayoutError
from ...moves import Move
from ...result import counted
from ..rules import LayoutCards, Rules

PILES = 13
CENTRE = 12                  # pile 13, the Kings'; piles 0..11 are the hours Ace..Queen
LABELS = tuple("A23456789TJQK")


def pile_of(card: int) -> int:
    """The pile (0-based) a card goes under: its value's hour, the centre for a King."""
    return value(card) - 1


@dataclass(frozen=True)
class ClockPosition:
    down: tuple[tuple[int, ...], ...]   # the face-down cards of each pile, bottom first
    up: tuple[tuple[int, ...], ...]     # the face-up cards put under each pile, in order
    at: int                             # the pile whose top face-down card is turned next

    @property
    def removed(self) -> int:
        """No card leaves the table (0): a turned card lies face up under its pile."""
        return 0


def deal_piles(cards: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Card k of the pack goes onto pile k mod 13: each pile from its bottom card to its top."""
    return tuple(tuple(cards[p::PILES]) for p in range(PILES))


class ClockRules(Rules):
    """Turn the centre's top card, put it face up under the pile of its rank and turn that pile's
    top card, and so on; won with every card face up, lost when the pile to turn is face up."""

    game = "clock"

    def start(self, deal: Deal) -> ClockPosition:
        return ClockPosition(deal_piles(deal.cards), ((),) * PILES, CENTRE)

    def moves(self, pos: ClockPosition) -> list[Move]:
        pile = pos.down[pos.at]
        return [Move.remove((pile[-1],))] if pile else []

    def apply(self, pos: ClockPosition, move: Move) -> ClockPosition:
        c = move.cards[0]
        down, up = list(pos.down), list(pos.up)
        down[pos.at] = down[pos.at][:-1]
        to = pile_of(c)
        up[to] = up[to] + (c,)
        return ClockPosition(tuple(down), tuple(up), to)

    def won(self, pos: ClockPosition) -> bool:
        return not any(pos.down)

    def key(self, pos: ClockPosition) -> int:
        # The line is forced: the cards turned so far fix the position.
        return 52 - self.cards_left(pos)

    def cards_left(self, pos: ClockPosition) -> int:
        return sum(len(p) for p in pos.down)

    def render(self, pos: ClockPosition) -> str:
        return layout_text(pos)

    def why_illegal(self, pos: ClockPosition, move: Move) -> str:
        pile = pos.down[pos.at]
        if not pile:
            return (f"{move}: the game is over: pile {LABELS[pos.at]} has no face-down card "
                    "left to turn")
        if move.word is not None or len(move.cards) != 1:
            return f"{move} is not a move of Clock (the card turned, e.g. 7H)"
        return (f"{move}: the card turned next is {CARD_NAMES[pile[-1]]}, the top of pile "
                f"{LABELS[pos.at]}")


def forced_line(rules: ClockRules, deal: Deal) -> tuple[list[Move], ClockPosition]:
    """The one line of the deal, played to its end, and where it ends."""
    pos, line = rules.start(deal), []
    while True:
        moves = rules.moves(pos)
        if not moves:
            return line, pos
        line.append(moves[0])
        pos = rules.apply(pos, moves[0])


def block_details(rules: ClockRules, deal: Deal) -> Optional[dict]:
    """The facts of a lost deal's forced line (the proof's details), or None for a won deal."""
    line, end = forced_line(rules, deal)
    if rules.won(end):
        return None
    return {"turned": len(line), "last": str(line[-1]), "cards_left": rules.cards_left(end)}


def block_sentence(d: dict) -> str:
    return (f"the line is forced (one card to turn at every step), and the fourth King, "
            f"{d['last']}, is turned as card {d['turned']} of 52, with "
            f"{counted(d['cards_left'], 'card')} still face down and none left in the centre to "
            "turn")


# -- layout text ------------------------------------------------------------------------------------
#
# Thirteen lines, one per pile in the order A 2 ... Q K (the centre last), each `X: ` then its
# face-down cards from the bottom to the top, and after ` | ` the face-up cards put under it. At
# the deal's start no card is face up; a layout text is read as a start.

_LINE = re.compile(r"^\s*(?:([A2-9TJQK]|10)\s*:)?([^|]*)(?:\|(.*))?$", re.IGNORECASE)


def layout_text(pos: ClockPosition) -> str:
    out = []
    for p in range(PILES):
        line = f"{LABELS[p]}: " + (" ".join(CARD_NAMES[c] for c in pos.down[p]) or "-")
        if pos.up[p]:
            line += " | " + " ".join(CARD_NAMES[c] for c in pos.up[p])
        out.append(line)
    return "\n".join(out)


def looks_like_layout(text: str) -> bool:
    """Thirteen non-blank lines, or any line that starts with a pile's label and a colon."""
    lines = [line for line in text.splitlines() if line.strip()]
    return len(lines) == PILES or any(re.match(r"^\s*([A2-9TJQK]|10)\s*:", line, re.IGNORECASE)
                                      for line in lines)


def parse_layout(text: str) -> Deal:
    """The deal of a layout text at its start: thirteen lines, pile A first and the centre (K)
    last, each its four face-down cards from the bottom to the top (a label `A:` in front is
    optional). LayoutError names the line and the card of any problem."""
    lines = [(no, line) for no, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if len(lines) != PILES:
        raise LayoutError(f"a Clock layout has {PILES} lines (piles A..Q, then the centre K), "
                          f"this one {len(lines)}")
    reader = LayoutCards()
    piles = []
    for p, (no, line) in enumerate(lines):
        m = _LINE.match(line)
        label = (m.group(1) or LABELS[p]).upper().replace("10", "T")
        if label != LABELS[p]:
            raise LayoutError(f"line {no}: pile {label} out of order (line {p + 1} is pile "
                              f"{LABELS[p]})")
        if m.group(3) and m.group(3).strip():
            raise LayoutError(f"line {no}: pile {LABELS[p]} has face-up cards: a layout is read "
                              "at the deal's start")
        words = [w for w in re.split(r"[\s,]+", m.group(2).strip()) if w and w != "-"]
        cards = reader.read(no, f"pile {LABELS[p]}", words)
        if len(cards) != 4:
            raise LayoutError(f"line {no}: pile {LABELS[p]} has {len(cards)} cards, not 4")
        piles.append(cards)
    return Deal([piles[k % PILES][k // PILES] for k in range(52)])


# -- the survey's batch path --------------------------------------------------------------------
#
# A survey of 10^7 deals through solve() builds a Deal, a position per card turned and a Result
# per deal. The forced line needs none of them: pile p holds cards p, p+13, p+26, p+39 of the pack
# (its top last), so a count of the cards turned from each pile says which card is turned next.


def turned_count(cards: bytes, off: int = 0) -> int:
    """How many cards the forced line of the pack cards[off:off+52] turns (52: won), given as
    each card's value - 1 (its hour: the centre's is 12)."""
    taken = [0] * PILES
    at, turned = CENTRE, 0
    while True:
        k = taken[at]
        if k == 4:
            return turned
        taken[at] = k + 1
        at = cards[off + at + PILES * (3 - k)]
        turned += 1


_HOURS = bytes(c % 13 for c in range(52)) + bytes(204)   # card index -> value - 1


class ClockBatch:
    """The survey's batch decider (games/base.py BatchDecider) without a core: the seeded deals
    come from the C shuffle in one call a chunk (engine._seeded), and the forced line is counted
    by turned_count. Its records are solve()'s: won with 52 moves and 52 states; lost with the
    line's moves and cards left, 0 states (a structural proof)."""

    def __init__(self, seeded: object) -> None:
        self.seeded = seeded

    def decide_seeds(self, start: int, count: int, status: bytearray, left: bytearray,
                     moves: bytearray, states: bytearray) -> None:
        self._decide(self.seeded.seeded_deals(start, count), count, status, left, moves, states)

    def decide_deals(self, deals: object, status: bytearray, left: bytearray, moves: bytearray,
                     states: bytearray) -> None:
        flat = bytes(memoryview(deals).cast("B"))  # type: ignore[arg-type]
        if len(flat) % 52 or any(sorted(flat[i:i + 52]) != list(range(52))
                                 for i in range(0, len(flat), 52)):
            raise ValueError("decide_deals: each row is a full pack of 52 card indexes")
        self._decide(flat, len(flat) // 52, status, left, moves, states)

    @staticmethod
    def _decide(flat: bytes, count: int, status: bytearray, left: bytearray, moves: bytearray,
                states: bytearray) -> None:
        if min(len(status), len(left), len(moves), len(states)) < count:
            raise ValueError("decide: an output array is shorter than the deals")
        hours = flat.translate(_HOURS)
        for i in range(count):
            n = turned_count(hours, 52 * i)
            moves[i] = n
            left[i] = 52 - n
            status[i] = n != 52
            states[i] = 52 if n == 52 else 0

    @staticmethod
    def tally(status: bytes, left: bytes, states: bytes) -> tuple[int, list, list]:
        won = status.count(0)
        left_hist = [0] * 256
        for v in range(1, 53):
            left_hist[v] = left.count(v)
        left_hist[0] = left.count(0) - won
        states_hist = [0] * 256
        states_hist[52] = states.count(52)
        states_hist[0] = len(states) - states_hist[52]
        return won, left_hist, states_hist
