"""Nestor (Matrimony): rectified deal, closed or open reserve, structural and exhaustive proofs."""

from __future__ import annotations

from typing import Any, Optional

from ...cards import CARD_NAMES, RANKS, value
from ...deal import Deal, as_deal
from ...errors import DealError, LayoutError, VerificationError, quoted
from ...result import BlockProof, counted
from ..base import CoreAnswer, Game, Option, PySolFCGame, all_explored
from .rules import NestorLayout, NestorRules, layout_of, parse_layout


def _first_repeat(column: list[int]) -> int:
    """Nestor._checkRow (PySolFC): the place of the earlier card of the first pair of equal
    ranks, or -1."""
    for i in range(len(column)):
        for j in range(i):
            if column[i] % 13 == column[j] % 13:
                return j
    return -1


class Nestor(Game):
    name = "nestor"
    aliases = ("matrimony",)
    pysolfc = (PySolFCGame(235, "Nestor", "nestor-pysolfc", piles=8, pile_size=6,
                           pile_word="column"),)
    docs = "nestor.md"
    tests = "test_nestor.py"
    summary = ("eight columns of six, no rank twice in a column (rectified deal); remove two "
               "exposed cards of the same rank; a stock of four, turned when blocked (closed) "
               "or open")
    options = {
        "reserve": Option("closed", ("closed", "open"),
                          doc="closed: a stock card is turned only when the tableau is blocked; "
                          "open: the four stock cards are always available"),
    }

    #: PySolFC's Nestor (235) lays its four reserve cards open (docs/nestor.md, PySolFC).
    presets = {"nestor-pysolfc": {"reserve": "open"}}

    def rules(self, variant: dict) -> NestorRules:
        return NestorRules(open_reserve=variant.get("reserve", "closed") == "open")

    def read_deal(self, deal: Any, variant: dict) -> Deal:
        """A pack (dealt by the rectified deal) or a layout text (played as typed)."""
        if isinstance(deal, str) and "stock:" in deal.lower():
            return parse_layout(deal)
        try:
            return as_deal(deal)
        except DealError as e:
            if isinstance(deal, str) and len([ln for ln in deal.splitlines() if ln.strip()]) >= 8:
                # Eight lines or more look like a layout whose stock line was left out.
                raise LayoutError(f"not a pack ({e}) nor a layout: a Nestor layout ends with a "
                                  "line `Stock: ...` (the four stock cards)") from None
            raise

    core = "games.nestor._core"
    picture = "columns-and-reserve"

    def core_spec(self, deal: Deal, variant: dict, objective: str, certificate: bool) -> dict:
        columns, stock = layout_of(deal)
        return {"columns": columns, "stock": stock, "open": variant["reserve"] == "open"}

    def certificate_key(self, removed: int, aux: int, variant: dict) -> tuple[int, int]:
        return (removed, aux)

    def block_proof(self, deal: Deal, variant: dict, answer: CoreAnswer) -> BlockProof:
        """An exhaustive proof whose sentence says whether pruning rules took part."""
        states = answer.stats.get("states", 0)
        if (answer.certificate is not None or answer.stats.get("backend") == "reference"
                or variant.get("reserve") != "open"):
            # No pruning took part (the core prunes only under the open reserve by default).
            sentence = all_explored(states)
        else:
            pruned = answer.stats.get("pruned", 0)
            sentence = (f"no line of play wins: a search of {counted(states, 'position')} found "
                        "none "
                        f"({pruned} cut because some rank could no longer pair off; the pruning "
                        "rules are exact, docs/nestor.md)")
        return BlockProof(kind="exhaustive", sentence=sentence, states=states,
                          certificate=answer.certificate)

    # -- structural proofs ------------------------------------------------------------------------
    def pysolfc_order(self, rng: Any, cards: list[int]) -> list[int]:
        # Nestor._shuffleHook (pysollib/games/montecarlo.py): while column i repeats a rank,
        # swap the earlier card of the first repeat with a random card of a later column or the
        # reserve; it then reverses the list, so the list as it stands is the dealing order.
        for i in range(8):
            for _ in range(1000):
                j = _first_repeat(cards[6 * i: 6 * i + 6])
                if j < 0:
                    break
                j += 6 * i
                k = rng.choice(list(range(6 * (i + 1), 52)))
                cards[j], cards[k] = cards[k], cards[j]
        return cards

    def pysolfc_deal(self, order: list[int]) -> Any:
        columns = [order[6 * c: 6 * c + 6] for c in range(8)]
        if any(_first_repeat(col) >= 0 for col in columns):
            # The hook gave up (it tries 1000 swaps a column): the layout is played as PySolFC
            # shows it, which our rectified deal would not give back from a pack.
            return NestorLayout(columns, order[48:])
        # No column repeats a rank, so our rectified deal, row by row, deals these very columns.
        return Deal([columns[c][r] for r in range(6) for c in range(8)] + order[48:])

    def structural_proof(self, deal: Deal, variant: dict) -> Optional[BlockProof]:
        """Three or four cards of one rank in one column (a typed layout, or the deal's fallback).

        The cards of one column are never available together (only the last one is exposed), so
        each of them needs a partner of its rank from outside the column: another column or the
        stock. With three in the column there is one such card at most, so at least two of the
        three never leave. Under both reserves every tableau card must leave to win (closed: the
        tableau must empty; open: all 52 cards), so the deal is lost whatever the stock holds.
        """
        columns, stock = layout_of(deal)
        for i, col in enumerate(columns, start=1):
            if len({c % 13 for c in col}) > len(col) - 2:
                continue  # at most one rank repeats, once: no rank three times
            for v in range(1, 14):
                same = [c for c in col if value(c) == v]
                if len(same) >= 3:
                    return self._three_proof(i, v, same, columns, stock)
        return None

    def _three_proof(self, column: int, v: int, same: list[int], columns: Any,
                     stock: Any) -> BlockProof:
        rank = RANKS[v - 1]
        others = 4 - len(same)
        where = ""
        if others:
            other = next(c for c in range(52) if value(c) == v and c not in same)
            where = " (in the stock)" if other in stock else " (in another column)"
        sentence = (
            f"column {column} holds {len(same)} cards of rank {rank} "
            f"({' '.join(CARD_NAMES[c] for c in same)}); cards of one column are never exposed "
            f"together, so each needs a partner of rank {rank} from outside the column, and there "
            f"{'is only one' if others else 'is none'}{where}: at least {len(same) - others} of "
            f"them can never leave the tableau"
        )
        return BlockProof(kind="structural", sentence=sentence,
                          details={"rule": "rank-in-column", "column": column, "rank": rank,
                                   "cards": [CARD_NAMES[c] for c in same]})

    def check_structural(self, deal: Deal, variant: dict, proof: BlockProof) -> None:
        """Re-derive the claim from the layout the reference rules deal."""
        d = proof.details or {}
        if d.get("rule") != "rank-in-column":
            raise VerificationError(f"unknown structural rule {quoted(d.get('rule'))} for nestor")
        col, rank = d.get("column"), d.get("rank")
        if isinstance(col, bool) or not isinstance(col, int) or not 1 <= col <= 8:
            raise VerificationError(f"the proof names no column 1..8 ({quoted(col)})")
        if not isinstance(rank, str) or rank.upper() not in RANKS:
            raise VerificationError(f"the proof names no rank ({quoted(rank)})")
        v = RANKS.index(rank.upper()) + 1
        pos = self.rules(variant).start(deal)
        same = [c for c in pos.columns[col - 1] if value(c) == v]
        if len(same) < 3:
            raise VerificationError(
                f"column {col} holds {len(same)} card(s) of rank {rank.upper()}, not three or more"
            )
        # The sentence and the details must be those of this claim, so that neither can be
        # tampered with alone.
        expected = self._three_proof(col, v, same, pos.columns, pos.stock)
        if proof.sentence != expected.sentence or dict(d) != expected.details:
            raise VerificationError("the structural proof's sentence or details do not state "
                                    f"its claim (column {col}, rank {rank.upper()})")


#: The games this folder serves (the registry reads it: games/__init__.py).
GAMES = (Nestor(),)
