"""`python -m ingest`: exact output, error text and exit codes."""

from __future__ import annotations

import subprocess
import sys

import pytest
import yaml

from ingest.__main__ import main
from tests.kit.golden import FIXTURES, ROOT
from tests.kit.study_kit import make_study

SB = FIXTURES / "sysbench1"


def cli(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_help_and_usage_errors_exit_2():
    def run(*args):
        return subprocess.run(
            [sys.executable, "-m", "ingest", *args], cwd=ROOT, capture_output=True, text=True
        )

    h = run("--help")
    assert h.returncode == 0
    for word in (
        "<study>",
        "all",
        "list-formats",
        "detect FILE",
        "parse FILE",
        "--archives",
        "--studies",
        "--data",
        "exit codes: 0 ok, 1 input error",
    ):
        assert word in h.stdout
    bad = run("detect")
    assert bad.returncode == 2 and bad.stderr.endswith("error: detect needs a FILE\n")
    assert run("parse", str(SB / "oltp-lua.log"), "--format", "nope").returncode == 2


def test_every_command_is_documented():
    doc = (ROOT / "docs" / "manifest.md").read_text()
    for cmd in (
        "python -m ingest <study> | all",
        "list-formats",
        "detect FILE",
        "parse FILE [--format NAME]",
        "Exit codes",
    ):
        assert cmd in doc


def test_list_formats(capsys):
    code, out, _ = cli(capsys, "list-formats")
    names = [line.split("\t")[0] for line in out.splitlines()]
    assert code == 0 and names[:2] == ["sysbench1", "sysbench-csv"]


def test_detect(capsys):
    assert cli(capsys, "detect", SB / "oltp-lua.log") == (
        0,
        "sysbench1\tsysbench 1.x interval line `[ Ns ] thds:`\n",
        "",
    )


def test_parse_prints_rate_mean_and_summary_rate(capsys):
    code, out, err = cli(capsys, "parse", SB / "oltp-lua.log")
    doc = yaml.safe_load(out)
    assert (code, err) == (0, "")
    assert (doc["format"], doc["intervals"], doc["rate_mean"], doc["summary_rate"]) == (
        "sysbench1",
        5,
        100.0,
        99.9,
    )


def test_parse_summary_only_has_no_rate_mean(capsys):
    code, out, _ = cli(capsys, "parse", SB / "summary-only.log", "--format", "sysbench1")
    doc = yaml.safe_load(out)
    assert (
        code == 0
        and doc["intervals"] == 0
        and "rate_mean" not in doc
        and doc["summary_rate"] == 999.8
    )


def test_parse_warnings_go_to_stderr(capsys):
    code, out, err = cli(capsys, "parse", SB / "tpcc-sessions.log")
    assert code == 0 and yaml.safe_load(out)["rate_mean"] == 50.0
    assert err.splitlines()[1] == (
        f"{SB / 'tpcc-sessions.log'}:35: session 2 (line 15) ends without the final "
        "summary (interrupted or cut short): 4 interval(s) kept, not a complete run"
    )


def test_input_errors_exit_1_with_file_line_reason(capsys, tmp_path):
    assert cli(capsys, "parse", tmp_path / "nope.log") == (
        1,
        "",
        f"{tmp_path / 'nope.log'}: cannot read (No such file or directory)\n",
    )
    empty = tmp_path / "empty.log"
    empty.write_bytes(b"")
    assert cli(capsys, "detect", empty) == (1, "", f"{empty}: empty file\n")
    other = tmp_path / "other.log"
    other.write_bytes(b"\x00\x01 hello\n")
    assert cli(capsys, "parse", other)[0] == 1
    code, out, err = cli(capsys, "no-such-study", "--content", tmp_path)
    assert (code, out, err) == (
        1,
        "",
        f"{tmp_path}/no-such-study/manifest.yaml: no manifest for study 'no-such-study'\n",
    )


def test_ingest_study_quiet_when_not_a_tty_and_exit_1_keeps_data(capsys, tmp_path):
    man = make_study(tmp_path)
    args = [
        "--content",
        tmp_path / "content",
        "--archives",
        tmp_path / "archives",
        "--data",
        tmp_path / "data",
    ]
    code, out, err = cli(capsys, "all", *args)
    assert code == 0 and out.startswith(
        "mini: 3 run(s), 2 table(s), "
    )  # the report (tests/ingest/write/test_report.py)
    assert [line.split(":")[1] for line in err.splitlines()] == [
        "1",
        "35",
        "11",
    ]  # the three warnings (the last: multi.log's FATAL lines, named), nothing else
    before = {p: p.read_bytes() for p in (tmp_path / "data").rglob("*") if p.is_file()}
    man.write_text(
        man.read_text().replace("window: {start: 1, end: 4}", "window: {start: 4, end: 1}")
    )
    code, out, err = cli(capsys, "mini", *args)
    assert (code, out, err) == (1, "", f"{man}:9: window: start (4) must be before end (1)\n")
    assert {p: p.read_bytes() for p in (tmp_path / "data").rglob("*") if p.is_file()} == before


@pytest.mark.parametrize("argv", [["all", "x"], ["list-formats", "--format", "sysbench1"]])
def test_misused_arguments_are_usage_errors(argv):
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2


def test_progress_bar_only_on_a_tty():
    import io

    from ingest.__main__ import progress_bar

    class Tty(io.StringIO):
        def isatty(self):
            return True

    assert progress_bar(io.StringIO()) is None
    tty = Tty()
    draw = progress_bar(tty)
    draw(1, 2, "a.log")
    draw(2, 2, "")
    assert tty.getvalue().startswith("\r[" + "#" * 15 + "." * 15 + "] 1/2 a.log")
    assert tty.getvalue().endswith("\n")


def test_all_skips_a_study_whose_archive_is_absent_with_one_warning(capsys, tmp_path):
    make_study(tmp_path)
    other = tmp_path / "content" / "other" / "manifest.yaml"
    other.parent.mkdir()
    other.write_text(
        (tmp_path / "content" / "mini" / "manifest.yaml")
        .read_text()
        .replace("study: mini", "study: other")
        .replace("mini.tar.gz", "gone.tar.gz")
    )
    args = [
        "--content",
        tmp_path / "content",
        "--archives",
        tmp_path / "archives",
        "--data",
        tmp_path / "data",
    ]
    code, out, err = cli(capsys, "all", *args)
    skipped = [line for line in err.splitlines() if line.startswith("warning:")]
    assert code == 0
    assert skipped == [
        f"warning: {other}: skipped, not at hand: {tmp_path / 'archives' / 'gone.tar.gz'}"
    ]
    assert (tmp_path / "data" / "mini" / "runs.yaml").is_file() and not (
        tmp_path / "data" / "other"
    ).exists()
    # one study by name: its absent archive is an error, as before
    code, out, err = cli(capsys, "other", *args)
    assert code == 1 and "gone.tar.gz not found" in err


def test_archives_may_be_several_folders(capsys, tmp_path):
    """ARCHIVES=dir1:dir2 (README): each study is read from the first folder holding its inputs,
    so a study kept elsewhere does not make the project's own be skipped; a study in none is
    skipped naming every folder looked in."""
    make_study(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "archives" / "mini.tar.gz").rename(elsewhere / "mini.tar.gz")
    other = tmp_path / "content" / "other" / "manifest.yaml"
    other.parent.mkdir()
    other.write_text(
        (tmp_path / "content" / "mini" / "manifest.yaml")
        .read_text()
        .replace("study: mini", "study: other")
        .replace("mini.tar.gz", "gone.tar.gz")
    )
    dirs = f"{tmp_path / 'archives'}:{elsewhere}"
    args = ["--content", tmp_path / "content", "--archives", dirs, "--data", tmp_path / "data"]
    code, out, err = cli(capsys, "all", *args)
    assert code == 0 and (tmp_path / "data" / "mini" / "runs.yaml").is_file()
    assert (
        f"warning: {other}: skipped, not at hand: {tmp_path / 'archives' / 'gone.tar.gz'}; " in err
    )
    assert f"not at hand: {elsewhere / 'gone.tar.gz'}" in err
    assert cli(capsys, "mini", *args)[0] == 0
