"""Linked metrics through the ingest: the manifest's `linked:` is validated with
file:line, and the real LinkBench 2017 archive gives the load and hour 1 their vmstat/iostat on
the run's clock, with the misfits reported, never stretched."""

from __future__ import annotations

import json

import pytest
import yaml

from ingest.pipeline import ingest
from ingest.problems import Problem
from ingest.read.manifest import load
from tests.kit.golden import ROOT, SHARED
from tests.kit.study_kit import archive_study, make_study

ARCHIVE = SHARED / "archives" / "mdcallag-linkbench-2017-inno5717-2m.tar.gz"


@pytest.mark.parametrize(
    "linked, reason",
    [
        ("{vmstat: a.vm}", "runs[0].linked: missing field `interval_s`"),
        (
            "{vmstat: a.vm, interval_s: 0}",
            "runs[0].linked: `interval_s` must be a finite positive number",
        ),
        ("{vmstat: a.vm, interval_s: .nan}", "is not a finite number"),
        ("{interval_s: 5}", "runs[0].linked: name at least one of vmstat, iostat, status"),
        ("{vmstat: a.vm, interval_s: 5, colour: red}", "runs[0].linked: unknown field `colour`"),
        ("{vmstat: '{nosuch.attr}', interval_s: 5}", "vmstat"),
        (
            "{vmstat: a.vm, interval_s: 5, panels: [1]}",
            "runs[0].linked: `panels` must be a list of metric names",
        ),
        (
            "{vmstat: a.vm, interval_s: 5, offset_s: warmup}",
            "runs[0].linked: `offset_s` must be a number of seconds, phase-start",
        ),
    ],
)
def test_linked_is_validated_with_its_line(tmp_path, linked, reason):
    man = make_study(
        tmp_path,
        runs=f"  - regex: '(?P<name>[a-z])-(?P<threads>\\d+)\\.log'\n    linked: {linked}\n",
    )
    with pytest.raises(Problem) as err:
        load(man)
    assert str(err.value).startswith(f"{man}:") and reason in str(err.value)


@pytest.fixture(scope="module")
def linkbench(tmp_path_factory):
    if not ARCHIVE.exists():
        pytest.skip(f"{ARCHIVE} is not at hand")
    data = tmp_path_factory.mktemp("data")
    res = ingest(
        ROOT / "content" / "posts" / "linkbench-hourly-2017" / "manifest.yaml",
        SHARED / "archives",
        SHARED / "studies",
        data,
    )
    return data / "linkbench-hourly-2017", res


def test_linked_files_for_the_runs_whose_monitors_were_kept(linkbench):
    study, _ = linkbench
    runs = {r["id"]: r for r in yaml.safe_load((study / "runs.yaml").read_text())["runs"]}
    assert set(r for r in runs if runs[r].get("linked")) == {"load", "request-hour-1"}
    for rid in ("load", "request-hour-1"):
        doc = json.loads((study / "series" / f"{rid}.linked.json").read_text())
        assert doc["columns"] == ["t", *runs[rid]["linked"]["columns"]]
        # samples end every 5 s from where the monitors started (declared interval): never stretched
        steps = {round(b - a, 6) for a, b in zip(doc["t"], doc["t"][1:])}
        assert steps == {5}
        assert doc["t"][0] == pytest.approx(runs[rid]["linked"]["offset_s"] + 5)
        assert {"vm.us", "vm.wa", "io.nvme0n1.w/s", "cpu_per_op"} <= set(doc["columns"])
        # a panel is a linked metric or one of the run's own columns (hour 1's latency and errors)
        assert set(runs[rid]["linked"]["panels"]) <= set(doc["columns"]) | set(
            runs[rid]["columns"][2:]
        )
    assert runs["request-hour-1"]["linked"]["panels"][:2] == ["lat.GET_LINKS_LIST.p95", "err_s"]
    assert not (study / "series" / "request-hour-24.linked.json").exists()


def test_per_interval_cpu_agrees_with_the_window_figure(linkbench):
    """The mean of the per-sample CPU per query is close to the window's CPU per query (a ratio
    of means; the two differ only by how throughput varies within the hour)."""
    study, _ = linkbench
    doc = json.loads((study / "series" / "request-hour-1.linked.json").read_text())
    hw = yaml.safe_load((study / "tables" / "hw-per-op.yaml").read_text())["rows"]
    window_us = next(r for r in hw if r["phase"] == "Hour 1")["cpu_us_per_op"]
    values = [v for v in doc["cpu_per_op"] if v is not None]
    assert len(values) > 700
    assert sum(values) / len(values) * 1e6 == pytest.approx(window_us, rel=0.02)


def test_hour_1s_monitors_start_with_the_warm_up_and_end_with_the_run(linkbench):
    """vmstat/iostat ran with the whole request phase, its 60 s warm-up included (732 samples x
    5 s = 3,660 s), while the run's t = 0 is the end of the warm-up: `offset_s: phase-start`
    places sample 1 where the log says the phase began, so the linked series ends within one
    sample of the run's end (the log's REQUEST PHASE COMPLETED), not 60 s after it."""
    study, res = linkbench
    run = next(
        r
        for r in yaml.safe_load((study / "runs.yaml").read_text())["runs"]
        if r["id"] == "request-hour-1"
    )
    doc = json.loads((study / "series" / "request-hour-1.linked.json").read_text())
    assert run["linked"]["offset_from"] == "phase-start"
    assert run["linked"]["offset_s"] == run["phase_s"]["start"] == pytest.approx(-60, abs=1)
    assert len(doc["t"]) == 732
    assert abs(doc["t"][-1] - run["phase_s"]["end"]) <= run["linked"]["interval_s"]
    assert abs(doc["t"][-1] - run["end_s"]) <= 2 * run["linked"]["interval_s"]
    # the warm-up's samples have no throughput to divide by: no per-op figure, never 0
    warm = [v for t, v in zip(doc["t"], doc["cpu_per_op"]) if t <= 0]
    assert len(warm) == int(-run["phase_s"]["start"] // 5) and set(warm) == {None}


def test_the_declared_clock_fits_and_a_wrong_one_is_reported(linkbench):
    """With the manifest's clock the monitors fit the runs; the old clock (offset 0: the warm-up
    counted as the run, 60 s late) and a wrong interval are reported at the last sample's line."""
    from ingest.join.linked import Clock, Monitors, linked_series
    from ingest.parse import by_name
    from tests.kit.golden import archive_text

    _, res = linkbench
    assert not [p for p in res["problems"] if "vmstat" in str(p) or "iostat" in str(p)]
    study, _ = linkbench
    doc = json.loads((study / "series" / "request-hour-1.json").read_text())
    run = next(
        r
        for r in yaml.safe_load((study / "runs.yaml").read_text())["runs"]
        if r["id"] == "request-hour-1"
    )
    vm = (
        by_name("vmstat")
        .parse(
            archive_text(ARCHIVE.name, "mdcallag-linkbench-2017-inno5717-2m/r.vm.in.L1.P1"),
            "r.vm.in.L1.P1",
        )
        .sessions[0]
    )
    _, problems, _ = linked_series(
        doc["t"],
        doc["requests/s"],
        Clock(interval_s=5, run_end=run["phase_s"]["end"]),
        Monitors(vmstat=("r.vm.in.L1.P1", vm)),
    )
    assert [str(p).split(": ")[0] for p in problems] == [f"r.vm.in.L1.P1:{vm.sample_lines[-1]}"]
    assert "ends at 3660 s" in str(problems[0]) and "not shifted or stretched" in str(problems[0])
    _, problems, _ = linked_series(
        doc["t"],
        doc["requests/s"],
        Clock(interval_s=10, offset_s=run["linked"]["offset_s"]),
        Monitors(vmstat=("r.vm.in.L1.P1", vm)),
    )
    assert len(problems) == 1 and "check interval_s/offset_s" in str(problems[0])


def test_a_run_links_its_sar_report_named_in_the_manifest(tmp_path):
    """sysbench runs with a sar report beside each: `files:` reads them (format sar), and
    `linked: {sar: ...}` puts their columns on each run's clock with the panels asked for."""
    from tests.kit.sysbench_gen import sysbench_log

    def sar_report(busy: int) -> str:
        rows = "".join(
            f"10:00:{5 * i:02d}        all     {busy + i}.00      0.00      2.00      {i}.50      0.00     50.00\n"
            for i in range(1, 5)
        )
        head = "10:00:00        CPU     %user     %nice   %system   %iowait    %steal     %idle\n"
        return f"Linux 6.1.0 (db) \t2025-01-02 \t_x86_64_\t(4 CPU)\n\n{head}{rows}"

    members = {}
    for name, tps, busy in (("a", 500, 20), ("b", 800, 40)):
        members[f"{name}/run.log"] = sysbench_log(tps, seconds=20)
        members[f"{name}/sar.txt"] = sar_report(busy)
    man = archive_study(
        tmp_path,
        "sar",
        "Runs with sar",
        members,
        """\
interval_s: 1
window: {start: 1, end: 20}
labels: [name]
runs:
  - regex: '(?P<name>[a-z])/run\\.log'
    linked: {sar: '{name}/sar.txt', interval_s: 5, panels: ['sar.%user', 'sar.%iowait']}
files:
  - {glob: '*/sar.txt', format: sar}
""",
    )
    result = ingest(man, tmp_path / "archives", tmp_path / "studies", tmp_path / "data")
    data = tmp_path / "data" / "sar"
    runs = {
        r["labels"]["name"]: r for r in yaml.safe_load((data / "runs.yaml").read_text())["runs"]
    }
    for name, busy in (("a", 20), ("b", 40)):
        linked = runs[name]["linked"]
        assert linked["panels"] == ["sar.%user", "sar.%iowait"] and linked["files"] == [
            f"{name}/sar.txt"
        ]
        series = json.loads((data / "series" / f"{runs[name]['id']}.linked.json").read_text())
        assert series["t"] == [5, 10, 15, 20]
        assert series["sar.%user"] == [busy + i for i in range(1, 5)]
        assert series["sar.%iowait"] == [i + 0.5 for i in range(1, 5)]
    assert not [p for p in result["problems"] if "sar" in p.reason]


def _two_folders(tmp_path, body: str, early: dict[str, int]):
    """Two sysbench runs of 20 s, each with a `vmstat 1` that started `early[name]` s before
    its run and stopped with it; `body`: the manifest after the inputs."""
    from tests.kit.archive_gen import vmstat_text
    from tests.kit.sysbench_gen import sysbench_log

    members = {}
    for name, tps in (("a", 500), ("b", 800)):
        members[f"{name}/run.log"] = sysbench_log(tps, seconds=20)
        members[f"{name}/vm.txt"] = vmstat_text(20 + early[name], seed=len(name))
    return archive_study(tmp_path, "mon", "Runs with vmstat", members, body)


HEAD = """\
interval_s: 1
window: {start: 1, end: 20}
labels: [name]
"""


def test_linked_declared_once_is_inherited_by_every_rule(tmp_path):
    """A top-level `linked:` is each rule's, its keys overridden by the rule's own; monitors
    started 3 and 11 s before their runs and stopped with them are placed by `run-end`, each
    run by its own offset, and end where the run ends (nothing reported)."""
    man = _two_folders(
        tmp_path,
        HEAD
        + """\
linked: {vmstat: '{name}/vm.txt', interval_s: 1, offset_s: run-end, panels: [vm.us]}
runs:
  - regex: '(?P<name>a)/run\\.log'
  - regex: '(?P<name>b)/run\\.log'
    linked: {panels: [vm.us, vm.cs]}
files:
  - {glob: '*/vm.txt', format: vmstat}
""",
        {"a": 3, "b": 11},
    )
    m = load(man)
    assert [r.linked["panels"] for r in m.runs] == [["vm.us"], ["vm.us", "vm.cs"]]
    assert all(r.linked["vmstat"] == "{name}/vm.txt" for r in m.runs)
    result = ingest(man, tmp_path / "archives", tmp_path / "studies", tmp_path / "data")
    runs = yaml.safe_load((tmp_path / "data" / "mon" / "runs.yaml").read_text())["runs"]
    got = {r["labels"]["name"]: r["linked"] for r in runs}
    assert got["a"]["offset_s"] == -3 and got["b"]["offset_s"] == -11
    assert got["a"]["offset_from"] == "run-end"
    for r in runs:
        series = json.loads(
            (tmp_path / "data" / "mon" / "series" / f"{r['id']}.linked.json").read_text()
        )
        assert series["t"][-1] == 20
    assert not [p for p in result["problems"] if "vm.txt" in (p.file or "") or "linked" in p.reason]


@pytest.mark.parametrize(
    "top, rule, reason",
    [
        (
            "linked: {vmstat: a.vm, interval_s: -1}\n",
            "",
            ":8: manifest.linked: `interval_s` must be a finite positive",
        ),
        ("linked: [a]\n", "", ":8: manifest: `linked` must be a mapping"),
        (
            "linked: {vmstat: a.vm, interval_s: 1}\n",
            "    linked: {offset_s: later}\n",
            ":11: runs[0].linked: `offset_s` must be",
        ),
        ("linked: {interval_s: 1}\n", "", ":8: runs[0].linked: name at least one of"),
    ],
)
def test_linked_declared_once_is_validated_at_its_line(tmp_path, top, rule, reason):
    man = archive_study(
        tmp_path,
        "mon",
        "Monitors",
        {"a/run.log": "x"},
        HEAD + top + "runs:\n  - regex: '(?P<name>a)/run\\.log'\n" + rule,
    )
    with pytest.raises(Problem) as err:
        load(man)
    assert f"{man}{reason}" in str(err.value), str(err.value)


def test_a_rule_may_opt_out_of_the_linked_default(tmp_path):
    man = _two_folders(
        tmp_path,
        HEAD
        + """\
linked: {vmstat: '{name}/vm.txt', interval_s: 1}
runs:
  - regex: '(?P<name>a)/run\\.log'
  - regex: '(?P<name>b)/run\\.log'
    linked: false
""",
        {"a": 0, "b": 0},
    )
    assert [r.linked is not None for r in load(man).runs] == [True, False]


# seconds each monitor started before its run, by run: four moments, none shared
LEADS = {
    "a": {"vmstat": 3, "iostat": 11, "dstat": 17, "mpstat": 24},
    "b": {"vmstat": 20, "iostat": 0, "dstat": 6, "mpstat": 13},
}
FIRST = {"vmstat": "vm.us", "iostat": "io.nvme0n1.w/s", "dstat": "ds.us", "mpstat": "mp.all.%usr"}


def _first(parsed, tool: str) -> float:
    """The first sample, as the monitor's parser reads it, of the column FIRST names."""
    if tool == "iostat":
        return next(s for s in parsed.sessions if s.meta.get("device") == "nvme0n1").series["w/s"][
            0
        ]
    if tool == "mpstat":
        return next(s for s in parsed.sessions if s.meta.get("item") == "all").series["%usr"][0]
    return parsed.sessions[0].series["us"][0]


def _monitor(tool: str, began, samples: int, rnd) -> str:
    """A monitor's text of `samples` samples from `began`, as the generator writes it."""
    from tests.kit import versions_gen as gen

    if tool == "vmstat":
        return gen.vmstat(samples, rnd)
    if tool == "dstat":
        return gen.dstat(began, samples + 1, rnd)  # its first row is since boot
    return getattr(gen, tool)(began, samples, rnd)


def test_run_end_places_each_monitor_by_its_own_samples(tmp_path):
    """Four monitors beside each run, started at four different moments before it and stopped
    with it: `offset_s: run-end` gives each monitor of each run its own offset (its samples x
    interval before the run's end), so every first sample lands where it was taken and no
    monitor is reported past the run's end."""
    from datetime import datetime, timedelta
    from random import Random

    from ingest.parse import by_name
    from tests.kit.sysbench_gen import sysbench_log

    seconds, start = 30, datetime(2026, 3, 13, 5, 30)
    members, parsed = {}, {}
    for name, tps in (("a", 500), ("b", 800)):
        members[f"{name}/run.log"] = sysbench_log(tps, seconds=seconds)
        for tool, lead in LEADS[name].items():
            text = _monitor(tool, start - timedelta(seconds=lead), seconds + lead, Random(lead))
            members[f"{name}/{tool}.txt"] = text
            parsed[name, tool] = by_name(tool).parse(text, f"{name}/{tool}.txt")
    man = archive_study(
        tmp_path,
        "mon",
        "Runs with four monitors",
        members,
        HEAD.replace("end: 20", f"end: {seconds}")
        + """\
linked:
  vmstat: '{name}/vmstat.txt'
  iostat: '{name}/iostat.txt'
  dstat: '{name}/dstat.txt'
  mpstat: '{name}/mpstat.txt'
  interval_s: 1
  offset_s: run-end
  columns: all
runs:
  - regex: '(?P<name>[a-z])/run\\.log'
files:
  - {glob: '*/vmstat.txt', format: vmstat}
  - {glob: '*/iostat.txt', format: iostat}
  - {glob: '*/dstat.txt', format: dstat}
  - {glob: '*/mpstat.txt', format: mpstat}
""",
    )
    result = ingest(man, tmp_path / "archives", tmp_path / "studies", tmp_path / "data")
    assert not [p for p in result["problems"] if "its last sample ends at" in p.reason]
    data = tmp_path / "data" / "mon"
    for r in yaml.safe_load((data / "runs.yaml").read_text())["runs"]:
        name, linked = r["labels"]["name"], r["linked"]
        leads = LEADS[name]
        assert linked["offset_from"] == "run-end"
        assert linked["offsets_s"] == {k: -lead for k, lead in leads.items()}
        assert linked["offset_s"] == -max(leads.values())
        doc = json.loads((data / "series" / f"{r['id']}.linked.json").read_text())
        for tool, column in FIRST.items():
            first = next(i for i, v in enumerate(doc[column]) if v is not None)
            assert doc["t"][first] == 1 - leads[tool], (name, tool)
            assert doc[column][first] == pytest.approx(_first(parsed[name, tool], tool), rel=1e-3)
            last = max(i for i, v in enumerate(doc[column]) if v is not None)
            assert doc["t"][last] == seconds
