"""Linked metrics: OS series on a run's clock, spans checked, per-interval
efficiency. Our own fixtures (tests/fixtures/vmstat, iostat) and our own run numbers."""

import pytest

from ingest.join.linked import (
    Clock,
    Monitors,
    check_span,
    linked_series,
    ops_per_interval,
    place,
    tolerance,
)
from ingest.parse import by_name
from tests.kit.golden import FIXTURES

VMSTAT = (
    by_name("vmstat")
    .parse((FIXTURES / "vmstat" / "repeat.txt").read_text(), "repeat.txt")
    .sessions[0]
)
IOSTAT = (
    by_name("iostat").parse((FIXTURES / "iostat" / "comma.txt").read_text(), "comma.txt").sessions
)


def test_samples_end_at_offset_plus_i_intervals():
    assert place(3, 5, 0) == [5, 10, 15]
    assert place(2, 10, -20) == [-10, 0]


def test_a_series_ending_with_the_run_is_quiet_and_one_ending_later_is_reported_at_its_last_line():
    assert check_span("vm", "vmstat", place(6, 5, 0), 30, 5, 10) == []  # a 30 s run, 6 x 5 s
    problems = check_span(
        "vm", "vmstat", place(9, 5, 0), 30, 5, 10, lines=list(range(3, 12))
    )  # 45 s of samples
    assert [str(p) for p in problems] == [
        "vm:11: vmstat: its last sample ends at 45 s of the run (offset_s 0 + 9 x 5 s), but the run ends at 30 s "
        "(+15 s, tolerance 10 s): check interval_s/offset_s; the samples are kept at their declared times, "
        "not shifted or stretched"
    ]
    # a monitor started with a warm-up the run excludes: by its offset it ends with the run
    assert check_span("vm", "vmstat", place(9, 5, -15), 30, 5, 10) == []


def test_the_default_tolerance_is_two_samples_whatever_the_run_length():
    """2 % of an hour-long run (72 s) would hide a whole 60 s warm-up: the default is samples."""
    assert tolerance(5) == 10 and tolerance(5, 30) == 30
    run_t = [10.0 * i for i in range(1, 361)]  # an hour, 10 s intervals
    _, problems, _ = linked_series(
        run_t, [100.0] * 360, Clock(interval_s=5), Monitors(vmstat=("vm", _vm(732)))
    )  # 3,660 s of samples
    assert [str(p).split(": ")[1] for p in problems] == ["vmstat"]
    assert "+60 s, tolerance 10 s" in str(problems[0])
    out, problems, _ = linked_series(
        run_t, [100.0] * 360, Clock(interval_s=5, offset_s=-60), Monitors(vmstat=("vm", _vm(732)))
    )
    assert problems == [] and out["t"][0] == -55 and out["t"][-1] == 3600


def _vm(n):
    from ingest.parse.base import Session

    return Session(
        series={"t": list(range(n)), "us": [10] * n, "sy": [2] * n},
        sample_lines=list(range(3, n + 3)),
    )


def test_throughput_per_os_interval_weights_the_overlap():
    run_t, ops = [10, 20, 30], [100, 200, None]
    assert ops_per_interval(run_t, ops, [5, 10, 15, 20], 5) == [100, 100, 200, 200]
    assert ops_per_interval(run_t, ops, [12.5], 5) == [150]  # half in each run interval
    assert ops_per_interval(run_t, ops, [25, 30], 5) == [None, None]  # missing is missing, not 0


def test_linked_series_on_the_run_clock_with_efficiency():
    run_t = [5, 10, 15]
    ops = [1000, 2000, 4000]
    out, problems, _ = linked_series(
        run_t, ops, Clock(interval_s=5), Monitors(vmstat=("vm", VMSTAT), iostat=("io", IOSTAT))
    )
    assert problems == []
    assert out["t"] == [5, 10, 15]
    assert out["vm.us"] == VMSTAT.series["us"]
    cores = next(s.meta["cpus"] for s in IOSTAT if s.meta.get("cpus"))
    expected = [
        (us + sy) / 100 * cores / o
        for us, sy, o in zip(VMSTAT.series["us"], VMSTAT.series["sy"], ops)
    ]
    assert out["cpu_per_op"] == pytest.approx(expected, rel=1e-5)
    sda = next(s for s in IOSTAT if s.meta.get("device") == "sda")
    assert len(sda.series["wkB/s"]) == 1  # the fixture has one report after the since-boot one
    assert out["io.sda.wMB/s"] == [
        pytest.approx(sda.series["wkB/s"][0] / 1024, abs=1e-3),
        None,
        None,
    ]
    assert out["kb_written_per_op"][0] == pytest.approx(sda.series["wkB/s"][0] / ops[0], rel=1e-3)


def test_status_rates_join_on_their_own_clock():
    status = (
        by_name("global-status")
        .parse((FIXTURES / "global-status" / "periodic.txt").read_text(), "periodic.txt")
        .sessions[0]
    )
    out, problems, _ = linked_series(
        [10, 20, 30], [5, 5, 5], Clock(interval_s=10, offset_s=0), Monitors(status=("st", status))
    )
    assert out["t"] == status.series["t"]
    assert out["st.com_select"] == status.series["com_select"]
    assert problems == []


def test_server_status_ending_after_the_run_is_reported_at_its_last_snapshot():
    """A span problem names the line of the status dump's last snapshot, as vmstat's and
    iostat's name their last sample's (file:line: reason)."""
    text = (FIXTURES / "global-status" / "periodic.txt").read_text()
    status = by_name("global-status").parse(text, "periodic.txt").sessions[0]
    assert len(status.sample_lines) == len(status.series["t"])
    end = status.series["t"][-1]
    _, problems, _ = linked_series(
        [1.0, 2.0], [5, 5], Clock(interval_s=1, offset_s=0), Monitors(status=("st.txt", status))
    )
    assert [str(p).split(": ")[0] for p in problems] == [f"st.txt:{status.sample_lines[-1]}"]
    assert f"its last sample ends at {end:g} s of the run" in str(problems[0])
    last_snapshot = text.splitlines()[status.sample_lines[-1] - 1]
    assert last_snapshot.strip(), last_snapshot


def test_column_meta_takes_gauges_from_the_server_status_parser():
    """One list of gauges (ingest/parse/server_status.py GAUGES) for the ingest and the chart:
    a level is never titled a rate."""
    from ingest.join.columns import column_meta, meta_of
    from ingest.parse.server_status import GAUGES

    for counter in (
        "threads_running",
        "innodb_buffer_pool_pages_dirty",
        "innodb_row_lock_current_waits",
        "innodb_history_list_length",
        "max_used_connections",
    ):
        assert GAUGES.match(counter)
        assert column_meta(f"st.{counter}") == {"label": counter, "unit": "", "kind": "gauge"}
    assert column_meta("st.com_select") == {"label": "com_select/s", "unit": "/s", "kind": "rate"}
    assert column_meta("io.nvme0n1.wMB/s") == {
        "label": "nvme0n1 MB written/s",
        "unit": "MB/s",
        "kind": "rate",
    }
    assert column_meta("vm.r")["kind"] == "gauge" and column_meta("reconn_s")["unit"] == "/s"
    assert meta_of(["t", "tps", "lat_ms", "mystery"], "tps") == {
        "tps": {"label": "tps", "unit": "/s", "kind": "throughput"},
        "lat_ms": {"label": "latency (ms)", "unit": "ms", "kind": "latency"},
    }


def test_the_latency_column_names_the_percentile_sysbench_printed():
    """sysbench prints one percentile per interval (`lat (ms,95%)`, set by --percentile): the
    column's label says which, so a panel never reads as plain latency."""
    from ingest.join.columns import column_meta

    assert column_meta("lat_ms", "tps", 95)["label"] == "p95 latency (ms)"
    assert column_meta("lat_ms", "tps", 99.9)["label"] == "p99.9 latency (ms)"
    assert column_meta("lat_ms", "tps")["label"] == "latency (ms)"
    import json

    from tests.kit.golden import ROOT

    doc = json.loads((ROOT / "data/myrocks-cloud-cost/series/rocksdb-10000gp2-54.json").read_text())
    assert doc["meta"]["lat_ms"]["label"] == "p95 latency (ms)"


def test_sar_joins_on_the_run_clock_and_gives_cpu_per_op_with_its_cores():
    """sar's whole-machine columns as `sar.<name>`, placed by offset and interval; the CPU per
    operation from %user + %system and the banner's `(N CPU)` when there is no vmstat."""
    sar = by_name("sar").parse((FIXTURES / "sar" / "de-cpu-memory.txt").read_text(), "sar.txt")
    cpu, memory = sar.sessions
    run_t, ops = [5, 10, 15], [1000, 2000, 4000]
    out, problems, how = linked_series(
        run_t, ops, Clock(interval_s=5), Monitors(sar=("sar", sar.sessions))
    )
    assert problems == [] and how == {"sar": "offset"}
    assert out["t"] == [5, 10, 15]
    assert out["sar.%iowait"] == cpu.series["%iowait"]
    assert out["sar.kbmemused"] == memory.series["kbmemused"]
    cores = cpu.meta["cpus"]
    expected = [
        (us + sy) / 100 * cores / o
        for us, sy, o in zip(cpu.series["%user"], cpu.series["%system"], ops)
    ]
    assert out["cpu_per_op"] == pytest.approx(expected, rel=1e-5)
