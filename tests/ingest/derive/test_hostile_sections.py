"""Hostile manifest sections of query studies, refused at load with the manifest line:
duplicate `queries:`, `digits:` a page cannot format, a ratio scale that overflows."""

from __future__ import annotations

import pytest

from ingest.problems import Problem
from ingest.read.manifest import load
from tests.kit.dbt3_gen import MANIFEST


@pytest.mark.parametrize(
    "extra, line, reason",
    [
        ("queries: ['1', '1']", 15, "queries: '1' is listed twice"),
        ("queries: ['1', 1]", 15, "queries: '1' is listed twice"),
        ("queries: ['2', \"\\u202e1\"]", 15, "holds U+202E"),
        ("queries: ['" + "9" * 4301 + "']", 15, "is not a query name"),
        ("digits: 100", 15, "digits: 100 is not 0 to 15"),
        ("ratio: {base: {config: a}, digits: -1}", 15, "digits: -1 is not 0 to 15"),
        ("ratio: {base: {config: a}, scale: 1.0e+308}", 15, "scale: 1e+308 is not above 0"),
        ("ratio: {base: {config: a}, scale: .nan}", 15, "not a finite number"),
        ("ratio: {base: {config: a}, scale: 0}", 15, "scale: 0 is not above 0"),
    ],
)
def test_query_table_values_are_refused_at_load(tmp_path, extra, line, reason):
    text = MANIFEST.format(sha="a" * 64, extra=f"query_tables:\n  - id: t\n    {extra}\n")
    (tmp_path / "manifest.yaml").write_text(text)
    with pytest.raises(Problem) as err:
        load(tmp_path / "manifest.yaml")
    assert err.value.line == line and reason in err.value.reason, str(err.value)


def test_query_table_listing_each_query_once_loads(tmp_path):
    extra = "query_tables:\n  - id: t\n    queries: ['1', 2, 7-opt]\n    digits: 15\n"
    (tmp_path / "manifest.yaml").write_text(MANIFEST.format(sha="a" * 64, extra=extra))
    assert load(tmp_path / "manifest.yaml").query_tables[0].queries == ["1", "2", "7-opt"]
