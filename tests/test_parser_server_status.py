"""Server counters (SHOW GLOBAL STATUS dumps, mysqladmin extended-status): what the golden
files do not show on their own. Fixtures are our own numbers in MySQL's documented layouts."""
import pytest

from golden import FIXTURES
from ingest.parsers import ParseError, by_name, detect
from ingest.parsers.server_status import counter_deltas

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
    text = dump(Uptime=100, Com_select=50) + dump(Uptime=110, Com_select=70) + dump(Uptime=120, Com_select=5) \
        + dump(Uptime=130, Com_select=25)
    parsed = parse("global-status", text)
    assert parsed.sessions[0].series["com_select"] == [2.0, None, 2.0]
    assert list(map(str, parsed.problems)) == ["s.txt:9: com_select fell from 70 to 5 (FLUSH STATUS or a restart?): "
                               "no rate for this interval"]


def test_gauges_are_levels_not_rates():
    text = dump(Uptime=100, Threads_running=4) + dump(Uptime=110, Threads_running=9) \
        + dump(Uptime=120, Threads_running=2)
    assert parse("global-status", text).sessions[0].series["threads_running"] == [9, 2]


def test_a_last_snapshot_cut_short_is_left_out_and_reported():
    text = dump(Uptime=100, Com_select=1, Questions=2) * 1 + dump(Uptime=110, Com_select=11, Questions=12) \
        + dump(Uptime=120, Com_select=21, Questions=22) + dump(Uptime=130, Com_select=31)
    parsed = parse("global-status", text)
    assert parsed.sessions[0].intervals == 2
    assert len(parsed.problems) == 1 and str(parsed.problems[0]).startswith("s.txt:13: ends before this snapshot")


def test_periodic_snapshots_need_a_clock():
    with pytest.raises(ParseError, match=r"^s.txt:1: periodic snapshots need a time stamp"):
        parse("global-status", dump(Com_select=1) + dump(Com_select=2) + dump(Com_select=3))


@pytest.mark.parametrize("text, line, reason", [
    ("Variable_name\tValue\nUptime\t1\nUptime\t2\n", 3, "Uptime twice in one snapshot"),
    ("Variable_name\tValue\nUptime\t1\nthis is prose\n", 3, "expected a 'Variable_name / Value' row"),
])
def test_unreadable(text, line, reason):
    with pytest.raises(ParseError, match=reason) as err:
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
    before = [{"variable": "innodb_rows_read", "value": 1000}, {"variable": "ssl_cipher", "value": ""}]
    after = [{"variable": "innodb_rows_read", "value": 1600}, {"variable": "ssl_cipher", "value": ""}]
    assert counter_deltas(before, after, operations=200) == [
        {"variable": "innodb_rows_read", "before": 1000, "after": 1600, "delta": 600, "per_op": 3.0}]
