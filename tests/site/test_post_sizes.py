"""The page budget make build checks (publish/budget.py: a post over it is told what fills the
page), lazy tables with every row on their own pages, and the ratio charts' JSON carrying
their values once (a list per row, not an object per cell)."""

import json
import re
from pathlib import Path

from publish.budget import elements
from publish.checks import check

ROOT = Path(__file__).resolve().parents[2]
# A post's HTML at load. sysbench-regressions was 396 KB and ~13,000 elements; with
# its four long reference tables and its ratio charts' data tables published as pages of their
# own (table/page.html, fetched when opened) it is ~135 KB and ~2,350 (docs/charts.md). With
# the inline chart SVGs (the build-time charts), optimised by SVGO: the cloud post
# ~262 KB, linkbench-cached ~212 KB and ~3,500 elements. The budgets are make build's own
# (publish/budget.py: a post over them fails the build, naming what fills the page).


def _figure(kind: str, ident: str, runs: int = 0, rows: int = 0, drawn: int = 0) -> str:
    """A chart or table as the templates write it: its drawing, its spec listing `runs`, its
    data table of `rows`."""
    spec = json.dumps(
        {
            "kind": kind,
            "runs": [
                {"id": f"run-{i}", "name": f"Server {i}, utf8mb4_general_ci, 64 threads"}
                for i in range(runs)
            ],
        }
    )
    body = "".join(f"<tr><td>{i}</td><td>{i * 2}</td></tr>" for i in range(rows))
    svg = "<svg>" + "<path d='M0 0'/>" * drawn + "</svg>"
    label = '<span class="source source-derived">Derived</span>'
    if kind == "table":
        return (
            f'<figure class="table" id="{ident}"><table><caption>{label}</caption>'
            f"<tbody>{body}</tbody></table></figure>"
        )
    return (
        f'<figure class="chart" id="{ident}" data-kind="{kind}"><div class="chart-view">{svg}</div>'
        f'<script type="application/json" id="{ident}-spec">{spec}</script>'
        f"<details><table><tbody>{body}</tbody></table></details>"
        f"<figcaption>{label}</figcaption></figure>"
    )


def _post(tmp_path, html: str, source_text: str):
    page = tmp_path / "site" / "posts" / "big" / "index.html"
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text(f"<!doctype html><p>Some prose.</p>{html}")
    source = tmp_path / "content" / "big" / "index.md"
    source.parent.mkdir(parents=True, exist_ok=True)
    source.write_text(source_text)
    return source, check(tmp_path / "site", [tmp_path / "content"])


def test_a_post_over_its_budget_is_told_what_fills_it(tmp_path):
    """Negative control of publish/checks.py, the last step of make build: over the budget, the
    build names each chart and table that fills the page, largest first, at its shortcode's
    line, with what it holds and the fix that fits it (not a guess at the largest table)."""
    html = (
        _figure("timeseries", "over-time", runs=3000, rows=4)
        + _figure("bars", "dots", rows=10, drawn=300)
        + _figure("table", "small", rows=12)
    )
    source, problems = _post(
        tmp_path,
        html,
        '---\ntitle: x\n---\n\n{{< chart kind="timeseries" id="over-time" >}}\n\n'
        '{{< chart kind="bars" id="dots" >}}\n\n{{< table id="small" >}}\n',
    )
    assert problems[0].startswith(f"{source}: the post is over its page budget: "), problems
    assert "bytes without the charts' drawings (budget 150,000)" in problems[0]
    assert problems[1].startswith(f"{source}:5: chart timeseries `over-time` (3,000 runs): "), (
        problems
    )
    assert "its spec " in problems[1] and "give it runs=" in problems[1]
    assert not any("`small`" in p for p in problems)  # 1 KB: not what fills the page
    assert not any("lazy" in p for p in problems)
    assert len(problems) == 2, problems  # the drawing and the rest weigh less than a twentieth


def test_a_post_over_its_elements_is_told_which_rows_and_drawings(tmp_path):
    html = _figure("table", "runs", rows=4000) + _figure("bars", "dots", rows=10, drawn=1500)
    source, problems = _post(
        tmp_path,
        html,
        '---\ntitle: x\n---\n\n{{< table id="runs" >}}\n\n{{< chart kind="bars" id="dots" >}}\n',
    )
    assert "elements (budget 4,000)" in problems[0], problems
    assert problems[1].startswith(f"{source}:5: table `runs` (4,000 rows): "), problems
    assert problems[1].endswith(
        'give it lazy="true" (its rows on a page of their own, fetched when opened)'
    )
    assert problems[2].startswith(f"{source}:7: chart bars `dots` (10 rows): "), problems
    assert "its drawing " in problems[2] and "a mark per value" in problems[2]


def test_the_build_reports_a_repeated_id(tmp_path):
    """An id twice on a page names the line that gave it."""
    source, problems = _post(
        tmp_path,
        '<h2 id="over-time">Over time</h2><figure class="chart" id="over-time"><figcaption>'
        '<span class="source source-derived">x</span></figcaption></figure>',
        '---\ntitle: x\n---\n\n## Over time\n\n{{< chart id="over-time" >}}\n',
    )
    assert problems == [
        f"{source}:5: id 'over-time' appears more than once in "
        f"{tmp_path / 'site' / 'posts' / 'big' / 'index.html'}: rename one (a chart's or "
        "table's id, or a heading)"
    ]
    assert elements("<p><b>x</b><!-- c --></p>") == 2


def test_lazy_tables_are_pages_of_their_own_with_every_row(built_site):
    """A lazy table keeps its rows out of the post but nothing is lost: its page (linked from
    the post, readable without JavaScript) holds every row of the data table, and so does its CSV."""
    import yaml

    html = built_site.page("posts/sysbench-regressions/index.html")
    lazy = re.findall(
        r'<figure class="table" id="([^"]+)">\s*<details class="lazy-table">.*?data-lazy-src="([^"]+)"',
        html,
        re.S,
    )
    assert len(lazy) >= 3
    for tid, src in lazy:
        rows = yaml.safe_load(
            (ROOT / "data/sysbench-regressions/tables" / f"{tid}.yaml").read_text()
        )["rows"]
        assert f'href="{src}"' in html and f'{tid}.csv" download' in html
        page = (built_site.www / src.lstrip("/")).read_text()
        assert page.startswith("<!doctype html>") and page.count("<tr>") == len(rows) + 1
        assert f'id="{tid}-table"' not in html
    specs = [
        json.loads(s)
        for s in re.findall(
            r'<script type="application/json" id="[^"]+-spec">(.*?)</script>', html, re.S
        )
    ]
    ratio = re.findall(
        r'<figure class="chart" id="([^"]+)" data-kind="ratio".*?data-lazy-src="([^"]+)"',
        html,
        re.S,
    )
    assert len(ratio) == len([s for s in specs if s.get("kind") == "ratio"])
    for (fid, src), spec in zip(ratio, [s for s in specs if s.get("kind") == "ratio"]):
        page = (built_site.www / src.lstrip("/")).read_text()
        assert page.count("<tr>") == len(spec["rows"]) + 1 and f'id="{fid}-data-table"' in page


def test_ratio_specs_carry_each_value_once(built_site):
    html = built_site.page("posts/sysbench-regressions/index.html")
    specs = [
        json.loads(s)
        for s in re.findall(
            r'<script type="application/json" id="[^"]+-spec">(.*?)</script>', html, re.S
        )
    ]
    ratio = [s for s in specs if s.get("kind") == "ratio"]
    assert ratio
    for spec in ratio:
        assert "cells" not in spec
        assert list(spec["values"]) == spec["rows"] or set(spec["values"]) == set(spec["rows"])
        assert all(len(v) == len(spec["cols"]) for v in spec["values"].values())
