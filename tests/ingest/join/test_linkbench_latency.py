"""LinkBench request runs carry their per-operation latency and errors as series columns:
the `ThreadID = ...` stats printed every 10 s, joined to the progress row of the same
interval, in ms, with the meta the metrics chart titles its panels by."""

from ingest.join.columns import column_meta
from ingest.parse import by_name
from tests.kit.golden import FIXTURES


def _request(name="latency.log"):
    path = FIXTURES / "linkbench" / name
    return next(
        s
        for s in by_name("linkbench").parse(path.read_text(), path.name).sessions
        if s.meta["phase"] == "request"
    )


def test_latency_and_errors_are_series_columns_with_the_logs_figures():
    s = _request()
    # the stats lines end at 10.000/20.000/30.020 s, their progress lines 8-28 ms later
    assert s.series["t"] == [10.01, 20.03, 30.04]
    # most frequent op first; RANGE_SIZE is a size, not a latency
    assert [c for c in s.series if c.startswith("lat.")] == [
        "lat.GET_LINKS_LIST.p95",
        "lat.GET_LINKS_LIST.mean",
        "lat.ADD_LINK.p95",
        "lat.ADD_LINK.mean",
    ]
    # `95% = 190`, `185`, `240` microseconds; `mean = 260`, `255`, `300`
    assert s.series["lat.GET_LINKS_LIST.p95"] == [0.19, 0.185, 0.24]
    assert s.series["lat.ADD_LINK.mean"] == [0.26, 0.255, 0.3]
    # totalErrors 2, 7, 7 over 10 s intervals
    assert s.series["err_s"] == [0.2, 0.5, 0.0]
    # the last, partial round (printed at the end of the phase, after the last progress line) has no row
    assert s.meta["op_stats"] == {
        "rounds": 4,
        "joined": 3,
        "progress_minus_stats_s": [0.008, 0.028],
        "left_out_t": [35.001],
    }


def test_several_threads_give_the_ops_weighted_mean_and_no_p95():
    s = _request("request.log")
    assert "lat.GET_NODE.p95" not in s.series
    assert s.series["lat.GET_NODE.mean"][0] == round(
        (80.5 * 10000 + 81.25 * 9800) / 19800 / 1000, 6
    )
    assert s.series["err_s"][0] == 0.1


def test_the_columns_have_labels_and_units():
    assert column_meta("lat.GET_LINKS_LIST.p95") == {
        "label": "GET_LINKS_LIST p95 (ms)",
        "unit": "ms",
        "kind": "latency",
    }
    assert column_meta("lat.ADD_LINK.mean") == {
        "label": "ADD_LINK mean (ms)",
        "unit": "ms",
        "kind": "latency",
    }
    assert column_meta("err_s")["label"] == "errors/s"
