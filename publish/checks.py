"""The rules of a post that no template can check (`make build`, last step, after the charts'
SVG are drawn into the pages): `python -m publish.checks SITE [CONTENT ...]`. Each problem is
one line `file:line: reason` naming the post's index.md (or its manifest.yaml) at the line that
gave it, with what to do, and the exit code is 1.

- **page budget** (publish/budget.py): a post's HTML within its bytes and elements, with and
  without its charts' drawings; over it, what fills the page, each chart and table at its
  shortcode's line with the fix that fits it;
- **unique ids**: no id twice on a page (a chart id `x` beside a table `x-data`, whose data
  table is `x-data` too, passes every template and fails the HTML checker);
- **numbers in prose** and **reader text** (publish/prose.py);
- **key results**, **byline**, **sources** and **provenance** (publish/post_rules.py).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from publish import post_rules, post_source, prose
from publish.budget import figures, report

ID = re.compile(r"<[a-zA-Z][^>]*?\sid=\"([^\"]+)\"")


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


def check(site: Path, contents: list[Path], data_dirs: list[Path] | None = None) -> list[str]:
    """Every problem of the posts of `site`, one `file:line: reason` each (`contents`: where
    their index.md are; `data_dirs`: where their data/<study>/ are, the last one first)."""
    problems = []
    for page in sorted(site.glob("posts/*/index.html")):
        path = next(
            (
                c / page.parent.name / "index.md"
                for c in contents
                if (c / page.parent.name / "index.md").is_file()
            ),
            None,
        )
        problems += check_post(page, path, data_dirs or [])
    return problems


def check_post(page: Path, path: Path | None, data_dirs: list[Path]) -> list[str]:
    """The problems of one built post (`page`) whose index.md is `path` (None: not found)."""
    html = page.read_text(encoding="utf-8")
    unreadable: list[str] = []
    try:
        source = post_source.read(path, data_dirs) if path else None
    except post_source.Unreadable as e:  # the other checks still run, on the page alone
        source, unreadable = None, [str(e)]

    def at(ident: str | None) -> str:
        return where(path, ident) if path and ident else str(path or page)

    problems = unreadable + [f"{at(ident)}: {text}" for ident, text in report(html)]
    for ident in duplicate_ids(html):
        problems.append(
            f"{at(ident)}: id {ident!r} appears more than once in {page}: "
            "rename one (a chart's or table's id, or a heading)"
        )
    problems += [f"{at(i)}: {text}" for i, text in post_rules.sources(figures(html))]
    pages = [page, *sorted(p for p in page.parent.glob("*.html") if p != page)]
    problems += prose.jargon(source, pages)
    if source is not None:
        problems += prose.typed_numbers(source)
        problems += post_rules.key_results(source)
        problems += post_rules.byline(source)
        problems += post_rules.provenance(source, html)
    return problems


def main(argv: list[str]) -> int:
    if not argv or argv[0].startswith("-"):
        print("usage: python -m publish.checks SITE [CONTENT ...]", file=sys.stderr)
        return 2
    contents = [Path(c) for c in argv[1:]] or [Path("content/posts")]
    problems = check(Path(argv[0]), contents, [Path("data")])
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
