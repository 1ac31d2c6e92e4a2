"""Helpers of the parser tests: a `Parsed` as plain data, compared to a golden `<case>.yaml`;
real archive members read in place; a parse of a file cut short checked against the full one."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from ingest.parse import by_name
from ingest.problems import Problem
from tests.kit import fastyaml

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
SHARED = ROOT.parent / "shared"


def parsed_as_data(parsed) -> dict:
    """The parts of a `Parsed` a golden file pins down (sessions, tables, settings, problems)."""
    data = {"format": parsed.format}
    if parsed.sessions:
        data["sessions"] = [
            {
                "line": s.line,
                "metric": s.metric,
                "complete": s.complete,
                "meta": s.meta,
                "summary": s.summary,
                "series": s.series,
            }
            for s in parsed.sessions
        ]
    if parsed.tables:
        data["tables"] = [
            {
                "name": t.name,
                "line": t.line,
                "columns": t.columns,
                "rows": t.rows,
                **({"notes": t.notes} if t.notes else {}),
                **({"units": t.units} if t.units else {}),
                **({"caption": t.caption} if t.caption else {}),
            }
            for t in parsed.tables
        ]
    if parsed.settings:
        data["settings"] = parsed.settings
    if parsed.problems:
        data["problems"] = [str(p) for p in parsed.problems]
    return data


def golden_cases(fmt: str) -> list[Path]:
    """Input fixtures under tests/fixtures/<fmt>/ that have a `<case>.yaml` golden beside them."""
    return sorted(
        p
        for p in (FIXTURES / fmt).iterdir()
        if p.suffix != ".yaml" and p.with_suffix(".yaml").exists()
    )


def check_golden(path: Path) -> None:
    """Parse `path` with the format its golden `<case>.yaml` names; compare the whole result."""
    expected = fastyaml.load(path.with_suffix(".yaml").read_text())
    parsed = by_name(expected["format"]).parse(path.read_text(), path.name)
    assert parsed_as_data(parsed) == expected


def write_golden(path: Path, fmt: str) -> None:
    """Write `<case>.yaml` from the parser's output: a draft to check by hand, line by line."""
    parsed = by_name(fmt).parse(path.read_text(), path.name)
    text = yaml.safe_dump(
        parsed_as_data(parsed), sort_keys=False, default_flow_style=None, width=110
    )
    path.with_suffix(".yaml").write_text(text)


def archive_text(archive: str, member: str) -> str:
    """Text of one member of a real archive in ../shared/archives, read in place."""
    import tarfile

    with tarfile.open(SHARED / "archives" / archive) as tar:
        return tar.extractfile(member).read().decode()


def assert_prefix(part, full, where):
    """`part` (list or dict of columns/records) holds only complete leading records of `full`."""
    if isinstance(full, dict):
        assert set(part) <= set(full), where
        for key in part:
            n = len(part[key])
            assert part[key] == full[key][:n], f"{where}: {key}"
    else:
        assert part == full[: len(part)], where


def check_cut(parser, prefix, name, full, where):
    """Parse `prefix` of a file whose full parse is `full`: a Problem, or complete records only."""
    try:
        part = parser.parse(prefix, name)
    except Problem as err:
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
    except Problem:
        earlier = {}
    for key, value in part.settings.items():
        # a key set again further on (my.cnf: the last one wins) may hold the value of the
        # prefix's complete lines, never one read from the cut line
        assert key in full.settings and value in (full.settings[key], earlier.get(key)), (
            f"{where}: setting {key}"
        )
