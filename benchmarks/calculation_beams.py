"""Calculation's beams by themselves (the core's beam(); docs/calculation.md, "What the undecided
deals were"): for each seed, up to COUNT beams, the k-th (from 0) with shake START + k and the
setting of that number's turn among the SETTINGS given (round robin; with NOISE > 0 each beam
keeps other positions), until one wins or the seed's positions pass MAX_STATES; one json line a
seed [seed, the number of the beam that won (from 0) or null, positions, CPU seconds, and for a
win its setting, shake and whether `verify` (the reference rules) accepts its line], then the
deals won and the CPU in all.

    nice -n 10 python benchmarks/calculation_beams.py SETTINGS COUNT MAX_STATES SEEDS [START] [GAME]

SETTINGS: WIDTH:PEN:GAP:NOISE, comma-separated for several (PEN, GAP, NOISE: the spec's beam_pen,
beam_gap and beam_noise). SEEDS: FIRST..LAST, or a file of seeds (white space between them).
START: the first beam's shake (default 1). GAME: calculation (default: SEEDS are seeds) or
calculation-pysolfc (SEEDS are PySolFC's game numbers, dealt as `--pysolfc` deals them).
"""

from __future__ import annotations

import json
import sys
import time

import solitaire_solver as ss
from solitaire_solver.engine.backend import core_module
from solitaire_solver.engine.contract import Limits
from solitaire_solver.games import get_game
from solitaire_solver.moves import from_codes
from solitaire_solver.pysolfc import pysolfc_deal


def seeds_of(arg: str) -> list[int]:
    """FIRST..LAST, or the name of a file of seeds (white space between them)."""
    if ".." in arg:
        first, last = arg.split("..")
        return list(range(int(first), int(last) + 1))
    with open(arg, encoding="utf-8") as f:
        return [int(x) for x in f.read().split()]


def main() -> None:
    conf, count, most, seeds_arg = sys.argv[1:5]
    start = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    settings = [tuple(int(x) for x in c.split(":")) for c in conf.split(",")]
    seeds = seeds_of(seeds_arg)
    name = sys.argv[6] if len(sys.argv) > 6 else "calculation"
    game, variant = get_game(name)
    core = core_module(game.core)
    limits = Limits(memory_bytes=1 << 29)
    won, cpu = 0, 0.0
    for seed in seeds:
        deal = pysolfc_deal(name, seed) if name.endswith("-pysolfc") else ss.Deal.from_seed(seed)
        spec = game.core_spec(deal, variant, "decide", False)
        t = time.process_time()
        states, winner, path, setting = 0, None, [], settings[0]
        for k in range(int(count)):
            shake = start + k
            setting = settings[shake % len(settings)]
            width, pen, gap, noise = setting
            status, path, n = core.beam(dict(spec, beam_pen=pen, beam_gap=gap, beam_noise=noise,
                                             shake=shake), width, limits)
            states += n
            if status == "won":
                winner = k
                break
            if states > int(most):
                break
        spent = time.process_time() - t
        cpu += spent
        won += winner is not None
        row = [seed, winner, states, round(spent, 3)]
        if winner is not None:
            # A win is a win only once its line replays under the reference rules.
            ok = ss.verify(name, deal, from_codes(path)).ok
            row += [":".join(map(str, setting)), start + winner, ok]
        print(json.dumps(row), flush=True)
    print(f"# {conf} x {count}: won {won} of {len(seeds)}, CPU {cpu:.1f} s")


if __name__ == "__main__":
    main()
