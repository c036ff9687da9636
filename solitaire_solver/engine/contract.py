"""The one contract between the library and every compiled core (docs/architecture.md).

Every core module (solitaire_solver.games.slots._core, _fourteen, _nestor, _pyramid, ...) exposes

    solve(spec, objective, limits, certificate) -> CoreRun
    expand(spec, removed, aux) -> list of (move word, removed, aux)
    step(spec, removed, aux) -> (won, expand(spec, removed, aux))

- spec: the game's data for one deal and variant, made by its Game.core_spec (a dict whose keys
  the core's module docstring lists); every core also reads spec["root"] = (removed, aux), when
  present, as the packed position to search from (a position mid-game) instead of the start;
- objective: "decide", or another of the game's objectives ("shortest", "score");
- limits: a Limits;
- certificate: keep every explored position, for an exhaustive proof that verify() checks.

`expand` lists the core's legal moves of one packed position (every legal move, no pruning) and
where each leads: the tests play the core and the reference rules side by side with it. `step`
adds the core's win test of the position, in one call: a rating (rating.py) walks every position
of a deal with it.

A core that rates (rating.py, docs/difficulty.md) also has `random_win(spec, removed, aux,
budget, max_seconds, memory_bytes) -> (status, chance, positions kept)`, the random player's exact
chance, and `playouts(spec, removed, aux, count, seed, max_moves, max_seconds=0.0) -> (wins,
lines)`: of `count` random lines, how many win; with max_seconds > 0 it stops once that time has
passed, after at least 64 lines, and `lines` says how many it played (the first lines of the
unlimited run, the same stream).

A wide core (a game whose position does not fit _engine's two words: Montana) searches with
engine/_wide.pyx instead: it packs its position into `words` 64-bit words (1..8, its own layout)
and keeps this same contract by passing a position as ONE Python int, word i in bits
64 i .. 64 i + 63, where a one-word core passes `removed`, with `aux` always 0: spec["root"] is
(int, 0), expand(spec, position, 0) lists (move word, int, 0), a certificate is a list of
(int, 0), random_win and playouts take (spec, int, 0, ...), and Game.core_position /
certificate_key read and write that int. So every caller (the
plug-in's hooks, the generic tests) handles both kinds of core alike. The wide search is exact on
move graphs with cycles, also past the memory budget (engine/_wide.pyx), and returns the same
(status, path, stats, certificate) with the same stats keys (stats["path_hits"]: positions of
the current line met again after the table forgot them).

Positions in: expand, step, random_win, playouts and spec["root"] take a position that the game's
plug-in packed (Game.core_position) from one its reference rules reached; the core modules are
private and the public API never hands them another. A core whose module sets
`CHECKS_POSITIONS = True` (a new core should: docs/architecture.md) also refuses any other int
with ValueError naming what is wrong: a field out of range, or cards that are not consistent
with the deal or with each other as its packing reads them (each core's check_given, or a
wide core's own: Montana's check_position, Accordion's checked_tops, says what it checks), so
that no word makes it read past its tables or shift past 64 bits. The check runs at those
entries only (once per call, on the position given), never inside a search. It cannot tell a
position that play reaches from one it does not (a layout typed mid-game is either): it
refuses what the core cannot read and what no play of the game makes. tests/test_fuzz.py gives
random words, and words a few bits from a position, to every entry of such a core; a core
without the flag trusts its caller, and may read past its tables on a word that is no position
of its game.

A core may also offer `TextDecider(spec, max_states, max_seconds, memory_bytes)`, a subclass of
the engine's `TextEntry` (so that solve reaches its cpdef `decide` through C): solve's decide
run prepared once for a spec (without its cards) holding no key but `DECIDE_KEYS`, and limits;
its `decide(text)` runs it, without a certificate, for the deal a pack-order text gives (read by
the C reader): None where the text is not 52 plain card names, else (status, path, stats, end,
ready, cards), where ready says that end shows the structural proof Game.structural_after makes.
A prepared Solver (solver.py) calls it for a decide call given a pack-order text: the same
search as solve, without the spec dict read and the CoreRun made per call.
"""

from __future__ import annotations

import time
from typing import Any, NamedTuple, Optional

from ..errors import SolitaireError, quoted

#: The transposition table's budget when none is given, in MiB.
DEFAULT_MEMORY_MB = 256
#: The largest limits the core takes (a C long long of states, a size_t of bytes, kept well
#: below 2**64): larger ones mean "no limit" in practice and are clamped, not overflowed.
_MAX_STATES = (1 << 63) - 1
_MAX_MEMORY_BYTES = 1 << 60

#: How a core's search ended, by its code in _engine.pxd (SEARCH_WON = 0, ...): the one
#: vocabulary of a search's end. A Result's verdict is result.Status, which Game.result_of
#: makes of these.
STATUSES = ("won", "exhausted", "limit-states", "limit-time", "limit-memory")


class Limits(NamedTuple):
    """Search limits in the core's units; 0 means none."""

    max_states: int = 0
    max_seconds: float = 0.0
    memory_bytes: int = 256 << 20

    @classmethod
    def of(cls, max_states: Optional[int] = None, max_seconds: Optional[float] = None,
           memory_mb: float = DEFAULT_MEMORY_MB) -> Limits:
        """The limits a caller gives (None: none), checked (SolitaireError naming the bad one)."""
        if max_states is None and max_seconds is None and memory_mb == DEFAULT_MEMORY_MB:
            return DEFAULT_LIMITS
        if max_states is not None and (isinstance(max_states, bool)
                                       or _number("max_states", max_states, int) < 1
                                       or (isinstance(max_states, float)
                                           and not max_states.is_integer())):
            raise SolitaireError(f"max_states must be a positive integer, not {quoted(max_states)}")
        if max_seconds is not None and not _number("max_seconds", max_seconds, float) > 0:
            raise SolitaireError(f"max_seconds must be positive, not {quoted(max_seconds)}")
        if not _number("memory_mb", memory_mb, float) > 0:
            raise SolitaireError(f"memory_mb must be positive, not {quoted(memory_mb)}")
        memory_bytes = float(memory_mb) * (1 << 20)
        return cls(
            max_states=min(int(max_states or 0), _MAX_STATES),
            max_seconds=float(max_seconds or 0.0),
            memory_bytes=_MAX_MEMORY_BYTES if memory_bytes >= _MAX_MEMORY_BYTES
            else int(memory_bytes),
        )

    def deadline(self) -> float:
        """When max_seconds from now runs out, on time.monotonic's clock (0.0: no time limit). A
        call that runs several searches bounds them all by it (seconds_left, until)."""
        return time.monotonic() + self.max_seconds if self.max_seconds else 0.0

    def until(self, deadline: float) -> Limits:
        """These limits with max_seconds the time left before `deadline` (unchanged without
        one)."""
        return self._replace(max_seconds=seconds_left(deadline)) if deadline else self

    def reason(self, status: str) -> str:
        """What an UNKNOWN answer says of the limit its search reached (a status of STATUSES)."""
        return {
            "limit-states": f"the state limit ({self.max_states}) was reached",
            "limit-time": f"the time limit ({_seconds(self.max_seconds)}) was reached",
            "limit-memory": f"the memory budget ({_mib(self.memory_bytes)} MiB) was reached",
        }[status]

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


DEFAULT_LIMITS = Limits(0, 0.0, DEFAULT_MEMORY_MB << 20)


class StartLook(NamedTuple):
    """What a core saw at a deal's start, for the game's structural proof (a CoreRun's end where
    a game's core reports it: Pyramid's decide run when it did not win, and its start_look).

    blocked: the core's dead-card rule holds at the start (no line wins); group: the cards of
    the short group that proves it (Pyramid's partners proof), or None where none is named.
    """

    blocked: bool
    group: Optional[list] = None


class StuckEnd(NamedTuple):
    """Where a forced line ended stuck (a CoreRun's end where a core plays one: the slot games
    whose order of play does not matter): the removed cards and the card in each slot (None for
    an empty one), for the game's forced-line proof."""

    removed: int
    slots: tuple


def _number(name: str, raw: Any, kind: type) -> Any:
    # Text is no number here, though int() and float() would read it: a limit of "5" is a
    # caller's mistake (the CLI reads its numbers itself), as True is.
    if isinstance(raw, (bool, str, bytes, bytearray)):
        raise SolitaireError(f"{name} must be a number, not {quoted(raw)}")
    try:
        return kind(raw)
    except (TypeError, ValueError, OverflowError):
        raise SolitaireError(f"{name} must be a number, not {quoted(raw)}") from None


def seconds_left(deadline: float) -> float:
    """The seconds left before the monotonic `deadline` as a limit: 0.0 (none) without one, else
    at least a microsecond (a limit of 0 would mean none)."""
    return max(deadline - time.monotonic(), 1e-6) if deadline else 0.0


def _seconds(x: float) -> str:
    """A time limit as a person would write it: 5 s, 0.3 s, 1.25 s, 3,600 s (a share of what a
    call had left, hint --all's, is any float)."""
    if x < 0.001:
        return "under 1 ms"
    text = f"{x:,.3f}" if x < 10 else f"{x:,.1f}"
    return text.rstrip("0").rstrip(".") + " s"


def _mib(nbytes: int) -> str:
    """A memory budget in MiB as a person would write it: 0.5, 256, 12,288."""
    v = nbytes / 2**20
    return f"{v:,.0f}" if v >= 100 else f"{v:.3g}"


class CoreRun(NamedTuple):
    """What a core's solve() found.

    status: one of STATUSES ("exhausted": no win, every position searched; for the score
    objective: the best value is proven); path: the move words of the line found (a win, the
    best-scoring line, or the forced line that ended stuck); stats: counters of the search;
    certificate: (removed, aux) of every explored position, when asked for and exhausted;
    best: the best value (score objective); end: what the game's proof can reuse (a
    StartLook, a StuckEnd, or None).
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
