"""Patterns of `runs:`/`files:` rules: counted repeats are bounded before
compiling (`a{1000000000}` was `internal error: MemoryError`, `a{10000000}` took 2.7 GB), and
all the matches of one ingest share one time budget (3,000 members against a rule just under
the 0.1 s of one match ran for minutes). Both are `manifest:line` errors, exit 1."""

from __future__ import annotations

import resource
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from ingest.problems import Problem
from ingest.read import patterns
from ingest.read.patterns import pattern_units
from tests.kit.study_kit import RUNS, make_study, run

ROOT = Path(__file__).resolve().parents[3]

CLI = "import sys; from ingest.__main__ import main; sys.exit(main(sys.argv[1:]))"


def cli_capped(tmp_path: Path, limit_mb: int = 1024) -> subprocess.CompletedProcess:
    """The command line in a subprocess whose address space is capped, so a pattern that
    would take gigabytes fails there (MemoryError) instead of on the machine."""

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (limit_mb << 20, limit_mb << 20))

    args = ["mini", "--content", tmp_path / "content", "--archives", tmp_path / "archives"]
    args += ["--data", tmp_path / "data", "--studies", tmp_path / "studies"]
    return subprocess.run(
        [sys.executable, "-c", CLI, *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        preexec_fn=cap,
        timeout=120,
    )


@pytest.mark.parametrize(
    "pattern, units",
    [
        ("a{1000000000}", "at least 10^9"),
        ("((a{1000}){1000}){1000}", "at least 10^9"),
        ("a{10000000}", "10,000,000"),
        ("(x|y{400}){300}", "120,300"),
    ],
)
def test_a_huge_counted_repeat_is_a_manifest_line_error(tmp_path, pattern, units):
    man = make_study(tmp_path, runs=f"  - regex: '{pattern}'\n" + RUNS)
    res = cli_capped(tmp_path)
    assert (res.returncode, res.stdout) == (1, ""), res.stderr
    assert res.stderr == (
        f"{man}:13: runs[0]: regex too large: its counted repeats write out to {units} "
        "characters (limit 100,000); use fewer or smaller {m,n} repeats\n"
    )
    assert not (tmp_path / "data" / "mini").exists()


def test_pattern_units_of_ordinary_patterns():
    assert pattern_units(r"(?P<name>[a-z])-(?P<threads>\d+)\.log") < 40
    assert pattern_units(r"res_(?P<t>\d{1,3})thr\.txt") < 30
    assert pattern_units(r"\p{L}{5}[a{]{3}(?#{1000000})") == 8
    assert pattern_units("a{,7}b{2,5}") == 12


def test_all_the_matches_of_one_ingest_share_one_budget(tmp_path, monkeypatch):
    """400 members at about 1 ms each against `(a|aa)+b` (the budget lowered to 0.05 s)."""
    slow = [tarfile.TarInfo(f"mini/{'a' * 18}{i:03d}") for i in range(400)]
    man = make_study(tmp_path, runs="  - regex: '(a|aa)+b'\n" + RUNS, archive_members=slow)
    monkeypatch.setattr(patterns, "MATCH_TOTAL_S", 0.05)
    with pytest.raises(Problem) as e:
        run(tmp_path, man)
    assert str(e.value).startswith(f"{man}:13: patterns too slow: ")
    assert str(e.value).endswith(
        " matches took over 0.05 s in all, most of it pattern '(a|aa)+b'; simplify it"
    )
    assert not (tmp_path / "data" / "mini").exists()
