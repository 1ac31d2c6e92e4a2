"""Archives the project has never seen (tests/kit/unseen.py: 540 runs in nested folders
with a DESC, 2 s intervals, 15,000 s tpcc-mysql runs with empty seconds, 4 hours of sysbench-tpcc
with vmstat at 1 s beside each run, a single run), each taken down the README's path as a new
author would: `new` -> ingest -> one site build -> the checks `make test` runs on every post.
Each twice: as scaffolded, with no edit, and as an author edits it (labels' headings and
display names, a metric other than tps, a declared table and a chart, a base, extra runs whose
series are dropped, the byline and date). And an archive of summary tables only, as `new`
drafts it (`file_tables:`) and as its author writes the manifest and the post. One Hugo build
for all of them."""

from __future__ import annotations

import shutil

import pytest

from ingest.__main__ import main
from ingest.read.archive import sha256_file
from ingest.write.datadir import dump
from tests.kit import fastyaml
from tests.kit.post_checks import check_post_as_every_post
from tests.kit.sitebuild import BASE_PATH, BASE_URL, ROOT, BuiltSite, build
from tests.kit.unseen import ARCHIVES, AUTHORED, write

pytestmark = (
    pytest.mark.slow
)  # each archive goes through new, ingest, a Hugo build and the post checks

EDITED = {name: f"{name}-edited" for name in ARCHIVES}
DRAFTED = {name: f"{name}-draft" for name in AUTHORED}  # as `new` drafts them, no edit
STUDIES = [*ARCHIVES, *EDITED.values(), *AUTHORED, *DRAFTED.values()]


def edit_collations(man: dict, front: dict) -> str:
    """Headings, reads/s as the metric, a pivot of the servers across thread counts."""
    man["label_names"] = {"server": "Server", "collation": "Collation", "threads": "Client threads"}
    man["metric"] = "reads_s"
    man["tables"].append(
        {
            "id": "servers",
            "title": "Reads/s by server and thread count, utf8mb4_general_ci",
            "where": {"collation": "utf8mb4_general_ci"},
            "rows": ["threads"],
            "pivot": "server",
            "value": {"key": "{server}", "label": "{server}", "stat": "mean", "digits": 0},
        }
    )
    # a long title: the compare page's study menu and the post's first screen hold it
    front["title"] = (
        "Six servers, five collations and eighteen client thread counts: read-only sysbench "
        "on MariaDB and MySQL as the threads grow, every run of the archive, every interval "
        "of every run, and how the collations compare at each count"
    )
    return (
        "## Every server\n\n"
        '{{< chart kind="line" id="servers-line" table="servers-long" x="threads" y="mean" '
        'color="server" source="derived" caption="Mean reads/s by client threads" >}}\n\n'
        '{{< table id="servers" source="derived" >}}\n'
    )


def edit_redo(man: dict, front: dict) -> str:
    """A base case, the p95 latency of New-Order (tpcc-mysql's empty seconds are missing)."""
    man["label_names"] = {"redo_gb": "Redo log GB", "bp_gb": "Buffer pool GB"}
    man["base"] = {"redo_gb": 2}
    man["tables"].append(
        {
            "id": "latency",
            "rows": ["redo_gb", "bp_gb"],
            "values": [
                {
                    "key": "p95",
                    "label": "New-Order p95 ms, mean",
                    "stat": "mean",
                    "column": "p95_ms",
                    "digits": 1,
                },
                {
                    "key": "worst",
                    "label": "New-Order p95 ms, max",
                    "stat": "max",
                    "column": "p95_ms",
                    "digits": 1,
                },
            ],
        }
    )
    front["original"].update({"authors": ["A. N. Author"], "date": "2019-06"})
    front["date"] = "2019-06-12"
    return '## New-Order latency\n\n{{< table id="latency" source="derived" >}}\n'


def edit_vmstat(man: dict, front: dict) -> str:
    """8.0.21 an extra run whose series are dropped; other panels."""
    rule = man["runs"][0]
    man["runs"] = [
        {
            **rule,
            "regex": rule["regex"].replace("[0-9]+(?:[._-][0-9]+){1,3}", "8-0-21"),
            "published": False,
        },
        rule,
    ]
    man["series"] = {"extra": "drop"}
    man["runs"][1]["linked"]["panels"] = ["vm.cs", "vm.us", "vm.sy"]
    front["title"] = "MySQL 8.0.22 under four hours of sysbench-tpcc"
    return ""


def edit_single(man: dict, front: dict) -> str:
    """An engine label, queries/s as the metric."""
    man["labels"] = ["engine"]
    man["runs"][0]["labels"] = {"engine": "innodb"}
    man["display"] = {"engine": {"innodb": "InnoDB"}}
    man["metric"] = "qps"
    front["engines"] = ["InnoDB"]
    front["date"] = "2021-02-03"
    return ""


EDITS = {
    "collations": edit_collations,
    "redo-tpcc": edit_redo,
    "tpcc-vmstat": edit_vmstat,
    "single-run": edit_single,
}


def author_edits(post, name: str) -> None:
    """Apply the author's edits to a scaffolded post (its manifest and front matter through
    YAML, a section added to its body)."""
    man = fastyaml.load((post / "manifest.yaml").read_text())
    head, front_text, body = (post / "index.md").read_text().split("---\n", 2)
    front = fastyaml.load(front_text)
    man.setdefault("tables", [])
    extra = EDITS[name](man, front)
    if name == "collations":  # the line chart reads a long table of the same pivot
        man["tables"].append(
            {
                "id": "servers-long",
                "where": {"collation": "utf8mb4_general_ci"},
                "rows": ["server", "threads"],
                "value": {"key": "mean", "label": "Mean reads/s", "stat": "mean", "digits": 0},
            }
        )
    (post / "manifest.yaml").write_text(dump(man))
    body = body.replace("## Every run", extra + "\n## Every run") if extra else body
    (post / "index.md").write_text(f"{head}---\n{dump(front)}---\n{body}")


SUMMARY_MANIFEST = """\
study: insert-summary
title: The insert benchmark on two small servers, from its summary tables
inputs:
  - {{name: {archive}, kind: archive, sha256: "{sha}", origin: "{origin}"}}
files:
  - {{glob: ibench.results, format: summary-table}}
file_tables:
  - id: load
    title: Inserts per second during the load, and the database's size after it
    file: ibench.results
    table: '(?P<rows>[0-9]+m), 1c, 1t, (?P<cpu>core-i[0-9]), mysql / load mysql'
    labels: {{rows: Rows, cpu: Server}}
    columns: {{engine: Binary, ips.av: Inserts/s, size: Size GB}}
  - id: scan
    title: Seconds per full scan
    file: ibench.results
    table: '(?P<rows>[0-9]+m), 1c, 1t, (?P<cpu>core-i[0-9]), mysql / scan'
    labels: {{rows: Rows, cpu: Server}}
"""

SUMMARY_POST = """\
---
title: The insert benchmark on two small servers, from its summary tables
date: "2017-10-01"
summary: "Insert rates, sizes and scan times of three binaries, as the benchmark's tables give them."
study: insert-summary
benchmarks: [insert benchmark]
names: [{archive}]
original:
  title: {archive}
  url: "{origin}"
  authors: [A. Tester]
  date: "2017-10"
---

{{{{< keyresults >}}}}
{{{{< keyresult ref="load-rates" >}}}}During the load the fastest binary inserted {{{{< value table="load" col="ips_av" agg="max" >}}}} rows a second ({{{{< value table="load" col="ips_av" agg="max" show="engine" >}}}}), the slowest {{{{< value table="load" col="ips_av" agg="min" >}}}} ({{{{< value table="load" col="ips_av" agg="min" show="engine" >}}}}).{{{{< /keyresult >}}}}
{{{{< keyresult ref="load" >}}}}After it the database took from {{{{< value table="load" col="size" agg="min" >}}}} to {{{{< value table="load" col="size" agg="max" >}}}} GB.{{{{< /keyresult >}}}}
{{{{< keyresult ref="scan" >}}}}A full scan took from {{{{< value table="scan" col="secs" agg="min" >}}}} to {{{{< value table="scan" col="secs" agg="max" >}}}} seconds.{{{{< /keyresult >}}}}
{{{{< /keyresults >}}}}

The archive, {archive}, holds the benchmark's summary tables and no run's output: every
figure here is one of its tables, as printed.

## The load

{{{{< chart kind="bars" id="load-rates" table="load" x="engine" y="ips_av" color="cpu" facet="rows" source="published" caption="Inserts per second of each binary, by server and number of rows" >}}}}

{{{{< table id="load" source="published" >}}}}

## Scans

{{{{< table id="scan" source="published" >}}}}

## Provenance

{{{{< provenance >}}}}
"""


def author_summary_study(posts, archive, origin) -> None:
    """The manifest and post an author writes for the summary tables (`new` drafts neither)."""
    post = posts / "insert-summary"
    post.mkdir(parents=True)
    fill = {"archive": archive.name, "sha": sha256_file(archive), "origin": origin}
    (post / "manifest.yaml").write_text(SUMMARY_MANIFEST.format(**fill))
    (post / "index.md").write_text(SUMMARY_POST.format(**fill))


def run(*argv) -> None:
    assert main([str(a) for a in argv]) == 0, argv


@pytest.fixture(scope="module")
def unseen(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("unseen")
    archives, posts = tmp / "archives", tmp / "content" / "posts"
    for name in ARCHIVES:
        path, origin = write(name, archives)
        for study in (name, EDITED[name]):
            run("new", study, path, *(["--origin", origin] if origin else []), "--content", posts)
        author_edits(posts / EDITED[name], name)
    for name in AUTHORED:
        path, origin = write(name, archives)
        author_summary_study(posts, path, origin)
        run("new", DRAFTED[name], path, "--origin", origin, "--content", posts)
    for study in STUDIES:
        run(study, "--content", posts, "--archives", archives, "--data", tmp / "data")
    # the compare page, which lists every study (its study menu holds the longest title)
    (tmp / "content" / "compare").mkdir()
    shutil.copy(ROOT / "content" / "compare" / "index.md", tmp / "content" / "compare")
    site = tmp / "www" / BASE_PATH.strip("/")
    build(site, BASE_URL, extra=tmp, previews=False, own_content=False)
    return {"tmp": tmp, "posts": posts, "built": BuiltSite(tmp / "www", site, BASE_URL, BASE_PATH)}


@pytest.mark.parametrize("study", STUDIES)
def test_the_post_passes_the_checks_of_every_post(unseen, study):
    """Its build passed make build's own rules (publish/checks.py: no number typed into the
    prose, every figure's source, key results first, the page budget ...); then the checks
    tests/site/test_posts_numbers.py, test_post_trust.py and test_studies_ingest.py run on every
    post of the site, on this one: its numbers are data's as rendered, its byline and key
    results open it, its date is shown at the precision given (or none), its tables are
    documented (the defaults by docs/manifest.md, the declared ones by the manifest), and its
    data is a fresh ingest."""
    fresh = check_post_as_every_post(study, unseen["built"], unseen["tmp"], unseen["posts"])
    assert [str(p) for p in fresh.problems] == []  # a scaffolded manifest warns of nothing


def test_the_scaffold_read_each_archive_as_a_first_draft(unseen):
    """What a reader of the manifests sees: labels named for what they are, the interval as the
    data says, vmstat proposed as linked, the date from the archive."""
    man = {s: fastyaml.load((unseen["posts"] / s / "manifest.yaml").read_text()) for s in ARCHIVES}
    front = {
        s: fastyaml.load((unseen["posts"] / s / "index.md").read_text().split("---\n", 2)[1])
        for s in ARCHIVES
    }
    assert man["collations"]["labels"] == ["server", "collation", "threads"]  # the DESC's layout
    assert (
        man["collations"]["interval_s"] == 2
        and man["collations"]["tables"][0]["id"] == "mean-by-threads"
    )
    assert (
        man["redo-tpcc"]["labels"] == ["redo_gb", "bp_gb"] and man["redo-tpcc"]["metric"] == "trx"
    )
    assert man["tpcc-vmstat"]["labels"] == ["version"]
    assert man["tpcc-vmstat"]["runs"][0]["linked"] == {
        "vmstat": "{version}/vmstat.log",
        "interval_s": 1,
        "panels": ["vm.us", "vm.wa", "vm.cs"],
    }
    assert man["tpcc-vmstat"]["display"]["version"] == {
        "mysql-8-0-21": "MySQL 8.0.21",
        "mysql-8-0-22": "MySQL 8.0.22",
    }
    assert man["single-run"]["labels"] == [] and len(man["single-run"]["runs"]) == 1
    assert [str(front[s].get("date")) for s in ARCHIVES] == [
        "2019-11-04",
        "2019-06-12",
        "2020-09-01",
        "None",  # a tar whose members carry no time: no date, never today
    ]


def test_the_edits_took(unseen):
    data = unseen["tmp"] / "data"
    runs = fastyaml.load((data / "collations-edited" / "runs.yaml").read_text())["runs"]
    assert len(runs) == 540 and {r["metric"] for r in runs} == {"reads_s"}
    # the scaffold's comparison names the metric the author chose, not the one it was made for
    compared = fastyaml.load(
        (data / "collations-edited" / "tables" / "mean-by-threads.yaml").read_text()
    )
    assert compared["columns"][1]["label"] == "Mean reads_s" and "reads_s" in compared["title"]
    dropped = fastyaml.load((data / "tpcc-vmstat-edited" / "runs.yaml").read_text())["runs"][0]
    assert (
        dropped["series"]["resolution"] == "dropped"
        and not (data / "tpcc-vmstat-edited" / "series" / f"{dropped['id']}.json").exists()
    )
    latency = fastyaml.load((data / "redo-tpcc-edited" / "tables" / "latency.yaml").read_text())
    assert all(r["p95"] > 10 for r in latency["rows"])  # the empty seconds' 0.000 left out


@pytest.fixture(scope="module")
def site_url(unseen):
    from tests.kit.browser_kit import serve

    server, base = serve(unseen["built"].www)
    yield f"{base}{BASE_PATH}"
    server.shutdown()


@pytest.mark.parametrize("width,height", [(1280, 900), (375, 812)], ids=["desktop", "phone"])
def test_in_a_browser_each_post_opens_with_its_key_results_and_charts_take_over(
    browser, site_url, unseen, width, height
):
    """test_post_trust's first-screen check and (at phone width, where they are tightest) its
    key-result links, and test_charts_static's takeover without layout shift (the 15,000 s and
    4-hour time series, 540 runs, a single run; the edited posts where their charts differ);
    the compare page's study menu holds a 200-character title."""
    from tests.kit.post_trust import check_key_refs_visible, check_key_results_on_screen
    from tests.kit.takeover import check_takeover

    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    moved = []
    try:
        for study in STUDIES:
            url = f"{site_url}posts/{study}/"
            check_key_results_on_screen(page, url, (width, height))
            if width < 600:
                check_key_refs_visible(page, url)
            if study in ARCHIVES or study in ("collations-edited", "tpcc-vmstat-edited"):
                moved += check_takeover(browser, url, width)[0]
        page.goto(f"{site_url}compare/")
        menu = page.locator("select[name=study]").bounding_box()
        assert menu["width"] <= 24 * 16 + 1, menu  # main.css: at most 24rem
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()
    assert not moved, moved
