"""PySolFC's game numbers: the deal PySolFC shows for "game number N" (docs/pysolfc.md).

>>> import solitaire_solver as ss
>>> ss.pysolfc_deal("elevens", 1).cards[:3] == ss.Deal("JD 2D 9H").cards[:3]
True

PySolFC turns a number into a shuffle with one of two generators: numbers below 32000 (and any
number written `msN`) use the Microsoft FreeCell generator on the pack in the order AC AD AH AS
2C ...; numbers from 32000 on use Python's Mersenne Twister seeded with the number, on PySolFC's
own order (clubs, spades, hearts, diamonds, each A..K). Either way the shuffle swaps cards[n] with
a random earlier-or-same place, for n from the end down to 1, and the list is pushed onto the
talon, so its last card is dealt first. Nestor's deal then moves cards so that no column repeats
a rank. Every game here deals its cards in the order they leave the talon, which is our pack
order (docs/notation.md); Nestor's columns are dealt one after the other, and are turned into
our row-by-row order. Tests reproduce PySolFC's own layouts (tests/data/pysolfc-layouts).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Optional, Union

from .cards import card_index, card_name
from .deal import Deal
from .errors import SolitaireError
from .games import get_game, normalise
from .games.base import Game
from .result import counted

#: PySolFC numbers run from 0 to BasicRandom.MAX_SEED (pysollib/pysolrandom.py: 20 digits).
MAX_NUMBER = 10**20
#: Below this a plain number is dealt by the FreeCell generator (pysolrandom.constructRandom).
MS_BELOW = 32000
#: LCRandom31.MAX_SEED: the largest number written `msN`.
MAX_MS = (1 << 33) - 1


class PySolFCError(SolitaireError):
    """A game PySolFC does not have, or a game number PySolFC does not deal."""


@dataclass(frozen=True)
class PySolFCGame:
    """One PySolFC game we solve: its id and name there, our game, and the preset that plays
    PySolFC's rules (None when they are our game's defaults)."""

    id: int
    title: str
    game: str
    preset: Optional[str]


#: Every PySolFC game the library has (ids from pysollib/games/*.py, registerGame).
PYSOLFC_GAMES: tuple[PySolFCGame, ...] = (
    PySolFCGame(38, "Pyramid", "pyramid", "pyramid-pysolfc"),
    PySolFCGame(193, "Relaxed Pyramid", "pyramid", "relaxed-pyramid-pysolfc"),
    PySolFCGame(594, "Elevens", "elevens", "elevens-pysolfc"),
    PySolFCGame(829, "Block Ten", "block-ten", None),
    PySolFCGame(96, "Fourteen", "fourteen", None),
    PySolFCGame(235, "Nestor", "nestor", "nestor-pysolfc"),
    PySolFCGame(916, "Tens", "tens", "tens-pysolfc"),
    PySolFCGame(597, "Fifteens", "fifteens", "fifteens-pysolfc"),
    PySolFCGame(657, "Baroness", "baroness", "baroness-pysolfc"),
    PySolFCGame(89, "Monte Carlo", "monte-carlo", None),
    PySolFCGame(91, "Simple Pairs", "simple-pairs", None),
    PySolFCGame(593, "Thirteens", "thirteens", None),
)

_SUITS_PYSOLFC = "CSHD"
_RANKS = "A23456789TJQK"


def _pack_pysolfc() -> list[int]:
    """PySolFC's starting order: suits C, S, H, D, each A..K (as our card indexes)."""
    return [card_index(r + s) for s in _SUITS_PYSOLFC for r in _RANKS]


def _pack_ms() -> list[int]:
    """The FreeCell order PySolFC puts the pack in first: AC AD AH AS 2C 2D ... (game.shuffle)."""
    pack = _pack_pysolfc()
    return [pack[i + j] for i in range(13) for j in (0, 39, 26, 13)]


class _FreeCellRandom:
    """LCRandom31 (pysollib/pysolrandom.py): Microsoft's rand(), extended above 2**31."""

    def __init__(self, seed: int):
        self.seed = seed
        self.x = seed if seed < 1 << 32 else seed - (1 << 32)

    def randint(self, a: int, b: int) -> int:
        self.x = (self.x * 214013 + 2531011) & MAX_MS
        if self.seed < 1 << 32:
            r = (self.x >> 16) & 0x7FFF
            if self.seed >= 1 << 31:
                r |= 0x8000
        else:
            r = ((self.x >> 16) & 0xFFFF) + 1
        return a + r % (b + 1 - a)

    def choice(self, seq: list[int]) -> int:
        # Nestor's hook draws with choice(); PySolFC's layouts match rand() % len (tested).
        return seq[self.randint(0, len(seq) - 1)]


class _TwisterRandom:
    """MTRandom: Python's Mersenne Twister, drawn as random2 does (random() scaled, not
    Python 3's getrandbits), so the same number gives the same deal on any Python."""

    def __init__(self, seed: int):
        self.r = random.Random(seed)

    def randint(self, a: int, b: int) -> int:
        return a + int(self.r.random() * (b + 1 - a))

    def choice(self, seq: list[int]) -> int:
        return seq[int(self.r.random() * len(seq))]


def read_number(number: Union[int, str]) -> tuple[int, bool]:
    """(seed, FreeCell generator?) of a PySolFC game number: an int, its digits, or `msN`."""
    if isinstance(number, bool) or not isinstance(number, (int, str)):
        raise PySolFCError(f"a PySolFC game number is an integer (or text like 'ms123'), not "
                           f"{number!r}")
    if isinstance(number, str):
        text = number.strip().lower()
        m = re.fullmatch(r"ms([0-9]+)", text)
        if m:
            seed = int(m.group(1))
            if seed > MAX_MS:
                raise PySolFCError(f"PySolFC game number {number!r}: ms numbers run from ms0 to "
                                   f"ms{MAX_MS}")
            return seed, True
        # ASCII digits only: str.isdigit() also takes "²", which int() refuses
        if not (text.isascii() and text.isdigit()):
            raise PySolFCError(f"{number!r} is not a PySolFC game number (digits, or msN)")
        number = int(text)
    if not 0 <= number <= MAX_NUMBER:
        raise PySolFCError(f"PySolFC game number {number}: PySolFC deals numbers 0 to "
                           f"{MAX_NUMBER} (10**20)")
    return number, number < MS_BELOW


def dealt_order(number: Union[int, str], nestor: bool = False) -> list[int]:
    """The cards in the order PySolFC's talon deals them for this number (Nestor: with its
    shuffle hook, so columns of six follow one another, then its four reserve cards)."""
    seed, ms = read_number(number)
    rng: Union[_FreeCellRandom, _TwisterRandom]
    if ms:
        rng, cards = _FreeCellRandom(seed), _pack_ms()
    else:
        rng, cards = _TwisterRandom(seed), _pack_pysolfc()
    for n in range(len(cards) - 1, 0, -1):
        j = rng.randint(0, n)
        cards[n], cards[j] = cards[j], cards[n]
    if not nestor:
        return cards[::-1]  # the list's last card is the talon's top, dealt first
    # Nestor._shuffleHook (pysollib/games/montecarlo.py): while column i repeats a rank, swap
    # the earlier card of the first repeat with a random card of a later column or the reserve;
    # it then reverses the list, so the list as it stands is the dealing order.
    for i in range(8):
        for _ in range(1000):
            j = _first_repeat(cards[6 * i: 6 * i + 6])
            if j < 0:
                break
            j += 6 * i
            k = rng.choice(list(range(6 * (i + 1), 52)))
            cards[j], cards[k] = cards[k], cards[j]
    return cards


def _first_repeat(column: list[int]) -> int:
    """Nestor._checkRow: the place of the earlier card of the first pair of equal ranks."""
    for i in range(len(column)):
        for j in range(i):
            if column[i] % 13 == column[j] % 13:
                return j
    return -1


def pysolfc_game(game: Union[str, int, Game]) -> PySolFCGame:
    """The PySolFC game of a name (ours, an alias, a preset) or a PySolFC id."""
    if isinstance(game, int) and not isinstance(game, bool):
        for p in PYSOLFC_GAMES:
            if p.id == game:
                return p
        ids = ", ".join(f"{p.id} {p.title}" for p in PYSOLFC_GAMES)
        raise PySolFCError(f"PySolFC game id {game} is not one we solve (ids: {ids})")
    name = game.name if isinstance(game, Game) else game
    g, _ = get_game(name)  # UnknownGameError for a name we do not know at all
    if isinstance(name, str):
        for p in PYSOLFC_GAMES:
            if p.preset is not None and normalise(name) == p.preset:
                return p
    for p in PYSOLFC_GAMES:
        if p.game == g.name:
            return p
    raise PySolFCError(f"PySolFC has no {g.name}: its game numbers are for "
                       f"{', '.join(sorted({p.game for p in PYSOLFC_GAMES}))}")


def pysolfc_deal(game: Union[str, int], number: Union[int, str]) -> Deal:
    """PySolFC's deal for `game` (a name, alias, preset or PySolFC id) and game number `number`
    (0 .. 10**20, or `msN`), as a Deal in our notation. Solve it under the game's PySolFC preset
    (`pysolfc_preset`) for the answer on PySolFC's screen. PySolFCError for a game PySolFC does
    not have or a number it does not deal."""
    p = pysolfc_game(game)
    if p.game != "nestor":
        return Deal(dealt_order(number))
    cards = dealt_order(number, nestor=True)
    columns = [cards[6 * c: 6 * c + 6] for c in range(8)]
    if any(_first_repeat(col) >= 0 for col in columns):
        # The hook gave up (it tries 1000 swaps a column): the layout is played as PySolFC
        # shows it, which our rectified deal would not give back from a pack.
        from .rules.nestor import NestorLayout
        return NestorLayout(columns, cards[48:])
    # No column repeats a rank, so our rectified deal, row by row, deals these very columns.
    return Deal([columns[c][r] for r in range(6) for c in range(8)] + cards[48:])


def pysolfc_label(number: Union[int, str]) -> str:
    """The number as PySolFC shows it (getSeedStr): `ms1` for a FreeCell deal, twenty digits
    for a Mersenne Twister one."""
    seed, ms = read_number(number)
    return f"ms{seed}" if ms else f"{seed:020d}"


#: How PySolFC lays out each game's first cards (createGame/startGame): the cards of each row
#: of the screen, the reserve stacks, and a waste card (Pyramid).
_ROWS = {"pyramid": list(range(1, 8)), "elevens": [3, 3, 3], "block-ten": [3, 3, 3],
         "simple-pairs": [3, 3, 3], "tens": [7, 6], "fifteens": [4, 4, 4, 4],
         "thirteens": [5, 5], "monte-carlo": [5] * 5, "baroness": [5]}
_RESERVES = {"elevens": 3, "tens": 4, "fifteens": 1, "baroness": 2}


def pysolfc_layout(game: Union[str, int], number: Union[int, str]) -> dict:
    """The layout PySolFC shows for this game and number, for a player to check the number: its
    game id and title, the number as it shows it, `rows` (each a list of card names: the cards of
    one screen row, or of one pile for Fourteen and Nestor, bottom to top), `reserves` (cards,
    None for an empty reserve), `waste` and `talon` (how many cards it holds)."""
    p = pysolfc_game(game)
    order = [card_name(c) for c in dealt_order(number, nestor=p.game == "nestor")]
    out: dict = {"game": p.id, "title": p.title, "number": pysolfc_label(number),
                 "rows": [], "reserves": [], "waste": [], "talon": 0}
    if p.game == "fourteen":
        out["rows"] = [order[j::12] for j in range(12)]
    elif p.game == "nestor":
        out["rows"] = [order[6 * c: 6 * c + 6] for c in range(8)]
        out["reserves"] = order[48:]
    else:
        k = 0
        for n in _ROWS[p.game]:
            out["rows"].append(order[k: k + n])
            k += n
        out["reserves"] = [None] * _RESERVES.get(p.game, 0)
        if p.game == "pyramid":
            out["waste"] = [order[k]]
            k += 1
        out["talon"] = 52 - k
    return out


def layout_text(layout: dict) -> str:
    """pysolfc_layout's layout as text, drawn as PySolFC draws it."""
    lines = [f"PySolFC {layout['title']} (game {layout['game']}), number {layout['number']}:"]
    rows = layout["rows"]
    if layout["game"] in (96, 235):
        word = "pile" if layout["game"] == 96 else "column"
        lines += [f"  {word} {i + 1}: {' '.join(r)}" for i, r in enumerate(rows)]
    else:
        wide = max(len(r) for r in rows)
        pyramid = layout["game"] in (38, 193)
        for r in rows:
            pad = " " * (2 * (wide - len(r)) if pyramid else 0)
            lines.append("  " + pad + "  ".join(r))
    if layout["reserves"]:
        shown = ["--" if c is None else c for c in layout["reserves"]]
        lines.append("  reserves: " + " ".join(shown))
    if layout["waste"]:
        lines.append("  waste: " + " ".join(layout["waste"]))
    if layout["game"] not in (96, 235):
        face = ", its top card face up" if layout["game"] in (38, 193) else ""
        lines.append(f"  talon: {counted(layout['talon'], 'card')}{face}")
    return "\n".join(lines)


def pysolfc_preset(game: Union[str, int]) -> Optional[str]:
    """The name to solve a PySolFC deal of `game` under for the answer on PySolFC's screen: the
    game itself where PySolFC plays our rules, its `<game>-pysolfc` preset where they differ;
    None when they differ and this version has no such preset yet."""
    p = pysolfc_game(game)
    if p.preset is None:
        return p.game
    try:
        get_game(p.preset)
    except SolitaireError:
        return None
    return p.preset


__all__ = ["MAX_NUMBER", "PYSOLFC_GAMES", "PySolFCError", "PySolFCGame", "dealt_order",
           "layout_text", "pysolfc_deal", "pysolfc_game", "pysolfc_label", "pysolfc_layout",
           "pysolfc_preset", "read_number"]
