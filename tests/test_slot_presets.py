"""PySolFC's rules for the slot family (presets elevens-pysolfc and tens-pysolfc): the reserve
move's text, the reference rules on hand-made deals, the core against the reference, proofs and
their tampering, the batch path (docs/elevens.md, docs/tens.md, docs/proofs.md)."""

from __future__ import annotations

import dataclasses

import pytest

import solitaire_solver as ss
from solitaire_solver.cards import card_index
from solitaire_solver.engine.contract import Limits
from solitaire_solver.engine.search import reference_search
from solitaire_solver.games import get_game
from solitaire_solver.moves import RESERVE_FLAG, Move, parse_moves

PRESETS = ["elevens-pysolfc", "tens-pysolfc"]


def pack(first: str, rest: str = "") -> ss.Deal:
    """A deal whose pack starts with the cards `first` then `rest`, the others in index order."""
    lead = [card_index(c) for c in (first + " " + rest).split()]
    return ss.Deal(lead + [c for c in range(52) if c not in lead])


def rules_of(preset: str):
    g, fixed = get_game(preset)
    var = g.variant(**fixed)
    return g, var, g.rules(var)


# -- names and text (pure) --------------------------------------------------------------------------

def test_presets_name_pysolfcs_rules():
    g, fixed = get_game("elevens-pysolfc")
    assert (g.name, fixed) == ("elevens", {"reserves": "pysolfc"})
    assert g.options["reserves"].choices == ("none", "pysolfc")
    assert g.variant() == {"reserves": "none"}
    g, fixed = get_game("tens-pysolfc")
    assert (g.name, fixed) == ("tens", {"quartets": "rank", "reserves": "pysolfc"})
    # PySolFC's Tens gathers quartets by rank: the suit rule has no reserve form.
    with pytest.raises(ss.VariantError, match="no variant"):
        ss.solve("tens", ss.random_deal(1), reserves="pysolfc")
    # Block Ten: no preset, PySolFC plays our rules (docs/elevens.md). Fifteens under PySolFC's
    # rules is a game of its own, not a slot table entry: its rows hold piles (docs/fifteens.md).
    with pytest.raises(ss.UnknownGameError):
        get_game("block-ten-pysolfc")
    g, fixed = get_game("fifteens-pysolfc")
    assert (g.name, fixed, g.core) == ("fifteens-pysolfc", {}, "games.fifteens_pysolfc._core")


def test_the_reserve_move_parses_and_prints():
    m = Move.from_text(" jh > r ")
    assert m == Move.to_reserve(card_index("JH")) and str(m) == "JH>R"
    assert m.code == (1 << card_index("JH")) | RESERVE_FLAG and Move.from_code(m.code) == m
    assert m != Move.from_text("JH")        # a lone card is a removal, not this move
    assert parse_moves("JH>R 5C+6D") == [m, Move.from_text("6D+5C")]
    with pytest.raises(ss.MoveError, match="not a move"):
        Move.from_text("ZZ>R")


# -- the rules on hand-made deals (pure) ----------------------------------------------------------

#: Elevens: a Jack and a Queen, and number cards of which no two total 11. The classic rule has
#: no move; PySolFC's puts the Jack and the Queen in the reserve and plays on.
ELEVENS = pack("JC QC AC AD 2C 2D 3C 3D 4C",
               "KC TC TD 9C 9D 8C 8D 7C JD QD KD JH QH KH JS QS KS AH TH AS TS 2H 9H 2S 9S "
               "3H 8H 3S 8S 4D 7D 4H 7H 4S 7S 5C 6C 5D 6D 5H 6H 5S 6S")


def test_elevens_court_cards_wait_in_the_reserve_and_their_slot_is_refilled():
    classic = ss.solve("elevens", ELEVENS)
    assert classic.blocked and classic.proof.moves == ()
    _, _, rules = rules_of("elevens-pysolfc")
    pos = rules.start(ELEVENS)
    assert {str(m) for m in rules.moves(pos)} == {"JC>R", "QC>R"}
    pos = rules.play(pos, Move.from_text("JC>R"))
    assert pos.reserve == (card_index("JC"),) and card_index("KC") in pos.slots
    assert "JD>R" not in {str(m) for m in rules.moves(pos)}     # one card of a rank
    pos = rules.play(pos, Move.from_text("KC>R"))
    pos = rules.play(pos, Move.from_text("QC>R"))
    # The third card fills the reserve: the set leaves, and every slot was refilled at once.
    assert pos.reserve == () and bin(pos.removed).count("1") == 3 and None not in pos.slots
    with pytest.raises(ss.MoveError, match="reserve"):
        rules.play(rules.start(ELEVENS), Move.from_text("AC>R"))


#: Tens: the four Queens, a Jack, and number cards of which no two total 10.
TENS = pack("QC QD QH QS JC AC AD 2C 2D 3C 3D 4C 4D",
            "JD JH JS 9C 9D 8C 8D 7C 7D 6C 6D TC TD TH TS KC KD KH KS AH 9H AS 9S 2H 8H 2S 8S "
            "3H 7H 3S 7S 4H 6H 4S 6S 5C 5D 5H 5S")


def test_tens_slots_wait_while_the_reserve_holds_cards():
    _, _, rules = rules_of("tens-pysolfc")
    pos = rules.start(TENS)
    assert {str(m) for m in rules.moves(pos)} == {"QC>R", "QD>R", "QH>R", "QS>R", "JC>R"}
    stock = len(pos.stock)
    for i, q in enumerate(("QC", "QD", "QH"), start=1):
        pos = rules.play(pos, Move.from_text(q + ">R"))
        assert pos.slots.count(None) == i and len(pos.stock) == stock   # no refill meanwhile
    assert "JC>R" not in {str(m) for m in rules.moves(pos)}            # one rank at a time
    pos = rules.play(pos, Move.from_text("QS>R"))
    assert pos.reserve == () and None not in pos.slots and len(pos.stock) == stock - 4


def test_tens_a_rank_not_all_showing_is_a_trap():
    # With the Jack in the reserve no card is ever dealt again, and the other Jacks are in the
    # stock; the Queens first win the position where the Jack first loses.
    _, _, rules = rules_of("tens-pysolfc")
    jack = rules.play(rules.start(TENS), Move.from_text("JC>R"))
    assert reference_search(rules, jack, max_states=10_000).status == "exhausted"
    queens = rules.start(TENS)
    for q in ("QC", "QD", "QH", "QS"):
        queens = rules.play(queens, Move.from_text(q + ">R"))
    assert reference_search(rules, queens, max_states=10_000).status == "won"


# -- the core against the reference ---------------------------------------------------------------

@pytest.mark.core
@pytest.mark.parametrize("preset", PRESETS)
def test_core_verdicts_equal_the_reference_search(preset):
    _, _, rules = rules_of(preset)
    seen = set()
    for seed in range(20 if preset == "tens-pysolfc" else 60):
        d = ss.random_deal(seed)
        r = ss.solve(preset, d, check=True)
        ref = reference_search(rules, rules.start(d), max_states=200_000)
        assert ref.status == ("won" if r.won else "exhausted"), seed
        seen.add(r.status)
    assert seen == {ss.Status.WON, ss.Status.BLOCKED}


@pytest.mark.core
def test_elevens_forced_line_decides_like_every_line():
    # The confluence of docs/proofs.md, checked: the forced line against a search of every move.
    from solitaire_solver.games.slots import _core as _slots
    g, var, _ = rules_of("elevens-pysolfc")
    for seed in range(1500):
        d = ss.random_deal(seed)
        spec = dict(g.core_spec(d, var, "decide", False))
        forced = _slots.solve(spec, "decide", Limits(), False)
        every = _slots.solve(dict(spec, mode=_slots.MODE_ALL), "decide", Limits(), False)
        assert forced.status == every.status, seed


@pytest.mark.core
def test_tens_verdicts_are_the_rank_rules():
    # docs/proofs.md, "PySolFC's Tens": the reserve wins exactly the deals rank quartets win.
    won = 0
    for seed in range(1500):
        d = ss.random_deal(seed)
        r = ss.solve("tens-pysolfc", d)
        assert r.won == ss.solve("tens", d, quartets="rank").won, seed
        won += r.won
    assert won


@pytest.mark.core
def test_elevens_reserve_matters():
    assert ss.solve("elevens-pysolfc", ELEVENS, check=True).won
    differ = [s for s in range(300)
              if ss.solve("elevens-pysolfc", ss.random_deal(s)).won
              and not ss.solve("elevens", ss.random_deal(s)).won]
    assert len(differ) > 50
    # Looser, never stricter: every deal the classic rule wins, the reserve wins.
    assert all(ss.solve("elevens-pysolfc", ss.random_deal(s)).won for s in range(300)
               if ss.solve("elevens", ss.random_deal(s)).won)


# -- proofs and tampering -------------------------------------------------------------------------

def first(preset, status, seeds=range(400)):
    for seed in seeds:
        d = ss.random_deal(seed)
        r = ss.solve(preset, d)
        if r.status == status:
            return d, r
    raise AssertionError(f"no {status} deal")


@pytest.mark.core
@pytest.mark.parametrize("preset", PRESETS)
def test_answers_check_and_tampered_ones_do_not(preset):
    wd, wr = first(preset, ss.Status.WON)
    assert ss.verify(preset, wd, wr).ok
    assert ss.verify(preset, wd, [str(m) for m in wr.moves]).ok
    assert not ss.verify(preset, wd, [str(m) for m in wr.moves[:-1]]).ok
    d, r = first(preset, ss.Status.BLOCKED)
    assert ss.verify(preset, d, r).ok
    p = r.proof
    forged = ss.BlockProof(kind="exhaustive", sentence="forged")
    v = ss.verify(preset, wd, forged)
    assert not v.ok and "can be won" in v.reason
    if preset == "elevens-pysolfc":
        assert p.kind == "forced-line" and "reserve" in p.position
        assert not ss.verify(preset, d, dataclasses.replace(p, moves=p.moves[:-1])).ok
        assert not ss.verify(preset, d, dataclasses.replace(p, position="x")).ok
        # The classic rule's reading of the same line does not hold.
        assert not ss.verify("elevens", d, p).ok
    else:
        # Order matters: a forced line proves nothing; the exhaustive proof's certificate does.
        assert p.kind == "exhaustive"
        v = ss.verify(preset, d, ss.BlockProof(kind="forced-line", sentence="", moves=()))
        assert not v.ok and "order of play matters" in v.reason
        rc = ss.solve(preset, d, certificate=True)
        cert = rc.proof.certificate
        assert rc.blocked and cert and ss.verify(preset, d, rc).ok
        for k in sorted(cert)[:3]:
            assert not ss.verify(preset, d, dataclasses.replace(rc.proof,
                                                                certificate=cert - {k})).ok


# -- the batch path ---------------------------------------------------------------------------------

@pytest.mark.core
def test_elevens_batch_equals_solve():
    from solitaire_solver.games.slots import _core as _slots
    g, var, _ = rules_of("elevens-pysolfc")
    n, start = 3000, -50
    status, left, moves, states = (bytearray(n) for _ in range(4))
    _slots.decide_seeds(g.compiled(_slots, var), start, n, status, left, moves, states)
    for i in range(n):
        # the batch takes any seed, as random.Random does (-n deals seed n's pack)
        r = ss.solve("elevens-pysolfc", ss.random_deal(abs(start + i)))
        assert (status[i] == _slots.BATCH_WON) == r.won, start + i
        assert states[i] == r.stats["states"], start + i
        if r.won:
            assert (moves[i], left[i]) == (len(r.moves), 0)
        else:
            assert (moves[i], left[i]) == (len(r.proof.moves), r.proof.details["cards_left"])
    s = ss.survey("elevens-pysolfc", seeds=range(500), workers=1)
    assert s.path == "batch"
    assert g.batch(var) is not None
    tens, tvar, _ = rules_of("tens-pysolfc")
    assert tens.batch(tvar) is None
    assert ss.survey("tens-pysolfc", seeds=range(30), workers=1).path == "generic"
