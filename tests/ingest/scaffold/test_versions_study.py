"""A version-comparison study of the shape published today (tests/kit/versions_gen.py, the
small size: 4 versions including a custom build, 2 buffer-pool tiers, 3 thread counts, a
read-only workload named `_RW_`, monitors that start early, missing and empty files) goes
through `python -m ingest new` -> the ingest -> the site build untouched, and every run's TPS
and QPS in data/ is the generator's own."""

from __future__ import annotations

import json

import pytest

from ingest.__main__ import main
from ingest.parse.member import parse_bytes
from ingest.problems import Problem
from ingest.read.archive import Archive
from publish.checks import check
from tests.kit import fastyaml, versions_gen
from tests.kit.sitebuild import BASE_URL, build

pytestmark = pytest.mark.slow
STUDY = "versions-2026"


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("versions")
    archives, posts, data = tmp / "archives", tmp / "content" / "posts", tmp / "data"
    archives.mkdir()
    path, truth, _ = versions_gen.write(archives / f"{STUDY}.tar.gz", "small")
    assert (
        main(
            [
                "new",
                STUDY,
                str(path),
                "--origin",
                "https://example.org/v26",
                "--content",
                str(posts),
            ]
        )
        == 0
    )
    assert (
        main([STUDY, "--content", str(posts), "--archives", str(archives), "--data", str(data)])
        == 0
    )
    return {
        "tmp": tmp,
        "archive": path,
        "truth": json.loads(truth.read_text()),
        "posts": posts,
        "data": data / STUDY,
    }


@pytest.fixture(scope="module")
def site(study):
    """The site built with the untouched draft, or the build's error."""
    site = study["tmp"] / "www" / "benchlog"
    try:
        build(site, BASE_URL, extra=study["tmp"], previews=False, own_content=False)
    except AssertionError as e:
        return str(e)
    return site


def test_the_small_archive_is_irregular(study):
    """What the test stands on: runs missing, monitors missing and empty, each monitor
    starting before sysbench's first report."""
    names = set(Archive(study["archive"]).names())
    sysbench = {n for n in names if n.endswith(".sysbench.txt")}
    size = versions_gen.SIZES["small"]
    assert len(sysbench) == len(study["truth"]) < len(versions_gen.runs(size))
    assert any(
        n.replace(".sysbench.", f".{tool}.") not in names
        for n in sysbench
        for tool in ("dstat", "mpstat", "iostat", "vmstat")
    )
    arc = Archive(study["archive"])
    assert any(not arc.read(n) for n in names)


def test_every_run_has_the_generators_tps_and_qps(study):
    runs = fastyaml.load((study["data"] / "runs.yaml").read_text())["runs"]
    by_file = {r["source"]["file"]: r for r in runs}
    assert sorted(by_file) == sorted(t["member"] for t in study["truth"])
    for t in study["truth"]:
        r = by_file[t["member"]]
        assert (r["summary"]["tps"], r["summary"]["qps"]) == (t["tps"], t["qps"]), t["member"]
        assert r["intervals"] == t["intervals"]
        assert r["full"]["mean"] == pytest.approx(t["tps_mean"], abs=1e-6), t["member"]
        series = json.loads((study["data"] / "series" / f"{r['id']}.json").read_text())
        qps = series["qps"]
        assert sum(qps) / len(qps) == pytest.approx(t["qps_mean"], rel=1e-9), t["member"]


def test_the_untouched_draft_builds_with_every_rule(study, site):
    assert not isinstance(site, str), site
    assert check(site, [study["posts"]], [study["data"].parent]) == []
    assert (site / "posts" / STUDY / "index.html").is_file()


def _first(study, suffix: str) -> tuple[bytes, str]:
    arc = Archive(study["archive"])
    name = next(n for n in arc.names() if n.endswith(suffix) and arc.read(n))
    return arc.read(name), name


@pytest.mark.parametrize(
    "suffix, reads",
    [
        ("vmstat.txt", "vmstat"),
        ("iostat.txt", "iostat"),
        ("mpstat.txt", "samples"),
        ("my.cnf.txt", "mycnf"),
        ("dstat.txt", "dstat"),
        ("variables.txt", "settings"),
        ("status.txt", "counters"),
        ("pt-mysql-summary.txt", "pt-summary"),
    ],
)
def test_each_monitor_and_server_dump_is_read_as_what_it_is(study, suffix, reads):
    """Each file beside the runs parses, as its own kind (not dstat as a summary table nor a
    pt-mysql-summary as a my.cnf), with a sample per second for the monitors."""
    data, name = _first(study, suffix)
    try:
        parsed = parse_bytes(data, name)
    except Problem as e:
        pytest.fail(str(e))
    assert parsed.format not in {"summary-table", "mycnf"} or reads == "mycnf", parsed.format
    if reads in {"vmstat", "iostat", "samples", "dstat"}:
        assert parsed.sessions and all(s.intervals >= 60 for s in parsed.sessions)
    else:
        assert parsed.settings or parsed.tables


def test_the_draft_links_every_monitor_beside_the_runs(study):
    """Each run rule of the draft links the four monitors that sit beside its runs."""
    manifest = fastyaml.load((study["posts"] / STUDY / "manifest.yaml").read_text())
    shared = manifest.get("linked") or {}  # declared once for every rule, or per rule
    for rule in manifest["runs"]:
        templates = " ".join(str(v) for v in {**shared, **(rule.get("linked") or {})}.values())
        for tool in ("vmstat", "iostat", "mpstat", "dstat"):
            assert f".{tool}." in templates, (tool, rule["regex"])
