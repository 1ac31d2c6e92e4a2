"""Version-view benchmark: what a study of many server versions costs, from the archive to the
page, with tests/kit/versions_study.py's generated study (990 runs: 11 versions, 3 buffer-pool
tiers, 3 workloads, 10 thread counts; `--smoke`: 3 versions, 1 tier, 1 workload, 3 thread
counts, to check that the bench runs).

Usage: .venv/bin/python -m bench.versions_bench [--smoke] [--out DIR]
Prints: the runs; the ingest's wall time and, of it, the `versions:` derive's
(ingest/derive/versions.py `build`); data/ bytes of the study and of the view's tables; the
build (make build's pipeline without previews) wall time; Hugo's template time of the chart's
partials (`--templateMetrics`); the post's bytes and elements with and without its inline
drawings, the chart's spec, its cells' JSON file and page, and its drawings' sizes (the figure
is 792 px wide on a desktop, 346 px on a phone: a wider drawing is shown shrunk). Record
results in docs/performance.md ("The version view").
"""

from __future__ import annotations

import argparse
import re
import subprocess
import tempfile
import time
from pathlib import Path

from ingest.derive import versions as derive_versions
from publish import budget
from tests.kit import versions_study as kit
from tests.kit.front_site import hugo_binary
from tests.kit.sitebuild import BASE_URL, ROOT, build


def smoke_sizes() -> None:
    kit.FAMILIES = {"mysql": ["5.7.44", "8.0.36", "8.4.3"]}
    kit.TIERS = (2,)
    kit.WORKLOADS = {"rw": 1.0}
    kit.THREADS = (1, 8, 64)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--smoke", action="store_true", help="a study of 9 runs: the bench runs")
    ap.add_argument("--out", type=Path, help="work dir (default: a temporary one)")
    args = ap.parse_args()
    if args.smoke:
        smoke_sizes()
    out = args.out or Path(tempfile.mkdtemp(prefix="versions-bench-"))
    spent = [0.0]
    original = derive_versions.build

    def timed(ctx):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        try:
            return original(ctx)
        finally:
            spent[0] += time.perf_counter() - start

    derive_versions.build = timed
    start = time.perf_counter()
    kit.make(out)
    ingest_s = time.perf_counter() - start  # archive generation excluded below
    derive_versions.build = original
    data = out / "data" / kit.STUDY
    start = time.perf_counter()
    build(out / "www" / "benchlog", BASE_URL, extra=out, previews=False, own_content=False)
    build_s = time.perf_counter() - start
    metrics = subprocess.run(
        [hugo_binary(), "--source", str(ROOT), "--configDir", str(out / "www-config")]
        + ["--environment", "production", "--destination", str(out / "hugo-metrics")]
        + ["--baseURL", BASE_URL, "--templateMetrics"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    post = out / "www" / "benchlog" / "posts" / kit.STUDY
    html = (post / "index.html").read_text()
    lean = budget.SVG.sub("", html)
    spec = re.search(r'id="by-version-spec">(.*?)</script>', html, re.S)
    runs = len(list((data / "series").glob("*.json")))
    print(f"runs: {runs}")
    print(f"generate + ingest: {ingest_s:.2f} s wall, of it the versions derive {spent[0]:.3f} s")
    print(f"data/{kit.STUDY}: {sum(f.stat().st_size for f in data.rglob('*') if f.is_file()):,} B")
    for f in sorted((data / "tables").glob("versions*")):
        print(f"  {f.name}: {f.stat().st_size:,} B")
    print(f"build (hugo, series, charts, checks): {build_s:.2f} s wall")
    for line in metrics.splitlines():
        if "versions" in line and "_partials" in line:
            print(f"  template {' '.join(line.split())}")
    print(f"post: {len(html.encode()):,} B, {budget.elements(html):,} elements")
    print(f"  without its drawings: {len(lean.encode()):,} B, {budget.elements(lean):,} elements")
    print(f"  the chart's spec: {len(spec.group(1)) if spec else 0:,} B")
    print(f"  its cells' JSON: {(post / 'by-version.json').stat().st_size:,} B")
    print(f"  the page of its cells: {(post / 'by-version-data.table.html').stat().st_size:,} B")
    for m in re.finditer(r'<svg class="chart-svg (\w+)" width="([\d.]+)" height="([\d.]+)"', html):
        print(f"  its {m[1]} drawing: {m[2]} x {m[3]} px")


if __name__ == "__main__":
    main()
