"""How hard a deal is (docs/difficulty.md): the verdict of every legal move, the chance that a
player who picks uniformly at random among the legal moves wins, the positions of a winning line
where most moves lose, and the deal's tier.

>>> import solitaire_solver as ss
>>> r = ss.rate("fourteen", ss.random_deal(1))
>>> r.status.value, r.exact, round(r.random_win, 6)
('won', True, 0.389183)
"""

from __future__ import annotations

import heapq
import math
import random
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Hashable, Iterator, NamedTuple, Optional, Union

from .deal import Deal
from .engine.backend import core_module
from .engine.contract import Limits
from .engine.contract import seconds_left as _left
from .engine.search import reference_search
from .errors import SolitaireError, quoted
from .games import Game
from .games.rules import replay
from .moves import Move, parse_moves
from .result import Result, Status, counted
from .survey.stats import wilson_interval

if TYPE_CHECKING:
    from .solver import Moves, Solver

#: The five tiers, easiest first.
TIERS = ("very easy", "easy", "medium", "hard", "very hard")
#: Positions the exact sum may keep when neither max_states nor memory_mb says less.
EXACT_POSITIONS = 100_000
#: Random lines played when the exact sum does not fit, unless the game says more
#: (Game.rating_playouts) or the caller other (playouts=).
PLAYOUTS = Game.rating_playouts
#: A random line longer than this counts as not won (only a game with cycles plays one).
MAX_PLAYOUT_MOVES = 10_000
#: The random lines played under a time limit that has run out (the cores look at the clock
#: every 64 lines): an estimate from fewer says next to nothing.
MIN_LINES = 64
#: Bytes the exact sum takes per position kept (a dict entry, its key and its value).
_BYTES_PER_POSITION = 200
#: Guided lines drawn where no random line won (docs/difficulty.md, "Rare wins").
GUIDED_LINES = 200
#: Positions a search may take to prove a move lost along a guided line.
PROBE_STATES = 300
#: Positions the searches of a rating's guided lines may take in all (the line under way ends).
GUIDED_POSITIONS = 2_000_000
#: Where the solver sets no limit of positions, a critical position's move is searched within
#: this many (a move not decided in them counts on neither side): a proof that a move loses
#: can be an exhaustive search (Calculation's take minutes), one per move tried along the line.
CRITICAL_STATES = 100_000
#: Move verdicts a rating keeps for its guided lines (the memo starts again when full).
_PROBE_MEMO = 200_000


@dataclass(frozen=True)
class MoveVerdict:
    """One legal move and the verdict on the position after it: WON (still winnable), BLOCKED
    (the move loses) or UNKNOWN (a limit was reached); `result` is that position's answer."""

    move: Move
    status: Status
    result: Result

    @property
    def loses(self) -> bool:
        """True when no line wins after this move."""
        return self.status is Status.BLOCKED

    def __str__(self) -> str:
        if self.status is Status.WON:
            return f"{self.move}: keeps the game winnable"
        if self.status is Status.BLOCKED:
            return f"{self.move}: loses ({self.result.proof.sentence if self.result.proof else ''})"
        return f"{self.move}: unknown ({self.result.reason})"


@dataclass(frozen=True)
class Critical:
    """A position of the winning line where most legal moves lose: the line's moves before it
    (from the deal's start), the moves that keep it winnable and those that lose."""

    line: tuple[Move, ...]
    winning: tuple[Move, ...]
    losing: tuple[Move, ...]

    def __str__(self) -> str:
        return (f"after {counted(len(self.line), 'move')}: {len(self.losing)} of "
                f"{len(self.losing) + len(self.winning)} moves lose "
                f"({' '.join(map(str, self.losing))}); play "
                f"{' or '.join(map(str, self.winning))}")


@dataclass(frozen=True)
class Rating:
    """How hard a position is (docs/difficulty.md).

    status: the position's verdict (result: its answer). random_win: the probability that a
    player picking uniformly among the legal moves wins; exact (method "exact", or
    "order-independent" where the order of play never matters) or estimated from `playouts`
    random lines (method "playouts"), or, where none of those won, from `playouts` guided
    lines that avoid the moves proved lost (method "guided", docs/difficulty.md "Rare wins");
    `interval` its 95% interval ((p, p) when exact).
    critical: the positions of the winning line where most legal moves lose. tier: one of
    TIERS, from the game's boundaries (docs/difficulty.md), None for a deal that is not won or
    a game without a table. positions: the positions walked and searched; seconds: the time
    taken.
    """

    game: str
    variant: dict
    after: tuple[Move, ...]
    status: Status
    random_win: float
    exact: bool
    method: str
    interval: tuple[float, float]
    playouts: int
    critical: tuple[Critical, ...]
    tier: Optional[str]
    positions: int
    seconds: float
    result: Result = field(repr=False)

    @property
    def won(self) -> bool:
        """True when the position can be won."""
        return self.status is Status.WON

    @property
    def lines(self) -> str:
        """The lines an estimate was drawn from, in words ("2000 random lines")."""
        return f"{self.playouts} {'guided' if self.method == 'guided' else 'random'} lines"

    def to_dict(self) -> dict:
        """The rating as JSON-ready data."""
        return {"game": self.game, "variant": self.variant,
                "after": [str(m) for m in self.after], "status": self.status.value,
                "random_win": self.random_win, "exact": self.exact, "method": self.method,
                "interval": list(self.interval), "playouts": self.playouts,
                "critical": [{"line": [str(m) for m in c.line],
                              "winning": [str(m) for m in c.winning],
                              "losing": [str(m) for m in c.losing]} for c in self.critical],
                "tier": self.tier, "positions": self.positions, "seconds": self.seconds}

    def _repr_html_(self) -> Optional[str]:
        # Jupyter: the rating, the position and its critical positions drawn.
        from .pictures.notebook import rating_html
        return rating_html(self)

    def __str__(self) -> str:
        out = [f"{self.status.value.upper()}" + (f", tier {self.tier}" if self.tier else "")]
        if self.exact:
            how = ("exact" if self.method == "exact"
                   else "exact: the order of play never matters")
            out.append(f"random player wins with probability {self.random_win:.6g} ({how})")
        else:
            lo, hi = self.interval
            out.append(f"random player wins with probability {self.random_win:.4g} "
                       f"(95% interval {lo:.4g} to {hi:.4g}, {self.lines})")
        out.extend(str(c) for c in self.critical)
        out.append(f"({counted(self.positions, 'position')}, {self.seconds * 1000:.1f} ms)")
        return "\n".join(out)


# -- the verdict of every move --------------------------------------------------------------------

def solve_at(solver: Solver, deal: Any, after: tuple[Move, ...], start: Any,
             limits: Optional[Limits] = None) -> Result:
    """Solver.solve(deal, after=after) where `start` is the reference position `after` reaches
    (the moves are not replayed again), with the solver's limits or `limits`."""
    from .engine.backend import fallback_runs
    if solver._core is None:
        fallback_runs()
    return solver.game.answer(solver._core, deal, dict(solver.variant), solver.objective,
                              limits or solver.limits, False, after, start)


def move_verdicts(solver: Solver, deal: Any, after: Moves = None) -> list[MoveVerdict]:
    """Solver.moves: each legal move at the position after `after`, with the answer for the
    position it leads to, searched with the solver's max_states each; its max_seconds bounds
    the whole call, each move's search given an equal share of the time left."""
    g, var = solver.game, solver.variant
    d = g.read(deal, dict(var))
    prefix = tuple(parse_moves(after)) if after is not None else ()
    rules = g.rules(var)
    pos = replay(rules, d, prefix)
    if rules.won(pos):
        return []
    lim = solver.limits
    deadline = lim.deadline()
    moves = rules.moves(pos)
    out = []
    for i, m in enumerate(moves):
        share = lim._replace(max_seconds=_left(deadline) / (len(moves) - i)) if deadline else lim
        r = solve_at(solver, d, prefix + (m,), rules.apply(pos, m), share)
        out.append(MoveVerdict(m, r.status, r))
    return out


# -- walking the position graph -------------------------------------------------------------------

class _Cyclic(Exception):
    """A move led back to a position on the line being walked."""


class _TooBig(Exception):
    """The position graph outgrew the budget (or the time ran out)."""


Step = Callable[[Hashable], tuple[bool, list]]


def walker(game: Game, variant: dict, deal: Any, start: Any, positions: Optional[dict] = None
           ) -> tuple[Hashable, Step, Callable[[Any], Hashable]]:
    """(root, step, key): the position graph from the reference position `start`. step(node) is
    (won, the nodes the legal moves lead to, one per move); key(reference position) is its node.
    The compiled core's step() walks it where the game allows (_core_walks), else the
    reference rules do, and then `positions`, where given, gets each node's reference
    position."""
    core = core_module(game.core) if game.core else None
    if _core_walks(game, variant, core, "step"):
        spec = game.core_spec(deal, variant, "decide", False)
        spec.pop("root", None)
        cstep = core.step

        def step(node: Any) -> tuple[bool, list]:
            won, moves = cstep(spec, node[0], node[1])
            return won, [(r, a) for _, r, a in moves]

        def key(pos: Any) -> Hashable:
            return tuple(game.core_position(pos, variant))

        return key(start), step, key
    rules = game.rules(variant)
    seen: dict = {} if positions is None else positions

    def rkey(pos: Any) -> Hashable:
        k = rules.key(pos)
        seen.setdefault(k, pos)
        return k

    def rstep(node: Any) -> tuple[bool, list]:
        pos = seen[node]
        if rules.won(pos):
            return True, []
        return False, [rkey(rules.apply(pos, m)) for m in rules.moves(pos)]

    return rkey(start), rstep, rkey


def _core_walks(game: Game, variant: dict, core: Any, entry: str) -> bool:
    """True when the compiled core has `entry` (contract.py) and its moves are every legal move
    of this variant (Game.rating_core), so that a rating may walk the position graph with it."""
    return core is not None and hasattr(core, entry) and game.rating_core(variant)


def exact_sum(root: Hashable, step: Step, budget: int, deadline: float = 0.0) -> dict:
    """Every reachable node's probability that a uniformly random player wins from it (a won
    node 1, a node without moves 0, else the mean over its moves), memoised. _TooBig past
    `budget` nodes or the monotonic `deadline` (0: none). A graph with cycles is solved by its
    strongly connected components (_components)."""
    try:
        return _acyclic(root, step, budget, deadline)
    except _Cyclic:
        return _components(root, step, budget, deadline)


def _acyclic(root: Hashable, step: Step, budget: int, deadline: float) -> dict:
    memo: dict = {}
    active = {root}
    won, kids = step(root)
    if won or not kids:
        return {root: 1.0 if won else 0.0}
    stack = [[root, kids, 0, 0.0]]
    clock = time.monotonic
    while stack:
        frame = stack[-1]
        node, kids, i, acc = frame
        if i < len(kids):
            frame[2] = i + 1
            c = kids[i]
            v = memo.get(c)
            if v is not None:
                frame[3] = acc + v
                continue
            if c in active:
                raise _Cyclic
            w, ks = step(c)
            if w or not ks:
                v = 1.0 if w else 0.0
                memo[c] = v
                frame[3] = acc + v
                continue
            if len(memo) + len(stack) >= budget or (deadline and clock() > deadline):
                raise _TooBig
            active.add(c)
            stack.append([c, ks, 0, 0.0])
            continue
        v = acc / len(kids)
        memo[node] = v
        active.discard(node)
        stack.pop()
        if stack:
            stack[-1][3] += v
    return memo


def _components(root: Hashable, step: Step, budget: int, deadline: float) -> dict:
    """exact_sum on a graph with cycles: Tarjan's components, each solved once every component
    it leads to is (a component's nodes: x = (sum of x over moves) / moves, a linear system)."""
    index: dict = {}
    low: dict = {}
    kids_of: dict = {}
    on: set = set()
    order: list = []
    memo: dict = {}
    clock = time.monotonic
    counter = 0

    def visit(node: Hashable) -> Optional[list]:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        order.append(node)
        on.add(node)
        w, ks = step(node)
        if w:
            kids_of[node] = None  # won: 1
            return []
        kids_of[node] = ks
        return ks

    stack = [(root, iter(visit(root) or ()))]
    while stack:
        node, it = stack[-1]
        for c in it:
            if c not in index:
                if len(index) >= budget or (deadline and clock() > deadline):
                    raise _TooBig
                stack.append((c, iter(visit(c) or ())))
                break
            if c in on:
                low[node] = min(low[node], index[c])
        else:
            stack.pop()
            if stack:
                parent = stack[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    x = order.pop()
                    on.discard(x)
                    comp.append(x)
                    if x == node:
                        break
                _solve_component(comp, kids_of, memo)
    return memo


def _solve_component(comp: list, kids_of: dict, memo: dict) -> None:
    inside = {x: i for i, x in enumerate(comp)}
    n = len(comp)
    if n == 1 and (kids_of[comp[0]] is None or comp[0] not in kids_of[comp[0]]):
        ks = kids_of[comp[0]]
        memo[comp[0]] = 1.0 if ks is None else (sum(memo[c] for c in ks) / len(ks) if ks else 0.0)
        return
    # (I - Q) x = b over the component: Q the moves inside it, b those leaving it. With no move
    # leaving it the random player never leaves: every node 0 (the least solution).
    rows: list = [{} for _ in range(n)]
    b = [0.0] * n
    leaves = False
    for x, i in inside.items():
        ks = kids_of[x]
        row = rows[i]
        row[i] = 1.0
        for c in ks:
            j = inside.get(c)
            if j is None:
                leaves = True
                b[i] += memo[c] / len(ks)
            else:
                row[j] = row.get(j, 0.0) - 1.0 / len(ks)
    if not leaves or not any(b):
        for x in comp:
            memo[x] = 0.0
        return
    for x, v in zip(comp, _solve_sparse(rows, b)):
        memo[x] = min(1.0, max(0.0, v))


def _solve_sparse(rows: list, b: list) -> list:
    """The solution of a x = b, a's rows given as {column: value}, by Gaussian elimination
    keeping the rows sparse. Here a = I - Q, Q the moves that stay inside a component that some
    move leaves: from every node the random player leaves with a positive probability, so Q's
    spectral radius is below 1 and a is a nonsingular M-matrix. So is a with its rows and
    columns renumbered alike, and so are its Schur complements: every pivot taken on the
    diagonal, in any order, is positive, and the elimination is stable without row exchanges
    (a is diagonally dominant by rows: growth at most 2). The order is the least fill first
    (the node whose row and column have the fewest entries, Markowitz's rule): a component's
    rows have as many entries as a position has moves, and a dense elimination, or a sparse
    one in the walk's order, fills them up."""
    n = len(b)
    cols: list = [set() for _ in range(n)]  # column -> the rows not yet pivots that hold it
    for r, row in enumerate(rows):
        for c in row:
            if c != r:
                cols[c].add(r)
    done = [False] * n
    heap = [((len(rows[k]) - 1) * len(cols[k]), k) for k in range(n)]
    heapq.heapify(heap)
    order = []
    while heap:
        score, k = heapq.heappop(heap)
        if done[k]:
            continue
        now = (len(rows[k]) - 1) * len(cols[k])
        if now != score:
            heapq.heappush(heap, (now, k))
            continue
        done[k] = True
        order.append(k)
        top = rows[k]
        rest = [(c, v) for c, v in top.items() if c != k]
        for c, _ in rest:
            cols[c].discard(k)
        p = top[k]
        for r in cols[k]:
            row = rows[r]
            f = row.pop(k) / p
            for c, v in rest:
                if c in row:
                    row[c] -= f * v
                else:
                    row[c] = -f * v
                    cols[c].add(r)
            b[r] -= f * b[k]
        cols[k] = set()
    x = [0.0] * n
    for k in reversed(order):
        row = rows[k]
        x[k] = (b[k] - sum(v * x[c] for c, v in row.items() if c != k)) / row[k]
    return x


def playouts(root: Hashable, step: Step, count: int, rng: random.Random,
             max_moves: int = MAX_PLAYOUT_MOVES, deadline: float = 0.0) -> tuple[int, int]:
    """(wins, lines): how many of `count` uniformly random lines from root win (a line longer
    than max_moves counts as not won); past the monotonic `deadline` (0: none) no more lines,
    once at least MIN_LINES are played (the cores' playouts do the same)."""
    wins = 0
    for k in range(count):
        if deadline and k >= MIN_LINES and k % MIN_LINES == 0 and time.monotonic() > deadline:
            return wins, k
        node = root
        for _ in range(max_moves):
            won, kids = step(node)
            if won:
                wins += 1
                break
            if not kids:
                break
            node = kids[rng.randrange(len(kids))]
    return wins, count


def guided(root: Hashable, step: Step, lost: Callable[[Hashable], bool], count: int,
           rng: random.Random, max_moves: int = MAX_PLAYOUT_MOVES,
           stop: Optional[Callable[[], bool]] = None,
           won: Optional[Callable[[Hashable], bool]] = None,
           unproved: Optional[float] = None) -> list[float]:
    """The values of up to `count` guided lines from root (docs/difficulty.md, "Rare wins"):
    each picks among the moves whose position lost() does not prove lost, and is worth, if it
    wins, the product over its positions of (the probability the random player gives the move
    it played) / (the probability the line gave it), else 0. The line picks uniformly among
    the moves kept (worth moves kept / legal moves a position); or, with won() and `unproved`
    given, where won() proves some kept moves winnable and not the others, one of the others
    with probability `unproved` and one of the proved with the rest (won first). Their mean
    estimates the random player's chance without bias, whatever lost() and won() leave
    unproved, as long as lost() never calls a winnable node lost (every winning line keeps a
    probability above 0). Stops early, after one line at least, once stop() is true (a
    budget spent)."""
    values = []
    for _ in range(count):
        node, weight, value = root, 1.0, 0.0
        for _ in range(max_moves):
            is_won, kids = step(node)
            if is_won:
                value = weight
                break
            keep = [k for k in kids if not lost(k)]
            if not keep:
                break
            if won is not None and unproved is not None:
                proved = [k for k in keep if won(k)]
                if proved and len(proved) < len(keep):
                    if rng.random() < unproved:
                        others = [k for k in keep if not won(k)]
                        weight *= len(others) / (unproved * len(kids))
                        node = others[rng.randrange(len(others))]
                    else:
                        weight *= len(proved) / ((1.0 - unproved) * len(kids))
                        node = proved[rng.randrange(len(proved))]
                    continue
            weight *= len(keep) / len(kids)
            node = keep[rng.randrange(len(keep))]
        values.append(value)
        if stop is not None and stop():
            break
    return values


def guided_interval(values: list[float]) -> tuple[float, tuple[float, float]]:
    """The mean of guided lines' values (each in [0, 1]) and its 95% interval: the normal one
    (mean +- 1.96 standard errors) once two lines or more won; with fewer, 0 to the Wilson
    upper bound of the share of lines that won (a value is at most 1, so the mean is at most
    the chance that a line wins). Where a few rare lines carry most of the weight, the normal
    interval holds the chance less often than 95% (docs/difficulty.md, "Rare wins")."""
    n = len(values)
    mean = sum(values) / n
    hits = sum(1 for v in values if v > 0)
    if hits < 2:
        return mean, (0.0, max(mean, wilson_interval(hits, n)[1]))
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    # and the rounding of the sum: lines of one weight have no variance, and their mean is
    # then the chance itself up to it
    half = 1.959963984540054 * math.sqrt(var / n) + 1e-9 * mean
    return mean, (max(0.0, mean - half), min(1.0, mean + half))


def probe(game: Game, variant: dict, deal: Any, limits: Any, states: int, positions: dict
          ) -> tuple[Callable[[Hashable], bool], Callable[[Hashable], bool], list[int]]:
    """(lost, won, spent): lost(node) is True when a search of at most `states` positions (the
    core's from the node where it walks the graph, else the reference search from the node's
    position in `positions`, filled by walker) proves the node lost, won(node) when it finds a
    win, both from one search memoised; spent[0] counts the positions searched."""
    core = core_module(game.core) if game.core else None
    memo: dict = {}
    spent = [0]
    budget = min(limits.memory_bytes, 16 << 20)
    if _core_walks(game, variant, core, "step"):
        spec = game.core_spec(deal, variant, "decide", False)
        lim = Limits(states, 0.0, budget)

        def search(node: Hashable) -> str:
            spec["root"] = node
            run = core.solve(spec, "decide", lim, False)
            spent[0] += int(run[2].get("states", 0))
            return run[0]
    else:
        rules = game.rules(variant)

        def search(node: Hashable) -> str:
            out = reference_search(rules, positions[node], states, memory_bytes=budget)
            spent[0] += out.states
            return out.status

    def verdict(node: Hashable) -> str:
        v = memo.get(node)
        if v is None:
            if len(memo) >= _PROBE_MEMO:
                memo.clear()
            v = memo[node] = search(node)
        return v

    return (lambda node: verdict(node) == "exhausted"), (lambda node: verdict(node) == "won"), spent


def lost_probe(game: Game, variant: dict, deal: Any, limits: Any, states: int,
               positions: dict) -> tuple[Callable[[Hashable], bool], list[int]]:
    """(lost, spent) of probe(): lost(node) is True when a search of at most `states` positions
    proves the node lost; spent[0] counts the positions searched."""
    lost, _, spent = probe(game, variant, deal, limits, states, positions)
    return lost, spent


# -- rating ---------------------------------------------------------------------------------------

def rate_position(solver: Solver, deal: Any, after: Moves = None, *,
                  playouts_count: Optional[int] = None,
                  exact_positions: Optional[int] = None, seed: int = 0,
                  critical: bool = True, guided_lines: int = GUIDED_LINES) -> Rating:
    """Solver.rate (docs/difficulty.md); playouts_count None: the game's rating_playouts."""
    if playouts_count is None:
        playouts_count = solver.game.rating_playouts
    for name, v, lo, hi in (("playouts", playouts_count, 1, None),
                            ("guided", guided_lines, 0, None),
                            ("exact_positions", exact_positions, 1, None),
                            ("seed", seed, 0, 2**64 - 1)):
        if v is None and name == "exact_positions":
            continue
        if isinstance(v, bool) or not isinstance(v, int) or v < lo or (hi is not None and v > hi):
            raise SolitaireError(f"{name} must be an integer from {lo}"
                                 + (" to 2**64 - 1" if hi else " up") + f", not {quoted(v)}")
    t0 = time.perf_counter()
    lim = solver.limits
    # max_seconds bounds the whole rating: the solve, then the walks, the lines and the critical
    # moves' searches in what it left (docs/difficulty.md, "Budget").
    deadline = lim.deadline()
    g, var = solver.game, dict(solver.variant)
    d = g.read(deal, var)
    prefix = tuple(parse_moves(after)) if after is not None else ()
    rules = g.rules(var)
    start = replay(rules, d, prefix)
    result = solver.solve(d, after=prefix)
    positions = int(result.stats.get("states", 0))
    lim = lim.until(deadline)
    budget = exact_positions or min(lim.max_states or EXACT_POSITIONS,
                                    max(1, lim.memory_bytes // _BYTES_PER_POSITION))
    memo: Optional[dict] = None
    key: Optional[Callable] = None
    child_win: Optional[Callable] = None
    count = 0
    if rules.won(start):
        p, method, interval = 1.0, "exact", (1.0, 1.0)
    elif result.status is Status.BLOCKED:
        # No line wins, random or not: the proof is the answer.
        p, method, interval = 0.0, "exact", (0.0, 0.0)
    elif g.order_independent and result.won:
        # Every line of play ends where every other does (docs/proofs.md): the random player
        # wins exactly the winnable deals.
        p, method, interval = 1.0, "order-independent", (1.0, 1.0)
    else:
        fast = _core_walk(g, var, d, start, budget, lim, playouts_count, seed, deadline)
        if fast is not None:
            p, method, interval, kept, count = fast
            positions += kept
        else:
            root, step, key = walker(g, var, d, start)
            try:
                memo = exact_sum(root, step, budget, deadline)
                p, method = memo[root], "exact"
                interval = (p, p)
                positions += len(memo)
            except _TooBig:
                lines = _core_playouts(g, var, d, start, playouts_count, seed, _left(deadline))
                if lines is None:
                    lines = playouts(root, step, playouts_count, random.Random(seed),
                                     deadline=deadline)
                wins, count = lines
                p, method = wins / count, "playouts"
                interval = _interval(wins, count)
                positions += count
        if method == "playouts" and p == 0 and guided_lines and result.won:
            # No random line won: the estimate 0 tells this deal from no other with a chance
            # below about 1 / count. The same chance, estimated by lines that avoid the moves
            # proved lost.
            nodes: dict = {}
            root, step, _ = walker(g, var, d, start, nodes)
            lost, won, spent = probe(g, var, d, lim, PROBE_STATES, nodes)
            clock = time.monotonic

            def spent_up() -> bool:
                return spent[0] >= GUIDED_POSITIONS or bool(deadline and clock() > deadline)

            values = guided(root, step, lost, guided_lines, random.Random(seed), stop=spent_up,
                            won=won, unproved=g.guided_unproved)
            p, interval = guided_interval(values)
            method, count = "guided", len(values)
            positions += spent[0] + count
    if memo is not None and key is not None:
        child_win = _memo_win(memo, key)
    crit = (_critical(solver, rules, d, prefix, start, result, child_win, deadline)
            if critical else ())
    tier = tier_of(g, var, p) if result.won else None
    out = Rating(g.name, var, prefix, result.status, p, method in ("exact", "order-independent"),
                 method, interval,
                 count, crit, tier, positions, time.perf_counter() - t0, result)
    out.__dict__["_deal"] = d  # for its pictures (pictures/notebook.py)
    return out


def _interval(wins: int, count: int) -> tuple[float, float]:
    """The 95% Wilson interval of wins in count random lines, holding wins / count itself (its
    bounds at 0 or all lines won are 0 and 1 exactly, not their rounding)."""
    lo, hi = wilson_interval(wins, count)
    p = wins / count
    return (0.0 if wins == 0 else min(lo, p), 1.0 if wins == count else max(hi, p))


def _memo_win(memo: dict, key: Callable) -> Callable[[Any], Optional[bool]]:
    def win(pos: Any) -> Optional[bool]:
        p = memo.get(key(pos))
        return None if p is None else p > 0
    return win


def _core_walk(g: Game, var: dict, deal: Any, start: Any, budget: int, lim: Any, count: int,
               seed: int, deadline: float) -> Optional[tuple]:
    """The random player's chance by the compiled core's random_win and playouts (contract.py)
    where the core has them and the game lets it walk (Game.rating_core): (chance, method,
    interval, positions, random lines); None where it has not, or where the graph has cycles
    (the walk in Python solves those)."""
    core = core_module(g.core) if g.core else None
    if not _core_walks(g, var, core, "random_win"):
        return None
    spec = g.core_spec(deal, var, "decide", False)
    spec.pop("root", None)
    removed, aux = g.core_position(start, var)
    status, p, kept = core.random_win(spec, removed, aux, budget, _left(deadline),
                                      lim.memory_bytes)
    if status == 2:
        return None
    if status == 0:
        return p, "exact", (p, p), kept, 0
    wins, lines = core.playouts(spec, removed, aux, count, seed, MAX_PLAYOUT_MOVES,
                                _left(deadline))
    return wins / lines, "playouts", _interval(wins, lines), kept + lines, lines


def _core_playouts(g: Game, var: dict, deal: Any, start: Any, count: int, seed: int,
                   max_seconds: float) -> Optional[tuple[int, int]]:
    """(wins, lines) of the random lines played by the compiled core (contract.py) where it has
    playouts and the game lets it walk (Game.rating_core); None where not. A graph with cycles
    too big for the exact sum is estimated here, as fast as an acyclic one."""
    core = core_module(g.core) if g.core else None
    if not _core_walks(g, var, core, "playouts"):
        return None
    spec = g.core_spec(deal, var, "decide", False)
    spec.pop("root", None)
    removed, aux = g.core_position(start, var)
    return core.playouts(spec, removed, aux, count, seed, MAX_PLAYOUT_MOVES, max_seconds)


def _critical(solver: Solver, rules: Any, deal: Any, prefix: tuple, start: Any, result: Result,
              child_win: Optional[Callable[[Any], Optional[bool]]],
              deadline: float = 0.0) -> tuple[Critical, ...]:
    """The positions of the winning line where most legal moves lose: each move's verdict read
    from the exact chance where there is one (winnable iff the random player's chance is above
    0), else searched (within CRITICAL_STATES positions a move where the solver sets no limit
    of positions, and within what is left before the monotonic `deadline`, 0: none; a move
    with no time left is not searched, its verdict unknown)."""
    if not result.won:
        return ()
    limits = solver.limits
    if not limits.max_states:
        limits = limits._replace(max_states=CRITICAL_STATES)
    out = []
    pos, line = start, prefix
    for played in result.moves:
        moves = rules.moves(pos)
        if len(moves) > 2:
            # The line's own move keeps the game winnable; the position is critical once more
            # than half the moves lose, and cannot be once half of them are known to win.
            winning, losing, unknown = [played], [], 0
            for m in moves:
                if m == played:
                    continue
                after = rules.apply(pos, m)
                v = child_win(after) if child_win is not None else None
                if v is None and not (deadline and time.monotonic() >= deadline):
                    r = solve_at(solver, deal, line + (m,), after, limits.until(deadline))
                    v = True if r.won else False if r.status is Status.BLOCKED else None
                if v is True:
                    winning.append(m)
                elif v is False:
                    losing.append(m)
                else:
                    unknown += 1
                if 2 * (len(winning) + unknown) >= len(moves):
                    break
            if 2 * len(losing) > len(moves):
                order = {m: i for i, m in enumerate(moves)}
                out.append(Critical(line, tuple(sorted(winning, key=order.__getitem__)),
                                    tuple(losing)))
        pos = rules.apply(pos, played)
        line = line + (played,)
    return tuple(out)


# -- the greedy player of the tiers' check ------------------------------------------------------

#: A greedy line longer than this counts as lost (a game with cycles may go round).
GREEDY_MOVES = 500


def greedy_wins(game: Game, variant: dict, deal: Any, max_moves: int = GREEDY_MOVES) -> bool:
    """True when the simple greedy player of docs/difficulty.md's check wins the deal: at each
    position it plays the legal move of the highest Game.greedy_score (by default the move that
    leaves the fewest cards), the first such in the rules' order, under the reference rules."""
    rules = game.rules(variant)
    pos = rules.start(game.read(deal, dict(variant)))
    for _ in range(max_moves):
        if rules.won(pos):
            return True
        moves = rules.moves(pos)
        if not moves:
            return False
        best, best_score = None, None
        for m in moves:
            after = rules.apply(pos, m)
            sc = game.greedy_score(rules, pos, m, after)
            if best is None or sc > best_score:
                best, best_score = after, sc
        pos = best
    return rules.won(pos)


# -- tiers ----------------------------------------------------------------------------------------

def table_label(game: Game, variant: dict) -> str:
    """The name of a game and variant in the tier tables: the game's name, then the options that
    differ from its defaults as name=value."""
    default = game.variant()
    extra = "".join(f" {k}={v}" for k, v in sorted(variant.items()) if default.get(k) != v)
    return game.name + extra


def boundaries(game: Game, variant: dict) -> Optional[tuple[float, float, float, float]]:
    """The game's tier boundaries (docs/difficulty.md), or None where none were surveyed."""
    from .tiers import BOUNDARIES
    row = BOUNDARIES.get(table_label(game, variant))
    return None if row is None else row[0]


def tier_of(game: Game, variant: dict, random_win: float) -> Optional[str]:
    """The tier of a won deal whose random player wins with probability random_win, from the
    game's boundaries (rank_tier), or None where the game has no table."""
    b = boundaries(game, variant)
    if b is None or random_win is None or math.isnan(random_win):
        return None
    return rank_tier(b, random_win)


def rank_tier(bounds: tuple, p: float) -> str:
    """The tier of the chance p among the boundaries (the 20/40/60/80% quantiles of the surveyed
    won deals): very hard below the first, hard below the second, ... very easy from the fourth
    on. A chance that several boundaries equal (many deals share it: 1 for every won Elevens
    deal, 0 for the deals no random line won) spans the ranks of those boundaries, and takes the
    tier in the middle of them (rounded up): the tiers never call a whole game easy or hard."""
    below = sum(1 for b in bounds if b < p)
    upto = sum(1 for b in bounds if b <= p)
    return TIERS[4 - (below + upto + 1) // 2]


def check_tier(game: Game, variant: dict, tier: str) -> None:
    """SolitaireError unless `tier` is one of TIERS that some won deal of the game can rate:
    the game has a table, and some chance falls in that tier (where every won deal has the same
    chance, as in Elevens, only one tier can)."""
    if tier not in TIERS:
        raise SolitaireError(f"tier is one of {', '.join(TIERS)}, not {quoted(tier)}")
    b = boundaries(game, variant)
    if b is None:
        raise SolitaireError(f"{table_label(game, variant)} has no tier table "
                             "(docs/difficulty.md)")
    # Every tier a chance can have is that of 0, 1, a boundary, or a point between two of these;
    # where the order of play does not matter a won deal's chance is 1.
    points = sorted({0.0, 1.0, *b})
    points += [(x + y) / 2 for x, y in zip(points, points[1:])]
    if game.order_independent:
        points = [1.0]
    if tier not in {rank_tier(b, p) for p in points}:
        raise SolitaireError(f"no won deal of {table_label(game, variant)} is {tier}: its "
                             "tier boundaries leave that tier empty (docs/difficulty.md)")


class RatedDeal(NamedTuple):
    """A deal that deals() found: its seed (or PySolFC game number), the deal, its rating."""

    number: int
    deal: Deal
    rating: Rating


def deals(game: Union[str, Game], tier: Optional[str] = None, count: int = 10, start: int = 0,
          *, pysolfc: bool = False, playouts: Optional[int] = None, **options: Any
          ) -> Iterator[RatedDeal]:
    """Winnable deals of one tier (docs/difficulty.md), in the order of their seeds from `start`
    (or PySolFC game numbers, pysolfc=True), `count` of them: each is rated (Solver.rate) and
    kept when won and of the tier (any won deal when tier is None). options: the Solver's limits
    and the game's variant. SolitaireError for a tier the game's table leaves empty."""
    from .pysolfc import pysolfc_deal
    from .solver import Solver

    solver = Solver(game, **options)
    if tier is not None:
        check_tier(solver.game, solver.variant, tier)
    for name, v in (("count", count), ("start", start)):
        if isinstance(v, bool) or not isinstance(v, int) or v < (1 if name == "count" else 0):
            raise SolitaireError(f"{name} must be an integer of at least "
                                 f"{1 if name == 'count' else 0}, not {quoted(v)}")
    found, n = 0, start
    while found < count:
        deal = pysolfc_deal(game, n) if pysolfc else Deal.from_seed(n)
        r = solver.rate(deal, playouts=playouts)
        if r.status is Status.WON and (tier is None or r.tier == tier):
            found += 1
            yield RatedDeal(n, deal, r)
        n += 1
