# cython: annotation_typing=False
"""The prepared Solver and solve(): a game, its variant, an objective and limits resolved once,
then any number of deals solved, verified, hinted or analysed with them.

>>> import solitaire_solver as ss
>>> solver = ss.Solver("pyramid", passes=1)
>>> [solver.solve(ss.random_deal(seed)).status.value for seed in range(3)]
['won', 'blocked', 'blocked']
"""

from __future__ import annotations

from functools import partial
from typing import Any, Iterable, Optional, Union

from .api import verify
from .deal import Deal, checked_deal
from .engine.backend import core_module, fallback_runs
from .engine.contract import DEFAULT_MEMORY_MB, Limits
from .errors import SolitaireError, VerificationError, quoted
from .games import Game, resolve
from .games.base import CoreAnswer
from .games.rules import replay
from .moves import Move, from_codes, parse_moves
from .positions import Analysis, Hint
from .result import RESULT_FIELDS, Result, Status, Verification, counted

Moves = Union[Iterable[Union[str, Move]], str, None]
_WON, _BLOCKED = Status.WON, Status.BLOCKED


class Solver:
    """A game (name, alias, preset or Game), its variant, an objective and limits, prepared once:
    the game and its full variant resolved, the limits checked, the backend and the core's data
    found. Then `solve`, `verify`, `hint` and `analyze` take a deal each (a Deal, its pack-order
    text, a list of cards, or a game's layout text).

    objective: "decide" (the default), or another the game has ("shortest", "score").
    max_states, max_seconds: search limits (None: none); memory_mb: the search table's budget.
    variant: the game's options, e.g. passes=1, goal="pyramid".
    """

    def __init__(self, game: Union[str, Game], *, objective: str = "decide",
                 max_states: Optional[int] = None, max_seconds: Optional[float] = None,
                 memory_mb: float = DEFAULT_MEMORY_MB, **variant: Any):
        g, var = resolve(game, variant)
        if objective not in g.objectives:
            raise SolitaireError(
                f"{g.name} has no objective {quoted(objective)} (objectives: {', '.join(g.objectives)})"
            )
        self.game: Game = g
        self.variant: dict = var
        self.objective: str = objective
        self.limits: Limits = Limits.of(max_states, max_seconds, memory_mb)
        self._options = {"objective": objective, "max_states": max_states,
                         "max_seconds": max_seconds, "memory_mb": memory_mb}
        self._core = core_module(g.core) if g.core else None
        #: What a decide call given a pack-order text needs, where the core's cards entry
        #: answers it (_cards_entry), else None.
        self._text_entry = self._cards_entry()

    def __repr__(self) -> str:
        options = "".join(f", {k}={v!r}" for k, v in {**self._options, **self.variant}.items()
                          if v is not None)
        return f"Solver({self.game.name!r}{options})"

    def _cards_entry(self) -> Optional[tuple]:
        """The core's decide_text with what it takes (the spec without the cards, the limits)
        and what the answer needs, where a decide call given a pack-order text is one run of
        it (engine/contract.py): the game searches before it looks for a structural proof and
        has no first try, and its spec has only keys the entry reads. Else None: every call
        takes Game.answer."""
        g, core = self.game, self._core
        decider = getattr(core, "TextDecider", None)
        if (decider is None or self.objective != "decide" or not g.structural_after_search
                or type(g).first_try is not Game.first_try):
            return None
        spec = g.core_spec(Deal(range(52)), self.variant, "decide", False)
        spec.pop("cards", None)
        if not set(spec) <= core.DECIDE_KEYS:
            return None
        lim = self.limits
        return (decider(spec, lim.max_states, lim.max_seconds, lim.memory_bytes), g.name,
                self.variant, g, lim)

    def solve(self, deal: Any, *, after: Moves = None, certificate: bool = False,
              check: bool = False) -> Result:
        """Decide a deal: a winning line (WON), a proof of a block (BLOCKED), or UNKNOWN when a
        limit was reached first.

        after: the moves played so far (Moves or their text): decide the position they reach;
        the answer's moves continue from there (MoveError, naming the move's number, for an
        illegal one). certificate: attach the explored positions to an exhaustive proof, for
        verify() to check. check: replay the answer under the reference rules before returning
        it (VerificationError if it does not check, which would be a bug); stats["check"] tells
        what was checked, or why not (an UNKNOWN claims nothing).
        """
        if type(deal) is str and after is None and certificate is False and check is False:
            quick = self._decide_text(deal)
            if quick is not None:
                return quick
        if not isinstance(certificate, bool) or not isinstance(check, bool):
            raise SolitaireError(f"certificate and check are True or False, not {quoted(certificate)}, "
                                 f"{quoted(check)}")
        d = self.game.read(deal, dict(self.variant))
        prefix = tuple(parse_moves(after)) if after is not None else ()
        result = self._answer(d, prefix, self.limits, certificate)
        if check:
            self._check(d, result)
        return result

    def _answer(self, d: Deal, prefix: tuple, limits: Limits, certificate: bool = False
                ) -> Result:
        """Game.answer for the read deal `d` after the moves `prefix`, within `limits`."""
        g, var = self.game, dict(self.variant)
        start = replay(g.rules(var), d, prefix) if prefix else None
        if self._core is None:
            fallback_runs()
        result = g.answer(self._core, d, var, self.objective, limits, certificate, prefix, start)
        result.__dict__["_deal"] = d  # for its pictures in a notebook (pictures/notebook.py)
        return result

    def _decide_text(self, text: str) -> Optional[Result]:
        """Game.answer's Result for a decide call of the deal a pack-order text gives, by the
        core's decide_text (_text_answer); None where the Solver has no such entry or the text
        is not 52 plain card names (Game.answer then reads it and says what is wrong)."""
        entry = self._text_entry
        return None if entry is None else _text_answer(entry, text)

    def _check(self, deal: Deal, result: Result) -> None:
        # The check's re-search (an exhaustive proof without a certificate) keeps to the limits
        # given for the solve; an answer it could not check in them (or an UNKNOWN, which claims
        # nothing) comes back unchecked, and stats["check"] says so.
        verdict = self.verify(deal, result, after=result.after)
        if verdict.ok is False:
            raise VerificationError(f"the solver's answer does not check: {verdict.reason}")
        result.stats["check"] = verdict.reason

    def verify(self, deal: Any, answer: Any, *, after: Moves = None) -> Verification:
        """verify() under this solver's game and variant, its searches within its limits."""
        lim = self.limits
        return verify(self.game, deal, answer, max_states=lim.max_states or None,
                      max_seconds=lim.max_seconds or None, memory_mb=self._options["memory_mb"],
                      after=after, **self.variant)

    def hint(self, deal: Any, after: Moves = None) -> Hint:
        """The next move of a winning line from the position after `after`, or the proof that
        none wins."""
        self._winning_objective("hint")
        r = self.solve(deal, after=after)
        return Hint(r.moves[0] if r.won and r.moves else None, r)

    def moves(self, deal: Any, after: Moves = None) -> list:
        """Each legal move at the position after `after` with the verdict on the position it
        leads to (rating.MoveVerdict: WON, still winnable; BLOCKED, the move loses; UNKNOWN, a
        limit), each searched within this solver's max_states, its max_seconds bounding the
        whole call (each move an equal share of the time left); [] where the position is
        won."""
        from .rating import move_verdicts
        self._winning_objective("moves")
        return move_verdicts(self, deal, after)

    def rate(self, deal: Any, after: Moves = None, *, playouts: Optional[int] = None,
             exact_positions: Optional[int] = None, seed: int = 0,
             critical: bool = True, guided: int = 200) -> Any:
        """How hard the position after `after` is: a rating.Rating (docs/difficulty.md). The
        random player's chance is exact where the reachable positions fit exact_positions
        (default: max_states, else 100,000, within memory_mb), else estimated from `playouts`
        random lines drawn with `seed` (default: the game's Game.rating_playouts, 2,000 in
        most games), and where none of those won, from `guided` lines that
        avoid the moves proved lost (0: not). critical=False leaves out the
        critical positions (a search per move along the winning line, within max_states or
        else rating.CRITICAL_STATES positions; a survey of chances needs none). max_seconds
        bounds the whole rating, at least 64 random lines played."""
        from .rating import rate_position
        self._winning_objective("rate")
        return rate_position(self, deal, after, playouts_count=playouts,
                             exact_positions=exact_positions, seed=seed, critical=critical,
                             guided_lines=guided)

    def analyze(self, deal: Any, moves: Moves) -> Analysis:
        """The first move of a line of play after which the game could no longer be won.

        Winnable after k moves implies winnable after every earlier move (a winning line from
        there starts with the moves that led there), so the positions are won up to some move
        and lost after it: a binary search finds the boundary deciding about log2(len)
        positions. A limit reached leaves the answer unknown: max_states bounds each position's
        search, max_seconds the whole call.
        """
        self._winning_objective("analyze")
        g, var = self.game, self.variant
        d = g.read(deal, dict(var))
        line = tuple(parse_moves(moves)) if moves is not None else ()
        replay(g.rules(var), d, line)  # every move legal, or MoveError with its number
        results: dict[int, Result] = {}
        # max_seconds bounds the whole call: each position's search gets the time left (an
        # unknown one ends the analysis anyway); max_states bounds each search.
        deadline = self.limits.deadline()

        def decide(k: int) -> Optional[bool]:
            if k not in results:
                results[k] = self._answer(d, line[:k], self.limits.until(deadline))
            r = results[k]
            return None if r.status is Status.UNKNOWN else r.won

        def unknown(k: int) -> Analysis:
            return Analysis(g.name, line, None, decided=len(results),
                            reason=f"after {counted(k, 'move')}: {results[k].reason}")

        end = decide(len(line))
        if end is None:
            return unknown(len(line))
        if end:
            return Analysis(g.name, line, True, decided=len(results))
        first = decide(0)
        if first is None:
            return unknown(0)
        if not first:
            return Analysis(g.name, line, False, after=results[0], decided=len(results))
        lo, hi = 0, len(line)  # won after lo moves, lost after hi
        while hi - lo > 1:
            mid = (lo + hi) // 2
            v = decide(mid)
            if v is None:
                return unknown(mid)
            lo, hi = (mid, hi) if v else (lo, mid)
        return Analysis(g.name, line, True, blunder=hi, before=results[lo], after=results[hi],
                        decided=len(results))

    def _winning_objective(self, caller: str) -> None:
        # The score objective answers WON with its best line even when that line leaves cards
        # (docs/pyramid.md): a hint or an analysis built on it would call a lost game winnable.
        if self.objective not in ("decide", "shortest"):
            raise SolitaireError(f"{caller} follows a winning line: objective is decide or "
                                 f"shortest, not {quoted(self.objective)}")


def _text_answer(entry: tuple, text: str) -> Optional[Result]:
    """The Result of a Solver's decide call given a pack-order text, by its core's decide_text
    (entry: Solver._cards_entry); None where the text is not 52 plain card names. A won line's
    moves are made when first read, and so is a structural proof the core's run shows to exist.
    Compiled, a C function (solver.pxd): a plain call that starts with cold caches is mostly
    the Python around its search, and each Python-level call is code and memory it fetches."""
    decider, name, variant, g, limits = entry
    run = decider.decide(text)
    if run is None:
        return None
    status, path, stats, end, ready, cards = run
    if status == "won":
        stats["backend"] = "core"
        return _made(name, _WON, partial(_line, path), None, stats, variant.copy(), text)
    if ready:
        # No search was needed for the proof (states 0), as Game.structural_result says;
        # it is made for the call's variant, whatever the Result's reader does to its own.
        return _made(name, _BLOCKED, (), partial(_structural, g, cards, variant.copy(), status,
                                                  stats, end), {"states": 0}, variant.copy(),
                     text)
    stats["backend"] = "core"
    deal, var = checked_deal(cards), variant.copy()
    ans = CoreAnswer(status, from_codes(path), stats, end=end)
    proof = g.structural_after(deal, var, ans)
    out = (g.result_of(deal, var, "decide", limits, ans) if proof is None
           else g.structural_result(proof, var, "decide"))
    out.__dict__["_deal"] = text  # for its pictures in a notebook (pictures/notebook.py)
    return out


def _made(game: str, status: Status, moves: Any, proof: Any, stats: dict, variant: dict,
          deal: str) -> Result:
    """make_result(game, status, moves, proof, stats, variant) keeping the deal's text for its
    pictures in a notebook (pictures/notebook.py), a C function where compiled (solver.pxd),
    for _text_answer."""
    fields = _TEXT_FIELDS.copy()
    fields["_deal"] = deal
    fields["game"] = game
    fields["status"] = status
    fields["_moves"] = moves
    fields["_proof"] = proof
    fields["stats"] = stats
    fields["variant"] = variant
    out = _new(Result)
    _setattr(out, "__dict__", fields)
    return out


_new, _setattr = object.__new__, object.__setattr__
#: A Result's dictionary with the deal kept (Solver.solve keeps it the same way).
_TEXT_FIELDS = {**RESULT_FIELDS, "_deal": None}


def _structural(g: Game, cards: tuple, variant: dict, status: str, stats: dict,
                end: Any) -> Any:
    """The structural proof a core's decide run shows to exist (made when Result.proof is
    first read), for the call's variant, whatever the Result's reader does to its own."""
    return g.structural_after(checked_deal(cards), variant, CoreAnswer(status, [], stats, end=end))


def _line(codes: list) -> tuple:
    """A won line's moves from the core's move codes (made when Result.moves is first read)."""
    return tuple(from_codes(codes))


#: Solvers of plain calls (a game's name, no options, no limits) by (name, objective).
_SOLVERS: dict[tuple[str, str], Solver] = {}
#: The text entry (Solver._cards_entry) of the plain decide Solver of a game name, kept once
#: that Solver is made: a plain decide call given a pack-order text goes straight to it.
_TEXT: dict[str, Any] = {}


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
    after: Moves = None,
    **variant: Any,
) -> Result:
    """Decide a deal: Solver(game, objective=..., max_states=..., max_seconds=..., memory_mb=...,
    **variant).solve(deal, after=..., certificate=..., check=...), the Solver of a plain call (a
    game's name and no other option) made once and kept.

    deal: a Deal, the pack-order text, a list of cards, or (for games that have one) a layout
    text. See Solver and Solver.solve for the rest.
    """
    if (not variant and type(game) is str and type(objective) is str and max_states is None
            and max_seconds is None and memory_mb == DEFAULT_MEMORY_MB):
        plain = type(deal) is str and after is None and certificate is False and check is False
        if plain and objective == "decide":
            entry = _TEXT.get(game)
            if entry is not None:
                # Solver.solve's first step, taken here without its call for plain calls
                quick = _text_answer(entry, deal)
                if quick is not None:
                    return quick
                plain = False  # not a plain pack text: Solver.solve reads it and says why
        solver = _SOLVERS.get((game, objective))
        if solver is None:
            solver = Solver(game, objective=objective)
            if len(_SOLVERS) < 256:
                _SOLVERS[game, objective] = solver
                if solver._text_entry is not None:
                    _TEXT[game] = solver._text_entry
        if plain:
            quick = solver._decide_text(deal)
            if quick is not None:
                return quick
    else:
        solver = Solver(game, objective=objective, max_states=max_states,
                        max_seconds=max_seconds, memory_mb=memory_mb, **variant)
    return solver.solve(deal, after=after, certificate=certificate, check=check)


def hint(game: Union[str, Game], deal: Any, after: Moves = None, **kwargs: Any) -> Hint:
    """Solver(game, **kwargs).hint(deal, after): the next move of a winning line from the
    position after `after`, or the proof that none wins. kwargs: solve()'s limits, its
    objective (decide or shortest) and the game's variant."""
    return Solver(game, **kwargs).hint(deal, after)


def moves(game: Union[str, Game], deal: Any, after: Moves = None, **kwargs: Any) -> list:
    """Solver(game, **kwargs).moves(deal, after): each legal move at the position with whether
    the game stays winnable after it (rating.MoveVerdict). kwargs: solve()'s limits, its
    objective (decide or shortest) and the game's variant."""
    return Solver(game, **kwargs).moves(deal, after)


def rate(game: Union[str, Game], deal: Any, after: Moves = None, *,
         playouts: Optional[int] = None,
         exact_positions: Optional[int] = None, seed: int = 0, critical: bool = True,
         guided: int = 200, **kwargs: Any) -> Any:
    """Solver(game, **kwargs).rate(deal, after, ...): how hard the position is (rating.Rating,
    docs/difficulty.md). kwargs: solve()'s limits and the game's variant."""
    return Solver(game, **kwargs).rate(deal, after, playouts=playouts,
                                       exact_positions=exact_positions, seed=seed,
                                       critical=critical, guided=guided)


def analyze(game: Union[str, Game], deal: Any, moves: Moves, **kwargs: Any) -> Analysis:
    """Solver(game, **kwargs).analyze(deal, moves): the first move of a line of play after
    which the game could no longer be won. kwargs: solve()'s limits, its objective (decide or
    shortest) and the game's variant; a limit reached leaves the answer unknown."""
    return Solver(game, **kwargs).analyze(deal, moves)
