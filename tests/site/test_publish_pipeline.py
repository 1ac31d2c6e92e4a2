"""The one publish pipeline (publish/pipeline.py, `python -m publish SITE`): every caller builds
with it, its steps and their order, and the charts step's reading of the built pages with one
HTML parser (publish/charts.py): a drawing goes into its figure's empty view and nowhere else,
whatever the attributes' order, and a figure it cannot draw into fails with its page."""

from __future__ import annotations

import re

import pytest

from publish import pipeline
from publish.charts import ChartPage
from tests.kit.golden import ROOT


def test_every_caller_builds_with_the_pipeline():
    """make build, the tests' build and the benches run publish/pipeline.py; no one else runs a
    step's own command (chart_svgs.js, publish.series, publish.previews, Hugo then Pagefind)."""
    recipe = re.search(r"^build:.*\n((?:\t.*\n)+)", (ROOT / "Makefile").read_text(), re.M)[1]
    assert [line.strip() for line in recipe.splitlines()] == [
        "rm -rf site",
        '.venv/bin/python -m publish site --base-url "$(BASEURL)"',
    ]
    callers = ["tests/kit/sitebuild.py", "bench/publish_bench.py", "bench/render_bench.py"]
    for caller in callers:
        assert "from publish.pipeline import" in (ROOT / caller).read_text(), caller
    # no caller runs a step's own command; bench/compare_bench.py builds other checkouts (Hugo
    # and the series files of each tree, for the compare page alone), as their code stood
    steps = re.compile(r"chart_svgs\.js|\"publish\.(series|previews)\"|pagefind\", \"--site")
    found = [
        str(p.relative_to(ROOT))
        for p in [ROOT / "tests" / "kit" / "sitebuild.py", *sorted((ROOT / "bench").glob("*.py"))]
        if p.name != "compare_bench.py" and steps.search(p.read_text())
    ]
    assert not found


def test_the_steps_run_in_order_and_previews_need_the_charts(tmp_path):
    assert pipeline.STEPS == ("hugo", "series", "charts", "checks", "previews", "pagefind")
    with pytest.raises(SystemExit, match="unknown step draw"):
        pipeline.publish(pipeline.Build(site=tmp_path), ("draw",))
    with pytest.raises(SystemExit, match="previews: needs the charts step before it"):
        pipeline.publish(pipeline.Build(site=tmp_path), ("previews",))
    # the checks step stops the build with each problem at its file:line
    page = tmp_path / "posts" / "p" / "index.html"
    page.parent.mkdir(parents=True)
    page.write_text('<p id="x"></p><p id="x"></p>')
    with pytest.raises(SystemExit, match="id 'x' appears more than once"):
        pipeline.publish(pipeline.Build(site=tmp_path, content_dirs=[]), ("checks",))


PAGE = """<p>The markup of an empty view, quoted: <code>&lt;div class="chart-view pending"
id="c1-view"&gt;&lt;/div&gt;</code></p>
<figure data-kind="bars" id="c1" class="wide chart">
<div class="chart-view pending" id="c1-view"></div>
<script type="application/json" id="c1-spec">{"a": "<\\/div>"}</script>
</figure>
<figure class="chart" id="c2" data-kind="ratio"><div class="chart-view" id="c2-view"><table></table></div>
<script type="application/json" id="c2-spec">{}</script></figure>
"""


def test_the_parser_finds_each_figure_its_spec_and_its_empty_view(tmp_path):
    path = tmp_path / "index.html"
    path.write_text(PAGE)
    page = ChartPage.read(path)
    assert [(c.id, c.kind, c.spec) for c in page.charts] == [
        ("c1", "bars", '{"a": "<\\/div>"}'),
        ("c2", "ratio", "{}"),
    ]
    start, end = page.charts[0].view
    assert PAGE[start:end] == '<div class="chart-view pending" id="c1-view"></div>'
    assert page.charts[1].view is None  # not empty: Hugo drew it (a table), nothing to put in
    placed = page.place({"c1": "<svg></svg>"})
    assert placed == PAGE.replace(
        '<div class="chart-view pending" id="c1-view"></div>',
        '<div class="chart-view" id="c1-view"><svg></svg></div>',
    )
    assert placed.count("&lt;div class=") == 1  # the quoted markup is text, left as it is
    with pytest.raises(SystemExit, match=r"index.html: chart c2: no empty view to draw into"):
        page.place({"c2": "<svg></svg>"})
