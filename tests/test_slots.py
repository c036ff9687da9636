"""Elevens and Block Ten: the core against the reference rules, solutions, proofs, tampering."""

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

import solitaire_solver as ss
from solitaire_solver.cards import CARD_NAMES
from solitaire_solver.engine.contract import Limits
from solitaire_solver.engine.search import reference_search
from solitaire_solver.games import get_game
from solitaire_solver.games.slots import _core as _slots
from solitaire_solver.games.slots.blockten import BlockTenRules
from solitaire_solver.games.slots.elevens import ElevensRules
from solitaire_solver.moves import Move

GAMES = {"elevens": ElevensRules(), "block-ten": BlockTenRules()}
deals = st.permutations(range(52)).map(ss.Deal)


def core_run(game, cards, mode, certificate=False, **limits):
    """The slot core's search of one deal in one move mode (the contract's solve)."""
    spec = {"table": get_game(game)[0].compiled(_slots), "cards": cards, "mode": mode}
    return _slots.solve(spec, "decide", Limits(**limits), certificate)


def reference_verdict(game, deal):
    rules = GAMES[game]
    out = reference_search(rules, rules.start(deal))
    assert out.status in ("won", "exhausted")
    return ss.Status.WON if out.status == "won" else ss.Status.BLOCKED


@pytest.mark.core
@pytest.mark.parametrize("game", GAMES)
def test_core_agrees_with_reference_search(game):
    for seed in range(600):
        d = ss.random_deal(seed)
        assert ss.solve(game, d).status == reference_verdict(game, d), seed


@pytest.mark.core
@pytest.mark.parametrize("game", GAMES)
def test_forced_line_decides_like_exhaustive_search(game):
    """Confluence (docs/proofs.md): one forced line decides as every line does."""
    for seed in range(5000):
        cards = ss.random_deal(seed).cards
        forced = core_run(game, cards, _slots.MODE_FORCED).status
        per_kind = core_run(game, cards, _slots.MODE_PER_KIND).status
        every = core_run(game, cards, _slots.MODE_ALL).status
        assert forced == per_kind == every, seed


@pytest.mark.core
@pytest.mark.parametrize("game", GAMES)
@given(deal=deals)
def test_random_deals_core_reference_and_forced(game, deal):
    r = ss.solve(game, deal)
    assert r.status == reference_verdict(game, deal)
    assert core_run(game, deal.cards, _slots.MODE_ALL).status == ("won" if r.won else "exhausted")
    assert ss.verify(game, deal, r).ok


@pytest.mark.parametrize("game", GAMES)
def test_every_answer_checks(game):
    seen = set()
    for seed in range(400):
        d = ss.random_deal(seed)
        r = ss.solve(game, d)
        seen.add(r.status)
        v = ss.verify(game, d, r)
        assert v.ok, (seed, v.reason)
        if r.won:
            assert ss.verify(game, d, [str(m) for m in r.moves]).ok
    assert seen == {ss.Status.WON, ss.Status.BLOCKED}


def first(game, status):
    for seed in range(1000):
        r = ss.solve(game, ss.random_deal(seed))
        if r.status is status:
            return ss.random_deal(seed), r
    raise AssertionError("no such deal")


def test_block_proof_names_the_stuck_position():
    d, r = first("elevens", ss.Status.BLOCKED)
    p = r.proof
    assert p.kind == "forced-line"
    rules = ElevensRules()
    pos = rules.start(d)
    for m in p.moves:
        pos = rules.play(pos, m)
    assert rules.moves(pos) == [] and not rules.won(pos)
    assert p.sentence == (
        f"stuck after {len(p.moves)} removals with {' '.join(CARD_NAMES[c] for c in pos.showing)} "
        "showing: no two showing cards total 11 and no J-Q-K; "
        f"{len(pos.stock)} cards left in stock"
    )
    assert p.position == rules.render(pos)
    assert p.details["stock_left"] == len(pos.stock)


def test_block_ten_wins_leave_the_tens():
    d, r = first("block-ten", ss.Status.WON)
    rules = BlockTenRules()
    pos = rules.start(d)
    for m in r.moves:
        pos = rules.play(pos, m)
    assert sorted(ss.card_name(c) for c in pos.showing) == ["TC", "TD", "TH", "TS"]
    assert not pos.stock


def test_tampered_lines_are_rejected():
    d, r = first("elevens", ss.Status.WON)
    moves = [str(m) for m in r.moves]
    assert ss.verify("elevens", d, moves).ok
    assert not ss.verify("elevens", d, moves[:-1]).ok          # a cut list
    swapped = moves[:]
    swapped[0], swapped[1] = swapped[1], swapped[0]
    v = ss.verify("elevens", d, swapped[:2] + ["AC+2C"])
    assert not v.ok
    # a changed card: the first move with another card of the same rank not showing
    first_move = r.moves[0]
    other = next(c for c in range(52) if c not in d.cards[:9]
                 and c % 13 == first_move.cards[0] % 13)
    changed = Move.remove([other, *first_move.cards[1:]])
    v = ss.verify("elevens", d, [str(changed), *moves[1:]])
    assert not v.ok and "move 1" in v.reason and "not showing" in v.reason
    # an illegal pair among showing cards
    showing = d.cards[:9]
    bad = next((a, b) for i, a in enumerate(showing) for b in showing[i + 1:]
               if ss.card_name(a)[0] in "A23456789T" and ss.card_name(b)[0] in "A23456789T"
               and (a % 13 + b % 13 + 2) != 11)
    v = ss.verify("elevens", d, [str(Move.remove(bad))])
    assert not v.ok and "total" in v.reason and "11" in v.reason
    # a result for another game
    assert not ss.verify("block-ten", d, r).ok


def test_forged_proofs_are_rejected():
    wd, wr = first("elevens", ss.Status.WON)
    bd, br = first("elevens", ss.Status.BLOCKED)
    assert ss.verify("elevens", bd, br).ok
    # a proof of another deal
    assert not ss.verify("elevens", wd, br.proof).ok
    # a forced line cut short is not stuck
    cut = dataclasses.replace(br.proof, moves=br.proof.moves[:-1])
    assert not ss.verify("elevens", bd, cut).ok
    # a winnable deal claimed blocked by a line that stops early
    forged = dataclasses.replace(br.proof, moves=wr.moves[:3])
    v = ss.verify("elevens", wd, forged)
    assert not v.ok and "not stuck" in v.reason
    # an exhaustive claim on a winnable deal is refuted by a winning line
    claim = ss.BlockProof(kind="exhaustive", sentence="forged")
    v = ss.verify("elevens", wd, claim)
    assert not v.ok and "can be won" in v.reason
    assert not ss.verify("elevens", bd, dataclasses.replace(br.proof, kind="magic")).ok


def test_certificates_check_and_forgeries_fail():
    d, _ = first("block-ten", ss.Status.BLOCKED)
    r = ss.solve("block-ten", d, certificate=True)
    cert = r.proof.certificate
    assert cert and ss.verify("block-ten", d, r).ok
    exhaustive = ss.BlockProof(kind="exhaustive", sentence="", certificate=cert)
    assert ss.verify("block-ten", d, exhaustive).ok
    for k in sorted(cert)[:5]:
        v = ss.verify("block-ten", d, dataclasses.replace(exhaustive, certificate=cert - {k}))
        assert not v.ok
    wd, _ = first("block-ten", ss.Status.WON)
    assert not ss.verify("block-ten", wd, exhaustive).ok


def test_render_grid():
    d = ss.Deal("TD 5C KH AS 2H 3D 4S 6C 7H " + " ".join(
        c for c in ss.Deal(list(range(52))).__str__().split()
        if c not in "TD 5C KH AS 2H 3D 4S 6C 7H".split()))
    text = ElevensRules().render(ElevensRules().start(d))
    assert text.splitlines()[:3] == [" T♦  5♣  K♥", " A♠  2♥  3♦", " 4♠  6♣  7♥"]
    assert text.splitlines()[3] == "stock: 43 cards, next A♣"


def test_registry_names():
    assert get_game("Block_Ten")[0].name == "block-ten"
    assert get_game("ELEVENS")[0].name == "elevens"
    with pytest.raises(ss.UnknownGameError, match="unknown game 'twelves'"):
        ss.solve("twelves", ss.random_deal(1))
    with pytest.raises(ss.VariantError, match="no variant 'passes'"):
        ss.solve("elevens", ss.random_deal(1), passes=2)
    with pytest.raises(ss.SolitaireError, match="objective"):
        ss.solve("elevens", ss.random_deal(1), objective="shortest")


def test_pure_python_fallback_agrees(pure_backend):
    for seed in range(60):
        d = ss.random_deal(seed)
        r = ss.solve("elevens", d)
        assert r.stats["backend"] == "reference"
        assert r.status == reference_verdict("elevens", d)
        assert ss.verify("elevens", d, r).ok


def test_check_flag_and_json():
    import json

    d, _ = first("elevens", ss.Status.WON)
    r = ss.solve("elevens", d, check=True)
    data = json.loads(r.to_json())
    assert data["status"] == "won" and data["moves"] == [str(m) for m in r.moves]
    assert data["stats"]["states"] >= 1


@pytest.mark.core
@pytest.mark.parametrize("game", GAMES)
def test_core_forced_line_and_stuck_position_match_reference(game):
    """The core's forced line replays under the reference rules to the very position (slots
    included) the core reports; the reference's own forced line ends the same up to suits."""
    g = get_game(game)[0]
    rules = GAMES[game]
    for seed in range(300):
        d = ss.random_deal(seed)
        run = core_run(game, d.cards, _slots.MODE_FORCED)
        words = run.path
        removed, slots = run.end if run.end is not None else (None, None)
        pos = rules.start(d)
        for w in words:
            pos = rules.play(pos, Move.from_code(w))
        if run.status == "exhausted":
            assert pos.slots == slots and pos.removed == removed, seed
        else:
            assert run.status == "won" and rules.won(pos), seed
        assert rules.moves(pos) == [] or rules.won(pos)
        ref_line, ref_pos = g.forced_line(d)
        assert len(ref_pos.stock) == len(pos.stock), seed
        assert sorted(c % 13 for c in ref_pos.showing) == sorted(c % 13 for c in pos.showing)
        r = ss.solve(game, d)
        if r.blocked:
            assert r.proof.moves == tuple(Move.from_code(w) for w in words)
            assert r.proof.position == rules.render(pos)
