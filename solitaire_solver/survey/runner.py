"""Surveys: decide many deals of one game, on every core or on a cluster, with honest statistics.

>>> import solitaire_solver as ss
>>> r = ss.survey("elevens", seeds=range(1000), workers=1)
>>> r.won + r.blocked + r.unknown
1000

This module runs a survey: it cuts the work into chunks, hands them to an executor and counts what
comes back. The counts and their statistics are in stats.py, the file of records in
records.py.

Two paths decide the deals:
- the batch path, for a game whose `Game.batch(variant)` gives a decider (Elevens and Block Ten
  with the compiled core, Clock with the compiled C shuffle) when no limit is set: whole chunks
  of deals are decided at once, in the core with no Python per deal. The time of a deal is then
  its chunk's time divided by its size (a deal takes too little time to be timed on its own
  without slowing the survey).
- the generic path, for every other game (and the pure-Python fallback): `solve()` per deal, timed
  on its own, with the search limits given.

Work is cut into chunks and handed to an executor: local processes by default, or any
`concurrent.futures.Executor` (a Dask cluster's `client.get_executor()`, see docs/surveys.md).
With `out=PATH` every deal becomes one JSON line as soon as its chunk is done; a survey started
again with the same file decides only the deals not yet in it.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from typing import Any, Callable, Iterable, Iterator, Optional, Union

from ..deal import Deal
from ..engine.contract import Limits
from ..errors import SolitaireError, quoted
from ..games import Game, resolve
from ..games.base import BatchDecider
from ..pysolfc import pysolfc_deal, read_number
from ..solver import Solver, solve
from . import records
from .records import SurveyFileError, SurveyFileWarning
from .stats import Progress, SurveyResult, wilson_interval

#: A batch decider's seeds are signed 64-bit words (the core's C type).
_INT64 = (-(1 << 63), (1 << 63) - 1)


# -- the work units (module-level, so that processes and Dask workers can unpickle them) --------
# They get the game's name and variant, not a Game: the game is resolved again where they run.

def _decider(game: str, variant: dict) -> BatchDecider:
    g, var = resolve(game, variant)
    decider = g.batch(var)
    if decider is None:  # a worker without the compiled core
        raise SolitaireError(f"{g.name} has no batch decider in this worker's process")
    return decider


def _batch_seed_chunk(game: str, variant: dict, start: int, count: int) -> tuple:
    """Batch path: decide seeds start..start+count-1 in the core."""
    decider = _decider(game, variant)
    status, left, moves, states = (bytearray(count) for _ in range(4))
    t0 = time.perf_counter()
    decider.decide_seeds(start, count, status, left, moves, states)
    return (bytes(status), bytes(left), bytes(moves), bytes(states), time.perf_counter() - t0)


def _batch_deal_chunk(game: str, variant: dict, deals: list) -> tuple:
    """Batch path for explicit deals (card index tuples)."""
    decider = _decider(game, variant)
    n = len(deals)
    flat = bytearray(52 * n)
    for i, d in enumerate(deals):
        flat[52 * i: 52 * i + 52] = bytes(d)
    status, left, moves, states = (bytearray(n) for _ in range(4))
    t0 = time.perf_counter()
    decider.decide_deals(memoryview(flat).cast("B", (n, 52)), status, left, moves, states)
    return (bytes(status), bytes(left), bytes(moves), bytes(states), time.perf_counter() - t0)


def _batch_number_chunk(game: str, variant: dict, numbers: list) -> tuple:
    """Batch path for PySolFC game numbers: their deals made here, in the worker (pysolfc_deal:
    the dealing order, rearranged where the game's plug-in lays PySolFC's cards out otherwise)."""
    return _batch_deal_chunk(game, variant, [pysolfc_deal(game, n).cards for n in numbers])


def _generic_chunk(game: str, variant: dict, items: list, by_seed: Union[bool, str],
                   limits: dict, rated: bool = False) -> list:
    """Generic path: solve() each deal; one record per deal. by_seed: True (seeds), False
    (deal texts) or "pysolfc" (PySolFC game numbers). rated: a won deal is rated too
    (Solver.rate) and its record carries its tier and the random player's chance."""
    out = []
    solver = Solver(game, **limits, **variant) if rated else None
    key = by_seed if isinstance(by_seed, str) else "seed" if by_seed else "deal"
    for item in items:
        if key == "pysolfc":
            deal = pysolfc_deal(game, item)
        else:
            deal = Deal.from_seed(item) if by_seed else Deal(item)
        t0 = time.perf_counter()
        if solver is not None:
            rating = solver.rate(deal)
            r = rating.result
        else:
            r = solve(game, deal, **limits, **variant)
        ms = (time.perf_counter() - t0) * 1000
        rec = records.record(game, key, str(deal) if key == "deal" else item, r, ms)
        if solver is not None and r.won:
            rec["tier"] = rating.tier
            rec["random_win"] = rating.random_win
        out.append(rec)
    return out


# -- local worker processes -----------------------------------------------------------------------

_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def _end_with_parent(parent: Optional[int]) -> None:
    """Pool initializer: end this worker when the process that started it ends, even by kill -9.
    A worker otherwise waits on its task queue for ever, and the survey's own process, which
    would shut it down, is gone."""
    armed = False
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
        except (OSError, AttributeError):
            pass
    watched = os.getppid()
    if parent is not None and watched != parent:
        os._exit(1)  # the parent ended before the signal was armed
    if not armed:
        threading.Thread(target=_watch_parent, args=(watched,), daemon=True,
                         name="survey-parent-watch").start()


def _watch_parent(parent: int) -> None:
    """Where the kernel cannot signal a worker of its parent's end: a changed parent (the worker
    handed to init) means the parent is gone."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def _local_pool(workers: int) -> ProcessPoolExecutor:
    ctx = multiprocessing.get_context()
    # Under a fork server the worker's parent is the server, which ends when this process does.
    parent = os.getpid() if ctx.get_start_method() in ("fork", "spawn") else None
    return ProcessPoolExecutor(workers, mp_context=ctx, initializer=_end_with_parent,
                               initargs=(parent,))


# -- the survey ---------------------------------------------------------------------------------

def _cores() -> int:
    """The cores this process may run on: its CPU affinity where the system tells (a container or
    `taskset` gives fewer than the machine has), else os.cpu_count()."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _runs(seeds: Iterable[int], skip: dict, size: int) -> Iterator[tuple[int, int]]:
    """Runs of consecutive seeds not in skip, as (start, count), each at most size long."""
    if isinstance(seeds, range) and seeds.step == 1:
        # Without a loop over the seeds: the gaps between the skipped ones, cut to size.
        lo = seeds.start
        for s in sorted(k for k in skip if isinstance(k, int) and k in seeds) + [seeds.stop]:
            while lo < s:
                yield lo, min(size, s - lo)
                lo += min(size, s - lo)
            lo = s + 1
        return
    start = None
    count = 0
    for s in seeds:
        if s in skip:
            continue
        if start is not None and s == start + count and count < size:
            count += 1
            continue
        if start is not None:
            yield start, count
        start, count = s, 1
    if start is not None:
        yield start, count


def _chunks(items: Iterable, size: int) -> Iterator[list]:
    buf: list = []
    for x in items:
        buf.append(x)
        if len(buf) >= size:
            yield buf
            buf = []
    if buf:
        yield buf


class _Inline(Executor):
    """Runs each task at submit time, in this process (workers=1)."""

    def submit(self, fn, /, *args, **kwargs):  # type: ignore[override]
        f: Future = Future()
        try:
            f.set_result(fn(*args, **kwargs))
        except BaseException as e:  # noqa: BLE001 - handed to the caller through the future
            f.set_exception(e)
        return f


def survey(
    game: Union[str, Game],
    seeds: Optional[Iterable[int]] = None,
    *,
    deals: Optional[Iterable[Any]] = None,
    pysolfc: Optional[Iterable[int]] = None,
    won_only: Optional[list] = None,
    workers: Optional[int] = None,
    out: Optional[str] = None,
    executor: Optional[Executor] = None,
    chunk_size: Optional[int] = None,
    max_states: Optional[int] = None,
    max_seconds: Optional[float] = None,
    memory_mb: Optional[float] = None,
    retry_unknown: bool = False,
    progress: Optional[Callable[[Progress], None]] = None,
    tier: Optional[str] = None,
    **variant: Any,
) -> SurveyResult:
    """Decide many deals of one game and count the outcomes.

    seeds: the seeded deals to decide (e.g. range(10**6)); or deals: any iterable of deals (a
    Deal, pack-order text, a card list); or pysolfc: PySolFC game numbers (docs/pysolfc.md),
    whose records name the number. won_only: a list that receives the seeds, deals or numbers
    won (those already in `out` included), in the order they are decided. workers: local
    processes (default: all cores; 1 runs in this process; never more than the cores, the deals
    left or their chunks: SurveyResult.workers says how many ran); executor: any
    concurrent.futures.Executor to run the chunks instead (workers then only sets how many
    chunks are in flight). out: a file of JSON lines, one per deal, resumed
    when it exists (SurveyFileError if it is not a survey file of this game and variant; a last
    line cut short by a stop is dropped, with a SurveyFileWarning). max_states, max_seconds,
    memory_mb: limits of each solve (the generic path; a limit reached counts the deal UNKNOWN).
    retry_unknown: decide again the deals `out` holds as UNKNOWN (under this call's limits; the
    new record is appended and stands in place of the old one).
    tier: rate every won deal (Solver.rate, docs/difficulty.md; its record names its tier) and
    put in won_only only the deals of this tier (one of rating.TIERS).
    variant: the game's options.
    """
    g, var = resolve(game, variant)
    if tier is not None:
        from ..rating import check_tier
        check_tier(g, var, tier)
    if sum(x is not None for x in (seeds, deals, pysolfc)) != 1:
        raise SolitaireError("give seeds=..., deals=... or pysolfc=... (one of them)")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                or workers < 1):
        raise SolitaireError(f"workers must be a positive integer, not {quoted(workers)}")
    if chunk_size is not None and (isinstance(chunk_size, bool) or not isinstance(chunk_size, int)
                                   or chunk_size < 1):
        raise SolitaireError(f"chunk_size must be a positive integer, not {quoted(chunk_size)}")
    if not isinstance(retry_unknown, bool):
        raise SolitaireError(f"retry_unknown is True or False, not {quoted(retry_unknown)}")
    if out is not None and (not isinstance(out, (str, os.PathLike)) or not str(out).strip()):
        # An empty path once meant no file at all: the records the caller asked for were lost.
        raise SolitaireError(f"out is the path of a survey file, not {quoted(out)}")
    if retry_unknown and not out:
        raise SolitaireError("retry_unknown decides again the unknown deals of a survey file: "
                             "give out=... (--out FILE)")
    nworkers = int(workers) if workers else _cores()
    lim = Limits.of(max_states, max_seconds, memory_mb if memory_mb is not None else 256)
    limits: dict = {}
    if max_states is not None:
        limits["max_states"] = lim.max_states
    if max_seconds is not None:
        limits["max_seconds"] = lim.max_seconds
    if memory_mb is not None:
        limits["memory_mb"] = float(memory_mb)

    by_number = pysolfc is not None
    if by_number:
        items = list(pysolfc) if not isinstance(pysolfc, range) else pysolfc  # type: ignore
        pysolfc_deal(g.name, 0)  # PySolFCError now for a game PySolFC lacks
        for n in ([*items[:1], *items[-1:]] if isinstance(items, range) else items):
            if isinstance(n, bool) or not isinstance(n, int):
                raise SolitaireError(f"a PySolFC game number must be an integer, not {quoted(n)}")
            read_number(n)
        seeds = items
    by_seed = seeds is not None
    if by_seed:
        items = list(seeds) if not isinstance(seeds, range) else seeds  # type: ignore[arg-type]
        for s in ([*items[:1], *items[-1:]] if isinstance(items, range) else items):
            if isinstance(s, bool) or not isinstance(s, int):
                raise SolitaireError(f"a seed must be an integer, not {quoted(s)}")
            if s < 0:
                raise SolitaireError(f"a seed is 0 or more, not {s} (random.Random({s}) deals "
                                     f"seed {-s}'s pack)")
        if not isinstance(items, range) and len(set(items)) != len(items):
            # One deal counted twice would weigh twice in the rate and its interval.
            seen: set = set()
            for n in items:
                if n in seen:
                    what = "PySolFC game number" if by_number else "seed"
                    raise SolitaireError(f"{what} {n} is given twice: a survey counts each deal "
                                         "once")
                seen.add(n)
    else:
        items = []
        for i, d in enumerate(deals):  # type: ignore[union-attr]
            try:
                items.append(g.read(d, var))
            except SolitaireError as e:
                raise type(e)(f"deal {i + 1} of the list: {e}") from None
    try:
        total = len(items)
    except OverflowError:  # a range of more than sys.maxsize deals (PySolFC's 10**20 + 1)
        raise SolitaireError(f"{quoted(items)} holds more deals than a survey counts (at most "
                             f"{sys.maxsize:,}): survey a part of it") from None
    if not total:
        raise SolitaireError("no deals to survey: give at least one seed, deal or number")

    res = SurveyResult(g.name, var)
    key = "pysolfc" if by_number else "seed" if by_seed else "deal"
    tiers: dict = {}
    done = records.read(out, g.name, var, key, tier is not None, tiers) if out else {}
    if retry_unknown:
        done = {k: v for k, v in done.items() if v[0] != "unknown"}

    def keyed(it: Any) -> Any:
        return it if by_seed else str(it)

    if done:
        for it in items:
            kept = done.get(keyed(it))
            if kept is not None:
                res.count(kept[0], kept[2], kept[3], kept[4])
                if won_only is not None and kept[0] == "won" and (
                        tier is None or tiers.get(keyed(it)) == tier):
                    won_only.append(it if by_seed else keyed(it))
        res.resumed = res.deals

    # The decision of a batch decider is exact only for whole searches: limits go to solve().
    decider = None if limits or tier is not None else g.batch(var)
    batch = decider is not None
    if by_seed and batch and total:
        lo = min(items) if not isinstance(items, range) else min(items[0], items[-1])
        hi = max(items) if not isinstance(items, range) else max(items[0], items[-1])
        batch = _INT64[0] <= lo and hi <= _INT64[1]
    res.path = "batch" if batch else "generic"

    todo = total - res.resumed
    # Local processes past the cores only share them, and workers past the deals left (or, below,
    # the chunks) have nothing to do: each would still be a process forked.
    nworkers = max(1, min(nworkers, todo) if executor else min(nworkers, _cores(), todo))
    if chunk_size is None:
        per = 65536 if batch else 16
        chunk_size = max(1, min(per, -(-total // (nworkers * 8)) if total else 1))
    nworkers = max(1, min(nworkers, -(-todo // chunk_size)))
    res.workers = nworkers

    def tasks() -> Iterator[tuple[Callable, tuple, Any]]:
        if by_seed and batch and not by_number:
            for start, count in _runs(items, done, chunk_size):
                yield _batch_seed_chunk, (g.name, var, start, count), range(start, start + count)
            return
        todo = (it for it in items if keyed(it) not in done)
        for part in _chunks(todo, chunk_size):
            if batch and by_number:
                yield _batch_number_chunk, (g.name, var, part), part
            elif batch:
                yield _batch_deal_chunk, (g.name, var, [d.cards for d in part]), \
                    [str(d) for d in part]
            else:
                args = part if by_seed else [str(d) for d in part]
                yield _generic_chunk, (g.name, var, args, key if by_number else by_seed,
                                       limits, tier is not None), args

    sink = records.open_for_append(out) if out else None
    own_pool = None
    t0 = time.perf_counter()
    try:
        if executor is None:
            executor = _Inline() if nworkers == 1 else _local_pool(nworkers)
            own_pool = executor
        if sink is not None and sink.tell() == 0:
            sink.write(records.header_line(g.name, var, tier is not None))
        pending: dict[Future, Any] = {}
        it = tasks()
        exhausted = False
        while True:
            while not exhausted and len(pending) < 2 * nworkers:
                nxt = next(it, None)
                if nxt is None:
                    exhausted = True
                    break
                fn, args, keys = nxt
                pending[executor.submit(_measured, fn, args)] = keys
            if not pending:
                break
            finished, _ = wait(list(pending), return_when=FIRST_COMPLETED)
            for fut in finished:
                keys = pending.pop(fut)
                value, peak = fut.result()
                if peak is not None:
                    res.peak_mib = max(res.peak_mib or 0.0, peak)
                if isinstance(value, tuple):  # a batch chunk: the decider tallies it
                    status, left, moves, states, seconds = value
                    if sink is not None:
                        sink.write(records.batch_lines(g.name, key, keys, status, left, moves,
                                                       states, seconds))
                    won, left_hist, states_hist = decider.tally(  # type: ignore[union-attr]
                        status, left, states)
                    res.count_chunk(len(status), won, left_hist, states_hist, seconds)
                    if won_only is not None:
                        won_only.extend(k for k, st in zip(keys, status) if st == 0)
                else:
                    if sink is not None:
                        sink.write(records.record_lines(value))
                    for rec in value:
                        res.add(rec)
                        if won_only is not None and rec["status"] == "won" and (
                                tier is None or rec.get("tier") == tier):
                            won_only.append(rec[key])
                if sink is not None:
                    sink.flush()
                res.seconds = time.perf_counter() - t0
                if progress is not None:
                    progress(Progress(res.deals, total, res, res.seconds))
    finally:
        if own_pool is not None:
            own_pool.shutdown(cancel_futures=True)
        if sink is not None:
            sink.close()
    res.seconds = time.perf_counter() - t0
    mine = _peak_mib()
    if mine is not None:
        res.peak_mib = max(res.peak_mib or 0.0, mine)
    return res


def _measured(fn: Callable, args: tuple) -> tuple[Any, Optional[float]]:
    """A chunk's value and the peak resident memory of the process that ran it: each worker
    tells its own, whatever executor or start method ran it."""
    value = fn(*args)
    return value, _peak_mib()


def _peak_mib() -> Optional[float]:
    """This process's peak resident memory in MiB over its life; None where the system does not
    tell."""
    try:
        import resource
    except ImportError:  # Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # ru_maxrss is in bytes on macOS, in KiB elsewhere; 0 where it is not kept.
    return peak / (2**20 if sys.platform == "darwin" else 2**10) if peak > 0 else None


__all__ = ["Progress", "SurveyFileError", "SurveyFileWarning", "SurveyResult", "survey",
           "wilson_interval"]
