"""Baroness: layout, reference rules, core against reference, the pruning rules one by one, proofs,
tampering, golden PySolFC layouts, the command line."""

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solitaire_solver as ss
from solitaire_solver.cards import CARD_NAMES, card_index
from solitaire_solver.cli import main as cli_main
from solitaire_solver.engine.contract import Limits
from solitaire_solver.engine.search import reference_search
from solitaire_solver.errors import DealError, LayoutError, MoveError
from solitaire_solver.games import get_game
from solitaire_solver.games.baroness.rules import (
    DEAL,
    FULL,
    BaronessRules,
    full_piles,
)
from solitaire_solver.moves import Move
from solitaire_solver.result import BlockProof

RULES = BaronessRules()
GAME, _ = get_game("baroness")
GOLDEN = Path(__file__).parent / "data" / "pysolfc-layouts" / "657-baroness.jsonl"
deals = st.permutations(range(52)).map(ss.Deal)


def C(text: str) -> list[int]:
    return [card_index(t) for t in text.split()]


def pack_of(rows: list[str], rest: str = "") -> ss.Deal:
    """A pack whose deals are `rows` (five cards each, pile 1 first), then the cards of `rest`,
    then every other card in index order."""
    cards = [c for r in rows for c in C(r)] + C(rest)
    return ss.Deal(cards + [c for c in range(52) if c not in cards])


def core():
    """The compiled core (imported when a test needs it: the others run without it)."""
    from solitaire_solver.games.baroness import _core as _baroness
    return _baroness


def search(cards, prune=True, root=None, certificate=False, max_states=0):
    spec = {"cards": list(cards), "prune": prune}
    if root is not None:
        spec["root"] = root
    return core().solve(spec, "decide", Limits(max_states=max_states), certificate)


def walk(deal, rng, stop, rules=RULES, plies=10**6):
    """Random play (a deal only when nothing else is legal, so piles run empty and, with
    `to_empty`, cards move onto them) until stop(pos), no move, or `plies` moves."""
    pos = rules.start(deal)
    for _ in range(plies):
        if stop(pos):
            break
        moves = rules.moves(pos)
        if not moves:
            break
        rest = [m for m in moves if m != DEAL]
        pos = rules.apply(pos, rng.choice(rest or moves))
    return pos


def late_positions(seed, count, left=18):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        d = ss.random_deal(rng.randrange(10**9))
        pos = walk(d, rng, lambda p: RULES.cards_left(p) <= left)
        if RULES.cards_left(pos) <= left:
            out.append((d, pos))
    return out


def winnable(d, pos) -> bool:
    """Decided by the unpruned core: every legal move, no dead() test (its moves and successors
    are the reference rules', test_core_moves_and_successors_are_the_references)."""
    run = search(d.cards, prune=False, root=GAME.core_position(pos, {}))
    assert run.status in ("won", "exhausted")
    return run.status == "won"


# -- layout ---------------------------------------------------------------------------------------

def test_piles_receive_every_fifth_card_and_the_eleventh_deal_lays_two_apart():
    d = ss.random_deal(3)
    pos = RULES.start(d)
    assert pos.piles == tuple((c,) for c in d.cards[:5]) and pos.deals == 1
    for _ in range(9):
        pos = RULES.apply(pos, DEAL)
    assert pos.piles == full_piles(d.cards) and len(pos.stock) == 2 and pos.reserve == ()
    pos = RULES.apply(pos, DEAL)
    assert pos.reserve == d.cards[50:] and pos.deals == 11 and not pos.stock
    assert DEAL not in RULES.moves(pos)
    assert set(pos.reserve) <= set(pos.available)
    assert RULES.render(pos).splitlines()[-1] == "Reserve: " + " ".join(
        str(Move.remove([c])) for c in d.cards[50:])
    with pytest.raises(MoveError, match="the pack is spent"):
        RULES.play(pos, DEAL)


def test_deal_covers_empty_piles_too():
    d = pack_of(["KS KH KD KC 5S", "AC 2C 3C 4C 6S"])
    pos = RULES.start(d)
    for k in ("KS", "KH", "KD", "KC"):
        pos = RULES.play(pos, Move.from_text(k))
    assert pos.piles[:4] == ((), (), (), ())
    pos = RULES.apply(pos, DEAL)
    assert pos.piles == ((card_index("AC"),), (card_index("2C"),), (card_index("3C"),),
                         (card_index("4C"),), tuple(C("5S 6S")))


def test_layout_text_round_trips_through_read_deal():
    for seed in range(20):
        d = ss.random_deal(seed)
        text = RULES.render(RULES.start(d))
        assert len(text.splitlines()) == 6 and text.splitlines()[5].startswith("Stock: ")
        assert GAME.read_deal(text, {}) == d
        assert GAME.read_deal(text + "\nReserve:", {}) == d
        assert GAME.read_deal(str(d), {}) == d
        assert GAME.read_deal(list(d.cards), {}) == d


@pytest.mark.parametrize("mutate, fragment", [
    (lambda ls: ls[:4] + ls[5:], "5 pile lines before `Stock:`, this one 4"),
    (lambda ls: [ls[0] + " " + ls[5].split()[1]] + ls[1:5] + ["Stock: " + " ".join(
        ls[5].split()[2:])], "line 1 \\(pile 1\\): a pile holds one card at the start, this one 2"),
    (lambda ls: ["ZZ"] + ls[1:], "line 1 \\(pile 1\\), card 1: 'ZZ' is not a card"),
    (lambda ls: ls[:1] + [ls[0]] + ls[2:], "line 2 \\(pile 2\\), card 1: .. is a duplicate"),
    (lambda ls: ls[:5] + [ls[5].rsplit(" ", 1)[0]], "the stock holds 47 cards at the start, this one 46"),
    (lambda ls: ls[:5], "a line `Stock: ...` after the five piles"),
    (lambda ls: ls + ["Reserve: AS"], "the reserve is empty at the start"),
    (lambda ls: ls[5:] + ls[:5], "must come after the five piles"),
])
def test_bad_layouts_are_refused(mutate, fragment):
    lines = RULES.render(RULES.start(ss.random_deal(1))).splitlines()
    with pytest.raises(LayoutError, match=fragment):
        GAME.read_deal("\n".join(mutate(lines)), {})


def test_bad_packs_are_refused():
    with pytest.raises(DealError):
        GAME.read_deal("AS 2H", {})
    with pytest.raises(LayoutError, match="Stock"):
        GAME.read_deal("AS\n2H\n3H\n4H\n5H", {})


# -- reference rules ------------------------------------------------------------------------------

def test_reference_moves_apply_and_reasons():
    d = pack_of(["KS 6H 7C 2D QH", "JD AS 9C 4H 8S"])
    pos = RULES.start(d)
    assert [str(m) for m in RULES.moves(pos)] == ["7C+6H", "KS", "deal"]
    nxt = RULES.play(pos, Move.from_text("6H+7C"))
    assert nxt.piles[1:3] == ((), ()) and RULES.cards_left(nxt) == 50
    assert RULES.key(nxt) == (nxt.removed, 1)
    for text, reason in [("KS+AS", "AS is not dealt yet"), ("2D+QH", "total 14, not 13"),
                         ("QH", "only a King leaves alone"), ("draw", "not a move of Baroness"),
                         ("2D+JD+KS", "JD is not dealt yet")]:
        with pytest.raises(MoveError, match=reason):
            RULES.play(pos, Move.from_text(text))
    later = RULES.apply(pos, DEAL)
    assert later.piles[0] == tuple(C("KS JD"))
    with pytest.raises(MoveError, match="KS is covered in pile 1"):
        RULES.play(later, Move.from_text("KS"))
    assert [str(m) for m in RULES.moves(later)] == ["9C+4H", "deal"]
    with pytest.raises(MoveError, match="already removed"):
        RULES.play(nxt, Move.from_text("6H+7C"))
    assert not RULES.won(pos)


# -- the core against the reference rules ---------------------------------------------------------

def expand(cards, pos, prune=False):
    return {Move.from_code(w): GAME.certificate_key(r, a, {}) for w, r, a in core().expand(
        {"cards": list(cards), "prune": prune}, *GAME.core_position(pos, {}))}


@pytest.mark.core
@given(deals, st.randoms(use_true_random=False))
def test_core_moves_and_successors_are_the_references(d, rng):
    pos = RULES.start(d)
    while True:
        full = expand(d.cards, pos)
        assert full == {m: RULES.key(RULES.apply(pos, m)) for m in RULES.moves(pos)}
        pruned = expand(d.cards, pos, prune=True)
        assert set(pruned) <= set(full)
        if not full:
            break
        removals = [m for m in full if m != DEAL]
        pos = RULES.apply(pos, rng.choice(removals or list(full)))


@pytest.mark.core
def test_pruned_and_full_search_agree_on_seeded_deals():
    """Pruning never changes a verdict: whole seeded deals, and positions four or more deals in
    (smaller trees, where the rules fire more often)."""
    verdicts = {"won": 0, "exhausted": 0}
    cases = [(ss.random_deal(s).cards, None) for s in range(12)]
    rng = random.Random(5)
    for s in range(1000, 1250):
        d = ss.random_deal(s)
        pos = walk(d, rng, lambda p: p.deals >= 5)
        cases.append((d.cards, GAME.core_position(pos, {})))
    for cards, root in cases:
        a, b = search(cards, root=root), search(cards, prune=False, root=root)
        assert a.status == b.status, (cards, root)
        verdicts[a.status] += 1
        assert a.stats["states"] <= b.stats["states"]
        if a.status == "won":
            pos = RULES.start(ss.Deal(cards)) if root is None else None
            if pos is not None:
                for w in a.path:
                    pos = RULES.play(pos, Move.from_code(w))
                assert RULES.won(pos)
    assert verdicts["won"] >= 10 and verdicts["exhausted"] > 150, verdicts


def near_wins(count, seed):
    """Positions a few random moves off a winning line (some still winnable, most not)."""
    rng = random.Random(seed)
    out = []
    for s in range(400):
        d = ss.random_deal(s)
        run = search(d.cards)
        if run.status != "won":
            continue
        pos = RULES.start(d)
        for w in run.path[:rng.randrange(12, len(run.path))]:
            pos = RULES.apply(pos, Move.from_code(w))
        for _ in range(rng.randrange(0, 3)):
            moves = RULES.moves(pos)
            if moves:
                pos = RULES.apply(pos, rng.choice(moves))
        out.append((d, pos))
        if len(out) == count:
            break
    return out


@pytest.mark.core
def test_core_agrees_with_the_reference_search_from_late_positions():
    compared = {"won": 0, "exhausted": 0}
    for d, pos in late_positions(1, 40, left=20) + near_wins(40, 7):
        ref = reference_search(RULES, pos, max_states=4000)
        if ref.status == "limit-states":
            continue
        run = search(d.cards, root=GAME.core_position(pos, {}))
        assert run.status == ref.status, RULES.render(pos)
        compared[run.status] += 1
        p = pos
        for w in run.path:
            p = RULES.play(p, Move.from_code(w))
        assert RULES.won(p) == (run.status == "won")
    assert compared["won"] >= 10 and compared["exhausted"] >= 10, compared


@pytest.mark.core
@settings(max_examples=25, deadline=None)
@given(deals)
def test_every_answer_checks_on_hypothesis_deals(d):
    """Same verdict as the unpruned core; a win replays, a structural proof checks, and a small
    exhaustive proof checks through its certificate."""
    r = ss.solve("baroness", d)
    assert r.status in (ss.Status.WON, ss.Status.BLOCKED)
    full = search(d.cards, prune=False, max_states=50_000)
    if full.status != "limit-states":
        assert r.won == (full.status == "won")
    if r.won or r.proof.kind == "structural":
        assert ss.verify("baroness", d, r).ok
    elif full.stats["states"] < 5000:
        c = ss.solve("baroness", d, certificate=True)
        assert ss.verify("baroness", d, c).ok


# -- the pruning rules, one by one ----------------------------------------------------------------

@pytest.mark.core
def test_closed_card_rule_keeps_a_win_and_fires():
    """Wherever the pruned move set is smaller, a win through a dropped move implies one
    through a kept move; the rule fires on Kings and on other cards."""
    fired = {"king": 0, "pair": 0}
    for d, pos in late_positions(2, 200, left=16) + late_positions(4, 200, left=40):
        full = expand(d.cards, pos)
        kept = expand(d.cards, pos, prune=True)
        if set(kept) == set(full):
            continue
        assert DEAL not in kept
        if not kept:
            # A closed card with no partner left: it can never leave.
            assert not winnable(d, pos), RULES.render(pos)
            continue
        fired["king" if any(len(m.cards) == 1 for m in kept) else "pair"] += 1
        cards = {c for m in kept for c in m.cards}
        # One closed card: every kept removal takes it.
        assert any(all(c in m.cards for m in kept) for c in cards)
        wins = [m for m in full if winnable(d, RULES.apply(pos, m))]
        if wins:
            assert any(m in kept for m in wins), RULES.render(pos)
    assert fired["king"] >= 10 and fired["pair"] >= 20, fired


@pytest.mark.core
def test_a_king_on_top_is_removed_at_once():
    d = pack_of(["2C KS 6H 7C 9D"])
    assert [str(m) for m in expand(d.cards, RULES.start(d), prune=True)] == ["KS"]
    # A card whose one partner left lies beneath it in its own pile does not count against it:
    # 6H's Sevens are 7C (available) and the others, all beneath 6H in pile 1.
    d = pack_of(["7D QS JS TS 9S", "7H QD JD TD 9D", "7S QC JC TC 9C", "6H 7C 2H 3H 4H"])
    pos = RULES.start(d)
    for _ in range(3):
        pos = RULES.apply(pos, DEAL)
    assert pos.available[0] == card_index("6H")
    assert [str(m) for m in expand(d.cards, pos, prune=True)] == ["7C+6H"]


@pytest.mark.core
def test_dead_rules_are_sound_and_fire():
    fired = [0, 0, 0]  # rule 1, rule 2, rule 2 alone
    for d, pos in late_positions(3, 300, left=20):
        one, two = core().dead_rules(list(d.cards), *GAME.core_position(pos, {}))
        fired[0] += one
        fired[1] += two
        fired[2] += two and not one
        if one or two:
            assert not winnable(d, pos), RULES.render(pos)
    assert fired[0] >= 10 and fired[2] >= 10, fired


@pytest.mark.core
def test_dead_rule_two_finds_a_cycle_of_covers():
    # Pile 1: 2C under QC; pile 2: AC under JC; every other card removed. QC's only Ace lies
    # under JC, and JC's only Two under QC.
    d = pack_of(["2C AC 3D 4D 5D", "QC JC 6D 7D 8D"])
    removed = FULL & ~sum(1 << c for c in C("2C AC QC JC"))
    assert core().dead_rules(list(d.cards), removed, 1) == (False, True)
    # Without the cycle (QC's Ace on another pile) neither rule fires, and it can be won.
    d = pack_of(["2C 3D AC 4D 5D", "QC JC 6D 7D 8D"])
    assert core().dead_rules(list(d.cards), removed, 1) == (False, False)


@pytest.mark.core
def test_dead_rule_one_at_the_start_is_the_structural_proof():
    for seed in range(300):
        d = ss.random_deal(seed)
        proof = GAME.structural_proof(d, {})
        assert core().dead_rules(list(d.cards), 0, 0)[0] == (proof is not None), seed


# -- proofs ---------------------------------------------------------------------------------------

def structural_seeds(n):
    return [s for s in range(200) if GAME.structural_proof(ss.random_deal(s), {})][:n]


@pytest.mark.core
def test_structural_proofs_check_and_name_the_cards():
    seeds = structural_seeds(8)
    assert len(seeds) == 8
    for seed in seeds:
        d = ss.random_deal(seed)
        r = ss.solve("baroness", d)
        assert r.blocked and r.proof.kind == "structural" and r.stats["states"] == 0
        det = r.proof.details
        assert all(c in r.proof.sentence for c in det["cards"])
        assert f"pile {det['pile']} is dealt" in r.proof.sentence
        assert ss.verify("baroness", d, r).ok
        # The unpruned search agrees: no line wins (a few deals: it is slow).
        if seed in seeds[:3]:
            assert search(d.cards, prune=False).status == "exhausted"


def test_tampered_structural_proofs_are_rejected():
    seed = structural_seeds(1)[0]
    d = ss.random_deal(seed)
    proof = ss.solve("baroness", d).proof
    det = proof.details
    other = det["pile"] % 5 + 1
    for bad in [
        replace(proof, details={**det, "pile": other}),
        replace(proof, details={**det, "value": det["value"] % 6 + 1}),
        replace(proof, details={**det, "cards": det["cards"][:-1]}),
        replace(proof, details={**det, "pile": 0}),
        replace(proof, details={**det, "rule": "magic"}),
        replace(proof, sentence=proof.sentence.replace(f"pile {det['pile']}", f"pile {other}")),
        replace(proof, sentence=proof.sentence + "!"),
    ]:
        assert not ss.verify("baroness", d, bad).ok
    clean = next(s for s in range(200) if not GAME.structural_proof(ss.random_deal(s), {}))
    assert not ss.verify("baroness", ss.random_deal(clean), proof).ok


@pytest.mark.core
def test_exhaustive_proofs_and_certificates():
    blocked = [s for s in range(60) if not GAME.structural_proof(ss.random_deal(s), {})
               and search(ss.random_deal(s).cards).status == "exhausted"
               and search(ss.random_deal(s).cards, prune=False, max_states=3000).status
               == "exhausted"][:4]
    assert blocked
    for seed in blocked:
        d = ss.random_deal(seed)
        r = ss.solve("baroness", d, certificate=True)
        assert r.proof.kind == "exhaustive" and r.proof.certificate
        assert "all" in r.proof.sentence
        assert ss.verify("baroness", d, r).ok
        cert = r.proof.certificate
        start = RULES.key(RULES.start(d))
        assert start == GAME.certificate_key(0, 0, {}) and start in cert
        torn = frozenset(k for k in cert if k != max(cert - {start}))
        assert not ss.verify("baroness", d, replace(r.proof, certificate=torn)).ok
        assert not ss.verify("baroness", d, replace(r.proof, certificate=cert - {start})).ok
        pruned = ss.solve("baroness", d)
        assert "docs/baroness.md" in pruned.proof.sentence
        assert ss.verify("baroness", d, pruned, max_states=200_000).ok
        json.dumps(r.to_dict())


def test_tampered_lines_are_rejected():
    d = ss.random_deal(2)  # won, a small search
    moves = [str(m) for m in ss.solve("baroness", d, check=True).moves]
    assert ss.verify("baroness", d, moves).ok
    assert not ss.verify("baroness", d, moves[:-1]).ok
    first_deal = moves.index("deal")
    assert not ss.verify("baroness", d, moves[:first_deal] + moves[first_deal + 1:]).ok
    assert not ss.verify("baroness", d, moves + ["deal"]).ok
    fake = BlockProof(kind="exhaustive", sentence="no line wins")
    assert not ss.verify("baroness", d, fake).ok
    fake = BlockProof(kind="exhaustive", sentence="no line wins", certificate=frozenset({(0, 1)}))
    assert not ss.verify("baroness", d, fake).ok


# -- golden layouts and the command line ----------------------------------------------------------

def golden_layouts():
    for line in GOLDEN.read_text().splitlines():
        rec = json.loads(line)
        stacks = {(s["kind"], s["index"]): s["cards"] for s in rec["stacks"]}
        piles = [stacks[("rows", i)] for i in range(5)]
        # PySolFC lists a stack from its bottom: the talon's last card is dealt next.
        stock = stacks[("talon", 0)][::-1]
        yield rec, piles, stock


@pytest.mark.core
def test_pysolfc_layouts_read_as_typed_layouts_and_solve():
    """Each PySolFC starting layout, typed as our layout text, reads back to a pack whose start
    shows the same five cards and stock; the answer found verifies. PySolFC's game numbers are
    not our seeds (another issue maps them), so no verdict is compared."""
    seen = 0
    for rec, piles, stock in golden_layouts():
        assert [len(p) for p in piles] == [1] * 5 and len(stock) == 47
        text = "\n".join(" ".join(p) for p in piles) + "\nStock: " + " ".join(stock)
        d = GAME.read_deal(text, {})
        assert RULES.render(RULES.start(d)) == text
        r = ss.solve("baroness", text)
        assert r.won == (search(d.cards, prune=False).status == "won"), rec["deal"]
        if r.won or r.proof.kind == "structural":
            assert ss.verify("baroness", text, r).ok
        seen += 1
    assert seen == 11


def test_cli_solves_a_layout_file(tmp_path, capsys):
    text = RULES.render(RULES.start(ss.random_deal(2)))
    f = tmp_path / "layout.txt"
    f.write_text(text)
    code = cli_main(["solve", "baroness", "--file", str(f)])
    out = capsys.readouterr().out
    assert code in (0, 1) and out.startswith(text)
    assert cli_main(["solve", "thirteens-baroness", "--seed", "2"]) == code
    capsys.readouterr()
    assert cli_main(["games"]) == 0
    out = capsys.readouterr().out
    assert "baroness" in out and "thirteens-baroness" in out


# -- PySolFC's rules: last_deal="together", to_empty=True, the preset baroness-pysolfc ----------

TOGETHER = {"last_deal": "together"}
TO_EMPTY = {"to_empty": True}
PRESET = {"last_deal": "together", "to_empty": True}
PYSOLFC_VARIANTS = [TOGETHER, TO_EMPTY, PRESET]
vid = ["together", "to_empty", "preset"]


def rules_of(given: dict) -> BaronessRules:
    return GAME.rules(GAME.variant(**given))


def test_the_preset_is_pysolfcs_baroness():
    from solitaire_solver.pysolfc import pysolfc_preset
    game, fixed = get_game("baroness-pysolfc")
    assert game is GAME and fixed == PRESET
    assert pysolfc_preset("baroness") == pysolfc_preset(657) == "baroness-pysolfc"
    assert GAME.variant() == {"last_deal": "apart", "to_empty": False}


def test_last_deal_together_lays_the_last_two_apart_with_the_tenth_deal():
    d = ss.random_deal(3)
    rules = rules_of(TOGETHER)
    pos = rules.start(d)
    for _ in range(8):
        pos = rules.apply(pos, DEAL)
    assert len(pos.stock) == 7 and DEAL in rules.moves(pos)
    pos = rules.play(pos, DEAL)
    assert pos.deals == 10 and pos.stock == () and set(pos.reserve) == set(d.cards[50:])
    assert [p[-1] for p in pos.piles] == list(d.cards[45:50])
    assert DEAL not in rules.moves(pos)
    assert "all 10 deals" in rules.why_illegal(pos, DEAL)
    assert rules.render(pos).splitlines()[-1].startswith("Reserve: ")


def test_move_text_to_an_empty_pile():
    m = Move.from_text(" qh > 3 ")
    assert m == Move.to_pile(card_index("QH"), 3) and str(m) == "QH>3"
    assert Move.from_code(m.code) == m and m != Move.from_text("QH")
    assert Move.from_text("JH>R") != Move.from_text("JH>1")
    for bad, fragment in [("QH>0", "numbered from 1"), ("QH>x", "after `>`"), ("XX>2", "XX"),
                          ("QH>", "after `>`")]:
        with pytest.raises(MoveError, match=fragment):
            Move.from_text(bad)


def test_moves_onto_empty_piles_and_their_reasons():
    d = pack_of(["6C AH KS 5D 9S", "7C JH QH 2H TS"])
    rules = rules_of(TO_EMPTY)
    pos = rules.play(rules.start(d), Move.from_text("KS"))
    assert {str(m) for m in rules.moves(pos) if m.pile} == {"6C>3", "AH>3", "5D>3", "9S>3"}
    moved = rules.play(pos, Move.from_text("ah > 3"))
    assert moved.piles[1] == () and moved.piles[2] == (card_index("AH"),)
    assert rules.key(moved)[2] == (None, None, card_index("AH"), None, None)
    # The next deal covers AH in pile 3; JH + 2H then empties pile 2.
    later = rules.play(rules.play(moved, DEAL), Move.from_text("JH+2H"))
    assert later.piles[2] == tuple(C("AH QH")) and later.piles[1] == ()
    reasons = [("5D>3", "pile 3 is not empty"), ("QH>7", "piles 1 to 5"),
               ("KS>2", "already removed"), ("AH>2", "covered in pile 3"),
               ("3C>2", "not dealt yet")]
    for text, fragment in reasons:
        with pytest.raises(MoveError, match=fragment):
            rules.play(later, Move.from_text(text))
    with pytest.raises(MoveError, match="only under to_empty=True"):
        RULES.play(RULES.apply(RULES.start(d), Move.from_text("KS")), Move.from_text("AH>3"))


def test_the_cards_laid_apart_never_move_onto_a_pile():
    """PySolFC's reserve stacks (Giza_Reserve) send every move to _dropPairMove, which asserts on
    the top card of the target and fails on an empty pile before anything moves: docs/baroness.md."""
    rules = rules_of(PRESET)
    pos = rules.start(ss.random_deal(4))
    while pos.stock:
        pos = rules.apply(pos, DEAL)
    # Pile 1 emptied (its cards taken out of play), so there is a pile to move onto.
    gone = sum(1 << c for c in pos.piles[0])
    pos = replace(pos, piles=((),) + pos.piles[1:], removed=pos.removed | gone)
    assert len(pos.reserve) == 2
    assert {str(m) for m in rules.moves(pos) if m.pile} == {
        f"{CARD_NAMES[p[-1]]}>1" for p in pos.piles[1:]}
    for c in pos.reserve:
        with pytest.raises(MoveError, match="lies apart"):
            rules.play(pos, Move.to_pile(c, 1))


def test_a_card_back_on_its_own_pile_is_the_position_it_left():
    """The key is canonical: a lone card moved away and back is where it was dealt again, and
    the core's packed position says the same."""
    d = pack_of(["6C AH KS 5D 9S", "7C JH QH 2H TS"])
    rules = rules_of(PRESET)
    pos = rules.play(rules.start(d), Move.from_text("KS"))
    there = rules.play(pos, Move.from_text("AH>3"))
    back = rules.play(there, Move.from_text("AH>2"))
    assert back.piles == pos.piles and rules.key(back) == rules.key(pos)
    assert rules.key(pos)[2] == (None,) * 5
    for p in (pos, there, back):
        assert GAME.certificate_key(*GAME.core_position(p, PRESET), PRESET) == rules.key(p)


@pytest.mark.core
@pytest.mark.parametrize("given", PYSOLFC_VARIANTS, ids=vid)
def test_core_and_reference_agree_under_pysolfcs_rules(given):
    """Random deals and random positions (piles run empty, cards move onto them): the same legal
    moves to the same keys, the same verdict as the reference search where it ends, lines that
    replay, pruned and unpruned searches agreeing."""
    var = GAME.variant(**given)
    rules = GAME.rules(var)
    rng = random.Random(14)
    compared = won = 0
    for seed in range(40):
        d = ss.random_deal(seed)
        pos = walk(d, rng, lambda p: False, rules, rng.randrange(0, 45))
        spec = GAME.core_spec(d, var, "decide", False)
        root = GAME.core_position(pos, var)
        assert GAME.certificate_key(*root, var) == rules.key(pos)
        have = {Move.from_code(w): GAME.certificate_key(r, a, var)
                for w, r, a in core().expand(spec, *root)}
        assert have == {m: rules.key(rules.apply(pos, m)) for m in rules.moves(pos)}
        run = core().solve(dict(spec, root=root), "decide", Limits(max_states=30_000), False)
        full = core().solve(dict(spec, root=root, prune=False), "decide",
                            Limits(max_states=30_000), False)
        if "limit" not in run.status + full.status:
            assert run.status == full.status, seed
        ref = reference_search(rules, pos, max_states=2000)
        if ref.status in ("won", "exhausted") and "limit" not in run.status:
            assert run.status == ref.status, seed
            compared += 1
        if run.status == "won":
            end = pos
            for w in run.path:
                end = rules.play(end, Move.from_code(w))
            assert rules.won(end)
            won += 1
    assert compared >= 20 and won >= 5


@pytest.mark.core
def test_to_empty_wins_a_deal_the_classic_rules_block():
    """Seed 12 (found by search over seeds 0..59): blocked by our rules (pile 1 is dealt five of
    the eight Aces and Queens), won under PySolFC's by a line that moves cards onto empty piles
    (which is no line of ours)."""
    d = ss.random_deal(12)
    classic = ss.solve("baroness", d, check=True, **TOGETHER)
    assert classic.status == ss.Status.BLOCKED and classic.proof.kind == "structural"
    for name, extra in (("baroness-pysolfc", {}), ("baroness", TO_EMPTY)):
        r = ss.solve(name, d, check=True, **extra)
        assert r.won and any(m.pile for m in r.moves)
        assert ss.verify(name, d, r.moves, **extra).ok
    assert not ss.verify("baroness", d, r.moves).ok
    # A move onto an empty pile sent to another pile (one with cards, or none) is refused.
    i = next(k for k, m in enumerate(r.moves) if m.pile)
    for wrong in {1, 2, 3, 4, 5, 6} - {r.moves[i].pile}:
        tampered = [*r.moves[:i], Move.to_pile(r.moves[i].cards[0], wrong), *r.moves[i + 1:]]
        assert not ss.verify("baroness-pysolfc", d, tampered).ok


@pytest.mark.core
def test_last_deal_never_changes_the_verdict():
    """None exists of a deal that last_deal="together" blocks and our rules win: a line of ours
    plays the same under "together" with its eleventh deal dropped (the two cards apart come
    sooner, cover nothing and take no pile), and a line under "together" is one of ours with the
    eleventh deal played at once. So the verdicts agree on every deal; checked here on seeds."""
    verdicts = {"classic": [], "together": []}
    for seed in range(40):
        d = ss.random_deal(seed)
        verdicts["classic"].append(search(d.cards).status)
        spec = GAME.core_spec(d, GAME.variant(**TOGETHER), "decide", False)
        verdicts["together"].append(core().solve(spec, "decide", Limits(), False).status)
    assert verdicts["classic"] == verdicts["together"]
    assert "won" in verdicts["classic"] and "exhausted" in verdicts["classic"]


@pytest.mark.core
def test_proofs_under_pysolfcs_rules_check_and_tampering_is_caught():
    d = ss.random_deal(58)  # blocked, and the smallest unpruned search of seeds 0..59
    assert GAME.structural_proof(d, GAME.variant(**PRESET)) is None
    r = ss.solve("baroness-pysolfc", d, certificate=True)
    assert r.proof.kind == "exhaustive" and ss.verify("baroness-pysolfc", d, r).ok
    cert = r.proof.certificate
    start = rules_of(PRESET).key(rules_of(PRESET).start(d))
    assert start in cert and len(start) == 3
    torn = cert - {max(cert - {start}, key=repr)}  # keys hold None: order them as text
    assert not ss.verify("baroness-pysolfc", d, replace(r.proof, certificate=torn)).ok
    pruned = ss.solve("baroness-pysolfc", d)
    assert "docs/baroness.md" in pruned.proof.sentence and "pile holding" not in pruned.proof.sentence
    # A structural proof of our rules does not hold once cards move onto empty piles.
    seed = next(s for s in range(60) if GAME.structural_proof(ss.random_deal(s), {}))
    structural = ss.solve("baroness", ss.random_deal(seed)).proof
    assert ss.verify("baroness", ss.random_deal(seed), structural).ok
    assert ss.verify("baroness", ss.random_deal(seed), structural, **TOGETHER).ok
    assert not ss.verify("baroness-pysolfc", ss.random_deal(seed), structural).ok


@pytest.mark.core
def test_the_golden_pysolfc_numbers_solve_under_the_preset(capsys):
    """PySolFC's numbers deal its golden layouts, and `solve baroness-pysolfc --pysolfc N`
    answers under PySolFC's rules."""
    seen = 0
    for rec, piles, stock in golden_layouts():
        names = [CARD_NAMES[c] for c in ss.pysolfc_deal("baroness-pysolfc", rec["deal"]).cards]
        assert [p[0] for p in piles] == names[:5] and stock == names[5:], rec["deal"]
        seen += 1
    assert seen == 11
    rec = next(golden_layouts())[0]
    code = cli_main(["solve", "baroness-pysolfc", "--pysolfc", str(rec["deal"]), "--json"])
    out = capsys.readouterr()
    data = json.loads(out.out[out.out.index("{"):])
    assert data["pysolfc"]["rules"] == "baroness-pysolfc" and "note" not in out.err
    assert code == (0 if data["status"] == "won" else 1)
    # Named by our game, a PySolFC number is still solved under PySolFC's rules, and a note says
    # so; an option picks ours.
    cli_main(["solve", "baroness", "--pysolfc", str(rec["deal"]), "--json"])
    out = capsys.readouterr()
    assert "solving under `baroness-pysolfc`" in out.err and "not in this version" not in out.err
    assert json.loads(out.out[out.out.index("{"):])["variant"]["to_empty"] is True
    cli_main(["solve", "baroness", "-o", "to_empty=false", "--pysolfc", str(rec["deal"]),
              "--json"])
    out = capsys.readouterr()
    assert json.loads(out.out[out.out.index("{"):])["variant"]["to_empty"] is False


@pytest.mark.core
def test_the_core_refuses_a_packed_position_that_is_none():
    cards = ss.random_deal(1).cards
    for spec, aux in [({}, 1 << 4), ({"together": True}, 10), ({"to_empty": True}, 60 << 4),
                      ({"to_empty": True}, 11)]:
        spec = dict(spec, cards=list(cards))
        with pytest.raises(ValueError, match="no position has aux"):
            core().expand(spec, 0, aux)
        with pytest.raises(ValueError, match="no position has aux"):
            core().solve(dict(spec, root=(0, aux)), "decide", Limits(), False)


@pytest.mark.core
def test_the_core_refuses_removed_cards_that_are_no_position():
    """Beyond its aux (above), a word whose removed cards or moved cards are none of the deal's
    is refused at every entry (CHECKS_POSITIONS: contract.py)."""
    from core_calls import refused_everywhere

    cards = ss.random_deal(1).cards
    spec = {"cards": list(cards), "to_empty": True}
    for removed, aux, match in [(1 << cards[10], 0, "not dealt after 1 deals"),
                                (1 << 52, 10, "not dealt"),
                                (0, (cards[0] + 1) << 4, "on the pile it was dealt to"),
                                (0, (cards[49] + 1) << 4, "not dealt yet"),
                                ((1 << cards[1]) | (1 << cards[2]), 0, "do not pair up")]:
        refused_everywhere(core(), spec, removed, aux, match)


# -- the fresh-deal rule (baroness-pysolfc; docs/baroness.md, "The fresh-deal rule") -------------

def piles_at(cards, removed, aux):
    """(deals made, each pile bottom first) of the core's packed position under to_empty."""
    deals = (aux & 15) + 1
    k = min(deals, 10)
    moved = [((aux >> (4 + 6 * i)) & 63) - 1 for i in range(5)]
    gone = {m for m in moved if m >= 0}
    piles = []
    for i in range(5):
        p = [moved[i]] if moved[i] >= 0 else []
        p += [cards[5 * j + i] for j in range(k)
              if not removed >> cards[5 * j + i] & 1 and cards[5 * j + i] not in gone]
        piles.append(p)
    return deals, piles


def fresh_class(cards, removed, aux):
    """The rule's class of a position (None unless the card last dealt to each pile is its top
    and some pile holds a card under it): the removed cards, the deals, the piles holding two
    cards or more."""
    deals, piles = piles_at(cards, removed, aux)
    k = min(deals, 10)
    if deals < 2 or any(not p or p[-1] != cards[5 * (k - 1) + i] for i, p in enumerate(piles)):
        return None
    deep = tuple(len(p) > 1 for p in piles)
    return (removed, deals, deep) if any(deep) else None


def pruned_walk(spec, limit):
    """The positions the pruned search's moves reach from the start, depth first, up to limit."""
    seen, stack, out = {(0, 0)}, [(0, 0)], []
    while stack and len(out) < limit:
        r, a = stack.pop()
        out.append((r, a))
        _, children = core().step(spec, r, a)
        for _, r2, a2 in reversed(children):
            if (r2, a2) not in seen:
                seen.add((r2, a2))
                stack.append((r2, a2))
    return out


@pytest.mark.core
def test_fresh_deal_rule_is_sound_and_fires():
    """Positions of the pruned search grouped by the rule's class: wherever the rule cuts one,
    it cuts every other position of the class it is asked about, and the unpruned search finds
    each of them lost (PySolFC numbers where it fires, and random deals)."""
    rng = random.Random(45)
    fired = checked = 0
    packs = [ss.pysolfc_deal("baroness-pysolfc", n).cards for n in (60, 2, 18)]
    packs += [ss.random_deal(s).cards for s in range(6)]
    for cards in packs:
        spec = {"cards": list(cards), "together": True, "to_empty": True, "prune": True}
        classes = {}
        for r, a in pruned_walk(spec, 20_000):
            key = fresh_class(cards, r, a)
            if key is not None:
                classes.setdefault(key, []).append((r, a))
        groups = [g for g in classes.values() if len(g) > 1]
        for group in rng.sample(groups, min(12, len(groups))):
            members = rng.sample(group, min(3, len(group)))
            verdicts = {core().fresh_rule(cards, r, a) for r, a in members}
            assert len(verdicts) == 1, members
            if verdicts == {True}:
                fired += 1
                for r, a in members:
                    full = core().solve(dict(spec, prune=False, root=(r, a)), "decide",
                                        Limits(max_states=300_000), False)
                    assert full.status != "won", (r, a)
                    checked += full.status == "exhausted"
    assert fired >= 10 and checked >= 10


@pytest.mark.core
def test_the_fresh_deal_rule_decides_a_deal_the_search_without_it_cannot():
    """PySolFC number 57 (blocked): within a million positions with the rule, not without it
    (the unpruned search needs 261 million, docs/baroness.md)."""
    var = GAME.variant(**PRESET)
    spec = GAME.core_spec(ss.pysolfc_deal("baroness-pysolfc", 57), var, "decide", False)
    on = core().solve(spec, "decide", Limits(max_states=1_000_000), False)
    off = core().solve(dict(spec, fresh=False), "decide", Limits(max_states=1_000_000), False)
    assert on.status == "exhausted" and on.stats["fresh_searches"] > 0
    assert "limit" in off.status


# -- alike positions share the table's key (baroness-pysolfc; docs/baroness.md, "Alike") ---------

def alike_class(cards, removed, aux, together):
    """The class of docs/baroness.md's alike rule, from the piles and the values alone: the
    deals, each pile's values bottom up, the values of the cards laid apart left; after the
    last deal the piles' values in any order (with more than 24 cards on the piles, only the
    piles of one card in any order)."""
    deals, piles = piles_at(cards, removed, aux)
    last = 10 if together else 11
    apart = tuple(sorted(c % 13 for c in cards[50:] if deals >= last and not removed >> c & 1))
    values = [tuple(c % 13 for c in p) for p in piles]
    if deals < last:
        return deals, tuple(values), apart
    if sum(map(len, piles)) <= 24:
        return deals, tuple(sorted(values)), apart
    stacks = frozenset((i, v) for i, v in enumerate(values) if len(v) > 1)
    return deals, stacks, tuple(sorted(v for v in values if len(v) == 1)), apart


@pytest.mark.core
@pytest.mark.parametrize("together", [True, False])
def test_alike_positions_and_only_they_share_a_key_and_win_alike(together):
    """Positions of the pruned search on PySolFC numbers and random deals: two share the core's
    table key exactly when they are alike (the class computed here from the piles' values),
    and alike positions that differ have one verdict under the unpruned search (which keys
    every position apart)."""
    rng = random.Random(46)
    merged = checked = spelt = 0
    packs = [ss.pysolfc_deal("baroness-pysolfc", n).cards for n in (60, 2, 18)]
    packs += [ss.random_deal(s).cards for s in range(4)]
    for cards in packs:
        spec = {"cards": list(cards), "together": together, "to_empty": True, "prune": True}
        keys, classes = {}, {}
        for r, a in pruned_walk(spec, 15_000):
            key = core().table_key(cards, r, a, together)
            spelt += key[1] >> 62 & 1  # after the last deal, the piles' values spelt out
            keys.setdefault(key, set()).add(alike_class(cards, r, a, together))
            classes.setdefault(alike_class(cards, r, a, together), []).append((r, a))
        assert all(len(c) == 1 for c in keys.values())
        assert len(keys) == len(classes)
        groups = [g for g in classes.values() if len(g) > 1]
        merged += len(groups)
        for group in rng.sample(groups, min(6, len(groups))):
            verdicts = {core().solve(dict(spec, prune=False, root=p), "decide",
                                     Limits(max_states=200_000), False).status
                        for p in rng.sample(group, 2)}
            if not any("limit" in v for v in verdicts):
                assert len(verdicts) == 1, group
                checked += 1
    assert merged >= 20 and checked >= 10 and spelt >= 100


@pytest.mark.core
def test_the_alike_rule_decides_a_deal_the_search_without_it_cannot():
    """PySolFC number 9 (blocked): within 1.5 million positions with alike positions keyed as
    one, not without (1.84 million, docs/baroness.md)."""
    var = GAME.variant(**PRESET)
    spec = GAME.core_spec(ss.pysolfc_deal("baroness-pysolfc", 9), var, "decide", False)
    on = core().solve(spec, "decide", Limits(max_states=1_500_000), False)
    off = core().solve(dict(spec, alike=False), "decide", Limits(max_states=1_500_000), False)
    assert on.status == "exhausted"
    assert "limit" in off.status
