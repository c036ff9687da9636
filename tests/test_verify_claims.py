"""Issue "Hardening, third round", items 1 and 7: verify checks every claim it answers ok for,
from the position it names; the state figure a call reports is the one its limit counts."""

import dataclasses
import random
import tracemalloc

import pytest

import solitaire_solver as ss
from solitaire_solver import proofs
from solitaire_solver.games import get_game
from solitaire_solver.result import Result, Status

PYRAMID = get_game("pyramid")[0]


def _losing_line(deal, plies, **variant):
    """A line of random legal moves (the reference rules) after which the deal is lost."""
    rules = PYRAMID.rules(PYRAMID.variant(**variant))
    for seed in range(200):
        rng = random.Random(seed)
        pos, line = rules.start(deal), []
        while len(line) < plies and not rules.won(pos):
            m = rng.choice(rules.moves(pos))
            line.append(m)
            pos = rules.apply(pos, m)
        if len(line) == plies and ss.solve("pyramid", deal, after=line, **variant).blocked:
            return line
    raise AssertionError("no losing line found")


# -- 1. a Result's own prefix is not trusted ---------------------------------------------------

def test_a_block_found_after_moves_is_not_taken_for_the_deals():
    # Before: verify(game, deal, r) checked from the position after r.after and said ok=True,
    # "a re-search explored 514 positions, none won", of a deal that is won from its start.
    deal = ss.random_deal(0)
    assert ss.solve("pyramid", deal).won
    line = _losing_line(deal, 41)
    r = ss.solve("pyramid", deal, after=line)
    assert r.blocked and r.after == tuple(line)
    v = ss.verify("pyramid", deal, r)
    assert v.ok is False, v
    assert "after 41 moves" in v.reason and "not the deal's start" in v.reason
    assert "after=" in v.reason
    # Named, it checks, and the reason says from where.
    v = ss.verify("pyramid", deal, r, after=line)
    assert v.ok is True and v.reason.startswith(f"after 41 moves ({line[0]} "), v
    v = ss.verify("pyramid", deal, r.proof, after=line)
    assert v.ok is True and v.reason.startswith("after 41 moves ("), v
    # Named otherwise, it does not.
    v = ss.verify("pyramid", deal, r, after=line[:40])
    assert v.ok is False and "after 41 moves" in v.reason and "not this one" in v.reason
    # solve(check=True) names its own prefix.
    checked = ss.solve("pyramid", deal, after=line, check=True)
    assert checked.blocked and checked.stats["check"].startswith("after 41 moves (")


def test_a_won_line_after_moves_names_its_position():
    deal = ss.random_deal(0)
    r = ss.solve("pyramid", deal)
    head = list(r.moves[:5])
    rest = ss.solve("pyramid", deal, after=head)
    assert rest.won
    assert ss.verify("pyramid", deal, rest).ok is False
    v = ss.verify("pyramid", deal, rest, after=head)
    assert v.ok is True and v.reason.startswith("after 5 moves (") and "wins" in v.reason
    # A line checked from the start says nothing of a position.
    assert ss.verify("pyramid", deal, r).reason.startswith("the line of")


# -- 7. the states reported are the states the limit counts --------------------------------------

@pytest.mark.core  # the shortest objective is the core's
@pytest.mark.parametrize("game,seed,variant", [("pyramid", 0, {}), ("pyramid-msc", 1, {}),
                                               ("pyramid", 0, {"memory_mb": 0.05})])
def test_shortest_ends_the_same_under_the_states_it_reports(game, seed, variant):
    # Before: seed 0 reported 28,273 states (its A* search's) and max_states=28,273 gave
    # UNKNOWN: the limit also counted the 842 positions of the decide search run first.
    deal = ss.random_deal(seed)
    r = ss.solve(game, deal, objective="shortest", **variant)
    n = r.stats["states"]
    assert r.won and 0 < r.stats["decide_states"] < n
    same = ss.solve(game, deal, objective="shortest", max_states=n, **variant)
    assert same.status is r.status and len(same.moves) == len(r.moves)
    assert same.stats["states"] == n
    short = ss.solve(game, deal, objective="shortest", max_states=n - 1, **variant)
    assert short.status is ss.Status.UNKNOWN


# -- 1. a claim of the fewest moves is checked, or said not to be -------------------------------

def _as_shortest(r, after=()):
    """A Result claiming r's line as one of the fewest moves (a forgery when it is not)."""
    return Result(r.game, Status.WON, moves=r.moves, variant=r.variant, objective="shortest",
                  after=tuple(after))


def test_a_longer_line_claimed_as_the_fewest_moves_is_not_ok():
    # Before: a forged shortest Result of a 61-move winning line (45 moves suffice) got ok=True,
    # "legal and wins": the length was never looked at.
    deal = ss.random_deal(1)
    long = ss.solve("pyramid", deal)   # 61 moves with the core, 55 with the fallback
    assert long.won and len(long.moves) > 50
    v = ss.verify("pyramid", deal, _as_shortest(long), max_states=20_000)
    assert v.ok is None and not v, v
    assert v.reason.startswith(f"not checked: the line of {len(long.moves)} moves is legal and "
                               "wins")
    assert "state limit (20000)" in v.reason
    v = ss.verify("pyramid", deal, _as_shortest(long), memory_mb=2)
    assert v.ok is None and "memory budget (2 MiB" in v.reason, v


def test_a_shorter_line_refutes_a_claim_of_the_fewest_moves():
    deal = ss.random_deal(6)
    head = list(ss.solve("pyramid", deal).moves)
    rules = PYRAMID.rules(PYRAMID.variant())
    # Near the end of the decide search's line, a position from which its line is longer than
    # need be: the check finds one of fewer moves and says which.
    for k in range(len(head) - 4, 0, -1):
        r = ss.solve("pyramid", deal, after=head[:k])
        fewest = _bfs_length(rules, ss.api.replay(rules, deal, head[:k]))
        if r.won and fewest is not None and len(r.moves) > fewest:
            break
    else:
        raise AssertionError("no position with a longer line than need be")
    v = ss.verify("pyramid", deal, _as_shortest(r, head[:k]), after=head[:k])
    assert v.ok is False, v
    assert v.reason.startswith(f"after {k} moves (")
    assert f"{len(r.moves)} moves are not the fewest: a line of {fewest} wins" in v.reason


def _bfs_length(rules, pos, cap=200_000):
    """The fewest moves that win from pos, by a plain breadth-first search (None: no win)."""
    seen, layer, n = {rules.key(pos)}, [pos], 0
    while layer and len(seen) < cap:
        if any(rules.won(p) for p in layer):
            return n
        n += 1
        nxt = []
        for p in layer:
            for m in rules.moves(p):
                c = rules.apply(p, m)
                if rules.key(c) not in seen:
                    seen.add(rules.key(c))
                    nxt.append(c)
        layer = nxt
    return None


@pytest.mark.core  # the shortest objective is the core's
def test_the_fewest_moves_check_agrees_with_a_plain_breadth_first_search():
    checked = 0
    for seed in range(4):
        deal = ss.random_deal(seed)
        full = ss.solve("pyramid", deal, objective="shortest")
        if not full.won:
            continue
        k = len(full.moves) - 14
        r = ss.solve("pyramid", deal, objective="shortest", after=full.moves[:k])
        rules = PYRAMID.rules(PYRAMID.variant())
        assert len(r.moves) == _bfs_length(rules, ss.api.replay(rules, deal, full.moves[:k]))
        v = ss.verify("pyramid", deal, r, after=full.moves[:k])
        assert v.ok is True and "no line of fewer moves wins" in v.reason, v
        again = ss.solve("pyramid", deal, objective="shortest", after=full.moves[:k], check=True)
        assert again.stats["check"] == v.reason
        checked += 1
    assert checked >= 2
    deal = ss.random_deal(0)
    r = ss.solve("pyramid", deal, objective="shortest")
    v = ss.verify("pyramid", deal, r)   # 69,415 positions
    assert v.ok is True and v.reason.startswith("the line of 38 moves is legal and wins; no line")


# -- 1. the checks keep to a memory budget -------------------------------------------------------

@pytest.mark.core  # the score objective is the core's
def test_the_best_score_check_keeps_to_its_memory_budget():
    # Before: verify had no memory_mb, and the check of a best score grew without a bound (one
    # deal of the issue-4 score set past 6 GB).
    deal = ss.random_deal(1)
    r = ss.solve("pyramid", deal, objective="score")   # 35: a search of millions to check
    tracemalloc.start()
    try:
        v = ss.verify("pyramid", deal, r, memory_mb=4)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert v.ok is None and not v, v
    assert v.reason.startswith("not checked: the search for a better score reached the memory "
                               "budget (4 MiB, about 6,990 positions")
    assert peak < 4 << 20, peak
    small = ss.random_deal(775)                         # 3,539 positions under one pass
    r = ss.solve("pyramid", small, objective="score", passes=1)
    assert ss.verify("pyramid", small, r, passes=1).ok is True
    v = ss.verify("pyramid", small, r, passes=1, memory_mb=1)
    assert v.ok is None and "memory budget (1 MiB" in v.reason


def test_the_fewest_moves_check_keeps_to_its_memory_budget():
    deal = ss.random_deal(1)
    long = ss.solve("pyramid", deal)
    tracemalloc.start()
    try:
        v = ss.verify("pyramid", deal, _as_shortest(long), memory_mb=4)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert v.ok is None and "memory budget (4 MiB" in v.reason, v
    assert peak < 4 << 20, peak


def test_the_re_search_of_a_block_keeps_to_its_memory_budget():
    deal = ss.random_deal(5)
    r = ss.solve("fourteen", deal)
    assert r.blocked and r.proof.kind == "exhaustive" and r.proof.certificate is None
    assert ss.verify("fourteen", deal, r).ok is True   # 16,164 positions
    tracemalloc.start()
    try:
        v = ss.verify("fourteen", deal, r, memory_mb=1)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert v.ok is None and "the re-search reached the memory budget (1 MiB" in v.reason, v
    assert peak < 1 << 20, peak


# -- 1. the score objective's certificate ---------------------------------------------------------

@pytest.mark.core  # the score objective is the core's
def test_a_best_score_certificate_checks_without_a_search():
    deal = ss.random_deal(775)
    r = ss.solve("pyramid", deal, objective="score", passes=1, certificate=True)
    assert r.won and r.score == -40 and r.proof.kind == "best-score"
    assert r.proof.states == len(r.proof.certificate) >= 3539
    # No search: the limits that stop the search-based check do not stop it.
    for limits in ({}, {"max_states": 10}, {"memory_mb": 0.01}):
        v = ss.verify("pyramid", deal, r, passes=1, **limits)
        assert v.ok is True and "the certificate is closed" in v.reason, (limits, v)
    # As to_dict() writes it, a list of lists.
    listed = r.proof.to_dict()["certificate"]
    assert all(isinstance(k, list) and len(k) == 4 for k in listed)
    as_read = dataclasses.replace(r, proof=dataclasses.replace(r.proof, certificate=listed))
    assert ss.verify("pyramid", deal, as_read, passes=1).ok is True
    # A torn certificate, or a lower claim with the same certificate, does not check.
    rules = PYRAMID.rules(PYRAMID.variant(passes=1))
    root = proofs.score_state(rules, rules.start(deal))
    torn = r.proof.certificate - {max(r.proof.certificate - {root})}
    v = ss.verify("pyramid", deal, dataclasses.replace(
        r, proof=dataclasses.replace(r.proof, certificate=torn)), passes=1)
    assert v.ok is False and "leads out of the certificate" in v.reason, v
    less = list(r.moves[:-1])
    lower = dataclasses.replace(r, moves=tuple(less), score=PYRAMID.score(
        deal, PYRAMID.variant(passes=1), less))
    assert lower.score < -40
    v = ss.verify("pyramid", deal, lower, passes=1)
    assert v.ok is False and "is not the best score" in v.reason, v
    # A proof of another kind on a score answer is refused.
    odd = dataclasses.replace(r, proof=dataclasses.replace(r.proof, kind="exhaustive"))
    assert ss.verify("pyramid", deal, odd, passes=1).ok is False


@pytest.mark.core  # the score objective is the core's
def test_a_best_score_certificate_of_a_cleared_pyramid_and_from_mid_game():
    deal = ss.random_deal(5)      # 50: the pyramid cleared in the first pass
    r = ss.solve("pyramid", deal, objective="score", passes=1, certificate=True)
    assert r.score == 50 and ss.verify("pyramid", deal, r, passes=1).ok is True
    deal = ss.random_deal(775)
    head = list(ss.solve("pyramid", deal, objective="score", passes=1).moves[:6])
    r = ss.solve("pyramid", deal, objective="score", passes=1, certificate=True, after=head)
    v = ss.verify("pyramid", deal, r, passes=1, after=head)
    assert v.ok is True and v.reason.startswith("after 6 moves (") and "certificate" in v.reason
    assert r.score == ss.solve("pyramid", deal, objective="score", passes=1, after=head).score


@pytest.mark.core  # the score objective is the core's
def test_the_search_that_collects_a_score_certificate_finds_the_same_best():
    # It plays every move and cuts with the pass bonus alone: the same best score as the search
    # with its pruning, or UNKNOWN when its certificate outgrows the budget, never another.
    for seed in range(4):
        deal = ss.random_deal(seed)
        for variant in ({"passes": 1}, {"passes": 1, "goal": "pyramid"}):
            cert = ss.solve("pyramid", deal, objective="score", certificate=True, memory_mb=32,
                            **variant)
            plain = ss.solve("pyramid", deal, objective="score", **variant)
            assert cert.status is ss.Status.UNKNOWN or cert.score == plain.score, (seed, variant)
            if cert.status is ss.Status.UNKNOWN:
                assert "memory budget" in cert.reason
