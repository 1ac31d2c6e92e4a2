"""`file_tables:` (ingest/derive/file_tables.py): a study of summary tables without a study module.
Summary files of our own in the whitespace summary-table format (F9), and the insert
benchmark's public results file (../shared/archives, read in place), which no study uses."""

from __future__ import annotations

import tarfile

import pytest
import yaml

from ingest.parse.member import parse_bytes
from ingest.pipeline import ingest
from ingest.problems import Problem
from ingest.read.archive import sha256_file
from tests.kit.golden import SHARED
from tests.kit.sysbench_gen import tar_gz

SUMMARY = """\
10m rows, small box / load
ips.av\tMcpu/i\tsize\tengine
1200\t41.5\t9.49G\tinno5717
1100\t40.25\t1.2\tmyrocks

50m rows, small box / load
ips.av\tMcpu/i\tsize\tengine
900\t43.5\t2.1\tinno5717
950\t39\t7.5\tmyrocks

10m rows, small box / scan
secs\tengine
12\tinno5717
9\tmyrocks
"""

DECLARED = """\
  - id: load
    title: Inserts per second
    file: bench.txt
    table: '(?P<rows>[0-9]+m) rows, small box / load'
    labels: {rows: Rows}
    columns: {engine: Server, ips.av: Inserts/s, Mcpu/i: CPU per insert}
"""


def study(tmp_path, declared=DECLARED, archive="sums.tar.gz", files="bench.txt"):
    """A manifest of summary files only (no runs), in tmp_path/content/sums."""
    arc = tmp_path / "archives" / archive
    if not arc.exists():
        arc.parent.mkdir(parents=True, exist_ok=True)
        tar_gz(arc, {"bench.txt": SUMMARY})
    man = tmp_path / "content" / "sums" / "manifest.yaml"
    man.parent.mkdir(parents=True, exist_ok=True)
    man.write_text(f"""\
study: sums
title: Summary tables
inputs:
  - {{name: {archive}, kind: archive, sha256: "{sha256_file(arc)}", origin: "https://example.org/s"}}
files:
  - {{glob: '{files}', format: summary-table}}
file_tables:
{declared}""")
    return man


def run(tmp_path, man, archives=None):
    ingest(man, archives or tmp_path / "archives", tmp_path / "studies", tmp_path / "data")
    return yaml.safe_load((tmp_path / "data" / "sums" / "tables" / "load.yaml").read_text())


def test_the_tables_a_pattern_names_become_one_table_with_the_names_groups(tmp_path):
    t = run(tmp_path, study(tmp_path))
    assert [(c["key"], c["label"], c["kind"], c.get("digits")) for c in t["columns"]] == [
        ("rows", "Rows", "label", None),
        ("engine", "Server", "label", None),
        ("ips_av", "Inserts/s", "number", 0),
        ("mcpu_i", "CPU per insert", "number", 2),  # 40.25: the most decimals printed
    ]
    assert t["rows"] == [
        {"rows": "10m", "engine": "inno5717", "ips_av": 1200, "mcpu_i": 41.5},
        {"rows": "10m", "engine": "myrocks", "ips_av": 1100, "mcpu_i": 40.25},
        {"rows": "50m", "engine": "inno5717", "ips_av": 900, "mcpu_i": 43.5},
        {"rows": "50m", "engine": "myrocks", "ips_av": 950, "mcpu_i": 39},
    ]
    csv = (tmp_path / "data" / "sums" / "tables" / "load.csv").read_text().splitlines()
    assert csv[0] == "rows,engine,ips_av,mcpu_i" and csv[1] == "10m,inno5717,1200,41.5"


def test_every_column_by_default_and_a_unit_kept_as_written(tmp_path):
    declared = "  - {id: load, file: bench.txt, table: '10m rows, small box / load'}\n"
    t = run(tmp_path, study(tmp_path, declared))
    assert [c["key"] for c in t["columns"]] == ["ips_av", "mcpu_i", "size", "engine"]
    assert t["title"] == "load" and [r["size"] for r in t["rows"]] == ["9.49G", 1.2]
    assert t["columns"][2]["kind"] == "text"  # a number beside a number with its unit


@pytest.mark.parametrize(
    "declared,reason",
    [
        (
            DECLARED.replace("file: bench.txt", "file: other.txt"),
            "no `files:` rule reads 'other.txt'",
        ),
        (DECLARED.replace("/ load'", "/ lode'"), "no table of bench.txt matches `table`"),
        (DECLARED.replace("Mcpu/i:", "rpq:"), "has no column 'rpq'"),
        (
            DECLARED.replace("(?P<rows>", "(?P<engine>").replace("{rows: Rows}", "{engine: R}"),
            "group 'engine' of `table` is also a column",
        ),
        (DECLARED.replace("{rows: Rows}", "{cpu: CPU}"), "labels names no group of `table`"),
        (DECLARED.replace("(?P<rows>[0-9]+m)", "(?P<rows>[0-9+m)"), "bad table regex"),
        (DECLARED.replace("    file: bench.txt\n", ""), "missing field `file`"),
    ],
)
def test_a_bad_declaration_is_an_error_at_its_line_and_data_is_kept(tmp_path, declared, reason):
    """Checked at load where it can be (fields, regex, groups), else when the files are read;
    either way `manifest:line: reason` and data/ as it was."""
    run(tmp_path, study(tmp_path))
    before = (tmp_path / "data" / "sums" / "tables" / "load.yaml").read_bytes()
    with pytest.raises(Problem) as e:
        run(tmp_path, study(tmp_path, declared))
    assert reason in e.value.reason, e.value.reason
    assert e.value.file.endswith("manifest.yaml") and e.value.line is not None
    assert (tmp_path / "data" / "sums" / "tables" / "load.yaml").read_bytes() == before


def test_the_insert_benchmark_results_file_read_in_place(tmp_path):
    """The public ibench archive: every row of the four load tables, as its file gives them."""
    name = "mdcallag-ibench-oct2017.tar.gz"
    declared = """\
  - id: load
    file: ibench.nuc
    table: '(?P<rows>[0-9]+m), 1c, 1t, (?P<cpu>core-i[0-9]), mysql / load mysql'
    columns: {engine: Binary, ips.av: Inserts/s}
"""
    (tmp_path / "archives").mkdir()
    (tmp_path / "archives" / name).symlink_to(SHARED / "archives" / name)
    t = run(tmp_path, study(tmp_path, declared, name, "ibench.nuc"))
    with tarfile.open(SHARED / "archives" / name) as tf:
        member = next(m for m in tf if m.name.endswith("/ibench.nuc"))
        parsed = parse_bytes(tf.extractfile(member).read(), "ibench.nuc", "summary-table")
    loads = [x for x in parsed.tables if x.name.endswith("mysql / load mysql")]
    expected = [(r["engine"], r["ips.av"]) for x in loads for r in x.rows]
    assert len(loads) == 4 and [(r["engine"], r["ips_av"]) for r in t["rows"]] == expected
    assert {(r["rows"], r["cpu"]) for r in t["rows"]} == {
        (x.name.split(",")[0], x.name.split(", ")[3]) for x in loads
    }
