"""What a game plugs into the library: names, variants, reference rules, its core, its proofs."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Optional, Protocol, Sequence

from ..deal import Deal, as_deal
from ..engine.backend import core_module
from ..engine.contract import Limits
from ..engine.search import reference_search
from ..errors import LayoutError, SolitaireError, VariantError, VerificationError, quoted
from ..moves import Move, from_codes
from ..proofs import check_exhaustive
from ..result import BlockProof, Result, Status, Verification, counted, make_result
from .rules import Rules


def all_explored(states: int) -> str:
    """The sentence of an exhaustive proof that explored every reachable position."""
    if states == 1:
        return "no line of play wins: the only reachable position was explored"
    return f"no line of play wins: all {states:,} reachable positions were explored"

@dataclass(frozen=True)
class Option:
    """A variant option: its default, the values it takes, and how to read it from text."""

    default: Any
    choices: Optional[tuple] = None        # None: any value `parse` accepts
    parse: Callable[[str], Any] = str
    doc: str = ""
    #: Values beside the default that tests try, where any value `parse` accepts is allowed.
    samples: tuple = ()

    def read(self, name: str, raw: Any) -> Any:
        value = raw
        if isinstance(raw, str) and self.parse is not str:
            try:
                value = self.parse(raw)
            except (TypeError, ValueError):
                raise VariantError(f"variant {name}: cannot read {quoted(raw)}") from None
        if isinstance(value, str) and self.choices is not None and value not in self.choices:
            # Words are read as every other option's: case and surrounding spaces do not matter.
            folded = {c.lower(): c for c in self.choices if isinstance(c, str)}
            value = folded.get(value.strip().lower(), value)
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise VariantError(f"variant {name}: {quoted(raw)} is not one of {allowed}")
        return value


def parse_bool(text: str) -> bool:
    t = text.strip().lower()
    if t in ("1", "true", "yes", "on"):
        return True
    if t in ("0", "false", "no", "off"):
        return False
    raise ValueError(text)


@dataclass(frozen=True)
class PySolFCGame:
    """One PySolFC game that one of ours plays (docs/pysolfc.md), as its plug-in declares it:
    its id and title there, the preset that plays PySolFC's rules (None: the game's defaults),
    and how PySolFC lays out the cards it deals. `rows`: the cards of each screen row, dealt
    row after row (`centred`: drawn as a pyramid), then `waste` cards to the waste, with
    `reserves` empty reserve stacks and the rest in the talon (cards of the ranks `taken_out`
    leave their places empty); or `piles`: that many piles,
    dealt round the table (`pile_size` 0) or one after another of `pile_size` cards with the
    rest to the reserves face up, each called a `pile_word`. `game`: our game's name (the
    registry fills it in)."""

    id: int
    title: str
    preset: Optional[str] = None
    rows: tuple[int, ...] = ()
    centred: bool = False
    waste: int = 0
    reserves: int = 0
    piles: int = 0
    pile_size: int = 0
    pile_word: str = "pile"
    #: Ranks PySolFC takes out of the rows as it deals (Montana's Aces, to an invisible stack):
    #: their places are shown empty.
    taken_out: str = ""
    game: str = ""


@dataclass
class CoreAnswer:
    """What a search (core or reference) found, in library terms."""

    status: str                     # "won", "exhausted", "limit-states", "limit-time", "limit-memory"
    moves: list[Move]
    stats: dict
    certificate: Optional[frozenset] = None
    score: Optional[int] = None
    #: Anything the game's block_proof() can reuse from the search (e.g. a final position).
    end: Any = None
    #: The reference position searched from, or None for the deal's start.
    start: Any = None


class BatchDecider(Protocol):
    """Decides whole chunks of deals at once, inside a core with no Python per deal, or (Clock's)
    in a loop of plain integers over the C shuffle's deals (surveys use it).

    Each call fills, at a deal's index: status (0 won, 1 blocked), cards left, moves of the line,
    and states as solve() counts them; every array is a writable buffer of bytes."""

    def decide_seeds(self, start: int, count: int, status: Any, left: Any, moves: Any,
                     states: Any) -> None: ...

    def decide_deals(self, deals: Any, status: Any, left: Any, moves: Any, states: Any) -> None:
        """deals: a (n, 52) buffer of card indexes, one full pack a row."""

    def tally(self, status: Any, left: Any, states: Any) -> tuple[int, list, list]:
        """(won, cards-left histogram of the blocked deals, states histogram)."""


class Game:
    """Base class of a game's plug-in. Subclasses set the class attributes and rules()."""

    name: str = ""
    aliases: tuple[str, ...] = ()
    summary: str = ""
    options: dict[str, Option] = {}
    #: Named presets: a name (also accepted as a game name) and the options it fixes.
    presets: dict[str, dict] = {}
    objectives: tuple[str, ...] = ("decide",)
    #: True when the outcome does not depend on the order of play, so one forced line decides
    #: the deal and proves a block (docs/proofs.md).
    order_independent: bool = False

    # -- variants -----------------------------------------------------------------------------
    def variant(self, **given: Any) -> dict:
        """All options with defaults filled in; VariantError for unknown names or bad values."""
        out = {name: opt.default for name, opt in self.options.items()}
        for name, raw in given.items():
            key = name.replace("-", "_")
            if key not in self.options:
                known = ", ".join(self.options) or "none"
                raise VariantError(f"{self.name} has no variant {quoted(name)} (variants: {known})")
            out[key] = self.options[key].read(key, raw)
        return out

    def rules(self, variant: dict) -> Rules:
        raise NotImplementedError

    # -- input ----------------------------------------------------------------------------------
    def read(self, deal: Any, variant: dict) -> Deal:
        """read_deal(), with a LayoutError saying what a layout text must be: the deal's start
        (show prints positions later in the game too, which are not read back)."""
        if isinstance(deal, str) and deal.startswith("\ufeff"):
            deal = deal[1:]  # a byte-order mark, as some editors write, is no card
        try:
            return self.read_deal(deal, variant)
        except LayoutError as e:
            raise LayoutError(f"{e} ({self.layout_note})") from None

    #: What read() adds to a LayoutError: how a layout is read (a game whose layout text may be a
    #: position in progress, Accordion's row of piles, says so instead).
    layout_note: str = ("a layout is read as the deal's start; for a position later in the game "
                        "give the start and the moves played, after= or --after")

    def read_deal(self, deal: Any, variant: dict) -> Deal:
        """A Deal from a Deal, pack-order text or a card list; games with a layout text accept it."""
        return as_deal(deal)

    # -- solving ----------------------------------------------------------------------------------
    def structural_proof(self, deal: Deal, variant: dict) -> Optional[BlockProof]:
        """A block visible before any search, or None."""
        return None

    def structural_after(self, deal: Deal, variant: dict, answer: CoreAnswer) -> Optional[BlockProof]:
        """structural_proof() once a search did not win (structural_after_search): a game whose
        core found what the proof needs (in answer.end) may build it from that."""
        return self.structural_proof(deal, variant)

    #: True when the core's decide search ends within a few positions on every deal that
    #: structural_proof blocks. solve() (decide, no certificate, with the core) then searches
    #: first and looks for the proof only when the search does not win, which is sound for any
    #: game (a deal with a win has no proof of a block) and spares an easy deal the test.
    structural_after_search: bool = False

    #: The first try's searches are the game's own exact search in other orders (no other
    #: rules), so a try that ends without a win ("exhausted") proves the block: it stands as
    #: the answer instead of the search running it again. False where a try searches another
    #: game (fifteens-pysolfc tries the classic Fifteens).
    first_try_exact: bool = False

    #: Its page in docs/ (rules, notation, proofs and choices first) and its test file in tests/:
    #: tests/test_layout.py holds every game to having both.
    docs: str = ""
    tests: str = ""

    #: The PySolFC games it plays (pysolfc.py reads them: ids, titles, presets, layouts).
    pysolfc: tuple[PySolFCGame, ...] = ()

    def pysolfc_order(self, rng: Any, cards: list[int]) -> list[int]:
        """The order PySolFC's talon deals the shuffled list in: its last card first. A game
        with a shuffle hook of its own (Nestor) applies it here, drawing from rng."""
        return cards[::-1]

    def pysolfc_deal(self, order: list[int]) -> Any:
        """Our deal of the cards in PySolFC's dealing order: the same order, where every card
        is laid out as our notation deals it."""
        return Deal(order)

    #: The shape of its pictures: a key of solitaire_solver.pictures.shapes.SHAPES ("" for none;
    #: docs/pictures.md).
    picture: str = ""

    #: The compiled core module below solitaire_solver (e.g. "games.slots._core"), or None
    #: (reference only).
    core: Optional[str] = None
    #: True when the core's move words are Move codes (Move.from_code); a core whose words mean
    #: something else (fifteens-pysolfc: classes of rows by value) turns its lines into moves in
    #: core_line.
    core_words_are_moves: bool = True

    def rating_core(self, variant: dict) -> bool:
        """True when the core's step() (contract.py) lists every legal move of this variant, so
        that a rating (rating.py) may walk the position graph with it; else the reference rules
        walk it."""
        return True

    #: Random lines a rating plays where the exact sum does not fit (rating.py; Solver.rate's
    #: playouts= overrides it): more in a game whose won deals' chances lie close together
    #: near 1/2,000, where 2,000 lines cannot tell them apart (docs/difficulty.md).
    rating_playouts: int = 2000

    #: Where a guided line's small searches (rating.py, docs/difficulty.md "Rare wins") prove
    #: some moves winnable and leave others unproved, the probability it plays one of the
    #: unproved; None: it picks uniformly among every move not proved lost. A game whose lost
    #: positions small searches rarely prove, but whose won ones they often win, sets it low,
    #: so that its guided lines do not die in the first lost position they enter.
    guided_unproved: Optional[float] = None

    def greedy_score(self, rules: Rules, pos: Any, move: Move, after: Any) -> Any:
        """How much the greedy player of docs/difficulty.md's check ("Do the tiers mean
        something?", rating.greedy_wins) likes `move` from `pos` (leading to `after`): it plays
        the legal move of the highest score, the first such in the rules' order. By default the
        move that leaves the fewest cards; a game where that cannot tell moves apart gives the
        rule of thumb a player uses (any comparable value; looking no further than `after`)."""
        return -rules.cards_left(after)

    def pysolfc_note(self, variant: dict) -> Optional[str]:
        """A line printed under PySolFC's layout of a number where the game played differs from
        the layout shown (Montana with fewer ranks plays some of its cards), else None."""
        return None

    def core_spec(self, deal: Deal, variant: dict, objective: str, certificate: bool) -> Any:
        """The core's data for this deal and variant (the keys its module docstring lists).
        VariantError for a variant the objective does not support."""
        raise NotImplementedError

    def core_solve(self, core: Any, deal: Deal, variant: dict, objective: str, limits: Limits,
                   certificate: bool, start: Any = None) -> CoreAnswer:
        """Search with the compiled core module `core` (the one contract: contract.py), from the
        deal's start or from the reference position `start`."""
        spec = self.core_spec(deal, variant, objective, certificate)
        root = self.core_root(deal, variant, start)
        if root is not None:
            spec["root"] = root
        run = core.solve(spec, objective, limits, certificate)
        status = run.status
        if objective == "score" and status == "exhausted":
            status = "won"  # the best score is proven: its line is the answer
        keys = None
        if run.certificate is not None:
            keys = self.core_certificate(run.certificate, deal, variant, objective)
        return CoreAnswer(status, self.core_line(core, spec, deal, start, run.path), run.stats,
                          keys, run.best, run.end, start)

    def core_root(self, deal: Deal, variant: dict, start: Any) -> Optional[tuple[int, int]]:
        """spec["root"] for a search from the reference position `start` (None: the deal's
        start, which the core makes from the spec itself)."""
        return None if start is None else self.core_position(start, variant)

    def reference_answer(self, deal: Deal, variant: dict, objective: str, limits: Limits,
                         certificate: bool, start: Any = None) -> CoreAnswer:
        """The pure-Python answer: the reference search over the reference rules."""
        if objective != "decide":
            raise SolitaireError(f"the pure-Python fallback has no objective {quoted(objective)}")
        rules = self.rules(variant)
        out = reference_search(rules, rules.start(deal) if start is None else start,
                               limits.max_states, limits.max_seconds, keep_explored=certificate,
                               memory_bytes=limits.memory_bytes)
        stats = {"states": out.states, "seconds": out.seconds, "backend": "reference"}
        cert = frozenset(out.explored) if out.explored is not None else None
        return CoreAnswer(out.status, out.moves, stats, cert, start=start)

    def answer(self, core: Any, deal: Deal, variant: dict, objective: str, limits: Limits,
               certificate: bool, after: tuple[Move, ...] = (), start: Any = None) -> Result:
        """The Result of a deal (or of the reference position `start` that the moves `after`
        reach), searched with the compiled module `core` or, where it is None, the reference
        search: the steps every game takes, in order, with the hooks a game overrides."""
        # A score objective answers with a best line even when the deal cannot be won. A deal
        # that no line wins from its start is lost from every position it reaches, so a
        # structural proof of the deal holds mid-game too. A game whose core stops at once
        # where that proof applies looks for it only after a search that did not win.
        late = (self.structural_after_search and objective == "decide" and not certificate
                and core is not None and not after)
        proof = self.structural_proof(deal, variant) if objective != "score" and not late else None
        if proof is not None:
            return self.structural_result(proof, variant, objective, after)
        # In a game in progress a limit of positions goes to the search alone, as before
        # 2026-12-07: such a position is often lost, which only that search proves, and a
        # caller that bounds the positions (rating's critical positions, --max-states) gets
        # the most positions decided for them (docs/architecture.md).
        tries = not (self.in_progress(deal, start) and limits.max_states)
        first = self.first_try(deal, variant, objective, limits, certificate, start) if tries else None
        if first is not None and (first.status == "won" or (first.status == "exhausted"
                                                           and self.first_try_exact)):
            ans = first
        elif first is not None and (spent := limits.used_up(first.stats) or (
                first.status if first.status in ("limit-states", "limit-time") else None)):
            # A first try runs under the call's own limits: one it used up leaves nothing for
            # the game's search (which, given the least it can run under, went past them).
            ans = CoreAnswer(spent, [], first.stats)
        else:
            left = limits if first is None else limits.less(first.stats)
            if core is not None:
                ans = self.core_solve(core, deal, variant, objective, left, certificate, start)
                ans.stats["backend"] = "core"
            else:
                ans = self.reference_answer(deal, variant, objective, left, certificate, start)
            if first is not None:
                # The answer's positions and time are the whole call's: the first try's too.
                # A proof of a block counts the exhaustive search's own (search_states).
                ans.stats["search_states"] = ans.stats.get("states", 0)
                for key in ("states", "seconds"):
                    ans.stats[key] = ans.stats.get(key, 0) + first.stats.get(key, 0)
                ans.stats["first_try"] = first.stats["first_try"]
        if late and ans.status != "won":
            proof = self.structural_after(deal, variant, ans)
            if proof is not None:
                return self.structural_result(proof, variant, objective, after)
        return self.result_of(deal, variant, objective, limits, ans, after)

    def result_of(self, deal: Deal, variant: dict, objective: str, limits: Limits,
                  ans: CoreAnswer, after: tuple[Move, ...] = ()) -> Result:
        """The Result of a search's answer: WON with its line, BLOCKED with its proof, or
        UNKNOWN naming the limit reached."""
        if ans.status == "won":
            best = None
            if objective == "score" and ans.certificate is not None:
                best = BlockProof(
                    kind="best-score", states=len(ans.certificate), certificate=ans.certificate,
                    sentence=f"no line scores more than {ans.score}: the certificate holds the "
                             f"{counted(len(ans.certificate), 'position')} such a line could "
                             "pass through")
            return make_result(self.name, Status.WON, moves=tuple(ans.moves), stats=ans.stats,
                               variant=variant, objective=objective, score=ans.score, proof=best,
                               after=after)
        if ans.status == "exhausted":
            searched = ans.stats.get("search_states")
            proved = ans if searched is None else replace(
                ans, stats=dict(ans.stats, states=searched))
            return make_result(self.name, Status.BLOCKED,
                               proof=self.block_proof(deal, variant, proved), stats=ans.stats,
                               variant=variant, objective=objective, score=ans.score, after=after)
        return make_result(self.name, Status.UNKNOWN, stats=ans.stats, variant=variant,
                           objective=objective, reason=limits.reason(ans.status), after=after)

    def structural_result(self, proof: BlockProof, variant: dict, objective: str,
                          after: tuple[Move, ...] = ()) -> Result:
        """The answer of a structural proof: no search is needed for it (states 0)."""
        return make_result(self.name, Status.BLOCKED, proof=proof, stats={"states": 0},
                           variant=variant, objective=objective, after=after)

    def in_progress(self, deal: Deal, start: Any) -> bool:
        """Whether the search starts from a game in progress: a position after moves (`start`),
        or a game whose typed layout can show one (Calculation's)."""
        return start is not None

    def first_try(self, deal: Deal, variant: dict, objective: str, limits: Limits,
                  certificate: bool, start: Any = None) -> Optional[CoreAnswer]:
        """A quick search from the deal's start (or from the reference position `start`, a game
        in progress) that may win before the game's own search, on either backend: a CoreAnswer
        (won, or not with stats["states"] and stats["seconds"] spent and stats["first_try"]
        saying what was tried), or None for none."""
        return None

    def restarts(self, deal: Deal, variant: dict, objective: str, limits: Limits,
                 certificate: bool, tries: Sequence[tuple[dict, int]],
                 start: Any = None) -> Optional[CoreAnswer]:
        """A first try (first_try) of restarts: the core's same exact search run again in other
        orders of trial, each try the spec keys that set its order and its budget of positions.
        How soon a depth-first search wins hangs on the order it tries first, and one lost in a
        hopeless corner is better restarted than left there. A win is a win; a try that ends
        without one was the whole search (status "exhausted": the main search will show it
        too); when every try is cut, the status is "given-up" and the main search goes on with
        the limits left (answer). None without the core, with a certificate, or for another
        objective than decide."""
        core = core_module(self.core) if self.core else None
        if core is None or certificate or objective != "decide":
            return None
        base = self.core_spec(deal, variant, objective, False)
        root = self.core_root(deal, variant, start)
        if root is not None:
            base["root"] = root
        states, seconds = 0, 0.0
        status, stats = "given-up", {}
        for t, (keys, each) in enumerate(tries):
            left = limits.less({"states": states, "seconds": seconds})
            budget = min(each, left.max_states or each)
            run = core.solve(dict(base, **keys), objective, left._replace(max_states=budget),
                             False)
            states += run.stats.get("states", 0)
            seconds += run.stats.get("seconds", 0.0)
            stats = dict(run.stats, states=states, seconds=seconds,
                         first_try=f"restart {t + 1} of {len(tries)}: {run.status}")
            if run.status == "won":
                stats["backend"] = "core"
                return CoreAnswer("won", self.core_line(core, base, deal, start, run.path), stats,
                                  start=start)
            if run.status == "exhausted":
                # the whole search in another order: with first_try_exact the answer, whose
                # proof counts this search's positions
                status = "exhausted"
                stats.update(backend="core", search_states=run.stats.get("states", 0))
                break
            if run.status != "limit-states" or budget < each:
                status = run.status  # the call's own limit
                break
        return CoreAnswer(status, [], stats, start=start)

    def core_line(self, core: Any, spec: dict, deal: Deal, start: Any, path: list) -> list[Move]:
        """The moves of a line of the core's words played from the reference position `start`
        (None: the deal's start)."""
        return from_codes(path)

    def core_position(self, pos: Any, variant: dict) -> tuple[int, int]:
        """The core's packed position (removed, aux) of a reference position: spec["root"] for a
        search from mid-game. The inverse of certificate_key where the keys are the same."""
        key = self.rules(variant).key(pos)
        return key if isinstance(key, tuple) else (key, 0)

    def certificate_key(self, removed: int, aux: int, variant: dict) -> Any:
        """The reference rules' key of a core position (certificates are given in those keys)."""
        return (removed, aux)

    def core_certificate(self, cert: list, deal: Deal, variant: dict,
                         objective: str) -> frozenset:
        """A core's certificate, its (removed, aux) positions, in the reference rules' keys
        (certificate_key); a game whose score objective gives one extends this."""
        return frozenset(self.certificate_key(r, a, variant) for r, a in cert)

    def block_proof(self, deal: Deal, variant: dict, answer: CoreAnswer) -> BlockProof:
        """The proof of a block after a search found no win."""
        states = answer.stats.get("states", 0)
        if answer.certificate is not None or answer.stats.get("backend") == "reference":
            sentence = all_explored(states)
        else:
            # The core's pruning rules skip positions that cannot matter; each is argued exact.
            sentence = (f"no line of play wins: a search of {counted(states, 'position')} found "
                        f"none (its pruning rules are exact, docs/{self.docs})")
        return BlockProof(
            kind="exhaustive",
            sentence=sentence,
            states=states,
            certificate=answer.certificate,
        )

    def check_proof(self, deal: Deal, variant: dict, proof: BlockProof,
                    max_states: Optional[int], start: Any = None,
                    max_seconds: Optional[float] = None, memory_bytes: int = 0) -> Verification:
        """Check a proof of a block with the reference rules alone (VerificationError when it
        does not hold), for the deal's start or the reference position `start` reached from it
        (a structural proof of the deal holds for every position it reaches). max_states,
        max_seconds and memory_bytes bound a re-search (0 or None: no bound). Games with proof
        kinds of their own extend this."""
        if proof.kind == "exhaustive":
            rules = self.rules(variant)
            return check_exhaustive(rules, rules.start(deal) if start is None else start, proof,
                                    max_states, max_seconds, memory_bytes)
        if proof.kind == "structural":
            self.check_structural(deal, variant, proof)
            return Verification(True, "the structural proof holds")
        raise VerificationError(f"{self.name} has no proofs of kind {quoted(proof.kind)}")

    def check_structural(self, deal: Deal, variant: dict, proof: BlockProof) -> None:
        """Raise VerificationError unless the structural proof holds under the reference rules."""
        raise VerificationError(f"{self.name} has no structural proofs")

    @staticmethod
    def claim_holds(proof: BlockProof, wrong: Optional[str], sentence: str) -> None:
        """For check_structural: raise VerificationError unless the claim re-derived under the
        reference rules holds (wrong None, else why not) and the proof's sentence is that
        claim's, so that neither can be tampered with alone."""
        if wrong is not None:
            raise VerificationError(f"the structural proof does not hold: {wrong}")
        if proof.sentence != sentence:
            raise VerificationError("the structural proof's sentence does not state its claim")

    # -- surveys ----------------------------------------------------------------------------------
    def batch(self, variant: dict) -> Optional[BatchDecider]:
        """The core's batch decider for this variant, or None: then surveys solve() each deal."""
        return None

    def score(self, deal: Deal, variant: dict, moves: list[Move]) -> Optional[int]:
        """The score of a line of play, for games with the `score` objective."""
        return None
