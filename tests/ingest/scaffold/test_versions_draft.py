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


def test_a_family_the_version_decides_makes_no_panel_and_panels_stay_few():
    """Each version is one family's: a panel per family would hold that family's versions only,
    so the family makes no panel. Three workloads by four tiers are twelve panels, more than a
    draft shows: the tiers are taken at their first value (`where:`) and said in the caption."""
    from ingest.scaffold import versions

    runs = [
        {"workload": w, "family": f, "version": v, "tier": t, "threads": n}
        for w in ("rw", "ro", "net")
        for f, v in (("mysql", "8.0.36"), ("mysql", "8.4.0"), ("mariadb", "11.4.2"))
        for t in (2, 12, 32, 64)
        for n in (1, 16)
    ]
    doc = {"labels": list(runs[0]), "label_types": {"tier": "int", "threads": "int"}}
    entry = versions.draft(doc, runs, {"sysbench1"})
    assert entry["facets"] == ["workload"] and entry["where"] == {"tier": 2}
    assert "first value of each other label" in "".join(versions.chart(entry, {}))
    assert len({(r["workload"], r["tier"]) for r in runs}) > versions.MAX_PANELS


def test_a_draft_with_too_many_panels_ingests_the_first_tier_only(tmp_path):
    """Three workloads by four tiers: the untouched draft takes the smallest tier (`where:`,
    an int as the label is) and its view holds the runs of that tier only."""
    members = {
        f"{w}/{v}/Tier{tier}G_RW_{n}th.txt": sysbench1_log(
            100 * (i + 1) + tier, 40, threads=n, seed=i
        )
        for w in ("rw", "ro", "net")
        for i, v in enumerate(VERSIONS)
        for tier in (2, 12, 32, 64)
        for n in (1, 8)
    }
    (tmp_path / "archives").mkdir()
    tar_gz(tmp_path / "archives" / "vs.tar.gz", members, top="vs-2026")
    posts = tmp_path / "posts"
    args = ["new", "vs", str(tmp_path / "archives" / "vs.tar.gz"), "--content", str(posts)]
    assert main([*args, "--origin", "https://example.org/vs"]) == 0
    view = yaml.safe_load((posts / "vs" / "manifest.yaml").read_text())["versions"][0]
    tier = next(k for k in view["where"])
    assert view["where"] == {tier: 2}
    args = ["vs", "--content", str(posts), "--archives", str(tmp_path / "archives")]
    assert main([*args, "--data", str(tmp_path / "data")]) == 0
    table = yaml.safe_load((tmp_path / "data" / "vs" / "tables" / "versions.yaml").read_text())
    assert len(table["rows"]) == 3 * len(VERSIONS) * 2  # workloads x versions x threads
    assert {row["run"].split("-")[-2] for row in table["rows"]} == {"2"}  # ids end tier-threads
