"""The command line: verdicts, exit codes 0/1/2/3, one-line errors, JSON."""

import json
import os
import re
import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest

import solitaire_solver as ss
from solitaire_solver.cli import main
from solitaire_solver.engine import backend


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def without_time(out: str) -> str:
    """The output with its last line's time left out: two runs take different times."""
    return re.sub(r", [0-9.]+ ms\)$", ")", out.rstrip("\n"))


def seed_with(status, game="elevens"):
    return next(s for s in range(1000) if ss.solve(game, ss.random_deal(s)).status is status)


def test_solve_won_prints_layout_and_moves(capsys):
    s = seed_with(ss.Status.WON)
    code, out, _ = run(capsys, "solve", "elevens", "--seed", str(s))
    assert code == 0
    assert "WON in" in out and " JS " in out and "♠" not in out  # letters unless --unicode
    r = ss.solve("elevens", ss.random_deal(s))
    assert f"  1. {r.moves[0]}" in out
    code, pretty, _ = run(capsys, "solve", "elevens", "--seed", str(s), "--unicode")
    assert code == 0 and " J♠ " in pretty and without_time(pretty).replace("♠", "S") \
        .replace("♣", "C").replace("♥", "H").replace("♦", "D") == without_time(out)


def test_solve_blocked_and_json(capsys):
    s = seed_with(ss.Status.BLOCKED)
    code, out, _ = run(capsys, "solve", "elevens", "--seed", str(s))
    assert code == 1 and "BLOCKED: stuck after" in out
    code, out, _ = run(capsys, "solve", "eleven", "--seed", str(s), "--json")
    data = json.loads(out)
    assert code == 1 and data["status"] == "blocked"
    assert data["proof"]["kind"] == "forced-line"


def test_solve_from_text_and_file(capsys, tmp_path):
    d = ss.random_deal(3)
    code, out, _ = run(capsys, "solve", "elevens", str(d))
    assert code == 0
    code2, out2, _ = run(capsys, "solve", "elevens", *str(d).split())
    assert code2 == 0 and without_time(out2) == without_time(out)
    f = tmp_path / "deal.txt"
    f.write_text(str(d).replace(" ", "\n"))
    assert run(capsys, "solve", "elevens", "--file", str(f))[0] == 0


def test_unknown_with_limit(capsys):
    code, out, _ = run(capsys, "solve", "elevens", "--seed", "935", "--certificate",
                       "--max-states", "5")
    assert code == 2 and "UNKNOWN" in out


def test_verify(capsys):
    d = ss.random_deal(3)
    r = ss.solve("elevens", d)
    moves = [str(m) for m in r.moves]
    assert run(capsys, "verify", "elevens", str(d), *moves)[0] == 0
    code, out, _ = run(capsys, "verify", "elevens", "--seed", "3", *moves[:-1])
    assert code == 1 and out.startswith("INVALID")
    code, out, _ = run(capsys, "verify", "elevens", "--seed", "3", "2C+3C", "--json")
    assert code == 1 and json.loads(out)["ok"] is False


@pytest.mark.parametrize("argv,needle", [
    (["solve", "elevens", "AS 2H"], "52 cards"),
    (["solve", "nosuchgame", "--seed", "1"], "unknown game"),
    (["solve", "elevens", "--seed", "1", "-o", "passes=2"], "no variant"),
    (["solve", "elevens", "--seed", "1", "-o", "junk"], "name=value"),
    (["solve", "elevens"], "give the deal"),
    (["solve", "elevens", "--file", "/nonexistent/deal.txt"], "cannot read"),
    (["solve", "elevens", "--seed", "1", "--max-states", "0"], "max_states"),
    (["verify", "elevens", "--seed", "1", "5H+ZZ"], "move 1"),
    (["solve", "elevens", "--seed", "x"], "invalid int"),
    (["frobnicate"], "invalid choice"),
])
def test_bad_input_is_one_line_and_exit_3(capsys, argv, needle):
    try:
        code = main(argv)
    except SystemExit as e:  # argparse's own errors leave through SystemExit
        code = e.code
    out, err = capsys.readouterr()
    assert code == 3
    assert needle in err and len(err.strip().splitlines()) == 1 and out == ""


def test_games_lists_every_game(capsys):
    code, out, _ = run(capsys, "games")
    assert code == 0
    for g in ss.GAMES:
        assert g.name in out


def test_console_entry_point_exit_code():
    # The child imports the same package as the tests, not a source tree in the working directory.
    env = {**os.environ, "PYTHONPATH": str(Path(ss.__file__).parent.parent)}
    run_cli = partial(subprocess.run, capture_output=True, text=True, env=env,
                      cwd=os.path.expanduser("~"))
    p = run_cli([sys.executable, "-m", "solitaire_solver", "solve", "elevens", "AS"])
    assert p.returncode == 3
    assert p.stderr.count("\n") == 1 and "Traceback" not in p.stderr
    p = run_cli([sys.executable, "-m", "solitaire_solver", "solve", "elevens", "--seed"])
    assert p.returncode == 3 and "Traceback" not in p.stderr
    p = run_cli([sys.executable, "-m", "solitaire_solver", "solve", "elevens", "--seed", "3"])
    # Nothing on stderr but, under SOLITAIRE_SOLVER_PURE, the one warning that says so.
    quiet = "" if not backend.pure_requested() else p.stderr
    assert p.returncode == 0 and "WON" in p.stdout and p.stderr == quiet
    assert (not quiet or "SOLITAIRE_SOLVER_PURE is set" in quiet) and "Traceback" not in quiet


def test_output_cut_short_by_the_reader_gives_no_traceback():
    # `solitaire-solver solve ... | head -0`: the reader is gone before the answer is written.
    env = {**os.environ, "PYTHONPATH": str(Path(ss.__file__).parent.parent)}
    p = subprocess.Popen([sys.executable, "-m", "solitaire_solver", "solve", "elevens", "--seed",
                          "3"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                         cwd=os.path.expanduser("~"))
    p.stdout.close()
    err = p.stderr.read().decode()
    assert p.wait(timeout=60) == 141
    assert "Traceback" not in err and "Broken pipe" not in err


def test_cards_print_as_letters_where_standard_output_has_no_suit_symbols():
    # Before: a slot game's drawing (solve's, and its proof's) printed suit symbols, and on an
    # ascii or cp1252 standard output solve died with UnicodeEncodeError; --json carried them.
    env = {**os.environ, "PYTHONPATH": str(Path(ss.__file__).parent.parent)}
    won, blocked = seed_with(ss.Status.WON), seed_with(ss.Status.BLOCKED)
    r = ss.solve("elevens", ss.random_deal(blocked))
    line = [str(m) for m in r.proof.moves]

    def cli(encoding, *argv):
        p = subprocess.run([sys.executable, "-m", "solitaire_solver", *argv], capture_output=True,
                           text=True, env={**env, "PYTHONIOENCODING": encoding},
                           cwd=os.path.expanduser("~"))
        assert "Traceback" not in p.stderr, (argv, p.stderr)
        assert p.stdout.isascii() or encoding == "utf-8", argv
        return p.returncode, p.stdout

    for encoding in ("ascii", "cp1252"):
        code, out = cli(encoding, "solve", "elevens", "--seed", str(won))
        assert code == 0 and "WON in" in out and re.search(r"\b[2-9TJQKA][CDHS]  ", out)
        code, out = cli(encoding, "solve", "elevens", "--seed", str(blocked))
        assert code == 1 and out.count(r.proof.position.splitlines()[0].translate(LETTERS)) == 1
        code, out = cli(encoding, "solve", "elevens", "--seed", str(blocked), "--json")
        data = json.loads(out)
        assert code == 1 and "\\u26" not in out
        assert data["proof"]["position"] == r.proof.position.translate(LETTERS)
    # Every other command that prints cards, and PySolFC's layout.
    for argv, expected in ((["show", "elevens", "--seed", str(blocked)], 0),
                           (["show", "elevens", "--seed", str(blocked), "--json"], 0),
                           (["hint", "tens", "--seed", "1"], 1),
                           (["verify", "elevens", "--seed", str(blocked), *line], 1),
                           (["analyze", "elevens", "--seed", str(blocked), *line], 1),
                           (["solve", "fifteens", "--pysolfc", "5"], None)):
        code, out = cli("ascii", *argv)
        assert code == expected if expected is not None else code in (0, 1), argv
    # Symbols where asked for; where standard output cannot print them, one line and exit 3.
    code, out = cli("utf-8", "solve", "elevens", "--seed", str(won), "--unicode")
    assert code == 0 and not out.isascii()
    p = subprocess.run([sys.executable, "-m", "solitaire_solver", "solve", "elevens", "--seed",
                        str(won), "--unicode"], capture_output=True, text=True,
                       env={**env, "PYTHONIOENCODING": "ascii"}, cwd=os.path.expanduser("~"))
    assert p.returncode == 3 and "Traceback" not in p.stderr
    assert p.stderr.strip().splitlines()[-1].startswith("solitaire-solver: error: standard output")


LETTERS = str.maketrans({"♣": "C", "♦": "D", "♥": "H", "♠": "S"})
