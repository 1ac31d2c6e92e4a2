"""A study generated at test time whose labels are 40 characters long (the display names of its
engines and setups), taken through the scaffold like a new author's: sysbench logs in a
.tar.gz -> `python -m ingest new` -> a `display:` section -> ingest -> a post with a chart of
each kind on those labels. Used by tests/browser/test_long_labels.py (and, to look at it, by hand:
`python -m tests.kit.long_labels DIR` writes the study into DIR and builds DIR/www/benchlog)."""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

from tests.kit.sysbench_gen import sysbench_log, tar_gz

STUDY = "long-labels"
ENGINES = {
    "innodb": ("InnoDB 8.0.36, 16 KB pages, doublewrite!", 400.0),
    "rocksdb": ("MyRocks 8.0.32, LZ4 compression, bloom10", 650.0),
    "tokudb": ("TokuDB 5.7.28, fractal-tree indexes, lz4", 300.0),
}
SETUPS = {
    "plain": "Default settings from the vendor package",
    "tuned": "Tuned: buffer pool 75% of RAM, 4 cleaner",
    "huge": "Large pages, 64 GB log files, flush at 2",
}
IOPS = (1000, 3000, 5000)
# long column headings (legend titles, axis titles, panel headers): a declared table's
HEADINGS = {
    "engine": "Storage engine and configuration variant",
    "setup": "Server settings applied before every run",
    "iops": "Provisioned IOPS of the volume, per sec.",
}
TABLE = (
    """\
tables:
  - id: by-setup
    rows: [engine, setup, iops]
    columns: {engine: %(engine)r, setup: %(setup)r, iops: %(iops)r}
    value: {key: mean, label: "Mean TPS in the steady window, per second", stat: mean, digits: 1}
ratios:
  - {table: by-setup, row: [setup, iops], col: engine, value: mean, spread: runs}
"""
    % HEADINGS
)
CHARTS = """
{{< chart kind="bars" id="mean-bars" table="by-setup" x="setup" y="mean" color="engine" where="iops=3000" source="derived" caption="Mean per setup" >}}

{{< chart kind="bars" id="mean-dots" table="by-setup" x="setup" y="mean" color="engine" mark="point" where="iops=3000" source="derived" caption="Mean per setup, as dots" >}}

{{< chart kind="line" id="mean-lines" table="by-setup" x="iops" y="mean" color="engine" facet="setup" source="derived" caption="Mean against IOPS" >}}

{{< chart kind="line" id="setup-lines" table="by-setup" x="setup" y="mean" color="engine" where="iops=3000" source="derived" caption="Mean per setup, a line over the setups' names" >}}

{{< chart kind="ratio" id="mean-ratio" table="by-setup" row="setup,iops" col="engine" value="mean" source="derived" caption="Ratio to InnoDB" >}}
"""


def labels_are_long() -> None:
    for name in [n for n, _ in ENGINES.values()] + list(SETUPS.values()) + list(HEADINGS.values()):
        assert len(name) == 40, (name, len(name))


def make(tmp: Path) -> Path:
    """Writes the archive, scaffolds, ingests and adds the charts; returns the post's dir."""
    from ingest.__main__ import main
    from ingest.write.datadir import dump

    labels_are_long()
    logs = {
        f"sb_{e}_{s}_iops{i}.log": sysbench_log(
            rate * (1 + len(s) / 20) + i / 40, seconds=30, threads=8
        )
        for e, (_, rate) in ENGINES.items()
        for s in SETUPS
        for i in IOPS
    }
    (tmp / "archives").mkdir(parents=True, exist_ok=True)
    tar_gz(tmp / "archives" / "long.tar.gz", logs, top="long-2026")
    posts = tmp / "content" / "posts"
    assert (
        main(
            [
                "new",
                STUDY,
                str(tmp / "archives" / "long.tar.gz"),
                "--origin",
                "https://example.org/long",
                "--content",
                str(posts),
            ]
        )
        == 0
    )
    post = posts / STUDY
    manifest = yaml.safe_load((post / "manifest.yaml").read_text())
    assert manifest["labels"] == ["engine", "variant", "iops"], manifest["labels"]
    # the author's edits: the label renamed, readers' names of its values and the engines'
    text = (post / "manifest.yaml").read_text().replace("variant", "setup")
    manifest = yaml.safe_load(text)
    manifest["display"] = {"engine": {e: n for e, (n, _) in ENGINES.items()}, "setup": SETUPS}
    declared = yaml.safe_load(TABLE)
    manifest["tables"] += declared["tables"]  # beside the scaffold's comparison
    manifest["ratios"] = manifest.get("ratios", []) + declared["ratios"]
    (post / "manifest.yaml").write_text(dump(manifest))
    assert (
        main(
            [
                STUDY,
                "--content",
                str(posts),
                "--archives",
                str(tmp / "archives"),
                "--data",
                str(tmp / "data"),
            ]
        )
        == 0
    )
    index = (post / "index.md").read_text()
    (post / "index.md").write_text(
        index.replace("{{< provenance >}}", CHARTS + "\n{{< provenance >}}")
    )
    return post


if __name__ == "__main__":
    from tests.kit.sitebuild import generated_site

    print(generated_site(make, Path(sys.argv[1])) / "benchlog" / "posts" / STUDY / "index.html")
