"""The sar files of query runs (ingest/join/query_sar.py): a `queries:` rule's `sar:` templates join
each run's sar reports (tests/kit/dbt3_gen.py writes `sar -u` and `sar -r` beside every run, in the
German locale) as per-run means in the query-runs table; `query_tables:` takes one as its
`column:`; a run without its file keeps the columns missing, with one warning; mistakes are
`manifest:line`. Expected values come from the generator's own numbers, not from the parser."""

from __future__ import annotations

import hashlib
import statistics

import pytest

from ingest.pipeline import build_files
from ingest.problems import Problem
from ingest.read.manifest import load
from tests.kit import fastyaml
from tests.kit.dbt3_gen import FOLDERS, QUERIES, REPEATS, sar_iowait, sar_user, write_archive

SAR_U = "{folder}/{query}.sql_no_{repeat}_sar_u.txt"
SAR_R = "{folder}/{query}.sql_no_{repeat}_sar_r.txt"
MANIFEST = """\
study: sar-queries
title: DBT3 on InnoDB, with sar
inputs:
  - {{name: dbt3.tar.gz, kind: archive, sha256: {sha}, origin: "file:dbt3.tar.gz"}}
labels: [folder]
queries:
  - regex: '(?P<folder>[^/]+)/all_explains\\.txt'
    format: dbt3-explains
    sar: {sar}
{extra}"""
IOWAIT = """\
query_tables:
  - id: iowait
    pivot: folder
    column: sar_iowait
    digits: 2
"""


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    return write_archive(tmp_path_factory.mktemp("sar") / "archives" / "dbt3.tar.gz")


def build(archive, sar, extra="", tmp=None):
    """The ingest's files of a study of `archive` whose rule names `sar` (YAML), as data."""
    post = (tmp or archive.parent.parent) / "content" / "sar-queries"
    post.mkdir(parents=True, exist_ok=True)
    sha = hashlib.sha256(archive.read_bytes()).hexdigest()
    (post / "manifest.yaml").write_text(MANIFEST.format(sha=sha, sar=sar, extra=extra))
    built = build_files(load(post / "manifest.yaml"), archive.parent, post.parent.parent)
    tables = {
        k.removeprefix("tables/").removesuffix(".yaml"): fastyaml.load(v)
        for k, v in built.files.items()
        if k.startswith("tables/") and k.endswith(".yaml")
    }
    return tables, built


def test_every_run_gets_the_means_of_its_sar_files(archive):
    tables, built = build(archive, f"['{SAR_U}', '{SAR_R}']")
    runs = tables["query-runs"]
    keys = [c["key"] for c in runs["columns"]]
    assert {"sar_user", "sar_iowait", "sar_idle", "sar_kbmemused", "sar_memused"} <= set(keys)
    assert len(runs["rows"]) == len(FOLDERS) * len(QUERIES) * REPEATS
    for row in runs["rows"]:
        at = (row["folder"], row["query"], row["repeat"])
        assert row["sar_iowait"] == pytest.approx(sar_iowait(*at)), at
        assert row["sar_user"] == pytest.approx(sar_user(*at)), at
    # the sar files are taken by the rule (the report does not list them as matched by none)
    taken = [member for _, member in built.queries.members if "_sar_" in member]
    assert len(taken) == len(FOLDERS) * len(QUERIES) * REPEATS * 2


def test_a_query_table_takes_a_sar_column(archive):
    tables, _ = build(archive, f"'{SAR_U}'", IOWAIT)
    table = tables["iowait"]
    assert [c["label"] for c in table["columns"]] == ["Query", *FOLDERS]
    for row in table["rows"]:
        for folder, column in zip(FOLDERS, table["columns"][1:]):
            runs = [sar_iowait(folder, row["query"], k) for k in range(1, REPEATS + 1)]
            assert row[column["key"]] == pytest.approx(statistics.median(runs))


def test_a_run_without_its_sar_file_keeps_the_columns_missing_with_one_warning(archive):
    tables, built = build(archive, f"['{SAR_U}', '{{folder}}/none_{{query}}_{{repeat}}.txt']")
    rows = tables["query-runs"]["rows"]
    assert all(r["sar_iowait"] is not None for r in rows)
    warned = [p for p in built.problems if "sar file(s) of query runs not in the input" in p.reason]
    assert len(warned) == 1 and warned[0].line == 7  # the rule's
    assert f"{len(rows)} sar file(s)" in warned[0].reason


@pytest.mark.parametrize(
    ("sar", "extra", "line", "reason"),
    [
        ("'{folder!r}.txt'", "", 9, "must be a plain label name"),
        ("{a: b}", "", 9, "`sar` must be str or a list"),
        (
            f"'{SAR_U}'",
            IOWAIT.replace("sar_iowait", "sar_steel"),
            13,
            "not seconds or a sar column",
        ),
    ],
)
def test_sar_mistakes_are_errors_at_the_manifest_line(archive, sar, extra, line, reason):
    with pytest.raises(Problem) as err:
        build(archive, sar, extra)
    assert err.value.line == line and reason in err.value.reason, str(err.value)
