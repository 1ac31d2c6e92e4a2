"""A version-comparison study at the scale people publish today, generated at test time with
numbers of our own: sysbench 1.x logs of 11 server versions (three families), three buffer-pool
tiers, three workloads and ten thread counts, 990 runs in a .tar.gz laid out as
`<family>/<family>-<version>/Tier<N>G_<workload>_<T>th.log`; its manifest with a `versions:` view; the
ingest; and a post with the `versions` chart and prose quoting its extremes. Used by
tests/site/test_versions_scale.py and tests/browser/test_versions_chart.py (and by hand:
`python -m tests.kit.versions_study DIR` writes the study into DIR and builds DIR/www/benchlog)."""

from __future__ import annotations

import sys
from pathlib import Path

from ingest.read.archive import sha256_file
from tests.kit.archive_gen import sysbench1_log, tar_gz

STUDY = "versions-scale"
FAMILIES = {
    "mysql": ["5.7.44", "8.0.36", "8.4.3", "9.1.0", "9.1.0-custom"],
    "percona": ["5.7.44", "8.0.36", "8.4.3"],
    "mariadb": ["10.11.6", "11.4.2", "12.1.1"],
}
TIERS = (2, 12, 32)  # buffer pool, GB
WORKLOADS = {"rw": 1.0, "rwnet": 0.8, "ro": 1.6}
THREADS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)
SECONDS = 40
BASE = "mysql-8.0.36"


def versions() -> list[str]:
    return [f"{family}-{v}" for family, vs in FAMILIES.items() for v in vs]


def rate(version: str, tier: int, workload: str, threads: int) -> float:
    """TPS of a cell: scales with threads up to a knee that grows with the tier; each version
    a few per cent apart, one regressing at high concurrency, one gaining on the small tier."""
    knee = {2: 16, 12: 64, 32: 128}[tier]
    scale = min(threads, knee) * (1 - 0.1 * max(0, threads / knee - 1) ** 0.5)
    v = versions().index(version)
    factor = 1 + (v % 5 - 2) * 0.03
    if version == "mysql-9.1.0" and threads >= 128:
        factor *= 0.7  # a regression under high concurrency
    if version == "mariadb-11.4.2" and tier == 2:
        factor *= 1.25  # a gain when the data does not fit the buffer pool
    return round(40 * WORKLOADS[workload] * (tier / 2) ** 0.3 * max(scale, 0.5) * factor, 2)


def archive(path: Path) -> Path:
    members = {}
    for i, version in enumerate(versions()):
        family = version.partition("-")[0]
        for tier in TIERS:
            for workload in WORKLOADS:
                for threads in THREADS:
                    members[f"{family}/{version}/Tier{tier}G_{workload}_{threads}th.log"] = (
                        sysbench1_log(
                            rate(version, tier, workload, threads),
                            SECONDS,
                            threads=threads,
                            seed=i * 1000 + tier * 100 + threads,
                        )
                    )
    return tar_gz(path, members, top="versions-2026")


MANIFEST = """\
study: {study}
title: Eleven server versions, three buffer pools, ten thread counts
inputs:
  - {{name: versions.tar.gz, kind: archive, sha256: {sha}, origin: https://example.org/versions}}
interval_s: 1
window: {{start: 5, end: {end}}}
labels: [version, tier, workload, threads]
label_types: {{tier: int, threads: int}}
label_names: {{version: Server version, tier: Buffer pool, workload: Workload, threads: Threads}}
display:
  tier: {{"2": 2 GB buffer pool, "12": 12 GB buffer pool, "32": 32 GB buffer pool}}
  workload: {{rw: read-write, rwnet: read-write over the network, ro: read-only}}
default_tables: []
runs:
  - regex: '[a-z]+/(?P<version>[a-z]+-[0-9.]+(?:-[a-z]+)?)/Tier(?P<tier>\\d+)G_(?P<workload>[a-z]+)_(?P<threads>\\d+)th\\.log'
versions:
  - id: versions
    title: TPS and QPS per server version
    version: version
    base: {base}
    facets: [workload, tier]
    x: threads
    metrics: {{tps: TPS, qps: QPS}}
"""


def front_matter(title: str, day: str, summary: str) -> str:
    """A generated post's front matter: its title, date and summary, and the tags of a
    sysbench study of InnoDB versions."""
    return (
        f"---\ntitle: {title}\ndate: {day}\nsummary: {summary}\ntags: [test]\n"
        "engines: [innodb]\nversions: ['8.0']\nbenchmarks: [sysbench]\nstorage: [nvme]\n---\n"
    )


POST = (
    front_matter(
        "Eleven server versions, three buffer pools, ten thread counts",
        "2026-03-01",
        "A generated study of eleven server versions, for the version view's tests.",
    )
    + """\
Against {base}, the largest gain of any server is
{{{{< value table="versions-extremes" col="ratio" agg="max" where="metric=tps,direction=gain" >}}}}
({{{{< value table="versions-extremes" col="ratio" agg="max" where="metric=tps,direction=gain" show="version" >}}}}),
the largest regression
{{{{< value table="versions-extremes" col="ratio" agg="min" where="metric=tps,direction=regression" >}}}}
({{{{< value table="versions-extremes" col="ratio" agg="min" where="metric=tps,direction=regression" show="version" >}}}}).

{{{{< chart kind="versions" id="by-version" table="versions" source="derived" caption="TPS of each server version by threads, one panel per workload and buffer pool, each on its own scale." >}}}}

## Provenance

{{{{< provenance >}}}}
"""
)


def make(tmp: Path) -> Path:
    """Writes the archive, the manifest and the post, and ingests; returns the post's dir."""
    from ingest.__main__ import main

    (tmp / "archives").mkdir(parents=True, exist_ok=True)
    arc = archive(tmp / "archives" / "versions.tar.gz")
    post = tmp / "content" / "posts" / STUDY
    post.mkdir(parents=True, exist_ok=True)
    (post / "manifest.yaml").write_text(
        MANIFEST.format(study=STUDY, sha=sha256_file(arc), end=SECONDS, base=BASE)
    )
    (post / "index.md").write_text(POST.format(base=BASE))
    args = [STUDY, "--content", str(tmp / "content" / "posts"), "--archives", str(tmp / "archives")]
    assert main([*args, "--data", str(tmp / "data")]) == 0
    return post


if __name__ == "__main__":
    from tests.kit.sitebuild import generated_site

    print(generated_site(make, Path(sys.argv[1])) / "benchlog" / "posts" / STUDY / "index.html")
