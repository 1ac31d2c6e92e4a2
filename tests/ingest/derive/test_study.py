"""The walk over the table sources (ingest/derive/study.py `SOURCES`): one interface,
`build(ctx)`, in a fixed order; a study module's table replaces a default of its id but not a
declared table (an error at the declaration's line); a source's warning reaches the report."""

from __future__ import annotations

import sys

import pytest
import yaml

from ingest.derive import (
    counters,
    declared,
    defaults,
    query_defaults,
    reproduction,
    study,
    versions,
)
from ingest.derive.study import SOURCES, Role
from ingest.pipeline import ingest
from ingest.problems import Problem
from tests.kit.study_kit import make_declared

ONE = "  - {id: one, where: {published: true}, rows: [engine, iops], value: {key: v, label: V, stat: mean}}\n"
COLUMNS = [{"key": "k", "label": "K", "kind": "label"}]


def test_the_sources_in_their_order_and_roles():
    assert [(getattr(s, "__name__", ""), r) for s, r in SOURCES] == [
        ("ingest.derive.declared", Role.DECLARED),
        ("ingest.derive.query_tables", Role.DECLARED),
        ("ingest.derive.file_tables", Role.DECLARED),
        ("StudyModule", Role.MODULE),
        ("ingest.derive.defaults", Role.DEFAULT),
        ("ingest.derive.query_defaults", Role.DEFAULT),
        ("ingest.derive.versions", Role.ADDED),
        ("ingest.derive.counters", Role.ADDED),
        ("ingest.derive.reproduction", Role.ADDED),
    ]
    for source in (
        declared,
        defaults,
        query_defaults,
        versions,
        counters,
        reproduction,
        study.StudyModule,
    ):
        assert list(source.build.__annotations__) == ["ctx", "return"]


def _with_module(tmp_path, monkeypatch, tables):
    """The study of make_declared with a study module whose build(ctx) gives `tables(ctx)`."""
    man = make_declared(tmp_path, ONE, extra="views: walked\n")
    fake = type(sys)("ingest.derive.studies.walked")
    fake.build = tables
    monkeypatch.setitem(sys.modules, "ingest.derive.studies.walked", fake)
    return man


def _ingest(tmp_path, man):
    got = ingest(man, tmp_path / "archives", tmp_path / "studies", tmp_path / "data")
    doc = yaml.safe_load((tmp_path / "data" / "d" / "study.yaml").read_text())
    return got, doc


def test_a_module_table_replaces_the_default_of_its_id_and_warns_one_way(tmp_path, monkeypatch):
    def build(ctx):
        assert list(ctx.declared) == ["one"] and [t["id"] for t in ctx.tables] == ["one"]
        ctx.problems.append(Problem("x.log", 3, "a warning of the module"))
        return [ctx.table("jitter", "Mine", COLUMNS, [{"k": "a"}])]

    got, doc = _ingest(tmp_path, _with_module(tmp_path, monkeypatch, build))
    assert doc["tables"] == ["one", "jitter", "runs"]  # the module's jitter, then the defaults left
    assert "x.log:3: a warning of the module" in doc["problems"]
    assert "x.log:3: a warning of the module" in map(str, got["problems"])


def test_a_module_table_of_a_declared_id_is_an_error_at_the_declaration(tmp_path, monkeypatch):
    man = _with_module(
        tmp_path, monkeypatch, lambda ctx: [ctx.table("one", "Mine", COLUMNS, [{"k": "a"}])]
    )
    with pytest.raises(Problem) as e:
        _ingest(tmp_path, man)
    assert (e.value.file, e.value.line) == (str(man), 16)  # the line of `- {id: one, ...}`
    assert e.value.reason == "table 'one': the study module walked gives a table of the same id"
