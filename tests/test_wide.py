"""The wide search (engine/_wide.pyx) and its table (csrc/wtable.c): full keys, exact on graphs
with cycles, also past the memory budget."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytestmark = pytest.mark.core


def wide():
    from solitaire_solver.engine import _wide
    return _wide


def reachable(succ, root):
    seen, todo = {root}, [root]
    while todo:
        for u in succ[todo.pop()]:
            if u not in seen:
                seen.add(u)
                todo.append(u)
    return seen


def check_run(succ, root, target, run):
    status, path, stats, cert = run
    if status == 0:  # SEARCH_WON: a walk from root along edges to target
        v = root
        for u in path:
            assert u in succ[v]
            v = u
        assert v == target
    elif status == 1:  # SEARCH_EXHAUSTED
        assert target not in reachable(succ, root)
        if cert is not None:
            assert set(cert) == reachable(succ, root)
    return status


@given(st.integers(1, 60).flatmap(lambda n: st.tuples(
    st.lists(st.lists(st.integers(0, n - 1), max_size=4), min_size=n, max_size=n),
    st.integers(0, n - 1), st.integers(-1, n - 1), st.integers(1, 8), st.booleans())))
def test_graph_search_is_reachability(case):
    succ, root, target, words, cert = case
    run = wide().graph_search(succ, root, target, words=words, certificate=cert)
    want = target in reachable(succ, root)
    assert check_run(succ, root, target, run) == (0 if want else 1)


def chain_with_back_edges(n, back):
    """0 -> 1 -> ... -> n-1, each node also back to the node `back` before it: one line holds
    every node, and each back edge leads to a position on it."""
    return [([v + 1] if v + 1 < n else []) + ([v - back] if v >= back else []) for v in range(n)]


def line_with_leaves(n, back, leaves):
    """chain_with_back_edges with `leaves` dead ends below each node of the line, tried first:
    they fill the table, which then forgets positions of the line."""
    m = n + n * leaves
    return [[n + v * leaves + i for i in range(leaves)] + succ for v, succ in
            enumerate(chain_with_back_edges(n, back))] + [[] for _ in range(m - n)]


def line_with_trees(n, back, depth):
    """chain_with_back_edges with a binary tree of dead ends, `depth` levels below its root,
    below each node of the line, tried first: many positions for a narrow stack (three moves a
    position at most), so that the table fills and forgets positions of the line while the
    stack, a quarter of the budget, still holds the whole line."""
    size = 2 ** (depth + 1) - 1
    succ = [[n + v * size] + s for v, s in enumerate(chain_with_back_edges(n, back))]
    return succ + trees(n, n, depth)


def trees(count, base, depth):
    """`count` binary trees of dead ends, `depth` levels below each root, numbered from base
    (each tree's nodes in a row, its root first)."""
    size = 2 ** (depth + 1) - 1
    return [[b + 2 * i + 1, b + 2 * i + 2] if 2 * i + 2 < size else []
            for b in range(base, base + count * size, size) for i in range(size)]


def test_past_the_budget_a_cycle_on_the_line_is_not_entered_again():
    # The table forgets positions of the line, and a back edge to one of them must not start
    # the line again (that would loop until the stack passes the budget): the path set keeps
    # them. The table that forgets its home slot's key forgets the line's keys as any other;
    # the weighted one keeps them (busy) unless a whole window is busy, which the path set
    # covers all the same.
    succ = line_with_trees(2000, 7, 4)
    for weighted in (False, True):
        status, path, stats, cert = wide().graph_search(succ, 0, -1, words=2,
                                                        memory_bytes=1 << 20, weighted=weighted)
        assert status == 1 and stats["table_replaced"] > 0
        assert (stats["path_hits"] > 0) == (not weighted)
        status, path, *_ = wide().graph_search(succ, 0, 1999, words=2, memory_bytes=1 << 20,
                                               weighted=weighted)
        assert status == 0 and path == list(range(1, 2000))


M64 = (1 << 64) - 1


def wt_hash(key):
    """csrc/wtable.c's hash of a key (a list of words)."""
    h = (0x9E3779B97F4A7C15 * len(key)) & M64
    for k in key:
        h ^= k
        h ^= h >> 30
        h = (h * 0xBF58476D1CE4E5B9) & M64
        h ^= h >> 27
        h = (h * 0x94D049BB133111EB) & M64
        h ^= h >> 31
    return h


def test_a_window_full_of_the_line_falls_back_on_the_path_set():
    # The weighted table forgets a key of the line only when its whole window is busy: here a
    # line of 45 positions whose one-word keys share one home slot (with back edges up the
    # line), below a tree of dead ends that fills the table. The window's 32 slots hold 32 of
    # them; the others evict busy keys, and the path set keeps the line simple.
    homes, depth, length, back = 3041, 13, 45, 7  # 1 << 16 bytes: 3,041 homes of two words
    size = 2 ** (depth + 1) - 1
    first = 1 + size
    home = (wt_hash([first]) * homes) >> 64
    line = [v for v in range(first, first + 10 ** 6) if (wt_hash([v]) * homes) >> 64 == home]
    line = line[:length]
    succ = [[] for _ in range(line[-1] + 1)]
    succ[0] = [1, line[0]]
    succ[1:1 + size] = trees(1, 1, depth)
    for i, v in enumerate(line):
        succ[v] = line[i + 1:i + 2] + ([line[i - back]] if i >= back else [])
    reachable_count = 1 + size + length
    status, path, stats, _ = wide().graph_search(succ, 0, -1, words=1, memory_bytes=1 << 16)
    assert stats["table_capacity"] == homes
    assert status == 1 and stats["path_hits"] > 0 and stats["states"] == reachable_count
    status, path, *_ = wide().graph_search(succ, 0, line[-1], words=1, memory_bytes=1 << 16)
    assert status == 0 and path == line


def hubs(entries, count, depth, links, rng):
    """A line of `entries` nodes, each with moves to `links` of `count` hubs (tried first), each
    hub the root of a binary tree of dead ends `depth` levels deep: every hub is reached again
    and again, and each costs its whole tree when the table has forgotten it."""
    size = 2 ** (depth + 1) - 1
    succ = [[entries + j * size for j in rng.sample(range(count), links)]
            + ([v + 1] if v + 1 < entries else []) for v in range(entries)]
    return succ + trees(count, entries, depth)


def test_past_the_budget_the_weighted_table_keeps_the_costly_keys():
    # The table holds a quarter of the graph. Forgetting the home slot's key forgets hubs, whose
    # trees are then searched again; the weighted table gives up leaves and keeps every hub, so
    # its search counts each position once.
    succ = hubs(1000, 8, 12, 4, random.Random(1))
    runs = {w: wide().graph_search(succ, 0, -1, words=2, memory_bytes=1 << 19, weighted=w)
            for w in (False, True)}
    for status, _, stats, _ in runs.values():
        assert status == 1 and stats["table_replaced"] > 0
    assert runs[True][2]["states"] == len(succ)
    assert runs[False][2]["states"] > len(succ)


def test_within_the_budget_the_path_set_is_not_needed():
    succ = chain_with_back_edges(500, 3)
    status, _, stats, _ = wide().graph_search(succ, 0, -1, words=2)
    assert status == 1 and stats["table_replaced"] == 0 and stats["path_hits"] == 0


@pytest.mark.parametrize("weighted", [False, True])
def test_tiny_table_on_random_cyclic_graphs_answers_exactly_or_stops_at_a_limit(weighted):
    rng = random.Random(5)
    exact = 0
    for _ in range(30):
        # levels of nodes, edges to the next level and back to the one before (cycles)
        levels, width = rng.randrange(10, 30), rng.randrange(300, 1000)
        n = levels * width
        succ = []
        for v in range(n):
            lv = v // width
            succ.append([(lv + 1) * width + rng.randrange(width) for _ in range(rng.randrange(3))]
                        if lv + 1 < levels else [])
            if lv and rng.random() < 0.3:
                succ[-1].append((lv - 1) * width + rng.randrange(width))
        target = rng.choice([-1, rng.randrange(n)])
        run = wide().graph_search(succ, 0, target, words=4, memory_bytes=1 << 18,
                                  max_states=200000, weighted=weighted)
        status = check_run(succ, 0, target, run)
        # won, exhausted, or a limit (states, or memory for the stack): never a wrong answer
        assert status in (0, 1, 2, 4)
        exact += status in (0, 1) and run[2]["table_replaced"] > 0
    assert exact > 0


def test_the_stack_stops_at_the_memory_limit():
    # A line of 100,000 positions of 8 words does not fit 64 KiB: a limit, not a crash.
    succ = chain_with_back_edges(100000, 1)
    status, _, stats, _ = wide().graph_search(succ, 0, -1, words=8, memory_bytes=1 << 16)
    assert status == 4  # SEARCH_LIMIT_MEMORY


def test_state_limit_counts_as_the_one_word_search():
    succ = chain_with_back_edges(100, 2)
    status, _, stats, _ = wide().graph_search(succ, 0, -1, max_states=10)
    assert status == 2 and stats["states"] == 10
    status, _, stats, _ = wide().graph_search(succ, 0, -1, max_states=100)
    assert status == 1 and stats["states"] == 100


@given(st.integers(1, 8), st.lists(st.lists(st.integers(0, 3), min_size=8, max_size=8),
                                   max_size=300), st.integers(0, 1 << 16), st.booleans())
def test_table_holds_full_keys(words, keys, budget, weighted):
    # Keys that share every word but one, the all-zero key among them: a key is found only
    # after it was stored, under any budget (a forgotten key is not found; another key never is).
    ops = [("visit", tuple(k[:words])) for k in keys]
    got, stats = wide().table_ops(ops, words, budget, weighted)
    stored = set()
    for (_, k), hit in zip(ops, got):
        if hit:
            assert k in stored
        stored.add(k)
    probe = [("contains", (9,) * words)] + [("contains", k) for _, k in ops]
    got, _ = wide().table_ops(ops + probe, words, budget, weighted)
    assert got[len(ops)] == 0
    if stats["replaced"] == 0:
        assert all(got[len(ops) + 1:]) and stats["used"] == len(stored)


@given(st.integers(1, 4), st.lists(st.tuples(st.sampled_from(("visit", "remove", "contains")),
                                            st.lists(st.integers(0, 5), min_size=4, max_size=4)),
                                  max_size=400), st.booleans())
def test_a_removed_key_is_forgotten_and_the_others_kept(words, steps, weighted):
    # Few distinct keys in a table past its first size: runs of occupied slots form, and a
    # removal inside one must leave every other key findable. Checked against a set.
    ops = [(op, tuple(k[:words])) for op, k in steps]
    got, stats = wide().table_ops(ops + [("contains", k) for _, k in ops], words, 1 << 20,
                                  weighted)
    stored = set()
    for (op, k), answer in zip(ops, got):
        if op == "visit":
            assert answer == (k in stored)
            stored.add(k)
        elif op == "contains":
            assert answer == (k in stored)
        else:
            stored.discard(k)
    assert got[len(ops):] == [k in stored for _, k in ops]
    assert stats["used"] == len(stored)


def test_removal_inside_a_long_run_keeps_every_key():
    # Many keys in a small table: long runs; remove every third key, then look all up.
    keys = [(i, i * 7 % 13, 5) for i in range(600)]
    gone = set(keys[::3])
    ops = [("visit", k) for k in keys] + [("remove", k) for k in keys[::3]]
    got, stats = wide().table_ops(ops + [("contains", k) for k in keys], 3, 1 << 16)
    assert stats["replaced"] == 0
    assert got[len(ops):] == [k not in gone for k in keys]


def test_a_full_window_gives_up_its_lightest_key():
    # A table at its floor (1,024 homes) gets 40 times as many keys as it holds. Weighted, the
    # 100 keys given a weight outlast every window they sit in (a window would have to hold 32
    # of them), and they keep their weights through removals that move them; unweighted, the
    # home slot's key goes, whatever it is.
    rng = random.Random(3)
    keys = [(rng.getrandbits(64), rng.getrandbits(64)) for _ in range(40000)]
    # The heavy keys come last, so that removing every other key before them moves some of them.
    heavy, later = keys[600:700], keys[700:]
    ops = ([("visit", k) for k in keys[:700]] + [("weigh", k, 1000) for k in heavy]
           + [("remove", k) for k in keys[0:600:2]] + [("visit", k) for k in later])
    for weighted in (False, True):
        got, stats = wide().table_ops(ops + [("contains", k) for k in heavy], 2, 0, weighted)
        assert stats["capacity"] == 1024 and stats["replaced"] > 30000
        kept = sum(got[len(ops):])
        assert kept == 100 if weighted else kept < 10


dags = st.integers(1, 50).flatmap(lambda n: st.tuples(
    st.lists(st.lists(st.integers(0, n - 1), max_size=4), min_size=n, max_size=n),
    st.integers(-1, n - 1), st.integers(1, 4), st.sampled_from((1.2, 1.5, 2.0)), st.booleans(),
    st.integers(0, 400)))


@given(dags)
def test_attempts_on_a_graph_without_cycles_are_reachability(case):
    succ, target, words, growth, keep, most = case
    succ = [[u for u in out if u > v] for v, out in enumerate(succ)]  # edges go up: no cycle
    run = wide().graph_search(succ, 0, target, words=words, max_states=most,
                              attempts=(1, growth, keep))
    status = check_run(succ, 0, target, run)
    if most == 0:
        assert status == (0 if target in reachable(succ, 0) else 1)
    else:
        assert status in (0, 1, 2) and run[2]["states"] <= most  # 2: SEARCH_LIMIT_STATES


def test_attempts_keep_the_positions_searched_to_the_end():
    # A binary tree without a target: each attempt is cut, and only the last covers the tree.
    # Kept, the table spares every attempt what the earlier ones searched.
    n = 2 ** 11 - 1
    succ = [[2 * v + 1, 2 * v + 2] if 2 * v + 2 < n else [] for v in range(n)]
    kept = wide().graph_search(succ, 0, -1, words=2, attempts=(10, 1.5, True))
    fresh = wide().graph_search(succ, 0, -1, words=2, attempts=(10, 1.5, False))
    assert kept[0] == fresh[0] == 1 and kept[2]["attempts"] > 5
    assert kept[2]["states"] <= n + 12 * kept[2]["attempts"]  # each line is searched again
    assert fresh[2]["states"] > 2 * n


def test_table_keeps_within_its_budget():
    ops = [("visit", (i, i >> 3, 7)) for i in range(200000)]
    got, stats = wide().table_ops(ops, 3, 1 << 20)
    assert not any(got) and stats["replaced"] > 0
    assert stats["max_bytes"] <= 1 << 20 and stats["bytes"] <= stats["max_bytes"]
    assert stats["capacity"] == (1 << 20) // 24 - 31  # the whole budget, less the window's tail
    with pytest.raises(ValueError):
        wide().table_ops([], 9)


def test_table_and_stack_stay_within_the_budget():
    budget = 1 << 20
    for succ, words in ((line_with_leaves(2000, 7, 20), 2), (chain_with_back_edges(30000, 3), 6)):
        status, _, stats, _ = wide().graph_search(succ, 0, -1, words=words, memory_bytes=budget)
        assert status in (1, 4)
        assert stats["table_bytes"] + stats["stack_bytes"] <= budget + 31 * 8 * words


def test_a_full_montana_search_keeps_its_budget():
    import solitaire_solver as ss

    r = ss.solve("montana", ss.random_deal(0), memory_mb=4, max_seconds=3)
    assert r.status is ss.Status.UNKNOWN
    assert r.stats["table_bytes"] + r.stats["stack_bytes"] <= (4 << 20) + 31 * 40
    assert r.stats["table_replaced"] > 0  # past its budget it forgot positions and went on
