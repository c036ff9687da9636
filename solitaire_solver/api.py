"""verify(): an answer checked with the reference rules alone."""

from __future__ import annotations

from typing import Any, Iterable, Optional, Union

from .deal import Deal
from .engine.contract import DEFAULT_MEMORY_MB, Limits
from .errors import SolitaireError, VariantError, VerificationError, quoted
from .games import Game, resolve
from .games.rules import replay
from .moves import Move, parse_moves
from .proofs import CheckBound, check_best_score, check_score_certificate, check_shortest
from .result import BlockProof, Result, Status, Verification, counted


def verify(
    game: Union[str, Game],
    deal: Any,
    answer: Union[Result, BlockProof, Iterable[Union[str, Move]], str],
    *,
    max_states: Optional[int] = None,
    max_seconds: Optional[float] = None,
    memory_mb: float = DEFAULT_MEMORY_MB,
    after: Union[Iterable[Union[str, Move]], str, None] = None,
    **variant: Any,
) -> Verification:
    """Check an answer with the reference rules alone, under the game and variant named here (the
    defaults when none is given): a Result found under another game or variant does not check.
    after: the moves played before the position the answer is for; the reason then begins
    "after N moves (...): ". A Result records its own `after`, which is not trusted: one found
    after other moves than those named here (none: the deal's start) does not check.

    answer: a Result, a BlockProof, or a list of moves (text or Move) that should win.
    A winning line must be legal move by move and end in a won position; a proof must check as
    its kind says (docs/proofs.md); a best score (objective "score") must be reached by its line
    and beaten by none; a line of the fewest moves (objective "shortest") must win and no
    shorter line may. max_states, max_seconds and memory_mb bound the searches that an
    exhaustive proof without a certificate, a best score and the fewest moves need (a position
    kept counted as proofs.SEEN_BYTES in the first, POSITION_BYTES in the others): when one is
    reached the claim is not checked (ok None), as for an UNKNOWN result, which claims nothing.
    """
    g, var = resolve(game, variant)
    d = g.read(deal, var)
    limits = Limits.of(max_states, max_seconds, memory_mb)
    named = after is not None
    prefix = tuple(parse_moves(after)) if named else ()
    start = replay(g.rules(var), d, prefix) if prefix else None
    verdict = _verify(g, d, var, answer, prefix, named, start, limits)
    if prefix:
        # The reason names the position it holds for, as the caller named it.
        return Verification(verdict.ok, f"after {_line(prefix)}: {verdict.reason}")
    return verdict


def _verify(g: Game, d: Deal, var: dict, answer: Any, prefix: tuple[Move, ...], named: bool,
            start: Any, limits: Limits) -> Verification:
    """verify() from the position after `prefix` (`start`; named: the caller gave after=)."""
    max_states, max_seconds = limits.max_states or None, limits.max_seconds or None
    try:
        if isinstance(answer, Result):
            # A Result's own `after` is a claim, as its variant is, and neither is adopted:
            # checked from the position it names, without the caller naming it, a block found
            # after losing moves would pass for a block of the deal.
            claimed = tuple(_moves_of(answer.after))
            if claimed != prefix:
                raise VerificationError(
                    f"the result is for the position after {_line(claimed)}, not this one"
                    if named else
                    f"the result is for the position after {_line(claimed)}, not the deal's "
                    "start: name those moves with after= to check it")
            return _check_result(g, d, var, answer, limits, start)
        if isinstance(answer, BlockProof):
            return g.check_proof(d, var, answer, max_states, start, max_seconds,
                                 limits.memory_bytes)
        return _check_line(g, d, var, parse_moves(answer), start)
    except VerificationError as e:
        return Verification(False, str(e))
    except (TypeError, AttributeError, IndexError, KeyError, ValueError) as e:
        if isinstance(e, SolitaireError):
            raise
        # A forged or hand-made answer of the wrong shape (a proof whose details are not what
        # its kind says, a certificate that is not a set of keys, a Move of no card): it does
        # not check.
        return Verification(False, f"the answer is malformed ({type(e).__name__}: {e})")


def _count(moves: list) -> str:
    """The subject of a line's verdict: "line of 2 moves is", "line of 1 move is"."""
    return f"line of {counted(len(moves), 'move')} is"


def _line(moves: Any) -> str:
    moves = list(moves)
    return f"{counted(len(moves), 'move')} ({' '.join(map(str, moves))})" if moves else "no moves"


def _check_result(g: Game, d: Deal, var: dict, r: Result, limits: Limits,
                  start: Any = None) -> Verification:
    """A Result's claim, as what solve() answers for its objective says it (docs/proofs.md)."""
    max_states, max_seconds = limits.max_states or None, limits.max_seconds or None
    if r.game != g.name:
        raise VerificationError(f"the result is for {r.game}, not {g.name}")
    if _variant_of(g, r.variant) != var:
        raise VerificationError(
            f"the result was found under another variant of {g.name} ({r.variant}), not the one "
            f"checked ({var}); name its variant to check it"
        )
    if r.status is Status.UNKNOWN:
        return Verification(None, "not checked: an UNKNOWN result claims nothing")
    if r.status not in (Status.WON, Status.BLOCKED):
        raise VerificationError(f"the result has no status ({quoted(r.status)})")
    if r.objective not in g.objectives:
        raise VerificationError(f"{g.name} has no objective {quoted(r.objective)}")
    if r.objective == "score":
        # Every deal has a best score, so a score answer is WON with the line that reaches it,
        # whether or not that line clears the deal (docs/pyramid.md).
        if r.status is not Status.WON:
            raise VerificationError("a score result is WON with its best line, never "
                                    f"{r.status.name}: every deal has a best score")
        if r.score is None:
            raise VerificationError("the score result claims no score")
        if r.proof is not None and (not isinstance(r.proof, BlockProof)
                                    or r.proof.kind != "best-score"):
            raise VerificationError(f"a score result's proof is of kind best-score, not "
                                    f"{quoted(getattr(r.proof, 'kind', r.proof))}")
        return _check_score(g, d, var, _moves_of(r.moves), r.score, limits, start, r.proof)
    if r.status is Status.BLOCKED:
        if not isinstance(r.proof, BlockProof):
            raise VerificationError("a BLOCKED result carries no proof")
        return g.check_proof(d, var, r.proof, max_states, start, max_seconds,
                             limits.memory_bytes)
    moves = _moves_of(r.moves)
    verdict = _check_line(g, d, var, moves, start)
    if r.score is not None:
        actual = g.score(d, var, list(r.after) + list(r.moves))
        if actual != r.score:
            raise VerificationError(f"the line scores {actual}, not the claimed {r.score}")
    if r.objective == "shortest":
        rules = g.rules(var)
        fewest = check_shortest(rules, rules.start(d) if start is None else start, len(moves),
                                _bound(limits))
        if fewest.ok is None:
            return Verification(None, f"not checked: the {_count(moves)} legal and wins, but "
                                      f"{fewest.reason}")
        return Verification(True, f"{verdict.reason}; {fewest.reason}")
    return verdict


def _bound(limits: Limits) -> CheckBound:
    """The limits of a check's search, its clock started now."""
    return CheckBound(limits.max_states, limits.max_seconds, limits.memory_bytes)


def _variant_of(g: Game, given: Any) -> Optional[dict]:
    """A Result's variant with the defaults filled in (a hand-made Result may name only some
    options, or none), or None when it is not a variant of g."""
    if not isinstance(given, dict):
        return None
    try:
        return g.variant(**given)
    except (VariantError, TypeError):
        return None


def _moves_of(moves: Any) -> list[Move]:
    """The moves of a Result or proof: Move objects (VerificationError for anything else)."""
    try:
        out = list(moves)
    except TypeError:
        raise VerificationError(f"the moves are not a list of moves ({quoted(moves)})") from None
    for i, m in enumerate(out, start=1):
        if not isinstance(m, Move):
            raise VerificationError(f"move {i} is not a Move ({quoted(m)})")
    return out


def _check_line(g: Game, d: Deal, var: dict, moves: list[Move],
                start: Any = None) -> Verification:
    rules = g.rules(var)
    pos = replay(rules, d, moves, VerificationError, start)
    if not rules.won(pos):
        raise VerificationError(
            f"the {_count(moves)} legal but does not win: "
            f"{counted(rules.cards_left(pos), 'card')} left"
        )
    return Verification(True, f"the {_count(moves)} legal and wins")


def _check_score(g: Game, d: Deal, var: dict, moves: list[Move], claimed: Any,
                 limits: Limits, start: Any = None,
                 proof: Optional[BlockProof] = None) -> Verification:
    """The line is legal and reaches the claimed score, and no line scores more: by the proof's
    certificate when it has one (in time linear in its size, no limit needed), else by a
    bounded search."""
    rules = g.rules(var)
    pos = replay(rules, d, moves, VerificationError, start)
    actual = rules.score(pos)
    if actual != claimed:
        raise VerificationError(f"the line scores {actual}, not the claimed {claimed}")
    origin = rules.start(d) if start is None else start
    if proof is not None and proof.certificate is not None:
        best = check_score_certificate(rules, origin, actual, proof.certificate)
    else:
        best = check_best_score(rules, origin, actual, _bound(limits))
    if best.ok is None:
        return best
    return Verification(True, f"the {_count(moves)} legal and scores {actual}; {best.reason}")
