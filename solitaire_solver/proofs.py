"""Checks done by the reference rules alone: the exhaustive proof, the one proof kind every game has
(docs/proofs.md), and the best score of a game with a score (the reference best-score search).

A game's own proof kinds (forced lines, structural facts) are checked by its Game plug-in; see
Game.check_proof.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Optional

from .engine.search import reference_search
from .errors import VerificationError
from .moves import Move
from .result import BlockProof, Verification, certificate_from_json, counted

if TYPE_CHECKING:  # a runtime import would close a circle through games/
    from .games.rules import Rules

#: At most what one position the re-search of an exhaustive proof keeps costs in memory: its key
#: in a set, with its share of the depth-first stack (tracemalloc at 10,000 to 60,000 positions:
#: 80 to 160 bytes in Pyramid, Fourteen, Baroness and Fifteens).
SEEN_BYTES = 200


def check_exhaustive(rules: Rules, start: Any, proof: BlockProof,
                     max_states: Optional[int], max_seconds: Optional[float] = None,
                     memory_bytes: int = 0) -> Verification:
    """With a certificate: it must be closed and hold no won position. Without: a re-search by the
    reference rules must find no win (None when it reaches max_states, max_seconds or the
    memory budget, at SEEN_BYTES a position, first)."""
    if proof.certificate is not None:
        return check_certificate(rules, start, proof.certificate)
    by_memory = int(memory_bytes or 0) // SEEN_BYTES
    cap = min(n for n in (int(max_states or 0), by_memory, 1 << 62) if n)
    out = reference_search(rules, start, 0 if cap == 1 << 62 else cap,
                           float(max_seconds or 0.0), memory_bytes=int(memory_bytes or 1 << 60))
    if out.status == "won":
        line = " ".join(str(m) for m in out.moves)
        raise VerificationError(f"the deal can be won: {line}")
    if out.status == "exhausted":
        return Verification(True, f"a re-search explored {counted(out.states, 'position')}, "
                                  "none won")
    if out.status == "limit-time":
        return Verification(None, f"not checked: the re-search reached the time limit "
                            f"({max_seconds} s) after {counted(out.states, 'position')}")
    if out.status == "limit-memory" or (by_memory and cap == by_memory and cap != max_states):
        return Verification(None, f"not checked: the re-search reached the memory budget "
                            f"({memory_bytes / 2**20:g} MiB) after {counted(out.states, 'position')}")
    return Verification(None, "not checked: the re-search reached "
                        f"{counted(int(max_states or 0), 'state')}")


def certificate_keys(cert: Any) -> frozenset:
    """The certificate as a set of position keys, read once so that every look-up is O(1).

    A set as solve() gives it is taken as it is; a list as BlockProof.to_dict() writes it becomes
    the set of those keys (result.certificate_from_json). VerificationError names the first item
    that is not a key.
    """
    return certificate_from_json(cert)


def check_certificate(rules: Rules, start: Any, cert: Any) -> Verification:
    """Every position reachable from the start stays inside the certificate and none is won.

    cert: a set of keys, or the list BlockProof.to_dict() writes (see certificate_keys)."""
    keys = certificate_keys(cert)
    if rules.key(start) not in keys:
        raise VerificationError("the certificate does not contain the start position")
    seen = {rules.key(start)}
    todo = [start]
    while todo:
        pos = todo.pop()
        if rules.won(pos):
            raise VerificationError("the certificate contains a won position")
        for m in rules.moves(pos):
            child = rules.apply(pos, m)
            k = rules.key(child)
            if k not in keys:
                raise VerificationError(f"the move {m} leads out of the certificate")
            if k not in seen:
                seen.add(k)
                todo.append(child)
    return Verification(True, f"the certificate is closed: {counted(len(seen), 'position')}, "
                              "none won")


# -- the limits of a check's search ----------------------------------------------------------------

#: At most what one position kept by a check's search costs in memory: its key in a dict with
#: the way back to it, and its share of the positions waiting to be searched (tracemalloc, the
#: peak over the positions kept, on Pyramid's checks of 8,000 to 300,000 positions: 350 to 530
#: bytes for the fewest moves, 330 to 490 for the best score). A check keeps at most
#: memory_bytes // POSITION_BYTES positions.
POSITION_BYTES = 600


class CheckBound:
    """The limits of one check's search: positions kept (max_states, and the memory budget at
    POSITION_BYTES each) and seconds; 0 or None means none."""

    def __init__(self, max_states: Optional[int] = None, max_seconds: Optional[float] = None,
                 memory_bytes: int = 0):
        self.max_states = int(max_states or 0)
        self.max_seconds = float(max_seconds or 0.0)
        self.memory_bytes = int(memory_bytes or 0)
        self.by_memory = self.memory_bytes // POSITION_BYTES
        self.t0 = time.perf_counter()

    def reached(self, kept: int) -> str:
        """"" while a search keeping `kept` positions may go on, else the limit it reached."""
        if self.max_states and kept > self.max_states:
            return f"the state limit ({self.max_states})"
        if self.by_memory and kept > self.by_memory:
            return (f"the memory budget ({self.memory_bytes / 2**20:g} MiB, about "
                    f"{self.by_memory:,} positions of {POSITION_BYTES} bytes)")
        if (self.max_seconds and kept & 1023 == 0
                and time.perf_counter() - self.t0 > self.max_seconds):
            return f"the time limit ({self.max_seconds:g} s)"
        return ""


def _line_to(rules: Any, start: Any, parent: dict, k: Any) -> list[Move]:
    """The line from start to the position keyed k, where parent[k] is (the key of the position
    it was reached from, the number of the move in that position's rules.moves) or None at
    start: a search keeps that small number rather than a Move per position."""
    steps = []
    while parent[k] is not None:
        k, i = parent[k]
        steps.append(i)
    pos, out = start, []
    for i in reversed(steps):
        m = rules.moves(pos)[i]
        out.append(m)
        pos = rules.apply(pos, m)
    return out


# -- the fewest moves -------------------------------------------------------------------------------

def check_shortest(rules: Any, start: Any, length: int, bound: CheckBound) -> Verification:
    """No line of fewer than `length` moves wins from start (the caller has checked that one of
    `length` does): a breadth-first search of the reference rules, which reaches each position
    first by its fewest moves, not going on from a position where `rules.moves_bound` says no
    line through it can win within length - 1 moves. VerificationError with a shorter line;
    ok None when a limit is reached first."""
    if length == 0:
        return Verification(True, "no line is shorter than none")
    parent: dict[Any, Optional[tuple[Any, int]]] = {rules.key(start): None}
    frontier = [start]
    for depth in range(1, length):   # the children made in this round are `depth` moves in
        later = []
        for pos in frontier:
            here = rules.key(pos)
            for i, m in enumerate(rules.moves(pos)):
                child = rules.apply(pos, m)
                if rules.won(child):
                    shorter = _line_to(rules, start, parent, here) + [m]
                    raise VerificationError(
                        f"{length} moves are not the fewest: a line of {len(shorter)} wins: "
                        + " ".join(str(x) for x in shorter))
                k = rules.key(child)
                if k in parent:
                    continue
                parent[k] = (here, i)
                limit = bound.reached(len(parent))
                if limit:
                    return Verification(None, f"the search for a shorter line reached {limit} "
                                              f"after {counted(len(parent), 'position')}")
                # Reached first here, so by its fewest moves: a position cut now is cut at
                # every later depth too.
                if depth + rules.moves_bound(child) < length:
                    later.append(child)
        frontier = later
    return Verification(True, "no line of fewer moves wins: a search of "
                              f"{counted(len(parent), 'position')} found none")


# -- the best score ---------------------------------------------------------------------------------

@dataclass
class ScoreOutcome:
    """What best_score() found.

    status: "exhausted" when every line was searched: `score` is the best score and `moves` a line
    reaching it, or, when a score to beat was given, no line beats it (`score` None); "beaten" when
    `moves` is a line scoring `score`, more than the score to beat; "limit" when a limit was
    reached first (`limit` names it).
    """

    status: str
    score: Optional[int]
    moves: list[Move] = field(default_factory=list)
    states: int = 0
    limit: str = ""


def best_score(rules: Any, start: Any, max_states: int = 0,
               beat: Optional[int] = None, bound: Optional[CheckBound] = None) -> ScoreOutcome:
    """The best score of any line of play from start, by a search of the reference rules.

    The player may stop at any time, so every position reached counts (`rules.score(pos)`), and a
    won position ends play. A position is the pair (key, score): the score of any line on from it
    depends only on that pair (in Pyramid the score fixes the pass the pyramid was cleared in, all
    the key leaves out). A position whose `rules.score_bound` is no more than the best found (or
    the score to beat) is not searched on: no line through it scores more.

    beat: a score to beat (a claim being checked): the search stops at the first line scoring more.
    max_states: stop with "limit" past this many positions (0: no limit); bound: the limits of
    the search in full (its memory budget, its time), in place of max_states.
    """
    limits = bound or CheckBound(max_states)
    bound = rules.score_bound

    def state(pos: Any) -> tuple:
        return rules.key(pos), rules.score(pos)

    root = state(start)
    target = root[1] if beat is None else beat   # what a line must score more than
    best = root if beat is None else None
    if beat is not None and root[1] > beat:
        return ScoreOutcome("beaten", root[1], [], 1)
    parent: dict[tuple, Optional[tuple[tuple, int]]] = {root: None}

    def line(s: tuple) -> list[Move]:
        return _line_to(rules, start, parent, s)

    todo = [] if rules.won(start) or bound(start) <= target else [start]
    while todo:
        pos = todo.pop()
        here = state(pos)
        for i, m in enumerate(rules.moves(pos)):
            child = rules.apply(pos, m)
            s = state(child)
            if s in parent:
                continue
            parent[s] = (here, i)
            if s[1] > target:
                target, best = s[1], s
                if beat is not None:
                    return ScoreOutcome("beaten", target, line(s), len(parent))
            limit = limits.reached(len(parent))
            if limit:
                return ScoreOutcome("limit", None, [], len(parent), limit)
            # The bound of a position never changes and the target only grows, so a position cut
            # here would be cut again when another line reaches it.
            if not rules.won(child) and bound(child) > target:
                todo.append(child)
    if best is None:
        return ScoreOutcome("exhausted", None, [], len(parent))
    return ScoreOutcome("exhausted", best[1], line(best), len(parent))


def check_best_score(rules: Any, start: Any, claimed: int,
                     bound: CheckBound) -> Verification:
    """No line of play from start scores more than `claimed` (None when a limit of `bound` is
    reached first). The caller has checked that a line reaches it."""
    out = best_score(rules, start, beat=claimed, bound=bound)
    if out.status == "beaten":
        line = " ".join(str(m) for m in out.moves) or "(no move)"
        raise VerificationError(
            f"{claimed} is not the best score: a line scores more ({out.score}): {line}")
    if out.status == "exhausted":
        return Verification(True, f"{claimed} is the best score: a search of "
                                  f"{counted(out.states, 'position')} found no line scoring more")
    return Verification(None, f"not checked: the search for a better score reached {out.limit} "
                              f"after {counted(out.states, 'position')}")


def score_state(rules: Any, pos: Any) -> tuple:
    """A position of a score certificate: its key and its score, in one flat tuple."""
    key = rules.key(pos)
    return (*key, rules.score(pos)) if isinstance(key, tuple) else (key, rules.score(pos))


def check_score_certificate(rules: Any, start: Any, claimed: int, cert: Any) -> Verification:
    """No line of play from start scores more than `claimed`, by a certificate: the positions
    (score_state) such a line could pass through. Every position reachable from start, not going
    on from a won one or one whose `rules.score_bound` is no more than the claim, must be in it,
    and none may score more. Linear in the certificate's size; cert as certificate_keys reads it.
    The caller has checked that a line reaches the claim."""
    keys = certificate_keys(cert)
    root = score_state(rules, start)
    if root not in keys:
        raise VerificationError("the certificate does not contain the start position")
    seen = {root}
    todo = [start]
    while todo:
        pos = todo.pop()
        score = rules.score(pos)
        if score > claimed:
            raise VerificationError(f"{claimed} is not the best score: the certificate holds a "
                                    f"position scoring {score}")
        if rules.won(pos) or rules.score_bound(pos) <= claimed:
            continue
        for m in rules.moves(pos):
            child = rules.apply(pos, m)
            s = score_state(rules, child)
            if s not in keys:
                raise VerificationError(f"the move {m} leads out of the certificate")
            if s not in seen:
                seen.add(s)
                todo.append(child)
    return Verification(True, f"{claimed} is the best score: the certificate is closed, "
                              f"{counted(len(seen), 'position')}, none scoring more")
