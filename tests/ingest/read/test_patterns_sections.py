"""Every pattern of a manifest section, not only of `runs:`/`files:` rules, is bounded before
it compiles and matched through the one budgeted path (`patterns.budgeted`) with the whole
ingest's total: `label_files:` regexes had no budget (`(a|a)*c` on 26 a's ran for minutes,
`a{1000000000}` ended in MemoryError), `file_tables:` patterns had no total."""

from __future__ import annotations

import io
import tarfile

import pytest

from ingest.pipeline import build_files, ingest
from ingest.problems import Problem
from ingest.read import patterns
from ingest.read.archive import sha256_file
from ingest.read.manifest import load
from tests.kit.dbt3_gen import MANIFEST
from tests.kit.sysbench_gen import tar_gz

EXPLAINS = (
    "===== 3_explain.sql Run No: 1 =====\nSTARTUP_PARAMS: \n\n--- Explain result ---\n"
    "+----+-------------+\n| id | select_type |\n+----+-------------+\n"
    "|  1 | SIMPLE      |\n+----+-------------+\n--- Time elapsed ---\n118\n"
)

QUERY_STUDY = """\
study: desc-study
title: A DESC of its own
inputs:
  - {{name: q.tar.gz, kind: archive, sha256: {sha}, origin: "file:q.tar.gz"}}
labels: [server, engine]
queries:
  - regex: '(?P<server>[a-z0-9-]+)/all_explains\\.txt'
    format: dbt3-explains
label_files:
  - {{file: DESC, display: server, regex: '{regex}'}}
"""


def query_study(tmp_path, regex: str, description: str):
    arc = tmp_path / "archives" / "q.tar.gz"
    arc.parent.mkdir(parents=True, exist_ok=True)
    members = {"DESC": f"runs\n\nx-1: {description}\n", "x-1/all_explains.txt": EXPLAINS}
    with tarfile.open(arc, "w:gz") as tar:
        for name, text in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(text.encode())
            tar.addfile(info, io.BytesIO(text.encode()))
    man = tmp_path / "content" / "desc-study" / "manifest.yaml"
    man.parent.mkdir(parents=True)
    man.write_text(QUERY_STUDY.format(sha=sha256_file(arc), regex=regex))
    return man


def test_a_label_file_regex_is_bounded_before_it_compiles(tmp_path):
    text = MANIFEST.format(sha="a" * 64, extra="").replace(
        "regex: '(?P<version>", "regex: 'a{1000000000}(?P<version>"
    )
    (tmp_path / "manifest.yaml").write_text(text)
    with pytest.raises(Problem) as err:
        load(tmp_path / "manifest.yaml")
    assert err.value.line == 12 and "label_files[0]: regex too large" in err.value.reason


def test_a_catastrophic_label_file_regex_is_stopped_by_the_budget(tmp_path):
    man = query_study(tmp_path, "(?P<engine>(a|aa)+b)", "a" * 40)
    with pytest.raises(Problem) as err:
        build_files(load(man), tmp_path / "archives", tmp_path)
    assert err.value.line == 10, str(err.value)
    assert err.value.reason.startswith("label_files[0]: pattern '(?P<engine>(a|aa)+b)' too slow")


def test_a_label_file_regex_that_matches_gives_its_labels(tmp_path):
    man = query_study(tmp_path, "(?P<engine>InnoDB)", "MySQL 5.6, InnoDB")
    built = build_files(load(man), tmp_path / "archives", tmp_path)
    assert "engine: InnoDB" in built.files["tables/query-runs.yaml"].decode()


def test_file_table_patterns_share_the_ingest_total(tmp_path, monkeypatch):
    """400 tables at about 1 ms each against `(a|aa)+b` (the total lowered to 0.05 s)."""
    block = "".join(f"{'a' * 18}{i:03d}\nips engine\n{i} x\n\n" for i in range(400))
    arc = tmp_path / "archives" / "many.tar.gz"
    arc.parent.mkdir(parents=True)
    tar_gz(arc, {"bench.txt": block})
    man = tmp_path / "content" / "sums" / "manifest.yaml"
    man.parent.mkdir(parents=True)
    man.write_text(
        "study: sums\ntitle: Tables\ninputs:\n"
        f"  - {{name: many.tar.gz, kind: archive, sha256: {sha256_file(arc)}, "
        'origin: "https://example.org/s"}\n'
        "files:\n  - {glob: bench.txt, format: summary-table}\n"
        "file_tables:\n  - {id: load, file: bench.txt, table: '(a|aa)+b(?P<n>[0-9]+)'}\n"
    )
    monkeypatch.setattr(patterns, "MATCH_TOTAL_S", 0.05)
    with pytest.raises(Problem) as err:
        ingest(man, tmp_path / "archives", tmp_path / "studies", tmp_path / "data")
    assert err.value.line == 8 and "patterns too slow: " in err.value.reason, str(err.value)


def test_a_study_name_longer_than_a_file_name_is_a_manifest_error(tmp_path):
    text = MANIFEST.format(sha="a" * 64, extra="").replace("innodb-queries", "s" * 256)
    (tmp_path / "manifest.yaml").write_text(text)
    with pytest.raises(Problem) as err:
        load(tmp_path / "manifest.yaml")
    assert err.value.line == 1 and err.value.reason == "study: a name of 256 characters (limit 100)"
