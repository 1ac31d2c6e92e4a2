"""A post's page budget (`make build`'s checks step, publish/checks.py) and, when the page is over
it, what fills it: each chart and table of the page measured (bytes and elements, its drawing,
its spec, its data table, its list of run files), the largest first, each with the fix that
fits what makes it large, at the line of its shortcode.

The budget: a post's HTML under WHOLE_BUDGET bytes and WHOLE_ELEMENT_BUDGET elements, and without
its charts' inline drawings (SVG) under POST_BUDGET and ELEMENT_BUDGET (docs/publishing.md)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

POST_BUDGET = 150_000  # bytes of a post's HTML without its inline SVG
ELEMENT_BUDGET = 3_000  # elements of it
WHOLE_BUDGET = 300_000  # bytes with the drawings
WHOLE_ELEMENT_BUDGET = 4_000
SVG = re.compile(r"<svg\b.*?</svg>", re.S)
FIGURE = re.compile(r'<figure class="(chart|table)" id="([^"]+)"(?: data-kind="([a-z]+)")?')
FIGURE_TAG = re.compile(r"<figure\b|</figure>")
MANY = 40  # more rows or runs than this in the page: the advice moves them out of it
SHOWN = 4  # figures named at most when a post is over its budget


def elements(html: str) -> int:
    """Elements in the page as parsed: start tags (comments and doctype are not elements)."""
    return len(re.findall(r"<[a-zA-Z]", html))


def figures(html: str) -> list[tuple[str, str, str]]:
    """(kind, id, HTML) of each chart and table of the page, outermost only ("timeseries",
    "metrics", ... for a chart; "table" for a table)."""
    out, end = [], 0
    for m in FIGURE.finditer(html):
        if m.start() < end:
            continue  # inside the figure before
        depth, end = 0, len(html)
        for tag in FIGURE_TAG.finditer(html, m.start()):
            depth += 1 if tag.group() == "<figure" else -1
            if depth == 0:
                end = tag.end()
                break
        out.append((m.group(3) or m.group(1), m.group(2), html[m.start() : end]))
    return out


@dataclass
class Part:
    """What one chart or table puts into the page."""

    kind: str
    ident: str | None  # None: the page around the figures
    size: int
    count: int
    drawing: int = 0  # bytes of its SVG
    drawn: int = 0  # elements of its SVG
    spec: int = 0  # bytes of its JSON spec
    runs: int = 0  # runs its spec lists
    rows: int = 0  # rows of its table (a chart's data table)
    files: int = 0  # run files listed
    lazy: bool = False

    def named(self) -> str:
        if self.ident is None:
            return "the page around the charts and tables (header, prose, key results, footer)"
        what = "table" if self.kind == "table" else f"chart {self.kind}"
        many = (
            f" ({self.runs:,} runs)" if self.runs else f" ({self.rows:,} rows)" if self.rows else ""
        )
        return f"{what} `{self.ident}`{many}"

    def inside(self) -> str:
        """Where its bytes and elements are (each part holding a tenth of them or more)."""
        shown = []
        if self.spec * 10 >= self.size:
            shown.append(f"its spec {kb(self.spec)}")
        if self.drawing * 10 >= self.size or self.drawn * 10 >= self.count:
            shown.append(f"its drawing {kb(self.drawing)} and {self.drawn:,} elements")
        if self.rows > MANY and self.kind != "table":
            shown.append(f"its data table {self.rows:,} rows")
        if self.files > MANY:
            shown.append(f"its list of {self.files:,} files")
        return f" ({', '.join(shown)})" if shown else ""

    def advice(self) -> str:
        if self.ident is None:
            return "shorten the prose, or split the study into posts"
        if self.runs > MANY:
            return (
                f"it puts each of its {self.runs:,} runs into the page: give it runs= (a "
                "pattern or a list) with the runs it compares; every run stays on the compare "
                "page and in the runs table"
            )
        if self.kind == "table" and self.rows > MANY and not self.lazy:
            return 'give it lazy="true" (its rows on a page of their own, fetched when opened)'
        if self.drawn > self.count / 2:
            return "its drawing has a mark per value: chart fewer rows (where=, a smaller table)"
        if self.rows > MANY:
            return "its data table lists every row: chart fewer rows (where=, a smaller table)"
        return "it is large for what it shows: chart or list fewer rows (where=)"


def kb(size: int) -> str:
    return f"{size / 1000:,.0f} KB" if size >= 1000 else f"{size:,} bytes"


def measure(kind: str, ident: str, html: str) -> Part:
    """A figure's bytes and elements and what holds them, read from its HTML as the templates
    write it (chart-parts/frame.html, table/render.html)."""
    drawings = SVG.findall(html)
    part = Part(kind, ident, len(html.encode()), elements(html))
    part.drawing = sum(len(d.encode()) for d in drawings)
    part.drawn = sum(elements(d) for d in drawings)
    spec = re.search(
        rf'<script type="application/json" id="{re.escape(ident)}-spec">(.*?)</script>', html, re.S
    )
    if spec:
        part.spec = len(spec.group(1).encode())
        try:
            runs = json.loads(spec.group(1)).get("runs")
        except (ValueError, AttributeError):
            runs = None
        part.runs = len(runs) if isinstance(runs, list) else 0
    part.rows = sum(body.count("<tr") for body in re.findall(r"<tbody>(.*?)</tbody>", html, re.S))
    lazy = re.search(r'<details class="lazy-table">.*?\((\d[\d,]*) rows?\)', html, re.S)
    if lazy:
        part.lazy, part.rows = True, int(lazy.group(1).replace(",", ""))
    part.files = sum(
        ul.count("<li") for ul in re.findall(r'<ul class="run-files">(.*?)</ul>', html, re.S)
    )
    return part


def parts(html: str) -> list[Part]:
    """What fills the page: each chart and table, and the page around them."""
    found = [measure(kind, ident, body) for kind, ident, body in figures(html)]
    rest = Part(
        "page",
        None,
        len(html.encode()) - sum(p.size for p in found),
        elements(html) - sum(p.count for p in found),
    )
    return [*found, rest]


def over(html: str) -> list[str]:
    """Each limit the page passes: "1,125,267 bytes (budget 300,000)"."""
    bare = SVG.sub("", html)
    out = []
    for what, size, limit in (
        ("bytes", len(html.encode()), WHOLE_BUDGET),
        ("elements", elements(html), WHOLE_ELEMENT_BUDGET),
        ("bytes without the charts' drawings", len(bare.encode()), POST_BUDGET),
        ("elements without the charts' drawings", elements(bare), ELEMENT_BUDGET),
    ):
        if size >= limit:
            out.append(f"{size:,} {what} (budget {limit:,})")
    return out


def report(html: str) -> list[tuple[str | None, str]]:
    """Nothing when the page is within its budget; else what it passes, then what fills it,
    largest first: (the figure's id, or None for the page, its line): the figure, its bytes
    and elements, where they are and what to do."""
    passed = over(html)
    if not passed:
        return []
    by_count = all("elements" in p for p in passed)
    ranked = sorted(parts(html), key=lambda p: p.count if by_count else p.size, reverse=True)
    total = sum(p.count if by_count else p.size for p in ranked)
    named = [p for p in ranked[:SHOWN] if (p.count if by_count else p.size) >= total / 20]
    lines: list[tuple[str | None, str]] = [
        (
            None,
            f"the post is over its page budget: {'; '.join(passed)}; what fills it, largest first:",
        )
    ]
    for p in named or ranked[:1]:
        lines.append(
            (p.ident, f"{p.named()}: {kb(p.size)}, {p.count:,} elements{p.inside()}: {p.advice()}")
        )
    return lines


def budget(html: str) -> list[str]:
    """The lines of `report` (nothing when the page is within its budget)."""
    return [text for _, text in report(html)]
