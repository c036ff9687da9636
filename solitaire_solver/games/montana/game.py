"""Montana (Gaps): four rows of places; the order of play matters and moves can be undone (a Two
goes back), so blocks are proved by an exhaustive search (docs/montana.md)."""

from __future__ import annotations

import math
import random
from typing import Any, Optional

from ...cards import value
from ...deal import Deal, as_deal, deal_text
from ...engine.backend import core_module
from ...engine.contract import Limits
from ...moves import PILE_SHIFT, Move, from_codes
from ..base import CoreAnswer, Game, Option, PySolFCGame
from .rules import (
    ROWS,
    MontanaPosition,
    MontanaRules,
    dealt,
    game_cards,
    looks_like_layout,
    read_layout,
    run_length,
)

#: The core's packing (_core.pyx): place p in bits 6 p .. 6 p + 5 of one bit string (the card
#: + 1; 0 a gap), then with redeals a word of the redeals played (4 bits) and the cards each
#: gathered (6 bits each).
PLACE_BITS = 6
USED_BITS = 4
#: A move word's card bits, the Aces' among them (never a card that moves: MODE_GROUPS puts
#: an order there, Montana.core_line), and its row field.
CARD_BITS = (1 << 52) - 1
ACE_BITS = 1 | 1 << 13 | 1 << 26 | 1 << 39
PILE_FIELD = 31 << PILE_SHIFT
#: The first try (Montana.first_try): beams of these widths and score weights (the core's
#: `beam`: per card in a row's run, less per gap right of a King, per gap that takes a run's next
#: card, per card right of its predecessor), in turn, each within BEAM_ROUNDS rounds' positions.
BEAMS = ((1000, (16, 8, 4, 1)), (4000, (16, 0, 0, 0)), (12000, (16, 8, 4, 1)))
BEAM_ROUNDS = 200
#: Then, for the full pack alone, wider beams, each within WIDE_ROUNDS rounds' positions: they
#: win many of the deals the narrower ones miss, at a cost a smaller deal's search does not need.
#: They keep groups (MODE_GROUPS), not positions: as many wins, sooner (docs/montana.md, "A
#: first try").
WIDE_BEAMS = ((50000, (16, 8, 4, 1)),)
WIDE_ROUNDS = 120
#: Before the beams, the depth-first search itself within this many positions: it decides the
#: small searches whole (a deal blocked at once, a game late in progress).
FIRST_STATES = 20_000
#: In a game in progress (a position after moves), the depth-first search again within this
#: many positions after the first beam: such a position is often lost, which
#: only that search shows (docs/montana.md, "A game in progress").
PROBE_STATES = 500_000
#: The first try's share of a call's limits: of its positions, and of its time.
FIRST_TRY_SHARE = 0.9
#: The most redeals the core's aux word holds (eight lengths of six bits after the count).
MAX_REDEALS = 8


def place_words(places: int) -> int:
    """The core's words of `places` places (before the redeals' word)."""
    return -(-PLACE_BITS * places // 64)


def rng_spec(origin: Optional[tuple], ranks: int) -> Optional[tuple]:
    """The deal's generator where its deal left it, as the core reads it (_core.pyx: spec
    "rng"), or None for a deal without an origin."""
    if origin is None:
        return None
    if origin[0] == "seed":
        r = random.Random(origin[1])
        r.shuffle(game_cards(ranks))
        state = r.getstate()[1]
        return ("seed", state[:624], state[624])
    # A module-level import would close a circle (pysolfc.py imports the games).
    from ...pysolfc import generator_after_deal

    g = generator_after_deal(origin[1])
    if hasattr(g, "r"):  # the Mersenne Twister (pysolfc._TwisterRandom): its random.Random
        state = g.r.getstate()[1]
        return ("mt", state[:624], state[624])
    return ("ms", g.x, g.seed)  # the FreeCell generator (pysolfc._FreeCellRandom)


class Montana(Game):
    name = "montana"
    aliases = ("gaps", "gaps-one-deal", "montana-one-deal")
    pysolfc = (PySolFCGame(53, "Montana", "montana-pysolfc", rows=(13, 13, 13, 13),
                          taken_out="A"),)
    docs = "montana.md"
    tests = "test_montana.py"
    summary = ("four rows of thirteen places, the Aces taken out as gaps; move a card into the gap "
               "right of the card one rank below it in its suit, a Two into a gap at a row's "
               "start; win with each row Two to King of one suit")
    options = {
        "redeals": Option(0, tuple(range(MAX_REDEALS + 1)), int, doc=(
            "0: one deal (the game Solvitaire and Masten measure); 1..8: the cards outside the "
            "rows' runs may be gathered, shuffled by the deal's own generator and dealt again "
            "that many times (a deal given by its seed or PySolFC number)")),
        "ranks": Option(13, tuple(range(4, 14)), int, doc=(
            "4..13: the cards Ace to that rank of each suit, four rows of that many places")),
    }
    presets = {"montana-pysolfc": {"redeals": 2}}
    #: Its won deals' chances lie near 1/2,000 (docs/difficulty.md): ten times the lines.
    rating_playouts = 20_000
    first_try_exact = True

    def rules(self, variant: dict) -> MontanaRules:
        return MontanaRules(variant.get("ranks", 13), variant.get("redeals", 0))

    def greedy_score(self, rules: Any, pos: Any, move: Move, after: Any) -> tuple:
        """The player's rule of thumb (docs/difficulty.md): redeal only when no card can move,
        and move a Two from one row's first place to another's (which can go round) only when
        nothing else can; else the move that leaves the fewest cards out of the rows' runs
        (it extends a run), then one that frees the place a run needs next, then one that
        leaves no gap right of a top-rank card (where no card can ever go)."""
        if move.word == "redeal":
            return 0, 0, False, False
        n, places = rules.ranks, pos.places
        src = places.index(move.cards[0])
        if src % n == 0 and value(move.cards[0]) == 2:
            return -1, 0, False, False
        frees = any(src == r * n + run_length(places, r, n) for r in range(ROWS))
        left = places[src - 1] if src % n else None
        return 1, -rules.cards_left(after), frees, left is None or value(left) < n

    def read_deal(self, deal: Any, variant: dict) -> Deal:
        """A Deal (a seeded one, or a PySolFC number's, carries its generator for the redeals),
        pack-order text or card list, or a layout: four lines of `ranks` places, `--` a gap."""
        deal = deal_text(deal)
        ranks = variant.get("ranks", 13)
        if isinstance(deal, str) and looks_like_layout(deal):
            return read_layout(deal, ranks, variant.get("redeals", 0))
        deal = as_deal(deal)
        if ranks < 13 and deal.origin is not None and deal.origin[0] == "seed":
            # A seeded deal of fewer ranks shuffles those cards alone (docs/montana.md): the deal read
            # is them in that order, then the others, so that its text deals the same game.
            cards = dealt(deal, ranks)
            rest = [c for c in range(52) if c not in set(cards)]
            return Deal(cards + rest).made_by(deal.origin)
        return deal

    def pysolfc_note(self, variant: dict) -> Optional[str]:
        ranks = variant.get("ranks", 13)
        if ranks == 13:
            return None
        top = "A23456789TJQ"[ranks - 1]
        return (f"  ranks={ranks}: the game of the cards A to {top} of each suit, in the order "
                "PySolFC dealt them (docs/montana.md)")

    def first_try(self, deal: Deal, variant: dict, objective: str, limits: Limits,
                  certificate: bool, start: Any = None) -> Optional[CoreAnswer]:
        """The depth-first search cut at FIRST_STATES positions, then beams (BEAMS, then for the
        full pack WIDE_BEAMS; the core's `beam`; docs/montana.md, "A first try"), which win
        many deals the depth-first search is slow to, from the deal's start or the position
        `start` of a game in progress (there with the search again, cut at PROBE_STATES, after
        the first beam: "A game in progress"); a line found is replayed under the reference
        rules before it is given. A search that ends without a win is the answer
        (first_try_exact). A beam proves nothing when it fails: the depth-first search then
        runs with what is left of the limits (the tries take at most FIRST_TRY_SHARE of them).
        None with a certificate, for the score objectives, or without the compiled core."""
        core = core_module(self.core)
        if certificate or objective != "decide" or core is None:
            return None
        # the first try's searches keep the generator's order, which finds its quick wins
        spec = dict(self.core_spec(deal, variant, objective, False), order=False)
        if start is not None:
            spec["root"] = self.core_root(deal, variant, start)
        share_states = int(limits.max_states * FIRST_TRY_SHARE) if limits.max_states else 0
        share_seconds = limits.max_seconds * FIRST_TRY_SHARE if limits.max_seconds else 0.0
        in_progress = self.in_progress(deal, start)
        # The first search and the beams keep positions apart (MODE_PLACES, single moves): its
        # order of trial finds the quick wins. The search again in a game in progress, whose
        # positions are mostly lost, and the search after the first try prove blocks, in
        # MODE_GROUPS (docs/montana.md, "A first try").
        plain = dict(spec, mode=core.MODE_PLACES)
        steps: list = [("search", FIRST_STATES, plain), ("beam", 0, plain)]
        steps += [("search", PROBE_STATES, spec)] if in_progress and PROBE_STATES else []
        beams = BEAMS + (WIDE_BEAMS if spec["ranks"] == 13 else ())
        # the wide beams keep groups (MODE_GROUPS), the narrow ones positions
        groups = dict(spec, mode=core.MODE_GROUPS)
        steps += [("beam", t, plain if t < len(BEAMS) else groups) for t in range(1, len(beams))]
        states, seconds, path, tried, line_spec = 0, 0.0, None, "nothing", plain
        for kind, t, run_spec in steps:
            if kind == "search":
                most = t
            else:
                most = beams[t][0] * (BEAM_ROUNDS if t < len(BEAMS) else WIDE_ROUNDS)
            if share_states:
                most = min(most, share_states - states)
            left = share_seconds - seconds if share_seconds else 0.0
            if most <= 0 or (share_seconds and left <= 0):
                break
            if kind == "search":
                run = core.solve(run_spec, objective, limits._replace(
                    max_states=most, max_seconds=left), False)
                states += run.stats.get("states", 0)
                seconds += run.stats.get("seconds", 0.0)
                tried = f"the search to {most:,} positions: {run.status}"
                if run.status == "won":
                    path, line_spec = run.path, run_spec
                elif run.status == "exhausted":
                    # The whole search, without a win: the answer (first_try_exact).
                    return CoreAnswer("exhausted", [], {
                        "states": states, "seconds": seconds, "first_try": tried,
                        "backend": "core", "search_states": run.stats.get("states", 0)},
                        start=start)
            else:
                width, weights = beams[t]
                path, n, spent = core.beam(dict(run_spec, shake=t + 1), width, most, left,
                                           limits.memory_bytes, weights)
                states += n
                seconds += spent
                tried = f"beam {width} wide: {'won' if path is not None else 'no win'}"
                line_spec = run_spec
            if path is not None:
                break
        stats = {"states": states, "seconds": seconds, "first_try": tried}
        if path is None:
            # Not a limit of the call (Game.answer would end there): the search goes on.
            return CoreAnswer("given-up", [], stats)
        rules = self.rules(variant)
        pos = rules.start(deal) if start is None else start
        moves = self.core_line(core, line_spec, deal, start, path)
        for m in moves:
            pos = rules.play(pos, m)  # a MoveError here would be a bug: never a wrong line
        if not rules.won(pos):  # pragma: no cover - the core checked the line's end
            raise AssertionError("the first try's line does not win")
        stats["backend"] = "core"
        return CoreAnswer("won", moves, stats, start=start)

    # -- the core ---------------------------------------------------------------------------------
    core = "games.montana._core"
    picture = "rows-of-places"

    def core_line(self, core: Any, spec: dict, deal: Deal, start: Any, path: list) -> list[Move]:
        """The moves of the core's line. Under MODE_GROUPS (the default search) a position stands
        for its group, the arrangements of the first column's Twos and gaps (docs/montana.md,
        "Groups of first-column arrangements"), and a move may need the Twos arranged first: a
        Three coded with a row goes behind its Two put in that row's first place; a Two that
        fills the column's last gap comes with the order of the other Twos (in the Aces' bits).
        Those arrangements are played here as moves of Twos between first places."""
        if spec.get("mode", core.MODE_GROUPS) != core.MODE_GROUPS:
            return from_codes(path)
        rules = MontanaRules(spec.get("ranks", 13), spec.get("redeals", 0))
        pos = rules.start(deal) if start is None else start
        out: list[Move] = []
        for code in path:
            for m in _group_line(rules, pos, code):
                pos = rules.play(pos, m)  # a MoveError here would be a bug: never a wrong line
                out.append(m)
        return out

    def core_spec(self, deal: Deal, variant: dict, objective: str, certificate: bool) -> dict:
        ranks, redeals = variant.get("ranks", 13), variant.get("redeals", 0)
        spec = {"cards": dealt(deal, ranks), "ranks": ranks, "redeals": redeals}
        core = core_module(self.core)
        if certificate and core is not None:
            # the search a certificate needs, named so that core_line reads its moves as such
            spec["mode"] = core.MODE_ALL
        elif ranks == 13:
            # the full pack's search tries the best child first (docs/montana.md, "The search
            # after the first try")
            spec["order"] = True
        if redeals:
            self.rules(variant).start(deal)  # the DealError of a deal without its generator
            spec["rng"] = rng_spec(deal.origin, ranks)
        return spec

    def core_position(self, pos: MontanaPosition, variant: dict) -> tuple[int, int]:
        x = 0
        for p, c in enumerate(pos.places):
            if c is not None:
                x |= (c + 1) << (PLACE_BITS * p)
        if variant.get("redeals", 0):
            aux = len(pos.lengths)
            for i, k in enumerate(pos.lengths):
                aux |= k << (USED_BITS + PLACE_BITS * i)
            x |= aux << (64 * place_words(len(pos.places)))
        return x, 0

    def certificate_key(self, removed: int, aux: int, variant: dict) -> tuple:
        n = ROWS * variant.get("ranks", 13)
        mask = (1 << PLACE_BITS) - 1
        places = tuple((removed >> (PLACE_BITS * p) & mask) - 1 for p in range(n))
        lengths: tuple = ()
        if variant.get("redeals", 0):
            word = removed >> (64 * place_words(n))
            lengths = tuple(word >> (USED_BITS + PLACE_BITS * i) & mask
                            for i in range(word & ((1 << USED_BITS) - 1)))
        return tuple(None if c < 0 else c for c in places), lengths


def _nth_order(k: int, m: int) -> list[int]:
    """The k-th (0 <= k < m!) ordering of 0..m-1, as the core's nth_order."""
    pool, out = list(range(m)), []
    for i in range(m):
        j, k = divmod(k, math.factorial(m - 1 - i))
        out.append(pool.pop(j))
    return out


def _group_line(rules: MontanaRules, pos: MontanaPosition, code: int) -> list[Move]:
    """The moves that play the core's move word `code` at `pos` (Montana.core_line)."""
    card_bits = code & CARD_BITS & ~ACE_BITS
    row = (code & PILE_FIELD) >> PILE_SHIFT
    n = rules.ranks
    places = pos.places
    if not row or rules.redeals and len(pos.lengths) < rules.redeals:
        return from_codes([code])
    card = card_bits.bit_length() - 1
    r = row - 1
    first = [places[x * n] for x in range(ROWS)]
    gaps = [x for x in range(ROWS) if first[x] is None]
    moves: list[Move] = []

    def two_to(two: int, x: int) -> None:
        # the Two `two` (in a first place) into row x's first place, via a gap of the column
        if first[x] == two:
            return
        if first[x] is not None:
            other = next(y for y in range(ROWS) if first[y] is None)
            moves.append(Move.to_pile(first[x], other + 1))
            first[other], first[x] = first[x], None
        moves.append(Move.to_pile(two, x + 1))
        first[first.index(two)], first[x] = None, two

    if value(card) != 2:
        # a Three behind its Two, put first in row r's first place
        two_to(card - 1, r)
        moves.append(Move(cards=(card,)))
        return moves
    if len(gaps) > 1:
        # any gap of the column leads to the same group
        if first[r] is not None:
            r = gaps[0]
        return [Move.to_pile(card, r + 1)]
    # the Two fills the column's last gap in row r, the other Twos in the order the code names
    rows = [x for x in range(ROWS) if first[x] is None or value(first[x]) == 2]
    twos = sorted(first[x] for x in rows if first[x] is not None)
    k = (code & 1) | (code >> 13 & 1) << 1 | (code >> 26 & 1) << 2
    others = [x for x in rows if x != r]
    want = {x: twos[i] for x, i in zip(others, _nth_order(k, len(twos)))}
    while any(first[x] != want[x] for x in others):
        gap = first.index(None)
        if gap != r:
            two_to(want[gap], gap)
        else:
            two_to(next(first[x] for x in others if first[x] != want[x]), r)
    moves.append(Move.to_pile(card, r + 1))
    return moves


#: The games this folder serves (the registry reads it: games/__init__.py).
GAMES = (Montana(),)
