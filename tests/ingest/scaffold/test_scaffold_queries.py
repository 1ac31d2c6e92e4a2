"""A query benchmark the project has never seen, end to end with YAML and Markdown only: a DBT3
archive of our own unlike the MyISAM one (tests/kit/dbt3_gen.py: InnoDB, two configurations per
server, `sar` files beside every run, a DESC naming the folders, queries that did not finish in
several folders, one only in some of its runs) goes through `new` (ingest/scaffold/queries.py),
the ingest and the site build, and the post passes, as it is, the checks every post gets
(numbers from data/, byline and key results, sources, dates, documented tables, a fresh
ingest), with "did not finish" shown where a query did not finish, never a time."""

from __future__ import annotations

import re
import statistics

import pytest

from ingest.__main__ import main
from tests.kit import fastyaml
from tests.kit.dbt3_gen import DNF, FOLDERS, QUERIES, REPEATS, sar_iowait, write_archive
from tests.kit.golden import ROOT
from tests.kit.post_checks import check_post_as_every_post
from tests.kit.sitebuild import BASE_PATH, BASE_URL, BuiltSite, build

STUDY = "innodb-dbt3"
BARE = "innodb-dbt3-bare"  # the same archive without --origin: a second study of the same suite


@pytest.fixture(scope="module")
def post(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("new-queries")
    archive = write_archive(tmp / "archives" / "innodb-s10-2013.tar.gz")
    posts = tmp / "content" / "posts"
    args = [
        "new",
        STUDY,
        str(archive),
        "--origin",
        "https://example.org/dbt3",
        "--content",
        str(posts),
    ]
    assert main(args) == 0
    assert main(["new", BARE, str(archive), "--content", str(posts)]) == 0
    data = ["--archives", str(archive.parent), "--data", str(tmp / "data")]
    for study in (STUDY, BARE):
        assert main([study, "--content", str(posts), *data]) == 0
    # the project's compare page, to compare a query across the two studies
    (tmp / "content" / "compare").mkdir()
    compare = (ROOT / "content" / "compare" / "index.md").read_text()
    (tmp / "content" / "compare" / "index.md").write_text(compare)
    site = tmp / "www" / "benchlog"
    build(site, BASE_URL, extra=tmp, previews=False, own_content=False)
    return {
        "tmp": tmp,
        "dir": posts / STUDY,
        "site": site,
        "built": BuiltSite(tmp / "www", site, BASE_URL, BASE_PATH),
    }


def test_the_scaffold_proposes_query_runs_by_folder_with_the_desc(post):
    text = (post["dir"] / "manifest.yaml").read_text()
    man = fastyaml.load(text)
    assert man["labels"] == ["folder"] and man["suite"] == "TPC-H"
    rule = man["queries"][0]
    assert len(man["queries"]) == 1
    assert (rule["regex"], rule["format"]) == (
        r"(?P<folder>[^/]+)/all_explains\.txt",
        "dbt3-explains",
    )
    assert man["label_files"] == [{"file": "DESC", "display": "folder"}]
    # the members are listed with what they were read as, the query runs first; past the
    # header's length, the others (the sar files beside the runs) are counted
    assert "#   mysql-5-6-bp4/all_explains.txt: dbt3-explains" in text
    assert "sar_u.txt: sar: OS samples" in text
    assert "more (`make ingest` reports each)" in text
    # the sar reports beside the runs are proposed as the rule's `sar:`, by name
    assert sorted(rule["sar"]) == [
        "{folder}/{query}.sql_no_{repeat}_sar_r.txt",
        "{folder}/{query}.sql_no_{repeat}_sar_u.txt",
    ]


def test_every_run_is_in_the_data_and_did_not_finish_is_never_a_time(post):
    data = post["tmp"] / "data" / STUDY
    runs = fastyaml.load((data / "tables" / "query-runs.yaml").read_text())
    assert len(runs["rows"]) == len(FOLDERS) * len(QUERIES) * REPEATS
    dnf = [r for r in runs["rows"] if r["status"] == "did not finish"]
    assert len(dnf) == sum(len(v) for v in DNF.values())
    assert all(r["seconds"] is None for r in dnf)
    study = fastyaml.load((data / "study.yaml").read_text())
    assert study["display"]["folder"] == {f: d for f, (d, _) in FOLDERS.items()}


def test_the_draft_shows_the_median_iowait_of_the_sar_reports(post):
    """The sar reports proposed as `sar:` give each run its means, and the draft a table of the
    median %iowait per query and server, as the generator printed them."""
    table = fastyaml.load((post["tmp"] / "data" / STUDY / "tables" / "sar-iowait.yaml").read_text())
    keys = {c["label"]: c["key"] for c in table["columns"]}
    for row in table["rows"]:
        for folder, (description, _) in FOLDERS.items():
            runs = [sar_iowait(folder, row["query"], k) for k in range(1, REPEATS + 1)]
            assert row[keys[description]] == pytest.approx(statistics.median(runs))
    page = post["built"].page(f"posts/{STUDY}/index.html")
    assert 'id="sar-iowait"' in page and "%iowait (sar)" in page


def test_the_post_shows_did_not_finish_in_its_chart_and_tables(post):
    page = post["built"].page(f"posts/{STUDY}/index.html")
    assert '<figure class="chart" id="query-times" data-kind="queries"' in page
    assert '<figure class="chart" id="plans" data-kind="plans"' in page
    spec = re.search(
        r'<script type="application/json" id="query-times-spec">(.*?)</script>', page, re.S
    )[1]
    assert '"st":"did not finish"' in spec and '"st":"1 of 3 did not finish"' in spec
    # the build drew the chart, and its drawing says "did not finish" where no time exists
    view = page.split('id="query-times-view"')[1].split("</div>")[0]
    assert "<svg" in view and "did not finish" in view
    ratios = page.split('id="query-ratios"')[1].split("</figure>")[0]
    assert "did not finish</td>" in ratios


@pytest.mark.parametrize("study", [STUDY, BARE])
def test_the_scaffolded_post_passes_the_checks_of_every_post(post, study):
    check_post_as_every_post(study, post["built"], post["tmp"], post["dir"].parent)


@pytest.mark.parametrize("viewport", [(1280, 900), (375, 812)], ids=["desktop", "phone"])
def test_the_key_results_are_on_the_first_screen(post, browser, viewport):
    from tests.kit.browser_kit import serve
    from tests.kit.post_trust import check_key_results_on_screen

    server, base = serve(post["built"].www)
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    try:
        check_key_results_on_screen(
            context.new_page(), f"{base}{BASE_PATH}posts/{STUDY}/", viewport
        )
    finally:
        context.close()
        server.shutdown()


def test_the_compare_page_shows_one_query_across_the_studies(post, browser):
    """Both studies ran the TPC-H queries: picking one shows its rows of both, each median over
    the fastest; a folder that did not finish it says so, with no ratio."""
    from tests.kit.browser_kit import serve

    server, base = serve(post["built"].www)
    page = browser.new_page()
    try:
        page.goto(f"{base}{BASE_PATH}compare/#compare.query=TPC-H/9")
        page.wait_for_selector("#compare-queries-filters:not([hidden])")
        rows = page.eval_on_selector_all(
            "#compare-queries tbody tr:not([hidden])",
            "rs => rs.map(r => Array.from(r.cells).map(c => c.textContent.trim()))",
        )
    finally:
        page.close()
        server.shutdown()
    assert len(rows) == 2 * len(FOLDERS) and {r[0] for r in rows} == {"TPC-H/9"}
    dnf = [r for r in rows if r[7] == "did not finish"]
    assert len(dnf) == 2 * sum(
        1 for (f, q), runs in DNF.items() if q == "9" and len(runs) == REPEATS
    )
    assert all(r[3] == "did not finish" and r[8] == "" for r in dnf)
    ratios = sorted(float(r[8].rstrip("×")) for r in rows if r[8])
    assert ratios[0] == 1.0 and len(ratios) == len(rows) - len(dnf)
