"""CPU seconds of the hub's whole simulated day (the command, start-up included) for two or more
checkouts in one run, alternating, and whether their KPI files are byte-identical.

    git worktree add /tmp/before <commit>
    python benchmarks/day_commits.py /tmp/before . --runs 3 --policies fleet,shortest-path

Each run is ``python main.py simulate hub-atl --seed 0 --no-timings --quiet --policy P`` with the
checkout as working directory and ``PYTHONPATH``; CPU is the child's user + system time. Prints a
Markdown table of medians (CPU, wall) with the commits, the date and the load average.
"""

import argparse
import filecmp
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path


def run_day(tree: Path, policy: str, out: Path) -> tuple[float, float]:
    """(CPU s, wall s) of one day in ``tree``; its KPIs written to ``out``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "main.py", "simulate", "hub-atl", "--seed", "0",
                    "--no-timings", "--quiet", "--policy", policy, "--out", str(out)],
                   cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)}, check=True,
                   stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime), wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trees", nargs="+", type=Path)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--policies", default="fleet,shortest-path")
    a = ap.parse_args()
    trees = [t.resolve() for t in a.trees]
    commits = [subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=t, text=True,
                              capture_output=True, check=True).stdout.strip() for t in trees]
    load = os.getloadavg()
    times, identical = {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        for policy in a.policies.split(","):
            for r in range(a.runs):
                for i, tree in enumerate(trees):   # alternating, so load drifts hit both
                    times.setdefault((policy, i), []).append(
                        run_day(tree, policy, Path(tmp, f"{policy}-{i}-{r}.json")))
            same = all(filecmp.cmp(Path(tmp, f"{policy}-0-0{ext}"),
                                   Path(tmp, f"{policy}-{i}-{r}{ext}"), shallow=False)
                       for i in range(len(trees)) for r in range(a.runs)
                       for ext in (".json", ".csv"))
            identical[policy] = same
    print(f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} CPUs, load average "
          f"{load[0]:.1f} before and {os.getloadavg()[0]:.1f} after; median of {a.runs} runs\n")
    print("| policy | commit | CPU (user + sys) | wall | KPI files identical |")
    print("|---|---|---|---|---|")
    for policy in a.policies.split(","):
        for i, c in enumerate(commits):
            cpu = statistics.median(x[0] for x in times[(policy, i)])
            wall = statistics.median(x[1] for x in times[(policy, i)])
            print(f"| {policy} | {c} | {cpu:.2f} s | {wall:.2f} s | "
                  f"{'yes' if identical[policy] else 'NO'} |")


if __name__ == "__main__":
    main()
