"""Survey files: a header line, then one JSON record per deal, written as chunks finish and read
back, every line checked, to resume a survey (the format is in docs/surveys.md).

    {"survey": "elevens", "variant": {}, "format": 2}
    {"seed": 0, "game": "elevens", "status": "blocked", "moves": 4, "cards_left": 44, ...}
"""

from __future__ import annotations

import json
import math
import os
import warnings
from typing import IO, Any, Iterable, Optional, Sequence, Union

from ..cards import CARD_NAMES
from ..errors import SolitaireError, quoted
from ..result import Status

#: The format written. Format 1 (no "format" in the header, no "game" in the records) is read too.
FORMAT = 2
READABLE_FORMATS = (1, 2)
#: A record's status: a Result's (won, blocked, unknown).
STATUSES = tuple(s.value for s in Status)

#: One deal's record as kept for a resume: (status, moves, cards_left, states, ms, line number).
Kept = tuple[str, int, Optional[int], int, float, int]
#: The longest line a survey file may hold: a record or header takes a few hundred bytes, and a
#: file that is not a survey's (/dev/zero) must not be read whole into memory as one line.
MAX_LINE_BYTES = 1 << 20


class SurveyFileError(SolitaireError):
    """A survey file that cannot be used: a folder, a missing folder, or a line that is not a
    record of this survey (the message names the file, the line and why)."""


class SurveyFileWarning(UserWarning):
    """Something done to a survey file that its owner should hear of: a last line cut short by a
    stop, dropped so that its deal is decided again."""


# -- writing ----------------------------------------------------------------------------------

def header(game: str, variant: dict, rated: bool = False) -> dict:
    """A survey file's first line; rated: its won deals' records carry their tier and the random
    player's chance (a survey by tier, docs/difficulty.md)."""
    out = {"survey": game, "variant": variant, "format": FORMAT}
    if rated:
        out["rated"] = True
    return out


def header_line(game: str, variant: dict, rated: bool = False) -> str:
    return json.dumps(header(game, variant, rated)) + "\n"


def record(game: str, key: str, value: Union[int, str], result: Any, ms: float) -> dict:
    """The record of one deal decided by solve() (key "seed", "deal" or "pysolfc")."""
    if result.won:
        moves, left = len(result.moves), 0
    elif result.blocked and result.proof is not None:
        moves = len(result.proof.moves)
        # A forced line's end (exact), else the fewest left at a position the search reached
        # (the best line leaves no more; a pruned position may hide fewer).
        left = result.proof.details.get("cards_left", result.stats.get("fewest_left"))
    else:
        moves, left = 0, None
    return {key: value, "game": game, "status": result.status.value, "moves": moves,
            "cards_left": left, "states": int(result.stats.get("states", 0)), "ms": round(ms, 4)}


def record_lines(records: Iterable[dict]) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def batch_lines(game: str, key: str, keys: Iterable[Union[int, str]], status: Sequence[int],
                left: Sequence[int], moves: Sequence[int], states: Sequence[int],
                seconds: float) -> str:
    """The records of a chunk decided together, exactly as record_lines() writes them (ms
    apart: the chunk's time shared), built without a dict per deal."""
    ms = json.dumps(round(seconds * 1000 / max(1, len(status)), 6))
    name = json.dumps(game)
    word = ("won", "blocked")
    texts: Iterable[str] = map(str, keys) if key == "seed" else map(json.dumps, keys)
    return "".join(
        f'{{"{key}": {k}, "game": {name}, "status": "{word[st]}", "moves": {m}, '
        f'"cards_left": {c}, "states": {x}, "ms": {ms}}}\n'
        for k, st, m, c, x in zip(texts, status, moves, left, states)
    )


def _check_path(path: str) -> None:
    if os.path.isdir(path):
        raise SurveyFileError(f"{path} is a folder: name the survey file to write in it")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise SurveyFileError(f"{path}: the folder {folder} does not exist")


def open_for_append(path: str) -> IO[str]:
    _check_path(path)
    try:
        return open(path, "a", encoding="utf-8")
    except OSError as e:
        raise SurveyFileError(f"{path}: cannot write it ({e.strerror})") from None


# -- reading ----------------------------------------------------------------------------------

class _BadLine(Exception):
    """A line that is not what it should be; read() adds the file and line."""


def _no_constant(name: str) -> Any:
    raise _BadLine(f"a non-finite number ({name}); a record holds finite numbers")


_PACK = frozenset(CARD_NAMES)
_HEADER_KEYS = frozenset(("survey", "variant", "format", "rated"))
_RECORD_KEYS = frozenset(("seed", "deal", "pysolfc", "game", "status", "moves", "cards_left",
                          "states", "ms", "tier", "random_win"))
#: The tiers a rated record names (rating.TIERS), and null for a won deal without a table.
_TIERS = ("very easy", "easy", "medium", "hard", "very hard", None)
_STATUS = {s: s for s in STATUSES}  # one str object per status, however many records


def _kind(value: Any) -> str:
    return "null" if value is None else {bool: "a boolean", int: "a number", float: "a number",
                                         str: "a string", list: "a list"}.get(type(value), "?")


def _count(rec: dict, name: str) -> int:
    if name not in rec:
        raise _BadLine(f"no {name}")
    v = rec[name]
    if type(v) is not int or v < 0:
        raise _BadLine(f"{name} {json.dumps(v)} is not a count (an integer >= 0)")
    return v


def _same_variant(game: str, written: dict, variant: dict) -> bool:
    """True when a header's variant is `variant`: options missing from it (a file written before
    the game had them) count at their defaults."""
    if written == variant:
        return True
    from ..games import get_game

    try:
        return get_game(game)[0].variant(**written) == variant
    except ValueError:
        return False


def _check_header(rec: Any) -> tuple[str, dict, int, bool]:
    if not isinstance(rec, dict) or "survey" not in rec:
        raise _BadLine("not a survey file: its first line should be the header "
                       '{"survey": GAME, "variant": {...}, "format": 2}')
    extra = sorted(rec.keys() - _HEADER_KEYS)
    if extra:
        raise _BadLine(f"the header has unknown field {quoted(extra[0])}")
    game, variant, fmt = rec["survey"], rec.get("variant"), rec.get("format", 1)
    if not isinstance(game, str):
        raise _BadLine(f"the header's survey {json.dumps(game)} is not a game name")
    if not isinstance(variant, dict):
        raise _BadLine(f"the header's variant {json.dumps(variant)} is not an object")
    if type(fmt) is not int or fmt not in READABLE_FORMATS:
        raise _BadLine(f"format {json.dumps(fmt)}: this version reads formats "
                       f"{', '.join(map(str, READABLE_FORMATS))}")
    rated = rec.get("rated", False)
    if rated is not True and rated is not False:
        raise _BadLine(f"the header's rated {json.dumps(rated)} is not true or false")
    return game, variant, fmt, rated


def _check_record(rec: Any, game: str, fmt: int, expect: Optional[str] = None
                  ) -> tuple[Union[int, str], str, int, Optional[int], int, float]:
    """(key, status, moves, cards_left, states, ms) of a record, or _BadLine saying what is wrong."""
    if not isinstance(rec, dict):
        raise _BadLine(f"not a JSON object but {_kind(rec)}")
    extra = rec.keys() - _RECORD_KEYS
    if extra:
        raise _BadLine(f"unknown field {quoted(sorted(extra)[0])}")
    named = [k for k in ("seed", "deal", "pysolfc") if k in rec]
    if len(named) != 1:
        raise _BadLine("a record has one of seed or deal (or pysolfc)" +
                       (f", not {' and '.join(named)}" if named else ""))
    if (named[0] == "pysolfc") != (expect == "pysolfc"):
        # Seeds and PySolFC numbers are both integers: a file holds one or the other.
        kind = "PySolFC game numbers" if expect == "pysolfc" else "seeds or deals"
        raise _BadLine(f"a record by {named[0]} in a survey of {kind}")
    if "seed" in rec or "pysolfc" in rec:
        key = rec[named[0]]
        if type(key) is not int:
            raise _BadLine(f"{named[0]} {json.dumps(key)} is not an integer")
    else:
        key = rec["deal"]
        if not isinstance(key, str) or len(parts := key.split(" ")) != 52 or \
                not _PACK.issuperset(parts) or len(set(parts)) != 52:
            raise _BadLine(f"deal {json.dumps(key)} is not a pack in order (52 cards, one "
                           "space apart)")
    if "game" in rec:
        if rec["game"] != game:
            raise _BadLine(f"a record of {json.dumps(rec['game'])} in a survey of {game}")
    elif fmt >= 2:
        raise _BadLine("no game")
    status = _STATUS.get(rec.get("status"))  # type: ignore[arg-type]
    if status is None:
        if "status" not in rec:
            raise _BadLine("no status")
        raise _BadLine(f"status {json.dumps(rec['status'])} is not one of {', '.join(STATUSES)}")
    moves = _count(rec, "moves")
    states = _count(rec, "states")
    if "cards_left" not in rec:
        raise _BadLine("no cards_left")
    left = rec["cards_left"]
    if left is not None:
        left = _count(rec, "cards_left")
        if left > 52:
            raise _BadLine(f"cards_left {left} is more than a pack")
    if status == "won" and left != 0:
        raise _BadLine(f"cards_left {json.dumps(left)} on a won deal (a win leaves 0)")
    if status == "unknown" and left is not None:
        raise _BadLine(f"cards_left {left} on an unknown deal (only a decided deal has one)")
    if "tier" in rec or "random_win" in rec:
        if status != "won" or "tier" not in rec or "random_win" not in rec:
            raise _BadLine("a tier and random_win go together, on a won deal")
        if rec["tier"] not in _TIERS:
            raise _BadLine(f"tier {json.dumps(rec['tier'])} is not one of "
                           f"{', '.join(t for t in _TIERS if t)} (or null)")
        p = rec["random_win"]
        if type(p) not in (int, float) or not 0 <= p <= 1:
            raise _BadLine(f"random_win {json.dumps(p)} is not a probability")
    if "ms" not in rec:
        raise _BadLine("no ms")
    ms = rec["ms"]
    if type(ms) not in (int, float) or not math.isfinite(ms) or ms < 0:
        raise _BadLine(f"ms {json.dumps(ms)} is not a finite number >= 0")
    return key, status, moves, left, states, float(ms)


def read(path: str, game: str, variant: dict, expect: Optional[str] = None,
         rated: bool = False, tiers: Optional[dict] = None) -> dict[Union[int, str], Kept]:
    """The records already in the survey file at path, by seed, deal text or PySolFC number
    (expect: the kind of record the survey writes, or None for seeds and deals alike; a record
    of another kind is an error, as seeds and numbers are both integers); {} when there is no
    file. Every line is checked: the first that is not a record of this survey (game and variant)
    raises SurveyFileError naming the file, the line and why, and the file is left as it is.

    rated: the survey rates its won deals (the header must say so, and every won record carry
    its tier); tiers: a dict that receives the tier of each won deal, by key.

    A deal recorded more than once keeps its decision: a later record replaces an unknown one
    (the deal decided again), a later unknown leaves a decision as it was, and two decisions
    that differ are an error.

    The one line dropped is a last line without its newline, a write cut short by a stop: the file
    is cut before it (its deal is decided again) and a SurveyFileWarning says so."""
    _check_path(path)
    try:
        f = open(path, "rb")
    except FileNotFoundError:
        return {}
    except OSError as e:
        raise SurveyFileError(f"{path}: cannot read it ({e.strerror})") from None
    done: dict[Union[int, str], Kept] = {}
    fmt = 0
    lineno = 0
    good_end = 0
    partial: Optional[bytes] = None
    with f:
        while True:
            raw = f.readline(MAX_LINE_BYTES + 1)
            if not raw:
                break
            lineno += 1
            if len(raw) > MAX_LINE_BYTES:
                raise SurveyFileError(f"{path}, line {lineno}: longer than {MAX_LINE_BYTES:,} "
                                      "bytes, not a line a survey writes")
            if not raw.endswith(b"\n"):
                partial = raw  # only the last line can lack its newline
                break
            try:
                try:
                    rec = json.loads(raw, parse_constant=_no_constant)
                except json.JSONDecodeError as e:
                    raise _BadLine(f"not JSON ({e.msg} at column {e.colno})") from None
                except (ValueError, RecursionError):  # not UTF-8, a number too long to
                    raise _BadLine("not JSON text") from None  # read, or nested too deep
                if isinstance(rec, dict) and "survey" in rec or lineno == 1:
                    name, var, fmt, was_rated = _check_header(rec)
                    if name != game or not _same_variant(game, var, variant):
                        raise _BadLine(f"holds a survey of {name} {var}, not {game} {variant}")
                    if was_rated != rated:
                        raise _BadLine("written by a survey " + (
                            "that rated its won deals (--tier): survey by tier to resume it"
                            if was_rated else "that did not rate its won deals: a survey by "
                            "tier needs a file of its own"))
                else:
                    key, *kept = _check_record(rec, game, fmt, expect)
                    if rated and kept[0] == "won":
                        if "tier" not in rec:
                            raise _BadLine("a won deal without its tier in a rated survey")
                        if tiers is not None:
                            tiers[key] = rec["tier"]
                    old = done.get(key)
                    if old is None or old[0] == "unknown":
                        # A deal decided again (survey(retry_unknown=True)): the later record
                        # stands; an unknown claims nothing for it to contradict.
                        done[key] = (*kept, lineno)  # type: ignore[assignment]
                    elif kept[0] != "unknown" and old[:4] != tuple(kept[:4]):
                        # (a later unknown takes nothing from a decision)
                        kind = expect or ("seed" if isinstance(key, int) else "deal")
                        raise _BadLine(f"{kind} {key} is recorded at line {old[5]} with "
                                       "another result")
            except _BadLine as e:
                raise SurveyFileError(f"{path}, line {lineno}: {e}") from None
            good_end += len(raw)
    if partial is not None:
        if lineno == 1 and not header_line(game, variant, rated).encode().startswith(partial):
            raise SurveyFileError(f"{path}, line 1: not a survey file (no header line)")
        with open(path, "r+b") as f:
            f.truncate(good_end)
        warnings.warn(f"{path}, line {lineno}: dropped a partial last line (no newline: a write "
                      "cut short by a stop); its deal is decided again",
                      SurveyFileWarning, stacklevel=3)
    return done


__all__ = ["FORMAT", "STATUSES", "SurveyFileError", "SurveyFileWarning", "batch_lines",
           "header", "header_line", "open_for_append", "read", "record", "record_lines"]
