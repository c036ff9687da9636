"""Nestor: the rectified deal, layout text, core vs reference rules, proofs, tampering."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from core_calls import nestor_search
from hypothesis import given
from hypothesis import strategies as st

import solitaire_solver as ss
from solitaire_solver.cards import CARD_NAMES, card_index, value
from solitaire_solver.cli import main as cli_main
from solitaire_solver.engine.search import reference_search
from solitaire_solver.errors import LayoutError, MoveError, VariantError
from solitaire_solver.games import get_game
from solitaire_solver.games.nestor.rules import (
    NestorLayout,
    NestorRules,
    deal_layout,
    layout_text,
    parse_layout,
)
from solitaire_solver.moves import Move
from solitaire_solver.result import BlockProof

GAME, _ = get_game("nestor")
RESERVES = ("closed", "open")
PYSOL = Path(__file__).resolve().parent / "data" / "pysolfc-layouts" / "235-nestor.jsonl"


def cards(text: str) -> list[int]:
    return [card_index(t) for t in text.split()]


def straight_pack(columns, stock) -> list[int]:
    """The pack that deals `columns` row by row with no card sent to the bottom."""
    return [columns[c][r] for r in range(6) for c in range(8)] + list(stock)


def literal_deal(pack: list[int]) -> tuple[list[list[int]], list[int], int]:
    """The deal of docs/nestor.md read literally, with a count of the cards sent to the bottom."""
    pack = list(pack)
    cols: list[list[int]] = [[] for _ in range(8)]
    sent = 0
    for _row in range(6):
        for col in cols:
            tries = 0
            while tries < len(pack) and any(value(pack[0]) == value(c) for c in col):
                pack.append(pack.pop(0))
                tries += 1
                sent += 1
            if tries == len(pack):
                sent -= tries  # the fallback: the pack is back in order, its top is dealt
            col.append(pack.pop(0))
    return cols, pack, sent


# -- the rectified deal --

def test_index_order_pack_deals_straight():
    cols, stock = deal_layout(list(range(52)))
    assert [CARD_NAMES[c] for c in cols[0]] == "AC 9C 4D QD 7H 2S".split()
    assert [CARD_NAMES[c] for c in cols[7]] == "8C 3D JD 6H AS 9S".split()
    assert [CARD_NAMES[c] for c in stock] == "TS JS QS KS".split()


def test_cards_go_to_the_bottom_several_times():
    head = cards("AC 2C 3C 4C 5C 6C 7C 8C AD AH 9C")
    pack = head + [c for c in range(52) if c not in head]
    # Worked by hand: row 2, column 1 holds AC, so AD then AH go to the bottom and 9C is dealt;
    # row 4, column 2 holds 2C, so 2H goes down (3H dealt); row 5, column 6 holds 2D, so 2S
    # goes down (3S dealt). The four cards sent down are the last four: the stock.
    expected = """AC 9C 5D KD TH 6S
2C TC 6D 3H JH 7S
3C JC 7D 4H QH 8S
4C QC 8D 5H KH 9S
5C KC 9D 6H AS TS
6C 2D TD 7H 3S JS
7C 3D JD 8H 4S QS
8C 4D QD 9H 5S KS
Stock: AD AH 2H 2S"""
    assert layout_text(*deal_layout(pack)) == expected
    lit_cols, lit_stock, sent = literal_deal(pack)
    assert sent == 4 and layout_text(lit_cols, lit_stock) == expected


def fallback_layout():
    """Column 8 holds A-5 of clubs; the last five cards of the pack are A-5 of diamonds."""
    col8 = cards("AC 2C 3C 4C 5C")
    tail = cards("AD 2D 3D 4D 5D")
    rest = sorted((c for c in range(52) if c not in col8 + tail), key=lambda c: (value(c), c))
    columns = [[rest[k] for k in range(c, 42, 7)] for c in range(7)] + [col8 + tail[:1]]
    return columns, tail[1:]


def test_fallback_deals_the_next_card_anyway():
    columns, stock = fallback_layout()
    pack = straight_pack(columns, stock)
    cols, stk = deal_layout(pack)
    assert [list(c) for c in cols] == columns and list(stk) == stock
    assert [CARD_NAMES[c] for c in cols[7]] == "AC 2C 3C 4C 5C AD".split()
    lit_cols, lit_stock, sent = literal_deal(pack)
    assert sent == 0 and lit_cols == columns and lit_stock == stock
    for res in RESERVES:
        r = ss.solve("nestor", pack, reserve=res, check=True)
        assert r.status in (ss.Status.WON, ss.Status.BLOCKED)


@given(st.randoms(use_true_random=False))
def test_deal_matches_the_literal_procedure(rnd):
    pack = list(range(52))
    rnd.shuffle(pack)
    cols, stock = deal_layout(pack)
    lit_cols, lit_stock, _ = literal_deal(pack)
    assert [tuple(c) for c in lit_cols] == list(cols) and tuple(lit_stock) == stock
    assert sorted(c for col in cols for c in col) + [] == sorted(set(range(52)) - set(stock))
    # Only the fallback can repeat a rank in a column, and only in the last row.
    for col in cols:
        assert len({value(c) for c in col[:5]}) == 5


# -- layout text --

def test_layout_text_round_trip_and_same_answer_as_the_pack():
    rules = NestorRules()
    for seed in range(8):
        d = ss.random_deal(seed)
        text = rules.render(rules.start(d))
        lay = parse_layout(text)
        assert str(lay) == text and parse_layout(str(lay)) == lay
        assert lay != d and d != lay
        assert (lay.columns, lay.stock) == deal_layout(d.cards)
        for res in RESERVES:
            a = ss.solve("nestor", d, reserve=res)
            b = ss.solve("nestor", text, reserve=res)
            assert a.status == b.status and a.moves == b.moves


def test_layout_text_accepts_symbols_commas_and_repeats():
    columns, stock = fallback_layout()
    text = layout_text(tuple(map(tuple, columns)), stock).lower().replace(" ", ", ")
    text = text.replace("stock:,", "stock:").replace("ah", "A\u2665")
    lay = GAME.read_deal("\n\n" + text + "\n", {})
    assert isinstance(lay, NestorLayout) and list(map(list, lay.columns)) == columns


@pytest.mark.parametrize("mutate, fragment", [
    (lambda ls: ls[:-1], "ends with a line `Stock: ...`"),
    (lambda ls: ls[1:], "8 column lines"),
    (lambda ls: [ls[0] + " 9Z"] + ls[1:], "line 1 (column 1): a column has 6 cards, this one 7"),
    (lambda ls: [ls[0].replace(ls[0][:2], "ZZ", 1)] + ls[1:], "line 1 (column 1), card 1: 'ZZ'"),
    (lambda ls: ls[:2] + [ls[2].replace(ls[2][:2], ls[0][:2], 1)] + ls[3:],
     "line 3 (column 3), card 1"),
    (lambda ls: ls[:-1] + [ls[-1] + " " + ls[0][:2]], "the stock has 4 cards, this one 5"),
    (lambda ls: ls[:-1] + [ls[-1].rsplit(" ", 1)[0] + " " + ls[0][:2]], "duplicate"),
    (lambda ls: ls[:3] + [ls[-1]] + ls[4:], "must be the last line"),
])
def test_bad_layouts_are_refused(mutate, fragment):
    lines = str(parse_layout(NestorRules().render(NestorRules().start(ss.random_deal(3))))).split(
        "\n")
    with pytest.raises(LayoutError, match=None) as e:
        GAME.read_deal("\n".join(mutate(lines)), {})
    assert fragment in str(e.value)


def test_variant_values():
    assert GAME.variant(reserve="OPEN")["reserve"] == "open"
    with pytest.raises(VariantError):
        GAME.variant(reserve="half")
    assert get_game("matrimony")[0] is GAME


# -- the closed reserve, by hand -------------------------------------------------------------------

def blocked_layout() -> NestorLayout:
    """Exposed A..8 of spades (no pair); stock 9C (no partner exposed), then 8C (pairs 8S)."""
    tops = cards("AS 2S 3S 4S 5S 6S 7S 8S")
    stock = cards("9C 8C 9D 9H")
    rest = [c for c in range(52) if c not in tops + stock]
    columns = [rest[5 * i:5 * i + 5] + [tops[i]] for i in range(8)]
    return NestorLayout(columns, stock)


def test_closed_reserve_turns_discards_and_pairs():
    rules = NestorRules()
    pos = rules.start(blocked_layout())
    assert rules.moves(pos) == [Move(word="discard")]
    with pytest.raises(MoveError, match="not turned up"):
        rules.play(pos, Move.from_text("8C+8S"))
    pos = rules.play(pos, Move(word="discard"))
    assert "Discarded: 9C" in rules.render(pos)
    assert rules.moves(pos) == [Move.from_text("8C+8S")]
    with pytest.raises(MoveError, match="pairs"):
        rules.play(pos, Move(word="discard"))
    pos = rules.play(pos, Move.from_text("8S+8C"))
    assert pos.turned == 2 and rules.key(pos)[0] == Move.from_text("8C+8S").mask
    open_rules = NestorRules(open_reserve=True)
    opos = open_rules.start(blocked_layout())
    assert Move.from_text("8C+8S") in open_rules.moves(opos)
    assert Move.from_text("9C+9D") in open_rules.moves(opos)
    with pytest.raises(MoveError, match="not a move of Nestor with the open reserve"):
        open_rules.play(opos, Move(word="discard"))


def test_a_discard_does_not_lose_the_deal():
    for seed in range(400):
        r = ss.solve("nestor", ss.random_deal(seed))
        if r.won and Move(word="discard") in r.moves:
            assert ss.verify("nestor", ss.random_deal(seed), r)
            return
    pytest.fail("no winning line with a discard in 400 seeded deals")


# -- core vs reference --

def reference_outcome(deal, reserve):
    rules = GAME.rules(GAME.variant(reserve=reserve))
    return reference_search(rules, rules.start(deal))


def check_agrees(deal, reserve):
    r = ss.solve("nestor", deal, reserve=reserve)
    ref = reference_outcome(deal, reserve)
    if r.proof is not None and r.proof.kind == "structural":
        assert ref.status == "exhausted"
    else:
        assert r.status.value == {"won": "won", "exhausted": "blocked"}[ref.status]
    assert ss.verify("nestor", deal, r, reserve=reserve).ok
    return r


@pytest.mark.core
@pytest.mark.parametrize("reserve", RESERVES)
def test_core_agrees_with_reference_on_seeded_deals(reserve):
    statuses = Counter(check_agrees(ss.random_deal(seed), reserve).status for seed in range(40))
    assert statuses[ss.Status.WON] and statuses[ss.Status.BLOCKED]


@pytest.mark.core
@given(st.permutations(range(52)), st.sampled_from(RESERVES))
def test_core_agrees_with_reference_on_random_packs(pack, reserve):
    check_agrees(ss.Deal(pack), reserve)


@pytest.mark.core
@given(st.permutations(range(52)), st.sampled_from(RESERVES))
def test_core_agrees_with_reference_on_typed_layouts(perm, reserve):
    # Layouts typed as seen, cut straight from a permutation: ranks repeat in columns.
    lay = NestorLayout([perm[6 * i:6 * i + 6] for i in range(8)], perm[48:])
    check_agrees(lay, reserve)


@pytest.mark.core
def test_pruning_never_changes_the_answer():
    rng = random.Random(5)
    for reserve in RESERVES:
        for seed in range(300):
            if seed % 2:
                cols, stock = deal_layout(ss.random_deal(seed).cards)
            else:
                perm = list(range(52))
                rng.shuffle(perm)
                cols, stock = [perm[6 * i:6 * i + 6] for i in range(8)], perm[48:]
            a = nestor_search(cols, stock, reserve == "open", closed_dead=True)
            b = nestor_search(cols, stock, reserve == "open", prune=False)
            assert (a[0] == 0) == (b[0] == 0), (reserve, seed)
            c = nestor_search(cols, stock, reserve == "open")
            assert (c[0] == 0) == (b[0] == 0), (reserve, seed)
            if b[0] == 1:  # exhausted: the pruned search explores a part of the same space
                assert a[2]["states"] <= b[2]["states"]


@pytest.mark.core
def test_pruning_is_exercised():
    pruned = forced = 0
    for reserve in RESERVES:
        for seed in range(60):
            cols, stock = deal_layout(ss.random_deal(seed).cards)
            a = nestor_search(cols, stock, reserve == "open", closed_dead=True)
            b = nestor_search(cols, stock, reserve == "open", prune=False)
            pruned += a[2]["pruned"]
            forced += reserve == "open" and a[2]["moves_generated"] < b[2]["moves_generated"]
    assert pruned > 0 and forced > 0


# -- proofs --

def three_in_a_column() -> NestorLayout:
    columns, stock = fallback_layout()
    # Swap AH (column 1) with column 8's 2C: column 8 then holds AC, AD and AH.
    ah = card_index("AH")
    i = next(k for k, col in enumerate(columns) if ah in col)
    columns[i][columns[i].index(ah)] = card_index("2C")
    columns[7][1] = ah
    return NestorLayout(columns, stock)


@pytest.mark.parametrize("reserve", RESERVES)
def test_structural_proof_three_of_a_rank(reserve):
    lay = three_in_a_column()
    r = ss.solve("nestor", lay, reserve=reserve)
    assert r.blocked and r.proof.kind == "structural" and r.stats["states"] == 0
    assert r.proof.details["column"] == 8 and r.proof.details["rank"] == "A"
    assert ss.verify("nestor", lay, r, reserve=reserve).ok
    assert ss.verify("nestor", str(lay), r.proof, reserve=reserve).ok
    # The proof is a block indeed: the full search finds no win either.
    assert reference_outcome(lay, reserve).status == "exhausted"
    bad = replace(r.proof, details={**r.proof.details, "column": 1})
    assert not ss.verify("nestor", lay, bad, reserve=reserve).ok
    bad = replace(r.proof, details={**r.proof.details, "rank": "K"})
    assert not ss.verify("nestor", lay, bad, reserve=reserve).ok
    # The same proof does not hold for a deal without three of a rank in a column.
    assert not ss.verify("nestor", ss.random_deal(1), r.proof, reserve=reserve).ok


@pytest.mark.parametrize("reserve", RESERVES)
def test_exhaustive_proofs_and_certificates(reserve):
    blocked = [s for s in range(30)
               if ss.solve("nestor", ss.random_deal(s), reserve=reserve).blocked][:4]
    assert blocked
    for seed in blocked:
        d = ss.random_deal(seed)
        r = ss.solve("nestor", d, reserve=reserve, certificate=True)
        assert r.proof.kind == "exhaustive" and r.proof.certificate
        assert ss.verify("nestor", d, r, reserve=reserve).ok
        assert ss.verify("nestor", d, replace(r.proof, certificate=None), reserve=reserve).ok
        cert = r.proof.certificate
        rules = GAME.rules(GAME.variant(reserve=reserve))
        start = rules.key(rules.start(d))
        if len(cert) > 1:
            torn = frozenset(k for k in cert if k != max(cert - {start}))
            assert not ss.verify("nestor", d, replace(r.proof, certificate=torn),
                                 reserve=reserve).ok
        assert not ss.verify("nestor", d, replace(r.proof, certificate=cert - {start}),
                             reserve=reserve).ok
        json.dumps(r.to_dict())


@pytest.mark.parametrize("reserve", RESERVES)
def test_tampered_answers_are_rejected(reserve):
    won = next(ss.solve("nestor", ss.random_deal(s), reserve=reserve) for s in range(40)
               if ss.solve("nestor", ss.random_deal(s), reserve=reserve).won)
    seed = next(s for s in range(40) if ss.solve("nestor", ss.random_deal(s),
                                                  reserve=reserve).moves == won.moves)
    d = ss.random_deal(seed)
    moves = [str(m) for m in won.moves]
    assert ss.verify("nestor", d, moves, reserve=reserve).ok
    assert not ss.verify("nestor", d, moves[:-1], reserve=reserve).ok
    assert not ss.verify("nestor", d, moves[1:], reserve=reserve).ok
    assert not ss.verify("nestor", d, moves[::-1], reserve=reserve).ok
    assert not ss.verify("nestor", d, moves + ["discard"], reserve=reserve).ok
    # A claim of a block on a deal that can be won fails the re-search.
    fake = BlockProof(kind="exhaustive", sentence="no line wins")
    assert not ss.verify("nestor", d, fake, reserve=reserve).ok
    fake = BlockProof(kind="exhaustive", sentence="no line wins",
                      certificate=frozenset({(0, 0)}))
    assert not ss.verify("nestor", d, fake, reserve=reserve).ok


# -- golden layouts and the command line --

def test_pysolfc_layouts_read_and_solve_with_the_open_reserve():
    for line in PYSOL.read_text().splitlines():
        rec = json.loads(line)
        rows = sorted((s for s in rec["stacks"] if s["kind"] == "rows"), key=lambda s: s["index"])
        text = "\n".join(" ".join(s["cards"]) for s in rows[:8])
        text += "\nStock: " + " ".join(s["cards"][0] for s in rows[8:])
        r = ss.solve("nestor", text, reserve="open")
        assert r.status in (ss.Status.WON, ss.Status.BLOCKED)
        assert ss.verify("nestor", text, r, reserve="open").ok


def test_cli_solves_a_layout_file(tmp_path, capsys):
    text = NestorRules().render(NestorRules().start(ss.random_deal(2)))
    f = tmp_path / "layout.txt"
    f.write_text(text)
    code = cli_main(["solve", "nestor", "--file", str(f), "-o", "reserve=open"])
    out = capsys.readouterr().out
    assert code in (0, 1) and out.startswith(text)
    code_pack = cli_main(["solve", "matrimony", "--seed", "2", "-o", "reserve=open"])
    assert code_pack == code
