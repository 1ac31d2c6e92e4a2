"""The rules of a post's words, checked by `make build` (publish/checks.py), each problem at the
`file:line` of the post's index.md (or of its manifest.yaml) with what to do:

- **numbers**: no number is typed into the prose: the body (headings too), the `caption=` and
  `title=` of its shortcodes, the front matter's `summary` and `credits`. A figure comes from
  `value`. A number may stand inside a phrase the front matter lists under `names` (names with
  digits: versions, binaries, bug numbers) or `setup_figures` (figures of the setup), and inside
  the names of the study's own runs: its labels' values and display names that hold a letter
  ("mysql-5.7.27", "MySQL 5.7.27"), and the versions in them ("5.7.27", "5.7", "8.0" of
  "mysql-8-0-21"), so "Each server against MySQL 5.7 and 8.0" passes where those are versions
  the runs carry, and a typed throughput does not. A listed phrase the prose never uses fails,
  and so does a setup figure of glue words and a number ("with 3": it would let that number
  through anywhere);
- **reader text**: no word of the project's machinery (JARGON: its docs, "the manifest",
  "ingest", "shortcode" ...) in the text a reader sees of the post's pages, at the line of the
  index.md or manifest.yaml that wrote it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from html import unescape
from pathlib import Path

from publish.post_source import Source, fast_yaml

NUMBER = re.compile(r"\d[\d,.]*\d|\d")
SHOWN_PARAM = re.compile(r'\b(?:caption|title)="([^"]*)"')
VERSION = re.compile(r"(?<![\d.])\d+(?:\.\d+)+")
DASHED_VERSION = re.compile(r"(?<=[A-Za-z][-_])\d+(?:[-_]\d+)+(?![\d])")
NUMBERS_DOC = 'docs/studies.md, "Numbers in prose"'

# Words that say nothing of what a number counts: a listed phrase made only of these and a number
# ("with 3", "below 1") would let that number through anywhere it follows the word.
GLUE = set(
    "with below above at to of and or the from about than over under by more less in on for is a "
    "an between up around".split()
)

# Words of the project's machinery: a reader of a post has no use for them (regexes, matched
# case-insensitively on the visible text of a page).
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
    r"\bbenchlog v?\d+\.\d+",  # the tool's version: study.yaml keeps it, a reader has no use for it
    r"\((?:published-tables|archive)\)",  # an input's kind as the manifest spells it
]


def _blank(text: str) -> str:
    """`text` as spaces, its line breaks kept (so offsets still name their lines)."""
    return re.sub(r"[^\n]", " ", text)


def _shown_params(tag: str) -> str:
    """A shortcode tag blanked but for its `caption=` and `title=` text, which the reader sees."""
    out = list(_blank(tag))
    for p in SHOWN_PARAM.finditer(tag):
        out[p.start(1) : p.end(1)] = tag[p.start(1) : p.end(1)]
    return "".join(out)


def _replace_spans(
    text: str, start: re.Pattern, end: re.Pattern, how: Callable[[str], str] = _blank
) -> str:
    """`text` with each span from a match of `start` to the next match of `end` after it
    replaced by `how(span)`. One pass: a `start` with no `end` after it ends the scan (no
    later one can close either). A lazy `start.*?end` regex rescans the rest of the text from
    every unclosed start: 20,000 `{{<` took 44 s."""
    out, at = [], 0
    while (m := start.search(text, at)) is not None:
        e = end.search(text, m.end())
        if e is None:
            break
        out += [text[at : m.start()], how(text[m.start() : e.end()])]
        at = e.end()
    return "".join(out) + text[at:]


FENCE = re.compile("```")
COMMENT_OPEN, COMMENT_CLOSE = re.compile("<!--"), re.compile("-->")
TAG_OPEN, TAG_CLOSE = re.compile(r"\{\{[<%]"), re.compile(r"[>%]\}\}")
LINK_OPEN, LINK_CLOSE = re.compile(r"\]\("), re.compile(r"\)")


def prose(body: str) -> str:
    """The body's own words at their offsets, the rest blanked: no shortcode tag (the text inside
    a paired one such as `keyresult` stays, and so do `caption=` and `title=`), no code, no link
    target, no list number, no HTML comment. Linear in the body's length."""
    body = _replace_spans(body, FENCE, FENCE)
    body = _replace_spans(body, COMMENT_OPEN, COMMENT_CLOSE)
    body = _replace_spans(body, TAG_OPEN, TAG_CLOSE, _shown_params)
    body = re.sub(r"`[^`\n]*`", lambda m: _blank(m.group(0)), body)
    body = _replace_spans(body, LINK_OPEN, LINK_CLOSE, lambda t: "]" + _blank(t[1:]))
    return re.sub(r"^[ \t]*\d+\.[ \t]", lambda m: _blank(m.group(0)), body, flags=re.M)


@functools.lru_cache(maxsize=4096)
def _phrase(text: str) -> re.Pattern:
    """A listed phrase wherever it stands whole (its spaces any whitespace: prose wraps)."""
    words = r"\s+".join(re.escape(w) for w in text.split())
    return re.compile(r"(?<![\w.])" + words + r"(?!\w|\.\d)")


def _front_pieces(source: Source) -> list[tuple[str, tuple]]:
    """The front matter a reader sees beside the post, with its key: the summary and the credits'
    text and link text."""
    front = source.front
    pieces = [(str(front.get("summary") or ""), ("summary",))]
    for i, c in enumerate(front.get("credits") or []):
        if isinstance(c, dict):
            pieces += [(str(c.get(k) or ""), ("credits", i, k)) for k in ("text", "link")]
    return pieces


def run_names(data: Path | None) -> tuple[list[str], set[str]]:
    """(names with digits, versions) of the study's own runs: its labels' values and display
    names (data/<study>/study.yaml `display`, runs.yaml, a query study's summary table)."""
    if data is None:
        return [], set()
    study = fast_yaml(data / "study.yaml") or {}
    texts: set[str] = set()
    for values in (study.get("display") or {}).values():
        for value, shown in (values or {}).items():
            texts |= {str(value), str(shown)}
    runs_file = data / "runs.yaml"
    if runs_file.is_file():
        for run in (fast_yaml(runs_file) or {}).get("runs") or []:
            texts |= {v for v in (run.get("labels") or {}).values() if isinstance(v, str)}
    query_labels = (study.get("queries") or {}).get("labels") or []
    summary = data / "tables" / "query-summary.yaml"
    if query_labels and summary.is_file():
        for row in (fast_yaml(summary) or {}).get("rows") or []:
            texts |= {row[k] for k in query_labels if isinstance(row.get(k), str)}
    names = sorted(
        (t for t in texts if re.search(r"[A-Za-z]", t) and re.search(r"\d", t)),
        key=len,
        reverse=True,
    )
    versions: set[str] = set()
    for t in texts:
        found = VERSION.findall(t)
        if re.search(r"[A-Za-z]", t):
            found += [re.sub(r"[-_]", ".", v) for v in DASHED_VERSION.findall(t)]
        for v in found:
            parts = v.split(".")
            versions |= {".".join(parts[:n]) for n in range(2, len(parts) + 1)}
    return names, versions


def typed_numbers(source: Source) -> list[str]:
    """Each number typed into the post's prose, each listed phrase it never uses and each
    wildcard setup figure: one `file:line: reason` each."""
    front = source.front
    pieces = [(prose(source.body), None)] + _front_pieces(source)
    texts = [t for t, _ in pieces]
    problems = []
    listed = [
        (str(p), (k, i))
        for k in ("setup_figures", "names")
        for i, p in enumerate(front.get(k) or [])
    ]
    for phrase, key in sorted(listed, key=lambda x: len(x[0]), reverse=True):
        used, first = 0, phrase.split()[0] if phrase.split() else phrase
        for n, text in enumerate(texts):
            if first in text:  # a plain search first: most phrases are not in most texts
                texts[n], hits = _phrase(phrase).subn(lambda m: _blank(m.group(0)), text)
                used += hits
        if not used:
            problems.append(
                f"{source.line_of(*key)}: {key[0]}: {phrase!r} is not in the prose: remove it "
                f"(a listed phrase lets its numbers through anywhere; {NUMBERS_DOC})"
            )
    problems += [
        f"{source.line_of('setup_figures', i)}: setup_figures: {p!r} names no unit or thing, "
        "only glue words and a number, so it would let that number through anywhere: name what "
        "it counts, write the number as a word, or quote it with {{< value >}} "
        f"({NUMBERS_DOC})"
        for i, p in enumerate(front.get("setup_figures") or [])
        if _wildcard(str(p))
    ]
    # the runs' names only when a number is left (runs.yaml of a thousand runs is read in a second)
    names, versions = run_names(source.data) if any(map(NUMBER.search, texts)) else ([], set())
    for name in names:
        texts = [_phrase(name).sub(lambda m: _blank(m.group(0)), t) for t in texts]
    for (_, key), text in zip(pieces, texts):
        for m in NUMBER.finditer(text):
            if m.group() in versions:
                continue
            where = source.at(m.start()) if key is None else source.line_of(*key)
            context = re.sub(r"\s+", " ", text[max(0, m.start() - 40) : m.end() + 20]).strip()
            problems.append(
                f"{where}: {m.group()!r} is typed into the prose (...{context}...): quote it "
                "with {{< value >}} from a table, or list the phrase it stands in under names: "
                f"(a name with digits) or setup_figures: (a figure of the setup) ({NUMBERS_DOC})"
            )
    return problems


def _wildcard(phrase: str) -> bool:
    """A listed setup figure that names no unit or thing, only glue words and numbers (a bare
    year such as 2017 is a date, allowed)."""
    if re.fullmatch(r"(19|20)\d\d", phrase):
        return False
    words = [w.lower() for w in re.findall(r"[A-Za-z%$]+", phrase)]
    return not [w for w in words if w not in GLUE]


HIDDEN = re.compile(r"<(script|style|template)\b.*?</\1\s*>|<!--.*?-->", re.S | re.I)
TAG = re.compile(r"<[^>]*>")


def reader_text(html: str) -> str:
    """The visible text of an HTML page (or fragment), whitespace collapsed: no script, style,
    template or comment (by regex: an HTML parser takes ten times as long on a large post)."""
    return " ".join(unescape(TAG.sub(" ", HIDDEN.sub(" ", html))).split())


# the patterns that start at a word boundary tested after one `\b` (the same matches, in the
# same order: none of the others starts with a word character); a third of the time of testing
# each at every character of a page's text
ANY_JARGON = re.compile(
    "|".join(
        [
            r"\b(?:" + "|".join(f"(?:{p[2:]})" for p in JARGON if p.startswith(r"\b")) + ")",
            *(f"(?:{p})" for p in JARGON if not p.startswith(r"\b")),
        ]
    ),
    re.I,
)


def jargon_in(text: str) -> list[tuple[str, str]]:
    """(word, its context) of each word of the project's machinery in `text`."""
    return [
        (m.group(), text[max(0, m.start() - 60) : m.end() + 60]) for m in ANY_JARGON.finditer(text)
    ]


def jargon(source: Source | None, pages: list[Path]) -> list[str]:
    """Each word of the project's machinery the post's pages show, at the line that wrote it:
    the post's index.md, else its manifest.yaml (titles, labels, notes), else the page."""
    found = []
    for key in ("title", "summary") if source else ():  # shown on the home page and feeds too
        hits = jargon_in(str(source.front.get(key) or ""))
        found += [(source.line_of(key), word, context) for word, context in hits]
    for page in pages:
        hits = jargon_in(reader_text(page.read_text(encoding="utf-8")))
        found += [(_written_at(source, w) if source else str(page), w, c) for w, c in hits]
    problems, seen = [], set()
    for where, word, context in found:
        if where not in seen:  # one problem a line: "the ingest" is "ingest" too
            seen.add(where)
            problems.append(_jargon_problem(where, word, context))
    return problems


def _jargon_problem(where: str, word: str, context: str) -> str:
    return (
        f"{where}: {word!r} is the project's word, not the reader's (...{context}...): say it "
        'as a reader of the original would: no file of the project, no "ingest", "manifest" '
        'or "shortcode" (docs/studies.md, "Reader text")'
    )


def _written_at(source: Source, word: str) -> str:
    pattern = re.compile(r"\s+".join(map(re.escape, word.split())), re.I)
    for path, text in _readable(source):
        m = pattern.search(text)
        if m:
            return f"{path}:{text.count(chr(10), 0, m.start()) + 1}"
    return f"{source.path} (the page's text, from data/{source.study}/)"


def _readable(source: Source):
    """(file, its text with what never reaches a reader blanked, lines kept): the post (its front
    matter's comments and its body's HTML comments blanked), then its manifest (comments
    blanked)."""
    comment = re.compile(r"^[ \t]*#.*$|(?<=\s)#.*$", re.M)
    text = source.path.read_text(encoding="utf-8")
    head = "\n".join(text.split("\n")[: source.body_line - 1]) + "\n"
    body = re.sub(r"<!--.*?-->", lambda m: _blank(m.group(0)), text[len(head) :], flags=re.S)
    yield source.path, comment.sub(lambda m: _blank(m.group(0)), head) + body
    if source.manifest is not None:
        manifest = source.manifest.read_text(encoding="utf-8")
        yield source.manifest, comment.sub(lambda m: _blank(m.group(0)), manifest)
