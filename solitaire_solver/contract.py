"""The one contract between the library and every compiled core (docs/architecture.md).

Every core module (solitaire_solver._slots, _fourteen, _nestor, _pyramid, ...) exposes

    solve(spec, objective, limits, certificate) -> CoreRun
    expand(spec, removed, aux) -> list of (move word, removed, aux)

- spec: the game's data for one deal and variant, made by its Game.core_spec (a dict whose keys
  the core's module docstring lists); every core also reads spec["root"] = (removed, aux), when
  present, as the packed position to search from (a position mid-game) instead of the start;
- objective: "decide", or another of the game's objectives ("shortest", "score");
- limits: a Limits;
- certificate: keep every explored position, for an exhaustive proof that verify() checks.

`expand` lists the core's legal moves of one packed position (every legal move, no pruning) and
where each leads: the tests play the core and the reference rules side by side with it.

A core whose game has `Game.quick_decide` also holds `QUICK_DECIDE`, a capsule named
"solitaire_solver.quick_decide" of a C function (`quick_fn` in _engine.pxd) that _quick.pyx calls
for a plain decide call: solve's decide run for the deal's cards and the rest of its spec, under
the given limits, without a certificate, as (status, path, stats, end, ready), where ready says
that end shows a structural proof, which `Game.later_proof` then makes; and `QUICK_KEYS`, the
spec keys that function reads (a spec with another key takes solve). It is solve without the
Python call, the spec dict, the Limits and the CoreRun, which took 0.015 ms of a plain call's
0.11 that starts with cold caches (docs/benchmarks.md).
"""

from __future__ import annotations

from typing import Any, NamedTuple, Optional

#: The statuses of a core's search, by their code in _engine.pxd (SEARCH_WON = 0, ...).
STATUSES = ("won", "exhausted", "limit-states", "limit-time", "limit-memory")


class Limits(NamedTuple):
    """Search limits in the core's units; 0 means none."""

    max_states: int = 0
    max_seconds: float = 0.0
    memory_bytes: int = 256 << 20

    def used_up(self, spent: dict) -> Optional[str]:
        """The status of a limit that a first search's spent["states"] and spent["seconds"]
        used up ("limit-states", "limit-time"), or None."""
        if self.max_states and int(spent.get("states", 0)) >= self.max_states:
            return "limit-states"
        if self.max_seconds and float(spent.get("seconds", 0.0)) >= self.max_seconds:
            return "limit-time"
        return None

    def less(self, spent: dict) -> Limits:
        """The limits left after a first search spent spent["states"] and spent["seconds"]
        (no limit stays none; a spent limit leaves the least the next search can run under)."""
        states, seconds = self.max_states, self.max_seconds
        if states:
            states = max(1, states - int(spent.get("states", 0)))
        if seconds:
            seconds = max(1e-3, seconds - float(spent.get("seconds", 0.0)))
        return self._replace(max_states=states, max_seconds=seconds)


class CoreRun(NamedTuple):
    """What a core's solve() found.

    status: one of STATUSES ("exhausted": no win, every position searched; for the score
    objective: the best value is proven); path: the move words of the line found (a win, the
    best-scoring line, or the forced line that ended stuck); stats: counters of the search;
    certificate: (removed, aux) of every explored position, when asked for and exhausted;
    best: the best value (score objective); end: anything else the game's proof can reuse.
    """

    status: str
    path: list
    stats: dict
    certificate: Optional[list] = None
    best: Optional[int] = None
    end: Any = None


def run_of(code: int, path: list, stats: dict, certificate: Optional[list] = None,
           best: Optional[int] = None, end: Any = None) -> CoreRun:
    """A CoreRun from the engine's numeric status."""
    # tuple.__new__ directly: a NamedTuple's own __new__ is one more Python frame per call.
    return tuple.__new__(CoreRun, (STATUSES[code], path, stats, certificate, best, end))
