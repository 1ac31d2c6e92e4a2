"""Version views fed by tables (`versions:` with `table:`), generated here: one of a declared
table's figures (Callaghan's relative-QPS shape: one figure a cell, no run behind it) and one of
the default `runs` table (a run id in every row). Built by `make build`'s pipeline and opened
with and without JavaScript: the view with no run drops its Run column (the table of extremes,
drawn by the build and by the script for another base, and the page of its cells), the view of
runs links every cell's run to the compare page; the controls' and tables' words are
i18n/en.toml's."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
import yaml

from ingest.read.archive import sha256_file
from tests.kit.archive_gen import sysbench1_log, tar_gz
from tests.kit.browser_kit import open_page, serve
from tests.kit.sitebuild import generated_site
from tests.kit.versions_study import front_matter

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
I18N = tomllib.loads((ROOT / "i18n" / "en.toml").read_text(encoding="utf-8"))
STUDY = "versions-tables"
# (version, tier, threads) -> TPS
RATES = {
    (v, tier, th): round(50 * th * f * (1 + tier / 40), 2)
    for v, f in (("5.7.44", 1.0), ("8.0.36", 0.8), ("8.4.3", 1.3))
    for tier in (2, 12)
    for th in (1, 8)
}

MANIFEST = """\
study: {study}
title: Three server versions from tables
inputs:
  - {{name: v.tar.gz, kind: archive, sha256: {sha}, origin: https://example.org/v}}
interval_s: 1
window: {{start: 5, end: 40}}
labels: [version, tier, threads]
label_types: {{tier: int, threads: int}}
label_names: {{version: Server version, tier: Buffer pool GB, threads: Threads}}
runs:
  - regex: '(?P<version>[0-9.]+)/Tier(?P<tier>\\d+)G_(?P<threads>\\d+)th\\.log'
tables:
  - {{id: mean-tps, rows: [version, tier, threads], value: {{key: tps, label: TPS, stat: mean}}}}
versions:
  - id: figures
    table: mean-tps
    version: version
    base: "5.7.44"
    facets: [tier]
    x: threads
    metrics: {{tps: TPS}}
  - id: by-run
    table: runs
    version: version
    base: "5.7.44"
    facets: [tier]
    x: threads
    metrics: {{mean: TPS}}
"""

POST = (
    front_matter(
        "Three server versions from tables",
        "2026-03-02",
        "A generated study of three versions, for the version views of tables.",
    )
    + """\
The largest gain of any version is
{{< value table="figures-extremes" col="ratio" agg="max" where="metric=tps,direction=gain" >}}.

{{< chart kind="versions" id="figures-chart" table="figures" source="derived" caption="TPS of each version from the table of means." >}}

{{< chart kind="versions" id="runs-chart" table="by-run" source="derived" caption="TPS of each version from the table of runs." >}}

## Provenance

{{< provenance >}}
"""
)


def make(tmp: Path) -> Path:
    from ingest.__main__ import main

    (tmp / "archives").mkdir(parents=True, exist_ok=True)
    members = {
        f"{v}/Tier{tier}G_{th}th.log": sysbench1_log(r, 40, threads=th, seed=th + tier)
        for (v, tier, th), r in RATES.items()
    }
    arc = tar_gz(tmp / "archives" / "v.tar.gz", members, top="v")
    post = tmp / "content" / "posts" / STUDY
    post.mkdir(parents=True, exist_ok=True)
    (post / "manifest.yaml").write_text(MANIFEST.format(study=STUDY, sha=sha256_file(arc)))
    (post / "index.md").write_text(POST)
    args = [STUDY, "--content", str(tmp / "content" / "posts"), "--archives", str(tmp / "archives")]
    assert main([*args, "--data", str(tmp / "data")]) == 0
    return post


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(the data dir, the post's dir in the built site, the web root)."""
    tmp = tmp_path_factory.mktemp("versions-tables")
    www = generated_site(make, tmp)
    return tmp / "data" / STUDY, www / "benchlog" / "posts" / STUDY, www


def figure(html: str, fid: str) -> str:
    part = html[html.index(f'<figure class="chart" id="{fid}"') :]
    return part[: part.index("</figure>")]


def word(key: str) -> str:
    return I18N[key]["other"]


def test_a_view_without_runs_has_no_run_column_and_one_of_runs_links_each(built):
    data, post, _ = built
    html = (post / "index.html").read_text()
    # the ingest: no run behind a declared table's figures; a run behind each row of `runs`
    figures = yaml.safe_load((data / "tables" / "figures.yaml").read_text())["rows"]
    by_run = yaml.safe_load((data / "tables" / "by-run.yaml").read_text())["rows"]
    assert len(figures) == len(by_run) == len(RATES)
    assert all(r["run"] is None for r in figures) and all(r["run"] for r in by_run)
    # the figures' view: the table of extremes and the page of cells have no Run column
    fig = figure(html, "figures-chart")
    head = re.search(r"<thead>(.*?)</thead>", fig, re.S).group(1)
    assert 'data-col="run"' not in head and f">{word('versions-run')}<" not in head
    assert f">{word('versions-rank')}<" in head and f">{word('versions-ratio')}<" in head
    rows = re.findall(r'<tr data-dir="(?:regression|gain)">(.*?)</tr>', fig, re.S)
    cols = head.count("<th")
    assert rows
    assert all(r.count("<td") + r.count("<th") == cols for r in rows)
    cells = (post / "figures-chart-data.table.html").read_text()
    assert 'data-key="run"' not in cells and 'data-key="runs"' not in cells and "<a " not in cells
    # the runs' view: a Run column, each run linked to the compare page
    fig = figure(html, "runs-chart")
    assert 'data-col="run"' in fig and "compare.runs=" in fig
    cells = (post / "runs-chart-data.table.html").read_text()
    links = re.findall(r'<a href="[^"]*compare\.runs=versions-tables/([^"]+)">', cells)
    assert links == [r["run"] for r in by_run]


def test_the_script_redraws_without_a_run_column_in_the_pages_words(built, browser):
    """Another base: the script lists the extremes again, in the page's words (i18n), and
    without a Run column where the view has no runs."""
    _, _, www = built
    server, root = serve(www)
    problems: list[str] = []
    try:
        page = open_page(browser, f"{root}/benchlog/posts/{STUDY}/", problems)
        for fid, runs in (("figures-chart", False), ("runs-chart", True)):
            page.locator(f"#{fid}").scroll_into_view_if_needed()
            page.wait_for_selector(f"#{fid}[data-state=rendered]", timeout=60_000)
            base = page.locator(f"#{fid} select[aria-label='{word('versions-base')}']")
            base.select_option("8.4.3")
            page.wait_for_function(
                f"document.getElementById('{fid}').dataset.base === '8.4.3'", timeout=10_000
            )
            table = page.locator(f"#{fid}-extremes-table")
            caption = word("versions-extremes-caption").replace("{{ .Metric }}", "TPS")
            assert table.locator("caption").inner_text() == caption.replace("{{ .Base }}", "8.4.3")
            first = table.locator("tbody tr").first
            regression = word("versions-regression").replace("{{ .Rank }}", "1")
            assert first.locator("th").inner_text() == regression  # 5.7.44 and 8.0.36 are slower
            heads = table.locator("thead th").count()
            assert first.locator("th, td").count() == heads
            assert (table.locator("thead th[data-col=run]").count() == 1) == runs
            assert (first.locator("a[href*='compare.runs=']").count() == 1) == runs
            label = page.locator(f"#{fid} .chart-toolbar label").filter(
                has_text=word("versions-shared")
            )
            assert label.count() == 1
        # the page of cells, fetched into the post when its details opens: sortable, linked
        page.locator("#runs-chart details.chart-data > summary").click()
        page.wait_for_selector("#runs-chart-data-table a[href*='compare.runs=']", timeout=10_000)
        links = page.locator("#runs-chart-data-table tbody a").count()
        assert links == len(RATES)
        assert page.locator("#runs-chart-data-table th[data-key=run] button").count() == 1
        assert not problems, problems
    finally:
        server.shutdown()
