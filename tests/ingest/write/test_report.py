"""What the ingest reports on success (ingest/write/report.py) and `--dry-run`, on an archive written
here: runs per rule, files no rule took and why, tables, sizes and the warnings."""

from __future__ import annotations

import re

from ingest.__main__ import main
from ingest.read.archive import sha256_file
from tests.kit.sysbench_gen import sysbench_log, tar_gz

RULE = r"res_(?P<engine>[a-z]+)_(?P<threads>\d+)\.log"


def study(tmp_path):
    arc = (
        tar_gz(
            tmp_path / "archives" / "rep.tar.gz",
            {
                "res_innodb_8.log": sysbench_log(500, threads=8),
                "res_rocksdb_8.log": sysbench_log(800, threads=8, fatal=4),
                "res_rocksdb_16.log": sysbench_log(
                    900, seconds=10, threads=16
                ),  # shorter than the window
                "empty.log": "",
                "cut.log": sysbench_log(700, complete=False),
                "run.sh": "#!/bin/sh\nfor e in innodb rocksdb; do sysbench oltp_read_write run; done\n",
            },
        )
        if (tmp_path / "archives").mkdir() is None
        else None
    )
    man = tmp_path / "content" / "rep" / "manifest.yaml"
    man.parent.mkdir(parents=True)
    man.write_text(f"""\
study: rep
title: Report
inputs:
  - {{name: rep.tar.gz, kind: archive, sha256: {sha256_file(arc)}, origin: https://example.org/rep}}
interval_s: 1
window: {{start: 2, end: 20}}
base: {{engine: innodb}}
labels: [engine, threads]
label_types: {{threads: int}}
runs:
  - regex: '{RULE}'
""")
    return [
        "--content",
        tmp_path / "content",
        "--archives",
        tmp_path / "archives",
        "--data",
        tmp_path / "data",
    ]


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_report_lists_runs_unmatched_files_sizes_and_warnings(capsys, tmp_path):
    args = study(tmp_path)
    code, out, err = run(capsys, "rep", *args)
    assert code == 0
    lines = out.splitlines()
    written = sum(p.stat().st_size for p in (tmp_path / "data" / "rep").rglob("*") if p.is_file())
    series = sum(p.stat().st_size for p in (tmp_path / "data" / "rep" / "series").glob("*"))
    assert (
        lines[0] == f"rep: 3 run(s), 2 table(s), {written / 1e3:.1f} KB ({written} bytes) written"
    )
    assert f"     3  {tmp_path}/content/rep/manifest.yaml:11: {RULE}" in lines
    assert "files matched by no rule (3):" in lines
    assert (
        "  rep.tar.gz/cut.log: interrupted (sysbench1: no session reached its final summary)"
        in lines
    )
    assert "  rep.tar.gz/empty.log: empty" in lines
    assert "  rep.tar.gz/run.sh: not a known format" in lines
    assert "tables: jitter (3 rows), runs (3 rows)" in lines
    assert (
        f"per-interval series: {series / 1e3:.1f} KB ({series} bytes) in 3 run(s) (JSON), {series // 3} bytes per run on average"
        in lines
    )
    warnings = lines[lines.index("warnings (4):") + 1 :]
    assert warnings == [
        "  rep.tar.gz/res_rocksdb_8.log:13: run rocksdb-8: 4 error line(s) in its session (line 1 to the end), "
        "first: FATAL: mysql_stmt_execute() returned error 2013 (Lost connection to MySQL server) for query 0",
        "  rep.tar.gz/res_rocksdb_16.log:1: run rocksdb-16: 8 interval(s) in the window (2, 20] s, which holds 18: "
        "shorter than the window",
        f"  {tmp_path}/content/rep/manifest.yaml: run rocksdb-16: no base case (engine=innodb); closest base run "
        "innodb-8 differs in threads (16 here, 8 there)",
        "  rep.tar.gz/res_rocksdb_8.log:13: 4 lines skipped, not read as sysbench1 lines (lines "
        "13-16; the first: 'FATAL: mysql_stmt_execute() returned error 2013 (Lost connection to "
        "MySQL serve\u2026')",  # the parser's, beside the report's count above
    ]


def test_dry_run_writes_nothing(capsys, tmp_path):
    args = study(tmp_path)
    code, out, err = run(capsys, "all", "--dry-run", *args)
    assert code == 0 and out.splitlines()[0].endswith("to write (dry run: nothing written)")
    assert not (tmp_path / "data").exists()


def test_all_closes_with_each_studys_bytes_in_data(capsys, tmp_path):
    args = study(tmp_path)
    code, out, err = run(capsys, "all", *args)
    written = sum(p.stat().st_size for p in (tmp_path / "data" / "rep").rglob("*") if p.is_file())
    size = f"{written / 1e3:.1f} KB ({written} bytes)"
    assert code == 0 and out.splitlines()[-2:] == [f"data/: 1 study, {size}", f"  {size:>26}  rep"]


def test_default_tables_without_a_study_module(capsys, tmp_path):
    import yaml

    run(capsys, "rep", *study(tmp_path))
    data = tmp_path / "data" / "rep"
    runs = {r["id"]: r for r in yaml.safe_load((data / "runs.yaml").read_text())["runs"]}
    table = yaml.safe_load((data / "tables" / "runs.yaml").read_text())
    assert [c["key"] for c in table["columns"]] == [
        "run",
        "name",
        "engine",
        "threads",
        "published",
        "file",
        "session",
        "n",
        "mean",
        "cv",
        "full_mean",
        "summary",
        "check_rel_diff",
    ]
    assert {r["run"]: (r["n"], r["mean"], r["cv"]) for r in table["rows"]} == {
        i: (r["window"]["n"], r["window"]["mean"], r["window"]["cv"]) for i, r in runs.items()
    }
    assert runs["rocksdb-16"]["window"]["n"] == 8 and runs["innodb-8"]["window"]["n"] == 18
    jitter = yaml.safe_load((data / "tables" / "jitter.yaml").read_text())
    assert [c["key"] for c in jitter["columns"]][-10:] == [
        "n",
        "mean",
        "cv",
        "min",
        "p1",
        "p5",
        "p50",
        "p95",
        "p99",
        "max",
    ]
    assert yaml.safe_load((data / "study.yaml").read_text())["tables"] == ["runs", "jitter"]


def test_a_base_run_at_another_thread_count_is_warned_when_threads_is_no_label(capsys, tmp_path):
    """The base ratio of a run whose base ran at another thread count compares thread counts
    too: said when `threads` is not a label (it is in the study above, where nothing is said)."""
    args = study(tmp_path)
    man = tmp_path / "content" / "rep" / "manifest.yaml"
    man.write_text(
        man.read_text()
        .replace("labels: [engine, threads]\nlabel_types: {threads: int}\n", "labels: [engine]\n")
        .replace(RULE, r"res_(?P<engine>[a-z]+)_8\.log")
    )
    code, out, err = run(capsys, "rep", *args)
    assert code == 0
    assert f"  {man}:7: run rocksdb: its base run innodb ran at 8 threads, this one at 8" not in out
    tar_gz(
        tmp_path / "archives" / "rep.tar.gz",
        {
            "res_innodb_8.log": sysbench_log(500, threads=8),
            "res_rocksdb_8.log": sysbench_log(800, threads=16),
        },
    )
    man.write_text(re_sha(man.read_text(), tmp_path / "archives" / "rep.tar.gz"))
    code, out, err = run(capsys, "rep", *args)
    assert code == 0, err
    assert (
        f"  {man}:7: run rocksdb: its base run innodb ran at 8 threads, this one at 16, and threads is not "
        "a label: the ratio compares thread counts too (add threads to labels:)"
    ) in out.splitlines()
    (tmp_path / "again").mkdir()
    code, out, err = run(capsys, "rep", *study(tmp_path / "again"))
    assert "ran at" not in out  # threads a label: the base case has the same thread count


def re_sha(text: str, archive) -> str:
    import re

    return re.sub(r"sha256: [0-9a-f]{64}", f"sha256: {sha256_file(archive)}", text)


def test_a_reingest_that_changes_nothing_says_so(capsys, tmp_path):
    args = study(tmp_path)
    run(capsys, "rep", *args)
    written = sum(p.stat().st_size for p in (tmp_path / "data" / "rep").rglob("*") if p.is_file())
    code, out, err = run(capsys, "rep", *args)
    assert code == 0
    assert out.splitlines()[0] == (
        f"rep: 3 run(s), 2 table(s), {written / 1e3:.1f} KB ({written} bytes), "
        "unchanged: 0 bytes written"
    )
    man = tmp_path / "content" / "rep" / "manifest.yaml"
    man.write_text(
        man.read_text().replace("title: Report", "title: Report again")
    )  # study.yaml only
    code, out, err = run(capsys, "rep", *args)
    size = (tmp_path / "data" / "rep" / "study.yaml").stat().st_size
    assert re.fullmatch(
        rf"rep: 3 run\(s\), 2 table\(s\), .* bytes\), 1 of \d+ file\(s\) changed: {size} bytes written",
        out.splitlines()[0],
    )
