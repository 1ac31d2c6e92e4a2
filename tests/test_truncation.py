"""Every golden fixture of every format, cut at every line boundary and in the middle of every
line: the parse gives complete records only (a prefix of the full file's records) plus at most
one `file:line: reason` problem, or a ParseError; never a partial record."""

import re

import pytest
import yaml
from golden import FIXTURES, golden_cases

from ingest.parsers import ParseError, by_name

# Parsers that still read a cut last line as a record (found by this test; owners: studies).
# strict: the mark must go when the parser is fixed (e.g. by reading lines through
# ingest.parsers._text.Lines, which sets an unterminated last line aside as one problem).
CUT_LINE_READ_AS_RECORD = set()
ALL_CASES = [
    pytest.param(
        p,
        id=f"{d.name}/{p.name}",
        marks=[pytest.mark.xfail(strict=True, reason="parser reads a cut last line as a record")]
        if d.name in CUT_LINE_READ_AS_RECORD
        else [],
    )
    for d in sorted(FIXTURES.iterdir())
    if d.is_dir()
    for p in golden_cases(d.name)
]


def cuts(text):
    """(kind, prefix) for each line end and each line's middle."""
    at = 0
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\n")
        if len(body.strip()) > 1:
            indent = len(body) - len(body.lstrip())
            yield "mid-line", text[: at + indent + (len(body) - indent) // 2]
        at += len(line)
        if at < len(text):
            yield "line", text[:at]


def assert_prefix(part, full, where):
    """`part` (list or dict of columns/records) holds only complete leading records of `full`."""
    if isinstance(full, dict):
        assert set(part) <= set(full), where
        for key in part:
            n = len(part[key])
            assert part[key] == full[key][:n], f"{where}: {key}"
    else:
        assert part == full[: len(part)], where


@pytest.mark.parametrize("path", ALL_CASES)
def test_truncated_fixture(path):
    fmt = yaml.safe_load(path.with_suffix(".yaml").read_text())["format"]
    parser = by_name(fmt)
    text = path.read_text()
    full = parser.parse(text, path.name)
    for kind, prefix in cuts(text):
        check_cut(
            parser, prefix, path.name, full, f"{path.name} cut after {len(prefix)} chars ({kind})"
        )


def check_cut(parser, prefix, name, full, where):
    """Parse `prefix` of a file whose full parse is `full`: a ParseError, or complete records only."""
    try:
        part = parser.parse(prefix, name)
    except ParseError as err:
        assert re.match(rf"^{re.escape(name)}(:\d+)?: \S", str(err)), (
            where
        )  # no line when none applies
        return
    new = [  # a file may have problems of its own; the warning naming the skipped lines names
        p  # those of the part read (a subset of the whole file's)
        for p in map(str, part.problems)
        if p not in list(map(str, full.problems)) and " skipped, not read as " not in p
    ]
    assert len(new) <= 1, f"{where}: {part.problems}"
    assert all(re.match(rf"^{re.escape(name)}:\d+: \S", str(p)) for p in part.problems), where
    if prefix.rsplit("\n", 1)[-1].strip():
        assert part.problems, f"{where}: a cut line must be reported"
    assert len(part.sessions) <= len(full.sessions), where
    for i, (s, f) in enumerate(zip(part.sessions, full.sessions)):
        assert_prefix(s.series, f.series, f"{where}: session {i}")
        assert s.summary in ({}, None, f.summary), f"{where}: partial summary {s.summary}"
        assert len({len(v) for v in s.series.values()}) <= 1, f"{where}: ragged columns"
    full_tables = {(t.name, t.line): t for t in full.tables}
    for t in part.tables:
        assert (t.name, t.line) in full_tables, (
            f"{where}: table {t.name} line {t.line} not in the full parse"
        )
        assert_prefix(t.rows, full_tables[t.name, t.line].rows, f"{where}: table {t.name}")
    whole = prefix[: prefix.rfind("\n") + 1]  # the prefix's complete lines
    try:
        earlier = part.settings if whole == prefix else parser.parse(whole, name).settings
    except ParseError:
        earlier = {}
    for key, value in part.settings.items():
        # a key set again further on (my.cnf: the last one wins) may hold the value of the
        # prefix's complete lines, never one read from the cut line
        assert key in full.settings and value in (full.settings[key], earlier.get(key)), (
            f"{where}: setting {key}"
        )
