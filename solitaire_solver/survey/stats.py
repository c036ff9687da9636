"""Survey statistics: the counts of a survey, the Wilson interval of its win rate, its progress."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Optional, Sequence

#: z of a two-sided 95% interval.
Z95 = 1.959963984540054


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


def counts_quantile(counts: Counter, q: float) -> float:
    """The q-quantile (0 < q <= 1) of a multiset given as value -> count, by nearest rank: the
    least value with at least q of the multiset at or below it (0 for an empty one)."""
    n = sum(counts.values())
    rank = max(1, math.ceil(q * n))
    seen = 0
    for v in sorted(counts):
        seen += counts[v]
        if seen >= rank:
            return v
    return 0


def counts_median(counts: Counter) -> float:
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
    #: the largest peak resident memory, in MiB, of the processes that ran the survey (its own,
    #: over its whole life, and each worker's, as the worker tells it); None where the system
    #: does not tell
    peak_mib: Optional[float] = None

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
        return counts_median(self.states)

    @property
    def states_max(self) -> int:
        return max(self.states, default=0)

    @property
    def states_p99(self) -> int:
        return int(counts_quantile(self.states, 0.99))

    @property
    def ms_median(self) -> float:
        return counts_median(self.micros) / 1000

    @property
    def ms_p99(self) -> float:
        return counts_quantile(self.micros, 0.99) / 1000

    @property
    def ms_max(self) -> float:
        return max(self.micros, default=0) / 1000

    @property
    def deals_per_second(self) -> float:
        new = self.deals - self.resumed
        return new / self.seconds if self.seconds > 0 else 0.0

    def add(self, rec: dict) -> None:
        """Count one deal's record (the dict of its JSON line)."""
        left = rec.get("cards_left")
        self.count(rec["status"], None if left is None else int(left), int(rec.get("states", 0)),
                   float(rec.get("ms", 0.0)))

    def count(self, status: str, cards_left: Optional[int], states: int, ms: float) -> None:
        """Count one deal: its status ("won", "blocked" or "unknown"), cards left when blocked
        (None when not known), states searched and time in milliseconds."""
        if status == "won":
            self.won += 1
        elif status == "blocked":
            self.blocked += 1
            if cards_left is not None:
                self.cards_left[cards_left] += 1
        else:
            self.unknown += 1
        self.states[states] += 1
        self.micros[round(ms * 1000)] += 1

    def count_chunk(self, deals: int, won: int, left_hist: Sequence[int],
                    states_hist: Sequence[int], seconds: float) -> None:
        """Count a chunk decided together, from its histograms (cards left of the blocked deals,
        states), without a record per deal; each deal is timed as the chunk's share."""
        self.won += won
        self.blocked += deals - won
        self.cards_left.update({v: c for v, c in enumerate(left_hist) if c})
        self.states.update({v: c for v, c in enumerate(states_hist) if c})
        self.micros[round(seconds * 1e6 / max(1, deals))] += deals

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
            "states_median": self.states_median, "states_p99": self.states_p99,
            "states_max": self.states_max, "ms_median": self.ms_median, "ms_p99": self.ms_p99,
            "ms_max": self.ms_max, "seconds": self.seconds,
            "deals_per_second": self.deals_per_second, "workers": self.workers, "path": self.path,
            "resumed": self.resumed, "peak_mib": self.peak_mib,
        }

    def __repr__(self) -> str:
        # The histograms can hold thousands of entries (states per deal): keep them out of the
        # repr and say what the counts are.
        lo, hi = self.interval
        return (f"<SurveyResult {self.game} {self.variant}: {self.deals:,} "
                f"deal{'' if self.deals == 1 else 's'}, won "
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
            ("states/deal", f"median {self.states_median:g}, p99 {self.states_p99:,}, "
                            f"max {self.states_max:,}"),
            ("time/deal", f"median {self.ms_median:.4g} ms, p99 {self.ms_p99:.4g} ms, "
                          f"max {self.ms_max:.4g} ms"),
            ("wall time", f"{self.seconds:.2f} s, {self.deals_per_second:,.0f} deals/s, "
                          f"{self.workers} worker{'s' if self.workers != 1 else ''} "
                          f"({self.path} path)"),
        ]
        if self.peak_mib is not None:
            rows.append(("peak memory", f"{self.peak_mib:,.0f} MiB resident (the largest "
                                        "process: the survey's or a worker's)"))
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


__all__ = ["Progress", "SurveyResult", "Z95", "counts_median", "wilson_interval"]
