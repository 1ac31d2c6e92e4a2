"""The rules of a built post that no template can check (`make build`, last step, after the charts'
SVG are drawn into the pages): `python -m publish.checks SITE [CONTENT ...]`.

- **Page budget**: a post's HTML without its inline chart drawings (SVG) is under POST_BUDGET
  bytes and ELEMENT_BUDGET elements, and with them under WHOLE_BUDGET and WHOLE_ELEMENT_BUDGET
  (docs/publishing.md). Long tables belong on pages of their own (`lazy="true"`); the time
  series lists hundreds of runs on a page of its own by itself.
- **Unique ids**: no id twice on a page (a chart id `x` beside a table `x-data`, whose data
  table is `x-data` too, passes every template and fails the HTML checker).

Each problem is one line `file:line: reason`, naming the post's index.md (the line of the
shortcode or heading that gave the id, when found), and the exit code is 1.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

POST_BUDGET = 150_000  # bytes of a post's HTML without its inline SVG
ELEMENT_BUDGET = 3_000  # elements of it
WHOLE_BUDGET = 300_000  # bytes with the drawings
WHOLE_ELEMENT_BUDGET = 4_000
SVG = re.compile(r"<svg\b.*?</svg>", re.S)
ID = re.compile(r"<[a-zA-Z][^>]*?\sid=\"([^\"]+)\"")
TABLE = re.compile(
    r'<figure class="table" id="([^"]+)">(?:(?!</figure>).)*?<tbody>(.*?)</tbody>', re.S
)


def elements(html: str) -> int:
    """Elements in the page as parsed: start tags (comments and doctype are not elements)."""
    return len(re.findall(r"<[a-zA-Z]", html))


def budget(html: str) -> list[str]:
    """What is over the page budget, with what weighs most."""
    bare = SVG.sub("", html)
    out = []
    for what, size, limit in (
        ("bytes", len(html.encode()), WHOLE_BUDGET),
        ("elements", elements(html), WHOLE_ELEMENT_BUDGET),
        ("bytes without the charts' drawings", len(bare.encode()), POST_BUDGET),
        ("elements without the charts' drawings", elements(bare), ELEMENT_BUDGET),
    ):
        if size >= limit:
            out.append(
                f"the post is {size:,} {what}, over its budget of {limit:,}{_heaviest(html)}"
            )
    return out


def _heaviest(html: str) -> str:
    """The tables that weigh most, and the advice that goes with them."""
    tables = sorted(((len(body), tid) for tid, body in TABLE.findall(html)), reverse=True)[:3]
    if not tables:
        return ""
    named = ", ".join(f"{tid} ({size:,} bytes)" for size, tid in tables)
    return f'; largest tables: {named}: give long ones lazy="true" (rows on a page of their own)'


def duplicate_ids(html: str) -> list[str]:
    seen: dict[str, int] = {}
    for i in ID.findall(html):
        seen[i] = seen.get(i, 0) + 1
    return sorted(i for i, n in seen.items() if n > 1)


def where(source: Path | None, ident: str) -> str:
    """`file:line` of the shortcode (id="...") or heading that gives `ident`, else the file."""
    if source is None:
        return "?"
    try:
        lines = source.read_text(encoding="utf-8").splitlines()
    except OSError:
        return str(source)
    stems = [ident] + [
        ident[: -len(s)] for s in ("-data", "-spec", "-view", "-table") if ident.endswith(s)
    ]
    for stem in stems:
        for n, line in enumerate(lines, 1):
            heading = line.startswith("#") and _anchor(line.lstrip("#")) == stem
            if f'id="{stem}"' in line or heading:
                return f"{source}:{n}"
    return str(source)


def _anchor(text: str) -> str:
    """Hugo's (goldmark) heading anchor of a heading's text, for the common case."""
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def check(site: Path, contents: list[Path]) -> list[str]:
    """Every problem of the posts of `site`, one `file:line: reason` each."""
    problems = []
    for page in sorted(site.glob("posts/*/index.html")):
        study = page.parent.name
        source = next(
            (c / study / "index.md" for c in contents if (c / study / "index.md").is_file()), None
        )
        html = page.read_text(encoding="utf-8")
        for reason in budget(html):
            problems.append(f"{source or page}: {reason}")
        for ident in duplicate_ids(html):
            problems.append(
                f"{where(source, ident)}: id {ident!r} appears more than once in {page}: "
                "rename one (a chart's or table's id, or a heading)"
            )
    return problems


def main(argv: list[str]) -> int:
    if not argv or argv[0].startswith("-"):
        print("usage: python -m publish.checks SITE [CONTENT ...]", file=sys.stderr)
        return 2
    problems = check(Path(argv[0]), [Path(c) for c in argv[1:]] or [Path("content/posts")])
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
