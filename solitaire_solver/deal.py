"""Deals: the 52 cards of one pack in the order they come off it (docs/notation.md)."""

from __future__ import annotations

import random
import re
from typing import Any, Iterable, Optional, Sequence, Union

from .cards import CARD_NAMES, card_index
from .engine.backend import core_module, pure_requested
from .errors import CardError, DealError, quoted

_SPLIT = re.compile(r"[\s,]+")


class Deal:
    """An immutable full pack in dealing order. `str()` gives the canonical text, `repr()` round-trips."""

    __slots__ = ("_cards", "_origin")

    def __init__(self, cards: Union[str, bytes, Iterable[Union[str, int]]]):
        self._cards = _parse(cards)
        self._origin: Optional[tuple] = None

    @classmethod
    def from_seed(cls, seed: int) -> Deal:
        """The seeded deal (docs/notation.md): the pack in index order shuffled by random.Random(seed)."""
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise DealError(f"a seed must be an integer, not {quoted(seed)}")
        if seed < 0:
            # random.Random(-n) seeds as random.Random(n): a negative seed would deal seed n's
            # pack under another name (docs/notation.md).
            raise DealError(f"a seed is 0 or more, not {seed} (random.Random({seed}) deals seed "
                            f"{-seed}'s pack)")
        shuffled = _seeded()
        if shuffled is not None:
            # The C generator (csrc/pyrandom.c): the same shuffle, checked for any integer in
            # tests/test_survey.py, without Python's per-card calls; surveys deal once per deal.
            return cls(shuffled.seeded_deal(seed)).made_by(("seed", seed))
        pack = list(range(52))
        random.Random(seed).shuffle(pack)
        return cls(pack).made_by(("seed", seed))

    @property
    def origin(self) -> Optional[tuple]:
        """How the deal was made, where a game's later shuffles continue its generator (Montana's
        redeals): ("seed", n) for Deal.from_seed(n), ("pysolfc", number) for a PySolFC game
        number (pysolfc.pysolfc_deal); None for a deal given by its cards. Not part of the
        deal's identity: equal cards, equal deals."""
        return self._origin

    def made_by(self, origin: Optional[tuple]) -> Deal:
        """This deal, with its origin (see origin) set; returns self."""
        self._origin = origin
        return self

    @property
    def cards(self) -> tuple[int, ...]:
        """Card indexes in dealing order."""
        return self._cards

    def __iter__(self):
        return iter(self._cards)

    def __len__(self) -> int:
        return 52

    def __getitem__(self, i):
        return self._cards[i]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deal) and other._cards == self._cards

    def __hash__(self) -> int:
        return hash(self._cards)

    def __str__(self) -> str:
        return " ".join(CARD_NAMES[c] for c in self._cards)

    def __repr__(self) -> str:
        return f"Deal({str(self)!r})"


DealLike = Union[Deal, str, bytes, Sequence[Union[str, int]]]


def random_deal(seed: int) -> Deal:
    """The seeded deal for `seed` (docs/notation.md): anyone can reproduce it."""
    return Deal.from_seed(seed)


def as_deal(deal: DealLike) -> Deal:
    if type(deal) is str:
        # The common text straight to the C reader, without the layers of Deal(): solve()
        # reads a deal per call (docs/notes/benchmarks-history.md).
        cards = _read_plain(deal)
        if cards is not None:
            return checked_deal(cards)
    return deal if isinstance(deal, Deal) else Deal(deal)


def checked_deal(cards: tuple[int, ...]) -> Deal:
    """The Deal of a full pack already checked (the C reader's), without checking it again."""
    out = Deal.__new__(Deal)
    out._cards = cards
    out._origin = None
    return out


def deal_text(deal: Any) -> Any:
    """bytes (or a bytearray) decoded as the card text they hold (UTF-8, of which ASCII is a part,
    so suit symbols read too); anything else as it is. A list of card indexes is the way to give
    indexes: bytes of control characters are refused rather than read as numbers."""
    if isinstance(deal, str):
        return deal[1:] if deal.startswith("\ufeff") else deal  # a BOM is no card
    if not isinstance(deal, (bytes, bytearray)):
        return deal
    try:
        text = bytes(deal).decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise DealError(f"a deal given as bytes is read as text, and these are not UTF-8 text "
                        f"({e.reason} at byte {e.start})") from None
    bad = next((i for i, ch in enumerate(text) if not ch.isprintable() and not ch.isspace()), None)
    if bad is not None:
        raise DealError(f"a deal given as bytes is read as card text, and character {bad} is the "
                        f"control character {quoted(text[bad])}: give card indexes as a list of ints")
    return text


#: The plain two-character names in either case (`AS`, `as`, `aS`, `As`): the common text of a
#: deal, read without card_index's general parsing (solve() parses a deal on every call).
_PLAIN = {r + u: i for i, name in enumerate(CARD_NAMES)
          for r in {name[0], name[0].lower()} for u in {name[1], name[1].lower()}}


_C_SEEDED: list = []


def _seeded() -> Any:
    """The compiled generator, or None: missing, or the pure-Python fallback asked for (which
    then deals in Python too, as it would without the core)."""
    if pure_requested():
        return None
    if not _C_SEEDED:
        _C_SEEDED.append(core_module("engine._seeded"))
    return _C_SEEDED[0]


def _read_plain(text: str) -> Optional[tuple[int, ...]]:
    """The common text read in C (tests/test_cards_deal.py holds it equal to _parse's reading),
    or None: no core, or anything else, whose reading and error messages _parse keeps."""
    compiled = _seeded()
    return compiled.parse_plain(text) if compiled is not None else None


_PACK, _INT = frozenset(range(52)), {int}


def _parse(cards) -> tuple[int, ...]:
    if isinstance(cards, Deal):
        return cards.cards
    if type(cards) in (list, tuple) and len(cards) == 52 and set(map(type, cards)) == _INT and \
            _PACK.issuperset(cards) and len(set(cards)) == 52:
        return tuple(cards)  # a pack of card indexes, each once: nothing to read or report
    cards = deal_text(cards)
    if isinstance(cards, str):
        fast = _read_plain(cards)
        if fast is not None:
            return fast
        tokens: list = cards.split() if "," not in cards else [
            t for t in _SPLIT.split(cards.strip()) if t]
        fast = tuple(map(_PLAIN.get, tokens))
        if len(fast) == 52 and None not in fast and len(set(fast)) == 52:
            return fast
    elif isinstance(cards, (set, frozenset)):
        # A set's order follows hashes, which change from run to run: the same cards would be
        # a different deal each time.
        raise DealError(f"a deal is in dealing order: give a list or text, not a "
                        f"{type(cards).__name__} (its order changes from run to run)")
    else:
        try:
            tokens = list(cards)
        except TypeError:
            raise DealError(f"a deal must be text or a sequence of cards, not {quoted(cards)}") from None
    out = []
    first_seen: dict[int, int] = {}
    for pos, tok in enumerate(tokens, start=1):
        if isinstance(tok, bool):
            raise DealError(f"card {pos}: {quoted(tok)} is not a card")
        if isinstance(tok, int):
            if not 0 <= tok < 52:
                raise DealError(f"card {pos}: index {tok} is not a card index (0..51)")
            idx = tok
        elif isinstance(tok, str):
            try:
                idx = card_index(tok)
            except CardError:
                raise DealError(f"card {pos}: {quoted(tok)} is not a card") from None
        else:
            raise DealError(f"card {pos}: {quoted(tok)} is not a card")
        if idx in first_seen:
            raise DealError(
                f"card {pos}: {CARD_NAMES[idx]} is a duplicate (already card {first_seen[idx]})"
            )
        first_seen[idx] = pos
        out.append(idx)
    if len(out) != 52:
        missing = [CARD_NAMES[i] for i in range(52) if i not in first_seen]
        shown = " ".join(missing[:8]) + (" ..." if len(missing) > 8 else "")
        raise DealError(f"a deal has 52 cards, this one {len(out)}; missing: {shown}")
    return tuple(out)
