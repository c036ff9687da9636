"""What a solve gives back: a status, a winning line or a proof of a block, statistics."""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from .moves import Move


class _Lazy:
    """A dataclass field that may be given as a function of no arguments: it is called when the
    field is first read, and its value kept. A structural proof's sentence and details take
    longer to write than the deal takes to decide (Pyramid), so a caller that only wants the
    verdict does not pay for them."""

    def __init__(self, empty: Callable[[], Any]):
        self.empty = empty

    def __set_name__(self, owner: type, name: str) -> None:
        self.key = "_" + name

    def __get__(self, obj: Any, owner: Optional[type] = None) -> Any:
        if obj is None:
            return self  # the dataclass's default: "not given"
        value = obj.__dict__[self.key]
        if callable(value):
            value = obj.__dict__[self.key] = value()
        return value

    def __set__(self, obj: Any, value: Any) -> None:
        # not given: the empty value, as make_result stores it
        obj.__dict__[self.key] = self.empty() if value is self else value


class Status(enum.Enum):
    WON = "won"
    BLOCKED = "blocked"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class BlockProof:
    """Why no line of play wins (or, kind "best-score", why no line scores more).

    kind is one of:
    - "forced-line": the game's outcome does not depend on the order of play (docs/proofs.md), so
      the line `moves` played to its end, where `position` is stuck, proves the block;
    - "structural": a fact of the layout alone, stated in `sentence`, checked by the reference rules;
    - "exhaustive": every position reachable was explored (`states`); `certificate`, when asked for,
      holds the keys of those positions, closed under moves and none of them won;
    - "best-score": on a WON answer of the score objective asked with certificate=True: the
      `certificate` holds (key..., score) of every position a line scoring more than the answer
      could pass through, closed under moves there and none scoring more (docs/proofs.md).
    """

    kind: str
    # Either may be given as a function that writes it (_Lazy).
    sentence: str = _Lazy(str)  # type: ignore[assignment]
    moves: tuple[Move, ...] = ()
    position: str = ""
    states: int = 0
    certificate: Optional[frozenset] = None
    details: dict = _Lazy(dict)  # type: ignore[assignment]

    def __getstate__(self) -> dict:
        # Pickled (a survey's worker, a cache) with its sentence and details written out.
        return {**self.__dict__, "_sentence": self.sentence, "_details": self.details}

    def to_dict(self) -> dict:
        d: dict[str, Any] = {"kind": self.kind, "sentence": self.sentence}
        if self.moves:
            d["moves"] = [str(m) for m in self.moves]
        if self.position:
            d["position"] = self.position
        if self.states:
            d["states"] = self.states
        if self.details:
            d["details"] = self.details
        if self.certificate is not None:
            d["certificate"] = sorted([list(k) if isinstance(k, tuple) else k
                                       for k in self.certificate])
        return d


@dataclass(frozen=True)
class Result:
    """The answer for one deal. `moves` win when status is WON; `proof` is set when BLOCKED (and
    on a score answer asked with certificate=True, a best-score proof)."""

    game: str
    status: Status
    # May be given as a function that makes the moves (_Lazy): a decide call's line is decoded
    # from the core's move codes when first read, so a caller that wants only the verdict (a
    # survey, an app keeping winnable deals) does not pay for it (docs/benchmarks.md).
    moves: tuple[Move, ...] = _Lazy(tuple)  # type: ignore[assignment]
    # May be given as a function too: a structural proof the core's search has shown to exist
    # is made when first read.
    proof: Optional[BlockProof] = _Lazy(type(None))  # type: ignore[assignment]
    stats: dict = field(default_factory=dict)
    variant: dict = field(default_factory=dict)
    objective: str = "decide"
    score: Optional[int] = None
    reason: str = ""
    #: The moves played before the position this answer is for (empty: the deal's start); the
    #: answer's own moves continue from there.
    after: tuple[Move, ...] = ()

    def __getstate__(self) -> dict:
        # Pickled (a survey's worker) with its moves and proof made.
        return {**self.__dict__, "_moves": self.moves, "_proof": self.proof}

    @property
    def won(self) -> bool:
        return self.status is Status.WON

    @property
    def blocked(self) -> bool:
        return self.status is Status.BLOCKED

    def to_dict(self) -> dict:
        d: dict[str, Any] = {
            "game": self.game,
            "variant": self.variant,
            "objective": self.objective,
            "status": self.status.value,
            "moves": [str(m) for m in self.moves],
            "proof": self.proof.to_dict() if self.proof else None,
            "stats": self.stats,
        }
        if self.score is not None:
            d["score"] = self.score
        if self.reason:
            d["reason"] = self.reason
        if self.after:
            d["after"] = [str(m) for m in self.after]
        return d

    def to_json(self, **kwargs) -> str:
        return json.dumps(self.to_dict(), **kwargs)

    def __str__(self) -> str:
        if self.won:
            return f"won in {len(self.moves)} moves: " + " ".join(str(m) for m in self.moves)
        if self.blocked and self.proof:
            return "blocked: " + self.proof.sentence
        return "unknown: " + (self.reason or "a search limit was reached")


def make_result(game: str, status: Status, *, moves: tuple = (),
                proof: Optional[BlockProof] = None, stats: Optional[dict] = None,
                variant: Optional[dict] = None, objective: str = "decide",
                score: Optional[int] = None, reason: str = "", after: tuple = ()) -> Result:
    """Result(...) with its fields set at once, as solve() makes one per call: a frozen
    dataclass's __init__ sets each field through object.__setattr__ (docs/benchmarks.md)."""
    out = object.__new__(Result)
    out.__dict__.update(game=game, status=status, _moves=moves, _proof=proof,
                        stats={} if stats is None else stats,
                        variant={} if variant is None else variant, objective=objective,
                        score=score, reason=reason, after=after)
    return out


@dataclass(frozen=True)
class Verification:
    """The outcome of verify(): ok is True when the answer checks, False when it does not, None
    when it could not be checked within the limits given."""

    ok: Optional[bool]
    reason: str

    def __bool__(self) -> bool:
        return self.ok is True
