"""Golden-file helpers for parser tests: a `Parsed` as plain data, compared to `<case>.yaml`."""

from __future__ import annotations

from pathlib import Path

import yaml

from ingest.parsers import by_name

ROOT = Path(__file__).resolve().parent.parent
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
    expected = yaml.safe_load(path.with_suffix(".yaml").read_text())
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
