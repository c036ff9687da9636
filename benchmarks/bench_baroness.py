"""Baroness and Monte Carlo benchmark: seeded deals, per-deal times, core vs reference search.

    python benchmarks/bench_baroness.py [--quick] [--deals N] [--ref-deals M] [--only G,...]
                                        [--surveys DIR] [--append FILE]

Every figure comes from this one run: the same seeded deals (random.Random(seed).shuffle of the
pack) go through `ss.solve` with the default limits (structural proof, then the compiled core) and,
for the first M of them, through `ss.solve` again and through the pure-Python fallback
(SOLITAIRE_SOLVER_PURE=1: the same structural proof, then the reference search over the reference
rules), 20 deals at a time, each side in turn, in CPU time; their verdicts must agree.

--surveys DIR takes the per-deal figures of seeds 0..N-1 from survey files instead (the records
`ss.survey` wrote with one worker, as `benchmarks/winnability.py --cache DIR` names them: each
record holds the deal's verdict, positions and milliseconds), re-solves the slowest deal in this
process for the peak memory, and runs the reference sample live. --append FILE adds the section to
FILE (docs/benchmarks.md) with its command and date, as `benchmarks/run.py --append` does.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import resource
import statistics
import subprocess
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import solitaire_solver as ss  # noqa: E402
from benchmarks.bench_nestor import wilson  # noqa: E402

#: (label, game, variant, default reference sample). The Baroness reference search averages
#: seconds a deal (no pruning: every reachable position of a blocked deal), so its sample is smaller.
CASES = [
    ("baroness", "baroness", {}, 60),
    ("monte-carlo, consolidate=any", "monte-carlo", {"consolidate": "any"}, 200),
    ("monte-carlo, consolidate=stuck", "monte-carlo", {"consolidate": "stuck"}, 200),
]


def pure_solve(game: str, deal: ss.Deal, variant: dict) -> ss.Result:
    """ss.solve under the pure-Python fallback (the switch is read at every call)."""
    os.environ["SOLITAIRE_SOLVER_PURE"] = "1"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return ss.solve(game, deal, **variant)
    finally:
        del os.environ["SOLITAIRE_SOLVER_PURE"]


def survey_file(surveys: str, game: str, variant: dict) -> str:
    """The survey file benchmarks/winnability.py keeps for this game and variant (10^6 planned)."""
    slug = (game + "".join(f" {k}={v}" for k, v in variant.items())).replace(" ", "_")
    return os.path.join(surveys, slug.replace("=", "-") + "-1000000.jsonl")


def from_survey(path: str, game: str, variant: dict, deals: int) -> dict:
    """Per-deal figures of seeds 0..deals-1 (or the longest run of them present) of a survey."""
    recs: dict[int, dict] = {}
    with open(path, encoding="utf-8") as f:
        head = json.loads(next(f))
        if head.get("survey") != game or head.get("variant") != variant:
            raise RuntimeError(f"{path} is the survey of {head}, not {game} {variant}")
        for line in f:
            try:
                rec = json.loads(line)
            except ValueError:
                break  # a last line cut short by a stop
            recs[rec["seed"]] = rec
    n = 0
    while n < deals and n in recs:
        n += 1
    rows = [recs[i] for i in range(n)]
    if any(r["status"] == "unknown" for r in rows):
        raise RuntimeError(f"{game}: UNKNOWN with the default limits in {path}")
    ms = [r["ms"] for r in rows]
    slowest = max(rows, key=lambda r: r["ms"])["seed"]
    g, _ = ss.get_game(game)
    structural = sum(g.structural_proof(ss.random_deal(i), variant) is not None for i in range(n))
    q = statistics.quantiles(ms, n=100, method="inclusive")
    states = [r["states"] for r in rows]
    return {"deals": n, "won": sum(r["status"] == "won" for r in rows), "structural": structural,
            "wall": sum(ms) / 1e3, "median": statistics.median(ms), "p99": q[98],
            "max": max(ms), "states_mean": statistics.fmean(states),
            "states_median": statistics.median(states), "states_max": max(states),
            "slowest": slowest, **alone(game, variant, slowest)}


def alone(game: str, variant: dict, seed: int) -> dict:
    """One deal solved in a fresh process: its time, its table and the process's peak memory."""
    # VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the forking parent.
    code = ("import json, sys, time; import solitaire_solver as ss; "
            "a = json.loads(sys.argv[1]); t = time.perf_counter(); "
            "r = ss.solve(a['game'], ss.random_deal(a['seed']), **a['variant']); "
            "ms = (time.perf_counter() - t) * 1e3; "
            "hwm = [ln for ln in open('/proc/self/status') if ln.startswith('VmHWM')][0]; "
            "print(json.dumps({'again': ms, 'table_mib': r.stats.get('table_bytes', 0) / 2**20, "
            "'peak_mib': int(hwm.split()[1]) / 1024}))")
    arg = json.dumps({"game": game, "variant": variant, "seed": seed})
    out = subprocess.run([sys.executable, "-c", code, arg], capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout)


def reference_ratio(game: str, variant: dict, ref_deals: int, chunk: int = 20) -> dict:
    """ss.solve and the pure-Python fallback on the first ref_deals deals, in chunks of `chunk`
    deals, each side in turn: a change of load falls on both sides alike, and ss.solve's
    sub-millisecond calls are not each timed cold after a reference search has flushed the
    caches (which, for Monte Carlo stuck, cut the ratio from about 130x to 34x). CPU time of
    this process (`time.process_time`), so the time the shared machine gives to other work
    counts on neither side. The verdicts must agree."""
    ours = ref = 0.0
    # The deals are made before the clock starts: dealing costs about as much as a quick solve.
    deals = [ss.random_deal(seed) for seed in range(ref_deals)]
    for lo in range(0, ref_deals, chunk):
        part = deals[lo:lo + chunk]
        t = time.process_time()
        mine = [ss.solve(game, deal, **variant).won for deal in part]
        t1 = time.process_time()
        theirs = [pure_solve(game, deal, variant).won for deal in part]
        ours, ref = ours + t1 - t, ref + time.process_time() - t1
        if mine != theirs:
            raise RuntimeError(f"{game} seeds {lo}..: core and reference disagree")
    return {"ref_deals": ref_deals, "ours": ours, "ref": ref}


def bench(game: str, variant: dict, deals: int, ref_deals: int) -> dict:
    won = structural = 0
    ms: list[float] = []
    states: list[int] = []
    table = 0
    t0 = time.perf_counter()
    for seed in range(deals):
        deal = ss.random_deal(seed)
        t = time.perf_counter()
        r = ss.solve(game, deal, **variant)
        ms.append((time.perf_counter() - t) * 1e3)
        if r.status is ss.Status.UNKNOWN:
            raise RuntimeError(f"{game} seed {seed}: UNKNOWN with the default limits ({r.reason})")
        won += r.won
        structural += r.blocked and r.proof.kind == "structural"
        states.append(r.stats.get("states", 0))
        table = max(table, r.stats.get("table_bytes", 0))
    wall = time.perf_counter() - t0
    q = statistics.quantiles(ms, n=100, method="inclusive")
    return {"deals": deals, "won": won, "structural": structural, "wall": wall,
            "median": statistics.median(ms), "p99": q[98], "max": max(ms),
            "states_mean": statistics.fmean(states), "states_median": statistics.median(states),
            "states_max": max(states), "table_mib": table / 2**20,
            **reference_ratio(game, variant, ref_deals)}


def run(quick: bool = False, deals: int | None = None, ref_deals: int | None = None,
        only: list[str] | None = None, surveys: str | None = None, cmd: str = "") -> str:
    n = deals or (2_000 if quick else 100_000)
    if not cmd:
        cmd = "python benchmarks/bench_baroness.py" + (" --quick" if quick else "")
        cmd += (f" --deals {n}" if deals else "") + (f" --ref-deals {ref_deals}" if ref_deals else "")
    rows = []
    for label, game, variant, m in CASES:
        if only and game not in only:
            continue
        m = min(ref_deals or (m // 4 if quick else m), n)
        if surveys:
            full = ss.get_game(game)[0].variant(**variant)
            r = from_survey(survey_file(surveys, game, variant), game, full, n)
            r.update(reference_ratio(game, variant, m))
        else:
            r = bench(game, variant, n, m)
        rows.append((label, r))
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    if surveys:
        how = ("Seeded deals 0..N-1 (`random.Random(seed).shuffle` of the pack), `ss.solve` with "
               "the default limits (no UNKNOWN), timed per deal by `ss.survey` on one worker (the "
               "records of the surveys behind docs/winnability.md); deals/s is N over the sum of "
               "those times. The slowest deal of each row was solved again alone for the table "
               "size and the peak memory. The reference (pure-Python fallback: structural proof, "
               "then the reference search without pruning) ran on the first deals of each row, "
               "and `ss.solve` on the same deals again, in this run, each "
               "side in turn, 20 deals at a time, for the ratio (CPU time of the process).")
    else:
        how = (f"Seeded deals 0..{n - 1} (`random.Random(seed).shuffle` of the pack), `ss.solve` "
               "with the default limits (no UNKNOWN). Times are wall-clock per `ss.solve` call "
               "(structural proof, then the core). The reference (pure-Python fallback: "
               "structural proof, then the reference search without pruning) ran on the first "
               "deals of each row, and `ss.solve` ran on the same deals again in the same run, "
               "each side in turn, 20 deals at a time, for the ratio (CPU time of the process).")
    out = [
        "## Baroness and Monte Carlo",
        "",
        f"`{cmd}`. {how} Load average at the end: {load}, on 2 cores shared with other work: "
        "the times are only comparable within this table, and the ratio is the figure to read.",
        "",
        "| game | deals | deals/s | median ms | p99 ms | max ms | states mean | median | max "
        "| largest table | ref deals | ratio ref/ss.solve |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for label, r in rows:
        out.append(
            f"| {label} | {r['deals']:,} | {r['deals'] / r['wall']:,.0f} | {r['median']:.3f} | "
            f"{r['p99']:.1f} | {r['max']:,.0f} | {r['states_mean']:,.0f} | "
            f"{r['states_median']:,.0f} | {r['states_max']:,} | {r['table_mib']:.1f} MiB | "
            f"{r['ref_deals']} | {r['ref'] / max(r['ours'], 1e-9):,.0f}× |")
    if surveys:
        out += ["", "The largest table above is the slowest deal's, solved again alone in a fresh "
                "process:", "", "| game | slowest deal (seed) | its ms alone, in this run | "
                "peak resident memory of that process (VmHWM) |", "|---|---:|---:|---:|"]
        out += [f"| {label} | {r['slowest']} | {r['again']:,.0f} | {r['peak_mib']:,.0f} MiB |"
                for label, r in rows]
    else:
        out += ["", f"Peak resident memory of the process (ru_maxrss): "
                f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:,.0f} MiB."]
    out += ["",
            "| game | won | win rate | 95% Wilson | structural blocks |",
            "|---|---:|---:|---|---:|"]
    for label, r in rows:
        lo, hi = wilson(r["won"], r["deals"])
        out.append(f"| {label} | {r['won']:,} | {r['won'] / r['deals']:.2%} | "
                   f"{lo:.2%} – {hi:.2%} | {r['structural']:,} |")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--deals", type=int)
    p.add_argument("--ref-deals", type=int)
    p.add_argument("--only", help="games to run, comma-separated (baroness, monte-carlo)")
    p.add_argument("--surveys", metavar="DIR", help="per-deal figures from the survey files in DIR")
    p.add_argument("--append", metavar="FILE", help="add the section to FILE")
    a = p.parse_args(argv)
    args = argv if argv is not None else sys.argv[1:]
    cmd = " ".join(["python benchmarks/bench_baroness.py"] +
                   ["DIR" if prev == "--surveys" else x for prev, x in zip([""] + args, args)])
    text = run(a.quick, a.deals, a.ref_deals, a.only.split(",") if a.only else None, a.surveys,
               cmd)
    if a.append:
        day = datetime.date.today().isoformat()
        title = "## Baroness and Monte Carlo"
        with open(a.append, "a", encoding="utf-8") as f:
            f.write("\n" + text.replace(title, f"{title} ({day})", 1))
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
