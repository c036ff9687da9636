"""Calculation's first try under other settings (Game.first_try; docs/calculation.md, "Order, the
beam and restarts"): each seed solved under a limit of positions, one json line a seed
[seed, status, positions, CPU seconds, the try that won], then the counts, median and total CPU.

    nice -n 10 python benchmarks/calculation_first_try.py FIRST_STATES RESTARTS_FIRST BEAMS RESTARTS \
        EACH FIRST LAST MAX_STATES [NOISY [SEEDS_FILE]]

RESTARTS_FIRST: the restarts tried before the beams, the others after the noisy beams (until
2026-12-07 this argument, BEAMS_AFTER, put the beams after that many restarts, the rest of the
restarts before the noisy beams).

BEAMS: width:beam_pen:beam_gap, comma-separated, or - for none (e.g. 64:8:0,512:4:1); EACH:
the restarts' RESTART_STATES. NOISY: width:beam_pen:beam_gap:beam_noise:count, the noisy beams
after the beams (- for none; the game's own when not given). SEEDS_FILE: the seeds to
solve (white space between them) instead of FIRST..LAST.
"""

from __future__ import annotations

import collections
import json
import sys
import time

import solitaire_solver as ss
from solitaire_solver.games import get_game


def main() -> None:
    quick, after, beams, restarts, each, first, last, most = sys.argv[1:9]
    cls = type(get_game("calculation")[0])
    cls.FIRST_STATES = int(quick)
    cls.RESTARTS_FIRST = int(after)
    cls.BEAMS = () if beams == "-" else tuple(tuple(int(x) for x in b.split(":"))
                                              for b in beams.split(","))
    cls.RESTARTS = int(restarts)
    cls.RESTART_STATES = int(each)
    if len(sys.argv) > 9 and sys.argv[9] == "-":
        cls.NOISY_BEAMS = 0
    elif len(sys.argv) > 9:
        *noisy, count = (int(x) for x in sys.argv[9].split(":"))
        cls.NOISY, cls.NOISY_BEAMS = tuple(noisy), count
    seeds = range(int(first), int(last) + 1)
    if len(sys.argv) > 10:
        with open(sys.argv[10]) as f:
            seeds = [int(x) for x in f.read().split()]
    counts: collections.Counter = collections.Counter()
    cpu = []
    for seed in seeds:
        t = time.process_time()
        r = ss.solve("calculation", ss.Deal.from_seed(seed), max_states=int(most))
        cpu.append(time.process_time() - t)
        counts[r.status.value] += 1
        print(json.dumps([seed, r.status.value, int(r.stats.get("states", 0)), round(cpu[-1], 3),
                          r.stats.get("first_try", "")]), flush=True)
    cpu.sort()
    print(f"# {dict(counts)}, CPU median {cpu[len(cpu) // 2]:.3f} s, total {sum(cpu):.1f} s")


if __name__ == "__main__":
    main()
