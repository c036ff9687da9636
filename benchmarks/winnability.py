"""Win rates of every game and variant: runs the surveys and writes docs/winnability.md + a chart.

    nice python benchmarks/winnability.py [--scale 1.0] [--cap GAME=N] [--cache DIR] [--only G,...]
                                          [--workers W] [--cache-only]

Generic-path surveys stream to DIR/<game>-<variant>.jsonl, so a stopped run resumes where it was.
--scale multiplies every count (0.01 for a quick look). The chart needs matplotlib (the `plot`
extra); without it the doc is written with the table alone.
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

import solitaire_solver as ss  # noqa: E402
from solitaire_solver.games import get_game  # noqa: E402

ISSUE2 = "greedy play over 10^6 deals, quoted in issue 2 (the issue does not name its source)"
SWR = "solitairewinrates.com/Pyramid.html (100 million deals, the author's program)"
MSC = ("998 of the 1,500 decks of tests/data/pyramid-msc-1500, decided by another program "
       "(quoted in issue 4)")

ISSUE12 = "quoted in issue 12 (the issue does not name its source)"

#: (game, variant, seeds, per-deal limits, published figure or None, its source)
PLAN = [
    ("elevens", {}, 10_000_000, {}, 0.107, ISSUE2),
    ("block-ten", {}, 10_000_000, {}, 0.0367, ISSUE2),
    ("tens", {}, 10_000_000, {}, None, ""),
    ("tens", {"quartets": "rank"}, 10_000_000, {}, 0.0913,
     "greedy play over 10^6 deals, " + ISSUE12),
    # PySolFC's rules (presets elevens-pysolfc, tens-pysolfc; docs/winnability.md, "PySolFC rules")
    ("elevens", {"reserves": "pysolfc"}, 1_000_000, {}, None, ""),
    ("tens", {"quartets": "rank", "reserves": "pysolfc"}, 1_000_000, {}, None, ""),
    ("block-elevens", {}, 10_000_000, {}, None, ""),
    ("block-elevens", {"later": "while"}, 10_000_000, {}, 0.3197,
     "court cards sent to the bottom at least once, 10^9 deals, " + ISSUE12),
    ("block-elevens", {"later": "none"}, 10_000_000, {}, 0.3175,
     "only the first layout's court cards move, " + ISSUE12),
    ("fifteens", {}, 1_000_000, {}, None, ""),
    ("nestor", {"reserve": "closed"}, 1_000_000, {}, None, ""),
    ("nestor", {"reserve": "open"}, 1_000_000, {}, None, ""),
    # Pyramid and Fourteen at 10^6 (issue 18: intervals within about ±0.1 point); a run stopped
    # short is written up with --cache-only at the seeds it reached.
    ("fourteen", {}, 1_000_000, {}, None, ""),
    ("pyramid", {}, 1_000_000, {"max_seconds": 10.0}, None, ""),
    ("pyramid", {"goal": "pyramid"}, 1_000_000, {"max_seconds": 10.0}, 998 / 1500, MSC),
    ("pyramid", {"passes": 1}, 1_000_000, {"max_seconds": 10.0}, 0.0680, SWR + ", All Cards, Once"),
    ("pyramid", {"passes": 1, "goal": "pyramid"}, 1_000_000, {"max_seconds": 10.0}, 0.0902,
     SWR + ", Pyramid Only, Once"),
    ("pyramid", {"passes": 2}, 1_000_000, {"max_seconds": 10.0}, None, ""),
    ("pyramid", {"passes": "unlimited", "goal": "pyramid"}, 1_000_000, {"max_seconds": 10.0},
     0.6687, SWR + ", Pyramid Only, Unlimited"),
    ("pyramid", {"passes": "unlimited"}, 1_000_000, {"max_seconds": 10.0}, None, ""),
    ("pyramid", {"stock_waste_pairs": False}, 1_000_000, {"max_seconds": 10.0}, None, ""),
    # The same site's figures with its "overlap" option on (docs/pyramid.md).
    ("pyramid", {"passes": 1, "overlap_pairs": True}, 1_000_000, {"max_seconds": 10.0}, 0.1592,
     SWR + ", All Cards, Once, overlap"),
    ("pyramid", {"passes": 1, "goal": "pyramid", "overlap_pairs": True}, 1_000_000,
     {"max_seconds": 10.0}, 0.2277, SWR + ", Pyramid Only, Once, overlap"),
    ("pyramid", {"passes": "unlimited", "goal": "pyramid", "overlap_pairs": True}, 1_000_000,
     {"max_seconds": 10.0}, 0.8315, SWR + ", Pyramid Only, Unlimited, overlap"),
    ("baroness", {}, 1_000_000, {}, 0.20, "\"about 1 in 5\", quoted in issue 13 (no method given)"),
    ("monte-carlo", {"consolidate": "any"}, 1_000_000, {}, None, ""),
    ("monte-carlo", {"consolidate": "stuck"}, 1_000_000, {}, None, ""),
]


def cached_prefix(path: str, n: int) -> int:
    """The largest k <= n with seeds 0..k-1 all in the survey file at path (0 when none)."""
    import json

    seen = set()
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                try:
                    rec = json.loads(line)
                except ValueError:
                    break  # a line cut short by a stop
                if "seed" in rec:  # the first line names the survey
                    seen.add(rec["seed"])
    except OSError:
        return 0
    k = 0
    while k < n and k in seen:
        k += 1
    return k


GENERATED = ("## Cards left in blocked deals",)


def kept_from(path: str) -> tuple[dict[str, str], list[str]]:
    """From the doc already at path: its table rows by variant label, and the sections written
    by other tools (any "## " section but the chart's), so a partial run or a rerun keeps what
    it did not redo."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError:
        return {}, []
    # The main table comes before the first section; the sections' own tables stay in them.
    first = next((i for i, ln in enumerate(lines) if ln.startswith("## ")), len(lines))
    rows = {ln.split("|")[1].strip(): ln for ln in lines[:first]
            if ln.startswith("| ") and not ln.startswith("| game and variant")}
    sections, keep = [], False
    for ln in lines:
        if ln.startswith("## "):
            keep = ln not in GENERATED
        if keep:
            sections.append(ln)
    return rows, sections


def row_deals(row: str) -> int:
    """The deals column of a table row."""
    return int(row.split("|")[2].strip().replace(",", ""))


def label(game: str, variant: dict) -> str:
    return game + "".join(f" {k}={v}" for k, v in variant.items())


def chart(results: list, path: str) -> bool:
    """One panel per game, one line per variant: the share of blocked deals by cards left. The
    legend gives how many blocked deals report the figure (a structural proof, or a Pyramid
    block found with unlimited passes for a variant with fewer, reports none)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    games: dict = {}
    for name, r in results:
        # A variant where most blocked deals report no figure would show a biased few.
        if sum(r.cards_left.values()) * 2 >= max(r.blocked, 1):
            games.setdefault(name.split()[0], []).append((name, r))
    if not games:
        return False
    cols = min(3, len(games))
    rows = (len(games) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(5 * cols, 3.6 * rows), squeeze=False)
    for ax, (game, series) in zip(axes.flat, games.items()):
        for name, r in series:
            total = sum(r.cards_left.values())
            xs = sorted(r.cards_left)
            variant = name[len(game):].strip() or "defaults"
            ax.plot(xs, [100 * r.cards_left[x] / total for x in xs], marker=".",
                    label=f"{variant} ({total:,} of {r.blocked:,})")
        ax.set_title(game)
        ax.set_xlabel("cards left when blocked")
        ax.set_ylabel("% of blocked deals")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(games):]:
        ax.set_visible(False)
    fig.suptitle("Cards left in blocked deals (seeded deals)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def shown_command(argv: list[str]) -> str:
    """The command as the doc shows it: the cache folder is this machine's, so it reads DIR."""
    out, hide = [], False
    for a in argv:
        if hide:
            a, hide = "DIR", False
        elif a == "--cache":
            hide = True
        elif a.startswith("--cache="):
            a = "--cache=DIR"
        out.append(a)
    return " ".join(["nice python benchmarks/winnability.py", *out])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "solitaire-surveys"))
    ap.add_argument("--cap", action="append", default=[], metavar="GAME=N",
                    help="at most N deals for each variant of GAME (repeatable)")
    ap.add_argument("--only", help="games to run (the doc keeps the others' rows as they were)")
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "winnability.md"))
    ap.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    ap.add_argument("--cache-only", action="store_true",
                    help="decide nothing new: report, for the generic path, the longest run of "
                    "seeds 0..k-1 already in each cache file (a stopped run, written up)")
    args = ap.parse_args(argv)
    os.makedirs(args.cache, exist_ok=True)
    only = set(args.only.split(",")) if args.only else None
    known = {g.name for g in ss.GAMES}
    caps = {k: int(v) for k, _, v in (c.partition("=") for c in args.cap)}

    old_rows, sections = kept_from(args.out)
    rows: dict[str, str] = {}
    results, missing = [], []
    for game, variant, n, limits, published, source in PLAN:
        if game not in known:
            missing.append(label(game, variant) + " (game not in the library)")
            continue
        if only and game not in only:
            continue
        n = max(1, int(n * args.scale))
        if game in caps and caps[game] < n:
            missing.append(f"{label(game, variant)}: {caps[game]:,} of the {n:,} deals asked for")
            n = caps[game]
        name = label(game, variant)
        out = None
        # A batch path decides ten million deals in a minute: a record file would only cost disk.
        g, preset = get_game(game)
        if g.batch(g.variant(**preset, **variant)) is None:
            slug = name.replace(" ", "_").replace("=", "-")
            out = os.path.join(args.cache, f"{slug}-{n}.jsonl")
        if args.cache_only and out is not None:
            k = cached_prefix(out, n)
            if not os.path.exists(out):
                missing.append(f"{name}: not run (no cache file)")
                n = 0
            elif k < n:
                missing.append(f"{name}: {k:,} of the {n:,} deals asked for (run stopped)")
                n = k
            # A stopped run that has not caught up with the doc's row keeps the row.
            if n == 0 or (name in old_rows and n < row_deals(old_rows[name])):
                continue
        print(f"{name}: {n:,} deals ...", file=sys.stderr, flush=True)
        t0 = time.perf_counter()
        r = ss.survey(game, seeds=range(n), out=out, workers=args.workers, **limits, **variant)
        print(f"  {r.won:,} won, {r.blocked:,} blocked, {r.unknown:,} unknown in "
              f"{time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
        results.append((name, r))
        lo, hi = r.interval
        pub = "none found"
        if published is not None:
            where = ("inside" if lo <= published <= hi
                     else "below" if published < lo else "above")
            pub = f"{100 * published:.2f}% ({source}): {where} our interval"
        lim = ", ".join(f"{k}={v}" for k, v in limits.items()) or "none"
        rows[name] = (f"| {name} | {r.deals:,} | {r.won:,} | {r.blocked:,} | {r.unknown:,} | "
                    f"{100 * r.win_rate:.3f}% | {100 * lo:.3f}% .. {100 * hi:.3f}% "
                    f"(±{50 * (hi - lo):.3f}) | {lim} | {pub} |")

    # The table in the plan's order: this run's rows, and the doc's rows for what it did not redo.
    kept = [old_rows[k] for k in (label(g, v) for g, v, *_ in PLAN)
            if k not in rows and k in old_rows]
    table = [rows.get(k) or old_rows[k] for k in (label(g, v) for g, v, *_ in PLAN)
             if k in rows or k in old_rows]
    png = os.path.join(os.path.dirname(args.out), "cards_left.png")
    # A partial run's chart would drop the games it left out: keep the one already drawn.
    drawn = not kept and chart(results, png)
    has_chart = drawn or (bool(kept) and os.path.exists(png))
    text = [
        "# How often can each game be won?", "",
        "Written by `benchmarks/winnability.py` "
        f"(`{shown_command(argv if argv is not None else sys.argv[1:])}`"
        f"), {datetime.date.today().isoformat()}. Deals are the seeded deals 0..N-1 "
        "(`random.Random(seed).shuffle` of the pack); "
        "each is decided exactly (a winning line or a proof of a block). The win rate is over "
        "decided deals; a deal whose search reached the per-deal limit is UNKNOWN and counted "
        "apart (the rate over all deals then lies between won/N and (won+unknown)/N). The "
        "interval is the 95% Wilson score interval.", "",
        "| game and variant | deals | won | blocked | unknown | win rate | 95% interval "
        "(± half-width, points) | limit per deal | published figure (source) |",
        "|---|---|---|---|---|---|---|---|---|",
        *table, "",
        "Published figures: for Elevens and Block Ten the order of play does not matter "
        "(docs/proofs.md), so greedy play wins exactly the winnable deals and the greedy "
        "figures are comparable with ours; so are Tens' and Block Elevens' (docs/proofs.md). "
        "\"Inside\" or \"outside our interval\" ignores the published figure's own sampling "
        "error: over 10^6 deals its 95% half-width is about 0.04 points at 4% (Block Ten's "
        "3.67% is within that of ours) and 0.06 at 10%. Block Elevens' published figures match "
        "two other readings of its deal rule, `later=while` and `later=none`, not the default "
        "`once` (docs/block-elevens.md). The Pyramid figures of solitairewinrates.com are "
        "that site's program's, over 10^8 other deals, under its rules with its \"overlap\" "
        "option off (on for the `overlap_pairs=True` rows; docs/pyramid.md compares the readings "
        "of its rules); where one lies below our interval, note that every deal we count as won "
        "has a line that replays under the reference rules (a sample of 300 one-pass wins was "
        "re-checked with `check=True`), so the difference is in that program's search or its "
        "rules. `pyramid goal=pyramid` is the `pyramid-msc` preset; its published figure is a "
        "sample of 1,500 other decks (its own 95% interval is about ±2.4 points).", "",
    ]
    if kept:
        text += [f"{len(kept)} rows are kept from the previous write-up, as it gave them: this "
                 "run (`--only`, or `--cache-only` short of their counts) did not redo them: "
                 + ", ".join(f"`{r.split('|')[1].strip()}`" for r in kept) + ".", ""]
    if missing:
        text += ["Short of the planned counts in this run: " + "; ".join(missing) + ".", ""]
    if has_chart:
        text += ["## Cards left in blocked deals", "",
                 "Share of blocked deals by the cards still counting against a win. Elevens and "
                 "Block Ten: at the end of the forced line, which is every line's end "
                 "(docs/proofs.md). The other games: the fewest left at any position the "
                 "exhaustive search reached (`stats[\"fewest_left\"]`); a line of play reaching "
                 "it exists, and a position the search pruned may hide a better one, so the "
                 "true fewest can only be lower. The legend counts the blocked deals that report "
                 "it (a variant is drawn when at least half do): a structural proof reports none, "
                 "nor does a Pyramid block proved with "
                 "unlimited passes for a variant with fewer (the positions of that search need "
                 "more passes) or with goal all (that search keeps the stock's own moves for "
                 "the end, docs/pyramid.md, POOL; the Pyramid curves drawn come from surveys "
                 "run before POOL). How loose the bound can be shows in Pyramid with unlimited "
                 "passes: the peak at 51 cards is deals proved blocked one move in (after a King "
                 "is removed, the search finds a card that no line can ever remove and prunes "
                 "there), and best play in them removes more. Read the curves of the searched "
                 "games as upper bounds of what best play leaves, not as its distribution.", "",
                 "![cards left in blocked deals](cards_left.png)", ""]
    text += sections
    with open(args.out, "w", encoding="utf-8") as f:
        f.write("\n".join(text).rstrip("\n") + "\n")
    print(f"wrote {args.out}" + (f" and {png}" if drawn else
                                 f" (kept {png}: a partial run)" if has_chart else ""),
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
