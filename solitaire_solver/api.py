"""solve() and verify(): the library's two verbs."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable, Optional, Union

from .backend import core_module
from .contract import Limits
from .deal import Deal
from .errors import MoveError, SolitaireError, VariantError, VerificationError
from .games import Game, get_game
from .games.base import CoreAnswer
from .moves import Move, parse_moves
from .proofs import check_best_score
from .result import BlockProof, Result, Status, Verification, make_result
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
                                   or _number("max_states", max_states, int) < 1
                                   or (isinstance(max_states, float)
                                       and not max_states.is_integer())):
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
    you set was reached first. (With the compiled core, solitaire_solver.solve is _quick.solve,
    which answers a plain call itself and passes every other call to this function.)

    deal: a Deal, the pack-order text, a list of cards, or (for games that have one) a layout text.
    after: the moves played so far (Moves or their text): decide the position they reach; the
    answer's moves continue from there (MoveError, naming the move's number, for an illegal one).
    max_states, max_seconds: search limits; memory_mb: the transposition table's budget.
    certificate: attach the explored positions to an exhaustive proof, for verify() to check.
    check: replay the answer under the reference rules before returning it (VerificationError if
    it does not check, which would be a bug). A re-search the check needs keeps to max_states and
    max_seconds; stats["check"] tells what was checked, or why not (an UNKNOWN claims nothing).
    variant: the game's options, e.g. passes=1, goal="pyramid".
    """
    g, var = _resolve(game, variant)
    if not isinstance(certificate, bool) or not isinstance(check, bool):
        raise SolitaireError(f"certificate and check are True or False, not {certificate!r}, "
                             f"{check!r}")
    if objective not in g.objectives:
        raise SolitaireError(
            f"{g.name} has no objective {objective!r} (objectives: {', '.join(g.objectives)})"
        )
    limits = _limits(max_states, max_seconds, memory_mb)
    d = g.read(deal, var)
    prefix = tuple(parse_moves(after)) if after is not None else ()
    result = _solve(g, d, var, objective, limits, certificate, prefix)
    if check:
        # The check's re-search (an exhaustive proof without a certificate) keeps to the limits
        # given for the solve; an answer it could not check in them (or an UNKNOWN, which claims
        # nothing) comes back unchecked, and stats["check"] says so.
        verdict = verify(g, d, result, max_states=limits.max_states or None,
                         max_seconds=limits.max_seconds or None, memory_mb=memory_mb, **var)
        if verdict.ok is False:
            raise VerificationError(f"the solver's answer does not check: {verdict.reason}")
        result.stats["check"] = verdict.reason
    return result


def _solve(g: Game, d: Deal, var: dict, objective: str, limits: Limits,
           certificate: bool, after: tuple[Move, ...] = ()) -> Result:
    name = g.name
    start = replay(g.rules(var), d, after) if after else None
    core = core_module(g.core) if g.core else None
    # A score objective answers with a best line even when the deal cannot be won. A deal that
    # no line wins from its start is lost from every position it reaches, so a structural
    # proof of the deal holds mid-game too. A game whose core stops at once where that proof
    # applies looks for it only after a search that did not win (Game.structural_after_search).
    late = (g.structural_after_search and objective == "decide" and not certificate
            and core is not None and not after)
    proof = g.structural_proof(d, var) if objective != "score" and not late else None
    if proof is not None:
        return _structural(name, proof, var, objective, after)
    first = g.first_try(d, var, objective, limits, certificate) if start is None else None
    if first is not None and first.status == "won":
        ans = first
    elif first is not None and (spent := limits.used_up(first.stats) or (
            first.status if first.status in ("limit-states", "limit-time") else None)):
        # A first try runs under the call's own limits: one it used up leaves nothing for the
        # game's search (which, given the least it can run under, went past them).
        ans = CoreAnswer(spent, [], first.stats)
    else:
        left = limits if first is None else limits.less(first.stats)
        if core is not None:
            ans = g.core_solve(core, d, var, objective, left, certificate, start)
            ans.stats["backend"] = "core"
        else:
            ans = reference_answer(g, d, var, objective, left, certificate, start)
        if first is not None:
            ans.stats["states"] = ans.stats.get("states", 0) + first.stats.get("states", 0)
            ans.stats["first_try"] = first.stats["first_try"]
    return _answer(g, d, var, objective, limits, ans, late, after)


def _answer(g: Game, d: Deal, var: dict, objective: str, limits: Limits, ans: CoreAnswer,
            late: bool, after: tuple[Move, ...]) -> Result:
    """The Result of a search's answer; late: look for a structural proof when it did not win
    (Game.structural_after_search)."""
    name = g.name
    if late and ans.status != "won":
        proof = g.structural_after(d, var, ans)
        if proof is not None:
            return _structural(name, proof, var, objective, after)
    if ans.status == "won":
        return make_result(name, Status.WON, moves=tuple(ans.moves), stats=ans.stats,
                           variant=var, objective=objective, score=ans.score, after=after)
    if ans.status == "exhausted":
        return make_result(name, Status.BLOCKED, proof=g.block_proof(d, var, ans),
                           stats=ans.stats, variant=var, objective=objective, score=ans.score,
                           after=after)
    reason = {
        "limit-states": f"the state limit ({limits.max_states}) was reached",
        "limit-time": f"the time limit ({limits.max_seconds} s) was reached",
        "limit-memory": f"the memory budget ({_mib(limits.memory_bytes)} MiB) was reached",
    }[ans.status]
    return make_result(name, Status.UNKNOWN, stats=ans.stats, variant=var,
                       objective=objective, reason=reason, after=after)


def _quick_plan(game: str) -> Optional[tuple]:
    """What the quick path (_quick.pyx) needs of a game, found at its first plain call (the
    core's spec is made once: the flag Game.quick_decide says that it depends on the deal only
    through its cards)."""
    try:
        g, var = _resolve_plain(game)
    except SolitaireError:
        return None  # the general path says what is wrong
    if not g.quick_decide:
        return None
    core, seeded = core_module(g.core), core_module("_seeded")
    if core is None or seeded is None:
        return None
    spec = g.core_spec(Deal(range(52)), var, "decide", False)
    return g, var, core, seeded.parse_plain, spec


def _structural(name: str, proof: BlockProof, var: dict, objective: str,
                after: tuple[Move, ...]) -> Result:
    """The answer of a structural proof: no search is needed for it (states 0)."""
    return make_result(name, Status.BLOCKED, proof=proof, stats={"states": 0}, variant=var,
                       objective=objective, after=after)


def replay(rules: Any, d: Deal, moves: Iterable[Move], error: type = MoveError,
           start: Any = None) -> Any:
    """The position the moves reach from the deal's start (or `start`) under the reference
    rules; `error` naming the first illegal move by its number (1-based) and why."""
    pos = rules.start(d) if start is None else start
    for i, m in enumerate(moves, start=1):
        if rules.won(pos):
            raise error(f"move {i} ({m}) comes after the deal is already won")
        if m not in rules.moves(pos):
            raise error(f"move {i} ({m}): {rules.unknown_kind(m) or rules.why_illegal(pos, m)}")
        pos = rules.apply(pos, m)
    return pos


def reference_answer(g: Game, d: Deal, var: dict, objective: str, limits: Limits,
                     certificate: bool, start: Any = None) -> CoreAnswer:
    """The pure-Python answer: the reference search over the reference rules."""
    if objective != "decide":
        raise SolitaireError(f"the pure-Python fallback has no objective {objective!r}")
    rules = g.rules(var)
    out = reference_search(rules, rules.start(d) if start is None else start, limits.max_states,
                           limits.max_seconds, keep_explored=certificate,
                           memory_bytes=limits.memory_bytes)
    stats = {"states": out.states, "seconds": out.seconds, "backend": "reference"}
    cert = frozenset(out.explored) if out.explored is not None else None
    return CoreAnswer(out.status, out.moves, stats, cert, start=start)


def verify(
    game: Union[str, Game],
    deal: Any,
    answer: Union[Result, BlockProof, Iterable[Union[str, Move]], str],
    *,
    max_states: Optional[int] = None,
    max_seconds: Optional[float] = None,
    after: Union[Iterable[Union[str, Move]], str, None] = None,
    memory_mb: float = DEFAULT_MEMORY_MB,
    **variant: Any,
) -> Verification:
    """Check an answer with the reference rules alone, under the game and variant named here (the
    defaults when none is given): a Result found under another game or variant does not check.
    after: the moves played before the position the answer is for (a Result records its own;
    one found after other moves does not check).

    answer: a Result, a BlockProof, or a list of moves (text or Move) that should win.
    A winning line must be legal move by move and end in a won position; a proof must check as
    its kind says (docs/proofs.md); a best score (objective "score") must be reached by its line
    and beaten by none. max_states bounds the searches that an exhaustive proof without a
    certificate and a best score need, max_seconds the first of those: when one is reached the
    answer is not checked (ok None), as it is for an UNKNOWN result, which claims nothing.
    memory_mb: the budget of that re-search's positions, as solve()'s (past it: ok None).
    """
    g, var = _resolve(game, variant)
    d = g.read(deal, var)
    checked = _limits(max_states, max_seconds, memory_mb)
    max_states, max_seconds = checked.max_states or None, checked.max_seconds or None
    memory = checked.memory_bytes
    prefix = tuple(parse_moves(after)) if after is not None else None
    start = replay(g.rules(var), d, prefix) if prefix else None
    try:
        if isinstance(answer, Result):
            if prefix is None:
                prefix = tuple(_moves_of(answer.after))
                start = replay(g.rules(var), d, prefix, VerificationError) if prefix else None
            elif tuple(answer.after) != prefix:
                raise VerificationError(
                    f"the result is for the position after {_line(answer.after)}, not the one "
                    f"checked (after {_line(prefix)})")
            return _check_result(g, d, var, answer, max_states, start, max_seconds, memory)
        if isinstance(answer, BlockProof):
            return g.check_proof(d, var, answer, max_states, start, max_seconds, memory)
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
    return f"line of {len(moves)} move{'' if len(moves) == 1 else 's'} is"


def _line(moves: Any) -> str:
    moves = list(moves)
    return f"{len(moves)} moves ({' '.join(map(str, moves))})" if moves else "no moves"


def _check_result(g: Game, d: Deal, var: dict, r: Result, max_states: Optional[int],
                  start: Any = None, max_seconds: Optional[float] = None,
                  memory_bytes: int = _DEFAULT_LIMITS.memory_bytes) -> Verification:
    """A Result's claim, as what solve() answers for its objective says it (docs/proofs.md)."""
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
        raise VerificationError(f"the result has no status ({r.status!r})")
    if r.objective not in g.objectives:
        raise VerificationError(f"{g.name} has no objective {r.objective!r}")
    if r.objective == "score":
        # Every deal has a best score, so a score answer is WON with the line that reaches it,
        # whether or not that line clears the deal (docs/pyramid.md).
        if r.status is not Status.WON:
            raise VerificationError("a score result is WON with its best line, never "
                                    f"{r.status.name}: every deal has a best score")
        if r.score is None:
            raise VerificationError("the score result claims no score")
        return _check_score(g, d, var, _moves_of(r.moves), r.score, max_states, start)
    if r.status is Status.BLOCKED:
        if not isinstance(r.proof, BlockProof):
            raise VerificationError("a BLOCKED result carries no proof")
        return g.check_proof(d, var, r.proof, max_states, start, max_seconds, memory_bytes)
    verdict = _check_line(g, d, var, _moves_of(r.moves), start)
    if r.score is not None:
        actual = g.score(d, var, list(r.after) + list(r.moves))
        if actual != r.score:
            raise VerificationError(f"the line scores {actual}, not the claimed {r.score}")
    return verdict


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
        raise VerificationError(f"the moves are not a list of moves ({moves!r})") from None
    for i, m in enumerate(out, start=1):
        if not isinstance(m, Move):
            raise VerificationError(f"move {i} is not a Move ({m!r})")
    return out


def _replay(g: Game, d: Deal, var: dict, moves: list[Move], start: Any = None) -> Any:
    """The position after the line from the start (or `start`), each move checked legal
    (VerificationError naming the first that is not); play ends once the deal is won."""
    return replay(g.rules(var), d, moves, VerificationError, start)


def _check_line(g: Game, d: Deal, var: dict, moves: list[Move],
                start: Any = None) -> Verification:
    rules = g.rules(var)
    pos = _replay(g, d, var, moves, start)
    if not rules.won(pos):
        raise VerificationError(
            f"the {_count(moves)} legal but does not win: {rules.cards_left(pos)} cards are "
            "left"
        )
    return Verification(True, f"the {_count(moves)} legal and wins")


def _check_score(g: Game, d: Deal, var: dict, moves: list[Move], claimed: Any,
                 max_states: Optional[int], start: Any = None) -> Verification:
    """The line is legal and reaches the claimed score, and no line scores more."""
    rules = g.rules(var)
    pos = _replay(g, d, var, moves, start)
    actual = rules.score(pos)
    if actual != claimed:
        raise VerificationError(f"the line scores {actual}, not the claimed {claimed}")
    best = check_best_score(rules, rules.start(d) if start is None else start, actual,
                            max_states)
    if best.ok is None:
        return best
    return Verification(True, f"the {_count(moves)} legal and scores {actual}; {best.reason}")
