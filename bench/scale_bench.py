"""A 1,000-run study, end to end: the version study of tests/kit/versions_gen.py (984 runs,
about 1.2 GB of text in a 250 MB .tar.gz, at full size) through `python -m ingest new`, the
ingest of the untouched draft, the ingest with the monitors linked (vmstat, iostat, mpstat
read as sar), and the site build; beside them `tar` + `grep` + `awk` over the same archive.

    .venv/bin/python -m bench.scale_bench [--size S] [--archive PATH] [--smoke] [--profile FILE]
        [--no-build]

Every step runs as a whole process (interpreter start, imports, decompression included); its
CPU time is user + sys of it and its children (os.wait4), its peak memory their largest RSS.
The build's added cost per run is the difference between building the study's post and the
small study's post (47 runs), over the difference in runs; the draft is edited as an author
would first (its key results point at the time series, not at a collapsed table).
`--archive`: an archive written before (its truth file beside it), else one of `--size`
(full, tenth, small) is generated in a temporary directory. `--smoke`: the small size (the suite runs it, tests/bench/).
`--profile FILE`: also the draft's ingest under cProfile, its top functions printed.
Results: docs/performance.md, "A 1,000-run study".
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.kit import versions_gen

ROOT = Path(__file__).resolve().parents[1]
STUDY = "versions-2026"
PY = [sys.executable, "-m"]
BASELINE = "tar -xzOf {a} | grep -F ' thds: ' | awk '{{n++; s += $7}} END {{print n, s / n}}'"
MONITORS = """\
study: {study}-mon
title: Versions with monitors
inputs:
  - {{name: {name}, kind: archive, sha256: {sha}, origin: "file:{name}"}}
interval_s: 1
metric: tps
window: {{start: {start}, end: {end}}}
labels: [workload, family, version, tier_gb, threads]
label_types: {{tier_gb: int, threads: int}}
runs:
  - regex: '(?P<workload>oltp_[a-z_]+)/(?P<family>[a-z]+)/(?P<version>[^/]+)/Tier(?P<tier_gb>\\d+)G_RW_(?P<threads>\\d+)th\\.sysbench\\.txt'
    format: sysbench1
    linked:
      vmstat: '{{workload}}/{{family}}/{{version}}/Tier{{tier_gb}}G_RW_{{threads}}th.vmstat.txt'
      iostat: '{{workload}}/{{family}}/{{version}}/Tier{{tier_gb}}G_RW_{{threads}}th.iostat.txt'
      sar: '{{workload}}/{{family}}/{{version}}/Tier{{tier_gb}}G_RW_{{threads}}th.mpstat.txt'
      interval_s: 1
      offset_s: -12
      tolerance_s: 30
files:
  - {{regex: '.*\\.vmstat\\.txt', format: vmstat, incomplete: skip}}
  - {{regex: '.*\\.iostat\\.txt', format: iostat, incomplete: skip}}
  - {{regex: '.*\\.mpstat\\.txt', format: sar, incomplete: skip}}
"""


def timed(cmd: list[str], **kw) -> dict:
    """Run `cmd` as a whole process: wall s, CPU s (user + sys, children included), peak RSS
    MB, exit code and the tail of its output."""
    t0 = time.perf_counter()
    p = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT, **kw
    )
    assert p.stdout is not None
    out = p.stdout.read()
    p.stdout.close()
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return {
        "wall_s": round(time.perf_counter() - t0, 2),
        "cpu_s": round(ru.ru_utime + ru.ru_stime, 2),
        "rss_mb": round(ru.ru_maxrss / 1024, 1),
        "rc": p.returncode,
        "tail": out.strip().splitlines()[-3:],
    }


def du(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def _edit_draft(index: Path) -> None:
    """An author's first edit: the key results point at the time series (shown open)."""
    text = index.read_text()
    index.write_text(text.replace('keyresult ref="jitter"', 'keyresult ref="over-time"'))


def _build(extra: Path) -> dict:
    code = (
        "import sys; from pathlib import Path; from tests.kit.sitebuild import build, BASE_URL;"
        "e = Path(sys.argv[1]); build(e / 'www' / 'benchlog', BASE_URL, extra=e,"
        " previews=False, own_content=False)"
    )
    return timed([sys.executable, "-c", code, str(extra)])


def study(archive: Path, work: Path, profile: Path | None = None, build: bool = True) -> dict:
    """Every step on `archive` (its truth file beside it), in `work`."""
    truth = json.loads(archive.with_name(archive.name + ".truth.json").read_text())
    posts, data = work / "content" / "posts", work / "data"
    where = ["--archives", str(archive.parent), "--content", str(posts)]
    r: dict = {"runs": len(truth), "archive_bytes": archive.stat().st_size}
    r["baseline"] = timed(["bash", "-c", BASELINE.format(a=archive)])
    r["new"] = timed([*PY, "ingest", "new", STUDY, str(archive), "--content", str(posts)])
    r["ingest"] = timed([*PY, "ingest", STUDY, *where, "--data", str(data)])
    r["data_bytes"] = du(data / STUDY)
    if profile:
        r["profile"] = timed(
            [*PY, "cProfile", "-o", str(profile), "-m", "ingest", STUDY, *where]
            + ["--data", str(work / "data-profile")]
        )
    seconds = truth[0]["intervals"]
    mon = work / "mon"
    (mon / "content" / "posts" / f"{STUDY}-mon").mkdir(parents=True)
    sha = subprocess.run(["sha256sum", archive], capture_output=True, text=True, check=True)
    (mon / "content" / "posts" / f"{STUDY}-mon" / "manifest.yaml").write_text(
        MONITORS.format(
            study=STUDY,
            name=archive.name,
            sha=sha.stdout.split()[0],
            start=seconds // 15,
            end=seconds,
        )
    )
    r["ingest_monitors"] = timed(
        [*PY, "ingest", f"{STUDY}-mon", "--archives", str(archive.parent)]
        + ["--content", str(mon / "content" / "posts"), "--data", str(mon / "data")]
    )
    r["data_monitors_bytes"] = du(mon / "data" / f"{STUDY}-mon")
    if build:
        _edit_draft(posts / STUDY / "index.md")
        r["build"] = _build(work)
    return r


def ratios(r: dict) -> dict:
    return {
        "ingest_cpu_x_baseline": round(r["ingest"]["cpu_s"] / r["baseline"]["cpu_s"], 1),
        "monitors_cpu_x_baseline": round(r["ingest_monitors"]["cpu_s"] / r["baseline"]["cpu_s"], 1),
        "new_wall_x_ingest": round(r["new"]["wall_s"] / r["ingest"]["wall_s"], 2),
        "data_x_archive": round(r["data_bytes"] / r["archive_bytes"], 3),
        "data_monitors_x_archive": round(r["data_monitors_bytes"] / r["archive_bytes"], 3),
    }


def run(
    size: str,
    archive: Path | None,
    profile: Path | None,
    build: bool = True,
    keep: Path | None = None,
) -> dict:
    with tempfile.TemporaryDirectory(prefix="scale-bench-") as tmp:
        tmp_ = keep or Path(tmp)
        if archive is None:
            (tmp_ / "archives").mkdir()
            archive, _, _ = versions_gen.write(tmp_ / "archives" / f"{STUDY}.tar.gz", size)
        out = {size: study(archive, tmp_ / "big", profile, build)}
        if size != "small" and build:  # the small study's build: what the runs add to a build
            (tmp_ / "small").mkdir()
            small, _, _ = versions_gen.write(tmp_ / "small" / f"{STUDY}.tar.gz", "small")
            posts = tmp_ / "small-work" / "content" / "posts"
            where = ["--archives", str(small.parent), "--content", str(posts)]
            timed([*PY, "ingest", "new", STUDY, str(small), "--content", str(posts)])
            timed([*PY, "ingest", STUDY, *where, "--data", str(tmp_ / "small-work" / "data")])
            _edit_draft(posts / STUDY / "index.md")
            out["small_build"] = _build(tmp_ / "small-work")
            small_runs = len(json.loads(small.with_name(small.name + ".truth.json").read_text()))
            extra = out[size]["build"]["cpu_s"] - out["small_build"]["cpu_s"]
            added = out[size]["runs"] - small_runs
            out["build_cpu_ms_per_added_run"] = round(1000 * extra / added)
        out["ratios"] = ratios(out[size])
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--archive", type=Path, help="a full-size archive written before")
    p.add_argument("--smoke", action="store_true", help="the small size, as the suite runs it")
    p.add_argument("--profile", type=Path, help="write the draft's ingest profile here")
    p.add_argument("--no-build", action="store_true", help="the ingest steps only")
    p.add_argument("--size", choices=versions_gen.SIZES, default="full")
    p.add_argument("--keep", type=Path, help="work in this new directory, and keep it")
    a = p.parse_args(argv)
    out = run("small" if a.smoke else a.size, a.archive, a.profile, not a.no_build, a.keep)
    print(json.dumps(out, indent=1))
    if a.profile:
        import pstats

        pstats.Stats(str(a.profile)).sort_stats("cumulative").print_stats(30)
    steps = [v for k, v in out.items() if isinstance(v, dict) and "ingest" in v]
    failed = [s for st in steps for s in ("new", "ingest", "ingest_monitors") if st[s]["rc"]]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
