"""Fourteen Puzzle: layout, reference rules, core against reference, pruning rules, proofs, tampering."""

import dataclasses
import json
import random
from itertools import permutations
from pathlib import Path

import pytest
from core_calls import fourteen_moves, fourteen_search
from hypothesis import given
from hypothesis import strategies as st

import solitaire_solver as ss
from solitaire_solver.cards import card_index, value
from solitaire_solver.cli import main as cli_main
from solitaire_solver.engine.search import reference_search
from solitaire_solver.errors import DealError, LayoutError, MoveError
from solitaire_solver.games import get_game
from solitaire_solver.games.fourteen import _core as core
from solitaire_solver.games.fourteen.rules import (
    FULL,
    PILE_SIZES,
    FourteenPosition,
    FourteenRules,
    check_structural_fact,
    deal_piles,
    layout_text,
    pack_order,
    structural_block,
)
from solitaire_solver.moves import Move
from solitaire_solver.proofs import check_certificate as _check_certificate

RULES = FourteenRules()
GAME, _ = get_game("fourteen")
deals = st.permutations(range(52)).map(ss.Deal)
GOLDEN = Path(__file__).resolve().parent / "data" / "pysolfc-layouts" / "96-fourteen.jsonl"


def C(text: str) -> list[int]:
    return [card_index(t) for t in text.split()]


def winnable(pos: FourteenPosition) -> bool:
    out = reference_search(RULES, pos)
    assert out.status in ("won", "exhausted")
    return out.status == "won"


def random_late_positions(seed: int, count: int, max_left: int = 18):
    """Positions reached by random play (reference rules) with few cards left, so that the
    reference search decides them quickly."""
    rng = random.Random(seed)
    out = []
    s = 0
    while len(out) < count:
        s += 1
        d = ss.random_deal(rng.randrange(10**9))
        pos = RULES.start(d)
        while 52 - bin(pos.removed).count("1") > max_left:
            moves = RULES.moves(pos)
            if not moves:
                break
            pos = RULES.apply(pos, rng.choice(moves))
        else:
            out.append((d, pos))
    return out


# -- layout ---------------------------------------------------------------------------------------

def test_layout_deals_round_robin():
    d = ss.random_deal(7)
    piles = deal_piles(d.cards)
    assert [len(p) for p in piles] == list(PILE_SIZES) == [5] * 4 + [4] * 8
    assert piles[3][1] == d.cards[15] and piles[11][-1] == d.cards[47]
    assert pack_order(piles) == list(d.cards)


def test_layout_text_round_trips_through_read_deal():
    for seed in range(20):
        d = ss.random_deal(seed)
        text = RULES.render(RULES.start(d))
        assert len(text.splitlines()) == 12
        assert GAME.read_deal(text, {}) == d
        assert GAME.read_deal(str(d), {}) == d
        assert GAME.read_deal(list(d.cards), {}) == d
        assert GAME.read_deal([line.split() for line in text.splitlines()], {}) == d


def test_pysolfc_golden_layouts_read_back():
    """PySolFC deals Fourteen round-robin too: its rows, read as our layout text, give a pack that
    deals the same rows."""
    lines = GOLDEN.read_text().splitlines()
    assert lines
    for line in lines:
        rec = json.loads(line)
        rows = [s["cards"] for s in rec["stacks"] if s["kind"] == "rows"]
        d = GAME.read_deal("\n".join(" ".join(r) for r in rows), {})
        assert [[str(Move.remove([c])) for c in p] for p in deal_piles(d.cards)] == rows
        assert ss.solve("fourteen", "\n".join(" ".join(r) for r in rows)).status in (
            ss.Status.WON, ss.Status.BLOCKED)


def test_bad_layouts_are_rejected_with_place():
    lines = RULES.render(RULES.start(ss.random_deal(1))).splitlines()
    short = lines[:5] + [" ".join(lines[5].split()[:3])] + lines[6:]
    with pytest.raises(LayoutError, match="pile 5 has 3 cards"):
        GAME.read_deal("\n".join(short), {})
    bad = lines[:2] + [lines[2].replace(lines[2].split()[1], "ZZ")] + lines[3:]
    with pytest.raises(LayoutError, match=r"pile 2, card 2: 'ZZ' is not a card"):
        GAME.read_deal("\n".join(bad), {})
    first = lines[0].split()[0]
    dup = lines[:7] + [lines[7].replace(lines[7].split()[3], first)] + lines[8:]
    with pytest.raises(LayoutError, match=f"pile 7, card 4: {first} is a duplicate .already pile 0"):
        GAME.read_deal("\n".join(dup), {})
    with pytest.raises(LayoutError, match="12 piles"):
        GAME.read_deal([lines[0].split()] * 11 + [["AC"], ["2C"]], {})
    with pytest.raises(DealError):
        GAME.read_deal("AS 2H", {})
    assert all(issubclass(e, ValueError) for e in (LayoutError, DealError))


# -- reference rules --------------------------------------------------------------------------------

def test_reference_moves_apply_and_reasons():
    d = ss.Deal(pack_order([
        C("2C 3C 4C 5C AS"), C("6C 7C 8C 9C KS"), C("TC JC QC KC 7S"), C("AC 2D 3D 4D 7H"),
        C("5D 6D 7D 8D"), C("9D TD JD QD"), C("KD AD 2H 3H"), C("4H 5H 6H 8H"),
        C("9H TH JH QH"), C("KH AH 2S 3S"), C("4S 5S 6S 8S"), C("9S TS JS QS"),
    ]))
    pos = RULES.start(d)
    assert [str(m) for m in RULES.moves(pos)] == ["AS+KS", "7H+7S"]
    nxt = RULES.play(pos, Move.from_text("KS+AS"))
    assert nxt.piles[0] == tuple(C("2C 3C 4C 5C")) and RULES.key(nxt) == nxt.removed
    assert RULES.cards_left(nxt) == 50
    for text, reason in [("AS+QC", "QC is not on top"), ("QS+2S", "not on top"),
                         ("AS+7S", "total 8, not 14"), ("KS", "exactly two"),
                         ("draw", "not a move of Fourteen")]:
        with pytest.raises(MoveError, match=reason):
            RULES.play(pos, Move.from_text(text))
    assert not RULES.won(pos) and RULES.won(FourteenPosition(((),) * 12, FULL))
    assert layout_text(nxt.piles).splitlines()[0] == "2C 3C 4C 5C"


@pytest.mark.core
@given(deals, st.randoms(use_true_random=False))
def test_core_moves_and_keys_match_reference(d, rng):
    pos = RULES.start(d)
    while True:
        ref = sorted(m.code for m in RULES.moves(pos))
        assert sorted(fourteen_moves(list(d.cards), pos.removed, core.MODE_ALL)) == ref
        pruned = fourteen_moves(list(d.cards), pos.removed, core.MODE_PRUNED)
        assert set(pruned) <= set(ref) and (bool(pruned) == bool(ref))
        if not ref:
            break
        pos = RULES.apply(pos, Move.from_code(rng.choice(ref)))
        assert GAME.certificate_key(pos.removed, 0, {}) == RULES.key(pos)


# -- the core against the reference search -----------------------------------------------------

@pytest.mark.core
def test_core_agrees_with_reference_search_on_seeded_deals():
    compared = 0
    for seed in range(300):
        d = ss.random_deal(seed)
        pruned = fourteen_search(list(d.cards), core.MODE_PRUNED)[0]
        full = fourteen_search(list(d.cards), core.MODE_ALL)[0]
        assert pruned == full, seed
        # The reference search is ~100x slower; it decides most deals within this budget.
        out = reference_search(RULES, RULES.start(d), max_states=2000)
        if out.status != "limit-states":
            assert (out.status == "won") == (pruned == 0), seed
            compared += 1
    assert compared >= 200


@pytest.mark.core
def test_pruned_and_full_search_agree_on_many_deals():
    verdicts = {0: 0, 1: 0}
    pruned_any = 0
    for seed in range(1000, 3000):
        cards = list(ss.random_deal(seed).cards)
        s1, _, st1, _ = fourteen_search(cards, core.MODE_PRUNED)
        s0, _, st0, _ = fourteen_search(cards, core.MODE_ALL)
        assert s1 == s0, seed
        verdicts[s1] += 1
        pruned_any += st1["pruned"] > 0
    assert verdicts[0] > 1500 and verdicts[1] > 50 and pruned_any > 50


@pytest.mark.core
@given(deals)
def test_every_answer_checks_on_hypothesis_deals(d):
    r = ss.solve("fourteen", d, certificate=True)
    s = fourteen_search(list(d.cards), core.MODE_PRUNED)[0]
    assert r.status in (ss.Status.WON, ss.Status.BLOCKED)
    assert (r.status is ss.Status.WON) == (s == 0)
    assert ss.verify("fourteen", d, r).ok


# -- the pruning rules, one by one ------------------------------------------------------------------

def matchable(pos: FourteenPosition) -> bool:
    """Brute force: every pair of complementary ranks left can be matched across piles."""
    pile_of = {c: p for p, pile in enumerate(pos.piles) for c in pile}
    left = sorted(pile_of)
    for v in range(1, 8):
        a = [c for c in left if value(c) == v]
        b = [c for c in left if value(c) == 14 - v]
        if v == 7:
            def pairable(cards):
                if not cards:
                    return True
                x = cards[0]
                return any(pile_of[x] != pile_of[y] and pairable([z for z in cards[1:] if z != y])
                           for y in cards[1:])
            if not pairable(a):
                return False
        elif not any(all(pile_of[x] != pile_of[y] for x, y in zip(a, perm))
                     for perm in permutations(b)):
            return False
    return True


@pytest.mark.core
def test_dead_rule_is_hall_condition_and_sound():
    fired = 0
    for d, pos in random_late_positions(1, 150, max_left=14):
        dead = core.is_dead(list(d.cards), pos.removed)
        assert dead == (not matchable(pos))
        if dead:
            fired += 1
            assert not winnable(pos)
    assert fired >= 10


@pytest.mark.core
def test_dead_rule_at_the_start_matches_structural_proofs():
    for seed in range(400):
        d = ss.random_deal(seed)
        assert core.is_dead(list(d.cards), 0) == (structural_block(deal_piles(d.cards)) is not None)


@pytest.mark.core
def test_forced_partner_and_twin_rules_keep_wins():
    forced = twins = 0
    for d, pos in random_late_positions(2, 250, max_left=16):
        cards = list(d.cards)
        full = fourteen_moves(cards, pos.removed, core.MODE_ALL)
        kept = fourteen_moves(cards, pos.removed, core.MODE_PRUNED)
        if set(kept) == set(full):
            continue
        if len(kept) == 1:
            forced += 1
        else:
            twins += 1
        # Whatever a dropped move wins, some kept move wins too.
        wins = [winnable(RULES.apply(pos, Move.from_code(m))) for m in full]
        if any(wins):
            assert any(winnable(RULES.apply(pos, Move.from_code(m))) for m in kept)
    assert forced >= 10 and twins >= 3


@pytest.mark.core
def test_forced_partner_rule_on_a_hand_made_layout():
    # Pile 0's top AS has one King outside its pile (KS, on top of pile 1): only AS+KS is kept,
    # though KH and KD lie under it and 7S+7H is legal too.
    piles = [C("KH KD KC 3C AS"), C("6C 8C 9C 5C KS"), C("TC JC QC 2C 7S"), C("AC 2D 3D 4D 7H"),
             C("5D 6D 7D 8D"), C("9D TD JD QD"), C("4C AD 2H 3H"), C("4H 5H 6H 8H"),
             C("9H TH JH QH"), C("7C AH 2S 3S"), C("4S 5S 6S 8S"), C("9S TS JS QS")]
    cards = pack_order(piles)
    assert len(fourteen_moves(cards, 0, core.MODE_ALL)) == 2
    assert [str(Move.from_code(m)) for m in fourteen_moves(cards, 0, core.MODE_PRUNED)] == ["AS+KS"]


@pytest.mark.core
def test_twin_rule_on_a_hand_made_layout():
    # Piles 4 and 5 hold the same ranks (5 6 7 K) bottom to top: AS+KC and AS+KD are twins.
    piles = [C("2C 3C 4C QS AS"), C("8C 9C TC JC QC"), C("2D 3D 4D 8D 9D"), C("TD JD QD AC AD"),
             C("5C 6C 7C KC"), C("5D 6D 7D KD"), C("2H 3H 4H 5H"), C("6H 7H 8H 9H"),
             C("TH JH QH AH"), C("2S 3S 4S 5S"), C("6S 7S 8S 9S"), C("TS JS KH KS")]
    cards = pack_order(piles)
    full = {str(Move.from_code(m)) for m in fourteen_moves(cards, 0, core.MODE_ALL)}
    kept = {str(Move.from_code(m)) for m in fourteen_moves(cards, 0, core.MODE_PRUNED)}
    # Piles 6 and 9 (2 3 4 5) and piles 7 and 10 (6 7 8 9) are twins as well.
    assert full - kept == {"KD+AS", "AD+KD", "KD+AH", "9D+5S", "9H+5S", "5S+9S", "5H+9S"}
    assert "KC+AS" in kept


# -- proofs -------------------------------------------------------------------------------------

LAYOUT_REST = ["5D 6D 8D 9D", "TD JD QD 2H", "3H 4H 5H 6H", "8H 9H TH JH",
               "QH 2S 3S 4S", "5S 6S 8S 9S", "TS JS QS 3D", "4D 2D 4C 6C"]


def layout(first_four: list[str]) -> str:
    return "\n".join(first_four + LAYOUT_REST)


STRUCTURAL = {
    "sevens": ["7C 7D 7H AC 2C", "3C 5C 7S 8C 9C", "TC JC QC KC AD", "KD AH KH AS KS"],
    "alone": ["AC KC KD KH KS", "2C 3C 5C 7C 8C", "9C TC JC 7D AD", "QC AH 7H AS 7S"],
    "matching": ["AC AD KC KD KH", "2C 3C 5C 7C 8C", "9C TC JC 7D AH", "QC AS 7H KS 7S"],
}


@pytest.mark.core
@pytest.mark.parametrize("rule", STRUCTURAL)
def test_structural_proofs_check_and_resist_tampering(rule):
    text = layout(STRUCTURAL[rule])
    r = ss.solve("fourteen", text)
    assert r.blocked and r.proof.kind == "structural" and r.proof.details["rule"] == rule
    assert r.stats["states"] == 0
    assert ss.verify("fourteen", text, r).ok
    # The search agrees, with a certificate the reference rules check.
    d = GAME.read_deal(text, {})
    st_, _, _, cert = fourteen_search(list(d.cards), core.MODE_ALL, certificate=True)
    assert st_ == 1 and _check_certificate(RULES, RULES.start(d), frozenset(k[0] for k in cert))
    p = r.proof
    details = p.details
    tampered = [
        dataclasses.replace(p, details={**details, "pile": (details["pile"] + 1) % 12}),
        dataclasses.replace(p, details={**details, "total": 3}),
        dataclasses.replace(p, details={**details, "rule": "nonsense"}),
        dataclasses.replace(p, details={}),
        dataclasses.replace(p, sentence=p.sentence.replace(f"pile {details['pile']}", "pile 9")),
    ]
    for bad in tampered:
        assert ss.verify("fourteen", text, bad).ok is False
    # The same proof does not hold for another deal.
    assert ss.verify("fourteen", ss.random_deal(0), p).ok is False


def test_structural_sentences():
    r = ss.solve("fourteen", layout(STRUCTURAL["sevens"]))
    assert r.proof.sentence == ("three of the four Sevens lie in pile 0 (7C 7D 7H): two cards of "
                                "one pile never leave together, so one of them has no partner")
    r = ss.solve("fourteen", layout(STRUCTURAL["alone"]))
    assert r.proof.sentence.startswith("AC in pile 0 has no partner: all four Kings lie in pile 0")
    r = ss.solve("fourteen", layout(STRUCTURAL["matching"]))
    assert r.proof.sentence.startswith("pile 0 holds two Aces and three Kings")


def test_structural_fact_checker_needs_a_real_excess():
    piles = deal_piles(GAME.read_deal(layout(STRUCTURAL["sevens"]), {}).cards)
    ok = {"rule": "sevens", "pile": 0, "rank": 7, "count": 3, "total": 4,
          "cards": ["7C", "7D", "7H"]}
    assert check_structural_fact(piles, ok) is None
    assert "no pile" in check_structural_fact(piles, {**ok, "pile": 12})
    assert check_structural_fact(piles, {**ok, "pile": 1, "count": 1}) is not None
    assert check_structural_fact(piles, {"rule": "matching", "pile": 1, "rank": 6,
                                         "partner_rank": 8, "count": 0, "partners_here": 1,
                                         "total": 4}) is not None


def test_exhaustive_proof_with_certificate_and_tampering():
    d = ss.random_deal(5)  # blocked, with no structural reason
    r = ss.solve("fourteen", d, certificate=True)
    assert r.blocked and r.proof.kind == "exhaustive" and r.proof.certificate
    assert RULES.key(RULES.start(d)) in r.proof.certificate
    assert ss.verify("fourteen", d, r).ok
    cert = r.proof.certificate
    some = next(k for k in cert if k != 0)
    for bad_cert in (cert - {0}, cert - {some}):
        bad = dataclasses.replace(r, proof=dataclasses.replace(r.proof, certificate=bad_cert))
        assert ss.verify("fourteen", d, bad).ok is False
    # Without a certificate verify re-searches with the reference rules.
    plain = ss.solve("fourteen", d)
    assert plain.blocked and plain.proof.certificate is None
    assert ss.verify("fourteen", d, plain).ok
    # A won deal with a claimed block is refuted.
    won = ss.random_deal(0)
    assert ss.solve("fourteen", won).won
    assert ss.verify("fourteen", won, plain.proof).ok is False
    assert ss.verify("fourteen", won, dataclasses.replace(plain.proof, certificate=cert)).ok is False


def test_winning_lines_replay_and_tampered_lines_fail():
    for seed in range(30):
        d = ss.random_deal(seed)
        r = ss.solve("fourteen", d, check=True)
        if not r.won:
            continue
        assert len(r.moves) == 26
        assert ss.verify("take-fourteen", d, [str(m) for m in r.moves]).ok
        assert ss.verify("fourteen", d, list(r.moves[:-1])).ok is False
        swapped = list(r.moves)
        swapped[0], swapped[-1] = swapped[-1], swapped[0]
        assert ss.verify("fourteen", d, swapped).ok is False


def test_limits_give_unknown_never_blocked():
    d = ss.random_deal(46)  # 35,197 positions in the full search, blocked
    r = ss.solve("fourteen-out", d, max_states=50, certificate=True)
    assert r.status is ss.Status.UNKNOWN


def test_cli_prints_layout_then_moves(tmp_path, capsys):
    d = ss.random_deal(0)
    f = tmp_path / "layout.txt"
    f.write_text(RULES.render(RULES.start(d)) + "\n")
    code = cli_main(["solve", "fourteen", "--file", str(f)])
    out = capsys.readouterr().out
    assert code == 0
    assert out.splitlines()[:12] == f.read_text().splitlines()
    assert "WON in 26 moves" in out


@pytest.mark.core
def test_structural_blocks_are_real_blocks():
    found = 0
    for seed in range(1500):
        d = ss.random_deal(seed)
        if structural_block(deal_piles(d.cards)) is not None:
            found += 1
            assert fourteen_search(list(d.cards), core.MODE_ALL)[0] == 1, seed
            r = ss.solve("fourteen", d)
            assert r.proof.kind == "structural" and ss.verify("fourteen", d, r).ok
    assert found >= 10


@pytest.mark.core
def test_the_core_refuses_a_position_that_is_none():
    """A word that is no position of the deal (CHECKS_POSITIONS: contract.py) is refused at every
    entry; a pile with a card removed under one left was read as another position."""
    from core_calls import refused_everywhere

    cards = list(ss.random_deal(1).cards)
    spec = {"cards": cards}
    for removed, aux, match in [(1 << 52, 0, "cards 0..51"), (0, 1, "aux is 0"),
                                (1 << cards[0], 0, "pile 1 has a card removed under one left"),
                                (1 << cards[47], 0, "do not pair up|odd number of Sevens")]:
        refused_everywhere(core, spec, removed, aux, match)
