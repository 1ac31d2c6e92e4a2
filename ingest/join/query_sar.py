"""The sar files of query runs (docs/manifest.md, "Query runs": `sar:`): a `queries:` rule may
name, as member templates, the sar reports written beside each run (the DBT3 kit's
`{folder}/{query}.sql_no_{repeat}_sar_u.txt`). Each run gets the mean of every whole-machine
column of its files (sar's `all` rows, or a report with no item column) as `sar_<name>`
(`%iowait` -> `sar_iowait`, `kbmemused` -> `sar_kbmemused`), missing when the input has no
such file; the query-runs table shows them and `query_tables:` may take one as its `column:`.
"""

from __future__ import annotations

from typing import Any

from ingest.derive.tables import column_key
from ingest.join.runs import fill
from ingest.parse import Session
from ingest.parse.member import SeriesBudget, parse_bytes
from ingest.parse.sar import SAMPLE_FIELDS, whole_machine
from ingest.problems import Problem
from ingest.read.archive import Archive
from ingest.read.records import Manifest, Rule


def key_of(column: str) -> str:
    """The run field of a sar column: `sar_` and its key (`%iowait` -> `sar_iowait`)."""
    return "sar_" + column_key(column)


def means(sessions: list[Session]) -> dict[str, tuple[str, float | None]]:
    """{field: (sar's column name, mean)} of the whole-machine sessions of one sar report."""
    out: dict[str, tuple[str, float | None]] = {}
    for s in whole_machine(sessions):
        for name, values in s.series.items():
            if name in SAMPLE_FIELDS:
                continue
            kept = [v for v in values if v is not None]
            mean = round(sum(kept) / len(kept), 4) if kept else None
            out.setdefault(key_of(name), (name, mean))
    return out


class SarFiles:
    """The sar files of one ingest's query runs: each read once, the missing ones counted per
    rule (one warning each), the columns found in the order met."""

    def __init__(self, m: Manifest, budget: SeriesBudget | None = None):
        self.m = m
        self.budget = budget or SeriesBudget()  # the ingest's: sar files count with the others
        # (input, member) -> the means of each column of the file
        self.read: dict[tuple[str, str], dict[str, tuple[str, float | None]]] = {}
        self.missing: dict[int, tuple[int, str]] = {}  # rule line -> (count, first member)
        self.columns: dict[str, str] = {}  # field -> sar's column name
        self.problems: list[Problem] = []
        self.members: set[tuple[str, str]] = set()

    def of_run(
        self, rule: Rule, arc: Archive, names: set[str], fields: dict[str, Any]
    ) -> dict[str, float | None]:
        """{field: mean} of a run's sar files; `fields`: the template's values."""
        found: dict[str, float | None] = {}
        for template in rule.sar:
            member = fill(self.m, rule, template, fields)
            if member not in names:
                count, first = self.missing.get(rule.line, (0, member))
                self.missing[rule.line] = (count + 1, first)
                continue
            if (rule.input, member) not in self.read:
                data = arc.read(member)
                self.budget.take_text(data, f"{arc.name}/{member}")
                parsed = parse_bytes(data, f"{arc.name}/{member}", "sar")
                self.problems.extend(parsed.problems)
                self.members.add((rule.input, member))
                self.read[(rule.input, member)] = means(parsed.sessions)
            for key, (name, mean) in self.read[(rule.input, member)].items():
                self.columns.setdefault(key, name)
                found.setdefault(key, mean)
        return found

    def warnings(self) -> list[Problem]:
        """What was read with problems, and one line per rule whose runs lack sar files."""
        out = list(self.problems)
        for line, (count, first) in self.missing.items():
            out.append(
                Problem(
                    self.m.path,
                    line,
                    f"sar: {count} sar file(s) of query runs not in the input "
                    f"(the first: {first}): their sar columns are missing",
                )
            )
        return out
