"""The example scripts run and say what they should."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import solitaire_solver

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
# The scripts import the same solitaire_solver as the tests, installed or not.
ENV = {**os.environ, "PYTHONPATH": str(Path(solitaire_solver.__file__).parent.parent)}


def run(*args):
    return subprocess.run([sys.executable, *map(str, args)], capture_output=True, text=True,
                          timeout=120, env=ENV)


def test_solve_one():
    p = run(EXAMPLES / "solve_one.py", "elevens", "2")
    assert p.returncode == 0
    assert p.stdout.startswith("elevens, seed 2: blocked\nstuck after")


def test_winnable_seeds_then_verify(tmp_path):
    p = run(EXAMPLES / "winnable_seeds.py", "elevens", "0", "40")
    assert p.returncode == 0
    lines = p.stdout.splitlines()
    assert lines and all(json.loads(x)["moves"] for x in lines)
    f = tmp_path / "w.jsonl"
    f.write_text(p.stdout)
    q = run(EXAMPLES / "verify_file.py", "elevens", f)
    assert q.returncode == 0 and "every solution checks" in q.stdout
    entry = json.loads(lines[0])
    entry["moves"] = entry["moves"][:-1]
    f.write_text(json.dumps(entry) + "\n")
    q = run(EXAMPLES / "verify_file.py", "elevens", f)
    assert q.returncode == 1 and "line 1" in q.stdout


@pytest.mark.core  # the Pyramid example's hint takes a minute on the pure-Python search
def test_pysolfc_game_runs_its_own_examples():
    # Issue 44, item 8: the docstring's Elevens line began with 5H+6C, where 6C is not showing.
    import shlex

    script = EXAMPLES / "pysolfc_game.py"
    lines = [x.strip() for x in script.read_text().splitlines()
             if x.strip().startswith("python examples/pysolfc_game.py")]
    assert len(lines) == 2
    for line in lines:
        p = run(script, *shlex.split(line)[2:])
        assert p.returncode == 0 and p.stderr == "", (line, p.stderr)
        assert p.stdout.splitlines()[-1].startswith("play "), line


def test_pysolfc_game_shows_the_layout_then_where_the_game_was_lost():
    # PySolFC's Monte Carlo number 3: pairing the Queens at move 2 loses (the fast check on both
    # backends; the script's own examples are Pyramid and Elevens).
    line = "7D+7H QH+QS consolidate TC+TS AC+AD consolidate".split()
    p = run(EXAMPLES / "pysolfc_game.py", "monte-carlo", "3", *line)
    assert p.returncode == 0, p.stderr
    out = p.stdout.splitlines()
    assert out[0] == "PySolFC Monte Carlo (game 89), number ms3:"
    assert out[-2].startswith("move 2 (QH+QS) lost the game; consolidate would have kept it "
                              "winnable")
    assert out[-1].startswith("blocked: ")
    q = run(EXAMPLES / "pysolfc_game.py", "monte-carlo", "3")
    assert q.returncode == 0 and q.stdout.splitlines()[-1].startswith("play ")
    bad = run(EXAMPLES / "pysolfc_game.py", "monte-carlo", "3", "KS")
    assert bad.returncode == 1 and bad.stdout.startswith("PySolFC Monte Carlo")
    err = bad.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("pysolfc_game: move 1 (KS)")


def test_pysolfc_game_refuses_a_number_of_thousands_of_digits_in_one_line():
    # Before: a bare ValueError from int() past Python's 4300 digits, a traceback.
    for number in ("1" * 4400, "ms" + "1" * 4400):
        p = run(EXAMPLES / "pysolfc_game.py", "pyramid", number)
        err = p.stderr.strip().splitlines()
        assert p.returncode == 1 and len(err) == 1, p.stderr
        assert err[0].startswith("pysolfc_game: PySolFC game number ") and len(err[0]) < 200


@pytest.mark.core  # exact chances and a tier scan in pure Python: too heavy for the fallback
def test_rate_deals(tmp_path):
    page = tmp_path / "rating.html"
    p = run(EXAMPLES / "rate_deals.py", "fourteen", "1", "--html", page)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("fourteen, seed 1:\nWON")
    assert "random player wins with probability 0.389183 (exact)" in p.stdout
    assert "keeps the game winnable" in p.stdout and "<svg" in page.read_text()
