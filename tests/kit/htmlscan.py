"""Small HTML scanning helpers for the site checks (standard library only)."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

# Attributes holding a URL the browser (or a crawler) follows.
URL_ATTRS = {"href", "src", "action", "poster", "data"}
URL_METAS = {"og:image", "og:url", "twitter:image"}


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    text: str = ""


@dataclass
class Page:
    path: Path
    elements: list[Element] = field(default_factory=list)

    def find(self, tag: str, **attrs: str) -> list[Element]:
        return [
            e
            for e in self.elements
            if e.tag == tag and all(e.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items())
        ]

    def meta(self, key: str) -> str | None:
        for e in self.elements:
            if e.tag == "meta" and key in (e.attrs.get("property"), e.attrs.get("name")):
                return e.attrs.get("content")
        return None

    def urls(self) -> list[tuple[str, str]]:
        """(where, url) of every followable URL: link attributes and URL-valued metas."""
        found = []
        for e in self.elements:
            for name in URL_ATTRS & e.attrs.keys():
                found.append((f"<{e.tag} {name}>", e.attrs[name]))
            if e.tag == "meta" and e.attrs.get("property", e.attrs.get("name")) in URL_METAS:
                found.append(
                    (
                        f"<meta {e.attrs.get('property') or e.attrs.get('name')}>",
                        e.attrs.get("content", ""),
                    )
                )
        return found


class _Collector(HTMLParser):
    def __init__(self, page: Page):
        super().__init__(convert_charrefs=True)
        self.page = page
        self.open: list[Element] = []

    def handle_starttag(self, tag, attrs):
        element = Element(tag, {k: (v or "") for k, v in attrs})
        self.page.elements.append(element)
        if tag in (
            "script",
            "a",
            "h1",
            "h2",
            "time",
            "title",
            "dt",
            "li",
            "p",
            "caption",
            "th",
            "td",
        ):
            self.open.append(element)

    def handle_endtag(self, tag):
        for i in range(len(self.open) - 1, -1, -1):
            if self.open[i].tag == tag:
                del self.open[i:]
                break

    def handle_data(self, data):
        for element in self.open:
            element.text += data


def parse(path: Path) -> Page:
    page = Page(path)
    _Collector(page).feed(path.read_text(encoding="utf-8"))
    return page


def html_pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def page_url(site: Path, path: Path, base_url: str) -> str:
    """The public URL of a built file (index.html shown as its directory)."""
    rel = path.relative_to(site).as_posix()
    rel = rel[: -len("index.html")] if rel.endswith("index.html") else rel
    return base_url + rel


def resolve(site: Path, base_url: str, page: str, url: str) -> Path | None:
    """The file a same-site URL reaches, or None when it leaves the base URL."""
    absolute = urljoin(page, url)
    parts, base = urlsplit(absolute), urlsplit(base_url)
    if (parts.scheme, parts.netloc) != (base.scheme, base.netloc) or not parts.path.startswith(
        base.path
    ):
        return None
    rel = parts.path[len(base.path) :]
    target = site / rel
    return target / "index.html" if rel == "" or rel.endswith("/") else target
