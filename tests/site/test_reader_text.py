"""What a reader reads, on the pages around the posts: no word of the project's own machinery
(file paths of its docs and data, "the ingest", "the wrapper", machine summaries; the list is
make build's, publish/prose.py, which checks each post's pages itself), and a home card per
post that says at a glance what the study found, with a number, and whose study it revisits.
One session build (`built_site`), no browser."""

from __future__ import annotations

import re

import pytest
import yaml

from publish.prose import jargon_in, reader_text
from tests.kit.htmlscan import html_pages, parse


def pages(site):
    """Every page a reader opens outside the posts (whose pages make build checks itself,
    publish/prose.py), not the lazy tables' fragments, which a post embeds."""
    return [
        p
        for p in html_pages(site)
        if not p.name.endswith(".table.html") and "posts" not in p.relative_to(site).parts[:1]
    ]


def test_no_page_speaks_the_projects_jargon(built_site):
    """The home, list, term and compare pages (their text is the templates' and the posts'
    titles and summaries, which make build checks too)."""
    found = {}
    for path in pages(built_site.site):
        hits = jargon_in(reader_text(path.read_text(encoding="utf-8")))
        if hits:
            found[str(path.relative_to(built_site.site))] = hits[:3]
    assert len(pages(built_site.site)) > 5 and not found, found


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
