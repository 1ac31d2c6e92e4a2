"""A label built from two path parts (`<family>/<version>/`): `labels: {version: {join:
[family, _version]}}` joins the named groups' values, and is checked at load, `file:line`."""

from __future__ import annotations

import pytest
import yaml

from ingest.pipeline import ingest
from ingest.problems import Problem
from ingest.read.manifest import load
from tests.kit.study_kit import archive_study
from tests.kit.sysbench_gen import sysbench_log

SERVERS = {"mysql/8.0.36": 500, "percona/8.0.36": 520, "mariadb/11.4.2": 450}
REGEX = "'(?P<family>[a-z]+)/(?P<_version>[^/]+)/run\\.log'"


def _study(tmp_path, labels: str):
    members = {f"{k}/run.log": sysbench_log(tps, seconds=10) for k, tps in SERVERS.items()}
    body = f"""\
interval_s: 1
window: {{start: 1, end: 10}}
labels: [family, version]
runs:
  - regex: {REGEX}
    labels: {labels}
"""
    return archive_study(tmp_path, "fam", "Families", members, body)


@pytest.mark.parametrize(
    "labels, want",
    [
        ("{version: {join: [family, _version]}}", ["mysql-8.0.36", "percona-8.0.36"]),
        ("{version: {join: [family, _version], sep: ' '}}", ["mysql 8.0.36", "percona 8.0.36"]),
    ],
)
def test_a_label_joined_from_two_path_parts_tells_the_families_apart(tmp_path, labels, want):
    man = _study(tmp_path, labels)
    ingest(man, tmp_path / "archives", tmp_path / "studies", tmp_path / "data")
    runs = yaml.safe_load((tmp_path / "data" / "fam" / "runs.yaml").read_text())["runs"]
    got = {r["labels"]["family"]: r["labels"]["version"] for r in runs}
    assert [got["mysql"], got["percona"]] == want
    assert got["mariadb"] == want[0].replace("mysql", "mariadb").replace("8.0.36", "11.4.2")
    assert len({r["id"] for r in runs}) == 3
    assert all("_version" not in r["labels"] for r in runs)


@pytest.mark.parametrize(
    "labels, reason",
    [
        ("{version: {join: [family, _versoin]}}", "join names '_versoin', not a named group"),
        ("{version: {join: [family]}}", "join must list two or more named groups"),
        ("{version: {join: [family, 3]}}", "join must list two or more named groups"),
        ("{version: {join: family}}", "`join` must be"),
        ("{version: {sep: '-'}}", "missing field `join`"),
        ("{version: {join: [family, _version], with: '-'}}", "unknown field `with`"),
        ("{version: {join: [family, _version], sep: '----------'}}", "sep must be at most 8"),
        ("{family: {join: [family, _version]}}", "the regex has a group of this name too"),
        ("{version: [family, _version]}", "must be a string, number or {join: [...]}"),
    ],
)
def test_a_joined_label_is_checked_at_load_at_its_line(tmp_path, labels, reason):
    man = _study(tmp_path, labels)
    with pytest.raises(Problem) as err:
        load(man)
    line = man.read_text().splitlines().index(f"    labels: {labels}") + 1
    assert str(err.value).startswith(f"{man}:{line}: runs[0]: label "), str(err.value)
    assert reason in str(err.value), str(err.value)


def test_a_queries_rule_joins_its_groups_too(tmp_path):
    """DBT3 query runs of our own (tests/kit/dbt3_gen.py): `setup` joined from the server and
    configuration parts of each folder's name."""
    import hashlib

    from ingest.pipeline import build_files
    from tests.kit.dbt3_gen import FOLDERS, MANIFEST, write_archive

    archive = write_archive(tmp_path / "archives" / "dbt3.tar.gz")
    post = tmp_path / "content" / "innodb-queries"
    post.mkdir(parents=True)
    text = MANIFEST.format(sha=hashlib.sha256(archive.read_bytes()).hexdigest(), extra="")
    text = text.replace("labels: [server,", "labels: [setup, server,").replace(
        "    format: dbt3-explains\n",
        "    format: dbt3-explains\n    labels: {setup: {join: [server, config], sep: ' / '}}\n",
    )
    (post / "manifest.yaml").write_text(text)
    built = build_files(load(post / "manifest.yaml"), archive.parent, tmp_path)
    rows = yaml.safe_load(built.files["tables/query-runs.yaml"])["rows"]
    assert {r["setup"] for r in rows} == {f.replace("-", " / ", 1) for f in FOLDERS}
    assert all(r["setup"] == f"{r['server']} / {r['config']}" for r in rows)
