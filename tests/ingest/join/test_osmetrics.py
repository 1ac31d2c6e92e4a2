"""ingest.join.osmetrics on our vmstat/iostat fixtures: the join by interval index and the per-op
figures, worked out by hand from the fixtures' own numbers."""

import pytest

from ingest.join import osmetrics
from ingest.parse import by_name
from tests.kit.golden import FIXTURES


@pytest.fixture(scope="module")
def vmstat():
    return (
        by_name("vmstat")
        .parse((FIXTURES / "vmstat" / "repeat.txt").read_text(), "repeat.txt")
        .sessions[0]
    )


@pytest.fixture(scope="module")
def iostat():
    return (
        by_name("iostat")
        .parse((FIXTURES / "iostat" / "sysstat11.txt").read_text(), "sysstat11.txt")
        .sessions
    )


def test_on_run_clock():
    series = {"t": [1, 2, 3], "cs": [10, 20, 30]}
    assert osmetrics.on_run_clock(series, 5)["t"] == [5, 10, 15]
    assert osmetrics.on_run_clock(series, 5, offset_s=-10)["t"] == [-5, 0, 5]
    assert series["t"] == [1, 2, 3]  # the input is not changed
    with pytest.raises(ValueError):
        osmetrics.on_run_clock(series, 0)


def test_window_mean_is_start_exclusive_end_inclusive_and_skips_missing():
    series = {"t": [5, 10, 15, 20], "x": [1.0, None, 3.0, 5.0]}
    assert osmetrics.window_mean(series, "x", 5, 20) == 4.0
    assert osmetrics.window_mean(series, "x", 0, 10) == 1.0
    assert osmetrics.window_mean(series, "x", 20, 30) is None
    assert osmetrics.window_mean(series, "nope", 0, 30) is None


def test_device_sum(iostat):
    both = osmetrics.device_sum(iostat)
    assert both["t"] == [1, 2]
    assert both["wkB/s"] == [96000.0 + 16.0, 94720.0 + 0.0]
    assert osmetrics.device_sum(iostat, ["sda"])["r/s"] == [0.0, 0.0]
    with pytest.raises(ValueError, match="no device"):
        osmetrics.device_sum(iostat, ["sdz"])


def test_device_missing_from_a_report_is_missing_not_zero(iostat):
    sda = next(s for s in iostat if s.meta["device"] == "sda")
    gap = type(sda)(series={k: v[:1] for k, v in sda.series.items()}, meta=sda.meta)
    nvme = next(s for s in iostat if s.meta["device"] == "nvme0n1")
    assert osmetrics.device_sum([nvme, gap])["r/s"] == [200.0, None]


def test_hw_efficiency(vmstat, iostat):
    run = {"t": [5, 10, 15], "ops": [1000.0, 1000.0, 1000.0]}
    eff = osmetrics.hw_efficiency(run, "ops", 0, 15, os_interval_s=5, vmstat=vmstat, iostat=iostat)
    # vmstat rows after the since-boot one: us+sy = 35, 38, 32; cs = 20000, 21000, 19000; 8 CPUs (banner)
    assert eff["cores"] == 8 and eff["n_vmstat"] == 3 and eff["n_iostat"] == 2
    assert eff["cpu_s_per_op"] == pytest.approx(35 / 100 * 8 / 1000)
    assert eff["cs_per_op"] == pytest.approx(20.0)
    # iostat, both devices: r/s 200, 210; rkB/s 3200, 3360; wkB/s 96016, 94720
    assert eff["reads_per_op"] == pytest.approx(0.205)
    assert eff["kb_read_per_op"] == pytest.approx(3.28)
    assert eff["kb_written_per_op"] == pytest.approx(95.368)


def test_hw_efficiency_window_and_offset(vmstat):
    run = {"t": [5, 10, 15], "ops": [1000.0, 2000.0, 4000.0]}
    eff = osmetrics.hw_efficiency(
        run, "ops", 5, 15, os_interval_s=5, offset_s=-5, vmstat=vmstat, cores=2
    )
    # window (5, 15]: run 2000, 4000 -> 3000 ops/s; vmstat samples end at 0, 5, 10 -> only the third (busy 32)
    assert eff["ops_per_s"] == 3000 and eff["n_vmstat"] == 1
    assert eff["cpu_s_per_op"] == pytest.approx(0.32 * 2 / 3000)
    assert eff["kb_read_per_op"] is None and eff["n_iostat"] == 0


def test_missing_inputs_give_none_not_zero():
    assert osmetrics.per_op(None, busy_pct=50, cores=4) == dict.fromkeys(osmetrics.PER_OP)
    assert osmetrics.per_op(0.0, cs_per_s=10)["cs_per_op"] is None
    assert osmetrics.per_op(100.0, busy_pct=50)["cpu_s_per_op"] is None  # cores unknown


def test_relative():
    base = {"cpu_s_per_op": 2.0, "cs_per_op": 0.0, "reads_per_op": None}
    rel = osmetrics.relative({"cpu_s_per_op": 3.0, "cs_per_op": 5.0, "reads_per_op": 1.0}, base)
    assert rel == {
        "cpu_s_per_op": 1.5,
        "kb_read_per_op": None,
        "kb_written_per_op": None,
        "reads_per_op": None,
        "cs_per_op": None,
    }
