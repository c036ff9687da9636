"""Accordion: layout and typed rows, reference rules, the core against the reference (random rows
and mid-game positions), the search's rules each shown to matter, proofs of a block (structural,
certificates) and their tampering, constructed unwinnable deals, PySolFC's layouts."""

import dataclasses
import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import solitaire_solver as ss
from solitaire_solver.cards import CARD_NAMES, card_index
from solitaire_solver.engine.contract import Limits
from solitaire_solver.engine.search import reference_search
from solitaire_solver.errors import LayoutError, MoveError, VerificationError
from solitaire_solver.games import get_game
from solitaire_solver.games.accordion.rules import (
    AccordionLayout,
    AccordionPosition,
    AccordionRules,
    canonical,
    check_certificate,
    groups,
    layout_text,
    position_of,
    tops_of,
)
from solitaire_solver.moves import Move
from solitaire_solver.pysolfc import dealt_order

RULES = AccordionRules()
GAME, _ = get_game("accordion")
GOLDEN = Path(__file__).resolve().parent / "data" / "pysolfc-layouts" / "772-accordion.jsonl"


def C(text: str) -> list[int]:
    return [card_index(t) for t in text.split()]


def row(cards) -> AccordionPosition:
    return AccordionPosition(tuple((c,) for c in cards))


def lost_by_reference(tops) -> bool:
    out = reference_search(RULES, row(tops))
    assert out.status in ("won", "exhausted")
    return out.status == "exhausted"


#: A deal of the whole pack that no line wins although it has moves: found by swapping cards of a
#: deal without a single move (NO_MOVE) at random and keeping what the search proved lost.
BLOCKED_DEAL = ("AC 2D 3C 4D 5C JH 2C 3D 4C 5D 6C 7D 8C 9D TC 6D 7C 8D 9C TD JC QD 8S AH 2S JD QC "
                "KD 2H TS 3H 4S 5H 6S 7H 3S 4H 5S 6H 7S 8H 9S TH JS QH KC KH AS AD QS 9H KS")
#: No card shares rank or suit with the card just left of it or three places left.
NO_MOVE = ("AC 2D 3C 4D 5C AD 2C 3D 4C 5D 6C 7D 8C 9D TC 6D 7C 8D 9C TD JC QD KC AH 2S JD QC KD "
           "2H AS 3H 4S 5H 6S 7H 3S 4H 5S 6H 7S 8H 9S TH JS QH 8S KH TS JH QS 9H KS")
#: A row of sixteen cards that is lost, whose search the cut and the renaming each shorten.
LOST_ROW = random.Random(92).sample(range(52), 16)


# -- notation and layout ----------------------------------------------------------------------------

def test_the_move_is_written_card_onto_card():
    m = Move.from_text("qh > qs")
    assert str(m) == "QH>QS" and m.cards == (card_index("QH"),) and m.onto == card_index("QS")
    for a in range(52):
        for b in (0, 13, 25, 51):
            if a != b:
                mv = Move.onto_card(a, b)
                assert Move.from_code(mv.code) == mv and Move.from_text(str(mv)) == mv
    assert Move.from_text("QS>QH") != m
    with pytest.raises(MoveError, match="onto itself"):
        Move.from_text("QH>QH")
    with pytest.raises(MoveError, match="or a card"):
        Move.from_text("QH>QX")


def test_the_start_is_the_pack_in_a_row_and_reads_back():
    for seed in range(10):
        d = ss.random_deal(seed)
        pos = RULES.start(d)
        assert pos.tops == d.cards and all(len(p) == 1 for p in pos.piles)
        text = RULES.render(pos)
        assert len(text.splitlines()) == 4
        assert GAME.read_deal(text, {}) == d and type(GAME.read_deal(text, {})) is ss.Deal
        assert GAME.read_deal(list(d.cards), {}) == d


def test_a_game_in_progress_reads_as_a_row_of_piles():
    lay = GAME.read_deal("4C/2C/KD 9H, QS\nAD", {})
    assert isinstance(lay, AccordionLayout)
    assert lay.piles == (tuple(C("4C 2C KD")), tuple(C("9H")), tuple(C("QS")), tuple(C("AD")))
    assert sorted(lay.cards) == list(range(52))  # a Deal: every card once
    assert GAME.read_deal(str(lay), {}) == lay
    assert GAME.read_deal([["4C", "2C", "KD"], "9H", "QS", 13], {}) == lay
    pos = RULES.start(lay)
    assert pos.tops == tuple(C("KD 9H QS AD"))
    assert [str(m) for m in RULES.moves(pos)] == ["AD>KD"]
    # the render of a position later in a game reads back as that row
    d = ss.random_deal(3)
    r = ss.solve("accordion", d)
    later = RULES.apply(RULES.start(d), r.moves[0])
    for m in r.moves[1:20]:
        later = RULES.apply(later, m)
    again = RULES.start(GAME.read_deal(RULES.render(later), {}))
    assert again == later and layout_text(later.piles) == RULES.render(later)


@pytest.mark.parametrize(("text", "why"), [
    ("AC 2C AC", r"pile 3, card 1: AC is a duplicate \(already pile 1, card 1\)"),
    ("AC 2C/ZZ", r"pile 2, card 2: 'ZZ' is not a card"),
    ("AC 2C/ 3C", r"pile 2, card 2: '' is not a card"),
])
def test_bad_rows_are_named(text, why):
    with pytest.raises(LayoutError, match=why):
        GAME.read_deal(text, {})
    with pytest.raises(ss.SolitaireError):
        ss.solve("accordion", text)


def test_pysolfc_deals_the_row_in_its_dealing_order_either_way():
    """PySolFC's Accordion deals its 52 rows in dealt order (accordion_deal_all, its default),
    or three and then one at a time from the talon: the same row, so the same lines."""
    recs = [json.loads(line) for line in GOLDEN.read_text().splitlines() if line.strip()]
    assert len(recs) == 22 and {r["accordion_deal_all"] for r in recs} == {True, False}
    for rec in recs:
        deal = ss.pysolfc_deal("accordion", rec["deal"])
        rows = [s["cards"] for s in sorted((s for s in rec["stacks"] if s["kind"] == "rows"),
                                           key=lambda s: s["index"])]
        talon = next(s["cards"] for s in rec["stacks"] if s["kind"] == "talon")
        laid = [c for r in rows for c in r]
        assert [CARD_NAMES[c] for c in deal.cards] == laid + talon[::-1]
        assert list(deal.cards) == dealt_order(rec["deal"])
        assert len(laid) == (52 if rec["accordion_deal_all"] else 3)
    assert ss.solve("accordion", ss.pysolfc_deal("accordion", 1), check=True).won


# -- reference rules --------------------------------------------------------------------------------

def test_reference_moves_and_reasons():
    pos = row(C("QS 4D 9C QH 5H"))
    assert [str(m) for m in RULES.moves(pos)] == ["QH>QS", "5H>QH"]
    nxt = RULES.play(pos, Move.from_text("QH>QS"))
    assert nxt.tops == tuple(C("QH 4D 9C 5H")) and nxt.piles[0] == tuple(C("QS QH"))
    assert RULES.cards_left(nxt) == 4 and RULES.key(nxt) == nxt.tops
    for text, reason in [("5H>9C", "2 places left"), ("QS>QH", "moves left"),
                         ("9C>4D", "share neither rank nor suit"), ("KS>QS", "KS is not on top"),
                         ("QH+QS", "not a move of Accordion"), ("QH>3", "no card onto a pile")]:
        with pytest.raises(MoveError, match=reason):
            RULES.play(pos, Move.from_text(text))
    assert RULES.won(row(C("AC"))) and not RULES.won(pos)


def test_groups_and_renaming():
    assert groups(C("AC 2D 3C AH")) == [C("AC 3C AH"), C("2D")]
    assert groups(C("AC 2C AD")) == [C("AC 2C AD")]
    assert canonical(C("KS 3S KH")) == tuple(C("AC 2C AD"))


@pytest.mark.core
@given(st.lists(st.integers(0, 51), min_size=1, max_size=52, unique=True))
def test_core_renaming_cut_and_packing_match_the_rules(tops):
    from solitaire_solver.games.accordion import _core as core
    assert core.canonical(tops) == canonical(tops)
    assert core.is_split(tops) == (len(groups(tops)) > 1)
    assert tops_of(position_of(tops)) == tuple(tops)
    assert canonical(canonical(tops)) == canonical(tops)


# -- the core against the reference -----------------------------------------------------------------

small_rows = st.integers(2, 11).flatmap(
    lambda n: st.permutations(range(52)).map(lambda p: list(p[:n])))


@pytest.mark.core
@given(small_rows)
def test_core_decides_small_rows_as_the_reference(tops):
    from solitaire_solver.games.accordion import _core as core
    lost = lost_by_reference(tops)
    for mode in core.SEARCH_MODES:
        run = core.solve(dict({"tops": tops}, **mode), "decide", Limits(), False)
        assert run.status == ("exhausted" if lost else "won"), mode
    r = ss.solve("accordion", [[c] for c in tops], check=True)
    assert r.status is (ss.Status.BLOCKED if lost else ss.Status.WON)
    if lost:
        c = ss.solve("accordion", [[c] for c in tops], certificate=True)
        assert c.blocked and ss.verify("accordion", [[c] for c in tops], c).ok


@pytest.mark.core
@given(st.permutations(range(52)), st.randoms(use_true_random=False), st.integers(8, 14))
def test_core_decides_mid_game_positions_as_the_reference(cards, rng, left):
    """A deal played at random down to a few piles: the core's search from that position (the
    whole API, after=) agrees with the reference search."""
    d = ss.Deal(cards)
    pos, line = RULES.start(d), []
    while len(pos.piles) > left:
        moves = RULES.moves(pos)
        if not moves:
            break
        m = rng.choice(moves)
        line.append(m)
        pos = RULES.apply(pos, m)
    lost = lost_by_reference(pos.tops)
    r = ss.solve("accordion", d, after=line, check=True)
    assert r.status is (ss.Status.BLOCKED if lost else ss.Status.WON)


@pytest.mark.core
def test_every_seeded_deal_is_won_and_its_line_replays():
    for seed in range(60):
        d = ss.random_deal(seed)
        r = ss.solve("accordion", d)
        assert r.won and len(r.moves) == 51, seed
        assert ss.verify("accordion", d, r).ok  # the line replayed under the reference rules


# -- the search's rules, each shown to matter --------------------------------------------------------

@pytest.mark.core
def test_the_cut_and_the_renaming_each_shorten_a_proof():
    from solitaire_solver.games.accordion import _core as core

    def states(**flags):
        run = core.solve(dict({"tops": LOST_ROW}, **flags), "decide", Limits(), False)
        assert run.status == "exhausted"
        return run.stats["states"]

    every = states()
    assert states(cut=False) > 2 * every
    assert states(canonical=False) > 1.5 * every
    assert lost_by_reference(LOST_ROW)


@pytest.mark.core
def test_the_move_order_finds_wins_sooner():
    from solitaire_solver.games.accordion import _core as core
    spent = {True: 0, False: 0}
    won = {True: 0, False: 0}
    for seed in range(150):
        tops = list(ss.random_deal(seed).cards)
        for order in (True, False):
            run = core.solve({"tops": tops, "order": order}, "decide", Limits(50_000), False)
            assert run.status in ("won", "limit-states")
            spent[order] += run.stats["states"]
            won[order] += run.status == "won"
            if order and run.stats["attempts"] > 1:
                assert run.stats["states"] > core.FIRST_BUDGET
    assert spent[True] < 0.85 * spent[False] and won[True] > won[False]


LOST_PACK = ("AC 2D 3C 4D 5C JH 2C 3D 4C 5D 6C 7D 8C 9D TC 6D 7C 8D 9C TD JC QD 8S AH 2S JD QC "
             "KD 2H TS 3H 4S 5H 6S 7H 3S 4H 5S 6H 7S 8H 9S TH JS QH KC KH AS AD QS 9H KS")


@pytest.mark.core
def test_attempts_keep_what_they_searched():
    # A lost deal is proved by the attempt whose budget covers its tree; the table kept from
    # the attempts before it spares that one what they searched, so the proof costs about one
    # search, where attempts that start afresh search the early part of the tree each time.
    from solitaire_solver.games.accordion import _core as core
    tops = C(LOST_PACK)

    def run(**flags):
        out = core.solve(dict({"tops": tops}, **flags), "decide", Limits(), False)
        assert out.status == "exhausted"
        return out.stats

    one, kept, fresh = run(order=False)["states"], run(), run(keep=False)
    assert 5 < kept["attempts"] <= fresh["attempts"]
    assert kept["states"] < 1.25 * one
    assert fresh["states"] > 3 * kept["states"]


@pytest.mark.core
def test_expand_lists_what_the_search_plays():
    from solitaire_solver.games.accordion import _core as core
    split = C("AC 2C AD KH")  # KH shares nothing with the rest
    x = position_of(split)
    assert core.expand({}, x, 0) and core.expand({"cut": True}, x, 0) == []
    # renamed successors: the successor of KS 3S KH's move is AC 2C's renamed row
    y = position_of(C("KS 3S KH"))
    assert [tops_of(p) for _, p, _ in core.expand({"canonical": True}, y, 0)] == [
        canonical(C("3S KH"))]


# -- proofs of a block ------------------------------------------------------------------------------

def test_a_row_in_groups_has_a_structural_proof():
    r = ss.solve("accordion", "AC 2D 3C AH")
    assert r.blocked and r.proof.kind == "structural" and r.stats["states"] == 0
    assert "2D shares neither rank nor suit" in r.proof.sentence
    assert ss.verify("accordion", "AC 2D 3C AH", r).ok
    for bad in ({"rule": "groups", "groups": [["AC", "3C", "AH", "2D"]]},
                {"rule": "groups", "groups": [["AC", "3C"], ["AH"], ["2D"]]},
                {"rule": "sevens"}, {}):
        forged = dataclasses.replace(r, proof=dataclasses.replace(r.proof, details=bad))
        assert not ss.verify("accordion", "AC 2D 3C AH", forged).ok
    other = dataclasses.replace(r, proof=dataclasses.replace(r.proof, sentence="it is lost"))
    assert not ss.verify("accordion", "AC 2D 3C AH", other).ok
    assert not ss.verify("accordion", "AC 2C 3C AH", r).ok  # one group: the proof does not hold


def test_the_fewest_cards_of_a_block():
    """Two cards that share neither rank nor suit; in one group, three: a card between two
    that each share something with it and nothing with each other."""
    assert ss.solve("accordion", "AC 2D").blocked
    three = ss.solve("accordion", "AC 2C AD")
    assert three.blocked and three.proof.kind == "exhaustive"
    for a in range(52):
        for b in range(52):
            if a != b and len(groups([a, b])) == 1:
                assert ss.solve("accordion", [[a], [b]]).won


@pytest.mark.core
def test_a_whole_pack_without_a_move_and_one_with_moves_are_proved_lost():
    stuck = ss.solve("accordion", NO_MOVE, certificate=True)
    assert stuck.blocked and stuck.proof.states == 1
    assert RULES.moves(RULES.start(ss.Deal(NO_MOVE))) == []
    r = ss.solve("accordion", BLOCKED_DEAL, certificate=True)
    assert r.blocked and r.proof.states > 5000
    assert RULES.moves(RULES.start(ss.Deal(BLOCKED_DEAL)))
    v = ss.verify("accordion", BLOCKED_DEAL, r)
    assert v.ok and "the certificate is closed" in v.reason
    # without a certificate verify re-searches with the reference rules
    plain = ss.solve("accordion", BLOCKED_DEAL)
    assert plain.blocked and ss.verify("accordion", BLOCKED_DEAL, plain).ok


@pytest.mark.core
def test_a_certificate_with_cut_and_renamed_rows_checks_and_tampering_fails():
    start = row(LOST_ROW)
    r = ss.solve("accordion", [[c] for c in LOST_ROW], certificate=True)
    assert r.blocked
    cert = r.proof.certificate
    assert check_certificate(RULES, start, cert).ok
    # the core's rows are renamed below the root, and some are cut leaves
    assert any(canonical(k) == k != tuple(LOST_ROW) for k in cert)
    assert any(len(groups(k)) > 1 and RULES.moves(row(k)) for k in cert)
    # from JSON
    as_read = dataclasses.replace(r.proof, certificate=r.proof.to_dict()["certificate"])
    assert ss.verify("accordion", [[c] for c in LOST_ROW],
                     dataclasses.replace(r, proof=as_read)).ok
    # a row taken out, a won row, a row that is no row, another start
    inner = next(k for k in cert if len(k) < len(LOST_ROW) - 1 and len(groups(k)) == 1)
    parent = next(k for k in cert if any(canonical(RULES.apply(row(k), m).tops) == inner
                                        for m in RULES.moves(row(k))))
    assert parent != inner
    for bad, why in [(cert - {inner}, "leads out of the certificate"),
                     (cert | {(5,)}, "won position"),
                     (cert | {(5, 5)}, "no row of tops"),
                     (frozenset(k for k in cert if k != tuple(LOST_ROW)) if canonical(LOST_ROW)
                      not in {canonical(k) for k in cert if k != tuple(LOST_ROW)} else None,
                      "does not contain the start")]:
        if bad is None:
            continue
        with pytest.raises(VerificationError, match=why):
            check_certificate(RULES, start, bad)
    # a row of one group listed as a leaf: its moves lead out
    with pytest.raises(VerificationError, match="leads out"):
        check_certificate(RULES, row(C("AC 2C 3D 3C")), {tuple(C("AC 2C 3D 3C"))})
    # a row in groups listed alone is a leaf: lost by its groups
    assert check_certificate(RULES, row(C("AC 2D")), {tuple(C("AC 2D"))}).ok


@pytest.mark.core
def test_a_random_row_of_twenty_cards_lost_after_many_positions():
    """A real block: twenty cards drawn at random, lost, its proof tens of thousands of rows."""
    rng = random.Random(0)
    found = 0
    for _ in range(40):
        tops = rng.sample(range(52), 20)
        r = ss.solve("accordion", [[c] for c in tops], certificate=True)
        if r.blocked and r.proof.kind == "exhaustive" and r.proof.states > 10_000:
            assert check_certificate(RULES, row(tops), r.proof.certificate).ok
            found += 1
    assert found


# -- the pure-Python backend ------------------------------------------------------------------------

def test_reference_answers_and_proofs(pure_backend):
    r = ss.solve("accordion", "AC 2C AD 3D 3C", certificate=True)
    assert r.status is ss.Status.WON or r.blocked
    assert ss.verify("accordion", "AC 2C AD 3D 3C", r).ok
    lost = ss.solve("accordion", "AC 2C AD", certificate=True)
    assert lost.blocked and ss.verify("accordion", "AC 2C AD", lost).ok
    won = ss.solve("accordion", ss.random_deal(2))
    assert won.won and ss.verify("accordion", ss.random_deal(2), won).ok


@pytest.mark.core
def test_the_core_refuses_a_row_it_cannot_hold():
    """A word that is no row of tops (CHECKS_POSITIONS: contract.py) is refused at every entry: a
    card on two piles once made a move write before the row's table, and a row padded past 8
    words overran the wide engine's buffers (the sanitizer job)."""
    from core_calls import refused_everywhere

    from solitaire_solver.games.accordion import _core as core

    spec = {"tops": list(range(52))}
    for x, aux, match in [(position_of([3, 3, 5]), 0, "a card on two piles"),
                          (position_of([1, 2, 3], 9), 0, "9 words"),
                          (position_of([1, 2]), 1, r"\(int, 0\)"), (63, 0, "1..52 piles"),
                          (position_of([1, 2]) ^ (1 << 20), 0, "not a row of tops")]:
        refused_everywhere(core, spec, x, aux, match)
    assert core.expand(spec, position_of([1, 2, 3], 6), 0)  # six words: a search keeps them
