"""Run every benchmark and print a report of this run (docs/benchmarks.md keeps its figures).

    python benchmarks/run.py [--quick] [--only NAME,...] [--out FILE [--append]]

Each benchmarks/bench_*.py module exposes `run(quick: bool = False) -> str`, a Markdown section of
figures measured in that run; this script adds a surveys section (all local cores, the batch path
and the generic path) and writes the machine, the command, the date and every section.
"""

from __future__ import annotations

import argparse
import datetime
import glob
import importlib.util
import os
import platform
import subprocess
import sys
import sysconfig
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def compiler() -> str:
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    try:
        out = subprocess.run([cc, "--version"], capture_output=True, text=True, timeout=10)
        return out.stdout.splitlines()[0].strip()
    except (OSError, IndexError, subprocess.SubprocessError):
        return cc


def machine() -> str:
    return (f"{cpu_model()}, {os.cpu_count()} cores; Python {platform.python_version()} "
            f"({platform.python_implementation()}); {compiler()}; {platform.system()} "
            f"{platform.release()}")


def survey_section(quick: bool) -> str:
    """All local cores: the batch path of the slot games and the generic path of the others."""
    import solitaire_solver as ss

    lines = ["## Surveys (all local cores)", "",
             f"`ss.survey(game, seeds=range(N))` with the default workers ({os.cpu_count()} "
             "processes), process start-up included.", "",
             "| game | path | deals | win rate | 95% Wilson interval | deals/s | states/deal "
             "(median, max) | ms/deal (median, max) |",
             "|---|---|---|---|---|---|---|---|"]
    plan = [("elevens", 200_000 if quick else 2_000_000), ("block-ten", 200_000 if quick else
                                                          2_000_000)]
    for g in ss.GAMES:
        if g.name not in ("elevens", "block-ten"):
            plan.append((g.name, 200 if quick else 500))
    for name, n in plan:
        r = ss.survey(name, seeds=range(n))
        lo, hi = r.interval
        lines.append(
            f"| {name} | {r.path} | {r.deals:,} | {100 * r.win_rate:.3f}% | {100 * lo:.3f}% .. "
            f"{100 * hi:.3f}% | {r.deals_per_second:,.0f} | {r.states_median:g}, "
            f"{r.states_max:,} | {r.ms_median:.4g}, {r.ms_max:.4g} |")
    lines += ["", "The batch path times chunks, not single deals: its ms/deal is a chunk's time "
              "divided by its deals. Full win-rate tables: docs/winnability.md."]
    return "\n".join(lines) + "\n"


def load(path: str):
    name = os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small counts (a few minutes)")
    ap.add_argument("--only", help="comma-separated bench names (e.g. elevens,nestor,surveys)")
    ap.add_argument("--out", help="write the report to FILE (default: standard output)")
    ap.add_argument("--append", action="store_true",
                    help="add this run (its command, date and sections) to the end of --out")
    args = ap.parse_args(argv)
    only = set(args.only.split(",")) if args.only else None

    sections = []
    t0 = time.perf_counter()
    for path in sorted(glob.glob(os.path.join(HERE, "bench_*.py"))):
        short = os.path.basename(path)[len("bench_"):-3]
        if only and short not in only:
            continue
        print(f"running {os.path.basename(path)} ...", file=sys.stderr, flush=True)
        try:
            sections.append(load(path).run(quick=args.quick).rstrip() + "\n")
        except Exception:  # noqa: BLE001 - one failing benchmark must not hide the others
            sections.append(f"## {short}\n\nFAILED in this run:\n\n```\n"
                            f"{traceback.format_exc()}```\n")
    if not only or "surveys" in only:
        print("running surveys ...", file=sys.stderr, flush=True)
        sections.append(survey_section(args.quick))

    command = "python benchmarks/run.py" + (" --quick" if args.quick else "") + \
        (f" --only {args.only}" if args.only else "") + (" --append" if args.append else "")
    head = [
        "# Benchmarks", "",
        "Written by `benchmarks/run.py`. Every figure below was measured in the run described "
        "here, on this machine.", "",
        f"- Machine: {machine()}",
        f"- Command: `{command}`",
        f"- Date: {datetime.datetime.now().astimezone().strftime('%Y-%m-%d %H:%M %Z')}",
        f"- Total time: {time.perf_counter() - t0:.0f} s",
        "",
    ]
    if args.append:
        head = ["", "---", "", f"Run of `{command}` on the same machine, "
                f"{datetime.datetime.now().astimezone().strftime('%Y-%m-%d %H:%M %Z')}, "
                f"{time.perf_counter() - t0:.0f} s:", ""]
    report = "\n".join(head) + "\n" + "\n".join(sections)
    if args.out is None:
        print(report)
        return 0
    with open(args.out, "a" if args.append else "w", encoding="utf-8") as f:
        f.write(report)
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
