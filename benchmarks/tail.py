"""The slow tail of every game and preset: per-deal median, p99 and max time and positions, at the
default limits with a cap per deal (issue 45's table in docs/benchmarks.md, "The slow tail").

    nice python benchmarks/tail.py [--count 10000] [--cap 10] [--workers 2] [--cache DIR]
                                   [--only NAME,...] [--skip NAME,...] [--also NAME:KEY=VALUE ...]

Each row is one game under its classic rules or one preset. Its deals are PySolFC's game numbers
1..COUNT where PySolFC plays those rules, else the seeded deals 0..COUNT-1. A deal that reaches the
cap (--cap seconds) counts unknown. Surveys stream to DIR/<name>.jsonl (one JSON line a deal), so a
stopped run resumes; the table is printed from those files, with the slowest deal of each row.
--also adds a row for a variant that is no preset (monte-carlo:consolidate=stuck); times are wall
time per deal, as the survey records them: on a shared machine read the positions beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import solitaire_solver as ss  # noqa: E402


def targets() -> list[tuple[str, str]]:
    """(name, "pysolfc" or "seeds") for every game's classic rules and every preset."""
    numbered = {p.preset or game.name for game in ss.GAMES for p in game.pysolfc}
    out = []
    for game in ss.GAMES:
        for name in [game.name, *sorted(game.presets)]:
            if name == game.name and game.name in game.presets:
                continue  # a preset named as its game (pyramid): listed once, as the preset
            out.append((name, "pysolfc" if name in numbered else "seeds"))
    return out


def quantile(xs: list[float], q: float) -> float:
    return xs[min(len(xs) - 1, int(q * (len(xs) - 1) + 0.5))]


def row(name: str, what: str, path: str) -> tuple[str, float]:
    recs = [json.loads(line) for line in open(path) if line.strip()]
    key = "pysolfc" if what == "pysolfc" else "seed"
    recs = [r for r in recs if key in r]
    ms = sorted(r["ms"] for r in recs)
    st = sorted(r["states"] for r in recs)
    slow = max(recs, key=lambda r: r["ms"])
    counts = {s: sum(r["status"] == s for r in recs) for s in ("won", "blocked", "unknown")}
    kind, mark = ("numbers", "#") if what == "pysolfc" else ("seeds", "seed")
    line = (f"| {name} | {kind} {len(recs)} | {counts['won']} / {counts['blocked']} / "
            f"{counts['unknown']} | {statistics.median(ms):.3f} | {quantile(ms, 0.99):.1f} | "
            f"{ms[-1]:.0f} ({mark} {slow[key]}) | {statistics.median(st):,.0f} | "
            f"{quantile(st, 0.99):,} | {st[-1]:,} | {sum(m > 1000 for m in ms)} |")
    return line, ms[-1]


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--count", type=int, default=10_000)
    p.add_argument("--cap", type=float, default=10.0)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "ss-tail"))
    p.add_argument("--only", default="")
    p.add_argument("--skip", default="")
    p.add_argument("--also", action="append", default=[])
    a = p.parse_args()
    only = set(filter(None, a.only.split(",")))
    skip = set(filter(None, a.skip.split(",")))
    os.makedirs(a.cache, exist_ok=True)
    lines = []
    rows = [(name, what, {}) for name, what in targets()
            if not (only and name not in only) and name not in skip]
    kinds = dict(targets())
    for extra in a.also:
        name, _, option = extra.partition(":")
        key, _, value = option.partition("=")
        rows.append((name, kinds[name], {key: value}))
    for name, what, variant in rows:
        label = " ".join([name, *(f"{k}={v}" for k, v in variant.items())])
        path = os.path.join(a.cache, f"{label.replace(' ', '_')}-{a.count}-{a.cap:g}.jsonl")
        deals = ({"pysolfc": range(1, a.count + 1)} if what == "pysolfc"
                 else {"seeds": range(a.count)})
        t0 = time.perf_counter()
        ss.survey(name, **deals, workers=a.workers, max_seconds=a.cap, out=path, **variant)
        line, _ = row(label, what, path)
        print(line, " wall %.0f s" % (time.perf_counter() - t0), file=sys.stderr, flush=True)
        lines.append(line)
    print("| game or preset | deals | won / blocked / unknown | median ms | p99 ms | max ms (deal) "
          "| median positions | p99 | max | deals over 1 s |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
