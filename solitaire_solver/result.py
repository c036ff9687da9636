# cython: annotation_typing=False
"""What a solve gives back: a status, a winning line or a proof of a block, statistics."""

from __future__ import annotations

import enum
import json
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from .errors import MoveError, VerificationError
from .moves import Move, parse_moves


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


# -- position keys in JSON -------------------------------------------------------------------------
# A certificate holds the reference rules' position keys. Every game's key is built of ints,
# None (Baroness with to_empty: a pile with no card moved onto it) and tuples of those, nested
# (Fifteens under PySolFC's rules: the rows' values), and JSON writes each exactly: a tuple as a
# list, None as null. Nothing else is a key part, so a list read back is a tuple again.

def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def key_to_json(key: Hashable) -> Any:
    """A position key as JSON values: each tuple (nested ones too) a list; ints and None stay.
    TypeError for any other part, which no game's key has."""
    if type(key) is tuple:  # the common case first: a certificate holds up to millions of keys
        return [x if type(x) is int or x is None else key_to_json(x) for x in key]
    if _is_int(key) or key is None:
        return key
    if isinstance(key, tuple):
        return [key_to_json(x) for x in key]
    raise TypeError(f"a position key is built of ints, None and tuples, not {key!r:.60}")


def key_from_json(item: Any) -> Hashable:
    """The position key that key_to_json wrote as `item` (a list, or a tuple, read as a tuple).
    TypeError for anything that is not such a key."""
    if type(item) is list:  # the common case first, as in key_to_json
        return tuple([x if type(x) is int or x is None else key_from_json(x) for x in item])
    if _is_int(item) or item is None:
        return item
    if isinstance(item, (list, tuple)):
        return tuple(key_from_json(x) for x in item)
    raise TypeError(f"{item!r:.60}")


def key_order(key: Any) -> tuple:
    """A sort key ordering every position key (or its JSON form): None first, then ints by
    value, then tuples item by item, a tuple before the longer ones it begins. Python's own
    order compares None with an int (TypeError).

    The sort key is one flat tuple of ints (each part a type mark and its value, a tuple's
    items closed by -1): tuples of ints compare much faster than nested tuples."""
    out: list[int] = []
    _order_parts(key, out)
    return tuple(out)


def _order_parts(key: Any, out: list[int]) -> None:
    if key is None:
        out.append(0)
    elif isinstance(key, (tuple, list)):
        out.append(2)
        for x in key:
            _order_parts(x, out)
        out.append(-1)  # below every mark: a tuple sorts before the longer ones it begins
    else:
        out += (1, key)


def certificate_to_json(cert: Iterable) -> list:
    """A certificate's keys as a JSON list in one order (key_order), so that the same set is
    always written alike."""
    keys = list(cert)
    try:
        # Python's own order, where it can compare the keys (ints, tuples of ints), is
        # key_order's: two keys compare at their first unequal part, which it orders as
        # key_order does unless their types differ, and then it raises TypeError.
        keys.sort()
    except TypeError:
        keys.sort(key=key_order)
    if all(type(k) is int for k in keys):
        return keys
    return [key_to_json(k) for k in keys]


def certificate_from_json(cert: Any) -> frozenset:
    """The set of position keys a certificate lists: a set or frozenset as solve() gives it, or
    a list as BlockProof.to_dict() writes it. VerificationError names the first item that is
    not a key."""
    if isinstance(cert, (set, frozenset)):
        return frozenset(cert)
    if isinstance(cert, (str, bytes, bytearray, dict)) or not isinstance(cert, Iterable):
        raise VerificationError(
            f"the certificate is not a set or list of position keys (a {type(cert).__name__})")
    keys = set()
    for i, item in enumerate(cert):
        try:
            keys.add(key_from_json(item))
        except TypeError:
            raise VerificationError(
                f"item {i} of the certificate is not a position key ({item!r:.60})") from None
    return frozenset(keys)


def counted(n: int, noun: str, plural: str = "") -> str:
    """A count with its noun, singular for one: `1 move`, `2 moves`, `12,345 positions`
    (plural: the noun's plural when it is not the noun and an s)."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


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
            d["certificate"] = certificate_to_json(self.certificate)
        return d

    @classmethod
    def from_dict(cls, d: Any) -> BlockProof:
        """The proof to_dict() wrote (as JSON reads it back: its certificate the set of the
        reference rules' keys). VerificationError names what is missing or of the wrong type."""
        r = _Reader(d, "the proof", ("kind", "sentence"),
                    ("moves", "position", "states", "details", "certificate"))
        cert = d.get("certificate")
        return cls(kind=r.text("kind"), sentence=r.text("sentence"), moves=r.moves("moves"),
                   position=r.text("position"), states=r.count("states"),
                   certificate=None if cert is None else certificate_from_json(cert),
                   details=r.mapping("details"))


@dataclass(frozen=True)
class Result:
    """The answer for one deal. `moves` win when status is WON; `proof` is set when BLOCKED (and
    on a score answer asked with certificate=True, a best-score proof)."""

    game: str
    status: Status
    # May be given as a function that makes the moves (_Lazy): a decide call's line is decoded
    # from the core's move codes when first read, so a caller that wants only the verdict (a
    # survey, an app keeping winnable deals) does not pay for it (docs/notes/benchmarks-history.md).
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

    def _repr_svg_(self) -> Optional[str]:
        # Jupyter: the position the answer is for (pictures/notebook.py), where solve() kept
        # the deal.
        from .pictures.notebook import result_svg
        return result_svg(self)

    def _repr_html_(self) -> Optional[str]:
        from .pictures.notebook import result_html
        return result_html(self)

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

    @classmethod
    def from_dict(cls, d: Any) -> Result:
        """The Result to_dict() wrote, as JSON reads it back, for verify() to check.
        VerificationError names what is missing or of the wrong type."""
        r = _Reader(d, "the result", ("game", "status"),
                    ("variant", "objective", "moves", "proof", "stats", "score", "reason",
                     "after"))
        try:
            status = Status(d["status"])
        except ValueError:
            raise VerificationError(f"the result's status is one of won, blocked, unknown, not "
                                    f"{d['status']!r:.60}") from None
        proof = d.get("proof")
        return make_result(
            r.text("game"), status, moves=r.moves("moves"),
            proof=None if proof is None else BlockProof.from_dict(proof),
            stats=r.mapping("stats"), variant=r.mapping("variant"),
            objective=r.text("objective", "decide"), score=r.number("score", None),
            reason=r.text("reason"), after=r.moves("after"))

    @classmethod
    def from_json(cls, text: str) -> Result:
        """The Result to_json() wrote. VerificationError for text that is not one."""
        if not isinstance(text, (str, bytes, bytearray)):
            raise VerificationError(f"a result's JSON is text, not {text!r:.60}")
        try:
            d = json.loads(text)
        except RecursionError:
            raise VerificationError("the result is not JSON that a result holds (nested too "
                                    "deep)") from None
        except ValueError as e:
            raise VerificationError(f"the result is not JSON ({e})") from None
        return cls.from_dict(d)

    def __str__(self) -> str:
        if self.won:
            return (f"won in {counted(len(self.moves), 'move')}: "
                    + " ".join(str(m) for m in self.moves))
        if self.blocked and self.proof:
            return "blocked: " + self.proof.sentence
        return "unknown: " + (self.reason or "a search limit was reached")


def make_result(game: str, status: Status, moves: Any = (), proof: Any = None,
                stats: Optional[dict] = None, variant: Optional[dict] = None, *,
                objective: str = "decide", score: Optional[int] = None, reason: str = "",
                after: tuple = ()) -> Result:
    """Result(...) with its fields set at once, as solve() makes one per call: a frozen
    dataclass's __init__ sets each field through object.__setattr__, and a keyword dictionary
    per call is memory a call that starts with cold caches must fetch
    (docs/notes/benchmarks-history.md). moves and proof may be functions of no arguments, made
    when first read."""
    fields = RESULT_FIELDS.copy()
    fields["game"] = game
    fields["status"] = status
    fields["_moves"] = moves
    fields["_proof"] = proof
    fields["stats"] = {} if stats is None else stats
    fields["variant"] = {} if variant is None else variant
    if objective != "decide" or score is not None or reason or after:
        fields["objective"] = objective
        fields["score"] = score
        fields["reason"] = reason
        fields["after"] = after
    out = object.__new__(Result)
    object.__setattr__(out, "__dict__", fields)
    return out


#: The instance dictionary of a Result with every default: make_result (and the Solver's plain
#: call) copies it, so that every Result's dictionary has the same keys in the same order.
RESULT_FIELDS: dict = {"game": "", "status": None, "_moves": (), "_proof": None, "stats": None,
                 "variant": None, "objective": "decide", "score": None, "reason": "",
                 "after": ()}


class _Reader:
    """The fields of a dict read back from JSON, each checked for its type (VerificationError
    naming the field)."""

    def __init__(self, d: Any, what: str, needed: tuple[str, ...], optional: tuple[str, ...]):
        if not isinstance(d, dict):
            raise VerificationError(f"{what} is a JSON object, not {d!r:.60}")
        missing = [k for k in needed if k not in d]
        if missing:
            raise VerificationError(f"{what} has no {', '.join(missing)}")
        unknown = sorted(set(d) - set(needed) - set(optional), key=str)
        if unknown:
            raise VerificationError(f"{what} has unknown fields: {', '.join(map(str, unknown))}")
        self.d, self.what = d, what

    def _bad(self, name: str, kind: str) -> VerificationError:
        return VerificationError(f"{self.what}'s {name} is {kind}, not {self.d[name]!r:.60}")

    def text(self, name: str, default: str = "") -> str:
        v = self.d.get(name, default)
        if not isinstance(v, str):
            raise self._bad(name, "text")
        return v

    def number(self, name: str, default: Optional[int]) -> Any:
        v = self.d.get(name, default)
        if not (_is_int(v) or v is default is None):
            raise self._bad(name, "a whole number")
        return v

    def count(self, name: str) -> int:
        v = self.number(name, 0)
        if v < 0:
            raise self._bad(name, "a count, 0 or more")
        return v

    def mapping(self, name: str) -> dict:
        v = self.d.get(name, {})
        if not isinstance(v, dict):
            raise self._bad(name, "a JSON object")
        return v

    def moves(self, name: str) -> tuple[Move, ...]:
        v = self.d.get(name, [])
        if not isinstance(v, list) or not all(isinstance(m, str) for m in v):
            raise self._bad(name, "a list of moves as text")
        try:
            return tuple(parse_moves(v))
        except MoveError as e:
            raise VerificationError(f"{self.what}'s {name}: {e}") from None


@dataclass(frozen=True)
class Verification:
    """The outcome of verify(): ok is True when the answer checks, False when it does not, None
    when it could not be checked within the limits given."""

    ok: Optional[bool]
    reason: str

    def __bool__(self) -> bool:
        return self.ok is True
