"""What a game plugs into the library: names, variants, reference rules, its core, its proofs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Protocol

from ..contract import Limits
from ..deal import Deal, as_deal
from ..errors import LayoutError, VariantError, VerificationError
from ..moves import Move, from_codes
from ..proofs import check_exhaustive
from ..result import BlockProof, Verification
from ..rules.base import Rules


@dataclass(frozen=True)
class Option:
    """A variant option: its default, the values it takes, and how to read it from text."""

    default: Any
    choices: Optional[tuple] = None        # None: any value `parse` accepts
    parse: Callable[[str], Any] = str
    doc: str = ""

    def read(self, name: str, raw: Any) -> Any:
        value = raw
        if isinstance(raw, str) and self.parse is not str:
            try:
                value = self.parse(raw)
            except (TypeError, ValueError):
                raise VariantError(f"variant {name}: cannot read {raw!r}") from None
        if isinstance(value, str) and self.choices is not None and value not in self.choices:
            # Words are read as every other option's: case and surrounding spaces do not matter.
            folded = {c.lower(): c for c in self.choices if isinstance(c, str)}
            value = folded.get(value.strip().lower(), value)
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise VariantError(f"variant {name}: {raw!r} is not one of {allowed}")
        return value


def parse_bool(text: str) -> bool:
    t = text.strip().lower()
    if t in ("1", "true", "yes", "on"):
        return True
    if t in ("0", "false", "no", "off"):
        return False
    raise ValueError(text)


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
    """Decides whole chunks of deals inside the core, with no Python per deal (surveys use it).

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
                raise VariantError(f"{self.name} has no variant {name!r} (variants: {known})")
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
            raise LayoutError(f"{e} (a layout is read as the deal's start; for a position later "
                              "in the game give the start and the moves played, after= or "
                              "--after)") from None

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

    def later_proof(self, deal: Deal, variant: dict,
                    end: Any) -> Optional[Callable[[], BlockProof]]:
        """For solve()'s quick path (quick_decide), once the core's decide search did not win:
        when its end shows that structural_after() gives a proof, a function of no arguments
        that makes it; else None. The quick path calls it when the Result's proof is first
        read, where the core's QUICK_DECIDE said that end shows such a proof (contract.py;
        tests/test_pyramid.py holds the two equal); elsewhere the proof is looked for at once."""
        return None

    #: True when the core's decide search ends within a few positions on every deal that
    #: structural_proof blocks. solve() (decide, no certificate, with the core) then searches
    #: first and looks for the proof only when the search does not win, which is sound for any
    #: game (a deal with a win has no proof of a block) and spares an easy deal the test.
    structural_after_search: bool = False

    #: True when solve(name, text) with every default is answered as _solve would, by one
    #: search of the core from the deal the C reader makes of a pack-order text, then the
    #: structural proof if it did not win: the game has structural_after_search, no
    #: first_try, reads such a text as as_deal does, and its core_spec depends on the deal only
    #: through deal.cards; its core holds QUICK_DECIDE (contract.py). solve() then takes a
    #: shorter path for such calls (_quick.pyx: the Python layers are most of a call that
    #: starts with cold caches, docs/benchmarks.md).
    quick_decide: bool = False

    #: The shape of its pictures: a key of solitaire_solver.pictures.shapes.SHAPES ("" for none;
    #: docs/pictures.md).
    picture: str = ""

    #: The compiled core module in solitaire_solver (e.g. "_slots"), or None (reference only).
    core: Optional[str] = None
    #: True when the core's move words are Move codes (Move.from_code); a core whose words mean
    #: something else (fifteens-pysolfc: classes of rows by value) turns its lines into moves in
    #: core_line.
    core_words_are_moves: bool = True

    def core_spec(self, deal: Deal, variant: dict, objective: str, certificate: bool) -> Any:
        """The core's data for this deal and variant (the keys its module docstring lists).
        VariantError for a variant the objective does not support."""
        raise NotImplementedError

    def core_solve(self, core: Any, deal: Deal, variant: dict, objective: str, limits: Limits,
                   certificate: bool, start: Any = None) -> CoreAnswer:
        """Search with the compiled core module `core` (the one contract: contract.py), from the
        deal's start or from the reference position `start`."""
        spec = self.core_spec(deal, variant, objective, certificate)
        if start is not None:
            spec["root"] = self.core_position(start, variant)
        run = core.solve(spec, objective, limits, certificate)
        status = run.status
        if objective == "score" and status == "exhausted":
            status = "won"  # the best score is proven: its line is the answer
        keys = None
        if run.certificate is not None:
            keys = frozenset(self.certificate_key(r, a, variant) for r, a in run.certificate)
        return CoreAnswer(status, from_codes(run.path), run.stats, keys,
                          run.best, run.end, start)

    def first_try(self, deal: Deal, variant: dict, objective: str, limits: Limits,
                  certificate: bool) -> Optional[CoreAnswer]:
        """A quick search from the deal's start that may win before the game's own search, on
        either backend: a CoreAnswer (won, or not with stats["states"] and stats["seconds"]
        spent and stats["first_try"] saying what was tried), or None for none."""
        return None

    def core_line(self, core: Any, spec: dict, pos: Any, path: list) -> list[Move]:
        """The moves of a line of the core's words played from the reference position pos."""
        return from_codes(path)

    def core_position(self, pos: Any, variant: dict) -> tuple[int, int]:
        """The core's packed position (removed, aux) of a reference position: spec["root"] for a
        search from mid-game. The inverse of certificate_key where the keys are the same."""
        key = self.rules(variant).key(pos)
        return key if isinstance(key, tuple) else (key, 0)

    def certificate_key(self, removed: int, aux: int, variant: dict) -> Any:
        """The reference rules' key of a core position (certificates are given in those keys)."""
        return (removed, aux)

    def block_proof(self, deal: Deal, variant: dict, answer: CoreAnswer) -> BlockProof:
        """The proof of a block after a search found no win."""
        states = answer.stats.get("states", 0)
        if answer.certificate is not None or answer.stats.get("backend") == "reference":
            sentence = f"no line of play wins: all {states} reachable positions were explored"
        else:
            # The core's pruning rules skip positions that cannot matter; each is argued exact.
            sentence = (f"no line of play wins: a search of {states} positions found none (its "
                        f"pruning rules are exact, docs/{self.name}.md)")
        return BlockProof(
            kind="exhaustive",
            sentence=sentence,
            states=states,
            certificate=answer.certificate,
        )

    def check_proof(self, deal: Deal, variant: dict, proof: BlockProof,
                    max_states: Optional[int], start: Any = None,
                    max_seconds: Optional[float] = None,
                    memory_bytes: int = Limits().memory_bytes) -> Verification:
        """Check a proof of a block with the reference rules alone (VerificationError when it
        does not hold), for the deal's start or the reference position `start` reached from it
        (a structural proof of the deal holds for every position it reaches). Games with proof
        kinds of their own extend this. The limits bound a re-search (check_exhaustive)."""
        if proof.kind == "exhaustive":
            rules = self.rules(variant)
            return check_exhaustive(rules, rules.start(deal) if start is None else start, proof,
                                    max_states, max_seconds, memory_bytes)
        if proof.kind == "structural":
            self.check_structural(deal, variant, proof)
            return Verification(True, "the structural proof holds")
        raise VerificationError(f"{self.name} has no proofs of kind {proof.kind!r}")

    def check_structural(self, deal: Deal, variant: dict, proof: BlockProof) -> None:
        """Raise VerificationError unless the structural proof holds under the reference rules."""
        raise VerificationError(f"{self.name} has no structural proofs")

    # -- surveys ----------------------------------------------------------------------------------
    def batch(self, variant: dict) -> Optional[BatchDecider]:
        """The core's batch decider for this variant, or None: then surveys solve() each deal."""
        return None

    def score(self, deal: Deal, variant: dict, moves: list[Move]) -> Optional[int]:
        """The score of a line of play, for games with the `score` objective."""
        return None
