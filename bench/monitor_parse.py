"""Cost of parsing large monitor files (dstat, mpstat -P ALL, iostat -x, vmstat, and the
mpstat file read as sar): time, throughput and peak memory.

    .venv/bin/python -m bench.monitor_parse [--mb N] [--cpus N] [--only FORMAT] [--smoke]

Generates (our own numbers, in the real formats, streamed to a temporary directory) a `dstat
-t` file, an `mpstat -P ALL 1` file, an `iostat -x 1` file (3 devices) and a `vmstat 1` file
of about `--mb` MB each (default 100: the 1,000-run study has ~1 GB of such files), then
parses each in a fresh subprocess (`by_name(...).parse` on the file's text, as the ingest
does) and prints one JSON line per format: the file's size and lines, the samples read, wall
and CPU seconds, MB/s, the subprocess's peak resident memory (`VmHWM`) and its ratio to the
file (`x_file`), and the CPU of `awk` over the same file with the ratio (`x_awk`). `--smoke`
uses 1 MB files and checks the samples read, for the test suite.
Results: docs/performance.md, "Monitor parsers (dstat, mpstat)" and "a whole column at a time".
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]

PROBE = r"""
import json, sys, time
from ingest.parse import by_name
fmt, path = sys.argv[1], sys.argv[2]
w0, c0 = time.perf_counter(), time.process_time()
text = open(path, encoding="utf-8").read()
parsed = by_name(fmt).parse(text, path)
wall, cpu = time.perf_counter() - w0, time.process_time() - c0
hwm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM"))
print(json.dumps({"sessions": len(parsed.sessions), "samples": parsed.sessions[0].intervals,
                  "problems": len(parsed.problems), "wall_s": round(wall, 2),
                  "cpu_s": round(cpu, 2), "peak_mb": round(hwm / 1024)}))
"""


FORMATS = ["dstat", "mpstat", "sar", "iostat", "vmstat"]  # sar: the mpstat file, read as sar


def _clock(second: int) -> str:
    h, rest = divmod(second, 3600)
    return f"{h % 24:02d}:{rest // 60:02d}:{rest % 60:02d}"


def write_mpstat(path: Path, mb: float, cpus: int, rng: random.Random) -> int:
    """An `mpstat -P ALL 1` file of about `mb` MB; returns the blocks (samples) written."""
    header = "CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle"
    blocks, size = 0, 0
    with path.open("w") as f:
        f.write("Linux 6.8.0-45-generic (bench7) \t03/13/2026 \t_x86_64_\t(%d CPU)\n\n" % cpus)
        while size < mb * 1e6:
            blocks += 1
            t = _clock(5 * 3600 + blocks)
            lines = [f"{t}     {header}"]
            for cpu in ["all", *map(str, range(cpus))]:
                usr, sys_, wa = rng.uniform(5, 60), rng.uniform(1, 15), rng.uniform(0, 5)
                idle = max(0.0, 100 - usr - sys_ - wa - 0.5)
                values = (usr, 0, sys_, wa, 0, 0.5, 0, 0, 0, idle)
                lines.append(f"{t}     {cpu:>3}" + "".join(f"{v:8.2f}" for v in values))
            chunk = "\n".join(lines) + "\n\n"
            f.write(chunk)
            size += len(chunk)
        f.write(f"Average:     {header}\n")
    return blocks


def write_dstat(path: Path, mb: float, rng: random.Random) -> int:
    """A `dstat -t` file of about `mb` MB, its header repeated every 1,000 rows; returns the
    rows after the since-boot row."""
    groups = (
        "----system---- ----total-cpu-usage---- -dsk/total- -net/total- ---paging-- ---system--"
    )
    cols = "     time     |usr sys idl wai stl| read  writ| recv  send|  in   out | int   csw "
    units = ["B", "k", "M"]
    rows, size = 0, 0
    with path.open("w") as f:
        while size < mb * 1e6:
            chunk = [groups, cols]
            for _ in range(1000):
                rows += 1
                day, s = divmod(5 * 3600 + rows, 86400)
                t = f"{13 + day:02d}-03 {_clock(s)}"
                us, sy, wa = rng.randint(5, 60), rng.randint(1, 15), rng.randint(0, 5)
                amounts = [f"{rng.randint(0, 999)}{rng.choice(units)}" for _ in range(4)]
                ints = f"{rng.randint(10, 99)}k"
                chunk.append(
                    f"{t}|{us:3d} {sy:3d} {100 - us - sy - wa:3d} {wa:3d}   0|"
                    f"{amounts[0]:>5} {amounts[1]:>5}|{amounts[2]:>5} {amounts[3]:>5}|"
                    f"   0     0 |{ints:>4} {ints:>5}"
                )
            text = "\n".join(chunk) + "\n"
            f.write(text)
            size += len(text)
    return rows - 1


def write_iostat(path: Path, mb: float, rng: random.Random) -> int:
    """An `iostat -x 1` file of about `mb` MB (the 1,000-run study's form); returns the
    reports after the since-boot one."""
    from datetime import datetime

    from tests.kit.versions_gen import iostat

    samples = max(2, int(mb * 1e6 / 650))  # ~650 bytes a report
    path.write_text(iostat(datetime(2026, 3, 13, 5, 0, 0), samples, rng))
    return samples


def write_vmstat(path: Path, mb: float, rng: random.Random) -> int:
    """A `vmstat 1` file of about `mb` MB (its header every 20 rows); returns the rows after
    the since-boot one."""
    from tests.kit.versions_gen import vmstat

    samples = max(2, int(mb * 1e6 / 88))  # ~88 bytes a row
    path.write_text(vmstat(samples, rng))
    return samples


def awk_cpu(path: Path) -> float | None:
    """CPU seconds of `awk` summing the second field of every line of `path` (the issue's
    yardstick: what `tar` + `grep` + `awk` cost over the same text); None without awk."""
    if shutil.which("awk") is None:
        return None
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(["awk", "{s += $2} END {print s}", str(path)], check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return round(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 2)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=100)
    ap.add_argument("--cpus", type=int, default=32)
    ap.add_argument("--only", choices=FORMATS)
    ap.add_argument("--smoke", action="store_true", help="1 MB files, samples checked")
    args = ap.parse_args(argv)
    mb = 1 if args.smoke else args.mb
    rng = random.Random(27)
    with tempfile.TemporaryDirectory() as d:
        for fmt in FORMATS:
            if args.only and fmt != args.only:
                continue
            path = Path(d) / f"{'mpstat' if fmt == 'sar' else fmt}.txt"
            if fmt == "mpstat" or (fmt == "sar" and args.only == "sar"):
                written = write_mpstat(path, mb, args.cpus, rng)
            elif fmt == "dstat":
                written = write_dstat(path, mb, rng)
            elif fmt == "iostat":
                written = write_iostat(path, mb, rng)
            elif fmt == "vmstat":
                written = write_vmstat(path, mb, rng)
            probe = subprocess.run(
                [sys.executable, "-c", PROBE, fmt, str(path)],
                cwd=HERE, check=True, capture_output=True, text=True,
            )  # fmt: skip
            out = json.loads(probe.stdout)
            size = path.stat().st_size
            with path.open("rb") as f:
                lines = sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))
            out = {"format": fmt, "mb": round(size / 1e6, 1), "lines": lines, **out}
            out["mb_per_cpu_s"] = round(size / 1e6 / out["cpu_s"], 1) if out["cpu_s"] else None
            out["x_file"] = round(out["peak_mb"] * 1024**2 / size, 1)
            out["awk_cpu_s"] = awk_cpu(path)
            if out["awk_cpu_s"]:
                out["x_awk"] = round(out["cpu_s"] / out["awk_cpu_s"], 1)
            print(json.dumps(out), flush=True)
            if out["samples"] != written:
                print(f"{fmt}: {out['samples']} samples read, {written} written", file=sys.stderr)
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
