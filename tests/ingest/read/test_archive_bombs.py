"""Archive bombs of a few hundred KB, generated at test time (bench/archive_bombs.py streams
them through gzip): each is rejected by `Archive` in a fresh subprocess whose peak memory
stays within 64 MB of a subprocess that only imports it; the error is one short line naming
the archive. The peak is the subprocess's own `VmHWM` (/proc/self/status): `getrusage`'s
ru_maxrss would include the pytest process's own peak, carried over fork and exec on Linux,
and hide the child's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
from bench import archive_bombs as bombs  # noqa: E402

BUDGET_MB = 64

PROBE = """
import json, sys
from ingest.read.archive import Archive
result = None
if len(sys.argv) > 1:
    try:
        Archive(sys.argv[1])
        result = "accepted"
    except Exception as e:
        result = f"{type(e).__name__}: {e}"
hwm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:"))
print(json.dumps({"rss_kb": hwm, "result": result}))
"""


def probe(*args) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


@pytest.fixture(scope="module")
def baseline_kb():
    return probe()["rss_kb"]


CASES = {  # bomb -> (generator, size, what the error says)
    "pax-header": (
        bombs.pax_bomb,
        200 << 20,
        "extended headers and long names above 1048576 bytes",
    ),
    "gnu-long-name": (
        bombs.gnu_longname_bomb,
        200 << 20,
        "extended headers and long names above 1048576 bytes",
    ),
    "directory-entries": (bombs.directory_bomb, 60_000, "too many members (limit 20000)"),
    "zip-entries": (bombs.zip_entries_bomb, 21_000, "too many members (limit 20000)"),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(CASES))
def test_bomb_is_rejected_within_a_small_memory_budget(tmp_path, baseline_kb, case):
    make, size, reason = CASES[case]
    path = make(tmp_path / f"{case}.{'zip' if 'zip' in case else 'tar.gz'}", size)
    assert path.stat().st_size < 2_500_000  # a small download...
    got = probe(path)
    assert got["result"].startswith(f"Problem: {path.name}: "), got["result"]
    assert reason in got["result"]
    assert len(got["result"]) < 500 and "\n" not in got["result"]  # ...never echoed whole
    extra_mb = (got["rss_kb"] - baseline_kb) / 1024
    assert extra_mb < BUDGET_MB, f"{case}: {extra_mb:.0f} MB above the import alone"


def test_many_small_pax_headers_count_as_members(tmp_path):
    """Extended headers count as entries even when each is small."""
    import gzip
    import tarfile

    path = tmp_path / "paxes.tar.gz"
    with gzip.open(path, "wb") as out:
        for i in range(30):
            record = b"20 comment=abcdefgh\n"
            out.write(bombs.tar_header("././@PaxHeader", tarfile.XHDTYPE, len(record)))
            out.write(record + b"\0" * (512 - len(record)))
        bombs.tar_file(out, "r/a.log", b"x\n")
        out.write(b"\0" * 1024)
    from ingest.problems import Problem
    from ingest.read.archive import Archive, Limits

    with pytest.raises(
        Problem, match=r"^paxes\.tar\.gz: ././@PaxHeader: too many members \(limit 20\)"
    ):
        Archive(path, Limits(members=20))
    assert Archive(path, Limits(members=40)).names() == ["a.log"]
