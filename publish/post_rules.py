"""The rules of a post's opening and of where its numbers come from, checked by `make build`
(publish/checks.py), each problem at the `file:line` of its index.md or manifest.yaml:

- **key results**: when a post has them, `keyresults` is the first thing of its body, and each
  `keyresult` quotes its number through `value` (the first is the post's headline on the home
  page; their count and links Hugo checks, post/checks.html);
- **byline**: `original:` has a `title` (the byline's link text); the post's `date:` is a day
  that starts with `original.date` (`2018-08-01` for "2018-08": the feed and sitemap print it);
- **sources**: every chart and table says where its numbers come from (`source=`);
- **provenance**: an input's `note` never says that every figure is published (or derived)
  when the page labels some otherwise; an input's origin that dates the original names the
  byline's date, at its precision.
"""

from __future__ import annotations

import re

from publish.post_source import Source, fast_yaml, manifest_line

WRITING = 'docs/studies.md, "Writing a post"'
KEYRESULT = re.compile(r"\{\{<\s*keyresult\s.*?>\}\}(.*?)\{\{<\s*/keyresult\s*>\}\}", re.S)
SOURCE_LABEL = re.compile(r'<span class="source source-([a-z]+)">')
DATE = re.compile(r"\b(?:19|20)\d\d(?:-\d\d(?:-\d\d)?)?\b")


def key_results(source: Source) -> list[str]:
    opening = re.search(r"\{\{<\s*keyresults\b", source.body)
    if not opening:
        return []
    problems = []
    before = re.sub(r"<!--.*?-->", "", source.body[: opening.start()], flags=re.S)
    if before.strip():
        problems.append(
            f"{source.at(opening.start())}: the key results open the post: move "
            "{{< keyresults >}} above the rest of the body, right after the front matter "
            f"(the byline, then the key results; {WRITING})"
        )
    for m in KEYRESULT.finditer(source.body):
        if not re.search(r"\{\{<\s*value\s", m.group(1)):
            problems.append(
                f"{source.at(m.start())}: this key result quotes no number: give its finding's "
                "number through {{< value >}} (the first key result is the post's headline on "
                f"the home page; {WRITING})"
            )
    return problems


def byline(source: Source) -> list[str]:
    original = source.front.get("original")
    if original is None:
        return []
    if not isinstance(original, dict) or not str(original.get("title") or "").strip():
        return [
            f"{source.line_of('original')}: original: has no title: give the title of the "
            f"original the post revisits (the byline's link text; {WRITING})"
        ]
    own, said = source.front.get("date"), original.get("date")
    if own and said and not str(own)[:10].startswith(str(said)):
        return [
            f"{source.line_of('date')}: date: {str(own)[:10]} does not start with "
            f"original.date {str(said)!r}: give the post the original's day (for "
            f'"2018-08", a day of August 2018), or correct original.date ({WRITING})'
        ]
    return []


def sources(figures: list[tuple[str, str, str]]) -> list[tuple[str, str]]:
    """(id, reason) of each chart or table (kind, id, its HTML) whose caption has no source."""
    return [
        (
            fid,
            f"{kind} {fid!r} does not say where its numbers come from: give it "
            f'source="derived", "published", "computed" or "estimate" ({WRITING})',
        )
        for kind, fid, html in figures
        if not SOURCE_LABEL.search(html)
    ]


def provenance(source: Source, html: str) -> list[str]:
    """The inputs' notes and origins (data/<study>/study.yaml, from the manifest) against the
    page's source labels and the byline's date."""
    if source.data is None:
        return []
    inputs = (fast_yaml(source.data / "study.yaml") or {}).get("inputs") or []
    labels = set(SOURCE_LABEL.findall(html))
    original = source.front.get("original")
    day = str(original.get("date") or "") if isinstance(original, dict) else ""
    problems = []
    for i in inputs:
        note, origin = str(i.get("note") or ""), str(i.get("origin") or "")
        for word in ("published", "derived"):
            claim = re.search(
                rf"\bevery (?:figure|table|number)\b[^.;:]*\b(?:is|are|was)\b[^.;:]*\b{word}\b",
                note,
                re.I,
            )
            if claim and labels - {word}:
                problems.append(
                    f"{manifest_line(source, note[:40])}: the note of input {i.get('name')!r} "
                    f"says {claim.group(0)!r}, but the page labels figures "
                    f"{', '.join(sorted(labels - {word}))}: say which figures are printed, "
                    f"which read from the text and which our arithmetic ({WRITING})"
                )
        if day and not origin.startswith(("https://", "http://", "file:")):
            for d in DATE.findall(origin):
                if d != day:
                    problems.append(
                        f"{manifest_line(source, origin[:40])}: the origin of input "
                        f"{i.get('name')!r} dates the original {d}, the byline "
                        f"{day}: give the one date at the precision known ({WRITING})"
                    )
    return problems
