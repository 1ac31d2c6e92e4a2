"""The sysbench parsers' fast paths and their fall-backs, on logs of our own: a column of
repeated numbers converted once per distinct number and written as JSON from that
(`numbers.floats_of`, `Printed`), the interval regex with ASCII digits, and the read of a
file's line count only when it could pass the limit. Each must give what the plain path
gives: the same floats, the same JSON bytes, the same problems."""

from __future__ import annotations

import json

import pytest

from ingest.parse import by_name
from ingest.parse.member import parse_bytes
from ingest.problems import Problem
from ingest.write.numbers import (
    Printed,
    floats_of,
    ints_of,
    json_array,
    two_decimals_json,
)
from ingest.write.seriesfiles import series_json

HEAD = (
    "sysbench 1.0.20 (using bundled LuaJIT 2.1.0-beta2)\n\n"
    "Number of threads: 6\nReport intermediate results every 1 second(s)\n\n"
    "Threads started!\n\n"
)
LATENCIES = ["12.30", "12.30", "13.46", "0.00", "12.30", "21.50", "13.46", "100.00"]
TPS = ["512.40", "498.00", "505.10", "0.00", "480.25", "0.50", "507.00", "1200.00"]


def _interval(i: int, tps: str, lat: str, err: str = " err/s: 0.00 reconn/s: 0.00") -> str:
    qps = f"{float(tps) * 10:.2f}"
    return f"[ {i}s ] thds: 6 tps: {tps} qps: {qps} (r/w/o: {qps}/0.00/0.00) lat (ms,95%): {lat}{err}\n"


def _log(lines: list[str]) -> str:
    return HEAD + "".join(lines)


def _plain_json(values: list) -> str:
    """A column's JSON written value by value, from a plain list (no fast path)."""
    return json_array(list(values))


def test_repeated_words_are_converted_once_and_written_as_the_plain_path_writes_them():
    words = ["0.00", "7.50", "", "12.30", "100.00", "7.50"] * 100
    got = floats_of(words)
    want = [float(w) if w else None for w in words]
    assert type(got) is Printed and got == want
    assert json_array(got) == _plain_json(want)
    assert json_array(got).startswith("[0,7.5,null,12.3,100,7.5,0,")


@pytest.mark.parametrize("word", ["0.00", "17.50", ""])
def test_one_word_throughout_is_one_value_and_its_text(word):
    got = floats_of([word] * 300)
    want = [float(word) if word else None] * 300
    assert type(got) is Printed and got == want and json_array(got) == _plain_json(want)


def test_distinct_words_of_another_shape_are_a_plain_list():
    words = [f"{i}.{i % 100}" for i in range(1, 500)]
    got = floats_of(words)
    assert type(got) is list and got == list(map(float, words))
    assert floats_of([*words, ""])[-1] is None


def test_distinct_two_decimal_words_are_written_as_their_floats_would_be():
    """sysbench's tps and qps (`%.2f`): the words' text with the trailing zeros cut is the
    floats' JSON, for every last digit pair and up to 15 digits."""
    words = [f"{i}.{i % 100:02d}" for i in range(0, 500)]
    words += ["0.00", "0.05", "0.10", "0.50", "10.10", "100.00", "100.50", "1000.00", "7000.70"]
    words += ["1234567890123.45", "9999999999999.99", "9999999999990.00"]
    got = floats_of(words)
    want = list(map(float, words))
    assert type(got) is Printed and got == want
    assert json_array(got) == _plain_json(want)
    assert json_array(got).startswith("[0,1.01,2.02,")


@pytest.mark.parametrize(
    "odd", ["05.00", "5.5", "5.500", "12345678901234.50", "-1.00", "1e5", "5.", ".50", "inf"]
)
def test_any_other_word_leaves_the_column_to_the_floats_repr(odd):
    words = [f"{i}.{i % 100:02d}" for i in range(1, 300)] + [odd]
    assert two_decimals_json(words) is None
    assert type(floats_of(words)) is list


def test_whole_numbers_are_written_from_their_words():
    words = [str(i) for i in range(0, 400)] + ["1000000000000000000000"]
    got = ints_of(words)
    want = list(map(int, words))
    assert type(got) is Printed and got == want and json_array(got) == _plain_json(want)


@pytest.mark.parametrize("odd", ["07", "00", "-1"])
def test_a_whole_number_not_written_as_json_writes_it_is_a_plain_list(odd):
    got = ints_of(["1", "2", odd])
    assert type(got) is list and got == [1, 2, int(odd)]
    assert json_array(got) == _plain_json(got)


def test_a_word_that_is_no_number_raises_as_float_does():
    with pytest.raises(ValueError):
        floats_of(["1.00", "1.0.0"] * 50)


def test_a_repeated_number_too_long_for_a_float_is_left_to_the_finite_check():
    huge = "9" * 400  # float() makes it inf: no JSON text, the parser's check names it
    got = floats_of([huge, "1.00"] * 50)
    assert type(got) is list and got[0] == float("inf")
    log = _log([_interval(i, "5.00", "2.00", f" err/s: {huge} reconn/s: 0.00") for i in (1, 2)])
    with pytest.raises(Problem, match=r"^h\.log:1: err_s: a number out of range"):
        parse_bytes(log.encode(), "h.log", "sysbench1")


@pytest.mark.parametrize(
    "change",
    [
        lambda c: c.__setitem__(0, 3.25),
        lambda c: c.__delitem__(0),
        lambda c: c.__iadd__([3.25]),
        lambda c: c.__imul__(2),
        lambda c: c.append(3.25),
        lambda c: c.extend([3.25]),
        lambda c: c.insert(0, 3.25),
        lambda c: c.pop(),
        lambda c: c.remove(7.5),
        lambda c: c.clear(),
        lambda c: c.sort(key=lambda v: -1 if v is None else v),
        lambda c: c.reverse(),
    ],
)
def test_a_column_changed_in_place_is_written_from_its_values(change):
    column = floats_of(["7.50", "0.00", "", "7.50"] * 80)
    change(column)
    assert column.json_text is None and json_array(column) == _plain_json(column)


def test_a_slice_or_copy_is_a_plain_list():
    column = floats_of(["7.50", "0.00"] * 200)
    assert type(column[:10]) is list and type(list(column)) is list and type(column + []) is list


def test_series_json_of_a_parsed_log_is_what_plain_lists_give():
    """Placeholders (no transaction: latency missing), repeated latency buckets, trailing
    zeros and odd lines between the intervals: the file's JSON is the plain path's."""
    lines = [_interval(i, t, lat) for i, (t, lat) in enumerate(zip(TPS, LATENCIES), 1)]
    lines.insert(3, "FATAL: mysql_drv_query() returned error 1213 (Deadlock found) — ré-essai\n")
    session = by_name("sysbench1").parse(_log(lines * 40), "p.log").sessions[0]
    series = session.series
    assert type(series["lat_ms"]) is Printed and type(series["err_s"]) is Printed
    assert series["lat_ms"][3] is None and series["lat_ms"][7] == 100.0
    doc = {"run": "r", "interval_s": 1, "columns": list(series), **series}
    plain = {**doc, **{c: list(series[c]) for c in series}}
    assert series_json(doc) == series_json(plain)
    assert json.loads(series_json(doc))["lat_ms"][:8] == [
        12.3,
        12.3,
        13.46,
        None,
        12.3,
        21.5,
        13.46,
        100,
    ]


def test_mixed_layouts_in_one_block_are_read_line_by_line_as_before():
    """Lines with and without err/s, and one with `queue length`, in one run of interval lines."""
    lines = [
        _interval(1, "10.00", "2.00"),
        _interval(2, "11.00", "2.00", ""),
        _interval(3, "12.00", "2.00", " err/s 0.50 reconn/s 0.00"),
        _interval(
            4, "13.00", "2.00", " err/s: 0.00 reconn/s: 0.00 queue length: 0, concurrency: 6"
        ),
    ]
    s = by_name("sysbench1").parse(_log(lines), "m.log").sessions[0]
    assert s.series["tps"] == [10.0, 11.0, 12.0, 13.0]
    assert s.series["err_s"] == [0.0, None, 0.5, 0.0]


def test_non_ascii_digits_are_an_unreadable_interval_line_not_numbers():
    """sysbench prints ASCII digits; a line with others (here Arabic-Indic) is reported."""
    lines = [
        _interval(1, "10.00", "2.00"),
        _interval(2, "11.00", "2.00"),
        _interval(3, "12.00", "2.00"),
    ]
    lines[1] = lines[1].replace("tps: 11.00", "tps: \u0661\u0661.00")
    got = by_name("sysbench1").parse(_log(lines), "u.log")
    assert got.sessions[0].series["t"] == [1, 3]
    assert [str(p) for p in got.problems][0] == "u.log:9: unreadable interval line"


def test_csv_report_columns_take_the_same_path():
    rows = [
        f"{i},6,{t},{float(t) * 10:.2f},0.00,0.00,0.00,{lat},0.00,0.00\n"
        for i, (t, lat) in enumerate(zip(TPS, LATENCIES), 1)
    ]
    s = by_name("sysbench-csv").parse(_log(rows * 40), "c.log").sessions[0]
    assert type(s.series["err_s"]) is Printed
    assert json_array(s.series["lat_ms"]) == _plain_json(s.series["lat_ms"])
    assert s.series["lat_ms"][3] == 0.0  # the CSV report's latency is read as printed


def test_a_file_over_the_line_limit_is_still_refused(monkeypatch):
    """The line count is skipped only for a file of fewer bytes than the limit has lines."""
    import ingest.parse.member

    log = _log([_interval(i, "10.00", "2.00") for i in range(1, 30)])
    monkeypatch.setattr(ingest.parse.member, "MAX_FILE_LINES", 20)
    with pytest.raises(Problem, match=r"^big\.log:21: more than 20 lines"):
        parse_bytes(log.encode(), "big.log", "sysbench1")
