"""Checks of the exhaustive proof, the one proof kind every game has (docs/proofs.md).

A game's own proof kinds (forced lines, structural facts) are checked by its Game plug-in; see
Game.check_proof.
"""

from __future__ import annotations

from typing import Any, Optional

from .errors import VerificationError
from .result import BlockProof, Verification
from .rules.base import Rules
from .search import reference_search


def check_exhaustive(rules: Rules, start: Any, proof: BlockProof,
                     max_states: Optional[int]) -> Verification:
    """With a certificate: it must be closed and hold no won position. Without: a re-search by the
    reference rules must find no win (None when it reaches max_states first)."""
    if proof.certificate is not None:
        return check_certificate(rules, start, proof.certificate)
    out = reference_search(rules, start, int(max_states or 0))
    if out.status == "won":
        line = " ".join(str(m) for m in out.moves)
        raise VerificationError(f"the deal can be won: {line}")
    if out.status == "exhausted":
        return Verification(True, f"a re-search explored {out.states} positions, none won")
    return Verification(None, f"not checked: the re-search reached {max_states} states")


def check_certificate(rules: Rules, start: Any, cert: frozenset) -> Verification:
    """Every position reachable from the start stays inside the certificate and none is won."""
    if rules.key(start) not in cert:
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
            if k not in cert:
                raise VerificationError(f"the move {m} leads out of the certificate")
            if k not in seen:
                seen.add(k)
                todo.append(child)
    return Verification(True, f"the certificate is closed: {len(seen)} positions, none won")
