"""dstat, mpstat -P ALL, headerless `mysql -N` dumps and pt-mysql-summary: each is detected as
itself and never as the format it resembles, reads its units and clocks, and reports bad input
at its line (the golden fixtures are checked in test_formats.py)."""

import pytest

from ingest.parse import by_name, detect
from ingest.problems import Problem
from tests.kit.golden import FIXTURES

DSTAT_HEAD = (
    "----total-cpu-usage---- -dsk/total- -net/total- ---paging-- ---system--\n"
    "usr sys idl wai stl| read  writ| recv  send|  in   out | int   csw \n"
)
MPSTAT_HEAD = (
    "Linux 6.1.0 (h) \t01/02/2026 \t_x86_64_\t(4 CPU)\n\n"
    "10:00:00     CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle\n"
)


@pytest.mark.parametrize(
    ("folder", "case", "expected", "resembles"),
    [
        ("dstat", "default.txt", "dstat", "summary-table"),
        ("dstat", "stamped.txt", "dstat", "summary-table"),
        ("mpstat", "ampm.txt", "mpstat", "sar"),
        ("mpstat", "de-24h.txt", "mpstat", "sar"),
        ("mysql-n-variables", "mariadb.txt", "mysql-n-variables", "global-variables"),
        ("mysql-n-status", "two-dumps.txt", "mysql-n-status", "global-status"),
        ("pt-mysql-summary", "percona84.txt", "pt-mysql-summary", "mycnf"),
    ],
)
def test_detected_as_itself_not_as_the_format_it_resembles(folder, case, expected, resembles):
    text = (FIXTURES / folder / case).read_text()
    assert detect(text)[0].name == expected
    assert detect(text)[0].name != resembles


def test_the_formats_they_resemble_are_still_detected_as_before():
    for folder, case, fmt in [
        ("sar", "us-per-cpu-disk.txt", "sar"),
        ("sar", "de-cpu-memory.txt", "sar"),
        ("mycnf", "server.cnf", "mycnf"),
        ("mycnf", "tabbed.gv", "global-variables"),
        ("global-status", "before-after.txt", "global-status"),
        ("summary-table", "nested.txt", "summary-table"),
    ]:
        path = FIXTURES / folder / case
        assert detect(path.read_text())[0].name == fmt, path


def test_dstat_units_become_plain_numbers():
    text = DSTAT_HEAD + (
        "  1   1  98   0   0|   0     0 |   0     0 |   0     0 | 100   200 \n"
        " 40   9  48   3   0|  27k   39M|2217B 1.5G|   0  4096B|  27k   61k\n"
    )
    s = by_name("dstat").parse(text, "d.txt").sessions[0]
    assert s.series["dsk.read"] == [27 * 1024]
    assert s.series["dsk.writ"] == [39 * 1024**2]
    assert s.series["net.recv"] == [2217]
    assert s.series["net.send"] == [int(1.5 * 1024**3)]
    assert s.series["pg.out"] == [4096]
    assert (s.series["in"], s.series["cs"]) == ([27000], [61000])  # counts: k = 1000
    assert (s.series["us"], s.series["wa"], s.series["st"]) == ([40], [3], [0])
    assert s.meta["units"]["dsk.read"] == "B/s" and s.meta["units"]["cs"] == "/s"


def test_dstat_epoch_column_is_a_utc_time():
    text = (
        "--epoch--- ----total-cpu-usage----\n"
        "  epoch   |usr sys idl wai stl\n"
        "1773380000|  1   1  98   0   0\n"
        "1773380001| 30   5  60   5   0\n"
    )
    s = by_name("dstat").parse(text, "d.txt").sessions[0]
    assert s.series["time"] == ["2026-03-13T05:33:21"]
    assert s.meta["zone"] == "UTC"


def test_dstat_header_repeat_with_other_columns_leaves_missing_not_zero():
    text = (
        DSTAT_HEAD
        + "  1   1  98   0   0|   0     0 |   0     0 |   0     0 | 100   200 \n"
        + " 40   9  48   3   0|   0     0 |   0     0 |   0     0 | 100   200 \n"
        + "----total-cpu-usage---- ---system--\n"
        + "usr sys idl wai stl| int   csw \n"
        + " 41   9  47   3   0| 110   210 \n"
    )
    s = by_name("dstat").parse(text, "d.txt").sessions[0]
    assert s.series["us"] == [40, 41]
    assert s.series["dsk.read"] == [0, None]


def test_dstat_header_with_a_group_too_many_is_an_error_at_its_line():
    text = "----total-cpu-usage---- -dsk/total-\nusr sys idl wai stl| read writ| x\n"
    with pytest.raises(Problem, match=r"^d\.txt:2: dstat header: 2 groups but 3"):
        by_name("dstat").parse(text, "d.txt")


def test_dstat_without_rows_after_the_since_boot_row_is_an_error():
    text = DSTAT_HEAD + "  1   1  98   0   0|   0     0 |   0     0 |   0     0 | 100   200 \n"
    with pytest.raises(Problem, match="no dstat rows after the since-boot row"):
        by_name("dstat").parse(text, "d.txt")


def test_mpstat_all_and_per_cpu_sessions_and_the_average_as_summary():
    parsed = by_name("mpstat").parse((FIXTURES / "mpstat" / "ampm.txt").read_text(), "m.txt")
    items = [s.meta["item"] for s in parsed.sessions]
    assert items == ["all", "0", "1"]
    every = parsed.sessions[0]
    assert every.series["clock"] == ["11:59:59", "12:00:00", "12:00:01"]  # 12:00 PM is noon
    assert every.summary["%usr"] == 26.22
    assert parsed.sessions[2].summary == {}  # its Average: line was cut: no summary


def test_mpstat_lost_line_leaves_a_gap_not_a_shift():
    parsed = by_name("mpstat").parse((FIXTURES / "mpstat" / "de-24h.txt").read_text(), "m.txt")
    cpu1 = parsed.sessions[2]
    assert cpu1.series["t"] == [1, 3]
    assert cpu1.series["clock"] == ["17:33:45", "17:33:47"]
    assert any("1 line skipped" in str(p) for p in parsed.problems)


def test_mpstat_values_before_a_header_are_an_error():
    text = MPSTAT_HEAD.split("\n\n")[0] + "\n10:00:01     all   1.00\n"
    with pytest.raises(Problem, match=r"^m\.txt:2: mpstat values before a header"):
        by_name("mpstat").parse(text, "m.txt")


def test_mysql_n_variables_are_settings_like_global_variables():
    tabbed = by_name("global-variables").parse(
        "Variable_name\tValue\ninit_file\t\ninnodb_buffer_pool_size\t1073741824\n", "gv"
    )
    headerless = by_name("mysql-n-variables").parse(
        "init_file\t\ninnodb_buffer_pool_size\t1073741824\n", "gv"
    )
    assert headerless.settings == tabbed.settings


def test_mysql_n_status_is_a_status_table_like_global_status():
    rows = "Com_select\t10\nQuestions\t42\nUptime\t7\n"
    headed = by_name("global-status").parse("Variable_name\tValue\n" + rows, "s")
    headerless = by_name("mysql-n-status").parse(rows, "s")
    assert [t.rows for t in headerless.tables] == [t.rows for t in headed.tables]


def test_mysql_n_status_dumps_before_and_after_give_counter_deltas():
    from ingest.derive.counters import FORMATS
    from ingest.parse.server_status import counter_deltas

    text = (FIXTURES / "mysql-n-status" / "two-dumps.txt").read_text()
    before, after = by_name("mysql-n-status").parse(text, "s").tables
    deltas = {r["variable"]: r["delta"] for r in counter_deltas(before.rows, after.rows, 1000)}
    assert deltas["com_select"] == 742330 - 714330
    assert "mysql-n-status" in FORMATS


def test_mysql_n_status_dumps_in_a_loop_give_rates_on_their_uptime():
    def dump(uptime: int, selects: int) -> str:
        return f"Com_select\t{selects}\nThreads_running\t4\nUptime\t{uptime}\n"

    text = dump(100, 1000) + dump(110, 1500) + dump(120, 2500) + "Com_select\t3000\n"
    parsed = by_name("mysql-n-status").parse(text, "st.txt")
    assert len(parsed.tables) == 4
    s = parsed.sessions[0]
    assert s.series == {"t": [10, 20], "com_select": [50.0, 100.0], "threads_running": [4, 4]}
    assert s.sample_lines == [4, 7]
    assert [p.line for p in parsed.problems] == [10]  # the last dump, cut short: not a rate


def test_mysql_n_line_of_the_other_kind_is_an_error_at_its_line():
    text = (FIXTURES / "mysql-n-variables" / "mixed.txt").read_text()
    with pytest.raises(Problem, match=r"^v\.txt:5: expected `name<TAB>value`"):
        by_name("mysql-n-variables").parse(text, "v.txt")


def test_mysql_n_detection_needs_tabs_and_one_kind_of_name():
    assert detect("a\tb\nc\td\ne\tf\n")[0].name == "mysql-n-variables"
    with pytest.raises(Problem):
        detect("a\tb\nCom_select\t1\ne\tf\n")


def test_pt_mysql_summary_version_and_settings():
    parsed = by_name("pt-mysql-summary").parse(
        (FIXTURES / "pt-mysql-summary" / "percona84.txt").read_text(), "pt.txt"
    )
    s = parsed.settings
    assert s["version"].startswith("8.4.3-3 Percona Server")
    assert s["innodb.buffer_pool_size"] == "12.0G"
    assert s["innodb.xa_support"] == ""
    assert s["cnf.innodb_buffer_pool_size"] == "12G"
    assert s["cnf.mysqld_safe.malloc_lib"] == "/usr/lib64/libjemalloc.so.1"
    assert "6 lines skipped" in str(parsed.problems[0])


def test_pt_mysql_summary_without_its_banner_is_not_one():
    with pytest.raises(Problem, match="banner"):
        by_name("pt-mysql-summary").parse("  Version | 8.0.36\n", "pt.txt")


@pytest.mark.slow  # reads every member of the real archives
def test_no_member_of_the_real_archives_is_taken_for_one_of_these_formats():
    """The real archives hold none of these formats: detection of every member stays what it
    was (their data/ is unchanged by these parsers)."""
    import tarfile

    from tests.kit.golden import SHARED

    new = {"dstat", "mpstat", "mysql-n-variables", "mysql-n-status", "pt-mysql-summary"}
    seen = 0
    for archive in sorted((SHARED / "archives").glob("*.tar.gz")):
        with tarfile.open(archive) as tar:
            for member in tar:
                if not member.isfile():
                    continue
                head = tar.extractfile(member).read(65536).decode("utf-8", "replace")
                seen += 1
                try:
                    name = detect(head, member.name)[0].name
                except Problem:
                    continue
                assert name not in new, f"{archive.name}/{member.name}: {name}"
    assert seen > 400
