"""Server counters (SHOW GLOBAL STATUS dumps, mysqladmin extended-status): what the golden
files do not show on their own. Fixtures are our own numbers in MySQL's documented layouts."""

import pytest

from ingest.parse import by_name, detect
from ingest.parse.server_status import counter_deltas
from ingest.problems import Problem
from tests.kit.golden import FIXTURES

PERIODIC = FIXTURES / "global-status" / "periodic.txt"
RELATIVE = FIXTURES / "mysqladmin-status" / "relative.txt"


def parse(fmt, text, name="s.txt"):
    return by_name(fmt).parse(text, name)


def test_relative_tables_give_the_same_rates_as_absolute_dumps():
    """The two fixtures record the same server: `-r` differences summed back must equal the dumps."""
    absolute = parse("global-status", PERIODIC.read_text()).sessions[0]
    relative = parse("mysqladmin-status", RELATIVE.read_text()).sessions[0]
    assert (absolute.meta["mode"], relative.meta["mode"]) == ("absolute", "relative")
    assert relative.series == absolute.series


def test_rates_integrate_back_to_the_counter_delta():
    parsed = parse("global-status", PERIODIC.read_text())
    s = parsed.sessions[0]
    first, last = parsed.tables[0].rows, parsed.tables[-1].rows
    delta = {r["variable"]: r["delta"] for r in counter_deltas(first, last)}
    steps = [b - a for a, b in zip([0] + s.series["t"], s.series["t"])]
    assert round(sum(r * d for r, d in zip(s.series["com_select"], steps))) == delta["com_select"]


def test_first_snapshot_only_starts_the_clock():
    parsed = parse("global-status", PERIODIC.read_text())
    assert len(parsed.tables) == 4 and parsed.sessions[0].intervals == 3
    assert parsed.sessions[0].series["t"][0] > 0


def dump(**values):
    return "Variable_name\tValue\n" + "".join(f"{k}\t{v}\n" for k, v in values.items())


def test_a_falling_counter_has_no_rate_and_is_reported():
    text = (
        dump(Uptime=100, Com_select=50)
        + dump(Uptime=110, Com_select=70)
        + dump(Uptime=120, Com_select=5)
        + dump(Uptime=130, Com_select=25)
    )
    parsed = parse("global-status", text)
    assert parsed.sessions[0].series["com_select"] == [2.0, None, 2.0]
    assert list(map(str, parsed.problems)) == [
        "s.txt:9: com_select fell from 70 to 5 (FLUSH STATUS or a restart?): "
        "no rate for this interval"
    ]


def test_gauges_are_levels_not_rates():
    text = (
        dump(Uptime=100, Threads_running=4)
        + dump(Uptime=110, Threads_running=9)
        + dump(Uptime=120, Threads_running=2)
    )
    assert parse("global-status", text).sessions[0].series["threads_running"] == [9, 2]


def test_a_last_snapshot_cut_short_is_left_out_and_reported():
    text = (
        dump(Uptime=100, Com_select=1, Questions=2) * 1
        + dump(Uptime=110, Com_select=11, Questions=12)
        + dump(Uptime=120, Com_select=21, Questions=22)
        + dump(Uptime=130, Com_select=31)
    )
    parsed = parse("global-status", text)
    assert parsed.sessions[0].intervals == 2
    assert len(parsed.problems) == 1 and str(parsed.problems[0]).startswith(
        "s.txt:13: ends before this snapshot"
    )


def test_periodic_snapshots_need_a_clock():
    with pytest.raises(Problem, match=r"^s.txt:1: periodic snapshots need a time stamp"):
        parse("global-status", dump(Com_select=1) + dump(Com_select=2) + dump(Com_select=3))


@pytest.mark.parametrize(
    "text, line, reason",
    [
        ("Variable_name\tValue\nUptime\t1\nUptime\t2\n", 3, "Uptime twice in one snapshot"),
        (
            "Variable_name\tValue\nUptime\t1\nthis is prose\n",
            3,
            "expected a 'Variable_name / Value' row",
        ),
    ],
)
def test_unreadable(text, line, reason):
    with pytest.raises(Problem, match=reason) as err:
        parse("global-status", text)
    assert err.value.line == line


def test_huge_numbers_stay_text_not_a_crash():
    parsed = parse("global-status", dump(Uptime=1, Com_select="9" * 5000))
    assert parsed.tables[0].rows[1]["value"] == "9" * 5000


def test_detection_keeps_global_variables_apart():
    assert detect((FIXTURES / "mycnf" / "tabbed.gv").read_text())[0].name == "global-variables"
    assert detect((FIXTURES / "mycnf" / "boxed.gv").read_text())[0].name == "global-variables"
    assert detect(PERIODIC.read_text())[0].name == "global-status"
    assert detect(RELATIVE.read_text())[0].name == "mysqladmin-status"


def test_counter_deltas_per_operation():
    before = [
        {"variable": "innodb_rows_read", "value": 1000},
        {"variable": "ssl_cipher", "value": ""},
    ]
    after = [
        {"variable": "innodb_rows_read", "value": 1600},
        {"variable": "ssl_cipher", "value": ""},
    ]
    assert counter_deltas(before, after, operations=200) == [
        {"variable": "innodb_rows_read", "before": 1000, "after": 1600, "delta": 600, "per_op": 3.0}
    ]


FRESH = FIXTURES / "mysqladmin-status" / "relative-fresh.txt"
ABSOLUTE = FIXTURES / "mysqladmin-status" / "absolute-periodic.txt"


def test_relative_tables_of_a_freshly_started_server_are_relative():
    """`mysqladmin -r -i 10` right after a start: the first Uptime (4) is below the interval, so
    no later Uptime is below it; they are the interval each time (10, 10, 10), where absolute
    tables of the same server grow by it (14, 24, 34). Both fixtures record the same server."""
    fresh = parse("mysqladmin-status", FRESH.read_text())
    absolute = parse("mysqladmin-status", ABSOLUTE.read_text())
    assert [t.rows[-1]["value"] for t in fresh.tables] == [4, 10, 10, 10]
    assert [t.rows[-1]["value"] for t in absolute.tables] == [4, 14, 24, 34]
    assert (fresh.sessions[0].meta["mode"], absolute.sessions[0].meta["mode"]) == (
        "relative",
        "absolute",
    )
    assert fresh.problems == [] and absolute.problems == []  # no counter "fell", the clock advances
    assert fresh.sessions[0].series == absolute.sessions[0].series
    assert fresh.sessions[0].series["t"] == [10, 20, 30]


def uptimes(*ups, boxed=True):
    rows = "".join(
        f"+---+---+\n| Variable_name | Value |\n+---+---+\n| Com_select | {100 * i} |\n| Uptime | {u} |\n+---+---+\n"
        for i, u in enumerate(ups)
    )
    return parse("mysqladmin-status", rows)


@pytest.mark.parametrize(
    "ups, mode",
    [
        ((5000, 10, 10, 10), "relative"),  # the usual case: a later Uptime below the first
        ((10, 10, 10, 10), "relative"),  # at (not below) the first
        ((4, 10, 11, 10), "relative"),  # fresh server, a second of jitter
        ((4, 10, 11), "relative"),  # constant-ish values, steps (6, 1) not the interval
        ((4, 14, 24, 34), "absolute"),
        ((4, 5, 6, 7), "absolute"),  # absolute -i 1: steps all 1
        ((4, 14, 24, 84, 94), "absolute"),  # a pause in an absolute loop
    ],
)
def test_mode_is_read_from_uptime(ups, mode):
    assert uptimes(*ups).sessions[0].meta["mode"] == mode


def test_a_declared_mode_wins():
    """Three tables 4, 5, 6 read as absolute -i 1; declared relative (-r -i 5 with a second of
    jitter), the same text gives differences summed back, and the session says it was declared."""
    text = "".join(
        f"+---+---+\n| Variable_name | Value |\n+---+---+\n| Com_select | {c} |\n| Uptime | {u} |\n+---+---+\n"
        for c, u in ((100, 4), (50, 5), (60, 6))
    )
    detected = by_name("mysqladmin-status").parse(text, "s.txt").sessions[0]
    declared = by_name("mysqladmin-status").parse(text, "s.txt", mode="relative").sessions[0]
    assert (detected.meta["mode"], detected.meta["mode_from"]) == ("absolute", "Uptime")
    assert (declared.meta["mode"], declared.meta["mode_from"]) == ("relative", "declared")
    assert declared.series["t"] == [5, 11] and declared.series["com_select"] == [10.0, 10.0]


def test_the_manifest_declares_mode_on_a_status_files_rule(tmp_path):
    import re

    from ingest.problems import Problem
    from ingest.read.manifest import load
    from tests.kit.study_kit import make_study

    man = make_study(
        tmp_path, extra="files:\n  - {glob: 'two.log', format: mysqladmin-status, mode: relative}\n"
    )
    assert load(man).files[0].mode == "relative"
    for rule, reason in (
        (
            "{glob: 'two.log', format: global-status, mode: sideways}",
            "files[0]: mode must be relative or absolute",
        ),
        (
            "{glob: 'two.log', format: sysbench1, mode: relative}",
            "files[0]: mode is for the server-status formats",
        ),
    ):
        man = make_study(tmp_path, extra=f"files:\n  - {rule}\n")
        with pytest.raises(Problem, match="^" + re.escape(f"{man}:13: {reason}")):
            load(man)
