"""Checks done by the reference rules alone: the exhaustive proof, the one proof kind every game has
(docs/proofs.md), and the best score of a game with a score (the reference best-score search).

A game's own proof kinds (forced lines, structural facts) are checked by its Game plug-in; see
Game.check_proof.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any, Optional

from .contract import Limits
from .errors import VerificationError
from .moves import Move
from .result import BlockProof, Verification
from .rules.base import Rules
from .search import reference_search


def check_exhaustive(rules: Rules, start: Any, proof: BlockProof,
                     max_states: Optional[int], max_seconds: Optional[float] = None,
                     memory_bytes: int = Limits().memory_bytes) -> Verification:
    """With a certificate: it must be closed and hold no won position. Without: a re-search by the
    reference rules must find no win (None when it reaches max_states, max_seconds or its memory
    budget first)."""
    if proof.certificate is not None:
        return check_certificate(rules, start, proof.certificate)
    out = reference_search(rules, start, int(max_states or 0), float(max_seconds or 0.0),
                           memory_bytes=memory_bytes)
    if out.status == "won":
        line = " ".join(str(m) for m in out.moves)
        raise VerificationError(f"the deal can be won: {line}")
    if out.status == "exhausted":
        return Verification(True, f"a re-search explored {out.states} positions, none won")
    if out.status == "limit-memory":
        return Verification(None, f"not checked: the re-search reached its memory budget "
                            f"({memory_bytes / 2**20:g} MiB) after {out.states} positions")
    if out.status == "limit-time":
        return Verification(None, f"not checked: the re-search reached the time limit "
                            f"({max_seconds} s) after {out.states} positions")
    return Verification(None, f"not checked: the re-search reached {max_states} states")


def certificate_keys(cert: Any) -> frozenset:
    """The certificate as a set of position keys, read once so that every look-up is O(1).

    A set as solve() gives it is taken as it is; a list as BlockProof.to_dict() writes it (each item
    an int, or a list of ints for a key that is a tuple) becomes the set of those keys.
    VerificationError names the first item that is not a key.
    """
    if isinstance(cert, (set, frozenset)):
        return frozenset(cert)
    if isinstance(cert, (str, bytes, bytearray, dict)) or not isinstance(cert, Iterable):
        raise VerificationError(
            f"the certificate is not a set or list of position keys (a {type(cert).__name__})")
    keys = set()
    for i, item in enumerate(cert):
        keys.add(_certificate_key(item, i))
    return frozenset(keys)


def _certificate_key(item: Any, i: int) -> Hashable:
    if isinstance(item, int) and not isinstance(item, bool):
        return item
    if isinstance(item, (list, tuple)) and all(
            isinstance(x, int) and not isinstance(x, bool) for x in item):
        return tuple(item)
    raise VerificationError(f"item {i} of the certificate is not a position key ({item!r:.60})")


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
    return Verification(True, f"the certificate is closed: {len(seen)} positions, none won")


# -- the best score ---------------------------------------------------------------------------------

@dataclass
class ScoreOutcome:
    """What best_score() found.

    status: "exhausted" when every line was searched: `score` is the best score and `moves` a line
    reaching it, or, when a score to beat was given, no line beats it (`score` None); "beaten" when
    `moves` is a line scoring `score`, more than the score to beat; "limit-states" when the bound
    was reached first.
    """

    status: str
    score: Optional[int]
    moves: list[Move] = field(default_factory=list)
    states: int = 0


def best_score(rules: Any, start: Any, max_states: int = 0,
               beat: Optional[int] = None) -> ScoreOutcome:
    """The best score of any line of play from start, by a search of the reference rules.

    The player may stop at any time, so every position reached counts (`rules.score(pos)`), and a
    won position ends play. A position is the pair (key, score): the score of any line on from it
    depends only on that pair (in Pyramid the score fixes the pass the pyramid was cleared in, all
    the key leaves out). A position whose `rules.score_bound` is no more than the best found (or
    the score to beat) is not searched on: no line through it scores more.

    beat: a score to beat (a claim being checked): the search stops at the first line scoring more.
    max_states: stop with "limit-states" after this many positions (0: no limit).
    """
    bound = rules.score_bound

    def state(pos: Any) -> tuple:
        return rules.key(pos), rules.score(pos)

    root = state(start)
    target = root[1] if beat is None else beat   # what a line must score more than
    best = root if beat is None else None
    if beat is not None and root[1] > beat:
        return ScoreOutcome("beaten", root[1], [], 1)
    parent: dict[tuple, Optional[tuple[tuple, Move]]] = {root: None}

    def line(s: tuple) -> list[Move]:
        out = []
        while parent[s] is not None:
            s, m = parent[s]  # type: ignore[misc]
            out.append(m)
        return out[::-1]

    todo = [] if rules.won(start) or bound(start) <= target else [start]
    while todo:
        pos = todo.pop()
        here = state(pos)
        for m in rules.moves(pos):
            child = rules.apply(pos, m)
            s = state(child)
            if s in parent:
                continue
            parent[s] = (here, m)
            if s[1] > target:
                target, best = s[1], s
                if beat is not None:
                    return ScoreOutcome("beaten", target, line(s), len(parent))
            if max_states and len(parent) >= max_states:
                return ScoreOutcome("limit-states", None, [], len(parent))
            # The bound of a position never changes and the target only grows, so a position cut
            # here would be cut again when another line reaches it.
            if not rules.won(child) and bound(child) > target:
                todo.append(child)
    if best is None:
        return ScoreOutcome("exhausted", None, [], len(parent))
    return ScoreOutcome("exhausted", best[1], line(best), len(parent))


def check_best_score(rules: Any, start: Any, claimed: int,
                     max_states: Optional[int]) -> Verification:
    """No line of play from start scores more than `claimed` (None when max_states is reached
    first). The caller has checked that a line reaches it."""
    out = best_score(rules, start, int(max_states or 0), beat=claimed)
    if out.status == "beaten":
        line = " ".join(str(m) for m in out.moves) or "(no move)"
        raise VerificationError(
            f"{claimed} is not the best score: a line scores more ({out.score}): {line}")
    if out.status == "exhausted":
        return Verification(True, f"{claimed} is the best score: a search of {out.states} "
                                  "positions found no line scoring more")
    return Verification(None, f"not checked: the search for a better score reached "
                              f"{max_states} states")
