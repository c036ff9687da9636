"""Calculation (Broken Intervals): the whole stock's order is known, so a deal is decided by an
exhaustive search; a block is proved by that search, with a certificate on request
(docs/calculation.md)."""

from __future__ import annotations

import time
from typing import Any, Optional

from ...cards import value
from ...deal import Deal, as_deal, deal_text
from ...engine.backend import core_module
from ...engine.contract import Limits
from ...moves import Move
from ...result import BlockProof, counted
from ..base import CoreAnswer, Game, Option, PySolFCGame, all_explored
from .rules import (
    FOUNDATIONS,
    CalculationLayout,
    CalculationPosition,
    CalculationRules,
    layout_of,
    looks_like_layout,
    need,
    pack,
    parse_layout,
    relaxed_block,
    relaxed_block_sentence,
    value_block,
    value_block_sentence,
)


class Calculation(Game):
    name = "calculation"
    aliases = ("broken-intervals",)
    summary = ("four foundations built by ones, twos, threes and fours regardless of suit; the "
               "stock's cards go onto them or onto four piles; win with all 52 on the foundations")
    options = {
        "start": Option("first", ("first", "last"), doc=(
            "which card of each value 1..4 starts F1..F4: the first in pack order (the classic "
            "rules) or the last (PySolFC's choice)")),
    }
    presets = {"calculation-pysolfc": {"start": "last"}}
    #: Small searches rarely prove its lost positions lost but often win its won ones: guided
    #: lines play a move they left unproved 1 time in 50 where some are proved winnable
    #: (docs/difficulty.md, "Rare wins").
    guided_unproved = 0.02
    first_try_exact = True
    pysolfc = (PySolFCGame(256, "Calculation", preset="calculation-pysolfc", rows=(4,), waste=1),)
    docs = "calculation.md"
    tests = "test_calculation.py"
    picture = "foundations-and-piles"
    core = "games.calculation._core"

    def rules(self, variant: dict) -> CalculationRules:
        return CalculationRules(last=variant.get("start") == "last")

    layout_note = ("a layout is read as it is given, a game in progress too: F1..F4 each from its "
                   "start card up, P1..P4 each from its bottom card, the stock from its next card")

    def greedy_score(self, rules: Any, pos: Any, move: Move, after: Any) -> tuple[int, int]:
        """The player's rule of thumb (docs/difficulty.md): a card onto a foundation whenever
        one takes it; else the stock's card onto a pile whose top is needed after it, the
        tightest such fit first (the piles stay in descending need); else onto an empty
        pile; else onto the pile whose top is needed latest."""
        if move.place == "F":
            return 3, 0
        c = move.cards[0]
        pile = pos.piles[move.pile - 1]
        if not pile:
            return 1, 0
        top, mine = need(pos, pile[-1]), need(pos, c)
        if top >= mine:
            return 2, mine - top
        return 0, top

    def read_deal(self, deal: Any, variant: dict) -> Deal:
        """A Deal, pack-order text or card list, or the layout text (docs/calculation.md): lines
        F1..F4 (each from its start card up), P1..P4 (each from its bottom card) and `stock`
        (next card first), at the deal's start or later in a game (a CalculationLayout)."""
        deal = deal_text(deal)
        if isinstance(deal, str) and looks_like_layout(deal):
            return parse_layout(deal, last=variant.get("start") == "last")
        return as_deal(deal)

    # -- PySolFC ----------------------------------------------------------------------------------
    def pysolfc_order(self, rng: Any, cards: list[int]) -> list[int]:
        # PySolFC's shuffle hook (pysollib/games/calculation.py, _shuffleHook): of each value
        # 1..4 the card nearest the list's start, which its talon would deal last, goes to the
        # talon's top, to be dealt first onto F1..F4.
        top: dict[int, int] = {}
        rest = []
        for c in cards:
            v = value(c)
            if v <= FOUNDATIONS and v not in top:
                top[v] = c
            else:
                rest.append(c)
        return [top[v] for v in range(1, FOUNDATIONS + 1)] + rest[::-1]

    def pysolfc_deal(self, order: list[int]) -> Any:
        # The four start cards after the other 48: each is then the last of its value in the
        # pack, as PySolFC chose it, and the preset calculation-pysolfc (start=last) lays out
        # PySolFC's layout, the stock in its talon's order.
        return Deal(order[FOUNDATIONS:] + order[:FOUNDATIONS])

    # -- the core ---------------------------------------------------------------------------------
    def _stock(self, deal: Deal, variant: dict) -> tuple[int, ...]:
        if isinstance(deal, CalculationLayout):
            return deal.position.dealt + deal.position.stock
        return layout_of(deal.cards, variant.get("start") == "last")[1]

    #: Rule 5 (docs/calculation.md) runs where at least RELAX stock cards are left (0: off).
    RELAX = 4

    def core_spec(self, deal: Deal, variant: dict, objective: str, certificate: bool) -> dict:
        spec: dict = {"stock": list(self._stock(deal, variant)), "relax": self.RELAX}
        if isinstance(deal, CalculationLayout):
            # A game in progress: the search starts from the layout's position (a search from a
            # position `after` moves sets its own root, core_solve).
            spec["root"] = pack(deal.position)
        return spec

    #: The first try (Game.first_try), in this order: a search in the main order cut at
    #: FIRST_STATES positions (FIRST_STATES_IN_PROGRESS in a game in progress, more often lost,
    #: where a small search decided whole saves the other tries); RESTARTS_FIRST short searches
    #: in varied orders, each cut at RESTART_STATES positions; the first beam (BEAMS: width,
    #: beam_pen, beam_gap: the core's beam()); NOISY_FIRST noisy beams (NOISY: width, beam_pen,
    #: beam_gap, beam_noise; each with its own pseudo-random term in the score, the core's
    #: beam_noise seeded by the beam's number); the other beams; the other restarts, up to
    #: RESTARTS; the other noisy beams, up to NOISY_BEAMS; WIDE_BEAMS more of the setting WIDE.
    #: Then the main search.
    FIRST_STATES = 10_000
    FIRST_STATES_IN_PROGRESS = 40_000
    #: In a game in progress (a position after moves, or a typed layout), the search in its
    #: main order again, cut at PROBE_STATES, after the first noisy beams and the 512-wide
    #: beam: such a position is often lost, which only the exhaustive search shows, or won
    #: within its reach.
    PROBE_STATES = 500_000
    RESTARTS = 8000
    RESTART_STATES = 125
    RESTARTS_FIRST = 16
    NOISY_FIRST = 8
    BEAMS: tuple[tuple[int, int, int], ...] = ((64, 8, 0), (512, 4, 1))
    NOISY: tuple[int, int, int, int] = (128, 1, 1, 32)
    NOISY_BEAMS = 280
    WIDE: tuple[int, int, int, int] = (1024, 1, 1, 64)
    WIDE_BEAMS = 100

    def in_progress(self, deal: Deal, start: Any) -> bool:
        return start is not None or isinstance(deal, CalculationLayout)

    def first_try(self, deal: Deal, variant: dict, objective: str, limits: Limits,
                  certificate: bool, start: Any = None) -> Optional[CoreAnswer]:
        """Tries that may win before the main search (docs/calculation.md, "Order, the beam and
        restarts"): the same exact search in its main order, cut at FIRST_STATES positions (in
        a game in progress at FIRST_STATES_IN_PROGRESS: it decides small searches whole, e.g.
        late in a game); short restarts of it in varied
        orders of the piles (spec "loose" and "shake"), each cut soon after its first line
        reaches the end of the stock; and the beams (the core's beam(): the stock turned one
        card at a time, the best positions kept after each). A depth-first search revises its
        last choices first, and one that went wrong early is better started again. A win is a
        win; when every try ends without one, the status is "given-up" and the main search goes
        on with the limits left (Game.answer). None without the core or with a certificate."""
        core = core_module(self.core) if self.core else None
        if core is None or certificate or objective != "decide":
            return None
        # One memo of rule 5 (docs/calculation.md) for every try: what a try learnt about the
        # relaxed game serves the next. Its share of the memory is taken off each try's.
        share = core.RelaxMemo.share(limits.memory_bytes) if self.RELAX else 0
        base = dict(self.core_spec(deal, variant, objective, False), memo=core.RelaxMemo(share))
        if start is not None:
            base["root"] = self.core_root(deal, variant, start)
        # The beams and the first noisy beams come before most restarts: a restart's position
        # costs many times a beam's (rule 5's relaxed searches), and those beams win the deals
        # that took the most restarts in a fraction of the time; a few restarts first, and the
        # others before the other noisy beams, keep the deals the restarts win. The 512-wide
        # beam costs about what four noisy ones do and wins fewer deals than the first eight,
        # so it comes after them (docs/calculation.md, "Order, the beam and restarts").
        first = min(self.RESTARTS_FIRST, self.RESTARTS)
        noisy = min(self.NOISY_FIRST, self.NOISY_BEAMS)
        in_progress = self.in_progress(deal, start)
        quick = self.FIRST_STATES_IN_PROGRESS if in_progress else self.FIRST_STATES
        tries = ([("first", quick)] if quick else []) \
            + [("search", t) for t in range(first)] \
            + ([("beam", 0)] if self.BEAMS else []) \
            + [("noisy", k) for k in range(noisy)] \
            + [("beam", k) for k in range(1, len(self.BEAMS))] \
            + ([("first", self.PROBE_STATES)] if in_progress and self.PROBE_STATES else []) \
            + [("search", t) for t in range(first, self.RESTARTS)] \
            + [("noisy", k) for k in range(noisy, self.NOISY_BEAMS + self.WIDE_BEAMS)]
        states, seconds, status, own = 0, 0.0, "given-up", 0
        stats: dict = {"states": 0, "seconds": 0.0, "first_try": "none"}
        for kind, t in tries:
            spent = limits.used_up({"states": states, "seconds": seconds})
            if spent:
                # A restart is too short to look at the clock (the engine does every 4,096
                # positions): the time is checked here, between the tries.
                status = spent
                break
            left = limits.less({"states": states, "seconds": seconds})
            left = left._replace(memory_bytes=left.memory_bytes - share)
            if kind in ("beam", "noisy"):
                width, pen, gap, noise = (self.BEAMS[t] + (0,) if kind == "beam" else
                                          self.NOISY if t < self.NOISY_BEAMS else self.WIDE)
                t0 = time.monotonic()
                status, path, n = core.beam(dict(base, beam_pen=pen, beam_gap=gap,
                                                 beam_noise=noise,
                                                 shake=t + 1 if noise else 0), width, left)
                states += n
                seconds += time.monotonic() - t0
                stats = {"states": states, "seconds": seconds,
                         "first_try": f"beam {width} wide" + (f" (noisy {t + 1} of "
                                      f"{self.NOISY_BEAMS + self.WIDE_BEAMS})"
                                      if kind == "noisy" else "")
                         + f": {status}"}
                if status == "limit-memory":
                    status = "given-up"  # the beam did not fit: the searches may
            else:
                most = t if kind == "first" else self.RESTART_STATES
                budget = min(most, left.max_states or most)
                order = 0 if kind == "first" else t
                run = core.solve(dict(base, loose=order % 4, shake=0 if order < 4 else order),
                                 objective, left._replace(max_states=budget), False)
                states += run.stats.get("states", 0)
                seconds += run.stats.get("seconds", 0.0)
                status, path = run.status, run.path
                own = run.stats.get("states", 0)
                stats = dict(run.stats, states=states, seconds=seconds,
                             first_try=(f"restart {t + 1} of {self.RESTARTS}" if kind == "search"
                                        else f"the search to {budget:,} positions")
                             + f": {status}")
                if status == "limit-states" and budget == most:
                    status = "given-up"  # its own cut, not the call's limit
            if status == "won":
                return CoreAnswer("won", self.core_line(core, base, deal, start, path),
                                  dict(stats, backend="core"), start=start)
            if status != "given-up":
                # "exhausted": the search ended without a win, the answer (first_try_exact);
                # else the call's own limit
                break
        if status == "exhausted":
            # the exact search's answer (first_try_exact); its proof counts that search's own
            stats.update(backend="core", search_states=own)
        return CoreAnswer(status, [], stats, start=start)

    # -- proofs -----------------------------------------------------------------------------------
    def structural_proof(self, deal: Deal, variant: dict) -> Optional[BlockProof]:
        """A typed layout in progress that rules 3 or 4 see lost (value_block), else one lost
        even with the stock set free (rule 5, relaxed_block); None for a deal at its start, whose
        piles are empty (docs/calculation.md, "Proofs of a block")."""
        if not isinstance(deal, CalculationLayout):
            return None
        rules = self.rules(variant)
        pos = rules.start(deal)
        details = value_block(pos)
        if details is not None:
            sentence = value_block_sentence(details)
        elif pos.stock and self._relaxed_won_in_core(deal, variant, pos):
            return None  # the core's rule 5 sees a win there: no search in Python for one
        else:
            details = relaxed_block(pos)
            if details is None:
                return None
            sentence = relaxed_block_sentence(details)
        return BlockProof(kind="structural", sentence=sentence, position=rules.render(pos),
                          details=details)

    def _relaxed_won_in_core(self, deal: Deal, variant: dict, pos: CalculationPosition) -> bool:
        """Whether the core's dead() (rules 3 to 5) does not call the layout lost: then no
        search in Python looks for a structural proof. True also where the core's relaxed
        search passes its limit (the exhaustive proof then stands); False without the core."""
        core = core_module(self.core) if self.core else None
        if core is None:
            return False
        stock = self.core_spec(deal, variant, "decide", False)["stock"]
        return not core.is_dead(stock, *pack(pos), relax=True)

    def check_structural(self, deal: Deal, variant: dict, proof: BlockProof) -> None:
        # The claim is re-derived from the position the reference rules start from; the text
        # must be the sentence of that claim, so neither can be tampered with alone.
        pos = self.rules(variant).start(deal)
        claimed = dict(proof.details or {})
        if claimed.get("relaxed"):
            found, say = relaxed_block(pos), relaxed_block_sentence
            why = "the layout is not lost with the stock set free as claimed"
        else:
            found, say = value_block(pos), value_block_sentence
            why = (f"the layout's cards of {claimed.get('value', 'that value')} "
                   "are not blocked as claimed")
        wrong = None if found is not None and found == claimed else why
        self.claim_holds(proof, wrong, say(found) if found else "")

    def block_proof(self, deal: Deal, variant: dict, answer: CoreAnswer) -> BlockProof:
        states = answer.stats.get("states", 0)
        if answer.certificate is not None or answer.stats.get("backend") == "reference":
            sentence = all_explored(states) + " and none is won"
        else:
            sentence = (f"no line of play wins: an exhaustive search explored "
                        f"{counted(states, 'position')}, skipping only lines that exact rules "
                        "show cannot win (docs/calculation.md)")
        return BlockProof(kind="exhaustive", sentence=sentence, states=states,
                          certificate=answer.certificate)


#: The games this folder serves (the registry reads it: games/__init__.py).
GAMES = (Calculation(),)
