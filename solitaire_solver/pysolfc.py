"""PySolFC's game numbers: the deal PySolFC shows for "game number N" (docs/pysolfc.md).

>>> import solitaire_solver as ss
>>> str(ss.pysolfc_deal("elevens", 1)).split()[:3]
['JD', '2D', '9H']

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
from dataclasses import replace
from typing import Any, Optional, Union

from .cards import card_index, card_name
from .deal import Deal
from .errors import SolitaireError, quoted
from .games import GAMES, get_game, normalise
from .games.base import Game, PySolFCGame
from .result import counted

#: PySolFC numbers run from 0 to BasicRandom.MAX_SEED (pysollib/pysolrandom.py: 20 digits).
MAX_NUMBER = 10**20
#: Below this a plain number is dealt by the FreeCell generator (pysolrandom.constructRandom).
MS_BELOW = 32000
#: LCRandom31.MAX_SEED: the largest number written `msN`.
MAX_MS = (1 << 33) - 1


class PySolFCError(SolitaireError):
    """A game PySolFC does not have, or a game number PySolFC does not deal."""


#: Every PySolFC game the library has, as the games' plug-ins declare them (Game.pysolfc; ids
#: from pysollib/games/*.py, registerGame).
PYSOLFC_GAMES: tuple[PySolFCGame, ...] = tuple(
    replace(p, game=g.name) for g in GAMES for p in g.pysolfc)

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


def _digits(text: str, most: int) -> Optional[int]:
    """The value of ASCII digits, None when it is above `most`: the digits are counted before
    int() reads them, which refuses a text past 4300 digits with a bare ValueError."""
    digits = text.lstrip("0") or "0"
    if len(digits) > len(str(most)):
        return None
    value = int(digits)
    return value if value <= most else None


def read_number(number: Union[int, str]) -> tuple[int, bool]:
    """(seed, FreeCell generator?) of a PySolFC game number: an int, its digits, or `msN`."""
    if isinstance(number, bool) or not isinstance(number, (int, str)):
        raise PySolFCError(f"a PySolFC game number is an integer (or text like 'ms123'), not "
                           f"{quoted(number)}")
    if isinstance(number, str):
        text = number.strip().lower()
        m = re.fullmatch(r"ms([0-9]+)", text)
        if m:
            seed = _digits(m.group(1), MAX_MS)
            if seed is None:
                raise PySolFCError(f"PySolFC game number {quoted(number)}: ms numbers run from "
                                   f"ms0 to ms{MAX_MS}")
            return seed, True
        # ASCII digits only: str.isdigit() also takes "²", which int() refuses
        if not (text.isascii() and text.isdigit()):
            raise PySolFCError(f"{quoted(number)} is not a PySolFC game number (digits, or msN)")
        value = _digits(text, MAX_NUMBER)
        if value is None:
            raise PySolFCError(f"PySolFC game number {quoted(number)}: PySolFC deals numbers 0 "
                               f"to {MAX_NUMBER} (10**20)")
        number = value
    if not 0 <= number <= MAX_NUMBER:
        raise PySolFCError(f"PySolFC game number {quoted(number)}: PySolFC deals numbers 0 to "
                           f"{MAX_NUMBER} (10**20)")
    return number, number < MS_BELOW


def dealt_order(number: Union[int, str], game: Union[str, int, Game, None] = None) -> list[int]:
    """The cards in the order PySolFC's talon deals them for this number; for a game whose
    plug-in has a shuffle hook of PySolFC's (Nestor's: columns of six that repeat no rank, then
    its four reserve cards), with that hook."""
    rng, cards = _shuffled(number)
    if game is None:
        return cards[::-1]  # the list's last card is the talon's top, dealt first
    return get_game(pysolfc_game(game).game)[0].pysolfc_order(rng, cards)


def _shuffled(number: Union[int, str]) -> tuple[Any, list[int]]:
    """The generator of a number after PySolFC's shuffle of the pack, and the shuffled list (its
    last card the talon's top)."""
    seed, ms = read_number(number)
    rng: Union[_FreeCellRandom, _TwisterRandom]
    if ms:
        rng, cards = _FreeCellRandom(seed), _pack_ms()
    else:
        rng, cards = _TwisterRandom(seed), _pack_pysolfc()
    shuffle(rng, cards)
    return rng, cards


def shuffle(rng: Any, cards: list) -> None:
    """PySolFC's shuffle of a list in place (its deal's, and AShuffleStackMove's, a talon's
    shuffle mid-game): for n from the last index down to 1, swap cards[n] with
    cards[rng.randint(0, n)]."""
    for n in range(len(cards) - 1, 0, -1):
        j = rng.randint(0, n)
        cards[n], cards[j] = cards[j], cards[n]


def generator_after_deal(number: Union[int, str]) -> Any:
    """The generator of a PySolFC game number where its deal left it (randint(a, b) as PySolFC
    draws): a game that shuffles again mid-game (Montana's redeal) continues it."""
    return _shuffled(number)[0]


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
    return get_game(p.game)[0].pysolfc_deal(dealt_order(number, p.id)).made_by(
        ("pysolfc", number))


def pysolfc_label(number: Union[int, str]) -> str:
    """The number as PySolFC shows it (getSeedStr): `ms1` for a FreeCell deal, twenty digits
    for a Mersenne Twister one."""
    seed, ms = read_number(number)
    return f"ms{seed}" if ms else f"{seed:020d}"


def pysolfc_layout(game: Union[str, int], number: Union[int, str]) -> dict:
    """The layout PySolFC shows for this game and number, for a player to check the number: its
    game id and title, the number as it shows it, `rows` (each a list of card names: the cards of
    one screen row, or of one pile for Fourteen and Nestor, bottom to top; None for a place
    left empty, Montana's Aces), `reserves` (cards,
    None for an empty reserve), `waste` and `talon` (how many cards it holds)."""
    p = pysolfc_game(game)
    order = [card_name(c) for c in dealt_order(number, p.id)]
    out: dict = {"game": p.id, "title": p.title, "number": pysolfc_label(number),
                 "rows": [], "reserves": [], "waste": [], "talon": 0}
    if p.piles and not p.pile_size:
        out["rows"] = [order[j::p.piles] for j in range(p.piles)]  # dealt round the table
    elif p.piles:
        k = p.piles * p.pile_size
        out["rows"] = [order[i: i + p.pile_size] for i in range(0, k, p.pile_size)]
        out["reserves"] = order[k:]
    else:
        k = 0
        for n in p.rows:
            out["rows"].append([None if c[0] in p.taken_out else c for c in order[k: k + n]])
            k += n
        out["reserves"] = [None] * p.reserves
        out["waste"] = order[k: k + p.waste]
        out["talon"] = 52 - k - p.waste
    return out


def layout_text(layout: dict) -> str:
    """pysolfc_layout's layout as text, drawn as PySolFC draws it."""
    p = pysolfc_game(layout["game"])
    lines = [f"PySolFC {layout['title']} (game {layout['game']}), number {layout['number']}:"]
    rows = layout["rows"]
    if p.piles:
        lines += [f"  {p.pile_word} {i + 1}: {' '.join(r)}" for i, r in enumerate(rows)]
    else:
        wide = max(len(r) for r in rows)
        for r in rows:
            pad = " " * (2 * (wide - len(r)) if p.centred else 0)
            lines.append("  " + pad + "  ".join("--" if c is None else c for c in r))
    if layout["reserves"]:
        shown = ["--" if c is None else c for c in layout["reserves"]]
        lines.append("  reserves: " + " ".join(shown))
    if layout["waste"]:
        lines.append("  waste: " + " ".join(layout["waste"]))
    if not p.piles:
        face = ", its top card face up" if p.waste else ""
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
