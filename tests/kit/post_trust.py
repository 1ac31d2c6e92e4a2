"""The trust checks of the templates on every post (tests/site/test_post_trust.py on our posts,
tests/ingest/scaffold/ on scaffolded ones): the byline names the original, key results open
the post, dates are shown at the precision known. (That every figure says where its numbers
come from, that the provenance claims no more than the labels, and the front matter those
need, are make build's rules: publish/post_rules.py.)"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from tests.kit.browser_kit import frames, until


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
        # the link reads "see it": the figure's id is no word a screen reader should say
        link = item.split('<a class="key-ref"', 1)[1].split("</a>", 1)[0]
        assert refs[0] not in link.split(">", 1)[1], (study, link)


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


def check_key_refs_visible(page, url: str) -> None:
    """At `url`: 3 to 5 key results, each link followed lands on something drawn or rows shown."""
    page.goto(url)
    refs = page.evaluate(
        "[...document.querySelectorAll('.key-results a.key-ref')].map(a => a.getAttribute('href'))"
    )
    assert 3 <= len(refs) <= 5, url
    for ref in refs:
        page.click(f'.key-results a.key-ref[href="{ref}"]')
        until(page, "h => location.hash === h", ref)
        frames(page)
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
