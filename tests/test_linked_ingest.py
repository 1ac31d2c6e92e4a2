"""Linked metrics through the ingest (issue 13 §1 §2): the manifest's `linked:` is validated with
file:line, and the real LinkBench 2017 archive gives the load and hour 1 their vmstat/iostat on
the run's clock, with the misfits reported, never stretched."""
from __future__ import annotations

import json
import re
import shutil

import pytest
import yaml

from golden import ROOT, SHARED
from ingest.manifest import load
from ingest.problems import Problem
from ingest.study import ingest
from test_manifest import make_study

ARCHIVE = SHARED / "archives" / "mdcallag-linkbench-2017-inno5717-2m.tar.gz"


@pytest.mark.parametrize("linked, reason", [
    ("{vmstat: a.vm}", "runs[0].linked: missing field `interval_s`"),
    ("{vmstat: a.vm, interval_s: 0}", "runs[0].linked: `interval_s` must be a finite positive number"),
    ("{vmstat: a.vm, interval_s: .nan}", "is not a finite number"),
    ("{interval_s: 5}", "runs[0].linked: name at least one of vmstat, iostat, status"),
    ("{vmstat: a.vm, interval_s: 5, colour: red}", "runs[0].linked: unknown field `colour`"),
    ("{vmstat: '{nosuch.attr}', interval_s: 5}", "vmstat"),
    ("{vmstat: a.vm, interval_s: 5, panels: [1]}", "runs[0].linked: `panels` must be a list of metric names"),
])
def test_linked_is_validated_with_its_line(tmp_path, linked, reason):
    man = make_study(tmp_path, runs=f"  - regex: '(?P<name>[a-z])-(?P<threads>\\d+)\\.log'\n    linked: {linked}\n")
    with pytest.raises(Problem) as err:
        load(man)
    assert str(err.value).startswith(f"{man}:") and reason in str(err.value)


@pytest.fixture(scope="module")
def linkbench(tmp_path_factory):
    if not ARCHIVE.exists():
        pytest.skip(f"{ARCHIVE} is not at hand")
    data = tmp_path_factory.mktemp("data")
    res = ingest(ROOT / "content" / "posts" / "linkbench-cached" / "manifest.yaml", SHARED / "archives",
                 SHARED / "studies", data)
    return data / "linkbench-cached", res


def test_linked_files_for_the_runs_whose_monitors_were_kept(linkbench):
    study, _ = linkbench
    runs = {r["id"]: r for r in yaml.safe_load((study / "runs.yaml").read_text())["runs"]}
    assert set(r for r in runs if runs[r].get("linked")) == {"load", "request-hour-1"}
    for rid in ("load", "request-hour-1"):
        doc = json.loads((study / "series" / f"{rid}.linked.json").read_text())
        assert doc["columns"] == ["t", *runs[rid]["linked"]["columns"]]
        # samples end every 5 s from the run's start (declared interval, no offset): never stretched
        assert doc["t"][:3] == [5, 10, 15] and all(b - a == 5 for a, b in zip(doc["t"], doc["t"][1:]))
        assert {"vm.us", "vm.wa", "io.nvme0n1.w/s", "cpu_per_op"} <= set(doc["columns"])
        assert set(runs[rid]["linked"]["panels"]) <= set(doc["columns"])
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


def test_the_declared_clock_fits_and_a_wrong_one_is_reported(linkbench):
    """With the manifest's 5 s interval the monitors fit the runs (a tail of samples after the
    run's end within the tolerance is quiet); a wrong interval is reported with the file."""
    from ingest.linked import linked_series
    from ingest.parsers import by_name
    from golden import archive_text
    _, res = linkbench
    assert not [p for p in res["problems"] if "vmstat" in str(p) or "iostat" in str(p)]
    study, _ = linkbench
    doc = json.loads((study / "series" / "request-hour-1.json").read_text())
    vm = by_name("vmstat").parse(archive_text(ARCHIVE.name, "mdcallag-linkbench-2017-inno5717-2m/r.vm.in.L1.P1"), "r.vm.in.L1.P1").sessions[0]
    _, problems = linked_series(doc["t"], doc["requests/s"], interval_s=10, vmstat=("r.vm.in.L1.P1", vm))
    assert [str(p).split(":")[0] for p in problems] == ["r.vm.in.L1.P1", "r.vm.in.L1.P1"]
    assert "but the run lasts" in str(problems[0]) and "not stretched" in str(problems[0])
