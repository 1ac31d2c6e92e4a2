"""The scaffold drafts a version view (ingest/scaffold/versions.py) when a label's values read
as server versions: a `versions:` section over it, X the thread count, the other varying
labels its facets, and the chart in the post; the draft loads and ingests untouched. Labels
that are not versions (engine names) get none."""

from __future__ import annotations

import yaml

from ingest.__main__ import main
from ingest.read.manifest import load
from tests.kit.archive_gen import sysbench1_log, tar_gz

VERSIONS = ("5.7.44", "8.0.36", "10.11.6")


def scaffold(tmp_path, parts):
    members = {
        f"{part}/Tier{tier}G_RW_{threads}th.txt": sysbench1_log(
            100 * (i + 1) * threads**0.5, 40, threads=threads, seed=i * 100 + threads + tier
        )
        for i, part in enumerate(parts)
        for tier in (2, 12)
        for threads in (1, 8, 64)
    }
    (tmp_path / "archives").mkdir()
    tar_gz(tmp_path / "archives" / "vs.tar.gz", members, top="vs-2026")
    posts = tmp_path / "content" / "posts"
    args = ["new", "vs", str(tmp_path / "archives" / "vs.tar.gz"), "--content", str(posts)]
    assert main([*args, "--origin", "https://example.org/vs"]) == 0
    return posts / "vs"


def test_a_version_label_gets_a_versions_section_and_its_chart(tmp_path):
    post = scaffold(tmp_path, VERSIONS)
    doc = yaml.safe_load((post / "manifest.yaml").read_text())
    view = doc["versions"][0]
    assert view["version"] == "version" and view["x"] == "threads"
    assert view["facets"] == [k for k in doc["labels"] if k not in ("version", "threads")]
    assert view["metrics"] == {"tps": "TPS", "qps": "QPS"}  # sysbench's series have both
    assert load(post / "manifest.yaml").versions[0].version == "version"
    body = (post / "index.md").read_text()
    assert '{{< chart kind="versions" id="every-version" table="versions"' in body
    args = ["vs", "--content", str(post.parent), "--archives", str(tmp_path / "archives")]
    assert main([*args, "--data", str(tmp_path / "data")]) == 0
    tables = yaml.safe_load((tmp_path / "data" / "vs" / "study.yaml").read_text())["tables"]
    assert {"versions", "versions-extremes"} <= set(tables)


def test_labels_that_are_not_versions_get_no_view(tmp_path):
    post = scaffold(tmp_path, ("innodb", "rocksdb", "tokudb"))
    doc = yaml.safe_load((post / "manifest.yaml").read_text())
    assert "versions" not in doc
    assert 'kind="versions"' not in (post / "index.md").read_text()


def test_a_custom_build_of_several_parts_is_a_version(tmp_path):
    """A build suffix of any number of parts is part of the version, so a study with one custom
    build still reads as versions."""
    post = scaffold(tmp_path, ("5.7.44", "8.0.36-28", "8.0.40-ubu2204-lto-variant2"))
    doc = yaml.safe_load((post / "manifest.yaml").read_text())
    assert doc["versions"][0]["version"] == "version"
