"""What a reader reads, on any study's pages: no word of the project's own machinery (file
paths of its docs and data, "the ingest", "the wrapper", machine summaries) in the text of any
built page, and a home card per post that says at a glance what the study found, with a
number, and whose study it revisits. One session build (`built_site`), no browser."""

from __future__ import annotations

import re

import pytest
import yaml

from tests.kit.htmlscan import html_pages, parse, reader_text

# Words of the project's machinery: a reader of a post has no use for them. Each is a regex
# matched case-insensitively on a page's visible text.
JARGON = [
    r"\bdocs/",  # the project's docs, e.g. "docs/manifest.md"
    r"\b(?:manifest|runs|study|data-schema)\.(?:ya?ml|md)\b",
    r"\bdata/<",  # "data/<study>/..."
    r"\bthe manifest\b",
    r"\b(?:the|by the|our) ingest\b",
    r"\bingest(?:ed|s|'s)?\b",
    r"\bthe (?:benchmark )?wrapper(?:'s)?\b",
    r"\bwrapper's\b",
    r"\bover \d+ values: lowest\b",  # a generated range summary in place of a caption
    r"\bstudy module\b",
    r"\bshortcode",
    r"\bfront matter\b",
]


def pages(site):
    """Every page a reader opens (not the lazy tables' fragments, which a post embeds)."""
    return [p for p in html_pages(site) if not p.name.endswith(".table.html")]


def jargon_in(text: str) -> list[str]:
    found = []
    for pattern in JARGON:
        for m in re.finditer(pattern, text, re.I):
            found.append(text[max(0, m.start() - 60) : m.end() + 60])
    return found


def test_the_jargon_check_catches_each_kind():
    for text in (
        "as the manifest declares; docs/manifest.md, Linked metrics",
        "computed by the ingest (version 0.1.0)",
        "the wrapper kept them for the first hour only",
        "Avg TPS over 24 values: lowest 132.67 (IOPS tier 5000)",
        "the window mean is the ingest's (data/<study>/runs.yaml)",
    ):
        assert jargon_in(text), text
    assert not jargon_in("The original ran the benchmark for an hour; the data set is 91 GB.")


def test_no_page_speaks_the_projects_jargon(built_site):
    found = {}
    for path in pages(built_site.site):
        hits = jargon_in(reader_text(path.read_text(encoding="utf-8")))
        if hits:
            found[str(path.relative_to(built_site.site))] = hits[:3]
    assert not found, found


def _front(post_dir) -> dict:
    from tests.kit.golden import ROOT

    for root in (
        ROOT / "content" / "posts",
        ROOT / "tests" / "fixtures" / "site" / "content" / "posts",
    ):
        index = root / post_dir / "index.md"
        if index.exists():
            return yaml.safe_load(index.read_text(encoding="utf-8").split("---\n", 2)[1])
    raise AssertionError(f"no content/posts/{post_dir}/index.md")


def test_every_home_card_says_what_was_found_and_whose_study_it_is(built_site):
    """A post with key results shows its first one on its card (with its number); a post that
    revisits an original names its authors (else its title) and year on the card."""
    home = (built_site.site / "index.html").read_text(encoding="utf-8")
    cards = re.findall(r'<li class="card[^"]*">(.*?)</li>\s*(?=<li class="card|</ol>)', home, re.S)
    assert cards
    checked = 0
    for card in cards:
        href = re.search(r'<a href="[^"]*/posts/([^/"]+)/"', card).group(1)
        front = _front(href)
        post = (built_site.site / "posts" / href / "index.html").read_text(encoding="utf-8")
        first = re.search(r'<li class="key-result">(.*?) <a class="key-ref"', post, re.S)
        text = reader_text(card)
        if first:
            headline = reader_text(first.group(1))
            assert headline in text and re.search(r"\d", headline), (href, text)
            checked += 1
        original = front.get("original")
        if original:
            for who in original.get("authors") or [original["title"]]:
                assert who in text, (href, who, text)
            if original.get("date"):
                assert str(original["date"])[:4] in text, (href, text)
    assert checked, "no card of a post with key results"


def test_the_home_shows_several_studies_a_screen(built_site):
    """No thumbnail too small to read: a card is text (its figures are on the post)."""
    page = parse(built_site.site / "index.html")
    assert not page.find("img", **{"class": "card-preview"})


@pytest.mark.parametrize("word", ["ingest", "wrapper"])
def test_reader_text_skips_scripts(word):
    assert reader_text(f"<p>a</p><script>{word}</script><style>{word}</style>") == "a"
