"""dstat and mpstat -P ALL as linked monitors: their columns on a run's clock (`ds.*`,
`mp.<cpu>.*`), CPU per operation from them when there is no vmstat, dstat -t's clock times
(no year printed) joined by time, and both named in a manifest's `linked:` through the ingest.
Our own fixtures (tests/fixtures/dstat, mpstat) and our own run numbers."""

import json

import pytest
import yaml

from ingest.join.columns import column_meta
from ingest.join.linked import Clock, Monitors, linked_series
from ingest.parse import by_name
from ingest.pipeline import ingest
from tests.kit.golden import FIXTURES
from tests.kit.study_kit import archive_study

DSTAT = by_name("dstat").parse((FIXTURES / "dstat" / "default.txt").read_text(), "d.txt")
MPSTAT = by_name("mpstat").parse((FIXTURES / "mpstat" / "de-24h.txt").read_text(), "m.txt")


def test_dstat_columns_on_the_run_clock_and_cpu_per_op_from_them():
    s = DSTAT.sessions[0]
    run_t, ops = [1, 2, 3], [1000, 2000, 4000]
    out, problems, how = linked_series(
        run_t, ops, Clock(interval_s=1), Monitors(dstat=("d.txt", s), cores=8)
    )
    assert how == {"dstat": "offset"} and problems == []
    assert out["t"] == [1, 2, 3]
    assert out["ds.us"] == s.series["us"] and out["ds.dsk.writ"] == s.series["dsk.writ"]
    expected = [(us + sy) / 100 * 8 / o for us, sy, o in zip(s.series["us"], s.series["sy"], ops)]
    assert out["cpu_per_op"] == pytest.approx(expected, rel=1e-5)
    kb = [w / 1024 / o for w, o in zip(s.series["dsk.writ"], ops)]
    assert out["kb_written_per_op"] == pytest.approx(kb, rel=1e-5)
    assert column_meta("ds.us")["kind"] == "percent"
    assert column_meta("ds.dsk.writ")["unit"] == "B/s"


def test_mpstat_every_cpu_on_the_run_clock_a_lost_line_a_gap_and_its_cores():
    run_t, ops = [1, 2, 3], [500, 500, 500]
    out, problems, how = linked_series(
        run_t, ops, Clock(interval_s=1), Monitors(mpstat=("m.txt", MPSTAT.sessions))
    )
    assert how == {"mpstat": "offset"} and problems == []
    every = MPSTAT.sessions[0]
    assert out["mp.all.%usr"] == every.series["%usr"]
    assert out["mp.1.%usr"] == [11.0, None, 13.0]  # its second line did not read
    cores = every.meta["cpus"]
    expected = [
        (us + sy) / 100 * cores / 500 for us, sy in zip(every.series["%usr"], every.series["%sys"])
    ]
    assert out["cpu_per_op"] == pytest.approx(expected, rel=1e-5)
    assert column_meta("mp.all.%usr") == {
        "label": "CPU all usr (%, mpstat)",
        "unit": "%",
        "kind": "percent",
    }


def test_dstat_clock_times_join_by_time_in_the_year_of_the_run():
    s = by_name("dstat").parse((FIXTURES / "dstat" / "stamped.txt").read_text(), "ds.txt")
    run_t, ops = [1, 2, 3, 4], [100, 100, 100, 100]
    clock = Clock(interval_s=1, run_start="2026-03-13T05:33:43")
    out, problems, how = linked_series(run_t, ops, clock, Monitors(dstat=("ds.txt", s.sessions[0])))
    assert how == {"dstat": "timestamps"}
    assert out["t"] == [1, 2, 4]  # 05:33:44, :45, :47: the missing :46 stays missing


def test_dstat_across_new_year_takes_the_nearest_year():
    text = (
        "----system---- ----total-cpu-usage----\n"
        "     time     |usr sys idl wai stl\n"
        "31-12 23:59:58|  1   1  98   0   0\n"
        "31-12 23:59:59| 10   1  89   0   0\n"
        "01-01 00:00:00| 11   1  88   0   0\n"
    )
    s = by_name("dstat").parse(text, "ds.txt").sessions[0]
    clock = Clock(interval_s=1, run_start="2026-12-31T23:59:58")
    out, problems, how = linked_series([1, 2], [5, 5], clock, Monitors(dstat=("ds.txt", s)))
    assert how == {"dstat": "timestamps"} and out["t"] == [1, 2] and problems == []


def _dstat(busy: int, samples: int = 4) -> str:
    """dstat's default output: the since-boot row, then `samples` rows (us = busy + i)."""
    rows = "".join(
        f"{busy + i:3d}   5 {90 - busy - i:3d}   0   0|   0   {i}M|  2k   4k|   0     0 |  9k  20k\n"
        for i in range(samples + 1)
    )
    return (
        "----total-cpu-usage---- -dsk/total- -net/total- ---paging-- ---system--\n"
        "usr sys idl wai stl| read  writ| recv  send|  in   out | int   csw \n" + rows
    )


def _mpstat(busy: int, samples: int = 4, step: int = 5) -> str:
    """mpstat -P ALL: `samples` blocks `step` s apart, %usr = busy + i for all CPUs."""
    head = "10:00:00     CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle\n"
    blocks = ""
    for i in range(1, samples + 1):
        t = f"10:{step * i // 60:02d}:{step * i % 60:02d}"
        blocks += head.replace("10:00:00", t)
        for cpu in ("all", "0", "1"):
            blocks += f"{t}     {cpu:>3}   {busy + i}.00    0.00    2.00    0.00    0.00    0.00    0.00    0.00    0.00   50.00\n"
        blocks += "\n"
    return f"Linux 6.1.0 (db) \t2026-01-02 \t_x86_64_\t(2 CPU)\n\n{blocks}"


def test_a_run_links_its_dstat_and_mpstat_named_in_the_manifest(tmp_path):
    from tests.kit.sysbench_gen import sysbench_log

    members = {}
    for name, tps, busy in (("a", 500, 20), ("b", 800, 40)):
        members[f"{name}/run.log"] = sysbench_log(tps, seconds=20)
        members[f"{name}/dstat.txt"] = _dstat(busy)
        members[f"{name}/mpstat.txt"] = _mpstat(busy)
    man = archive_study(
        tmp_path,
        "mon",
        "Runs with dstat and mpstat",
        members,
        """\
interval_s: 1
window: {start: 1, end: 20}
labels: [name]
runs:
  - regex: '(?P<name>[a-z])/run\\.log'
    linked:
      dstat: '{name}/dstat.txt'
      mpstat: '{name}/mpstat.txt'
      interval_s: 5
      panels: ['ds.us', 'ds.dsk.writ', 'mp.all.%usr']
files:
  - {glob: '*/dstat.txt', format: dstat}
  - {glob: '*/mpstat.txt', format: mpstat}
""",
    )
    ingest(man, tmp_path / "archives", tmp_path / "studies", tmp_path / "data")
    data = tmp_path / "data" / "mon"
    runs = {
        r["labels"]["name"]: r for r in yaml.safe_load((data / "runs.yaml").read_text())["runs"]
    }
    for name, busy in (("a", 20), ("b", 40)):
        linked = runs[name]["linked"]
        assert linked["files"] == [f"{name}/dstat.txt", f"{name}/mpstat.txt"]
        series = json.loads((data / "series" / f"{runs[name]['id']}.linked.json").read_text())
        assert series["t"] == [5, 10, 15, 20]
        assert series["ds.us"] == [busy + i for i in range(1, 5)]  # the first row: since boot
        assert series["ds.dsk.writ"] == [i * 1024**2 for i in range(1, 5)]
        assert series["mp.all.%usr"] == [busy + i for i in range(1, 5)]


def test_make_new_proposes_dstat_and_mpstat_beside_each_run(tmp_path):
    """A folder per run with its sysbench log, dstat and mpstat: the draft links both (read by
    `files:` rules of their formats), with dstat's CPU panels and the CPU per operation (the
    cores from mpstat's banner), and the ingest puts them on each run's clock."""
    from ingest.__main__ import main
    from tests.kit.sysbench_gen import sysbench_log, tar_gz

    members = {}
    for engine, busy in (("innodb", 30), ("rocksdb", 50)):
        members[f"{engine}/sysbench.log"] = sysbench_log(500, seconds=30)
        members[f"{engine}/dstat.txt"] = _dstat(busy, samples=30)
        members[f"{engine}/mpstat.txt"] = _mpstat(busy, samples=30, step=1)
    members["myisam/sysbench.log"] = sysbench_log(400, seconds=30)
    members["myisam/dstat.txt"] = ""  # empty: its files: rule skips it
    members["myisam/mpstat.txt"] = _mpstat(10, samples=30, step=1)
    tar_gz(tmp_path / "s.tar.gz", members)
    posts = tmp_path / "posts"
    assert main(["new", "s", str(tmp_path / "s.tar.gz"), "--content", str(posts)]) == 0
    man = yaml.safe_load((posts / "s" / "manifest.yaml").read_text())
    linked = man["runs"][0]["linked"]
    assert linked["dstat"] == "{engine}/dstat.txt" and linked["mpstat"] == "{engine}/mpstat.txt"
    assert linked["interval_s"] == 1
    assert linked["panels"] == ["ds.us", "ds.wa", "ds.cs", "cpu_per_op"]
    assert {"glob": "*/dstat.txt", "format": "dstat", "incomplete": "skip"} in man["files"]
    assert {"glob": "*/mpstat.txt", "format": "mpstat"} in man["files"]
    data = ["--archives", str(tmp_path), "--data", str(tmp_path / "data")]
    assert main(["s", "--content", str(posts), *data]) == 0
    for run in yaml.safe_load((tmp_path / "data" / "s" / "runs.yaml").read_text())["runs"]:
        series = json.loads(
            (tmp_path / "data" / "s" / "series" / f"{run['id']}.linked.json").read_text()
        )
        if run["labels"]["engine"] == "myisam":
            assert "ds.us" not in series
            continue
        busy = 30 if run["labels"]["engine"] == "innodb" else 50
        assert series["ds.us"] == [busy + i for i in range(1, 31)]
        assert all(v is not None for v in series["cpu_per_op"])


def test_an_empty_monitor_file_is_skipped_when_its_files_rule_says_so(tmp_path):
    """An empty dstat beside one run: with `incomplete: skip` on its `files:` rule it is
    reported and that run keeps its mpstat columns, without dstat's."""
    from tests.kit.sysbench_gen import sysbench_log

    members = {}
    for name, busy in (("a", 20), ("b", 40)):
        members[f"{name}/run.log"] = sysbench_log(500, seconds=20)
        members[f"{name}/dstat.txt"] = _dstat(busy) if name == "a" else ""
        members[f"{name}/mpstat.txt"] = _mpstat(busy)
    man = archive_study(
        tmp_path,
        "mon",
        "Runs with an empty dstat",
        members,
        """\
interval_s: 1
window: {start: 1, end: 20}
labels: [name]
runs:
  - regex: '(?P<name>[a-z])/run\\.log'
    linked: {dstat: '{name}/dstat.txt', mpstat: '{name}/mpstat.txt', interval_s: 5, columns: all}
files:
  - {glob: '*/dstat.txt', format: dstat, incomplete: skip}
  - {glob: '*/mpstat.txt', format: mpstat}
""",
    )
    result = ingest(man, tmp_path / "archives", tmp_path / "studies", tmp_path / "data")
    assert [str(p) for p in result["problems"] if "dstat" in p.file] == [
        "mon.tar.gz/b/dstat.txt: empty file; skipped (incomplete: skip)"
    ]
    data = tmp_path / "data" / "mon"
    runs = {
        r["labels"]["name"]: r for r in yaml.safe_load((data / "runs.yaml").read_text())["runs"]
    }
    b = json.loads((data / "series" / f"{runs['b']['id']}.linked.json").read_text())
    assert b["mp.all.%usr"] == [41, 42, 43, 44] and "ds.us" not in b
