"""Simple Pairs (PySolFC 91) and Thirteens (PySolFC 593): the slot core against the reference rules,
the order of play, proofs and their tampering, the batch path, the command line."""

from __future__ import annotations

import dataclasses
import json

import pytest

import solitaire_solver as ss
from solitaire_solver import cli
from solitaire_solver.cards import card_index
from solitaire_solver.engine.contract import Limits
from solitaire_solver.engine.search import reference_search
from solitaire_solver.games import get_game
from solitaire_solver.games.slots import _core as _slots

pytestmark = pytest.mark.core

GAMES = ["simple-pairs", "thirteens"]


def core_run(name, deal, mode):
    g = get_game(name)[0]
    spec = dict(g.core_spec(deal, g.variant(), "decide", False), mode=mode)
    return _slots.solve(spec, "decide", Limits(), False)


def first_deal(name, status):
    for seed in range(3000):
        r = ss.solve(name, ss.random_deal(seed))
        if r.status is status:
            return ss.random_deal(seed), r
    raise AssertionError(f"no {status} deal")


def pack_starting(text: str) -> ss.Deal:
    first = [card_index(t) for t in text.split()]
    return ss.Deal(first + [c for c in range(52) if c not in first])


def test_registered_with_their_layouts_and_pysolfc_names():
    sp, th = get_game("jamestown")[0], get_game("Thirteen")[0]
    assert (sp.name, th.name) == ("simple-pairs", "thirteens")
    assert sp.table.slots == 9 and th.table.slots == 10 and th.table.columns == 5
    for g in (sp, th):
        assert g.table.confluent and g.order_independent and g.batch(g.variant()) is not None
    rules = th.rules({})
    lines = rules.render(rules.start(ss.random_deal(4))).splitlines()
    assert [len(line.split()) for line in lines[:2]] == [5, 5]
    assert lines[2].startswith("stock: 42 cards")


def test_the_removals_each_game_allows():
    # Thirteens: a King leaves alone, two cards totalling 13 leave together, a Queen and a King
    # do not (13 is only reached without a King).
    d = pack_starting("KS QH AD 6C 7C 2S 2D 3H 4H 5H")
    th = get_game("thirteens")[0].rules({})
    moves = {str(m) for m in th.moves(th.start(d))}
    assert {"KS", "AD+QH", "6C+7C"} <= moves and not any("KS+" in m or "+KS" in m for m in moves)
    assert all(m.count("+") <= 1 for m in moves)
    # Simple Pairs: only equal ranks, whatever their suits
    d = pack_starting("KS KH AD 6C 7C 2S 2D 3H 4H")
    sp = get_game("simple-pairs")[0].rules({})
    assert {str(m) for m in sp.moves(sp.start(d))} == {"2D+2S", "KH+KS"}
    with pytest.raises(ss.MoveError, match="same rank"):
        ss.solve("simple-pairs", d, after="AD+6C")


@pytest.mark.parametrize("name", GAMES)
def test_core_verdicts_equal_the_reference_search(name):
    g = get_game(name)[0]
    rules = g.rules(g.variant())
    # (the reference search tries every order of play: Thirteens' many pairs make it slow)
    for seed in range({"simple-pairs": 150, "thirteens": 25}[name]):
        d = ss.random_deal(seed)
        ref = reference_search(rules, rules.start(d)).status
        r = ss.solve(name, d)
        assert (r.won, r.blocked) == (ref == "won", ref == "exhausted"), seed


@pytest.mark.parametrize("name", GAMES)
def test_forced_line_decides_like_every_line(name):
    """The order of play does not matter (docs/proofs.md): one forced line decides as the
    searches over one removal per rank multiset and over every removal do."""
    seen = set()
    for seed in range(1500):
        d = ss.random_deal(seed)
        statuses = {core_run(name, d, m).status
                    for m in (_slots.MODE_FORCED, _slots.MODE_PER_KIND, _slots.MODE_ALL)}
        assert len(statuses) == 1, seed
        seen |= statuses
    assert seen == {"won", "exhausted"}


@pytest.mark.parametrize("name", GAMES)
def test_every_answer_checks_and_tampered_proofs_do_not(name):
    for seed in range(120):
        d = ss.random_deal(seed)
        r = ss.solve(name, d)
        v = ss.verify(name, d, r)
        assert v.ok, (seed, v.reason)
    d, r = first_deal(name, ss.Status.BLOCKED)
    p = r.proof
    assert p.kind == "forced-line"
    if p.moves:
        assert not ss.verify(name, d, dataclasses.replace(p, moves=p.moves[:-1])).ok
    details = dict(p.details, stock_left=p.details["stock_left"] + 1)
    assert not ss.verify(name, d, dataclasses.replace(p, details=details)).ok
    wd, wr = first_deal(name, ss.Status.WON)
    assert not ss.verify(name, wd, ss.BlockProof(kind="exhaustive", sentence="forged")).ok
    rules = get_game(name)[0].rules({})
    pos = rules.start(wd)
    for m in wr.moves:
        pos = rules.play(pos, m)
    assert rules.won(pos)


@pytest.mark.parametrize("name", GAMES)
def test_batch_verdicts_equal_solve(name):
    g = get_game(name)[0]
    n, start = 1500, -50
    status, left, moves, states = (bytearray(n) for _ in range(4))
    _slots.decide_seeds(g.compiled(_slots, g.variant()), start, n, status, left, moves, states)
    for i in range(n):
        # the batch takes any seed, as random.Random does (-n deals seed n's pack)
        r = ss.solve(name, ss.random_deal(abs(start + i)))
        assert (status[i] == _slots.BATCH_WON) == r.won, start + i
        assert states[i] == r.stats["states"], start + i
    # a survey's seeds are 0 or more: the same count over the batch's seeds from 0
    r = ss.survey(name, seeds=range(0, start + n), workers=1)
    assert r.path == "batch" and r.won == sum(s == _slots.BATCH_WON for s in status[-start:])


def test_cli_solves_both(capsys):
    assert cli.main(["solve", "thirteens", "--seed", "3"]) in (0, 1)
    assert "stock: 42 cards" in capsys.readouterr().out
    code = cli.main(["solve", "simple-pairs", "--seed", "1", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "simple-pairs" and code == {"won": 0, "blocked": 1}[data["status"]]
