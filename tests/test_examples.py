"""The example scripts run and say what they should."""

import json
import os
import subprocess
import sys
from pathlib import Path

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
