"""Calculation's beams by themselves (the core's beam(); docs/calculation.md, "What the undecided
deals were"): for each seed, up to COUNT beams WIDTH wide, the k-th with shake k (with NOISE > 0,
each keeps other positions), until one wins or the seed's positions pass MAX_STATES; one json line
a seed [seed, the number of the beam that won (from 0) or null, positions, CPU seconds], then the
deals won and the CPU in all.

    nice -n 10 python benchmarks/calculation_beams.py WIDTH:PEN:GAP:NOISE COUNT MAX_STATES SEEDS

SEEDS: FIRST..LAST, or a file of seeds (white space between them). PEN, GAP, NOISE: the spec's
beam_pen, beam_gap and beam_noise.
"""

from __future__ import annotations

import json
import sys
import time

import solitaire_solver as ss
from solitaire_solver.engine.backend import core_module
from solitaire_solver.engine.contract import Limits
from solitaire_solver.games import get_game


def main() -> None:
    conf, count, most, seeds_arg = sys.argv[1:5]
    width, pen, gap, noise = (int(x) for x in conf.split(":"))
    if ".." in seeds_arg:
        first, last = seeds_arg.split("..")
        seeds = list(range(int(first), int(last) + 1))
    else:
        with open(seeds_arg) as f:
            seeds = [int(x) for x in f.read().split()]
    game = get_game("calculation")[0]
    core = core_module(game.core)
    limits = Limits(memory_bytes=1 << 29)
    won, cpu = 0, 0.0
    for seed in seeds:
        spec = game.core_spec(ss.Deal.from_seed(seed), {}, "decide", False)
        t = time.process_time()
        states, winner = 0, None
        for k in range(int(count)):
            status, _, n = core.beam(dict(spec, beam_pen=pen, beam_gap=gap, beam_noise=noise,
                                          shake=k + 1), width, limits)
            states += n
            if status == "won":
                winner = k
                break
            if states > int(most):
                break
        cpu += time.process_time() - t
        won += winner is not None
        print(json.dumps([seed, winner, states, round(time.process_time() - t, 3)]), flush=True)
    print(f"# {conf} x {count}: won {won} of {len(seeds)}, CPU {cpu:.1f} s")


if __name__ == "__main__":
    main()
