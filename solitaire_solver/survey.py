"""Surveys: decide many deals of one game, on every core or on a cluster, with honest statistics.

>>> import solitaire_solver as ss
>>> r = ss.survey("elevens", seeds=range(1000), workers=1)
>>> r.won + r.blocked + r.unknown
1000

Two paths decide the deals:
- the batch path, for the slot games (Elevens, Block Ten) when the compiled core is present: whole
  chunks of seeds are shuffled and decided inside the core (`_slots.decide_seeds`), with no Python
  per deal. The time of a deal is then its chunk's time divided by its size (a deal takes about a
  microsecond, too little to time on its own without slowing the survey).
- the generic path, for every other game (and the pure-Python fallback): `solve()` per deal, timed
  on its own, with the search limits given.

Work is cut into chunks and handed to an executor: local processes by default, or any
`concurrent.futures.Executor` (a Dask cluster's `client.get_executor()`, see docs/surveys.md).
With `out=PATH` every deal becomes one JSON line as soon as its chunk is done; a survey started
again with the same file decides only the deals not yet in it.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections import Counter
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Optional, Sequence, Union

from .deal import Deal
from .errors import SolitaireError
from .games import Game, get_game

#: z of a two-sided 95% interval.
Z95 = 1.959963984540054
_INT64 = (-(1 << 63), (1 << 63) - 1)


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); (0, 1) for no trials.

    Unlike p +- z*sqrt(p(1-p)/n) it stays inside [0, 1] and is sound for rates near 0 or 1.
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    return (max(0.0, centre - half), min(1.0, centre + half))


def _median(counts: Counter) -> float:
    """The median of a multiset given as value -> count (the mean of the two middle values)."""
    n = sum(counts.values())
    if n == 0:
        return 0.0
    lo_rank, hi_rank = (n - 1) // 2, n // 2
    seen = 0
    lo = hi = None
    for v in sorted(counts):
        seen += counts[v]
        if lo is None and seen > lo_rank:
            lo = v
        if seen > hi_rank:
            hi = v
            break
    return (lo + hi) / 2  # type: ignore[operator]


@dataclass
class SurveyResult:
    """The outcome of a survey. The win rate is over decided deals (won + blocked); UNKNOWN deals
    (a limit was reached) are counted apart and widen `bounds`."""

    game: str
    variant: dict
    won: int = 0
    blocked: int = 0
    unknown: int = 0
    #: blocked deals: cards left (that still count against a win) -> number of deals
    cards_left: Counter = field(default_factory=Counter)
    states: Counter = field(default_factory=Counter)
    #: time per deal in microseconds -> number of deals
    micros: Counter = field(default_factory=Counter)
    seconds: float = 0.0
    workers: int = 1
    path: str = "generic"
    resumed: int = 0

    @property
    def deals(self) -> int:
        return self.won + self.blocked + self.unknown

    @property
    def decided(self) -> int:
        return self.won + self.blocked

    @property
    def win_rate(self) -> float:
        return self.won / self.decided if self.decided else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of the win rate over decided deals."""
        return wilson_interval(self.won, self.decided)

    @property
    def bounds(self) -> tuple[float, float]:
        """The win rate over all deals if every UNKNOWN were lost, and if every one were won."""
        n = self.deals
        return (self.won / n, (self.won + self.unknown) / n) if n else (0.0, 1.0)

    @property
    def states_median(self) -> float:
        return _median(self.states)

    @property
    def states_max(self) -> int:
        return max(self.states, default=0)

    @property
    def ms_median(self) -> float:
        return _median(self.micros) / 1000

    @property
    def ms_max(self) -> float:
        return max(self.micros, default=0) / 1000

    @property
    def deals_per_second(self) -> float:
        new = self.deals - self.resumed
        return new / self.seconds if self.seconds > 0 else 0.0

    def add(self, rec: dict) -> None:
        """Count one deal's record (the dict of its JSON line)."""
        st = rec["status"]
        if st == "won":
            self.won += 1
        elif st == "blocked":
            self.blocked += 1
            if rec.get("cards_left") is not None:
                self.cards_left[int(rec["cards_left"])] += 1
        else:
            self.unknown += 1
        self.states[int(rec.get("states", 0))] += 1
        self.micros[round(float(rec.get("ms", 0.0)) * 1000)] += 1

    def merge(self, other: SurveyResult) -> None:
        self.won += other.won
        self.blocked += other.blocked
        self.unknown += other.unknown
        self.cards_left.update(other.cards_left)
        self.states.update(other.states)
        self.micros.update(other.micros)

    def to_dict(self) -> dict:
        lo, hi = self.interval
        return {
            "game": self.game, "variant": self.variant, "deals": self.deals, "won": self.won,
            "blocked": self.blocked, "unknown": self.unknown, "win_rate": self.win_rate,
            "interval": [lo, hi], "cards_left": dict(sorted(self.cards_left.items())),
            "states_median": self.states_median, "states_max": self.states_max,
            "ms_median": self.ms_median, "ms_max": self.ms_max, "seconds": self.seconds,
            "deals_per_second": self.deals_per_second, "workers": self.workers, "path": self.path,
            "resumed": self.resumed,
        }

    def __repr__(self) -> str:
        # The histograms can hold thousands of entries (states per deal): keep them out of the
        # repr and say what the counts are.
        lo, hi = self.interval
        return (f"<SurveyResult {self.game} {self.variant}: {self.deals:,} deals, won "
                f"{self.won:,}, blocked {self.blocked:,}, unknown {self.unknown:,}, win rate "
                f"{100 * self.win_rate:.3f}% (95% {100 * lo:.3f}..{100 * hi:.3f}%)>")

    def __str__(self) -> str:
        return self.table()

    def table(self) -> str:
        """A plain-text summary table."""
        lo, hi = self.interval
        var = ", ".join(f"{k}={v}" for k, v in self.variant.items())
        rows = [
            ("game", self.game + (f" ({var})" if var else "")),
            ("deals", f"{self.deals:,}" + (f" ({self.resumed:,} from the file)"
                                           if self.resumed else "")),
            ("won", f"{self.won:,}"),
            ("blocked", f"{self.blocked:,}"),
            ("unknown", f"{self.unknown:,}"),
            ("win rate", f"{100 * self.win_rate:.4f}%  (95% Wilson {100 * lo:.4f}% .. "
                         f"{100 * hi:.4f}%)"),
            ("states/deal", f"median {self.states_median:g}, max {self.states_max:,}"),
            ("time/deal", f"median {self.ms_median:.4g} ms, max {self.ms_max:.4g} ms"),
            ("wall time", f"{self.seconds:.2f} s, {self.deals_per_second:,.0f} deals/s, "
                          f"{self.workers} worker{'s' if self.workers != 1 else ''} "
                          f"({self.path} path)"),
        ]
        if self.cards_left:
            common = ", ".join(f"{k}: {v:,}" for k, v in
                               sorted(self.cards_left.items(), key=lambda kv: -kv[1])[:6])
            rows.append(("cards left", f"(blocked deals, most common) {common}"))
        width = max(len(k) for k, _ in rows)
        return "\n".join(f"{k.ljust(width)}  {v}" for k, v in rows)


@dataclass
class Progress:
    """What a progress callback sees after each chunk."""

    done: int
    total: int
    result: SurveyResult
    elapsed: float

    @property
    def rate(self) -> float:
        return (self.done - self.result.resumed) / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def eta(self) -> float:
        r = self.rate
        return (self.total - self.done) / r if r > 0 else float("inf")


# -- the work units (module-level, so that processes and Dask workers can unpickle them) --------

def _slot_seed_chunk(game: str, start: int, count: int, records: bool) -> tuple:
    """Batch path: decide seeds start..start+count-1 in the core."""
    core = get_game(game)[0].batch({})
    assert core is not None
    status, left, moves, states = (bytearray(count) for _ in range(4))
    t0 = time.perf_counter()
    core.decide_seeds(start, count, status, left, moves, states)
    return (bytes(status), bytes(left), bytes(moves), bytes(states),
            time.perf_counter() - t0, records)


def _slot_deal_chunk(game: str, deals: list, records: bool) -> tuple:
    """Batch path for explicit deals (card index tuples)."""
    core = get_game(game)[0].batch({})
    assert core is not None
    n = len(deals)
    flat = bytearray(52 * n)
    for i, d in enumerate(deals):
        flat[52 * i: 52 * i + 52] = bytes(d)
    status, left, moves, states = (bytearray(n) for _ in range(4))
    t0 = time.perf_counter()
    core.decide_deals(memoryview(flat).cast("B", (n, 52)), status, left, moves, states)
    return (bytes(status), bytes(left), bytes(moves), bytes(states),
            time.perf_counter() - t0, records)


def _generic_chunk(game: str, variant: dict, items: list, by_seed: bool, limits: dict) -> list:
    """Generic path: solve() each deal; one record per deal."""
    from .api import solve  # late: api imports games, which workers import anyway

    out = []
    for item in items:
        deal = Deal.from_seed(item) if by_seed else Deal(item)
        t0 = time.perf_counter()
        r = solve(game, deal, **limits, **variant)
        ms = (time.perf_counter() - t0) * 1000
        if r.won:
            nmoves, left = len(r.moves), 0
        elif r.blocked and r.proof is not None:
            nmoves = len(r.proof.moves)
            # A forced line's end (exact), else the fewest left at a position the search
            # reached (the best line leaves no more; a pruned position may hide fewer).
            left = r.proof.details.get("cards_left", r.stats.get("fewest_left"))
        else:
            nmoves, left = 0, None
        key = ("seed", item) if by_seed else ("deal", str(deal))
        out.append({key[0]: key[1], "status": r.status.value, "moves": nmoves,
                    "cards_left": left, "states": int(r.stats.get("states", 0)),
                    "ms": round(ms, 4)})
    return out


def _batch_lines(key: str, items: Sequence, chunk: tuple) -> str:
    """The JSON lines of a batch chunk (as json.dumps writes them, built without a dict each)."""
    status, left, moves, states, seconds, _ = chunk
    ms = json.dumps(round(seconds * 1000 / max(1, len(status)), 6))
    word = ("won", "blocked")
    if key == "seed":
        keys: Iterable[str] = map(str, items)
    else:
        keys = map(json.dumps, items)
    return "".join(
        f'{{"{key}": {k}, "status": "{word[st]}", "moves": {m}, "cards_left": {c}, '
        f'"states": {x}, "ms": {ms}}}\n'
        for k, st, m, c, x in zip(keys, status, moves, left, states)
    )


def _batch_summary(res: SurveyResult, chunk: tuple) -> None:
    """Count a batch chunk without making a record per deal (the core tallies it)."""
    status, left, moves, states, seconds, _ = chunk
    n = len(status)
    core = get_game(res.game)[0].batch({})
    assert core is not None
    won, left_hist, states_hist = core.tally(status, left, states)
    res.won += won
    res.blocked += n - won
    res.cards_left.update({v: c for v, c in enumerate(left_hist) if c})
    res.states.update({v: c for v, c in enumerate(states_hist) if c})
    res.micros[round(seconds * 1e6 / max(1, n))] += n


# -- the file of records ----------------------------------------------------------------------

def _read_done(path: str, header: dict) -> dict:
    """Records already in the file, by key; a truncated last line is cut off the file."""
    done: dict = {}
    if not os.path.exists(path):
        return done
    with open(path, "rb") as f:
        data = f.read()
    good_end = 0
    pos = 0
    lineno = 0
    while pos < len(data):
        nl = data.find(b"\n", pos)
        end = len(data) if nl < 0 else nl + 1
        raw = data[pos:end]
        lineno += 1
        try:
            if nl < 0:
                raise ValueError("no newline")  # a line still being written when stopped
            rec = json.loads(raw)
        except ValueError:
            if end == len(data):
                break  # the truncated last line: dropped, its deal is decided again
            raise SolitaireError(f"{path}, line {lineno}: not a JSON record") from None
        good_end = end
        pos = end
        if "survey" in rec:
            if rec.get("survey") != header["survey"] or rec.get("variant") != header["variant"]:
                raise SolitaireError(
                    f"{path} holds a survey of {rec.get('survey')} {rec.get('variant')}, not "
                    f"{header['survey']} {header['variant']}"
                )
            continue
        if "seed" in rec:
            done[int(rec["seed"])] = rec
        elif "deal" in rec:
            done[str(rec["deal"])] = rec
        else:
            raise SolitaireError(f"{path}, line {lineno}: a record without seed or deal")
    if good_end < len(data):
        with open(path, "r+b") as f:
            f.truncate(good_end)
    return done


# -- the survey ---------------------------------------------------------------------------------

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
    workers: Optional[int] = None,
    out: Optional[str] = None,
    executor: Optional[Executor] = None,
    chunk_size: Optional[int] = None,
    max_states: Optional[int] = None,
    max_seconds: Optional[float] = None,
    memory_mb: Optional[float] = None,
    progress: Optional[Callable[[Progress], None]] = None,
    **variant: Any,
) -> SurveyResult:
    """Decide many deals of one game and count the outcomes.

    seeds: the seeded deals to decide (e.g. range(10**6)); or deals: any iterable of deals (a Deal,
    pack-order text, a card list). workers: local processes (default: all cores; 1 runs in this
    process); executor: any concurrent.futures.Executor to run the chunks instead (workers then
    only sets how many chunks are in flight). out: a file of JSON lines, one per deal, resumed
    when it exists. max_states, max_seconds, memory_mb: limits of each solve (the generic path;
    a limit reached counts the deal UNKNOWN). variant: the game's options.
    """
    from .api import _limits, _resolve

    g, var = _resolve(game, variant)
    if (seeds is None) == (deals is None):
        raise SolitaireError("give seeds=... or deals=... (one of them)")
    if workers is not None and (isinstance(workers, bool) or int(workers) < 1):
        raise SolitaireError(f"workers must be a positive integer, not {workers!r}")
    if chunk_size is not None and (isinstance(chunk_size, bool) or not isinstance(chunk_size, int)
                                   or chunk_size < 1):
        raise SolitaireError(f"chunk_size must be a positive integer, not {chunk_size!r}")
    nworkers = int(workers) if workers else (os.cpu_count() or 1)
    lim = _limits(max_states, max_seconds, memory_mb if memory_mb is not None else 256)
    limits: dict = {}
    if max_states is not None:
        limits["max_states"] = lim.max_states
    if max_seconds is not None:
        limits["max_seconds"] = lim.max_seconds
    if memory_mb is not None:
        limits["memory_mb"] = float(memory_mb)

    by_seed = seeds is not None
    if by_seed:
        items = list(seeds) if not isinstance(seeds, range) else seeds  # type: ignore[arg-type]
        for s in (items[:1] if isinstance(items, range) else items):
            if isinstance(s, bool) or not isinstance(s, int):
                raise SolitaireError(f"a seed must be an integer, not {s!r}")
    else:
        items = [g.read_deal(d, var) for d in deals]  # type: ignore[union-attr]
    total = len(items)

    res = SurveyResult(g.name, var, workers=nworkers)
    header = {"survey": g.name, "variant": var}
    done = _read_done(out, header) if out else {}
    key = "seed" if by_seed else "deal"
    if done:
        for it in items:
            rec = done.get(it if by_seed else str(it))
            if rec is not None:
                res.add(rec)
        res.resumed = res.deals

    batch = not limits and g.batch(var) is not None
    if by_seed and batch and total:
        lo = min(items) if not isinstance(items, range) else min(items[0], items[-1])
        hi = max(items) if not isinstance(items, range) else max(items[0], items[-1])
        batch = _INT64[0] <= lo and hi <= _INT64[1]
    res.path = "batch" if batch else "generic"

    if chunk_size is None:
        per = 65536 if batch else 16
        chunk_size = max(1, min(per, -(-total // (nworkers * 8)) if total else 1))
    records = out is not None

    def tasks() -> Iterator[tuple[Callable, tuple, list]]:
        skip = done if by_seed else {}
        if by_seed and batch:
            for start, count in _runs(items, skip, chunk_size):
                yield _slot_seed_chunk, (g.name, start, count, records), range(start, start + count)
            return
        todo = (it for it in items if (it if by_seed else str(it)) not in done)
        for part in _chunks(todo, chunk_size):
            if batch:
                yield _slot_deal_chunk, (g.name, [d.cards for d in part], records), \
                    [str(d) for d in part]
            else:
                args = part if by_seed else [str(d) for d in part]
                yield _generic_chunk, (g.name, var, args, by_seed, limits), args

    own_pool = None
    if executor is None:
        executor = _Inline() if nworkers == 1 else ProcessPoolExecutor(nworkers)
        own_pool = executor
    sink = open(out, "a", encoding="utf-8") if out else None
    t0 = time.perf_counter()
    try:
        if sink is not None and not done and sink.tell() == 0:
            sink.write(json.dumps(header) + "\n")
        pending: dict[Future, list] = {}
        it = tasks()
        exhausted = False
        while True:
            while not exhausted and len(pending) < 2 * nworkers:
                nxt = next(it, None)
                if nxt is None:
                    exhausted = True
                    break
                fn, args, keys = nxt
                pending[executor.submit(fn, *args)] = keys
            if not pending:
                break
            finished, _ = wait(list(pending), return_when=FIRST_COMPLETED)
            for fut in finished:
                keys = pending.pop(fut)
                value = fut.result()
                if isinstance(value, tuple):  # a batch chunk
                    if sink is not None:
                        sink.write(_batch_lines(key, keys, value))
                    _batch_summary(res, value)
                else:
                    for rec in value:
                        if sink is not None:
                            sink.write(json.dumps(rec) + "\n")
                        res.add(rec)
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
    return res


__all__ = ["Progress", "SurveyResult", "survey", "wilson_interval"]
