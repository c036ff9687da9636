"""Ctrl-C stops a search running in the core (without the GIL) within a fraction of a second."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import solitaire_solver

# Children import the same solitaire_solver as the tests (not a source tree in the working
# directory, which has no compiled core).
ENV = {**os.environ, "PYTHONPATH": str(Path(solitaire_solver.__file__).parent.parent)}

# A long search: a Fourteen deal with a table of 1,024 slots re-explores millions of positions.
CHILD = """
import sys, solitaire_solver as ss
deal = ss.random_deal(46)
print("started", flush=True)
ss.solve("fourteen", deal, memory_mb=0.001)
print("finished", flush=True)
"""


def _default_sigint():
    # A job started in the background (CI, nohup) inherits SIGINT ignored, and Python then keeps
    # ignoring it; a terminal's Ctrl-C arrives with the default disposition, as here.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_sigint_interrupts_the_core():
    p = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, preexec_fn=_default_sigint,
                         env=ENV, cwd=os.path.expanduser("~"))
    assert p.stdout.readline().strip() == "started"
    time.sleep(0.5)
    t0 = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    waited = time.monotonic() - t0
    assert "finished" not in out, "the search ended before the signal: pick a longer one"
    assert "KeyboardInterrupt" in err
    assert waited < 2.0  # generous for a loaded machine; typically a few milliseconds


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_cli_reports_interrupt_with_exit_130():
    p = subprocess.Popen([sys.executable, "-m", "solitaire_solver", "solve", "fourteen",
                          "--seed", "46", "--memory-mb", "0.001"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=_default_sigint, env=ENV, cwd=os.path.expanduser("~"))
    time.sleep(0.8)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    assert p.returncode == 130
    assert err.strip() == "solitaire-solver: interrupted"
