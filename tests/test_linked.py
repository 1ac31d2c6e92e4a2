"""Linked metrics (issue 13 §1 §2): OS series on a run's clock, spans checked, per-interval
efficiency. Our own fixtures (tests/fixtures/vmstat, iostat) and our own run numbers."""
import pytest

from golden import FIXTURES
from ingest.linked import check_span, linked_series, ops_per_interval, place
from ingest.parsers import by_name

VMSTAT = by_name("vmstat").parse((FIXTURES / "vmstat" / "repeat.txt").read_text(), "repeat.txt").sessions[0]
IOSTAT = by_name("iostat").parse((FIXTURES / "iostat" / "comma.txt").read_text(), "comma.txt").sessions


def test_samples_end_at_offset_plus_i_intervals():
    assert place(3, 5, 0) == [5, 10, 15]
    assert place(2, 10, -20) == [-10, 0]


def test_a_span_within_tolerance_is_quiet_and_beyond_it_is_reported():
    run_t = [float(i) for i in range(1, 31)]          # a 30 s run
    assert check_span("vm", "vmstat", place(6, 5, 0), run_t, 5, 10) == []
    problems = check_span("vm", "vmstat", place(9, 5, 0), run_t, 5, 10)   # 45 s of samples
    assert [str(p) for p in problems] == [
        "vm: vmstat: 9 samples x 5 s = 45 s, but the run lasts 30 s (tolerance 10 s): check interval_s/offset_s; "
        "the samples are kept at their declared times, not stretched",
        "vm: vmstat: 3 sample(s) fall outside the run (0, 30] s"]


def test_throughput_per_os_interval_weights_the_overlap():
    run_t, ops = [10, 20, 30], [100, 200, None]
    assert ops_per_interval(run_t, ops, [5, 10, 15, 20], 5) == [100, 100, 200, 200]
    assert ops_per_interval(run_t, ops, [12.5], 5) == [150]     # half in each run interval
    assert ops_per_interval(run_t, ops, [25, 30], 5) == [None, None]   # missing is missing, not 0


def test_linked_series_on_the_run_clock_with_efficiency():
    run_t = [5, 10, 15]
    ops = [1000, 2000, 4000]
    out, problems = linked_series(run_t, ops, interval_s=5, vmstat=("vm", VMSTAT), iostat=("io", IOSTAT))
    assert problems == []
    assert out["t"] == [5, 10, 15]
    assert out["vm.us"] == VMSTAT.series["us"]
    cores = next(s.meta["cpus"] for s in IOSTAT if s.meta.get("cpus"))
    expected = [(us + sy) / 100 * cores / o for us, sy, o in zip(VMSTAT.series["us"], VMSTAT.series["sy"], ops)]
    assert out["cpu_per_op"] == pytest.approx(expected, rel=1e-5)
    sda = next(s for s in IOSTAT if s.meta.get("device") == "sda")
    assert len(sda.series["wkB/s"]) == 1          # the fixture has one report after the since-boot one
    assert out["io.sda.wMB/s"] == [pytest.approx(sda.series["wkB/s"][0] / 1024, abs=1e-3), None, None]
    assert out["kb_written_per_op"][0] == pytest.approx(sda.series["wkB/s"][0] / ops[0], rel=1e-3)


def test_status_rates_join_on_their_own_clock():
    status = by_name("global-status").parse((FIXTURES / "global-status" / "periodic.txt").read_text(),
                                            "periodic.txt").sessions[0]
    out, problems = linked_series([10, 20, 30], [5, 5, 5], interval_s=10, status=("st", status), offset_s=0)
    assert out["t"] == status.series["t"]
    assert out["st.com_select"] == status.series["com_select"]
    assert problems == []
