"""Issue 9 §1 §2: each study post opens with its key results (on the first screen of a desktop
and of a phone, each linking to the figure that shows it), names its original exactly as the
study's FACTS "Origin" does (title, link, authors, publisher, date; the dated archive page
where the exact URL is not confirmed), shows dates at the precision known everywhere, and
labels every figure and table with where its numbers come from. Uses the session's site build
and Chromium."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from browser_kit import serve

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "studies"
STUDIES = sorted(
    p.parent.name
    for p in (ROOT / "content" / "posts").glob("*/index.md")
    if (ROOT / "data" / p.parent.name / "study.yaml").exists()
)
SOURCES = {"derived", "published", "computed", "estimate"}


def front(study) -> dict:
    return yaml.safe_load(
        (ROOT / "content" / "posts" / study / "index.md").read_text().split("---\n", 2)[1]
    )


def origin_section(study) -> str:
    facts = (SHARED / study / "FACTS.md").read_text()
    return facts.split("## Origin", 1)[1].split("\n## ", 1)[0]


def facts_or_skip(study) -> str:
    if not (SHARED / study / "FACTS.md").exists():
        pytest.skip(f"{study}: no ../shared/studies/{study}/FACTS.md to check the byline against")
    return re.sub(r"\s+", " ", origin_section(study))


@pytest.mark.parametrize("study", STUDIES)
def test_byline_is_the_origin_in_facts(study):
    """Title, authors, publisher, date and link are those FACTS "Origin" gives; a link FACTS
    does not confirm is its dated archive page, said so; every credit link is in FACTS too."""
    o = front(study)["original"]
    origin = facts_or_skip(study)
    # the original's title as FACTS quotes it, or a result folder as FACTS names its path
    named = re.search(r"`[^`]*/" + re.escape(o["title"]) + r"/?`", origin)
    assert f'"{o["title"]}"' in origin or named, (study, o["title"])
    assert o["url"] in origin, (study, o["url"])
    for author in o["authors"]:
        assert author in origin, (study, author)
    assert o["publisher"].split(" (")[0] in origin, (study, o["publisher"])
    assert str(o["date"]) in origin, (study, o["date"])
    not_confirmed = "exact URL is not confirmed" in origin
    assert (o.get("url_is") == "archive") == not_confirmed, study
    for credit in front(study).get("credits") or []:
        if credit.get("url"):
            assert credit["url"] in origin or credit["url"] in re.sub(
                r"\s+", " ", (SHARED / study / "FACTS.md").read_text()
            ), credit


def test_the_byline_check_catches_an_invented_slug():
    """Negative control: the made-up cloud slug of the old post is not in FACTS."""
    origin = facts_or_skip("myrocks-cloud-cost")
    assert "https://www.percona.com/blog/2018/08/01/myrocks-and-innodb-in-the-cloud/" not in origin


def check_byline_and_key_results(study: str, html: str, o: dict) -> None:
    """The header names the original (`o`, front matter `original`): a link to its url with its
    title, or, without a url, its title and that the origin is not given; then 3 to 5 key
    results come first, each with a number from data/ and a link to a figure or table of the
    page."""
    header = html.split('<header class="post-header">', 1)[1].split("</header>", 1)
    if o.get("url"):
        link = re.search(r'<a class="original" href="([^"]+)">([^<]+)</a>', header[0])
        assert (
            link and link.group(1) == o["url"] and link.group(2) == o["title"].replace("&", "&amp;")
        ), study
    else:  # never a made-up link: the byline says so
        assert 'class="original" href' not in header[0], study
        assert f'<span class="original">{o["title"].replace("&", "&amp;")}</span>' in header[0], (
            study
        )
        assert "(its origin is not given)" in header[0], study
    # the first thing after the header is the key results block
    after = header[1].lstrip()
    assert after.startswith('<section class="key-results"'), after[:200]
    block = after.split("</section>", 1)[0]
    items = re.findall(r'<li class="key-result">(.*?)</li>', block, re.S)
    assert 3 <= len(items) <= 5, study
    ids = set(re.findall(r'<figure class="(?:chart|table)" id="([^"]+)"', html))
    for item in items:
        assert '<span class="value">' in item, item  # its numbers come from data/
        refs = re.findall(r'<a class="key-ref" href="#([^"]+)"', item)
        assert len(refs) == 1 and refs[0] in ids, (study, refs)


@pytest.mark.parametrize("study", STUDIES)
def test_byline_and_key_results_open_the_post(study, built_site):
    check_byline_and_key_results(
        study, built_site.page(f"posts/{study}/index.html"), front(study)["original"]
    )


def test_the_byline_check_catches_a_missing_origin_note(built_site):
    """Negative control: a byline without a url must say the origin is not given."""
    html = built_site.page("posts/myrocks-cloud-cost/index.html")
    o = {k: v for k, v in front("myrocks-cloud-cost")["original"].items() if k != "url"}
    with pytest.raises(AssertionError):
        check_byline_and_key_results("myrocks-cloud-cost", html, o)


def check_sources(study: str, html: str) -> None:
    """Every figure and table's caption starts with where its numbers come from."""
    figures = re.findall(r'<figure class="(chart|table)" id="([^"]+)".*?</figure>', html, re.S)
    assert figures
    for kind, fid in figures:
        body = re.search(rf'<figure class="{kind}" id="{fid}".*?</figure>', html, re.S).group(0)
        tag = (
            "figcaption" if kind == "chart" else "caption"
        )  # a chart's data table has its own caption
        # a lazy table (rows on a page of their own) carries its caption in its <summary>
        lazy = kind == "table" and 'class="lazy-table"' in body
        caption = re.search(
            r"<summary[^>]*>(.*?)</summary>" if lazy else rf"<{tag}[^>]*>(.*?)</{tag}>", body, re.S
        )
        assert caption, (study, fid)
        label = re.search(r'<span class="source source-([a-z]+)">', caption.group(1))
        assert label and label.group(1) in SOURCES, (study, fid)


@pytest.mark.parametrize("study", STUDIES)
def test_provenance_claims_no_more_than_the_labels_say(study, built_site):
    check_provenance_claims(study, built_site.page(f"posts/{study}/index.html"))


def check_provenance_claims(study: str, html: str) -> None:
    """Issue 9 §4: the provenance block never says every figure is published (or derived) when
    the page labels some figures otherwise (Optane: an estimate, computed ratios)."""
    labels = set(re.findall(r'<span class="source source-([a-z]+)">', html))
    block = re.sub(
        r"<[^>]+>|\s+", " ", html.split('<div class="provenance">', 1)[1].split("</div>", 1)[0]
    )
    for word in ("published", "derived"):
        if labels - {word}:
            claim = re.search(
                rf"\bevery (figure|table|number)\b[^.;:]*\b(is|are|was)\b[^.;:]*\b{word}\b",
                block,
                re.I,
            )
            assert not claim, (study, claim.group(0))


@pytest.mark.parametrize("study", STUDIES)
def test_every_figure_and_table_says_where_its_numbers_come_from(study, built_site):
    check_sources(study, built_site.page(f"posts/{study}/index.html"))


def check_date(study: str, f: dict, site) -> None:
    """Post, home card, feed and sitemap carry the original's date at the precision given
    ("YYYY-MM-DD", "YYYY-MM" or "YYYY", docs/studies.md), else the post's own, never a
    placeholder: the page's date keeps the original's (starts with it); a post with no date at
    all (a scaffolded archive whose members carry no time) shows none and has no pubDate.
    `site`: a BuiltSite."""
    feed = ET.fromstring(site.page("index.xml"))
    pub = {
        i.findtext("link").rstrip("/").rsplit("/", 1)[-1]: i.findtext("pubDate")
        for i in feed.iter("item")
    }
    page = site.page(f"posts/{study}/index.html")
    header = page.split('<header class="post-header">', 1)[1].split("</header>", 1)[0]
    own = str(f["date"])[:10] if f.get("date") else ""
    shown = str(f["original"].get("date") or "") or own
    if not shown:
        assert "<time" not in header and pub[study] is None, study
        return
    assert re.fullmatch(r"\d{4}(-\d\d(-\d\d)?)?", shown), (study, shown)
    assert own.startswith(shown), (study, own, shown)  # the page's date keeps the original's
    assert f'<time datetime="{shown}">' in header, study
    assert f'<time datetime="{shown}">' in site.page("index.html"), study
    y, m, d = own.split("-")
    assert re.search(rf"\b{int(d):02d} \w+ {y}\b", pub[study]), (study, pub[study])
    entry = re.search(
        rf"<loc>[^<]*/posts/{study}/</loc>\s*(<lastmod>([^<]+)</lastmod>)?",
        site.page("sitemap.xml"),
    )
    assert entry, study
    if entry.group(2):
        assert entry.group(2).startswith(own), (study, entry.group(2))


@pytest.mark.parametrize("study", STUDIES)
def test_provenance_origins_date_the_original_as_the_byline_does(study):
    """Issue 9 §2: an input's origin that dates the original names the byline's date, at its
    precision (the redo post's origin read "2017" though the day, 2017-05-09, is known)."""
    day = str(front(study)["original"].get("date") or "")
    inputs = yaml.safe_load((ROOT / "data" / study / "study.yaml").read_text()).get("inputs") or []
    for i in inputs:
        origin = str(i.get("origin") or "")
        if origin.startswith(("https://", "http://", "file:")) or not day:
            continue  # an address (or an archive's file name) dates nothing
        dates = re.findall(r"\b(?:19|20)\d\d(?:-\d\d(?:-\d\d)?)?\b", origin)
        assert all(d == day for d in dates), (study, origin, day)


@pytest.mark.parametrize("study", STUDIES)
def test_dates_at_the_precision_known(study, built_site):
    check_date(study, front(study), built_site)


@pytest.fixture(scope="module")
def site_url(built_site):
    server, base = serve(built_site.www)
    yield f"{base}{built_site.base_path}"
    server.shutdown()


@pytest.mark.parametrize("viewport", [(1280, 900), (375, 812)], ids=["desktop", "phone"])
def test_key_results_are_on_the_first_screen(browser, site_url, viewport):
    """The last key result's box ends within the viewport's height, for every post, and the
    page does not scroll sideways."""
    width, height = viewport
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    try:
        for study in STUDIES:
            check_key_results_on_screen(page, f"{site_url}posts/{study}/", viewport)
    finally:
        context.close()


def check_key_results_on_screen(page, url: str, viewport: tuple[int, int]) -> None:
    """At `url`, in a Playwright page of `viewport` size: 3 to 5 key results, the last one's box
    within the first screen, no sideways scroll."""
    width, height = viewport
    page.goto(url)
    boxes = page.evaluate("""() => [...document.querySelectorAll('.key-results li')]
        .map(li => li.getBoundingClientRect().bottom)""")
    assert 3 <= len(boxes) <= 5, url
    assert max(boxes) <= height, (url, viewport, max(boxes))
    assert page.evaluate("document.documentElement.scrollWidth") <= width, url


def test_each_key_result_leads_to_something_visible(browser, site_url):
    """Issue 9 §1: a key result's link lands on a figure the reader sees: the target is not in a
    closed <details>, and it shows a drawn chart or a table with rows (a lazy table whose rows
    come only when opened, or a collapsed one, shows nothing: make build refuses such a ref,
    post/checks.html). Follows each link as a reader does, at phone width."""
    context = browser.new_context(viewport={"width": 375, "height": 812})
    page = context.new_page()
    try:
        for study in STUDIES:
            check_key_refs_visible(page, f"{site_url}posts/{study}/")
    finally:
        context.close()


def check_key_refs_visible(page, url: str) -> None:
    """At `url`: 3 to 5 key results, each link followed lands on something drawn or rows shown."""
    page.goto(url)
    refs = page.evaluate(
        "[...document.querySelectorAll('.key-results a.key-ref')].map(a => a.getAttribute('href'))"
    )
    assert 3 <= len(refs) <= 5, url
    for ref in refs:
        page.click(f'.key-results a.key-ref[href="{ref}"]')
        page.wait_for_timeout(150)
        seen = page.evaluate(
            """id => {
            const el = document.getElementById(id);
            if (!el) return 'no element';
            if (el.closest('details:not([open])')) return 'inside a closed details';
            const shown = [...el.querySelectorAll('svg, canvas, table')].filter(x => {
                if (x.closest('details:not([open])')) return false;
                const r = x.getBoundingClientRect();
                return r.height > 20 && r.width > 20 &&
                    (x.tagName !== 'TABLE' || x.querySelectorAll('tbody tr').length > 0);
            });
            return shown.length ? 'visible' : 'nothing drawn or no rows shown';
        }""",
            ref[1:],
        )
        assert seen == "visible", (url, ref, seen)


def test_icp_counters_leave_room_for_the_values_on_a_phone(browser, site_url):
    """Issue 9 §6/§7: at 375 px the pinned Counter column of the ICP status counters breaks its
    names at underscores instead of taking most of the box, and the Unit column (a count on
    every row but one, whose unit goes with its name) is not shown."""
    context = browser.new_context(viewport={"width": 375, "height": 812})
    page = context.new_page()
    try:
        page.goto(f"{site_url}posts/index-condition-pushdown/")
        box, first, heads = page.evaluate("""() => {
            const t = document.querySelector('#status-counters table');
            const th = [...t.querySelectorAll('thead th')];
            return [t.parentElement.getBoundingClientRect().width, th[0].getBoundingClientRect().width,
                    th.map(h => h.getAttribute('data-key'))];
        }""")
        assert "unit" not in heads, heads
        assert first <= 0.4 * box, (first, box)
    finally:
        context.close()
