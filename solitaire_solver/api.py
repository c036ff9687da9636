"""solve() and verify(): the library's two verbs."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable, Optional, Union

from .backend import core_module
from .contract import Limits
from .deal import Deal
from .errors import MoveError, SolitaireError, VerificationError
from .games import Game, get_game
from .games.base import CoreAnswer
from .moves import Move, parse_moves
from .result import BlockProof, Result, Status, Verification
from .search import reference_search

DEFAULT_MEMORY_MB = 256


#: The largest limits the core takes (a C long long of states, a size_t of bytes, kept well
#: below 2**64): larger ones mean "no limit" in practice and are clamped, not overflowed.
_MAX_STATES = (1 << 63) - 1
_MAX_MEMORY_BYTES = 1 << 60


def _number(name: str, raw: Any, kind: type) -> Any:
    if isinstance(raw, bool):
        raise SolitaireError(f"{name} must be a number, not {raw!r}")
    try:
        return kind(raw)
    except (TypeError, ValueError, OverflowError):
        raise SolitaireError(f"{name} must be a number, not {raw!r}") from None


def _mib(nbytes: int) -> str:
    """A memory budget in MiB as a person would write it: 0.5, 256, 12,288."""
    v = nbytes / 2**20
    return f"{v:,.0f}" if v >= 100 else f"{v:.3g}"


def _limits(max_states: Optional[int], max_seconds: Optional[float], memory_mb: float) -> Limits:
    if max_states is None and max_seconds is None and memory_mb == DEFAULT_MEMORY_MB:
        return _DEFAULT_LIMITS
    if max_states is not None and (isinstance(max_states, bool)
                                   or _number("max_states", max_states, int) < 1):
        raise SolitaireError(f"max_states must be a positive integer, not {max_states!r}")
    if max_seconds is not None and not _number("max_seconds", max_seconds, float) > 0:
        raise SolitaireError(f"max_seconds must be positive, not {max_seconds!r}")
    if not _number("memory_mb", memory_mb, float) > 0:
        raise SolitaireError(f"memory_mb must be positive, not {memory_mb!r}")
    memory_bytes = float(memory_mb) * (1 << 20)
    return Limits(
        max_states=min(int(max_states or 0), _MAX_STATES),
        max_seconds=float(max_seconds or 0.0),
        memory_bytes=_MAX_MEMORY_BYTES if memory_bytes >= _MAX_MEMORY_BYTES
        else int(memory_bytes),
    )


_DEFAULT_LIMITS = Limits(0, 0.0, DEFAULT_MEMORY_MB << 20)


def _resolve(game: Union[str, Game], variant: dict) -> tuple[Game, dict]:
    """The game and its full variant. Plain calls (a name, no options) are cached: surveys and
    apps make millions of them."""
    if not variant and isinstance(game, str):
        g, var = _resolve_plain(game)
        return g, dict(var)
    return _resolve_uncached(game, variant)


@lru_cache(maxsize=256)
def _resolve_plain(game: str) -> tuple[Game, dict]:
    return _resolve_uncached(game, {})


def _resolve_uncached(game: Union[str, Game], variant: dict) -> tuple[Game, dict]:
    g, fixed = get_game(game)
    for name, value in fixed.items():
        if name in variant and g.variant(**{name: variant[name]})[name] != value:
            raise SolitaireError(f"preset {game!r} fixes {name}={value}")
    return g, g.variant(**{**variant, **fixed})


def solve(
    game: Union[str, Game],
    deal: Any,
    *,
    objective: str = "decide",
    max_states: Optional[int] = None,
    max_seconds: Optional[float] = None,
    memory_mb: float = DEFAULT_MEMORY_MB,
    certificate: bool = False,
    check: bool = False,
    after: Union[Iterable[Union[str, Move]], str, None] = None,
    **variant: Any,
) -> Result:
    """Decide a deal: a winning line (WON), a proof of a block (BLOCKED), or UNKNOWN when a limit
    you set was reached first.

    deal: a Deal, the pack-order text, a list of cards, or (for games that have one) a layout text.
    after: the moves played so far (Moves or their text): decide the position they reach; the
    answer's moves continue from there (MoveError, naming the move's number, for an illegal one).
    max_states, max_seconds: search limits; memory_mb: the transposition table's budget.
    certificate: attach the explored positions to an exhaustive proof, for verify() to check.
    check: replay the answer under the reference rules before returning it (VerificationError if
    it does not check, which would be a bug).
    variant: the game's options, e.g. passes=1, goal="pyramid".
    """
    g, var = _resolve(game, variant)
    if objective not in g.objectives:
        raise SolitaireError(
            f"{g.name} has no objective {objective!r} (objectives: {', '.join(g.objectives)})"
        )
    limits = _limits(max_states, max_seconds, memory_mb)
    d = g.read_deal(deal, var)
    prefix = tuple(parse_moves(after)) if after is not None else ()
    result = _solve(g, d, var, objective, limits, certificate, prefix)
    if check:
        verdict = verify(g, d, result, **var)
        if not verdict.ok:
            raise VerificationError(f"the solver's answer does not check: {verdict.reason}")
    return result


def _solve(g: Game, d: Deal, var: dict, objective: str, limits: Limits,
           certificate: bool, after: tuple[Move, ...] = ()) -> Result:
    name = g.name
    start = replay(g.rules(var), d, after) if after else None
    # A score objective answers with a best line even when the deal cannot be won. A deal that
    # no line wins from its start is lost from every position it reaches, so a structural
    # proof of the deal holds mid-game too.
    proof = g.structural_proof(d, var) if objective != "score" else None
    if proof is not None:
        return Result(name, Status.BLOCKED, proof=proof, stats={"states": 0}, variant=var,
                      objective=objective, after=after)
    core = core_module(g.core) if g.core else None
    if core is not None:
        ans = g.core_solve(core, d, var, objective, limits, certificate, start)
        ans.stats["backend"] = "core"
    else:
        ans = reference_answer(g, d, var, objective, limits, certificate, start)
    if ans.status == "won":
        return Result(name, Status.WON, moves=tuple(ans.moves), stats=ans.stats, variant=var,
                      objective=objective, score=ans.score, after=after)
    if ans.status == "exhausted":
        return Result(name, Status.BLOCKED, proof=g.block_proof(d, var, ans), stats=ans.stats,
                      variant=var, objective=objective, score=ans.score, after=after)
    reason = {
        "limit-states": f"the state limit ({limits.max_states}) was reached",
        "limit-time": f"the time limit ({limits.max_seconds} s) was reached",
        "limit-memory": f"the memory budget ({_mib(limits.memory_bytes)} MiB) was reached",
    }[ans.status]
    return Result(name, Status.UNKNOWN, stats=ans.stats, variant=var, objective=objective,
                  reason=reason, after=after)


def replay(rules: Any, d: Deal, moves: Iterable[Move]) -> Any:
    """The position the moves reach from the deal's start under the reference rules; MoveError
    naming the first illegal move by its number (1-based) and why."""
    pos = rules.start(d)
    for i, m in enumerate(moves, start=1):
        if rules.won(pos):
            raise MoveError(f"move {i} ({m}): the deal is already won")
        if m not in rules.moves(pos):
            raise MoveError(f"move {i} ({m}): {rules.why_illegal(pos, m)}")
        pos = rules.apply(pos, m)
    return pos


def reference_answer(g: Game, d: Deal, var: dict, objective: str, limits: Limits,
                     certificate: bool, start: Any = None) -> CoreAnswer:
    """The pure-Python answer: the reference search over the reference rules."""
    if objective != "decide":
        raise SolitaireError(f"the pure-Python fallback has no objective {objective!r}")
    rules = g.rules(var)
    out = reference_search(rules, rules.start(d) if start is None else start, limits.max_states,
                           limits.max_seconds, keep_explored=certificate)
    stats = {"states": out.states, "seconds": out.seconds, "backend": "reference"}
    cert = frozenset(out.explored) if out.explored is not None else None
    return CoreAnswer(out.status, out.moves, stats, cert, start=start)


def verify(
    game: Union[str, Game],
    deal: Any,
    answer: Union[Result, BlockProof, Iterable[Union[str, Move]], str],
    *,
    max_states: Optional[int] = None,
    **variant: Any,
) -> Verification:
    """Check an answer with the reference rules alone.

    answer: a Result, a BlockProof, or a list of moves (text or Move) that should win.
    A winning line must be legal move by move and end in a won position; a proof must check as
    its kind says (docs/proofs.md). max_states bounds the re-search that an exhaustive proof
    without a certificate needs.
    """
    if isinstance(answer, Result) and not variant and isinstance(answer.variant, dict):
        variant = dict(answer.variant)  # check a Result under the rules it was found under
    g, var = _resolve(game, variant)
    d = g.read_deal(deal, var)
    if max_states is not None:
        max_states = _limits(max_states, None, DEFAULT_MEMORY_MB).max_states
    try:
        if isinstance(answer, Result):
            if answer.game != g.name:
                raise VerificationError(f"the result is for {answer.game}, not {g.name}")
            if answer.variant != var:
                raise VerificationError(
                    f"the result was found under {answer.variant}, not under {var}"
                )
            if answer.status is Status.WON:
                return _check_line(g, d, var, _moves_of(answer.moves), answer)
            if answer.status is Status.BLOCKED:
                if not isinstance(answer.proof, BlockProof):
                    raise VerificationError("a BLOCKED result carries no proof")
                return g.check_proof(d, var, answer.proof, max_states)
            if answer.status is not Status.UNKNOWN:
                raise VerificationError(f"the result has no status ({answer.status!r})")
            return Verification(True, "an UNKNOWN result claims nothing")
        if isinstance(answer, BlockProof):
            return g.check_proof(d, var, answer, max_states)
        return _check_line(g, d, var, parse_moves(answer), None)
    except VerificationError as e:
        return Verification(False, str(e))
    except (TypeError, AttributeError, IndexError, KeyError, ValueError) as e:
        if isinstance(e, SolitaireError):
            raise
        # A forged or hand-made answer of the wrong shape (a proof whose details are not what
        # its kind says, a certificate that is not a set of keys, a Move of no card): it does
        # not check.
        return Verification(False, f"the answer is malformed ({type(e).__name__}: {e})")


def _moves_of(moves: Any) -> list[Move]:
    """The moves of a Result or proof: Move objects (VerificationError for anything else)."""
    try:
        out = list(moves)
    except TypeError:
        raise VerificationError(f"the moves are not a list of moves ({moves!r})") from None
    for i, m in enumerate(out, start=1):
        if not isinstance(m, Move):
            raise VerificationError(f"move {i} is not a Move ({m!r})")
    return out


def _check_line(g: Game, d: Deal, var: dict, moves: list[Move],
                claim: Optional[Result]) -> Verification:
    rules = g.rules(var)
    pos = rules.start(d)
    for i, m in enumerate(moves, start=1):
        if rules.won(pos):
            raise VerificationError(f"move {i} ({m}) comes after the deal is already won")
        if m not in rules.moves(pos):
            raise VerificationError(f"move {i} ({m}): {rules.why_illegal(pos, m)}")
        pos = rules.apply(pos, m)
    # A line claimed for its score need not win: it must be legal and reach the score, which
    # only a game with a score objective can claim (and then the claim must name the score).
    score_claim = (claim is not None and claim.objective == "score"
                   and "score" in g.objectives and claim.score is not None)
    if not rules.won(pos) and not score_claim:
        left = rules.cards_left(pos)
        raise VerificationError(
            f"the {len(moves)} moves are legal but do not win: {left} cards are left"
        )
    if claim is not None and claim.score is not None:
        actual = g.score(d, var, moves)
        if actual != claim.score:
            raise VerificationError(f"the line scores {actual}, not the claimed {claim.score}")
    return Verification(True, f"the {len(moves)} moves are legal and win")
