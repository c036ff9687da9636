"""The plain pure-Python search over the reference rules.

It is the speed baseline of the benchmarks, the second opinion of the tests and the fallback when
the compiled core is missing. Like the core, it is a reachability search: a position is expanded
once, the first time its key is seen.

Its memory is the set of keys seen, which it keeps within a budget as the core keeps its table:
each key is counted at key_bytes() of the largest key sampled plus SET_ENTRY_BYTES, and a search
that would hold more keys stops with "limit-memory" (it cannot forget keys as the core's table
does: a game whose lines can return to a position needs them all).
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Hashable, Optional

from ..moves import Move
from .contract import Limits

if TYPE_CHECKING:  # a runtime import would close a circle through games/
    from ..games.rules import Rules

#: A set's own bytes per key at most: CPython's set keeps a 16-byte slot per key at a load of at
#: least 30% (a large set resizes at 60% full to twice its size), and holds the old slots
#: beside the new ones while it resizes: 16 * (1 + 2) / 0.6 = 80.
SET_ENTRY_BYTES = 80
#: The copy keep_explored's caller makes (a frozenset of the keys, reference_answer): its slots,
#: the keys shared: at most 16 / 0.25 bytes a key.
FROZEN_COPY_BYTES = 64
#: How often (in new keys) the search measures a key again, for keys that grow as it goes.
SAMPLE_EVERY = 1024


def key_bytes(key: Hashable) -> int:
    """The bytes a key holds (sys.getsizeof of it and, for tuples and frozensets, of what they
    hold, once per object; None, True, False and the small ints CPython shares are not
    counted)."""
    seen: set = set()

    def size(x: Any) -> int:
        if x is None or type(x) is bool or id(x) in seen or (type(x) is int and -5 <= x <= 256):
            return 0
        seen.add(id(x))
        n = sys.getsizeof(x)
        if isinstance(x, (tuple, frozenset)):
            n += sum(size(y) for y in x)
        return n

    return size(key)


@dataclass
class SearchOutcome:
    status: str                   # "won", "exhausted", "limit-states", "limit-time", "limit-memory"
    moves: list[Move]
    states: int
    seconds: float
    explored: Optional[set] = None  # keys of every position explored, when asked for


def reference_search(
    rules: Rules,
    start: Any,
    max_states: int = 0,
    max_seconds: float = 0.0,
    keep_explored: bool = False,
    memory_bytes: int = Limits().memory_bytes,
) -> SearchOutcome:
    """Depth-first search from start for a won position. max_states, max_seconds: limits (0:
    none); memory_bytes: the budget of the keys kept (module docstring), past which the search
    stops with "limit-memory"; keep_explored: return the keys of an exhaustive search (counted
    with the frozenset its caller makes of them)."""
    t0 = time.perf_counter()
    if rules.won(start):
        return SearchOutcome("won", [], 1, time.perf_counter() - t0)
    k = rules.key(start)
    seen = {k}
    overhead = SET_ENTRY_BYTES + (FROZEN_COPY_BYTES if keep_explored else 0)
    largest = key_bytes(k)
    max_keys = memory_bytes // (largest + overhead)
    # Each frame: the position and the moves not yet tried from it.
    stack: list[tuple[Any, list[Move]]] = [(start, list(reversed(rules.moves(start))))]
    path: list[Move] = []
    status = "exhausted"
    while stack:
        pos, todo = stack[-1]
        if not todo:
            stack.pop()
            if path:
                path.pop()
            continue
        move = todo.pop()
        child = rules.apply(pos, move)
        if rules.won(child):
            path.append(move)
            return SearchOutcome("won", path, len(seen), time.perf_counter() - t0)
        k = rules.key(child)
        if k in seen:
            continue
        seen.add(k)
        if max_states and len(seen) > max_states:
            # As the core counts: at most max_states positions, the one over the limit not kept
            # (a search that needs exactly max_states positions finishes).
            seen.discard(k)
            status = "limit-states"
            break
        if len(seen) % SAMPLE_EVERY == 0 and (size := key_bytes(k)) > largest:
            largest = size
            max_keys = memory_bytes // (largest + overhead)
        if len(seen) > max_keys:
            seen.discard(k)
            status = "limit-memory"
            break
        if max_seconds and (len(seen) & 1023) == 0 and time.perf_counter() - t0 > max_seconds:
            status = "limit-time"
            break
        path.append(move)
        stack.append((child, list(reversed(rules.moves(child)))))
    return SearchOutcome(
        status, [], len(seen), time.perf_counter() - t0, seen if keep_explored and
        status == "exhausted" else None
    )
