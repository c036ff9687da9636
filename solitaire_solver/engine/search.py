"""The plain pure-Python search over the reference rules.

It is the speed baseline of the benchmarks, the second opinion of the tests and the fallback when
the compiled core is missing. Like the core, it is a reachability search: a position is expanded
once, the first time its key is seen.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional

from ..moves import Move

if TYPE_CHECKING:  # a runtime import would close a circle through games/
    from ..games.rules import Rules


@dataclass
class SearchOutcome:
    status: str                   # "won", "exhausted", "limit-states" or "limit-time"
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
) -> SearchOutcome:
    t0 = time.perf_counter()
    if rules.won(start):
        return SearchOutcome("won", [], 1, time.perf_counter() - t0)
    seen = {rules.key(start)}
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
        if max_seconds and (len(seen) & 1023) == 0 and time.perf_counter() - t0 > max_seconds:
            status = "limit-time"
            break
        path.append(move)
        stack.append((child, list(reversed(rules.moves(child)))))
    return SearchOutcome(
        status, [], len(seen), time.perf_counter() - t0, seen if keep_explored and
        status == "exhausted" else None
    )
