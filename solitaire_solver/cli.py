"""The command line: solitaire-solver solve | hint | rate | analyze | show | verify | games | survey.

Exit codes: 0 won (or valid, or a line that stays winnable), 1 blocked (or invalid, or a line that
lost the game), 2 unknown (or not checked), 3 bad input.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
import time
from typing import Any, Callable, Optional, Sequence, TypeVar

from . import api, positions, pysolfc
from .deal import Deal
from .engine.contract import DEFAULT_MEMORY_MB
from .errors import SolitaireError, quoted
from .games import GAMES, get_game, normalise
from .result import Result, Status, counted
from .solver import analyze, hint, moves, rate, solve

EXIT = {Status.WON: 0, Status.BLOCKED: 1, Status.UNKNOWN: 2}
BAD_INPUT = 3


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line and exit code 3, not argparse's 2
        self.exit(BAD_INPUT, f"{self.prog}: error: {message}\n")


def _variant(pairs: Sequence[str]) -> dict:
    out = {}
    for p in pairs:
        name, sep, value = p.partition("=")
        if not sep or not name:
            raise SolitaireError(f"a variant is written name=value, not {quoted(p)}")
        name, value = name.strip(), value.strip()
        if name in out and out[name] != value:
            raise SolitaireError(f"variant {name} is given twice ({out[name]} and {value})")
        out[name] = value
    return out


#: A search still running after this many seconds says so on a terminal, once a second.
STILL_AFTER = 2.0

T = TypeVar("T")


def _searching(what: str, call: Callable[..., T], *a: Any, limited: bool = True,
               **kw: Any) -> T:
    """call(*a, **kw), and meanwhile, when stderr is a terminal, a line there once the call has
    run STILL_AFTER seconds, redrawn each second and wiped when it returns: a deal that takes
    minutes (Montana, Calculation) is not taken for a hang. A timer signal draws it: the cores
    look at signals every few thousand positions, which runs the handler. limited: the command
    takes --max-seconds, which the line then offers."""
    if not (hasattr(signal, "setitimer") and sys.stderr.isatty()
            and threading.current_thread() is threading.main_thread()
            and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)):
        return call(*a, **kw)  # (a timer already set belongs to the program that embeds us)
    t0 = time.monotonic()
    drawn = False

    def draw(signum: int, frame: Any) -> None:
        nonlocal drawn
        drawn = True
        sys.stderr.write(f"\r{what}: still searching, {time.monotonic() - t0:.0f} s "
                         + ("(Ctrl-C stops; --max-seconds sets a limit)" if limited else
                            "(Ctrl-C stops)"))
        sys.stderr.flush()

    before = signal.signal(signal.SIGALRM, draw)
    signal.setitimer(signal.ITIMER_REAL, STILL_AFTER, 1.0)
    try:
        return call(*a, **kw)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
        if drawn:
            sys.stderr.write("\r\033[K")  # wipe the line before the answer is printed
            sys.stderr.flush()


#: The deals a survey takes when --count is not given.
SURVEY_COUNT = 10000

#: The most text --file reads: a deal or a layout takes a few hundred characters, and a file
#: with no end (/dev/zero, a pipe that never closes its output) must not fill the memory.
MAX_DEAL_TEXT = 1 << 20


def _bounded(f: Any, name: str) -> str:
    text = f.read(MAX_DEAL_TEXT + 1)
    if len(text) > MAX_DEAL_TEXT:
        raise SolitaireError(f"{name} holds more than {MAX_DEAL_TEXT} characters: no deal or "
                             "layout is that long")
    return str(text)


def _deal_text(args: argparse.Namespace, words: Sequence[str]) -> Any:
    sources = sum(x is not None and x != [] for x in (args.file, args.seed, args.pysolfc,
                                                      words or None))
    if sources != 1:
        raise SolitaireError("give the deal as text, or --file PATH, or --seed N, or --pysolfc N "
                             "(one of them)")
    if args.seed is not None:
        return Deal.from_seed(args.seed)
    if args.pysolfc is not None:
        return pysolfc.pysolfc_deal(args.game, args.pysolfc)
    if args.file == "-":
        return _bounded(sys.stdin, "standard input")
    if args.file is not None:
        try:
            with open(args.file, encoding="utf-8") as f:
                return _bounded(f, args.file)
        except OSError as e:
            raise SolitaireError(f"cannot read {args.file}: {e.strerror}") from None
        except UnicodeDecodeError as e:
            raise SolitaireError(f"cannot read {args.file}: not UTF-8 text ({e.reason} at "
                                 f"byte {e.start})") from None
    return " ".join(words) if len(words) > 1 else words[0]


def _add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", help="game name or alias (see `solitaire-solver games`)")
    p.add_argument("--file", help="read the deal (or layout) from this file (- for standard input)")
    p.add_argument("--seed", type=_whole,
                   help="the seeded deal (SEED 0 or more): random.Random(SEED).shuffle of the "
                        "pack (docs/notation.md)")
    p.add_argument("--pysolfc", metavar="N",
                   help="PySolFC's deal for its game number N (digits, or msN): docs/pysolfc.md")
    p.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a variant option, e.g. -o passes=1 (repeatable)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--unicode", action="store_true",
                   help="suit symbols instead of letters (TD) in the text printed")


# -- PySolFC game numbers (--pysolfc) ----------------------------------------------------------

def _pysolfc(args: argparse.Namespace) -> Optional[dict]:
    """For --pysolfc: PySolFC's layout of the number (shown first, so a player can check it is
    the game on their screen), the rules to solve it under, and a note on stderr when the game
    named is not played by PySolFC's rules."""
    if getattr(args, "pysolfc", None) is None:
        return None
    layout = pysolfc.pysolfc_layout(args.game, args.pysolfc)
    _say_pysolfc_rules(args)
    rules = pysolfc.pysolfc_preset(args.game)
    info = {"game": layout["game"], "title": layout["title"], "number": layout["number"],
            "rules": rules, "layout": layout}
    named = normalise(args.game)
    g = get_game(named)[0]
    chosen = (named in g.presets and named != g.name) or args.option  # rules the user picked
    if rules is None:
        print(f"solitaire-solver: note: PySolFC's own rules for {layout['title']} are not in "
              "this version: the answer is for ours (docs/pysolfc.md)", file=sys.stderr)
    elif named != rules and not chosen and rules != g.name:
        print(f"solitaire-solver: note: PySolFC plays {layout['title']} by other rules: "
              f"`{rules}` answers for the game on its screen", file=sys.stderr)
    return info


def _play_pysolfc_rules(args: argparse.Namespace) -> None:
    """--pysolfc with a plain game name (no preset, no -o option): solve under PySolFC's rules
    for that game, so that the answer is the one for the game on PySolFC's screen. A preset or
    an option names the rules instead (docs/pysolfc.md)."""
    if getattr(args, "pysolfc", None) is None or not getattr(args, "game", None):
        return
    named = normalise(args.game)
    g = get_game(named)[0]
    if (named in g.presets and named != g.name) or getattr(args, "option", None):
        return
    rules = pysolfc.pysolfc_preset(args.game)
    if rules is not None and rules != g.name:
        args.game = rules
        # Said once the number has been read: bad input gets its one line alone.
        ours = ("give an option, e.g. -o NAME=VALUE, to solve under ours" if g.options else
                 f"ours in Python: ss.solve({g.name!r}, ss.pysolfc_deal({g.name!r}, N))")
        args.pysolfc_note = (f"solitaire-solver: note: PySolFC's rules: solving under "
                             f"`{rules}` ({ours})")


def _say_pysolfc_rules(args: argparse.Namespace) -> None:
    note = getattr(args, "pysolfc_note", None)
    if note:
        print(note, file=sys.stderr)
        args.pysolfc_note = None


def _show_pysolfc(args: argparse.Namespace, info: Optional[dict]) -> None:
    if info is not None:
        text = pysolfc.layout_text(info["layout"])
        g, fixed = get_game(args.game)
        note = g.pysolfc_note(g.variant(**{**fixed, **_variant(args.option)}))
        _say(args, text + ("\n" + note if note else "") + "\n")


def _say(args: argparse.Namespace, text: Any) -> None:
    """Print text with suit letters (`TD`), or symbols (`T♦`) under --unicode: a slot game's
    drawing has symbols, which an ascii or cp1252 standard output cannot encode."""
    text = str(text)
    if not getattr(args, "unicode", False):
        print(positions.ascii_cards(text))
        return
    text = positions.unicode_cards(text)
    try:
        print(text)
    except UnicodeEncodeError as e:
        raise SolitaireError(f"standard output ({e.encoding}) cannot print {e.object[e.start]!r}: "
                             "leave out --unicode, or set PYTHONIOENCODING=utf-8") from None


def _json(data: Any) -> str:
    """JSON with suit letters in every text (a drawing's symbols too): card names are for the
    programs that read it, and they read letters (docs/notation.md)."""
    def letters(x: Any) -> Any:
        if isinstance(x, str):
            return positions.ascii_cards(x)
        if isinstance(x, dict):
            return {k: letters(v) for k, v in x.items()}
        if isinstance(x, (list, tuple)):
            return [letters(v) for v in x]
        return x
    return json.dumps(letters(data))


def _with_pysolfc(data: dict, info: Optional[dict]) -> dict:
    if info is not None:
        data["pysolfc"] = info
    return data


def _whole(text: str) -> int:
    """An option's whole number (argparse's type): the error quotes what was typed cut short."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"cannot read a whole number from {quoted(text)}"
                                         ) from None


def _number(text: str) -> float:
    """An option's number (argparse's type), as _whole."""
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"cannot read a number from {quoted(text)}") from None


def _add_limits(p: argparse.ArgumentParser, each: str = "", seconds: Optional[str] = None
                ) -> None:
    """The search limits; `each` (and `seconds` for --max-seconds, where it differs) says what
    they bound where a command searches more than once."""
    p.add_argument("--max-states", type=_whole,
                   help="stop with UNKNOWN after this many positions" + each)
    p.add_argument("--max-seconds", type=_number,
                   help="stop with UNKNOWN after this many seconds"
                   + (each if seconds is None else seconds))
    p.add_argument("--memory-mb", type=_number, default=DEFAULT_MEMORY_MB,
                   help="transposition table budget in MiB (default 256)")


def _limits(args: argparse.Namespace) -> dict:
    return {"max_states": args.max_states, "max_seconds": args.max_seconds,
            "memory_mb": args.memory_mb}


_AFTER_HELP = "the moves played so far, as one quoted argument: decide the position they reach"


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="solitaire-solver", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    s = sub.add_parser("solve", help="decide a deal: a winning line or a proof of a block")
    _add_common(s)
    s.add_argument("deal", nargs="*", help="the 52 cards in dealing order (or a layout text)")
    s.add_argument("--objective", default="decide", help="decide (default), shortest or score")
    s.add_argument("--after", metavar="MOVES", help=_AFTER_HELP)
    _add_limits(s)
    s.add_argument("--certificate", action="store_true",
                   help="attach the explored positions to an exhaustive proof")
    s.add_argument("--check", action="store_true",
                   help="replay the answer under the reference rules before printing it")

    h = sub.add_parser("hint", help="the next move of a winning line from a position")
    _add_common(h)
    h.add_argument("deal", nargs="*", help="the 52 cards in dealing order (or a layout text)")
    h.add_argument("--after", metavar="MOVES", help=_AFTER_HELP)
    h.add_argument("--all", action="store_true",
                   help="every legal move, each with whether the game stays winnable after it")
    _add_limits(h, " (with --all: for each move)",
                " (with --all: the whole call, each move an equal share of the time left)")

    t = sub.add_parser("rate", help="how hard a deal is: the random player's chance, the "
                                    "critical positions, the tier (docs/difficulty.md)")
    _add_common(t)
    t.add_argument("deal", nargs="*", help="the 52 cards in dealing order (or a layout text)")
    t.add_argument("--after", metavar="MOVES", help="the moves played so far (one argument)")
    t.add_argument("--playouts", type=_whole,
                   help="random lines played where the exact sum does not fit (default: the "
                        "game's, 2000 in most games)")
    t.add_argument("--guided", type=_whole, default=200,
                   help="guided lines played where no random line won (default 200; 0: "
                        "none)")
    t.add_argument("--exact-positions", type=_whole,
                   help="the most positions the exact sum keeps (default: --max-states, else "
                        "100000)")
    t.add_argument("--random-seed", type=_whole, default=0, help="the random lines' seed")
    _add_limits(t, " (for each search)",
                " (the whole rating: what the first search leaves bounds the rest; at least "
                "64 random lines are played)")

    a = sub.add_parser("analyze", help="the first move of a line after which it was lost")
    _add_common(a)
    a.add_argument("deal_and_moves", nargs="*", metavar="DEAL MOVES",
                   help="the deal as one quoted argument (unless --file/--seed), then the moves")
    _add_limits(a, " (for each position it searches)", " (the whole call)")

    w = sub.add_parser("show", help="draw the position after some moves (text, JSON, SVG, "
                                    "or an HTML page of its answer)")
    _add_common(w)
    w.add_argument("deal", nargs="*", help="the 52 cards in dealing order (or a layout text)")
    w.add_argument("--after", metavar="MOVES", help="the moves played so far (one argument)")
    # Pictures (docs/pictures.md).
    w.add_argument("--svg", metavar="PATH", help="write the position as an SVG picture")
    w.add_argument("--html", metavar="PATH",
                   help="decide the position and write its answer as a page to step through "
                        "(exit code as for solve)")
    _add_limits(w)

    v = sub.add_parser("verify", help="check a winning line, or an answer of solve --json, with "
                                      "the reference rules")
    _add_common(v)
    v.add_argument("deal_and_moves", nargs="*", metavar="DEAL MOVES",
                   help="the deal as one quoted argument (unless --file/--seed), then the moves")
    v.add_argument("--result", metavar="PATH",
                   help="check the answer `solve --json` printed (a file, or - for standard "
                        "input) instead of moves")
    v.add_argument("--after", metavar="MOVES",
                   help="the moves played before the position the answer is for (as solve "
                        "--after took them)")

    sub.add_parser("games", help="list the games, their aliases, variants and rules")

    u = sub.add_parser("survey", help="decide many seeded deals and report the win rate")
    u.add_argument("game", help="game name or alias (see `solitaire-solver games`)")
    u.add_argument("--count", type=_whole, help=f"number of deals (default {SURVEY_COUNT})")
    u.add_argument("--start", type=_whole, help="first seed (0 or more; default 0)")
    u.add_argument("--pysolfc", metavar="A-B",
                   help="PySolFC game numbers A to B (both included) instead of seeds; or A, "
                        "with --count numbers from A")
    u.add_argument("--won-only", action="store_true",
                   help="print only the deals won (seeds or PySolFC numbers), one a line; the "
                        "summary goes to standard error")
    u.add_argument("--tier", choices=("very-easy", "easy", "medium", "hard", "very-hard"),
                   help="rate every won deal (docs/difficulty.md) and, with --won-only, print "
                        "only the deals of this tier")
    u.add_argument("--workers", type=_whole,
                   help="local processes (default: all cores; never more than cores or deals)")
    u.add_argument("--out", help="JSON lines file, one per deal; resumed when it exists")
    u.add_argument("--max-states", type=_whole, help="per deal: UNKNOWN after this many positions")
    u.add_argument("--max-seconds", type=_number, help="per deal: UNKNOWN after this many seconds")
    u.add_argument("--retry-unknown", action="store_true",
                   help="with --out: decide again the deals the file holds as UNKNOWN (under "
                        "the limits given now)")
    u.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a variant option, e.g. -o passes=1 (repeatable)")
    u.add_argument("--json", action="store_true", help="print the summary as JSON")
    u.add_argument("--quiet", action="store_true", help="no progress line")
    return parser


def _cmd_solve(args: argparse.Namespace) -> int:
    deal = _deal_text(args, args.deal)
    variant = _variant(args.option)
    r = _searching("solve", solve, args.game, deal, objective=args.objective,
                   certificate=args.certificate, check=args.check, after=args.after,
                   **_limits(args), **variant)
    info = _pysolfc(args)
    if args.json:
        print(_json(_with_pysolfc(r.to_dict(), info)))
        return EXIT[r.status]
    _show_pysolfc(args, info)
    out = [positions.position(args.game, deal, after=args.after, **variant).text, ""]
    if r.won:
        extra = f", score {r.score}" if r.score is not None else ""
        out.append(f"WON in {counted(len(r.moves), 'move')}{extra}:")
        out += [f"{i:3d}. {m}" for i, m in enumerate(r.moves, start=1)]
    elif r.blocked and r.proof is not None:
        out.append(f"BLOCKED: {r.proof.sentence}")
        if r.proof.moves:
            out.append("forced line: " + " ".join(str(m) for m in r.proof.moves))
        if r.proof.position:
            out.append(r.proof.position)
    else:
        out.append(f"UNKNOWN: {r.reason}")
    st = r.stats
    out.append(f"({counted(st.get('states', 0), 'state')}, {st.get('seconds', 0.0) * 1000:.1f} ms)")
    if "check" in st:
        out.append(f"check: {st['check']}")
    _say(args, "\n".join(out))
    return EXIT[r.status]


def _cmd_hint(args: argparse.Namespace) -> int:
    if args.all:
        return _cmd_hint_all(args)
    h = _searching("hint", hint, args.game, _deal_text(args, args.deal), after=args.after,
                   **_limits(args), **_variant(args.option))
    info = _pysolfc(args)
    if args.json:
        print(_json(_with_pysolfc({"move": str(h.move) if h.move else None,
                                   "result": h.result.to_dict()}, info)))
    else:
        _show_pysolfc(args, info)
        _say(args, h)
    if h.move is not None or h.result.won:
        return 0
    return EXIT[h.result.status]


def _cmd_hint_all(args: argparse.Namespace) -> int:
    """hint --all: every legal move with the verdict after it (0 when one keeps the game
    winnable, 1 when every move loses, 2 when none wins and some are unknown)."""
    verdicts = _searching("hint", moves, args.game, _deal_text(args, args.deal),
                          after=args.after, **_limits(args), **_variant(args.option))
    info = _pysolfc(args)
    if args.json:
        print(_json(_with_pysolfc({"moves": [{"move": str(v.move), "status": v.status.value,
                                              "result": v.result.to_dict()} for v in verdicts]},
                                  info)))
    else:
        _show_pysolfc(args, info)
        if not verdicts:
            _say(args, "no legal move: the position is won or stuck")
        for v in verdicts:
            _say(args, v)
    statuses = {v.status for v in verdicts}
    if Status.WON in statuses:
        return 0
    return EXIT[Status.UNKNOWN] if Status.UNKNOWN in statuses else EXIT[Status.BLOCKED]


def _cmd_rate(args: argparse.Namespace) -> int:
    r = _searching("rate", rate, args.game, _deal_text(args, args.deal), after=args.after,
                   playouts=args.playouts, guided=args.guided,
                   exact_positions=args.exact_positions, seed=args.random_seed,
                   **_limits(args), **_variant(args.option))
    info = _pysolfc(args)
    if args.json:
        print(_json(_with_pysolfc(r.to_dict(), info)))
    else:
        _show_pysolfc(args, info)
        _say(args, r)
    return EXIT[r.status]


def _deal_and_moves(args: argparse.Namespace, deal_only: bool = False) -> tuple[Any, list]:
    words = list(args.deal_and_moves)
    if args.file is None and args.seed is None and args.pysolfc is None:
        if not words:
            raise SolitaireError("give the deal (one quoted argument)" +
                                 ("" if deal_only else " and the moves"))
        deal, moves = words[0], words[1:]
        if moves and not any(ch.isspace() or ch == "," for ch in deal):
            # An unquoted deal: its first card was taken for the whole deal, the rest for moves.
            raise SolitaireError(f"the deal is one quoted argument, and {quoted(deal)} is a single "
                                 "word: quote the deal (\"AS 2S ...\"), then give the moves, or "
                                 "use --file, --seed or --pysolfc")
        args.file = None
        return _deal_text(args, [deal]), moves
    return _deal_text(args, []), words


def _cmd_analyze(args: argparse.Namespace) -> int:
    deal, moves = _deal_and_moves(args)
    a = _searching("analyze", analyze, args.game, deal, moves, **_limits(args),
                   **_variant(args.option))
    info = _pysolfc(args)
    if args.json:
        out: dict = {"winnable": a.winnable, "blunder": a.blunder, "decided": a.decided}
        if a.blunder is not None:
            out["move"] = str(a.moves[a.blunder - 1])
            out["better"] = [str(m) for m in a.before.moves] if a.before else []
        if a.blunder is not None or a.winnable is False:
            # The proof of the block after the blunder, or (a deal never winnable) of the
            # deal's: the text prints it too.
            out["proof"] = a.after.proof.to_dict() if a.after and a.after.proof else None
        if a.reason:
            out["reason"] = a.reason
        print(_json(_with_pysolfc(out, info)))
    else:
        _show_pysolfc(args, info)
        _say(args, a)
        if a.blunder is not None and a.after is not None and a.after.proof is not None:
            _say(args, f"after it: {a.after.proof.sentence}")
    if a.winnable is None:
        return 2
    return 0 if a.winnable and a.blunder is None else 1


def _path(path: str, option: str) -> str:
    """A file path given to an option; an empty one is refused, not taken as "no file"."""
    if not path.strip():
        raise SolitaireError(f"{option} takes a file path, not {quoted(path)}")
    return path


def _write(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise SolitaireError(f"cannot write {path}: {e.strerror}") from None


def _cmd_show(args: argparse.Namespace) -> int:
    deal = _deal_text(args, args.deal)
    variant = _variant(args.option)
    if args.svg is not None or args.html is not None:
        from . import pictures

        # An empty path was once taken for no option at all, and the text printed instead.
        for path, option in ((args.svg, "--svg"), (args.html, "--html")):
            if path is not None:
                _path(path, option)
        if args.svg is not None:
            _write(args.svg, pictures.render_svg(args.game, deal, variant, after=args.after))
            print(f"wrote {args.svg}")
        if args.html is None:
            return 0
        r = _searching("show", solve, args.game, deal, after=args.after, **_limits(args),
                       **variant)
        _write(args.html, pictures.render_html(args.game, deal, r, variant))
        print(f"wrote {args.html}: {r.status.name}" + (f" in {counted(len(r.moves), 'move')}" if r.won
                                                        else ""))
        return EXIT[r.status]
    p = positions.position(args.game, deal, after=args.after, **variant)
    info = _pysolfc(args)
    if args.json:
        print(_json(_with_pysolfc(p.to_dict(), info)))
    else:
        _show_pysolfc(args, info)
        _say(args, p.text)
    return 0


def _read_result(path: str) -> Result:
    """The Result a `solve --json` printed, read from a file or (`-`) standard input."""
    if path == "-":
        data = _result_bytes(sys.stdin.buffer, "standard input")
    else:
        try:
            with open(_path(path, "--result"), "rb") as f:
                data = _result_bytes(f, path)
        except OSError as e:
            raise SolitaireError(f"cannot read {path}: {e.strerror}") from None
    try:
        d = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise SolitaireError(f"{path} is not UTF-8 text, so not the JSON of an answer") from None
    except RecursionError:
        raise SolitaireError(f"{path} is not the JSON of an answer (nested too deep)") from None
    except ValueError as e:
        raise SolitaireError(f"{path} is not the JSON of an answer ({e})") from None
    if isinstance(d, dict):
        d.pop("pysolfc", None)  # what --pysolfc adds to solve's JSON: not part of the answer
    return Result.from_dict(d)


#: The most bytes --result reads. An answer with a certificate holds every position its search
#: explored (a Montana position takes about 140 bytes of JSON), so it may be large; the bound is
#: for a file or pipe with no end.
MAX_RESULT_BYTES = 4 << 30


#: The bytes a JSON text may start with (after white space), and b"" (white space only so far).
_JSON_STARTS = frozenset([b""] + [bytes([c]) for c in b'{["-0123456789tfn'])


def _result_bytes(f: Any, name: str) -> bytes:
    """The bytes of an answer's JSON, read in pieces: what cannot start a JSON text (a binary
    file, /dev/zero) is refused at its first piece, and no read goes past MAX_RESULT_BYTES."""
    parts, size = [], 0
    while True:
        part = f.read(1 << 20)
        if not part:
            break
        if not parts and part.lstrip()[:1] not in _JSON_STARTS:
            raise SolitaireError(f"{name} is not the JSON of an answer (not JSON text)")
        size += len(part)
        if size > MAX_RESULT_BYTES:
            raise SolitaireError(f"{name} holds more than {MAX_RESULT_BYTES >> 30} GiB: no answer "
                                 "is that long")
        parts.append(part)
    return b"".join(parts)


def _cmd_verify(args: argparse.Namespace) -> int:
    deal, moves = _deal_and_moves(args, args.result is not None)
    answer: Any = moves
    if args.result is not None:
        if moves:
            raise SolitaireError("give the moves or --result, not both")
        answer = _read_result(args.result)
    verdict = _searching("verify", api.verify, args.game, deal, answer, after=args.after,
                         limited=False, **_variant(args.option))
    info = _pysolfc(args)
    if args.json:
        print(_json(_with_pysolfc({"ok": verdict.ok, "reason": verdict.reason}, info)))
    else:
        _show_pysolfc(args, info)
        word = {True: "VALID", False: "INVALID", None: "NOT CHECKED"}[verdict.ok]
        _say(args, f"{word}: {verdict.reason}")
    return {True: 0, False: 1, None: 2}[verdict.ok]


def _cmd_games(args: argparse.Namespace) -> int:
    for g in GAMES:
        names = ", ".join(g.aliases) if g.aliases else "-"
        print(f"{g.name}  (aliases: {names})")
        print(f"    {g.summary}")
        for name, opt in g.options.items():
            choices = "|".join(str(c) for c in opt.choices) if opt.choices else "..."
            print(f"    variant {name}={choices} (default {opt.default}) {opt.doc}".rstrip())
        for preset, fixed in g.presets.items():
            fixed_text = ", ".join(f"{k}={v}" for k, v in fixed.items()) or "the defaults"
            print(f"    preset {preset}: {fixed_text}")
        if len(g.objectives) > 1:
            print(f"    objectives: {', '.join(g.objectives)}")
    return 0


def _cmd_survey(args: argparse.Namespace) -> int:
    import warnings

    from .survey.runner import SurveyFileWarning, survey

    if args.count is not None and args.count < 1:
        raise SolitaireError(f"--count must be at least 1, not {args.count}")
    if args.start is not None and args.pysolfc is not None:
        raise SolitaireError("--start names the first seed: with --pysolfc give the numbers as "
                             "A-B (or A with --count)")
    start = 0 if args.start is None else args.start
    if args.out is not None:
        _path(args.out, "--out")
    count = SURVEY_COUNT if args.count is None else args.count
    tier = args.tier.replace("-", " ") if args.tier else None
    won: Optional[list] = [] if args.won_only else None
    last = [0.0]
    drawn = [False]

    def show(p) -> None:  # one line on stderr, redrawn at most ten times a second
        now = p.elapsed
        if now - last[0] < 0.1 and p.done < p.total:
            return
        last[0] = now
        drawn[0] = True
        lo, hi = p.result.interval
        eta = f"{p.eta:.0f} s" if p.eta != float("inf") else "?"
        found = f"{tier} {len(won):,}  " if tier and won is not None else ""
        print(f"\r{p.done:,}/{p.total:,} deals  {p.rate:,.0f} deals/s  "
              f"won {100 * p.result.win_rate:.3f}% [{100 * lo:.3f}, {100 * hi:.3f}]  "
              f"{found}ETA {eta}   ", end="", file=sys.stderr, flush=True)

    def say(message, category, filename, lineno, file=None, line=None) -> None:
        print(f"solitaire-solver: warning: {message}", file=sys.stderr, flush=True)

    with warnings.catch_warnings():
        # What was done to the --out file (a partial last line dropped) is said, once, plainly.
        warnings.simplefilter("always", SurveyFileWarning)
        warnings.showwarning = say
        which: dict = {"seeds": range(start, start + count)}
        if args.pysolfc is not None:
            which = {"pysolfc": _number_range(args.pysolfc, args.count)}
        try:
            r = survey(args.game, **which, won_only=won,
                       workers=args.workers, out=args.out, max_states=args.max_states,
                       max_seconds=args.max_seconds, retry_unknown=args.retry_unknown,
                       progress=None if args.quiet else show, tier=tier,
                       **_variant(args.option))
        finally:
            if drawn[0]:
                print(file=sys.stderr)  # end the progress line (before "interrupted", if it comes)
    if not args.quiet:
        # which rules the figures are for: with them, and never before an error
        _say_pysolfc_rules(args)
    summary = json.dumps(r.to_dict()) if args.json else r.table()
    if won is not None:
        print("\n".join(str(k) for k in sorted(won)) if won else "", end="\n" if won else "")
        print(summary, file=sys.stderr)
    else:
        print(summary)
    return 0


def _number_range(text: str, count: Optional[int]) -> range:
    """`A-B` (both included), or `A` with --count (SURVEY_COUNT if None): PySolFC game numbers
    for a survey."""
    first, sep, last = text.strip().partition("-")
    shown = quoted(text)
    parts = (first, last) if sep else (first,)
    if not all(p.strip().isascii() and p.strip().isdigit() for p in parts):
        raise SolitaireError(f"--pysolfc takes numbers A-B (or A with --count), not {shown}")
    if sep and count is not None:
        raise SolitaireError(f"--pysolfc {shown} names its last number: give --count only with "
                             "--pysolfc A")
    # read_number refuses a number PySolFC does not deal (however many digits it has).
    lo = pysolfc.read_number(first)[0]
    hi = pysolfc.read_number(last)[0] if sep else lo + (SURVEY_COUNT if count is None else count) - 1
    if hi < lo:
        raise SolitaireError(f"--pysolfc {shown}: the last number is below the first")
    return range(lo, hi + 1)


COMMANDS = {"solve": _cmd_solve, "hint": _cmd_hint, "rate": _cmd_rate, "analyze": _cmd_analyze,
            "show": _cmd_show,
            "verify": _cmd_verify, "games": _cmd_games, "survey": _cmd_survey}


def _stdout_to_devnull() -> None:
    """After a write to stdout failed: stdout goes to devnull, so that the interpreter's final
    flush does not fail again (with a message of its own)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    # Positionals may follow options (`verify elevens --seed 3 AD+TD ...`): argparse leaves such
    # words over, and they belong to the deal and moves.
    args, extra = parser.parse_known_args(argv)
    if extra:
        flags = [w for w in extra if w.startswith("-") and len(w) > 1]
        if flags or args.command in ("games", "survey"):
            parser.error(f"unrecognized arguments: {' '.join(flags or extra)}")
        if args.command in ("solve", "hint", "rate", "show"):
            args.deal = list(args.deal) + extra
        else:
            args.deal_and_moves = list(args.deal_and_moves) + extra
    try:
        _play_pysolfc_rules(args)
        return COMMANDS[args.command](args)
    except SolitaireError as e:
        print(f"solitaire-solver: error: {e}", file=sys.stderr)
        return BAD_INPUT
    except KeyboardInterrupt:
        print("solitaire-solver: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`... | head`): nothing is wrong with the answer, so no message.
        _stdout_to_devnull()
        return 141  # 128 + SIGPIPE, as a shell reports a pipe's writer stopped by the pipe
    except OSError as e:
        # The system refused a read or write the command's input did not cause (say, a full
        # disk behind standard output): one line, as for a file that cannot be written (--svg,
        # --html).
        where = f"{e.filename}: " if e.filename else ""
        print(f"solitaire-solver: error: {where}{e.strerror or e}", file=sys.stderr)
        _stdout_to_devnull()
        return BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
