"""Cost of keeping OS samples' time stamps (vmstat -t, iostat -t) and of joining by them.

    .venv/bin/python -m bench.os_timestamps [--repo DIR] [--repeat N] [--smoke]

Generates (our own numbers, in the real formats) one hour of `vmstat -t 1` (3,600 rows) and
`iostat -x -t 1` (3,600 reports, two devices), then, in a subprocess run from `--repo`
(default: this checkout; pass a worktree of an older commit for the baseline), parses each
`--repeat` times and, where the code has it, builds the linked series by offset and by time
stamps. Prints the median wall time of each step in ms, one JSON line. Results are recorded in
docs/formats.md ("Time stamps of OS samples"). `--smoke`: one repeat of 60 samples.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from datetime import datetime, timedelta
from pathlib import Path

from bench import smoke

HERE = Path(__file__).resolve().parents[1]
N = 3600

PROBE = r"""
import json, statistics, sys, time
from pathlib import Path
try:
    from ingest.parse import by_name
except ImportError:  # a checkout from before the ingest's packages
    from ingest.parsers import by_name
d, repeat = Path(sys.argv[1]), int(sys.argv[2])
out = {}
def timed(name, f):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter(); r = f(); times.append(time.perf_counter() - t0)
    out[name] = round(statistics.median(times) * 1000, 1)
    return r
texts = {p.stem: p.read_text() for p in d.glob("*.txt")}
parsed = {}
for name, text in sorted(texts.items()):
    fmt = name.split("-")[0]
    parsed[name] = timed(f"parse {name}", lambda: by_name(fmt).parse(text, name))
n = len(parsed["vmstat-t"].sessions[0].series["t"])
run_t = [float(i) for i in range(1, n + 1)]
ops = [5000.0] * n
vm, io = parsed["vmstat-t"].sessions[0], parsed["iostat-t"].sessions
try:
    from ingest.join.linked import Clock, Monitors, linked_series
    on = Monitors(vmstat=("vm", vm), iostat=("io", io))
    timed("link by offset", lambda: linked_series(run_t, ops, Clock(1, align="offset"), on))
    start = "2019-06-12T12:00:00.000"
    timed("link by time stamps", lambda: linked_series(run_t, ops, Clock(1, run_start=start), on))
except ImportError:  # older checkouts: keyword arguments, or no linked series at all
    try:
        from ingest.linked import linked_series
    except ImportError:
        linked_series = None
    if linked_series:
        timed("link by offset", lambda: linked_series(run_t, ops, interval_s=1, vmstat=("vm", vm), iostat=("io", io),
                                                       align="offset") if "align" in linked_series.__code__.co_varnames
              else linked_series(run_t, ops, interval_s=1, vmstat=("vm", vm), iostat=("io", io)))
        if "align" in linked_series.__code__.co_varnames:
            timed("link by time stamps", lambda: linked_series(run_t, ops, interval_s=1, vmstat=("vm", vm),
                                                                iostat=("io", io), run_start="2019-06-12T12:00:00.000"))
print(json.dumps(out))
"""


def vmstat(stamped: bool, n: int = N) -> str:
    head = (
        "procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----"
        + (" -----timestamp-----" if stamped else ""),
        " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st"
        + ("                 UTC" if stamped else ""),
    )
    rows = []
    t0 = datetime(2019, 6, 12, 12, 0, 0)
    for k in range(n + 1):
        us, sy, wa = 40 + k % 7, 8 + k % 3, 1 + k % 4
        row = (
            f"{2 + k % 5:2d} {k % 2:2d}      0 {6012344 - k:7d} 212000 {3120400 + k:7d}    0    0"
            f" {9 + k % 50:5d} {9000 + k % 900:5d} {52 + k % 30:4d} {61000 + k % 800:5d} {us:2d} {sy:2d}"
            f" {100 - us - sy - wa:2d} {wa:2d}  0"
        )
        rows.append(row + (f" {t0 + timedelta(seconds=k):%Y-%m-%d %H:%M:%S}" if stamped else ""))
    return "\n".join([*head, *rows]) + "\n"


def iostat(stamped: bool, n: int = N) -> str:
    lines = ["Linux 4.15.0-54-generic (bench1) \t06/12/2019 \t_x86_64_\t(8 CPU)", ""]
    t0 = datetime(2019, 6, 12, 12, 0, 0)
    for k in range(n + 1):
        if stamped:
            lines.append((t0 + timedelta(seconds=k)).strftime("%m/%d/%Y %I:%M:%S %p"))
        lines += [
            "avg-cpu:  %user   %nice %system %iowait  %steal   %idle",
            f"          {40 + k % 9:6.2f}    0.00    8.50    1.20    0.00 {50.3 - k % 9:7.2f}",
            "",
            "Device:         rrqm/s   wrqm/s     r/s     w/s    rkB/s    wkB/s avgrq-sz avgqu-sz   await "
            "r_await w_await  svctm  %util",
        ]
        for dev in ("nvme0n1", "sda"):
            lines.append(
                f"{dev:<15}   0.00     2.10 {4.2 + k % 90:7.2f} {30.5 + k % 400:7.2f} {67.2 + k % 160:8.2f} "
                f"{1210.4 + k % 3000:8.2f}    73.64     0.02    0.45    0.30    0.47   0.05   {k % 80 + 0.17:5.2f}"
            )
        lines.append("")
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", type=Path, default=HERE)
    ap.add_argument("--repeat", type=int, default=5)
    smoke.add_flag(ap)
    args = ap.parse_args()
    n = 60 if args.smoke else N
    if args.smoke:
        args.repeat = 1
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        for stamped in (False, True):
            suffix = "-t" if stamped else ""
            (d / f"vmstat{suffix}.txt").write_text(vmstat(stamped, n))
            (d / f"iostat{suffix}.txt").write_text(iostat(stamped, n))
        res = subprocess.run(
            [sys.executable, "-c", PROBE, str(d), str(args.repeat)],
            cwd=args.repo,
            env={"PYTHONPATH": str(args.repo), "PATH": "/usr/bin:/bin"},
            capture_output=True,
            text=True,
            check=True,
        )
        print(json.dumps({"repo": str(args.repo), **json.loads(res.stdout)}))


if __name__ == "__main__":
    main()
