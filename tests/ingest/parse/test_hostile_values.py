"""Hostile values in the query, sar and summary-table formats: every number goes through one
reader (ASCII decimal, bounded, finite), every name is printable, a header names a column
once; each case is a `file:line` error, never a wrong number or a traceback."""

from __future__ import annotations

import pytest

from ingest.join.queries import natural
from ingest.parse.member import parse_bytes
from ingest.parse.values import MAX_NUMBER_CHARS, read_number
from ingest.problems import Problem

SAR_HEAD = "Linux 6.1.0-9-amd64 (db7) \t03/04/2025 \t_x86_64_\t(4 CPU)\n\n"


def sar(header: str, *rows: str, banner: str = SAR_HEAD) -> bytes:
    return (banner + f"10:00:00 {header}\n" + "".join(f"{r}\n" for r in rows)).encode()


def explains(query: str = "5", seconds: str = "77", repeat: str = "1") -> bytes:
    return (
        f"===== {query}_explain.sql Run No: {repeat} =====\nSTARTUP_PARAMS: \n\n"
        "--- Explain result ---\n"
        "+----+-------------+\n| id | select_type |\n+----+-------------+\n"
        "|  1 | SIMPLE      |\n+----+-------------+\n"
        f"--- Time elapsed ---\n{seconds}\n"
    ).encode()


def problem(data: bytes, name: str, fmt: str) -> str:
    with pytest.raises(Problem) as e:
        parse_bytes(data, name, fmt)
    return str(e.value)


def test_sar_header_naming_a_column_twice_is_refused_at_its_line():
    data = sar("CPU %user %user", "10:00:05 all 20.00 4.00", "10:00:10 all 20.00 4.00")
    assert problem(data, "s.txt", "sar") == "s.txt:3: sar header names column '%user' twice"


def test_sar_header_with_a_control_character_is_refused_at_its_line():
    data = sar("CPU %user %\x1b[31mio", "10:00:05 all 20.00 4.00")
    assert problem(data, "s.txt", "sar").startswith("s.txt:3: sar header: a control character")


@pytest.mark.parametrize(
    "value", ["1" + "0" * 309, "9" * 400, "9" * 4400, "1" + "0" * 39 + ".5"], ids=len
)
def test_sar_huge_values_are_errors_at_their_line(value):
    data = sar("CPU %user", "10:00:05 all 1.00", f"10:00:10 all {value}")
    assert problem(data, "s.txt", "sar").startswith("s.txt:5: sar %user: a number")


def test_sar_cpu_banner_beyond_64_bits_is_an_error():
    banner = SAR_HEAD.replace("(4 CPU)", f"({'9' * 400} CPU)")
    data = sar("CPU %user", "10:00:05 all 1.00", banner=banner)
    assert problem(data, "s.txt", "sar").startswith("s.txt:1: sar CPU count: a number of 400")


@pytest.mark.parametrize(
    "seconds", ["1_000", "\u0663\u0664\u0663", "1" + "0" * 309, "+" + "9" * 50]
)
def test_query_times_are_ascii_decimal_and_bounded(seconds):
    reason = problem(explains(seconds=seconds), "all_explains.txt", "dbt3-explains")
    assert reason.startswith("all_explains.txt:11: time elapsed: "), reason


def test_query_time_as_printed_still_reads():
    parsed = parse_bytes(explains(seconds="1000"), "e.txt", "dbt3-explains")
    assert parsed.tables[0].rows[0]["seconds"] == 1000


@pytest.mark.parametrize(
    "query, reason",
    [
        ("1" * 4301, "a query name of 4,301 characters (limit 100)"),
        ("7\x1b]0;x\x07", "query name '7\\x1b]0;x\\x07' holds U+001B (a control character)"),
        ("7\u202e", "query name '7\\u202e' holds U+202E (a control character)"),
    ],
    ids=["4301-digits", "escape", "bidi"],
)
def test_query_names_are_short_and_printable(query, reason):
    assert problem(explains(query=query), "e.txt", "dbt3-explains") == f"e.txt:1: {reason}"


def test_natural_sort_of_long_digit_runs_needs_no_int():
    names = ["1" * 4301, "12", "7-opt", "7", "2", "\u00b2"]
    assert sorted(names, key=natural) == ["2", "7", "7-opt", "12", "1" * 4301, "\u00b2"]


@pytest.mark.parametrize(
    "cell, reason",
    [
        ("9" * 400, "a number of 400 characters"),
        ("9" * 400 + "G", "a number of 400 characters"),
        ("1" + "0" * 25, "a number out of range (beyond 64 bits)"),
    ],
    ids=["400-digits", "400-digits-G", "beyond-64-bits"],
)
def test_summary_table_cells_are_bounded_at_their_line(cell, reason):
    data = f"Disk A\nrate.av rate.99 engine\n100 90 alpha\n{cell} 180 beta\n".encode()
    assert reason in problem(data, "t.txt", "summary-table")
    assert problem(data, "t.txt", "summary-table").startswith("t.txt:4: ")


def test_summary_table_keeps_integers_above_2_53_exact():
    data = b"Disk A\nrate.av rate.99 engine\n12345678901234567 90 alpha\n"
    parsed = parse_bytes(data, "t.txt", "summary-table")
    assert parsed.tables[0].rows[0]["rate.av"] == 12345678901234567


def test_arabic_indic_digits_are_not_numbers():
    data = "Disk A\nrate.av rate.99 engine\n7 90 alpha\n\u0663\u0664\u0663 90 beta\n".encode()
    parsed = parse_bytes(data, "t.txt", "summary-table")
    assert [r["rate.av"] for r in parsed.tables[0].rows] == [7]


def test_html_percent_cells_are_bounded():
    row = f"<tr><td>a</td><td>+{'9' * 400}%</td></tr>"
    html = f"<table>\n<tr><th>q</th><th>d</th></tr>\n{row}\n</table>\n"
    reason = problem(html.encode(), "t.html", "html-table")
    assert reason.startswith("t.html:3: d: percent cell: a number of 401 characters"), reason


def test_read_number_outside_a_parse_is_a_value_error():
    with pytest.raises(ValueError, match="not a whole number"):
        read_number("1.5", whole=True)
    with pytest.raises(ValueError, match="characters"):
        read_number("1" * (MAX_NUMBER_CHARS + 1))
    assert read_number("-0.25") == -0.25 and read_number("12345678901234567") == 12345678901234567


@pytest.mark.parametrize(
    "line", ["a-1: \u202eevil", "a-1: red\x1b[31m", "a-1: x\u2066y"], ids=["rlo", "ansi", "isolate"]
)
def test_folder_descriptions_are_checked_as_display_names(line):
    data = f"What each folder is\n\n{line}\nb-2: fine\n".encode()
    assert problem(data, "DESC", "folder-desc").startswith("DESC:3: folder description holds U+")


def test_folder_description_with_a_run_of_spaces_reads_trimmed():
    data = ("a-1: one" + " " * 2000 + "two   \n").encode()
    row = parse_bytes(data, "DESC", "folder-desc").tables[0].rows[0]
    assert row["description"] == "one" + " " * 2000 + "two"


def test_a_boxed_explain_of_another_header_is_an_error_not_dropped():
    data = explains().replace(b"| id | select_type |", b"| ID | kind        |")
    assert problem(data, "e.txt", "dbt3-explains") == (
        "e.txt:6: EXPLAIN result: a box without an | id | select_type | header"
    )


def test_a_plan_longer_than_any_real_one_is_an_error_at_its_line():
    from ingest.parse.mysql_explain import MAX_PLAN_ROWS

    row = b"|  1 | SIMPLE      |\n"
    data = explains().replace(row, row * (MAX_PLAN_ROWS + 1))
    assert problem(data, "e.txt", "dbt3-explains") == (
        f"e.txt:{8 + MAX_PLAN_ROWS}: EXPLAIN: a plan of more than {MAX_PLAN_ROWS:,} rows"
    )


@pytest.mark.parametrize(
    "data, fmt, reason",
    [
        (
            "## Load\n\n| engine | ips\u202e |\n|---|---|\n| a | 1 |\n",
            "markdown-tables",
            "name or column 'ips\\u202e' holds U+202E",
        ),
        (
            "<table>\n<tr><th>q</th><th>d\x1b[2J</th></tr>\n<tr><td>a</td><td>1</td></tr>\n</table>\n",
            "html-table",
            "table name or column 'd\\x1b[2J' holds U+001B",
        ),
    ],
    ids=["markdown-bidi", "html-escape"],
)
def test_table_and_column_names_of_published_tables_are_printable(data, fmt, reason):
    assert reason in problem(data.encode(), "t", fmt)


def test_a_summary_table_named_with_a_bidi_character_is_an_error():
    data = "Disk \u202eA\nrate.av engine\n100 alpha\n".encode()
    assert "table name or column 'Disk \\u202eA' holds U+202E" in problem(
        data, "t.txt", "summary-table"
    )
