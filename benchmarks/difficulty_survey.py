"""The tier tables of docs/difficulty.md: rate seeded deals of every game and preset, take the
20/40/60/80% quantiles of the won deals' random-player chance as the tier boundaries, draw the
distribution (one SVG per game and variant in docs/difficulty/), and check that a greedy player's
win rate falls from tier to tier.

    nice -n 10 python benchmarks/difficulty_survey.py --cpu 50 --write
    python benchmarks/difficulty_survey.py --labels fourteen,nestor --cpu 5   # a quick look

--cpu: CPU seconds of rating per game and variant in this run (seeds 0, 1, 2, ... until spent, at
most --max-seeds, or until the table holds --won won deals); --journal DIR: keep every rated
seed in DIR/<label>.jsonl and go on from there in a later run (the tables then rest on every
run's seeds); --write: rewrite solitaire_solver/tiers.py and the pictures, and print the
Markdown tables docs/difficulty.md quotes.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from typing import Any

import solitaire_solver as ss
from solitaire_solver.games import GAMES, resolve
from solitaire_solver.rating import TIERS, rank_tier, table_label
from solitaire_solver.rating import greedy_wins as rating_greedy_wins

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def labels() -> list[str]:
    """Every game and preset by the name a player gives it, one per distinct variant."""
    out, seen = [], set()
    for g in GAMES:
        for name in (g.name, *g.presets):
            key = table_label(*resolve(name, {}))
            if key not in seen:
                seen.add(key)
                out.append(name)
    return out


def greedy_wins(game: str, deal: Any) -> bool:
    """The greedy player of the check (rating.greedy_wins: the move of the highest
    Game.greedy_score, by default the one that leaves the fewest cards)."""
    g, var = resolve(game, {})
    return rating_greedy_wins(g, var, deal)


def survey(name: str, cpu: float, max_seeds: int, journal: str | None = None,
           max_won: int | None = None) -> dict:
    """Rate seeds 0, 1, 2, ... of a game until `cpu` CPU seconds are spent in this run,
    max_seeds are rated or the table holds max_won won deals. With a journal (a JSON-lines
    file, one rated seed a line), the seeds it holds are taken from it and the run goes on from
    the next one, appending: a table can grow over several runs."""
    solver = ss.Solver(name, max_seconds=5)
    won, seeds, unknown, spent = [], 0, 0, 0.0
    good = 0  # bytes of whole lines read: a line cut short by a stop is dropped, rated again
    if journal and os.path.exists(journal):
        with open(journal, "rb") as f:
            for raw in f:
                try:
                    rec = json.loads(raw) if raw.endswith(b"\n") else None
                except ValueError:
                    rec = None
                if rec is None:
                    break
                good += len(raw)
                if rec["seed"] != seeds:
                    raise SystemExit(f"{journal}: seed {rec['seed']} where {seeds} was due")
                if rec["status"] == "won":
                    won.append((seeds, rec["chance"], rec["exact"], rec["greedy"]))
                unknown += rec["status"] == "unknown"
                spent += rec["cpu"]
                seeds += 1
    out = open(journal, "a") if journal else None
    if out:
        out.truncate(good)  # appending after a cut line would join the next record to it
    c0 = time.process_time()
    while (seeds < max_seeds and time.process_time() - c0 < cpu
           and (max_won is None or len(won) < max_won)):
        t0 = time.process_time()
        deal = ss.random_deal(seeds)
        r = solver.rate(deal, critical=False)
        rec: dict[str, Any] = {"seed": seeds, "status": r.status.name.lower()}
        if r.status is ss.Status.WON:
            won.append((seeds, r.random_win, r.exact, greedy_wins(name, deal)))
            rec.update(chance=r.random_win, exact=r.exact, greedy=won[-1][3])
        elif r.status is ss.Status.UNKNOWN:
            unknown += 1
        seeds += 1
        if out:
            rec["cpu"] = round(time.process_time() - t0, 6)
            out.write(json.dumps(rec) + "\n")
            out.flush()
    if out:
        out.close()
    g, var = resolve(name, {})
    return {"name": name, "label": table_label(g, var), "seeds": seeds, "unknown": unknown,
            "won": won, "cpu": spent + time.process_time() - c0}


def slug_of(label: str) -> str:
    """A file name for a table's label."""
    return label.replace(" ", "_").replace("=", "-")


def boundaries(values: list[float]) -> tuple[float, ...]:
    """The 20/40/60/80% quantiles (the lower of the two middle values: a boundary is a chance
    some surveyed deal has)."""
    v = sorted(values)
    return tuple(v[min(len(v) - 1, (k * len(v)) // 5)] for k in (1, 2, 3, 4))


def svg(data: dict, bounds: tuple) -> str:
    """A histogram of log10 of the won deals' chance (a bar apart for a chance estimated 0),
    with the tier boundaries as lines."""
    vals = [p for _, p, _, _ in data["won"]]
    zero = sum(1 for p in vals if p <= 0)
    logs = [math.log10(p) for p in vals if p > 0]
    lo = math.floor(min(logs)) if logs else -1
    lo = min(lo, -1)
    width = 0.25
    nbins = int(round(-lo / width)) + 1
    counts = [0] * nbins
    for x in logs:
        counts[min(nbins - 1, int((x - lo) / width))] += 1
    top = max(counts + [zero, 1])
    w, h, left, bottom = 640, 300, 50, 40
    bw = (w - left - 20) / (nbins + 1)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
             f'viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="11">',
             f'<rect width="{w}" height="{h}" fill="white"/>',
             f'<text x="{left}" y="16" font-size="13">{data["label"]}: random player\'s '
             f'chance over {len(vals)} won deals of {data["seeds"]} seeds</text>']

    def bar(i: int, c: int, colour: str) -> None:
        bh = (h - bottom - 30) * c / top
        parts.append(f'<rect x="{left + i * bw:.1f}" y="{h - bottom - bh:.1f}" '
                     f'width="{bw - 1:.1f}" height="{bh:.1f}" fill="{colour}"/>')

    bar(0, zero, "#999")
    for i, c in enumerate(counts):
        bar(i + 1, c, "#4a7ab5")
    for k in range(lo, 1):
        x = left + (1 + (k - lo) / width) * bw
        parts.append(f'<text x="{x:.1f}" y="{h - bottom + 15}" text-anchor="middle">1e{k}</text>')
    parts.append(f'<text x="{left + bw / 2:.1f}" y="{h - bottom + 15}" '
                 'text-anchor="middle">0</text>')
    for b in bounds:
        if b > 0:
            x = left + (1 + (math.log10(b) - lo) / width) * bw
            parts.append(f'<line x1="{x:.1f}" y1="30" x2="{x:.1f}" y2="{h - bottom}" '
                         'stroke="#c33" stroke-dasharray="4 3"/>')
    parts.append(f'<text x="{left}" y="{h - 8}">log scale; grey: no random line won (an '
                 'estimate); dashed: tier boundaries</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def write_table(done: dict) -> None:
    """Rewrite solitaire_solver/tiers.py with the rows surveyed in this run (label -> (bounds,
    won, seeds)), after each game: the file is re-read first, so that an interrupted run keeps
    the games it finished and runs side by side keep each other's rows."""
    import importlib

    from solitaire_solver import tiers
    table = dict(importlib.reload(tiers).BOUNDARIES)
    table.update(done)
    lines = ['"""The tier boundaries of every surveyed game and variant (docs/difficulty.md), '
             'written by', 'benchmarks/difficulty_survey.py: label (rating.table_label) -> '
             '((the random player\'s chance at', 'the 20%, 40%, 60% and 80% quantiles of the '
             'won deals), won deals rated, seeds surveyed)."""', "",
             "BOUNDARIES: dict[str, tuple[tuple[float, float, float, float], int, int]] = {"]
    for label, (b, n, seeds) in table.items():
        # ten significant digits: a boundary is a chance some deal had, kept to a line
        bounds = ", ".join(repr(float(f"{x:.10g}")) for x in b)
        lines.append(f"    {label!r}:\n        (({bounds}), {n}, {seeds}),")
    lines.append("}")
    path = os.path.join(ROOT, "solitaire_solver", "tiers.py")
    with open(path + ".new", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(path + ".new", path)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cpu", type=float, default=50.0)
    ap.add_argument("--max-seeds", type=int, default=100_000)
    ap.add_argument("--won", type=int, default=None,
                    help="stop a game once its table holds this many won deals (with a "
                         "journal, counting earlier runs')")
    ap.add_argument("--labels", default="")
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--journal", metavar="DIR",
                    help="keep each game's rated seeds in DIR/<label>.jsonl and go on from "
                         "where an earlier run with the same DIR stopped")
    ap.add_argument("--data", help="write every won deal rated (seed, chance, exact, greedy won) "
                                   "to this JSON file, by game and variant")
    args = ap.parse_args(argv)
    names = args.labels.split(",") if args.labels else labels()
    rows, raw, done = [], {}, {}
    for name in names:
        journal = None
        if args.journal:
            os.makedirs(args.journal, exist_ok=True)
            journal = os.path.join(args.journal, slug_of(table_label(*resolve(name, {}))) + ".jsonl")
        data = survey(name, args.cpu, args.max_seeds, journal, args.won)
        vals = [p for _, p, _, _ in data["won"]]
        if not vals:
            print(f"{data['label']}: no won deal in {data['seeds']} seeds", file=sys.stderr)
            continue
        b = boundaries(vals)
        done[data["label"]] = (b, len(vals), data["seeds"])
        raw[data["label"]] = data
        by_tier = {t: [0, 0] for t in TIERS}
        for _, p, _, gw in data["won"]:
            by_tier[rank_tier(b, p)][0] += 1
            by_tier[rank_tier(b, p)][1] += gw
        exact = sum(1 for w in data["won"] if w[2])
        greedy = " | ".join(f"{w / n:.0%} of {n}" if n else "-" for n, w in by_tier.values())
        rows.append(f"| {data['label']} | {data['seeds']} | {len(vals)} | {exact} | "
                    + " | ".join(f"{x:.3g}" for x in b) + f" | {greedy} | {data['cpu']:.0f} |")
        print(rows[-1], flush=True)
        if args.write:
            slug = slug_of(data["label"])
            os.makedirs(os.path.join(ROOT, "docs", "difficulty"), exist_ok=True)
            with open(os.path.join(ROOT, "docs", "difficulty", f"{slug}.svg"), "w") as f:
                f.write(svg(data, b))
            write_table(done)
    print("| game and variant | seeds | won | exact | 20% | 40% | 60% | 80% | "
          + " | ".join(f"greedy: {t}" for t in TIERS) + " | CPU s |")
    print("\n".join(rows))
    if args.data:
        with open(args.data, "w") as f:
            json.dump(raw, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
