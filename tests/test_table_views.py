"""Issue 9 §6 in a browser: every table of every built post, at 1280 and 375 px, is readable
(tests/table_views.py: fits at desktop width; at phone width fits or scrolls inside its box with
the first column pinned and opaque and a fade on the side where there is more), and the page
never scrolls sideways. The tables are the built pages' own, all details opened."""

from __future__ import annotations

import re

import pytest
from browser_kit import open_page, serve, wait_for_charts
from table_views import measure, problems

WIDTHS = (1280, 375)


@pytest.fixture(scope="module")
def site(built_site):
    server, base = serve(built_site.www)
    yield base + built_site.base_path, built_site
    server.shutdown()


def posts(built):
    return sorted(p.parent.name for p in built.site.glob("posts/*/index.html"))


def open_post(browser, base, post, width, scheme="light"):
    errors = []
    page = open_page(
        browser,
        f"{base}posts/{post}/",
        errors,
        viewport={"width": width, "height": 900},
        color_scheme=scheme,
    )
    wait_for_charts(page)
    return page, errors


@pytest.mark.parametrize("width", WIDTHS)
def test_every_table_of_every_post_is_readable(browser, site, width):
    base, built = site
    names = posts(built)
    assert len(names) >= 6
    for post in names:
        page, errors = open_post(browser, base, post, width, "dark" if width < 700 else "light")
        result = measure(page)
        in_html = len(re.findall(r"<table\b", built.page(f"posts/{post}/index.html")))
        views = [v for v in result["tables"] if not v["hidden"]]
        assert len(views) >= in_html, (
            post,
            len(views),
            in_html,
        )  # none of the page's own is skipped
        bad = {f"#{v['i']} {v['id']}": problems(v, width) for v in views if problems(v, width)}
        assert not bad, (post, width, bad)
        assert not result["sideways"], (post, width, result["pageWidth"])
        assert not errors, (post, errors)
        page.context.close()


def test_the_check_sees_a_table_that_is_cut_off_or_unpinned(browser, site):
    """Negative control: without the pinned column and the fade, or squeezed back into the text
    column at desktop width, the wide tables of a post are reported."""
    base, _ = site
    page, _ = open_post(browser, base, "myrocks-cloud-cost", 375)
    page.add_style_tag(
        content="table.data tr > :first-child { position: static !important }"
        " .table-wrap { animation: none !important }"
    )
    bad = [v for v in measure(page)["tables"] if problems(v, 375)]
    assert bad and all("first column not pinned (sticky, opaque)" in problems(v, 375) for v in bad)
    assert all("no sign that it scrolls" in problems(v, 375) for v in bad)
    page.context.close()
    page, _ = open_post(browser, base, "myrocks-cloud-cost", 1280)
    page.add_style_tag(
        content="article .table-wrap { width: auto !important; margin: 0 !important; display: block !important }"
    )
    assert any(problems(v, 1280) for v in measure(page)["tables"])
    page.context.close()
