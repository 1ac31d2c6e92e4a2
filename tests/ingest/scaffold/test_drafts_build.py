"""The scaffold never writes what make build refuses: drafts of archives of several shapes, as
`make new` writes them and `make ingest` fills them, untouched, build with every rule of the
build (publish/checks.py: numbers typed into the prose, the project's words where a reader
sees them, key results first with their values, every figure's source, the byline, the page
budget ...). One Hugo build for all of them."""

from __future__ import annotations

import pytest

from ingest.__main__ import main
from publish.checks import check
from tests.kit import fastyaml, unseen
from tests.kit.archive_gen import vmstat_text, write_tree
from tests.kit.dbt3_gen import write_archive
from tests.kit.sitebuild import BASE_URL, build
from tests.kit.sysbench_gen import sysbench_log, tar_gz
from tests.kit.tiers_gen import tiers


def labels_in_names(root):
    """sysbench 1.x, engine, IOPS and volume in the file names."""
    logs = {
        f"sb_{e}_iops{i}_vol{v}gb.log": sysbench_log(rate + i / 50 + v / 10, seconds=30)
        for e, rate in {"innodb": 400.0, "rocksdb": 650.0}.items()
        for i in (1000, 3000)
        for v in (100, 400)
    }
    return tar_gz(root / "volumes.tar.gz", logs, top="volumes"), "https://example.org/volumes"


def runs_with_vmstat(root):
    """A folder per server version, each run with a vmstat beside it, a directory."""
    members = {}
    for i, version in enumerate(("mysql-5.7.44", "mysql-8.0.36", "mysql-8.4.0")):
        members[f"{version}/sysbench.log"] = sysbench_log(900 + 40 * i, seconds=60, threads=32)
        members[f"{version}/vmstat.log"] = vmstat_text(62, seed=i)
    return write_tree(root / "versions-vmstat", members), ""


def dbt3_queries(root):
    """DBT3 query runs per server folder, with sar reports beside them."""
    return write_archive(root / "dbt3-sar.tar.gz"), "https://example.org/dbt3"


SHAPES = {
    "labels-in-names": labels_in_names,
    "many-versions": unseen.many_runs,  # 990 runs in nested folders
    "runs-with-vmstat": runs_with_vmstat,
    "tpcc-mysql": unseen.redo_tpcc,
    "single-run": unseen.single_run,
    "dbt3-queries": dbt3_queries,
    "summary-tables": unseen.insert_summary,
    # 239 sysbench 1.0 runs, vmstat and iostat named as each run, started early; some empty
    "tiers-monitors": tiers,
}


@pytest.fixture(scope="module")
def drafts(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("drafts")
    archives, posts = tmp / "archives", tmp / "content" / "posts"
    archives.mkdir()
    for study, write in SHAPES.items():
        path, origin = write(archives)
        origin_arg = ["--origin", origin] if origin else []
        assert main(["new", study, str(path), *origin_arg, "--content", str(posts)]) == 0
        where = ["--archives", str(archives), "--data", str(tmp / "data")]
        assert main([study, "--content", str(posts), *where]) == 0
    site = tmp / "www" / "benchlog"
    # fails with every problem of every post, each at its file:line, when a draft breaks a rule
    build(site, BASE_URL, extra=tmp, previews=False, own_content=False)
    return {"site": site, "posts": posts, "data": tmp / "data"}


def test_every_untouched_draft_builds_with_every_rule(drafts):
    assert check(drafts["site"], [drafts["posts"]], [drafts["data"]]) == []
    built = {p.parent.name for p in drafts["site"].glob("posts/*/index.html")}
    assert built == set(SHAPES)


@pytest.mark.parametrize("study", SHAPES)
def test_each_draft_opens_with_key_results_quoting_data(drafts, study):
    """What the rules look at is there to check: the key results first, each with a value,
    every figure with its source (the summary-tables draft: its tables, no key results yet)."""
    body = (drafts["posts"] / study / "index.md").read_text().split("---\n", 2)[2]
    html = (drafts["site"] / "posts" / study / "index.html").read_text()
    assert html.count('<span class="source source-') >= html.count('<figure class="')
    if study == "runs-with-vmstat":  # the monitors' chart, whose caption once named docs/
        assert 'kind="metrics"' in body
    if study == "summary-tables":
        return
    assert body.lstrip().startswith("{{< keyresults >}}")
    assert body.count("{{< keyresult ") == body.count("{{< keyresult ref=") >= 3
    for item in body.split("{{< keyresult ref=")[1:]:
        assert "{{< value " in item.split("{{< /keyresult >}}")[0]


def test_a_draft_of_many_runs_with_monitors_fits_and_links_them(drafts):
    """The ~250-run draft links its monitors once and draws only the compared runs in its
    time series and metrics charts (every run stays in the runs table): it built within the
    page budgets above, and here it holds what makes it fit."""
    body = (drafts["posts"] / "tiers-monitors" / "index.md").read_text()
    # the per-run charts (a versions view, when drafted, draws every run as a cell)
    charts = [
        line for line in body.splitlines() if "{{< chart " in line and 'kind="versions"' not in line
    ]
    assert len(charts) == 2 and all(' runs="' in c for c in charts)
    for c in charts:
        picked = c.split(' runs="')[1].split('"')[0].split(",")
        assert 2 <= len(picked) <= 24
    runs = fastyaml.load((drafts["data"] / "tiers-monitors" / "runs.yaml").read_text())["runs"]
    assert len(runs) == 239 and sum(1 for r in runs if r.get("linked")) == 238
    html = (drafts["site"] / "posts" / "tiers-monitors" / "index.html").read_text()
    # the budget is 300 KB: a third left for the author (the drafted versions view takes ~80 KB)
    assert len(html.encode()) < 200_000
