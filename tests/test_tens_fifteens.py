"""Tens (both quartet rules), Fifteens and Block Elevens: the slot core against the reference
rules, the order of play, Fifteens' group generator against a brute force, Block Elevens' deal,
proofs and their tampering, the batch path, PySolFC's layouts, the command line."""

from __future__ import annotations

import dataclasses
import json
import random
from itertools import product
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import solitaire_solver as ss
from solitaire_solver import cli
from solitaire_solver.cards import card_index, pretty, value
from solitaire_solver.engine.contract import Limits
from solitaire_solver.engine.search import reference_search
from solitaire_solver.games import get_game
from solitaire_solver.games.slots import _core as _slots
from solitaire_solver.games.slots.blockelevens import pack_as_dealt
from solitaire_solver.games.slots.tables import SlotTable, slot_table, sum_groups
from solitaire_solver.moves import Move

pytestmark = pytest.mark.core

#: Every game and variant of this file; the order-independent ones first.
CONFLUENT = [("tens", {}), ("tens", {"quartets": "rank"}), ("block-elevens", {}),
             ("block-elevens", {"later": "while"}), ("block-elevens", {"later": "none"})]
ALL_CASES = CONFLUENT + [("fifteens", {})]
GOLDEN = Path(__file__).parent / "data" / "pysolfc-layouts"
deals = st.permutations(range(52)).map(ss.Deal)


def ids(case):
    name, var = case
    return name + "".join(f"-{k}={v}" for k, v in var.items())


def game_of(case):
    name, var = case
    g = get_game(name)[0]
    return g, g.variant(**var)


def core_run(case, deal, mode, certificate=False, root=None):
    """The slot core's search of a deal in one move mode (the contract's solve)."""
    g, var = game_of(case)
    spec = dict(g.core_spec(deal, var, "decide", certificate), mode=mode)
    if root is not None:
        spec["root"] = root
    return _slots.solve(spec, "decide", Limits(), certificate)


def reference_verdict(case, deal, pos=None):
    g, var = game_of(case)
    rules = g.rules(var)
    out = reference_search(rules, rules.start(deal) if pos is None else pos)
    assert out.status in ("won", "exhausted")
    return out.status


def C(text: str) -> list[int]:
    return [card_index(t) for t in text.split()]


def pack_starting(text: str) -> ss.Deal:
    """A deal whose first cards are these, the rest of the pack after them in index order."""
    first = C(text)
    return ss.Deal(first + [c for c in range(52) if c not in first])


def first_deal(case, status, start=0):
    name, var = case
    for seed in range(start, start + 3000):
        r = ss.solve(name, ss.random_deal(seed), **var)
        if r.status is status:
            return ss.random_deal(seed), r
    raise AssertionError(f"no {status} deal")


# -- the registry, variants, tables ---------------------------------------------------------------

def test_games_and_variants_are_registered():
    tens = get_game("tens")[0]
    assert tens.options["quartets"].choices == ("suit", "rank")
    assert tens.options["quartets"].default == "suit"
    assert tens.table_of({"quartets": "rank"}) is slot_table("tens", quartets="rank")
    assert tens.table_of({}) is slot_table("tens")
    assert get_game("block_elevens")[0].name == "block-elevens"
    assert get_game("block-elevens")[0].options["later"].choices == ("once", "while", "none")
    assert get_game("Fifteen")[0].name == "fifteens"
    d = ss.random_deal(5)
    assert ss.solve("tens", d, quartets="rank").variant == {"quartets": "rank", "reserves": "none"}
    assert ss.solve("tens", d).variant == {"quartets": "suit", "reserves": "none"}
    with pytest.raises(ss.VariantError, match="'pairs' is not one of suit, rank"):
        ss.solve("tens", d, quartets="pairs")
    with pytest.raises(ss.VariantError, match="no variant 'quartets'"):
        ss.solve("fifteens", d, quartets="rank")


def test_order_independence_as_the_tables_state_it():
    for case in CONFLUENT:
        g, var = game_of(case)
        assert g.table_of(var).confluent and g.compiled(_slots, var).confluent
        assert g.batch(var) is not None
    g, var = game_of(("fifteens", {}))
    assert not g.table_of(var).confluent and not g.compiled(_slots, var).confluent
    assert g.batch(var) is None and not g.order_independent


def test_sum_groups_are_the_rank_multisets_totalling_15():
    groups = sum_groups(15, tuple(range(1, 10)))
    # every vector of counts (at most four cards of a rank, none above the total)
    brute = {sum(((r,) * n for r, n in zip(range(1, 10), counts)), ())
             for counts in product(*(range(min(4, 15 // r) + 1) for r in range(1, 10)))
             if sum(r * n for r, n in zip(range(1, 10), counts)) == 15}
    assert set(groups) == brute and len(groups) == len(brute) == 109


def test_bad_tables_are_refused():
    base = dict(name="x", aliases=(), summary="", slots=9, columns=3, rules="m:C",
                stuck_clause="", removal_rule="")
    with pytest.raises(ValueError, match="no group of ranks"):
        SlotTable(**base, kinds=(), sums=((200, (1, 2)),), never=tuple(range(1, 14)))
    with pytest.raises(ValueError, match="bottom_later without bottom"):
        SlotTable(**base, kinds=((1, 10),), never=tuple(range(2, 14)), bottom_later="once")
    # The core's per-multiset search needs suits to play no part for a sum's ranks.
    with pytest.raises(ValueError, match="shares a rank with a suited kind"):
        _slots.SlotSpec(16, (), ((9, 10),), (), sums=((15, (1, 2, 9)),))
    with pytest.raises(ValueError, match="more cards than the stock"):
        _slots.SlotSpec(16, ((1, 10),), (), (), bottom=tuple(range(1, 11)))


# -- the core against the reference rules ---------------------------------------------------------

@pytest.mark.parametrize("case", ALL_CASES, ids=ids)
def test_core_verdicts_equal_the_reference_search(case):
    name, var = case
    n = {"tens": 120, "block-elevens": 20, "fifteens": 60}[name]
    for seed in range(n):
        d = ss.random_deal(seed)
        r = ss.solve(name, d, **var)
        assert (r.won, r.blocked) == (reference_verdict(case, d) == "won",
                                      reference_verdict(case, d) == "exhausted"), seed


@pytest.mark.parametrize("case", CONFLUENT, ids=ids)
def test_forced_line_decides_like_every_line(case):
    """The order of play does not matter (docs/proofs.md): one forced line decides as searches
    over every removal (ALL) and over one removal per rank multiset (PER_KIND) do."""
    n = 2500 if case[0] == "block-elevens" else 5000
    seen = set()
    for seed in range(n):
        d = ss.random_deal(seed)
        statuses = {core_run(case, d, m).status
                    for m in (_slots.MODE_FORCED, _slots.MODE_PER_KIND, _slots.MODE_ALL)}
        assert len(statuses) == 1, seed
        seen |= statuses
    assert seen == {"won", "exhausted"}


@pytest.mark.parametrize("case", CONFLUENT, ids=ids)
def test_core_forced_line_is_the_references(case):
    """The core's forced line replays under the reference rules to the very position it reports
    (slots included), and the reference's own forced line ends alike up to suits."""
    g, var = game_of(case)
    rules = g.rules(var)
    for seed in range(400):
        d = ss.random_deal(seed)
        run = core_run(case, d, _slots.MODE_FORCED)
        pos = rules.start(d)
        for w in run.path:
            pos = rules.play(pos, Move.from_code(w))
        if run.status == "exhausted":
            assert (pos.removed, pos.slots) == run.end, seed
            assert rules.moves(pos) == []
        else:
            assert rules.won(pos), seed
        _, ref = g.forced_line(d, var)
        assert len(ref.stock) == len(pos.stock) and rules.won(ref) == rules.won(pos), seed
        assert sorted(c % 13 for c in ref.showing) == sorted(c % 13 for c in pos.showing), seed


def test_fifteens_exact_pruning_agrees_with_every_removal():
    """PER_KIND (one group per rank multiset: number cards' suits never matter) decides as the
    search over every group does, from the deal and from mid-game positions, while it explores
    fewer positions."""
    case = ("fifteens", {})
    g, var = game_of(case)
    rules = g.rules(var)
    rng = random.Random(3)
    fewer = 0
    for seed in range(400):
        d = ss.random_deal(seed)
        kind, every = (core_run(case, d, m) for m in (_slots.MODE_PER_KIND, _slots.MODE_ALL))
        assert kind.status == every.status, seed
        fewer += kind.stats["states"] < every.stats["states"]
        pos = rules.start(d)
        for _ in range(rng.randrange(1, 6)):
            moves = rules.moves(pos)
            if not moves:
                break
            pos = rules.apply(pos, rng.choice(moves))
        root = g.core_position(pos, var)
        a, b = (core_run(case, d, m, root=root) for m in (_slots.MODE_PER_KIND, _slots.MODE_ALL))
        assert a.status == b.status, seed
    assert fewer > 200          # the rule prunes on most deals (289 of these 400)


def test_fifteens_order_of_play_matters():
    """A counterexample to order-independence: the forced line of deal 1 ends stuck, yet the
    deal is won; the reference rules confirm both."""
    case = ("fifteens", {})
    g, var = game_of(case)
    rules = g.rules(var)
    d = ss.random_deal(1)
    line, end = g.forced_line(d, var)
    assert not rules.won(end) and rules.moves(end) == []
    r = ss.solve("fifteens", d)
    assert r.won and ss.verify("fifteens", d, r).ok
    assert core_run(case, d, _slots.MODE_FORCED).status == "exhausted"
    # and a forced-line "proof" is refused for this game
    proof = ss.BlockProof(kind="forced-line", sentence="", moves=tuple(line))
    v = ss.verify("fifteens", d, proof)
    assert not v.ok and "order of play matters" in v.reason


# -- Fifteens' group generator --------------------------------------------------------------------

def brute_force_groups(showing):
    """Every subset of the showing number cards totalling 15, and the T-J-Q-K of one suit."""
    numbers = [c for c in showing if value(c) <= 9]
    out = set()
    for bits in range(1, 1 << len(numbers)):
        group = [c for i, c in enumerate(numbers) if bits >> i & 1]
        if sum(value(c) for c in group) == 15:
            out.add(tuple(sorted(group)))
    for s in range(4):
        quartet = tuple(13 * s + v - 1 for v in (10, 11, 12, 13))
        if all(c in showing for c in quartet):
            out.add(quartet)
    return out


def fifteens_positions(count, seed=0):
    rules = get_game("fifteens")[0].rules({})
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        d = ss.random_deal(rng.randrange(10**9))
        pos = rules.start(d)
        for _ in range(rng.randrange(0, 8)):
            moves = rules.moves(pos)
            if not moves:
                break
            pos = rules.apply(pos, rng.choice(moves))
        out.append((d, pos))
    return out


def expand_groups(deal, pos, mode):
    g = get_game("fifteens")[0]
    spec = dict(g.core_spec(deal, {}, "decide", False), expand_mode=mode)
    return [Move.from_code(w).cards for w, _, _ in _slots.expand(spec, pos.removed, 0)]


def check_generator(deal, pos):
    rules = get_game("fifteens")[0].rules({})
    want = brute_force_groups(pos.showing)
    every = expand_groups(deal, pos, _slots.MODE_ALL)
    assert len(every) == len(set(every)), "a group listed twice"
    assert set(every) == want
    ref = [m.cards for m in rules.moves(pos)]
    assert len(ref) == len(set(ref)) and set(ref) == want
    # PER_KIND: one group per rank multiset, of the lowest-index showing cards of each rank.
    # The suit quartets are listed one per suit in both modes.
    per_kind = expand_groups(deal, pos, _slots.MODE_PER_KIND)
    numbers = [grp for grp in per_kind if value(grp[0]) <= 9]
    assert set(per_kind) - set(numbers) == {grp for grp in want if value(grp[0]) >= 10}
    multisets = [tuple(sorted(value(c) for c in grp)) for grp in numbers]
    assert len(multisets) == len(set(multisets))
    assert set(multisets) == {tuple(sorted(value(c) for c in grp)) for grp in want
                              if value(grp[0]) <= 9}
    for grp in numbers:
        for c in grp:
            lower = [x for x in pos.showing if value(x) == value(c) and x < c]
            assert all(x in grp for x in lower), grp
    return len(every)


def test_fifteens_groups_equal_a_brute_force_over_every_subset():
    sizes = [check_generator(d, pos) for d, pos in fifteens_positions(300)]
    # positions with no group, and positions with many, were compared
    assert min(sizes) == 0 and max(sizes) >= 20


def test_fifteens_generator_at_its_largest():
    """Four Aces, Twos, Threes and Fours showing: 3,176 groups total 15, the most any sixteen
    cards allow; the core lists each once, within the bound it allocates for."""
    d = pack_starting("AC AD AH AS 2C 2D 2H 2S 3C 3D 3H 3S 4C 4D 4H 4S")
    pos = get_game("fifteens")[0].rules({}).start(d)
    assert check_generator(d, pos) == 3176
    every, per_kind = get_game("fifteens")[0].compiled(_slots).max_moves
    assert 3176 < every and per_kind >= 109
    # Two suit quartets; three of the four Fives (4 ways), a Five with 6C and 4C (4), 6C with
    # either Nine (2): 12 removals.
    d = pack_starting("TC JC QC KC TD JD QD KD 5C 5D 5H 5S 6C 4C 9C 9D")
    pos = get_game("fifteens")[0].rules({}).start(d)
    assert check_generator(d, pos) == 12


@given(deal=deals)
def test_fifteens_generator_on_hypothesis_deals(deal):
    check_generator(deal, get_game("fifteens")[0].rules({}).start(deal))


# -- Block Elevens' deal ----------------------------------------------------------------------------

def test_block_elevens_courts_in_the_layout_go_to_the_bottom():
    # Pile 0 shows KS, then JD from the pack (a court again), then 2D; pile 3 shows QH, then 3D.
    d = ss.Deal(C("KS 2C 3C QH 4C 5C 6C 7C 8C 9C TC AD JD 2D 3D") + [
        c for c in range(52) if c not in C("KS 2C 3C QH 4C 5C 6C 7C 8C 9C TC AD JD 2D 3D")])
    dealt = pack_as_dealt(d.cards)
    assert dealt[:12] == tuple(C("2D 2C 3C 3D 4C 5C 6C 7C 8C 9C TC AD"))
    assert dealt[-3:] == tuple(C("KS JD QH"))
    assert sorted(dealt) == list(range(52))
    rules = get_game("block-elevens")[0].rules({})
    assert rules.start(d).slots == dealt[:12]
    table = get_game("block-elevens")[0].compiled(_slots)
    assert _slots.dealt_pack(table, list(d.cards)) == list(dealt)


def test_block_elevens_without_courts_the_first_later_one_goes_once():
    first = C("AC 2C 3C 4C 5C 6C 7C 8C 9C TC AD 2D 3D 4D QS KS 5D")
    d = ss.Deal(first + [c for c in range(52) if c not in first])
    g = get_game("block-elevens")[0]
    dealt = pack_as_dealt(d.cards)
    # QS (pack position 14) goes under; KS, the next court, is dealt where it is.
    assert dealt[:14] == tuple(first[:14]) and dealt[14] == card_index("KS")
    assert dealt[-1] == card_index("QS") and len(dealt) == 52
    assert g.pack(d, g.variant()) == dealt
    # later=while: KS, dealt in its place, goes too; later=none: nothing moves.
    assert g.pack(d, g.variant(later="while"))[14] == card_index("5D")
    assert g.pack(d, g.variant(later="while"))[-2:] == tuple(C("QS KS"))
    assert g.pack(d, g.variant(later="none")) == d.cards
    for later in ("once", "while", "none"):
        table = g.compiled(_slots, {"later": later})
        assert _slots.dealt_pack(table, list(d.cards)) == list(g.pack(d, {"later": later}))


@pytest.mark.parametrize("later", ["once", "while", "none"])
def test_block_elevens_deal_rule_core_equals_reference(later):
    table = get_game("block-elevens")[0].compiled(_slots, {"later": later})
    moved_later = 0
    for seed in range(20000):
        cards = ss.random_deal(seed).cards
        dealt = pack_as_dealt(cards, 12, later)
        assert _slots.dealt_pack(table, list(cards)) == list(dealt), seed
        assert all(value(c) <= 10 for c in dealt[:12])
        moved_later += dealt[12:] != cards[12:] and all(value(c) <= 10 for c in cards[:12])
    # the rule for a layout without courts is exercised (and moves nothing with later=none)
    assert (moved_later > 100) == (later != "none")


def test_block_elevens_is_won_when_the_pack_is_dealt():
    case = ("block-elevens", {})
    d, r = first_deal(case, ss.Status.WON)
    rules = get_game("block-elevens")[0].rules({})
    pos = rules.start(d)
    for m in r.moves:
        pos = rules.play(pos, m)
    assert not pos.stock and len(r.moves) == 20
    assert sorted(value(c) for c in pos.showing) == [11] * 4 + [12] * 4 + [13] * 4
    b, rb = first_deal(case, ss.Status.BLOCKED)
    assert rb.proof.sentence.startswith(f"stuck after {len(rb.proof.moves)} covering moves with ")
    assert " showing: no two number cards on top of the piles total 11;" in rb.proof.sentence


# -- answers, proofs and tampering ----------------------------------------------------------------

@pytest.mark.parametrize("case", ALL_CASES, ids=ids)
def test_every_answer_checks(case):
    name, var = case
    seen = set()
    blocked_checked = 0
    for seed in range(150):
        d = ss.random_deal(seed)
        r = ss.solve(name, d, **var)
        seen.add(r.status)
        if r.won:
            assert ss.verify(name, d, r, **var).ok, seed
            assert ss.verify(name, d, [str(m) for m in r.moves], **var).ok, seed
        elif name != "fifteens" or r.stats["states"] < 500:
            # (a Fifteens block is checked by re-searching it in Python: the small ones here)
            v = ss.verify(name, d, r, **var)
            assert v.ok, (seed, v.reason)
            blocked_checked += 1
    assert seen == {ss.Status.WON, ss.Status.BLOCKED} and blocked_checked


@pytest.mark.parametrize("case", CONFLUENT, ids=ids)
def test_tampered_forced_line_proofs_are_rejected(case):
    name, var = case
    d, r = first_deal(case, ss.Status.BLOCKED)
    p = r.proof
    assert p.kind == "forced-line" and ss.verify(name, d, r, **var).ok
    if p.moves:
        assert not ss.verify(name, d, dataclasses.replace(p, moves=p.moves[:-1]), **var).ok
    assert not ss.verify(name, d, dataclasses.replace(p, sentence=p.sentence + "!"), **var).ok
    assert not ss.verify(name, d, dataclasses.replace(p, position="x"), **var).ok
    details = dict(p.details, stock_left=p.details["stock_left"] + 1)
    assert not ss.verify(name, d, dataclasses.replace(p, details=details), **var).ok
    wd, wr = first_deal(case, ss.Status.WON)
    v = ss.verify(name, wd, dataclasses.replace(p, moves=wr.moves[:2]), **var)
    assert not v.ok
    claim = ss.BlockProof(kind="exhaustive", sentence="forged")
    v = ss.verify(name, wd, claim, **var)
    assert not v.ok and "can be won" in v.reason


def test_a_result_is_checked_under_the_callers_variant():
    d, r = first_deal(("tens", {"quartets": "rank"}), ss.Status.WON)
    assert ss.verify("tens", d, r, quartets="rank").ok
    # A result found under the rank rule is not an answer for the suit rule: a mismatch naming both.
    v = ss.verify("tens", d, r)
    assert not v.ok and "rank" in v.reason and "suit" in v.reason
    # Every won line of the rank rule removes four Tens together, which the suit rule refuses.
    line = [str(m) for m in r.moves]
    assert ss.verify("tens", d, line, quartets="rank").ok
    v = ss.verify("tens", d, line)
    assert not v.ok and "of one suit, leave together" in v.reason


def test_fifteens_blocks_are_exhaustive_and_certificates_check():
    case = ("fifteens", {})
    for seed in range(200):
        d = ss.random_deal(seed)
        r = ss.solve("fifteens", d)
        if r.blocked and r.stats["states"] < 400:
            break
    else:
        raise AssertionError("no small Fifteens block")
    assert r.proof.kind == "exhaustive" and "docs/fifteens.md" in r.proof.sentence
    rc = ss.solve("fifteens", d, certificate=True)
    cert = rc.proof.certificate
    assert rc.blocked and cert and ss.verify("fifteens", d, rc).ok
    # The certificate holds every position reachable by any group: more than the pruned search.
    assert len(cert) >= r.stats["states"]
    exhaustive = ss.BlockProof(kind="exhaustive", sentence="", certificate=cert)
    for k in sorted(cert)[:4]:
        assert not ss.verify("fifteens", d, dataclasses.replace(exhaustive,
                                                                certificate=cert - {k})).ok
    wd, _ = first_deal(case, ss.Status.WON)
    assert not ss.verify("fifteens", wd, exhaustive).ok


@pytest.mark.parametrize("case", ALL_CASES, ids=ids)
@given(deal=deals)
def test_hypothesis_deals(case, deal):
    name, var = case
    r = ss.solve(name, deal, **var)
    every = core_run(case, deal, _slots.MODE_ALL)
    assert every.status == ("won" if r.won else "exhausted")
    if name == "tens":
        assert reference_verdict(case, deal) == every.status
    if r.won or name != "fifteens":
        assert ss.verify(name, deal, r, **var).ok


# -- the batch path -----------------------------------------------------------------------------

@pytest.mark.parametrize("case", CONFLUENT, ids=ids)
def test_batch_verdicts_equal_solve(case):
    name, var = case
    g, v = game_of(case)
    n, start = 3000, -100
    status, left, moves, states = (bytearray(n) for _ in range(4))
    _slots.decide_seeds(g.compiled(_slots, v), start, n, status, left, moves, states)
    for i in range(n):
        # the batch takes any seed, as random.Random does (-n deals seed n's pack)
        r = ss.solve(name, ss.random_deal(abs(start + i)), **var)
        assert (status[i] == _slots.BATCH_WON) == r.won, start + i
        assert states[i] == r.stats["states"], start + i
        if r.won:
            assert (moves[i], left[i]) == (len(r.moves), 0)
        else:
            assert (moves[i], left[i]) == (len(r.proof.moves), r.proof.details["cards_left"])
    # decide_deals takes the deals themselves (Block Elevens' deal rule applied in the core)
    flat = b"".join(bytes(ss.random_deal(abs(start + i)).cards) for i in range(n))
    s2, l2, m2, t2 = (bytearray(n) for _ in range(4))
    _slots.decide_deals(g.compiled(_slots, v), memoryview(flat).cast("B", (n, 52)), s2, l2, m2, t2)
    assert (s2, l2, m2, t2) == (status, left, moves, states)


def test_surveys_take_the_batch_path_except_fifteens():
    r = ss.survey("tens", seeds=range(2000), workers=1, quartets="rank")
    assert r.path == "batch"
    assert r.won == sum(ss.solve("tens", ss.random_deal(s), quartets="rank").won
                        for s in range(2000))
    r = ss.survey("block-elevens", seeds=range(1000), workers=1)
    assert r.path == "batch"
    r = ss.survey("fifteens", seeds=range(40), workers=1)
    assert r.path == "generic" and r.unknown == 0
    assert r.won == sum(ss.solve("fifteens", ss.random_deal(s)).won for s in range(40))


# -- layouts, render, PySolFC ---------------------------------------------------------------------

def test_render_rows():
    d = ss.random_deal(2)
    tens = get_game("tens")[0].rules({})
    lines = tens.render(tens.start(d)).splitlines()
    assert [len(line.split()) for line in lines[:2]] == [7, 6]
    assert lines[2] == f"stock: 39 cards, next {pretty(d.cards[13])}"
    fif = get_game("fifteens")[0].rules({})
    assert [len(line.split()) for line in fif.render(fif.start(d)).splitlines()[:4]] == [4] * 4
    be = get_game("block-elevens")[0].rules({})
    assert [len(line.split()) for line in be.render(be.start(d)).splitlines()[:3]] == [4] * 3


def golden(name):
    path = GOLDEN / name
    if not path.exists():
        pytest.skip(f"{path} not present")
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("file,game,slots", [("916-tens.jsonl", "tens", 13),
                                             ("597-fifteens.jsonl", "fifteens", 16)])
def test_pysolfc_layouts_are_our_deal_order(file, game, slots):
    """PySolFC deals Tens and Fifteens as we do: row i is the i-th card dealt, the talon then
    deals its top card first. So the pack its layout implies, dealt by our rules, shows its rows
    slot for slot (drawn in its row shape) and keeps its talon in order. Only the deal is
    compared: PySolFC plays other rules (reserves that collect cards), so not the outcomes."""
    records = golden(file)
    assert len(records) == 11
    g = get_game(game)[0]
    rules = g.rules({})
    for rec in records:
        rows = [s["cards"] for s in sorted((s for s in rec["stacks"] if s["kind"] == "rows"),
                                           key=lambda s: s["index"])]
        talon = next(s["cards"] for s in rec["stacks"] if s["kind"] == "talon")
        assert len(rows) == slots and all(len(r) == 1 for r in rows)
        pack = " ".join([r[0] for r in rows] + talon[::-1])
        pos = rules.start(g.read_deal(pack, {}))
        assert [ss.card_name(c) for c in pos.slots] == [r[0] for r in rows]
        assert [ss.card_name(c) for c in pos.stock] == talon[::-1]
        assert ss.solve(game, pack).status in (ss.Status.WON, ss.Status.BLOCKED)


# -- command line ---------------------------------------------------------------------------------

def test_cli_solves_the_new_games(capsys):
    assert cli.main(["solve", "tens", "--seed", "3", "-o", "quartets=rank"]) in (0, 1)
    out = capsys.readouterr().out
    assert "stock: 39 cards" in out
    code = cli.main(["solve", "block-elevens", "--seed", "1", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert (code, data["status"]) in ((0, "won"), (1, "blocked"))
    assert cli.main(["solve", "fifteens", "--seed", "2"]) == 1
    assert "BLOCKED: no line of play wins" in capsys.readouterr().out
    assert cli.main(["games"]) == 0
    out = capsys.readouterr().out
    for name in ("tens", "fifteens", "block-elevens"):
        assert f"\n{name}  (aliases" in out
    assert "variant quartets=suit|rank (default suit)" in out
    assert cli.main(["solve", "tens", "--seed", "3", "-o", "quartets=both"]) == 3
