"""The charts step (publish/charts.py with publish/chart_svgs.js) reuses a chart's drawing from an earlier build (.cache/chart-svgs/)
only while its inputs are the same: the output with a warm cache is byte-identical to a cold
one, and a changed run file read by a time series is drawn again (tiny synthetic study,
tests/kit/front_site.py)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from publish import charts
from publish.theme import light_theme
from tests.kit.front_site import STUDY, hugo_binary, write_site

pytestmark = pytest.mark.slow  # draws every chart of a site, twice


def draw(site: Path, cache: str) -> None:
    """The pipeline's charts step over `site`, with CHART_SVG_CACHE=cache."""
    os.environ["CHART_SVG_CACHE"] = cache
    try:
        charts.draw(site, light_theme())
    finally:
        del os.environ["CHART_SVG_CACHE"]


def files(site: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(site)): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()
    }


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The tiny study's site as Hugo leaves it, charts not drawn yet; the tests draw into
    copies of it."""
    tmp = tmp_path_factory.mktemp("svg-cache")
    project = write_site(tmp / "project")
    built = tmp / "built"
    result = subprocess.run(
        [hugo_binary(), "--quiet", "--destination", str(built)],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return built


def test_a_warm_cache_gives_the_same_bytes_and_a_changed_run_is_drawn_again(tmp_path, built):
    cache = tmp_path / "cache"
    sites = {
        name: shutil.copytree(built, tmp_path / name)
        for name in ("cold", "warm", "changed", "fresh")
    }
    old_code = cache / "0123456789abcdef"  # drawings of an earlier chart code: removed
    old_code.mkdir(parents=True)
    (old_code / "x.json").write_text("{}")
    (cache / "notes").mkdir()  # anything else in the dir: kept
    draw(sites["cold"], str(cache))
    assert sorted(p.name for p in cache.iterdir() if p.name != "notes") != ["0123456789abcdef"]
    assert not old_code.exists() and (cache / "notes").is_dir()
    entries = sorted(cache.rglob("*.json"))
    assert entries and all(p.parent.parent == cache for p in entries)
    draw(sites["warm"], str(cache))
    assert files(sites["warm"]) == files(sites["cold"])
    assert sorted(cache.rglob("*.json")) == entries
    # one run's numbers change (same file name, same spec): its time series is drawn again,
    # exactly as without a cache
    for name in ("changed", "fresh"):
        run = sites[name] / "data" / STUDY / "series" / "alpha-100.json"
        series = json.loads(run.read_text())
        series["tps"] = [v * 3 for v in series["tps"]]
        run.write_text(json.dumps(series))
    draw(sites["changed"], str(cache))
    draw(sites["fresh"], "off")
    assert files(sites["changed"]) == files(sites["fresh"])
    assert files(sites["changed"]) != files(sites["cold"])


def test_a_chart_draws_the_same_whatever_was_drawn_before_it(tmp_path):
    """Vega numbers clip paths from a process-wide counter: a build whose cache holds the first
    of two clipped charts (so it is not drawn before the second) writes the same bytes as a
    cold one."""
    project = write_site(tmp_path / "project")
    post = project / "content" / "posts" / STUDY / "index.md"
    first = '{{< chart kind="timeseries" id="tps-time" show="alpha-100,beta-100" caption="TPS over time" >}}'
    text = post.read_text()
    assert first in text
    post.write_text(
        text.replace(first, first + "\n\n" + first.replace('"tps-time"', '"tps-time-again"'))
    )
    built = tmp_path / "built"
    result = subprocess.run(
        [hugo_binary(), "--quiet", "--destination", str(built)],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    cache = tmp_path / "cache"
    sites = {name: shutil.copytree(built, tmp_path / name) for name in ("cold", "partly")}
    draw(sites["cold"], str(cache))
    clipped = [p for p in sorted(cache.rglob("*.json")) if "clip-path" in p.read_text()]
    assert len(clipped) == 2
    for entry in clipped:  # the one drawn second goes: it is drawn again after a cache hit
        if "tps-time-again" in entry.read_text():
            entry.unlink()
    draw(sites["partly"], str(cache))
    assert files(sites["partly"]) == files(sites["cold"])


def test_a_chart_of_an_unknown_kind_or_without_a_spec_fails_the_build_with_its_page(tmp_path):
    page = tmp_path / "site" / "posts" / "p" / "index.html"
    page.parent.mkdir(parents=True)
    for figure, spec, error in [
        (
            '<figure class="chart" id="c1" data-kind="pie">',
            '<script type="application/json" id="c1-spec">{}</script>',
            "chart c1: no kind module for pie",
        ),
        ('<figure class="chart" id="c2" data-kind="bars">', "", "chart c2: no spec"),
    ]:
        page.write_text(f"{figure}{spec}</figure>")
        with pytest.raises(SystemExit) as failed:
            draw(tmp_path / "site", "off")
        assert str(failed.value) == f"{page}: {error}"


def test_charts_shared_among_drawer_processes_give_the_same_bytes_as_one(tmp_path, built):
    """The charts step on a site with many charts runs one drawer per CPU, each over a share:
    every page and SVG is byte for byte what one drawer over all the charts writes, and the
    cache counts the hits of every drawer."""
    sites = {n: shutil.copytree(built, tmp_path / f"workers-{n}") for n in (1, 2, 3)}
    os.environ["CHART_SVG_CACHE"] = "off"
    try:
        notes = {n: charts.draw(site, light_theme(), n_workers=n)[1] for n, site in sites.items()}
    finally:
        del os.environ["CHART_SVG_CACHE"]
    n_charts = len(charts.drawer_jobs(charts.chart_pages(built)))
    assert n_charts >= 3  # every drawer gets a share
    assert files(sites[2]) == files(sites[1]) and files(sites[3]) == files(sites[1])
    assert files(sites[1]) != files(built)  # the charts were drawn
    assert notes[2] == notes[1] and "from the cache" not in notes[1]
    cache = tmp_path / "cache"
    for name in ("fill", "hit"):
        draw_site = shutil.copytree(built, tmp_path / name)
        os.environ["CHART_SVG_CACHE"] = str(cache)
        try:
            _, note = charts.draw(draw_site, light_theme(), n_workers=2)
        finally:
            del os.environ["CHART_SVG_CACHE"]
        assert files(draw_site) == files(sites[1])
    assert note.endswith(f", {n_charts} from the cache")


def test_a_second_drawer_only_when_there_are_enough_charts(monkeypatch):
    monkeypatch.setenv("CHART_WORKERS", "2")
    assert charts.workers(charts.CHARTS_PER_WORKER - 1) == 1
    assert charts.workers(2 * charts.CHARTS_PER_WORKER) == 2
    assert charts.workers(100 * charts.CHARTS_PER_WORKER) == 2
    monkeypatch.setenv("CHART_WORKERS", "1")
    assert charts.workers(100 * charts.CHARTS_PER_WORKER) == 1
