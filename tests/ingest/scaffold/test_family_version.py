"""The layout `<family>/<version>/...` where one version is two servers' (8.0.36 of MySQL
and of Percona Server): the draft builds the label `version` from both path parts
(`mysql-8.0.36`), and only then."""

from __future__ import annotations

import json

import pytest
import yaml

from ingest.__main__ import main
from ingest.scaffold.names import propose
from publish.checks import check
from tests.kit import versions_gen as gen
from tests.kit.sitebuild import BASE_URL, build


def test_a_version_two_families_share_is_joined_with_its_family():
    names = ["mysql/8.0.36/r.log", "percona/8.0.36/r.log", "mariadb/11.4.2/r.log"]
    (p,) = propose(names, {}, [])
    assert p.regex == r"(?P<_server>[A-Za-z]+)/(?P<_version>[0-9]+(?:\.[0-9]+)+)/r\.log"
    assert [(g, hidden) for g, _, hidden in p.groups] == [("_server", True), ("_version", True)]
    assert p.joined == {"version": ["_server", "_version"]}


@pytest.mark.parametrize(
    "names",
    [
        ["mysql/8.0.36/r.log", "percona/8.0.36-28/r.log", "mariadb/11.4.2/r.log"],
        ["mysql/8.0.36/r.log", "mysql/8.4.0/r.log", "percona/8.4.0-1/r.log"],
    ],
)
def test_versions_no_two_families_share_stay_a_label_of_their_own(names):
    (p,) = propose(names, {}, [])
    assert [g for g, _, _ in p.groups] == ["server", "version"] and p.joined == {}


def test_the_draft_of_a_generated_study_joins_family_and_version(tmp_path, monkeypatch):
    """A generated study in the real formats (sysbench, monitors, my.cnf, ...), MySQL 8.0.36
    and 8.4.0, Percona Server 8.0.36, MariaDB 11.4.2: `new` drafts `version` joined from the
    two folders, the ingest gives each server its own runs, the view compares the four, and
    the untouched draft builds with every rule of the build."""
    versions = {"mysql": {"8.0.36": 1.0, "8.4.0": 0.9}, "percona": {"8.0.36": 1.02}}
    versions["mariadb"] = {"11.4.2": 0.95}
    monkeypatch.setattr(gen, "VERSIONS", versions)
    pairs = tuple((f, v) for f, vs in versions.items() for v in vs)
    size = gen.Size(20, pairs, (2, 32), (1, 16), ("oltp_read_write",))
    monkeypatch.setitem(gen.SIZES, "families", size)
    arc, truth, _ = gen.write(tmp_path / "fam.tar.gz", "families")
    posts = tmp_path / "content" / "posts"
    assert main(["new", "fam", str(arc), "--content", str(posts)]) == 0
    man = yaml.safe_load((posts / "fam" / "manifest.yaml").read_text())
    (rule,) = man["runs"]
    assert rule["labels"] == {"version": {"join": ["_server", "_version"]}}
    assert "(?P<_server>" in rule["regex"] and "(?P<_version>" in rule["regex"]
    assert man["labels"][0] == "version" and "server" not in man["labels"]
    assert man["display"]["version"]["percona-8.0.36"] == "Percona Server 8.0.36"
    assert man["versions"][0]["version"] == "version"
    where = ["--archives", str(tmp_path), "--data", str(tmp_path / "data")]
    assert main(["fam", "--content", str(posts), *where]) == 0
    runs = yaml.safe_load((tmp_path / "data" / "fam" / "runs.yaml").read_text())["runs"]
    got = {r["source"]["file"]: r["labels"]["version"] for r in runs}
    expected = {t["member"]: f"{t['family']}-{t['version']}" for t in json.loads(truth.read_text())}
    assert got == expected
    assert {v for v in got.values()} == {f"{f}-{v}" for f, v in pairs}
    site = tmp_path / "www" / "benchlog"
    build(site, BASE_URL, extra=tmp_path, previews=False, own_content=False)
    assert check(site, [posts], [tmp_path / "data"]) == []
    assert "Percona Server 8.0.36" in (site / "posts" / "fam" / "index.html").read_text()
