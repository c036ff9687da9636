"""The generic search: limits end in UNKNOWN (never BLOCKED), the table's budget holds."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solitaire_solver as ss
from solitaire_solver.engine.contract import Limits
from solitaire_solver.games import get_game
from solitaire_solver.games.slots import _core as _slots

HARD = ss.random_deal(935)  # the Elevens deal of seeds 0..2999 with the most positions


def every_removal(cards, certificate=False, **limits):
    """The slot core's search of an Elevens deal over every legal removal (no forced line)."""
    spec = {"table": get_game("elevens")[0].compiled(_slots), "cards": cards,
            "mode": _slots.MODE_ALL}
    return _slots.solve(spec, "decide", Limits(**limits), certificate)


@pytest.mark.core
def test_tiny_table_replaces_but_decides_the_same():
    replaced = 0
    for seed in range(300):
        cards = ss.random_deal(seed).cards
        big = every_removal(cards)
        tiny = every_removal(cards, memory_bytes=1)
        assert tiny.status == big.status, seed
        # a table starts small and doubles, up to its floor of 1024 slots under any budget
        assert tiny.stats["table_capacity"] <= 1024
        assert tiny.stats["table_used"] <= tiny.stats["table_capacity"]
        replaced += tiny.stats["table_replaced"]
    assert replaced > 0
    tiny = every_removal(HARD.cards, memory_bytes=1)
    big = every_removal(HARD.cards)
    assert tiny.status == big.status == "exhausted"
    assert tiny.stats["table_replaced"] > 0 and big.stats["table_replaced"] == 0
    assert tiny.stats["table_capacity"] == 1024 < big.stats["table_capacity"]
    assert tiny.stats["states"] > big.stats["states"]  # re-explored, not lost


@pytest.mark.core
def test_table_grows_within_budget():
    r = every_removal(HARD.cards, memory_bytes=64 << 20)
    st = r.stats
    assert st["table_used"] == st["states"]
    assert st["table_used"] * 2 <= st["table_capacity"]
    assert st["table_bytes"] <= 64 << 20


@pytest.mark.core
def test_a_short_search_keeps_a_small_table():
    # A decide call that keeps a few dozen positions (most won Pyramid deals) starts with cold
    # caches: it zeroes only the table it needs, not the 1024-slot floor (docs/benchmarks.md).
    sizes = set()
    for seed in range(40):
        r = every_removal(ss.random_deal(seed).cards, max_states=20)
        assert r.stats["table_used"] * 2 <= r.stats["table_capacity"]
        sizes.add(r.stats["table_capacity"])
    assert sizes == {64}
    assert every_removal(HARD.cards, max_states=5000).stats["table_capacity"] >= 8192


@pytest.mark.core
def test_state_limit_is_unknown_not_blocked():
    r = ss.solve("elevens", HARD, certificate=True, max_states=10)
    assert r.status is ss.Status.UNKNOWN
    assert ss.solve("elevens", HARD, max_states=3).status is ss.Status.UNKNOWN
    assert r.proof is None and not r.moves
    assert "state limit (10)" in r.reason
    assert ss.verify("elevens", HARD, r).ok is None  # an UNKNOWN claims nothing: not checked
    status, path, stats, cert, *_ = every_removal(HARD.cards, max_states=10)
    assert status == "limit-states" and stats["states"] == 10 and cert is None


@pytest.mark.core
def test_time_limit_is_unknown():
    status, _, stats, *_ = every_removal(HARD.cards, max_seconds=1e-9, memory_bytes=1)
    assert status == "limit-time"
    assert stats["states"] < 54987  # stopped before the end


@pytest.mark.core  # the budget is the core's table's
def test_certificate_over_budget_is_unknown():
    r = ss.solve("elevens", HARD, certificate=True, memory_mb=0.01)
    assert r.status is ss.Status.UNKNOWN
    assert "memory budget" in r.reason


@pytest.mark.parametrize("kw", [{"max_states": 0}, {"max_states": -5}, {"max_seconds": 0},
                                {"memory_mb": 0}, {"max_states": True}])
def test_bad_limits(kw):
    with pytest.raises(ss.SolitaireError):
        ss.solve("elevens", HARD, **kw)


@pytest.mark.core  # the core's table statistics
def test_stats_report_the_table():
    r = ss.solve("elevens", ss.random_deal(3), certificate=True)
    for key in ("states", "table_probes", "table_hits", "table_replaced", "seconds"):
        assert key in r.stats
    assert r.stats["table_probes"] >= r.stats["states"] - 1


@pytest.mark.core
def test_labelled_table_keeps_the_lowest_label():
    """LABELS (csrc/ttable.c): the low bits of k1 are a label; a key is "seen" only with a label
    as low as the stored one, and a lower label replaces it, through growth as well."""
    from solitaire_solver.engine._engine import table_ops

    ops = [("visit", 7, 5), ("visit", 7, 5), ("visit", 7, 9), ("contains", 7, 4),
           ("visit", 7, 3), ("contains", 7, 4), ("contains", 7, 2),
           ("visit", 7, (1 << 24) | 3), ("visit", 8, 3)]
    got, stats = table_ops(ops, label_bits=24)
    assert got == [0, 1, 1, 0, 0, 1, 0, 0, 0]
    assert stats["improved"] == 1 and stats["used"] == 3
    # Without labels the same words are plain distinct keys.
    got, _ = table_ops(ops, label_bits=0)
    assert got == [0, 1, 0, 0, 0, 0, 0, 0, 0]
    # Growth re-inserts by key alone: 20,000 keys, each lowered once, all still found.
    ops = [("visit", i, 10) for i in range(20000)] + [("visit", i, 4) for i in range(20000)]
    ops += [("contains", i, 4) for i in range(20000)] + [("contains", i, 3) for i in range(20000)]
    got, stats = table_ops(ops, label_bits=8, budget_bytes=64 << 20)
    assert stats["replaced"] == 0 and stats["capacity"] > 4096
    assert got == [0] * 40000 + [1] * 20000 + [0] * 20000
    assert stats["improved"] == 20000


@pytest.mark.core
def test_table_grows_by_load_not_by_clusters():
    """The table doubles when half full, not long before: 100,000 keys fit in 2^18 slots (a
    probe window of 8 filled in clusters at a tenth full, and grew it to 2^20). At a budget of
    2^16 slots, 60,000 keys lose fewer than 5% to replacement, and each key missing afterwards
    is counted as replaced."""
    from solitaire_solver.engine._engine import table_ops

    keys = [(k * 0x9E3779B97F4A7C15 % (1 << 52), k % 7) for k in range(1, 100_001)]
    ops = [("visit", a, b) for a, b in keys] + [("contains", a, b) for a, b in keys]
    got, stats = table_ops(ops, budget_bytes=256 << 20)
    assert stats["capacity"] <= 1 << 18 and stats["used"] == 100_000
    assert got == [0] * 100_000 + [1] * 100_000
    few = keys[:60_000]
    ops = [("visit", a, b) for a, b in few] + [("contains", a, b) for a, b in few]
    got, stats = table_ops(ops, budget_bytes=(1 << 16) * 16)
    missing = 60_000 - sum(got[60_000:])
    assert stats["capacity"] == (1 << 16) - 31  # every slot of the budget, with the tail's 31
    assert missing == stats["replaced"] < 3_000


def _distances_to(n, edges, target):
    """Dijkstra over the reversed edges: the fewest moves (weights) from each node to target."""
    import heapq
    into = {}
    for u, v, w in edges:
        into.setdefault(v, []).append((u, w))
    dist = {target: 0}
    heap = [(0, target)]
    while heap:
        d, v = heapq.heappop(heap)
        if d > dist[v]:
            continue
        for u, w in into.get(v, ()):
            if d + w < dist.get(u, 1 << 30):
                dist[u] = d + w
                heapq.heappush(heap, (d + w, u))
    return [dist.get(v) for v in range(n)]


def _line_length(edges, line, target):
    at, length = 0, 0
    for e in line:
        u, v, w = edges[e]
        assert u == at
        at, length = v, length + w
    assert at == target
    return length


@st.composite
def graphs(draw):
    """A weighted digraph, a target and an admissible bound, often not consistent: each node's
    bound is drawn at or below its true distance. Some edges have a parallel edge of another
    weight: two moves between the same positions at different costs."""
    n = draw(st.integers(2, 14))
    pairs = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
                          .filter(lambda p: p[0] != p[1]), max_size=50, unique=True))
    edges = [(u, v, draw(st.integers(1, 30))) for u, v in pairs]
    if edges:
        edges += [(*edges[i][:2], w) for i, w in draw(st.lists(
            st.tuples(st.integers(0, len(edges) - 1), st.integers(1, 30)), max_size=4))]
    target = draw(st.integers(1, n - 1))
    dist = _distances_to(n, edges, target)
    h = [draw(st.integers(0, 64 if d is None else min(d, 64))) for d in dist]
    return edges, h, target, dist[0]


@pytest.mark.core
@settings(max_examples=500, deadline=None)
@given(graphs(), st.booleans(), st.sampled_from(["room", "none"]))
def test_best_first_finds_shortest_lines_with_any_admissible_bound(case, expand_all, memory):
    """best_first (A*, with PARTIAL expansion or storing every child) on small weighted graphs
    whose bounds are admissible but often inconsistent, so that nodes are reached again with a
    lower g after they were expanded, in part or whole: the line it returns is a path to the
    target of the shortest length (Dijkstra), and no line means there is none. With a budget of
    one byte A* stops at once and DEEPEN (iterative deepening) must give the same answers, on
    graphs with cycles too."""
    from solitaire_solver.engine._engine import graph_shortest
    edges, h, target, want = case
    status, line, stats = graph_shortest(edges, h, target, expand_all,
                                         1 << 24 if memory == "room" else 1)
    assert ("fallback" in stats) == (memory == "none")
    if want is None:
        assert status == 1 and line == []  # SEARCH_EXHAUSTED
        return
    assert status == 0  # SEARCH_WON
    assert _line_length(edges, line, target) == want


@pytest.mark.core
def test_partial_expansion_forgets_a_raised_bound_when_g_drops():
    """PARTIAL queues a node expanded in part again with a raised bound, which holds for its g
    then. Node X (1) is expanded in part at g 10 (child d, 4, is left for f 20, so X's bound is
    raised to 10), then reached with g 2 through A (2), whose bound (10, its distance) is not
    consistent with X's (0). Kept at 2 + 10, X would sit at the length A's own win gives (12)
    and the search would end there; with the plain bound again, the line 0 A X c T (11) is
    found. (Built for best_first's PEA_DELTA of 3: the children within 3 of a node's f are
    stored with it.)"""
    from solitaire_solver.engine._engine import graph_shortest
    edges = [(0, 1, 10), (0, 2, 1), (2, 1, 1), (1, 3, 1), (3, 5, 8), (1, 4, 1), (4, 5, 9),
             (0, 5, 30), (2, 5, 11)]
    h = [0, 0, 10, 2, 9, 0]
    assert _distances_to(6, edges, 5) == [11, 9, 10, 8, 9, 0]  # every bound admissible
    for expand_all in (False, True):
        status, line, stats = graph_shortest(edges, h, 5, expand_all)
        assert status == 0 and [edges[e][:2] for e in line] == [(0, 2), (2, 1), (1, 3), (3, 5)]
    assert stats["reexpanded"] == 0 and graph_shortest(edges, h, 5)[2]["reexpanded"] >= 1


def _random_graph(rng, n, degree):
    """A random weighted digraph on n nodes with a path 0 .. n-1 (weights 1..30), its target and
    an admissible bound drawn below each node's distance (often not consistent)."""
    pairs = {(i, i + 1) for i in range(n - 1)}
    while len(pairs) < degree * n:
        u, v = rng.randrange(n), rng.randrange(n)
        if u != v:
            pairs.add((u, v))
    edges = [(u, v, rng.randint(1, 30)) for u, v in sorted(pairs)]
    target = n - 1
    dist = _distances_to(n, edges, target)
    h = [rng.randint(0, min(d, 64)) if d is not None else rng.randint(0, 64) for d in dist]
    return edges, h, target, dist[0]


@pytest.mark.core
def test_deepening_takes_over_midway_and_with_a_table_that_forgets():
    """DEEPEN after an A* search that ran partway (its budget half of what it needs: it starts
    from A*'s least f, not from the root's bound) and with a budget so small that the
    deepening's table forgets positions: the shortest length (Dijkstra) every time, found at the
    last threshold."""
    import random

    from solitaire_solver.engine._engine import graph_shortest
    rng = random.Random(18)
    midway = forgot = 0
    for _ in range(40):
        edges, h, target, want = _random_graph(rng, rng.randint(300, 700), 3)
        least = graph_shortest(edges, h, target, False, 1)[2]["table_bytes"]
        full = graph_shortest(edges, h, target)[2]
        if full["table_bytes"] <= least + 4096:
            continue
        status, line, stats = graph_shortest(edges, h, target, False,
                                             (least + full["table_bytes"]) // 2)
        assert status == 0 and _line_length(edges, line, target) == want
        if stats.get("fallback") and stats["astar_states"] > 10:
            midway += 1
            assert stats["deepening_from"] <= stats["deepening_to"] == want
    for _ in range(8):
        edges, h, target, want = _random_graph(rng, 3000, 2)
        # a weaker bound (still admissible) widens the walk past the table's 1,024 slots
        status, line, stats = graph_shortest(edges, [x // 4 for x in h], target, False, 1)
        assert status == 0 and _line_length(edges, line, target) == want
        forgot += stats["deepening_table_replaced"] > 0
    assert midway >= 10 and forgot >= 3, (midway, forgot)


DEEP_CHAIN = """
import threading, time
from solitaire_solver.engine._engine import graph_shortest
n = 3000
# A line of 2,999 moves; the edge back of weight 63 makes the game's bound on a line 63 n,
# so that A*'s queue outgrows 4 MiB after some 400 positions and DEEPEN walks the rest.
edges = [(i, i + 1, 1) for i in range(n - 1)] + [(1, 0, 63)]
out = {}
threading.stack_size(128 << 10)
t = threading.Thread(target=lambda: out.setdefault("r", graph_shortest(edges, [0] * n, n - 1,
                                                                       False, 4 << 20)))
t.start()
ticks = 0
while t.is_alive():
    time.sleep(0.001)
    ticks += t.is_alive()
t.join()
status, line, stats = out["r"]
print(status, len(line), stats["fallback"], stats["deepening_iterations"] > 1000, ticks)
"""


@pytest.mark.core
def test_deepening_walks_long_lines_off_the_c_stack_and_without_the_gil():
    """DEEPEN's walk is a loop over a stack on the heap: a line of 2,999 moves, walked in a
    thread with a 128 KiB stack, is found (a walk that recursed once per move crashed the
    process at about 3,000 levels there). The walk releases the GIL, as A* does: the main
    thread keeps running while the search does. In a child process, so a crash fails the test
    instead of the run."""
    import os
    import subprocess
    import sys
    from pathlib import Path
    # The child imports the same solitaire_solver as the tests, not a source tree (without the
    # compiled core) in the working directory.
    env = {**os.environ, "PYTHONPATH": str(Path(ss.__file__).parent.parent)}
    p = subprocess.run([sys.executable, "-c", DEEP_CHAIN], capture_output=True, text=True,
                       env=env, timeout=600, cwd=os.path.expanduser("~"))
    assert p.returncode == 0, p.stderr[-2000:]
    status, moves, fallback, long_walk, ticks = p.stdout.split()
    assert (status, moves, fallback, long_walk) == ("0", "2999", "deepening", "True")
    assert int(ticks) >= 10, "the main thread did not run while the search did"


@pytest.mark.core
def test_best_first_reads_back_the_cheaper_of_two_moves_between_the_same_positions():
    """Two moves lead from 0 to 1, costing 5 and 2. A* reached 1 at cost 2; reading the line
    back, it must take that move, not the first one listed (which made the engine report an
    inconsistent bound), with A* alone and after DEEPEN."""
    from solitaire_solver.engine._engine import graph_shortest
    edges = [(0, 1, 5), (0, 1, 2), (1, 2, 1), (2, 3, 1)]
    for budget in (1 << 24, 1):
        status, line, _ = graph_shortest(edges, [0, 0, 0, 0], 3, False, budget)
        assert status == 0 and line == [1, 2, 3]


@pytest.mark.core
def test_prefetching_children_walks_the_same_positions():
    """Depth-first walks fetch their children's table slots ahead once the table outgrows the
    caches (engine/_engine.pyx, descend): with that from the first slot and with none, each
    game's search takes the same positions, probes and moves and returns the same line."""
    from solitaire_solver.engine import _engine

    cases = [("elevens", 935, None), ("fifteens", 2, None), ("pyramid", 10, None),
             ("baroness", 9, None), ("baroness-pysolfc", 4, 200_000), ("calculation", 24, 60_000),
             ("fourteen", 5, None), ("monte-carlo", 25, None), ("nestor", 15, None),
             ("fifteens-pysolfc", 2, None)]

    def walks():
        out = []
        for game, seed, cap in cases:
            r = ss.solve(game, ss.random_deal(seed), max_states=cap)
            out.append((game, r.status, [str(m) for m in r.moves],
                        {k: v for k, v in r.stats.items() if k != "seconds"}))
        r = ss.solve("pyramid", ss.random_deal(3), objective="score")
        out.append(("pyramid score", r.status, r.score, r.stats.get("states")))
        return out

    old = _engine.set_prefetch_homes(0)
    try:
        ahead = walks()
        _engine.set_prefetch_homes(1 << 62)
        plain = walks()
    finally:
        _engine.set_prefetch_homes(old)
    assert ahead == plain
    assert sum(w[3]["states"] for w in plain[:-1]) > 300_000
