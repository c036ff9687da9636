"""Montana (Gaps): the deal and the redeal's shuffle (PySolFC's golden layouts), layout text,
notation, reference rules, the core against the reference (small ranks), lines and proofs."""

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lines import random_moves

import solitaire_solver as ss
from solitaire_solver.cards import CARD_NAMES, card_index, value
from solitaire_solver.engine.backend import core_module
from solitaire_solver.engine.contract import Limits
from solitaire_solver.engine.search import reference_search
from solitaire_solver.errors import DealError, LayoutError, MoveError, VariantError
from solitaire_solver.games import get_game, resolve
from solitaire_solver.games.montana.game import place_words
from solitaire_solver.games.montana.rules import (
    MontanaPosition,
    MontanaRules,
    game_cards,
    layout_text,
)
from solitaire_solver.moves import Move
from solitaire_solver.proofs import check_certificate

GAME, _ = get_game("montana")
GOLDEN = Path(__file__).resolve().parent / "data" / "pysolfc-layouts" / "53-montana.jsonl"
REDEAL = Move(word="redeal")


def core():
    return core_module(GAME.core)


def golden():
    return [json.loads(line) for line in GOLDEN.read_text().splitlines() if line.strip()]


def rows_of(rec):
    rows = sorted((s for s in rec["stacks"] if s["kind"] == "rows"), key=lambda s: s["index"])
    return tuple(card_index(s["cards"][0]) if s["cards"] else None for s in rows)


def play_after(rules, pos, after):
    """The moves a golden line did after the deal: `redeal`, or PySolFC's hint of one card."""
    for a in after:
        if a == "redeal":
            pos = rules.play(pos, REDEAL)
        else:
            card = card_index(a.split()[1])
            (m,) = [m for m in rules.moves(pos) if m.cards == (card,)]
            pos = rules.play(pos, m)
    return pos


# -- the deal and PySolFC's redeals ----------------------------------------------------------------

def test_pysolfc_golden_layouts_deal_and_redeal_card_for_card():
    """Every golden line (the deal, one and two redeals, a hint's move then a redeal) is what our
    reference rules reach from ss.pysolfc_deal under montana-pysolfc."""
    g, given_ = resolve("montana-pysolfc", {})
    assert g.name == "montana" and given_["redeals"] == 2
    rules = GAME.rules(given_)
    kinds = set()
    for rec in golden():
        pos = play_after(rules, rules.start(ss.pysolfc_deal(53, rec["deal"])), rec.get("after") or [])
        assert pos.places == rows_of(rec), (rec["deal"], rec.get("after"))
        kinds.add(tuple(a.split()[0] for a in rec.get("after") or []))
    assert kinds == {(), ("redeal",), ("redeal", "redeal"), ("hint:",), ("hint:", "redeal")}


@pytest.mark.core
def test_the_core_redeals_as_the_reference_for_pysolfc_numbers_and_seeds():
    var = GAME.variant(redeals=2)
    rules = GAME.rules(var)
    deals = [ss.pysolfc_deal(53, n) for n in (1, 2, 31999, 32000, 123456789012, "ms4294967295")]
    deals += [ss.random_deal(s) for s in (0, 1, 2**32 + 5, 2**70)]
    for deal in deals:
        spec = GAME.core_spec(deal, var, "decide", False)
        pos, x = rules.start(deal), GAME.core_position(rules.start(deal), var)
        for _ in range(2):
            (after,) = [(r, a) for w, r, a in core().expand(spec, *x) if w == REDEAL.code]
            pos = rules.apply(pos, REDEAL)
            assert GAME.certificate_key(*after, var) == rules.key(pos), deal.origin
            x = after
        assert REDEAL not in rules.moves(pos)


def test_seeded_deal_of_fewer_ranks_shuffles_those_cards():
    for seed in range(5):
        for ranks in (4, 9, 13):
            pack = game_cards(ranks)
            random.Random(seed).shuffle(pack)
            pos = MontanaRules(ranks).start(ss.random_deal(seed))
            assert pos.places == tuple(None if value(c) == 1 else c for c in pack)
    # a deal given by its cards: its cards of those ranks in its order
    d = ss.Deal(list(range(52)))
    assert MontanaRules(4).start(d).places[:5] == (None, 1, 2, 3, None)


def test_redeals_need_the_deals_generator():
    text = str(ss.random_deal(3))
    with pytest.raises(DealError, match="seed or its PySolFC number"):
        ss.solve("montana", text, redeals=1)
    assert ss.random_deal(3).origin == ("seed", 3) and ss.Deal(text).origin is None
    assert ss.Deal(text) == ss.random_deal(3)
    with pytest.raises(VariantError):
        GAME.variant(ranks=3)
    with pytest.raises(VariantError):
        GAME.variant(redeals=9)


def test_a_seeded_redeal_continues_the_seeds_generator():
    """RULES.md: the same random.Random(seed) that shuffled the pack shuffles the gathered list;
    a second redeal continues it after the first (whose list's length it consumed)."""
    seed = 11
    rules = MontanaRules(13, 2)
    pos = rules.start(ss.random_deal(seed))
    one = rules.apply(pos, REDEAL)
    two = rules.apply(one, REDEAL)
    rng = random.Random(seed)
    rng.shuffle(list(range(52)))
    for before, after in ((pos, one), (one, two)):
        # no row starts with a Two here, so every card is gathered, rows from the top
        assert all(before.places[13 * r] is None or value(before.places[13 * r]) != 2
                   for r in range(4))
        gathered = [c for c in before.places if c is not None]
        rng.shuffle(gathered)
        assert [c for c in after.places if c is not None] == gathered
        assert [after.places[13 * r] for r in range(4)] == [None] * 4
    assert two.lengths == (48, 48) and REDEAL not in rules.moves(two)


# -- layout text and notation --------------------------------------------------------------------

def test_layout_text_round_trips_and_bad_layouts_name_the_place():
    for seed, ranks in ((0, 13), (1, 13), (2, 6), (3, 4)):
        rules = MontanaRules(ranks)
        start = rules.start(ss.random_deal(seed))
        text = rules.render(start)
        assert len(text.splitlines()) == 4 and text.count("--") == 4
        d = GAME.read_deal(text, {"ranks": ranks})
        assert rules.start(d).places == start.places
    lines = layout_text(MontanaRules().start(ss.random_deal(5)).places, 13).splitlines()
    with pytest.raises(LayoutError, match="4 rows"):
        GAME.read_deal("\n".join(lines[:3]), {})
    with pytest.raises(LayoutError, match="line 2 .row 2. has 12 places"):
        GAME.read_deal("\n".join([lines[0], " ".join(lines[1].split()[:12])] + lines[2:]), {})
    card = next(w for w in lines[0].split() if w != "--")
    dup = lines[1].split()
    dup[dup.index(next(w for w in dup if w != "--"))] = card
    with pytest.raises(LayoutError, match=f"row 2, place .*{card} is a duplicate"):
        GAME.read_deal("\n".join([lines[0], " ".join(dup)] + lines[2:]), {})
    with pytest.raises(LayoutError, match="not in a game of ranks=4"):
        GAME.read_deal("2C 3C 4C KC\n2D 3D 4D --\n2H 3H 4H --\n2S 3S 4S --", {"ranks": 4})
    with pytest.raises(LayoutError, match="4 gaps"):
        GAME.read_deal("2C 3C -- --\n2D 3D 4D --\n2H 3H 4H --\n2S 3S 4S AS", {"ranks": 4})
    # an Ace stands for a gap: the pack's text on four lines reads as its own layout
    d = ss.random_deal(8)
    four = "\n".join(" ".join(CARD_NAMES[c] for c in d.cards[13 * r:13 * r + 13]) for r in range(4))
    assert MontanaRules().start(GAME.read_deal(four, {})).places == MontanaRules().start(d).places


def test_a_printed_start_with_redeals_reads_back_and_names_what_stops_it():
    """The start `show` prints with redeals ends `redeals left: N`. Pasted back it is read (its
    rows the deal's); with redeals > 0 a typed deal has no generator for the shuffle, which the
    error says, and into a game of other redeals the line itself is named (once: "has 4 rows
    (lines), this one 5")."""
    shown = ss.position("montana-pysolfc", ss.random_deal(7)).text
    assert shown.splitlines()[-1] == "redeals left: 2"
    with pytest.raises(DealError, match="give the deal by its seed or its PySolFC number"):
        ss.solve("montana-pysolfc", shown)
    with pytest.raises(LayoutError, match="line 5: 'redeals left: 2' but this game has redeals=0"):
        ss.solve("montana", shown)
    rows = "\n".join(shown.splitlines()[:4])
    assert GAME.read_deal(shown, {"redeals": 2}) == GAME.read_deal(rows, {})


def test_notation_of_the_three_moves():
    assert str(Move.from_text("7h")) == "7H" and Move.from_text("7H").cards == (card_index("7H"),)
    two = Move.from_text("2H > 3")
    assert str(two) == "2H>3" and two.pile == 3
    assert Move.from_code(two.code) == two and Move.from_code(REDEAL.code) == REDEAL
    assert str(Move.from_text("Redeal")) == "redeal"


def test_reference_moves_and_reasons():
    # ranks=4: rows of four places
    d = GAME.read_deal("3C 2C -- 4C\n-- 2D 3D 4D\n2H 3H 4H --\n2S -- 3S 4S", {"ranks": 4})
    rules = MontanaRules(4, 0)
    pos = rules.start(d)
    assert [str(m) for m in rules.moves(pos)] == ["3C", "2C>2", "2D>2", "2H>2", "2S>2", "3S"]
    nxt = rules.play(pos, Move.from_text("2C>2"))
    assert nxt.places[:5] == (card_index("3C"), None, None, card_index("4C"), card_index("2C"))
    for text, reason in [("4C", "not a gap"), ("2C", "names the row"), ("2C>3", "not a gap"),
                         ("5C", "not in this game"), ("redeal", "no redeals"),
                         ("3C>2", "only a Two"), ("3C+4C", "one card")]:
        with pytest.raises(MoveError, match=reason):
            rules.play(pos, Move.from_text(text))
    assert rules.cards_left(pos) == 12 - 3 - 1  # runs: row 3 of three, row 4 of one
    won = rules.start(GAME.read_deal("2C 3C 4C --\n2D 3D 4D --\n2H 3H 4H --\n2S 3S 4S --",
                                     {"ranks": 4}))
    assert rules.won(won) and not rules.won(pos) and rules.cards_left(won) == 0


def test_a_two_can_move_back_and_forth():
    """The move graph has cycles: a Two in a first place goes to another row's first-place gap
    and back."""
    rules = MontanaRules(4, 0)
    pos = rules.start(GAME.read_deal("2C 4C 3C --\n-- 2D 3D 4D\n2H 3H 4H --\n2S 3S 4S --",
                                     {"ranks": 4}))
    there = rules.play(pos, Move.from_text("2C>2"))
    back = rules.play(there, Move.from_text("2C>1"))
    assert rules.key(back) == rules.key(pos) and rules.key(there) != rules.key(pos)


# -- the core against the reference ----------------------------------------------------------------

def small_variants():
    return st.builds(dict, ranks=st.integers(4, 6), redeals=st.integers(0, 2))


def seeded(seed):
    return ss.random_deal(seed)


@pytest.mark.core
@given(small_variants(), st.integers(0, 2**40), st.randoms(use_true_random=False),
       st.sampled_from(["seed", "ms", "mt"]))
def test_core_moves_and_successors_are_the_references(given_, seed, rng, kind):
    var = GAME.variant(**given_)
    rules = GAME.rules(var)
    deal = (seeded(seed) if kind == "seed" else
            ss.pysolfc_deal(53, seed % 31999 + 1 if kind == "ms" else seed + 32000))
    spec = GAME.core_spec(deal, var, "decide", False)
    pos = rules.start(deal)
    assert core().start(spec) == GAME.core_position(pos, var)[0]
    for _ in range(40):
        x = GAME.core_position(pos, var)
        assert GAME.certificate_key(*x, var) == rules.key(pos)
        have = {Move.from_code(w): GAME.certificate_key(r, a, var)
                for w, r, a in core().expand(spec, *x)}
        assert have == {m: rules.key(rules.apply(pos, m)) for m in rules.moves(pos)}
        pruned = {Move.from_code(w) for w, _, _ in core().expand(dict(spec, mode=1), *x)}
        assert pruned <= set(have)
        if rules.won(pos) or not have:
            break
        pos = rules.apply(pos, rng.choice(sorted(have, key=str)))


def search(spec, **kw):
    return core().solve(spec, "decide", Limits(**kw), False)


#: The core's modes: every move; ordered; ordered with the block test of locked cards; that and
#: the persistent sets; those on the places relaxation; that with the first column's
#: arrangements as groups (the default).
MODES = (0, 1, 2, 3, 4, 5)


@pytest.mark.core
def test_core_agrees_with_the_reference_search_on_small_ranks():
    seen = {}
    for seed in range(150):
        var = GAME.variant(ranks=4 + seed % 3, redeals=seed // 3 % 2)
        rules = GAME.rules(var)
        deal = seeded(seed)
        ref = reference_search(rules, rules.start(deal), max_states=20000)
        spec = GAME.core_spec(deal, var, "decide", False)
        runs = {m: search(dict(spec, mode=m)).status for m in MODES}
        # the order of trial by the children's scores (the full pack's search) decides alike
        runs.update({(m, "order"): search(dict(spec, mode=m, order=True)).status
                     for m in (core().MODE_PLACES, core().MODE_GROUPS)})
        assert len(set(runs.values())) == 1, (seed, runs)
        if ref.status in ("won", "exhausted"):
            assert runs[0] == ref.status, seed
            seen[ref.status] = seen.get(ref.status, 0) + 1
    assert seen.get("won", 0) > 100 and seen.get("exhausted", 0) >= 8, seen


@pytest.mark.core
@given(small_variants(), st.integers(0, 2**40), st.randoms(use_true_random=False))
def test_core_agrees_with_the_reference_from_mid_game(given_, seed, rng):
    var = GAME.variant(**given_)
    rules = GAME.rules(var)
    deal = seeded(seed)
    _, pos = random_moves(rules, rules.start(deal), rng, rng.randrange(30))
    ref = reference_search(rules, pos, max_states=20000)
    spec = dict(GAME.core_spec(deal, var, "decide", False), root=GAME.core_position(pos, var),
                order=rng.random() < 0.5)
    for mode in MODES:
        run = search(dict(spec, mode=mode))
        if ref.status in ("won", "exhausted"):
            assert run.status == ref.status
        if run.status == "won":
            end = pos
            for m in GAME.core_line(core(), dict(spec, mode=mode), deal, pos, run.path):
                end = rules.play(end, m)
            assert rules.won(end)


@pytest.mark.core
@settings(max_examples=40, deadline=None)
@given(st.integers(4, 5), st.integers(0, 1), st.integers(0, 2**40),
       st.randoms(use_true_random=False))
def test_a_game_in_progress_through_the_api_agrees_with_the_reference(ranks, redeals, seed, rng):
    """solve(after=...) takes the first try from the position the moves reach (docs/montana.md,
    "A game in progress"): its verdict is the reference search's, its line replays under the
    reference rules (check=True) and a block's proof is re-searched by verify."""
    var = GAME.variant(ranks=ranks, redeals=redeals)
    rules = GAME.rules(var)
    deal = seeded(seed)
    line, pos = random_moves(rules, rules.start(deal), rng, rng.randrange(1, 30))
    ref = reference_search(rules, pos, max_states=50_000)
    r = ss.solve("montana", deal, after=line, check=True, ranks=ranks, redeals=redeals)
    if ref.status in ("won", "exhausted"):
        assert r.status is (ss.Status.WON if ref.status == "won" else ss.Status.BLOCKED)
    if r.status is ss.Status.BLOCKED:
        assert ss.verify("montana", deal, r, after=line, ranks=ranks, redeals=redeals).ok


# -- answers, lines and proofs --------------------------------------------------------------------

@pytest.mark.core
def test_every_answer_checks_and_blocks_have_certificates():
    counts = {}
    for seed in range(60):
        given_ = {"ranks": 4 + seed % 2, "redeals": seed // 2 % 2}
        r = ss.solve("montana", seeded(seed), check=True, **given_)
        assert r.status in (ss.Status.WON, ss.Status.BLOCKED)
        counts[r.status] = counts.get(r.status, 0) + 1
        if r.status is ss.Status.BLOCKED:
            c = ss.solve("montana", seeded(seed), certificate=True, **given_)
            assert c.proof.certificate and ss.verify("montana", seeded(seed), c, **given_).ok
            rules = GAME.rules(GAME.variant(**given_))
            assert check_certificate(rules, rules.start(seeded(seed)), c.proof.certificate).ok
    assert len(counts) == 2, counts


@pytest.mark.core
def test_tampered_lines_and_certificates_fail():
    won = next(r for s in range(40)
               if (r := ss.solve("montana", seeded(s), ranks=4)).status is ss.Status.WON)
    deal = next(seeded(s) for s in range(40)
                if ss.solve("montana", seeded(s), ranks=4).status is ss.Status.WON)
    assert ss.verify("montana", deal, won, ranks=4).ok
    blocked_seed = next(s for s in range(200)
                        if ss.solve("montana", seeded(s), ranks=5).status is ss.Status.BLOCKED)
    r = ss.solve("montana", seeded(blocked_seed), ranks=5, certificate=True)
    cert = set(r.proof.certificate)
    rules = GAME.rules(GAME.variant(ranks=5))
    start_key = rules.key(rules.start(seeded(blocked_seed)))
    some = next(k for k in cert if k != start_key)
    with pytest.raises(ss.VerificationError, match="leads out of the certificate"):
        check_certificate(rules, rules.start(seeded(blocked_seed)), cert - {some})


def test_limits_give_unknown():
    r = ss.solve("montana", seeded(0), max_states=50)
    assert r.status is ss.Status.UNKNOWN and "state limit (50)" in r.reason


def test_the_position_mid_game_and_the_redeal_in_a_line():
    deal = seeded(4)
    first = MontanaRules(13, 1).moves(MontanaRules(13, 1).start(deal))[0]
    r = ss.solve("montana", deal, redeals=1, after=[first, REDEAL], max_states=2000)
    assert r.status in (ss.Status.WON, ss.Status.BLOCKED, ss.Status.UNKNOWN)
    p = ss.position("montana", deal, after=[first, REDEAL], redeals=1)
    assert "redeals left: 0" in p.text and REDEAL not in p.legal
    assert p.layout["redeals_left"] == 0 and len(p.layout["gathered"]) == 1


def test_describe_names_rows_and_redeals():
    rules = MontanaRules(4, 1)
    pos = rules.start(seeded(1))
    d = rules.describe(pos)
    assert len(d["rows"]) == 4 and d["redeals_left"] == 1 and d["gathered"] == []
    assert isinstance(pos, MontanaPosition)


def test_pysolfc_layout_shows_the_aces_places_empty():
    from solitaire_solver.pysolfc import layout_text as pysolfc_text
    from solitaire_solver.pysolfc import pysolfc_layout

    for rec in golden():
        if rec.get("after"):
            continue
        shown = pysolfc_layout("montana-pysolfc", rec["deal"])
        rows = [s["cards"][0] if s["cards"] else None
                for s in sorted((s for s in rec["stacks"] if s["kind"] == "rows"),
                                key=lambda s: s["index"])]
        assert sum(shown["rows"], []) == rows and shown["talon"] == 0
        assert pysolfc_text(shown).count("--") == 4


@pytest.mark.core
def test_the_first_try_wins_deals_the_search_alone_leaves_within_the_budget():
    # seeds 6 and 9: the beams win within 150,000 positions; the depth-first search alone
    # (no first try) leaves them open there (and at 2,000,000: docs/montana.md)
    for seed in (6, 9):
        spec = GAME.core_spec(seeded(seed), GAME.variant(), "decide", False)
        assert search(spec, max_states=150_000).status == "limit-states"
        r = ss.solve("montana", seeded(seed), max_states=150_000, check=True)
        assert r.status is ss.Status.WON and r.stats["first_try"].startswith("beam 1000 wide")
        assert r.stats["states"] <= 150_000


@pytest.mark.core
def test_the_first_try_is_deterministic_and_proves_nothing_else():
    one = ss.solve("montana", seeded(6), max_states=150_000)
    two = ss.Solver("montana", max_states=150_000).solve(seeded(6))
    assert one.moves == two.moves and one.stats["states"] == two.stats["states"]
    spec = GAME.core_spec(seeded(16), GAME.variant(), "decide", False)
    runs = [core().beam(dict(spec, shake=k), 300, 30_000, 0.0, 64 << 20) for k in (1, 1, 2)]
    assert runs[0][:2] == runs[1][:2]
    # seed 13 (blocked): the first search to 20,000 positions proves it, and the block stands
    r = ss.solve("montana", seeded(13))
    assert r.status is ss.Status.BLOCKED and r.stats["first_try"].endswith("exhausted")
    # no first try with a certificate (the proof lists the core's own positions)
    assert "first_try" not in ss.solve("montana", seeded(13), certificate=True).stats


@pytest.mark.core
def test_the_first_try_keeps_to_the_limits():
    spec = GAME.core_spec(seeded(0), GAME.variant(), "decide", False)
    path, states, _ = core().beam(spec, 100, 10, 0.0, 1 << 20)
    assert path is None and states == 10
    # a beam that does not fit its share of the memory does not start
    assert core().beam(spec, 100_000, 0, 0.0, 1 << 20)[:2] == (None, 0)
    path, states, spent = core().beam(spec, 4000, 0, 0.05, 256 << 20)
    assert path is None and spent < 1.0
    for most in (1000, 30_000, 300_000):
        r = ss.solve("montana", seeded(0), max_states=most)
        assert r.status is ss.Status.UNKNOWN and f"state limit ({most})" in r.reason
        assert r.stats["states"] <= most
    r = ss.solve("montana", seeded(0), max_seconds=0.5)
    # the time reported is the call's, the first try's share with the search's
    assert r.status is ss.Status.UNKNOWN and 0.45 < r.stats["seconds"] < 1.5


@pytest.mark.core
@given(small_variants(), st.integers(0, 2**40), st.randoms(use_true_random=False),
       st.integers(1, 60), st.integers(0, 3))
def test_the_beams_lines_replay_under_the_reference_rules(given_, seed, rng, width, shake):
    # from the start and from random positions mid-game, every line a beam gives wins under
    # the reference rules, and it gives none where the reference search proves a block
    var = GAME.variant(**given_)
    rules = GAME.rules(var)
    deal = seeded(seed)
    _, pos = random_moves(rules, rules.start(deal), rng, rng.randrange(20))
    ref = reference_search(rules, pos, max_states=20000)
    # the beams keep positions (MODE_PLACES) or, as the wide ones, groups (MODE_GROUPS)
    mode = rng.choice([core().MODE_PLACES, core().MODE_GROUPS])
    spec = dict(GAME.core_spec(deal, var, "decide", False), root=GAME.core_position(pos, var),
                shake=shake, mode=mode)
    weights = rng.choice([(16, 8, 4, 1), (16, 0, 0, 0), (1, 1, 1, 1)])
    path, states, _ = core().beam(spec, width, 5000, 0.0, 16 << 20, weights)
    assert states <= 5000
    if path is not None:
        assert ref.status != "exhausted"
        end = pos
        for m in GAME.core_line(core(), spec, deal, pos, path):
            end = rules.play(end, m)
        assert rules.won(end)


def mix(x):
    """splitmix64's finaliser, as the core's beam hashes a position for its ties."""
    m = (1 << 64) - 1
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & m
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & m
    return x ^ (x >> 31)


def beam_score(places, ranks, weights):
    """docs/montana.md, "A first try": per card in a row's run from its Two, less per gap right
    of a King, per gap that takes a run's next card, per card right of its predecessor."""
    runs, dead, opened, pairs, run = 0, 0, 0, 0, []
    for r in range(4):
        row, k = places[r * ranks:(r + 1) * ranks], 0
        if row[0] is not None and value(row[0]) == 2:
            k = 1
            while k < ranks and row[k] == row[0] + k:
                k += 1
        run.append(k)
        runs += k
    for p, c in enumerate(places):
        if c is None:
            if p % ranks == 0:
                opened += 1
            elif places[p - 1] is not None and value(places[p - 1]) == ranks:
                dead += 1
            elif run[p // ranks] == p % ranks:
                opened += 1
        elif p % ranks and places[p - 1] == c - 1 and value(c) > 2:
            pairs += 1
    w = weights
    return (1 << 20) + w[0] * runs - w[1] * dead + w[2] * opened + w[3] * pairs


def beam_model(spec, var, width, most, weights):
    """The core's beam, written out: each round expands the kept positions in order (at most
    `most` in all) by the search's moves, skips a new position seen before, ends at a won one,
    skips those the block test calls dead, and keeps the `width` best of the rest by (score, the
    top byte of the position's hash, the order they came in), best first."""
    ranks, c = var["ranks"], core()
    words = place_words(4 * ranks)

    def places(x):
        return [((x >> (6 * p)) & 63) - 1 if (x >> (6 * p)) & 63 else None
                for p in range(4 * ranks)]

    def won(x):
        pl = places(x)
        return all(pl[r * ranks] is not None and value(pl[r * ranks]) == 2
                   and all(pl[r * ranks + k] == pl[r * ranks] + k for k in range(ranks - 1))
                   for r in range(4))

    start = c.start(spec)
    seen, cur, nodes = {start}, [(start, ())], 0
    while cur:
        new = []
        for x, line in cur:
            if nodes >= most:
                return None, nodes
            nodes += 1
            for move, y, _ in c.expand(spec, x):
                if y in seen:
                    continue
                seen.add(y)
                if won(y):
                    return list(line) + [move], nodes
                if c.dead(spec, y):
                    continue
                h = spec.get("shake", 0)
                for i in range(words):
                    h = mix(h ^ (y >> (64 * i)) & ((1 << 64) - 1))
                key = (beam_score(places(y), ranks, weights), h >> 56, len(new))
                new.append((key, y, line + (move,)))
        if nodes >= most:
            return None, nodes
        cur = [(y, line) for _, y, line in sorted(new, reverse=True)[:width]]
    return None, nodes


@pytest.mark.core
@given(st.integers(4, 6), st.integers(0, 2**40), st.integers(1, 400), st.integers(0, 3),
       st.sampled_from([(16, 8, 4, 1), (16, 0, 0, 0), (1, 1, 1, 1)]))
@settings(max_examples=40, deadline=None)
def test_the_beam_keeps_the_best_new_positions_of_each_round(ranks, seed, width, shake,
                                                             weights):
    # the core keeps a round's best `width` new positions in a heap as they come (so its memory
    # is the width, not the width times the moves): the same line and positions as sorting them
    var = GAME.variant(ranks=ranks)
    spec = dict(GAME.core_spec(seeded(seed), var, "decide", False), mode=core().MODE_PLACES,
                shake=shake)
    path, states, _ = core().beam(spec, width, 3000, 0.0, 16 << 20, weights)
    assert (path, states) == beam_model(spec, var, width, 3000, weights)


@pytest.mark.core
def test_the_wide_beams_run_for_the_full_pack_alone(monkeypatch):
    # docs/montana.md, "A first try": after BEAMS, WIDE_BEAMS for 13 ranks (here a beam 1,000
    # wide stands for the wide one, and the narrow ones are cut to nothing): seeds 5, 7 and 9
    # are won by it, keeping groups (a beam 1,000 wide that keeps positions wins none of 5 and
    # 7 within these positions), and a deal of 8 ranks never runs it (seed 11, blocked past
    # the first search)
    import solitaire_solver.games.montana.game as montana_game

    monkeypatch.setattr(montana_game, "BEAMS", ((1, (16, 8, 4, 1)),))
    monkeypatch.setattr(montana_game, "WIDE_BEAMS", ((1000, (16, 8, 4, 1)),))
    monkeypatch.setattr(montana_game, "WIDE_ROUNDS", 150)
    for seed in (5, 7, 9):
        r = ss.solve("montana", seeded(seed), max_states=200_000, check=True)
        assert r.status is ss.Status.WON and r.stats["first_try"] == "beam 1000 wide: won"
    r = ss.solve("montana", seeded(11), ranks=8)
    assert r.status is ss.Status.BLOCKED and r.stats["first_try"] == "beam 1 wide: no win"


@pytest.mark.core
def test_the_full_packs_search_tries_the_best_child_first():
    # docs/montana.md, "The search after the first try": the full pack's search (core_spec's
    # order) wins seed 27 within 30,000 positions; in the generator's order it does not
    spec = GAME.core_spec(seeded(27), GAME.variant(), "decide", False)
    assert spec["order"] is True
    assert search(spec, max_states=30_000).status == "won"
    assert search(dict(spec, order=False), max_states=30_000).status == "limit-states"
    assert "order" not in GAME.core_spec(seeded(27), GAME.variant(ranks=8), "decide", False)
    # the search's alone: the walks (step) and playouts keep the generator's order (seed 0's
    # start has seven moves, which the score orders otherwise)
    var = GAME.variant()
    spec = GAME.core_spec(seeded(0), var, "decide", False)
    start = GAME.core_position(GAME.rules(var).start(seeded(0)), var)
    assert core().step(spec, *start) == core().step(dict(spec, order=False), *start)
    assert (core().playouts(spec, *start, 50, 7, 400, 0.0)
            == core().playouts(dict(spec, order=False), *start, 50, 7, 400, 0.0))


@pytest.mark.core
def test_a_wide_beam_fits_a_small_budget():
    # a round's new positions pass through a heap of the best `width`: a beam 1,000 wide runs
    # in 2 MiB (its table in half of it, its positions and links in the other); it did not
    # start when every new position of a round was kept until the round's end (1,000 times the
    # moves a position can have)
    spec = GAME.core_spec(seeded(0), GAME.variant(), "decide", False)
    path, states, _ = core().beam(spec, 1000, 20_000, 0.0, 2 << 20)
    assert path is None and states == 20_000


@pytest.mark.core
def test_a_game_in_progress_gets_the_first_try(monkeypatch):
    """docs/montana.md, "A game in progress": seed 402002 after six moves is won by the first
    beam within 300,000 positions, where the search alone (as before 2026-12-07, and as now
    under a limit of positions) is still searching; seed 884831 after 19 moves is lost, proved
    by the search cut at PROBE_STATES after the first beam, which spares the other beams
    (without it they come first)."""
    import solitaire_solver.games.montana.game as montana_game

    deal, line = seeded(402002), "4H 8C 4C 3C 5D 4S"
    r = ss.solve("montana", deal, after=line)
    assert r.status is ss.Status.WON and r.stats["first_try"] == "beam 1000 wide: won"
    assert r.stats["states"] < 300_000
    assert ss.verify("montana", deal, r, after=line).ok
    lost, lost_line = seeded(884831), "6C 9H KH 3H 8S JH QH JC 5C 5S 3D 6D 5D TC JC TS JS KS 8H"
    r = ss.solve("montana", lost, after=lost_line)
    assert r.status is ss.Status.BLOCKED
    assert r.stats["first_try"] == "the search to 500,000 positions: exhausted"
    monkeypatch.setattr(montana_game, "PROBE_STATES", 0)
    again = ss.solve("montana", lost, after=lost_line)
    assert again.status is ss.Status.BLOCKED and again.stats["states"] > r.stats["states"]
    alone = ss.solve("montana", deal, after=line, max_states=300_000)
    assert alone.status is ss.Status.UNKNOWN and "first_try" not in alone.stats


def test_a_seeded_deal_of_fewer_ranks_reads_as_the_text_of_the_same_game():
    for seed in range(10):
        var = GAME.variant(ranks=6)
        read = GAME.read(seeded(seed), var)
        rules = GAME.rules(var)
        assert read.origin == ("seed", seed)
        same = rules.start(GAME.read(str(read), var))
        assert same.places == rules.start(seeded(seed)).places == rules.start(read).places


# -- the cuts (docs/montana.md, "Locked cards" and "Independent moves") -----------------------------

def move_graph(rules, start, cap):
    """Every position reachable from start under the reference rules, as key -> position and
    key -> successor keys; None past cap positions."""
    pos, edges, todo = {rules.key(start): start}, {}, [start]
    while todo:
        if len(pos) > cap:
            return None
        p = todo.pop()
        succ = edges[rules.key(p)] = set()
        for m in rules.moves(p):
            q = rules.apply(p, m)
            succ.add(rules.key(q))
            if rules.key(q) not in pos:
                pos[rules.key(q)] = q
                todo.append(q)
    return pos, edges


def winnable(edges, won):
    """The positions from which a won position is reachable along edges."""
    back = {}
    for k, succ in edges.items():
        for v in succ:
            back.setdefault(v, []).append(k)
    seen, todo = set(won), list(won)
    while todo:
        for u in back.get(todo.pop(), ()):
            if u not in seen:
                seen.add(u)
                todo.append(u)
    return seen


def small_graphs(count=45):
    """Whole move graphs of small one-deal games (ranks 4 and 5) under the reference rules."""
    for seed in range(count):
        var = GAME.variant(ranks=4 + seed % 2)
        rules = GAME.rules(var)
        graph = move_graph(rules, rules.start(seeded(seed)), 4000)
        if graph is not None:
            yield var, rules, GAME.core_spec(seeded(seed), var, "decide", False), *graph


@pytest.mark.core
def test_locked_cards_block_only_positions_that_cannot_be_won():
    """dead() (the block test of locked cards) against the whole move graph: every position it
    calls dead reaches no won position; and it fires (the test fails without the rule)."""
    fired = positions = 0
    for var, rules, spec, pos, edges in small_graphs():
        win = winnable(edges, [k for k, p in pos.items() if rules.won(p)])
        for k, p in pos.items():
            positions += 1
            if core().dead(dict(spec, mode=2), GAME.core_position(p, var)[0]):
                fired += 1
                assert k not in win, rules.render(p)
    assert positions > 5000 and fired > positions // 10, (fired, positions)
    # with a redeal left nothing is locked: the redeal moves every card outside the runs
    var = GAME.variant(ranks=4, redeals=1)
    rules = GAME.rules(var)
    # 4C may still move, but 4H and 4D stand after each other's Three for good
    stuck = GAME.read_deal("2C 3C -- 4C\n2D 3D 4H --\n2H 3H 4D --\n2S 3S 4S --", {"ranks": 4})
    assert MontanaRules(4).moves(MontanaRules(4).start(stuck))
    for mode in (2, 4):
        assert core().dead(dict(GAME.core_spec(stuck, GAME.variant(ranks=4), "decide", False),
                                mode=mode),
                           GAME.core_position(GAME.rules(GAME.variant(ranks=4)).start(stuck), {})[0])
        deal = seeded(1)
        assert not core().dead(dict(GAME.core_spec(deal, var, "decide", False), mode=mode),
                               GAME.core_position(rules.start(deal), var)[0])


@pytest.mark.core
def test_the_places_relaxation_blocks_only_positions_that_cannot_be_won():
    """dead() with MODE_PLACES (no won position fits the places each card can reach) against the
    whole move graph: every position it calls dead reaches no won position; it calls dead every
    position the locked-cards test does, and more (the test fails without the rule), among them
    positions with a gap in a first place, where the locked-cards test says nothing."""
    fired = locked = first_gap = positions = 0
    for var, rules, spec, pos, edges in small_graphs():
        win = winnable(edges, [k for k, p in pos.items() if rules.won(p)])
        n = var["ranks"]
        for k, p in pos.items():
            positions += 1
            x = GAME.core_position(p, var)[0]
            old = core().dead(dict(spec, mode=2), x)
            if core().dead(dict(spec, mode=4), x):
                fired += 1
                assert k not in win, rules.render(p)
                first_gap += any(p.places[r * n] is None for r in range(4))
            else:
                assert not old, rules.render(p)
            locked += old
    assert positions > 5000 and fired > locked + positions // 4, (fired, locked, positions)
    assert first_gap > positions // 10, (first_gap, positions)


def reference_places(places, n):
    """The places relaxation (docs/montana.md, "Where each card can go") from its definition:
    the least sets of places, a set a card, with the places that may ever be gaps, by rounds
    until nothing grows."""
    where = {card: p for p, card in enumerate(places) if card is not None}
    gaps = {p for p, card in enumerate(places) if card is None}
    may = set(gaps)
    while True:
        loc = {}
        for suit in range(4):
            for v in range(2, n + 1):
                x = 13 * suit + v - 1
                if v == 2:
                    to = {r * n for r in range(4)} & may
                else:
                    to = {q + 1 for q in loc[x - 1] if (q + 1) % n and q + 1 in may}
                loc[x] = {where[x]} | to
        grown = gaps | {where[x] for x, at in loc.items() if at != {where[x]}}
        if grown == may:
            return loc
        may = grown


@pytest.mark.core
def test_the_cores_places_are_the_least_sets():
    """The core's places relaxation (reach(), which the block test and the persistent sets of
    MODE_PLACES read) gives exactly the least sets of its definition, at every position of
    small move graphs and along random lines of larger deals."""
    def check(spec, var, p):
        loc = reference_places(p.places, var["ranks"])
        got = core().places(spec, GAME.core_position(p, var)[0])
        assert got == [sum(1 << q for q in loc[x]) if x in loc else 0 for x in range(52)], p.places
        return sum(len(at) > 1 for at in loc.values())

    moving = positions = 0
    for var, _rules, spec, pos, _edges in small_graphs(12):
        for p in pos.values():
            moving += check(spec, var, p)
            positions += 1
    rng = random.Random(5)
    for seed in range(24):
        var = GAME.variant(ranks=(6, 9, 13)[seed % 3])
        rules = GAME.rules(var)
        spec = GAME.core_spec(seeded(seed), var, "decide", False)
        p = rules.start(seeded(seed))
        for _ in range(60):
            moving += check(spec, var, p)
            positions += 1
            moves = rules.moves(p)
            if not moves:
                break
            p = rules.apply(p, rng.choice(moves))
    assert positions > 1000 and moving > positions, (moving, positions)


@pytest.mark.core
def test_persistent_sets_keep_every_position_that_can_be_won():
    """The persistent sets' moves against the whole move graph (MODE_REDUCED's, closed over the
    cards the locked-cards test lets move; MODE_PLACES's, over those the places relaxation lets
    move): they are legal moves, and a position reaches a won position along them exactly when
    it does along every move; they leave moves out, MODE_PLACES more (the test fails without
    each rule)."""
    left_out = {3: 0, 4: 0}
    positions = 0
    for var, rules, spec, pos, edges in small_graphs():
        won = [k for k, p in pos.items() if rules.won(p)]
        for mode in left_out:
            reduced = {}
            for k, p in pos.items():
                x = GAME.core_position(p, var)
                kept = {GAME.certificate_key(r, a, var) for _, r, a in
                        core().expand(dict(spec, mode=mode), *x)}
                assert kept <= edges[k] and (kept or not edges[k])
                left_out[mode] += len(edges[k]) - len(kept)
                reduced[k] = kept
            assert winnable(reduced, won) == winnable(edges, won)
        positions += len(pos)
    assert positions > 5000 and left_out[3] > positions // 10, (left_out, positions)
    assert left_out[4] > left_out[3] * 3 // 2, left_out


@pytest.mark.core
def test_each_cut_saves_positions():
    """Seed 11 at ranks=8 (blocked): each mode searches fewer positions than the one before, to
    the same answer."""
    spec = GAME.core_spec(seeded(11), GAME.variant(ranks=8), "decide", False)
    runs = [search(dict(spec, mode=m)) for m in MODES[1:5]]
    assert [r.status for r in runs] == ["exhausted"] * 4
    states = [r.stats["states"] for r in runs]
    assert states[0] > states[1] > states[2] > states[3], states
    assert runs[0].stats["pruned"] == 0 < runs[1].stats["pruned"]


def test_a_runs_next_card_is_not_a_safe_move():
    """docs/montana.md, "Cuts considered and not shipped": playing a run's next card at once can
    lose a deal that can be won, since a winning line may first use its place as an anchor."""
    rules = MontanaRules(4)
    start = rules.start(GAME.read_deal("2H -- 4S 4D\n2C 3H -- --\n2S 3S 4H --\n2D 3D 3C 4C",
                                       {"ranks": 4}))
    after = rules.play(start, Move.from_text("3H"))
    for pos, can_win in ((start, True), (after, False)):
        graph, edges = move_graph(rules, pos, 10_000)
        won = [k for k, p in graph.items() if rules.won(p)]
        assert (rules.key(pos) in winnable(edges, won)) is can_win


def first_column_moves(pos, edges, k, n):
    """The positions k reaches by moving Twos between first places (within its group)."""
    seen, todo = {k}, [k]
    while todo:
        a = todo.pop()
        for b in edges[a]:
            if b not in seen and all(x == y for i, (x, y) in enumerate(
                    zip(pos[a].places, pos[b].places)) if i % n):
                seen.add(b)
                todo.append(b)
    return seen


@pytest.mark.core
def test_groups_are_won_alike_and_the_group_moves_keep_every_win():
    """MODE_GROUPS against the whole move graph (docs/montana.md, "Groups of first-column
    arrangements"): a position's group representative is reached from it by moving Twos between
    first places (so they reach each other and are won alike); each group move leads from a
    representative to a position it reaches; and a representative reaches a won position along
    group moves exactly when it does along every move. The rule fires: many positions are not
    their group's representative (it fails without the rule)."""
    positions = grouped = rearranged = 0
    for var, rules, spec, pos, edges in small_graphs():
        n = var["ranks"]
        win = winnable(edges, [k for k, p in pos.items() if rules.won(p)])
        key = {k: GAME.certificate_key(core().group_key(spec, GAME.core_position(p, var)[0]),
                                       0, var) for k, p in pos.items()}
        quotient = {}
        for k, p in pos.items():
            positions += 1
            if key[k] == k:
                continue
            grouped += 1
            assert key[k] in first_column_moves(pos, edges, k, n), rules.render(p)
        for k in set(key.values()):
            group = first_column_moves(pos, edges, k, n)
            kids = {GAME.certificate_key(r, a, var)
                    for _, r, a in core().expand(dict(spec, mode=5), *GAME.core_position(pos[k], var))}
            direct = {key[q] for g in group for q in edges[g]}
            assert kids <= direct, rules.render(pos[k])
            rearranged += len(kids - {key[q] for q in edges[k]})
            quotient[k] = kids
        won = [k for k in quotient if rules.won(pos[k])]
        assert winnable(quotient, won) == {k for k in quotient if k in win}
    assert positions > 5000 and grouped > positions // 10, (grouped, positions)
    assert rearranged > 100, rearranged


@pytest.mark.core
def test_groups_save_positions_on_blocked_deals():
    """The groups against MODE_PLACES on blocked deals (docs/montana.md, "Groups of
    first-column arrangements"): the same answer in fewer positions (ranks=7 seed 67: 13,673
    against 26,425; ranks=6 seed 262: 3,887 against 6,791)."""
    for ranks, seed in ((7, 67), (6, 262)):
        spec = GAME.core_spec(seeded(seed), GAME.variant(ranks=ranks), "decide", False)
        places, groups = (search(dict(spec, mode=m)) for m in (4, 5))
        assert places.status == groups.status == "exhausted"
        assert groups.stats["states"] < places.stats["states"] * 3 // 5, (places.stats,
                                                                          groups.stats)


@pytest.mark.core
def test_a_win_found_by_the_search_in_groups_replays(monkeypatch):
    """The first try's search again in a game in progress runs in MODE_GROUPS: a win it finds
    is played out as single moves (the Twos arranged between first places where a group move
    needs it) and checks under the reference rules. With the first search and the beams cut to
    nothing, that search is what wins these positions."""
    import solitaire_solver.games.montana.game as montana_game

    monkeypatch.setattr(montana_game, "FIRST_STATES", 1)
    monkeypatch.setattr(montana_game, "BEAMS", ((1, (16, 8, 4, 1)),))
    monkeypatch.setattr(montana_game, "BEAM_ROUNDS", 1)
    won = 0
    for seed in range(40):
        deal = seeded(seed)
        var = GAME.variant(ranks=6)
        rules = GAME.rules(var)
        line = [m for m in rules.moves(rules.start(deal)) if value(m.cards[0]) == 2][:1]
        if not line:
            continue
        r = ss.solve("montana", deal, after=line, ranks=6)
        if r.status is ss.Status.WON:
            assert r.stats["first_try"] == "the search to 500,000 positions: won", r.stats
            assert ss.verify("montana", deal, r, after=line, ranks=6).ok
            won += 1
    assert won >= 10, won
