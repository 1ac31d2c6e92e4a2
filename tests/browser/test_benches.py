"""The browser benches still run: their smoke mode (one round, a few steps) on the tests' site
build, the naive page put together beside it. They measure nothing here (tests never assert
times); what is checked is that both pages draw every chart and the interactions happen."""

from __future__ import annotations

import pytest

from bench import interaction_bench, render_bench

POST = "posts/myrocks-cloud-cost/"


def args(site, out):
    return [
        "--smoke",
        "--site",
        str(site.www),
        "--post",
        site.base_path.strip("/") + "/" + POST,
        "--out",
        str(out),
    ]


@pytest.fixture(scope="module")
def site(built_site):
    return built_site


def test_render_bench_smoke(site, browser, tmp_path):
    results = render_bench.main(args(site, tmp_path), browser)
    for page in ("built", "naive"):
        (one,) = results[page]
        assert one["every"] > 0 and one["task"] > 0, (page, one)


def test_interaction_bench_smoke(site, browser, tmp_path):
    results = interaction_bench.main(args(site, tmp_path), browser)
    (built,) = results[("4 runs", "built")]
    (naive,) = results[("4 runs", "naive")]
    assert built["runs"] == 4
    assert set(built) == {"hover", "window", "zoom", "runs"}  # the built page has a window
    assert set(naive) == {"hover", "zoom", "runs"}
