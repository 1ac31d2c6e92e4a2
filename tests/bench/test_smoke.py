"""Every bench in bench/ still runs: its `--smoke` mode (one round over tiny input, seconds;
bench/smoke.py) run as a person runs it, `python -m bench.<name> --smoke`, exits 0 and prints
its report. A bench nothing runs rots unseen (its imports, its inputs, the commands it
drives change under it); this is what runs them. The figures of a smoke run mean nothing and
are not checked, only that the report is there. A new bench without an entry here fails
`test_every_bench_has_a_smoke_test`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.kit.bench_smoke import smoke_run

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"
LIGHTHOUSE = BENCH / "lighthouse" / "node_modules" / ".bin" / "lighthouse"
NOT_BENCHES = {"__init__", "smoke"}  # the package, the smoke modes' helpers

browser = pytest.mark.browser
slow = pytest.mark.slow  # seconds of CPU: many processes, the real archive, or two builds
# bench -> (what its report prints, marks)
BENCHES = {
    "archive_bombs": (r"interval-lines: .* accepted: 1 members", []),
    "build_bench": (r"Hugo alone, CPU s\n.*\n\+0 .*\n\+1 ", [slow]),
    "chart_profile": (r"process CPU [\d.]+ s\nphase", [slow]),
    "chart_workers": (r"\n2 +[\d.]+ .*\nsame bytes: yes", [slow]),
    "compare_bench": (r"\nhover +[\d.]+", [browser]),
    "fault_bench": (r"## random moments, real ingest\n(.*\n)*traceback +0\ntrials +1", [slow]),
    "ingest_bench": (r"python -m ingest \(process\) +[\d.]+", [slow]),
    "ingest_stages": (r'"parse sysbench logs \(decode \+ parser\)": [\d.]+.*"total": ', []),
    "lighthouse": (r"\| / \| \d+ \| \d+ \| \d+ \| \d+ \|", [browser, slow]),
    "os_timestamps": (r'"link by time stamps": [\d.]+', []),
    "publish_bench": (r"\ncharts +[\d.]+ .*\nchecks .*\npreviews .*\npagefind ", []),
    "screenshots": (r"posts-fixture-study-phone-dark\.png", [browser]),
    "search_bench": (r"candidate / baseline: [\d.]+x", [browser]),
    "table_views": (r"readable table views: \d+ of \d+", [browser]),
}
# benches whose smoke mode a test beside the code they measure runs, in process
ELSEWHERE = {
    "monitor_parse": "tests/ingest/parse/test_monitor_parse_bench.py",
    "new_bench": "tests/ingest/scaffold/test_new_bench.py",
    "scaffold_draft": "tests/ingest/read/test_hostile_bench.py",
    "scale_bench": "tests/bench/test_scale_bench.py",
    "render_bench": "tests/browser/test_benches.py",
    "interaction_bench": "tests/browser/test_benches.py",
    "versions_bench": "tests/site/test_versions_bench.py",
}


def test_every_bench_has_a_smoke_test():
    benches = {p.stem for p in BENCH.glob("*.py")} - NOT_BENCHES
    assert benches == set(BENCHES) | set(ELSEWHERE)
    for test in ELSEWHERE.values():
        assert "smoke" in (ROOT / test).read_text(), test


@pytest.mark.parametrize(
    "name", [pytest.param(name, marks=marks) for name, (_, marks) in BENCHES.items()]
)
def test_the_bench_runs_its_smoke_mode(name):
    assert "--smoke" in (BENCH / f"{name}.py").read_text(), f"bench/{name}.py has no --smoke"
    if name == "lighthouse" and not LIGHTHOUSE.exists():
        pytest.skip("Lighthouse not installed: run python -m bench.lighthouse once (npm)")
    done = smoke_run(name)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    assert re.search(BENCHES[name][0], done.stdout), done.stdout[-3000:]
