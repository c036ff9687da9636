"""Surveys: counts, Wilson intervals, streaming and resume, executors, the C shuffle, batch verdicts."""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import random
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import given
from hypothesis import strategies as st

import solitaire_solver as ss
from solitaire_solver import cli
from solitaire_solver.engine import _seeded as seeded
from solitaire_solver.errors import SolitaireError
from solitaire_solver.games import get_game
from solitaire_solver.games.slots import _core as slots
from solitaire_solver.survey.runner import _runs, wilson_interval
from solitaire_solver.survey.stats import counts_median, counts_quantile


def compiled(game: str):
    """The slot core's compiled table of a game (what its batch decider reads)."""
    return get_game(game)[0].compiled(slots)


# -- the C re-implementation of random.Random(seed).shuffle -------------------------------------

SEEDS = [0, 1, -1, 2, 12345, -12345, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**32 + 1, -(2**32),
         2**63 - 1, -(2**63), 2**64, 2**64 + 7, 10**30, -(10**40), 2**200 + 99, 3**300]


def python_deal(seed: int) -> list[int]:
    pack = list(range(52))
    random.Random(seed).shuffle(pack)
    return pack


@pytest.mark.core
@pytest.mark.parametrize("seed", SEEDS)
def test_c_shuffle_equals_python_on_edge_seeds(seed):
    assert seeded.seeded_deal(seed) == python_deal(seed)


@pytest.mark.core
@given(st.integers())
def test_c_shuffle_equals_python_on_any_integer(seed):
    assert seeded.seeded_deal(seed) == python_deal(seed)


@pytest.mark.core
@pytest.mark.parametrize("start", [0, -700, 2**32 - 300, 2**63 - 2000, -(2**63)])
def test_batch_shuffle_equals_python(start):
    # decide_seeds shuffles seeds 32 at a time in vector lanes; its verdicts on a range crossing
    # the one-word/two-word key boundary must be those of Python's deals.
    n = 1000
    st_, left, moves, states = (bytearray(n) for _ in range(4))
    slots.decide_seeds(compiled("elevens"), start, n, st_, left, moves, states)
    deals = bytearray()
    for s in range(start, start + n):
        deals += bytes(python_deal(s))
    st2, left2, moves2, states2 = (bytearray(n) for _ in range(4))
    slots.decide_deals(compiled("elevens"), memoryview(deals).cast("B", (n, 52)), st2, left2, moves2, states2)
    assert (st_, left, moves, states) == (st2, left2, moves2, states2)


class _Counting(random.Random):
    """Python's generator, counting the 32-bit outputs a shuffle takes."""

    used = 0

    def getrandbits(self, k):
        self.used += 1
        return super().getrandbits(k)


@pytest.mark.core
def test_batch_deals_equal_python_where_the_vector_outputs_run_out():
    """The batch path computes the first 112 outputs of each seed in vector lanes and finishes a
    shuffle that needs more with a scalar generator. Seeds needing more than 112 outputs (found
    by counting Python's) take that path; they and their whole blocks must give Python's deals."""
    hungry = [307699, 584071, 2037900, 2604632, 9223372036851884797]
    for s in hungry:
        r = _Counting(s)
        r.shuffle(list(range(52)))
        assert r.used > 112, s
        start = s - s % 32
        got = seeded.seeded_deals(start, 64)
        for i in range(64):
            assert list(got[52 * i: 52 * i + 52]) == python_deal(start + i), start + i


# -- batch verdicts equal solve()'s --------------------------------------------------------------

@pytest.mark.core
@pytest.mark.parametrize("game", ["elevens", "block-ten"])
@pytest.mark.parametrize("timing", [False, True])
def test_batch_verdicts_equal_solve(game, timing):
    import array

    n, start = 1500, -200
    st_, left, moves, states = (bytearray(n) for _ in range(4))
    ns = array.array("I", bytes(4 * n)) if timing else None
    slots.decide_seeds(compiled(game), start, n, st_, left, moves, states, ns)
    for i in range(n):
        # the batch takes any integer, as random.Random does (-n deals seed n's pack); the
        # library's seeds are 0 or more
        r = ss.solve(game, ss.random_deal(abs(start + i)))
        assert (st_[i] == slots.BATCH_WON) == r.won
        assert states[i] == r.stats["states"]
        if r.won:
            assert (moves[i], left[i]) == (len(r.moves), 0)
        else:
            assert moves[i] == len(r.proof.moves)
            assert left[i] == r.proof.details["cards_left"]


@pytest.mark.core
def test_batch_rejects_bad_input():
    b = bytearray(10)
    with pytest.raises(ValueError):
        slots.decide_seeds(compiled("elevens"), 0, 11, b, b, b, b)
    with pytest.raises(OverflowError):
        slots.decide_seeds(compiled("elevens"), 2**63 - 5, 10, b, b, b, b)
    bad = bytearray(range(52))
    bad[51] = 0
    with pytest.raises(ValueError, match="full pack"):
        slots.decide_deals(compiled("elevens"), memoryview(bad).cast("B", (1, 52)), b, b, b, b)


# -- statistics ---------------------------------------------------------------------------------

def test_wilson_interval_values():
    # Wilson's interval is the set of p with (p - k/n)^2 <= z^2 p (1 - p) / n; these bounds are
    # the roots of that quadratic, worked out apart from the library's closed form.
    lo, hi = wilson_interval(107, 1000)
    assert lo == pytest.approx(0.0893229, abs=1e-6)
    assert hi == pytest.approx(0.1276850, abs=1e-6)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775328, abs=1e-6)
    lo, hi = wilson_interval(10, 10)
    assert hi == pytest.approx(1.0) and lo == pytest.approx(0.7224672, abs=1e-6)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_median_of_counts():
    from collections import Counter

    assert counts_median(Counter({1: 1, 2: 1, 10: 1})) == 2
    assert counts_median(Counter({1: 2, 3: 2})) == 2
    assert counts_median(Counter()) == 0.0


@given(st.lists(st.integers(0, 50), min_size=1, max_size=60),
       st.sampled_from([0.01, 0.5, 0.9, 0.99, 1.0]))
def test_quantile_of_counts_is_the_nearest_rank_of_the_sorted_values(values, q):
    from collections import Counter

    ranked = sorted(values)
    assert counts_quantile(Counter(values), q) == ranked[max(1, math.ceil(q * len(values))) - 1]


def test_a_survey_reports_p99_and_its_peak_memory(tmp_path):
    # The p99 of positions is the nearest rank of the deals' own counts, as their records give
    # them; the peak is at least what Python itself holds, in this process or in a worker, as
    # each worker tells it (under any start method or executor).
    out = tmp_path / "f.jsonl"
    r = ss.survey("fourteen", seeds=range(200), workers=1, chunk_size=7, out=str(out))
    states = sorted(json.loads(line)["states"] for line in out.read_text().splitlines()[1:])
    assert r.states_p99 == states[math.ceil(0.99 * len(states)) - 1] < states[-1]
    d = r.to_dict()
    assert d["states_p99"] == r.states_p99 and d["ms_p99"] == r.ms_p99
    if sys.platform != "win32":
        assert 10 < r.peak_mib < 4096 and d["peak_mib"] == r.peak_mib
        assert "peak memory" in r.table()
        with ThreadPoolExecutor(2) as pool:
            assert ss.survey("elevens", seeds=range(100), executor=pool).peak_mib > 10


# -- surveys ------------------------------------------------------------------------------------

@pytest.mark.core  # the batch path is the core's
def test_survey_counts_match_solve():
    r = ss.survey("elevens", seeds=range(300), workers=1)
    won = sum(ss.solve("elevens", ss.random_deal(s)).won for s in range(300))
    assert (r.deals, r.won, r.blocked, r.unknown) == (300, won, 300 - won, 0)
    assert r.path == "batch"
    assert sum(r.cards_left.values()) == r.blocked
    assert r.interval[0] <= r.win_rate <= r.interval[1]
    assert r.states_max <= 25 and r.states_median >= 1


def test_result_prints_briefly():
    r = ss.survey("elevens", seeds=range(2000), workers=1)
    assert len(repr(r)) < 200 and f"won {r.won:,}" in repr(r)
    assert str(r) == r.table() and "win rate" in str(r)


@pytest.mark.core  # the batch path is the core's
def test_generic_path_agrees_with_batch():
    # A state limit forces the generic path (solve() per deal); the counts must not change.
    a = ss.survey("block-ten", seeds=range(100, 250), workers=1)
    b = ss.survey("block-ten", seeds=range(100, 250), workers=1, max_states=10**6)
    assert (a.path, b.path) == ("batch", "generic")
    assert (a.won, a.blocked, a.cards_left) == (b.won, b.blocked, b.cards_left)
    assert a.states == b.states


def test_survey_of_explicit_deals():
    deals = [ss.random_deal(s) for s in range(40)]
    r = ss.survey("elevens", deals=[str(d) for d in deals], workers=1)
    assert r.won == sum(ss.solve("elevens", d).won for d in deals)


def test_tiny_limit_gives_unknown_not_blocked():
    r = ss.survey("elevens", seeds=range(30), workers=1, max_states=2)
    assert r.blocked + r.won + r.unknown == 30
    assert r.unknown > 0


def test_a_deal_given_twice_an_empty_survey_and_odd_workers_are_refused():
    # Before: seeds [5, 5, 5] counted one deal three times; no deals gave a win rate of 0;
    # workers=1.5 or "2" ran.
    for kw, words in ((dict(seeds=[5, 7, 5]), "seed 5 is given twice"),
                      (dict(pysolfc=[3, 4, 3]), "number 3 is given twice"),
                      (dict(seeds=[]), "no deals"), (dict(deals=[]), "no deals"),
                      (dict(seeds=range(3), workers=1.5), "1.5"),
                      (dict(seeds=range(3), workers="2"), "'2'"),
                      # -n deals seed n's pack (random.Random takes the absolute value), so
                      # seeds on both sides of 0 counted those deals twice
                      (dict(seeds=range(-3, 3)), "0 or more, not -3"),
                      (dict(seeds=range(3, -2, -1)), "0 or more, not -1"),
                      (dict(seeds=[4, -4]), "0 or more, not -4")):
        with pytest.raises(SolitaireError, match=words):
            ss.survey("elevens", **{"workers": 1, **kw})


def test_bad_input():
    with pytest.raises(SolitaireError):
        ss.survey("elevens", workers=1)
    with pytest.raises(SolitaireError):
        ss.survey("elevens", seeds=range(3), deals=[], workers=1)
    with pytest.raises(SolitaireError):
        ss.survey("elevens", seeds=range(3), workers=0)
    with pytest.raises(SolitaireError):
        ss.survey("elevens", seeds=["x"], workers=1)
    with pytest.raises(SolitaireError):
        ss.survey("nope", seeds=range(3), workers=1)
    with pytest.raises(SolitaireError):
        ss.survey("elevens", seeds=range(3), workers=1, passes=2)
    for bad in (0, -1, 2.5, True, "8"):
        with pytest.raises(SolitaireError, match="chunk_size"):
            ss.survey("elevens", seeds=range(100), workers=1, chunk_size=bad)


def test_no_more_worker_processes_than_deals_or_cores(capsys, tmp_path):
    # Before: workers=N forked N processes however few the deals (3,000 for 5 deals on 2 cores).
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    before = len(multiprocessing.active_children())  # children of earlier tests, if any
    seen: list[int] = []

    def count(_) -> None:
        seen.append(len(multiprocessing.active_children()) - before)

    r = ss.survey("elevens", seeds=range(5), workers=64, max_states=10**6, progress=count)
    # (One worker runs in this process: no child at all.)
    assert r.deals == 5 and r.workers == min(5, cores)
    assert max(seen) <= (r.workers if r.workers > 1 else 0)
    # Resumed with nothing left to decide: no process at all.
    path = tmp_path / "s.jsonl"
    ss.survey("elevens", seeds=range(5), workers=1, out=str(path))
    seen.clear()
    r = ss.survey("elevens", seeds=range(5), workers=64, out=str(path), progress=count)
    assert r.resumed == 5 and r.workers == 1 and not any(seen)
    assert cli.main(["survey", "elevens", "--workers", "3000", "--count", "5", "--json",
                     "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out)["workers"] <= min(5, cores)
    for bad in ("0", "-2"):
        assert cli.main(["survey", "elevens", "--workers", bad, "--count", "5"]) == 3
        assert "workers must be a positive integer" in capsys.readouterr().err


def test_more_deals_than_len_counts_are_refused():
    # Before: OverflowError from len() of PySolFC's whole range (10**20 + 1 numbers).
    for kw in (dict(pysolfc=range(0, 10**20 + 1)), dict(seeds=range(10**19))):
        with pytest.raises(SolitaireError, match="more deals than a survey counts"):
            ss.survey("thirteens", workers=1, **kw)


# -- streaming and resume -------------------------------------------------------------------------

def read_records(path):
    with open(path) as f:
        lines = [json.loads(x) for x in f]
    return lines[0], lines[1:]


@pytest.mark.parametrize("max_states", [None, 10**6])  # batch and generic paths
def test_stream_and_resume_after_truncation(tmp_path, max_states):
    path = tmp_path / "elevens.jsonl"
    full = ss.survey("elevens", seeds=range(200), workers=1, max_states=max_states)
    first = ss.survey("elevens", seeds=range(120), workers=1, out=str(path), chunk_size=25,
                      max_states=max_states)
    assert first.deals == 120
    header, recs = read_records(path)
    assert header == {"survey": "elevens", "variant": {"reserves": "none"}, "format": 2}
    assert sorted(r["seed"] for r in recs) == list(range(120))
    assert set(recs[0]) == {"seed", "game", "status", "moves", "cards_left", "states", "ms"}
    # Stop mid-line: cut the file inside its last record.
    text = path.read_bytes()
    path.write_bytes(text[: len(text) - 17])
    calls = []
    with pytest.warns(UserWarning, match="partial last line"):
        again = ss.survey("elevens", seeds=range(200), workers=1, out=str(path), chunk_size=25,
                          max_states=max_states, progress=calls.append)
    assert again.resumed == 119
    assert (again.won, again.blocked, again.cards_left) == (full.won, full.blocked,
                                                            full.cards_left)
    _, recs = read_records(path)
    assert sorted(r["seed"] for r in recs) == list(range(200))  # no loss, no repeat
    assert calls and calls[-1].done == 200
    # A third run has nothing to do.
    third = ss.survey("elevens", seeds=range(200), workers=1, out=str(path))
    assert third.resumed == 200 and third.won == full.won
    assert len(read_records(path)[1]) == 200


def test_batch_and_generic_records_are_the_same(tmp_path):
    # The batch path writes its lines without json.dumps per record; they must read back as the
    # generic path's records do (time apart), seeds and explicit deals alike.
    for by_seed in (True, False):
        src = {"seeds": range(50, 130)} if by_seed else \
            {"deals": [str(ss.random_deal(s)) for s in range(50, 90)]}
        a, b = tmp_path / f"a{by_seed}.jsonl", tmp_path / f"b{by_seed}.jsonl"
        ss.survey("elevens", workers=1, out=str(a), **src)
        ss.survey("elevens", workers=1, out=str(b), max_states=10**6, **src)
        ra, rb = (read_records(p)[1] for p in (a, b))
        for rec in ra + rb:
            rec.pop("ms")
        key = "seed" if by_seed else "deal"
        assert sorted(ra, key=lambda r: r[key]) == sorted(rb, key=lambda r: r[key])


@given(st.lists(st.integers(0, 60), max_size=30), st.integers(1, 7),
       st.integers(-5, 5), st.integers(0, 60))
def test_runs_cover_exactly_the_seeds_left(skipped, size, lo, span):
    seeds = range(lo, lo + span)
    skip = {k: None for k in skipped}
    for given_seeds in (seeds, list(seeds)):
        runs = list(_runs(given_seeds, skip, size))
        assert all(1 <= c <= size for _, c in runs)
        assert [s for a, c in runs for s in range(a, a + c)] == [s for s in seeds if s not in skip]


def test_resume_refuses_another_survey(tmp_path):
    path = tmp_path / "s.jsonl"
    ss.survey("elevens", seeds=range(10), workers=1, out=str(path))
    with pytest.raises(SolitaireError, match="holds a survey of elevens"):
        ss.survey("block-ten", seeds=range(10), workers=1, out=str(path))
    path.write_text(path.read_text().replace('"seed": 3', "garbage"))
    with pytest.raises(SolitaireError, match="line"):
        ss.survey("elevens", seeds=range(10), workers=1, out=str(path))


def test_explicit_deals_stream_by_deal(tmp_path):
    path = tmp_path / "d.jsonl"
    deals = [str(ss.random_deal(s)) for s in range(12)]
    ss.survey("block-ten", deals=deals[:5], workers=1, out=str(path))
    r = ss.survey("block-ten", deals=deals, workers=1, out=str(path))
    assert r.resumed == 5 and r.deals == 12
    _, recs = read_records(path)
    assert sorted(x["deal"] for x in recs) == sorted(deals)


# -- parallel ---------------------------------------------------------------------------------------

@pytest.mark.core  # 6,000 deals: about a minute in the fallback
def test_any_executor_and_processes():
    base = ss.survey("elevens", seeds=range(2000), workers=1)
    with ThreadPoolExecutor(2) as ex:
        t = ss.survey("elevens", seeds=range(2000), workers=2, executor=ex, chunk_size=300)
    p = ss.survey("elevens", seeds=range(2000), workers=2, chunk_size=300)
    for r in (t, p):
        assert (r.won, r.blocked, r.cards_left) == (base.won, base.blocked, base.cards_left)


@pytest.mark.core  # 6,000 deals: about a minute in the fallback
def test_dask_cluster(tmp_path):
    import distributed  # the `test` extra installs it

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        ex = client.get_executor()
        path = tmp_path / "dask.jsonl"
        r = ss.survey("block-ten", seeds=range(3000), workers=2, executor=ex, out=str(path),
                      chunk_size=500)
        g = ss.survey("elevens", seeds=range(40), workers=2, executor=ex, max_states=10**6)
    base = ss.survey("block-ten", seeds=range(3000), workers=1)
    assert (r.won, r.blocked, r.cards_left) == (base.won, base.blocked, base.cards_left)
    assert len(read_records(path)[1]) == 3000
    assert g.path == "generic" and g.deals == 40


# -- command line ---------------------------------------------------------------------------------

def test_cli_survey(capsys, tmp_path):
    out = tmp_path / "c.jsonl"
    code = cli.main(["survey", "elevens", "--count", "500", "--start", "7", "--workers", "1",
                     "--out", str(out)])
    assert code == 0
    cap = capsys.readouterr()
    assert "win rate" in cap.out and "deals/s" in cap.err and "ETA" in cap.err
    assert len(read_records(out)[1]) == 500
    code = cli.main(["survey", "elevens", "--count", "50", "--workers", "1", "--json",
                     "--quiet"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["deals"] == 50 and len(data["interval"]) == 2
    assert cli.main(["survey", "elevens", "--count", "0"]) == 3
    assert cli.main(["survey", "elevens", "-o", "bogus=1", "--count", "5"]) == 3
    assert cli.main(["survey", "no-such-game", "--count", "5"]) == 3
