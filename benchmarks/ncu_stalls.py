"""Where a kernel waits and what it issues, from Nsight Compute's warp-stall samples.

``run GRAPH`` solves one source (vertex 0) of ``probe_near_far``'s graph whose name starts with
GRAPH ("grid" or "uniform") with gpu-fast-sssp twice —
the first call compiles — for ncu to profile the second launch; ``report CSV [KERNEL]`` reads
ncu's per-instruction source page and prints, for the kernel whose name holds KERNEL (default
``persistent``), the stall reasons over the whole kernel, its instruction mix and its
most-sampled SASS instructions (a load's wait shows on the first instruction that uses its
register):

    ncu --clock-control none --kernel-name regex:persistent --launch-skip 1 --launch-count 1 \\
        --section WarpStateStats --section SourceCounters --export /tmp/grid \\
        python3 -m benchmarks.ncu_stalls run grid
    ncu --import /tmp/grid.ncu-rep --page source --csv --print-source sass > /tmp/sass.csv
    python3 -m benchmarks.ncu_stalls report /tmp/sass.csv

Floyd–Warshall's phase 3 alone (its fourth launch: the probe checks one, then times ten):

    ncu --clock-control none --kernel-name regex:phase3 --launch-skip 3 --launch-count 1 \\
        --section WarpStateStats --section SourceCounters --export /tmp/p3 \\
        python3 -m benchmarks.probe_phase3_rate 16384
    ncu --import /tmp/p3.ncu-rep --page source --csv --print-source sass > /tmp/p3.csv
    python3 -m benchmarks.ncu_stalls report /tmp/p3.csv phase3
"""
import collections
import csv
import sys

SAMPLES = "Warp Stall Sampling (All Samples)"


def run(graph):
    from engine.sssp import prepare, solve
    from benchmarks.probe_near_far import GRAPHS

    g = prepare(next(make for label, make in GRAPHS.items() if label.startswith(graph))())
    for _ in range(2):
        r = solve(g, [0], "gpu-fast-sssp")
        print(f"{1e3 * r.kernel_seconds:.2f} ms  {r.note}", flush=True)


def kernel_rows(path, name="persistent"):
    """(header, rows) of the kernel whose name holds ``name`` in ncu's source-page CSV."""
    kernel, header, rows = None, None, collections.defaultdict(list)
    for row in csv.reader(open(path)):
        if row and row[0] == "Kernel Name":
            kernel = row[1]
        elif row and row[0] == "Address":
            header = row
        elif header and len(row) == len(header):
            rows[kernel].append(dict(zip(header, row)))
    return header, next(v for k, v in rows.items() if name in k)


def report(path, kernel="persistent", top=24):
    header, rows = kernel_rows(path, kernel)
    reasons = [h for h in header if h.startswith("stall_") and "Not Issued" not in h]
    totals = collections.Counter()
    for row in rows:
        for reason in reasons:
            totals[reason] += int(row[reason] or 0)
    everything = sum(totals.values())
    print(f"{everything:,} samples")
    for reason, count in totals.most_common(8):
        print(f"  {reason:24s} {100 * count / everything:5.1f}%")
    executed = collections.Counter()
    for row in rows:
        opcode = row["Source"].split()
        opcode = opcode[1] if opcode[0].startswith("@") else opcode[0]
        executed[opcode.split(".")[0]] += int(row["Instructions Executed"] or 0)
    total = sum(executed.values())
    print("instruction mix (warp instructions executed): " + ", ".join(
        f"{opcode} {100 * count / total:.1f}%" for opcode, count in executed.most_common(8)))
    print("most-sampled instructions (index, address, SASS, samples, warp instructions executed, top reason):")
    for i, row in sorted(enumerate(rows), key=lambda t: -int(t[1][SAMPLES] or 0))[:top]:
        reason = max(reasons, key=lambda name: int(row[name] or 0))
        print(f"  {i:6d} {row['Address'][-5:]} {row['Source'].strip()[:58]:58s} {row[SAMPLES]:>7s} "
              f"{row['Instructions Executed']:>9s} {reason}")


if __name__ == "__main__":
    {"run": run, "report": report}[sys.argv[1]](*sys.argv[2:])
