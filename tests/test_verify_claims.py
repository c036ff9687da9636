"""Issue "Hardening, third round", items 1 and 7: verify checks every claim it answers ok for,
from the position it names; the state figure a call reports is the one its limit counts."""

import random

import pytest

import solitaire_solver as ss
from solitaire_solver.games import get_game

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
