"""Where the CPU time of one `python -m ingest myrocks-cloud-cost` goes, measured cold in a
fresh process (as the real command runs): prints {step: CPU seconds} as JSON.

    .venv/bin/python -m bench.ingest_stages [--smoke]  (bench/ingest_bench.py --stages: N times)

One run is one round already: `--smoke` (tests/bench/) runs the same.

The steps are the ingest's own functions, wrapped with a timer in the namespaces that call
them; each figure excludes the timed steps nested in it (the published-tables parse inside
the study module is counted as parsing, not as study tables).
"""

import time

START = time.process_time()  # interpreter start, site, the editable-install finder

import contextlib  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
from collections import defaultdict  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
spent: dict[str, float] = defaultdict(float)
nested: list[float] = []


def timed(name, fn):
    """fn, adding its CPU time (minus timed calls nested in it) to spent[name]."""

    def wrapper(*args, **kwargs):
        t0 = time.process_time()
        nested.append(0.0)
        try:
            return fn(*args, **kwargs)
        finally:
            inner, total = nested.pop(), time.process_time() - t0
            spent[name if isinstance(name, str) else name(*args, **kwargs)] += total - inner
            if nested:
                nested[-1] += total

    return wrapper


def main():
    if sys.argv[1:] not in ([], ["--smoke"]):
        raise SystemExit("usage: python -m bench.ingest_stages [--smoke]")
    os.environ["INGEST_WORKERS"] = "1"  # every step in this process, where its CPU is counted
    t0 = time.process_time()
    import ingest.__main__ as cli
    from ingest import pipeline
    from ingest.derive import context
    from ingest.derive import study as derive
    from ingest.join import runs
    from ingest.join import stats as metrics
    from ingest.parse import pool
    from ingest.read import inputs as at_hand
    from ingest.read import manifest
    from ingest.write import report, seriesfiles

    imports = time.process_time() - t0

    manifest.load = timed("manifest (YAML load + checks)", manifest.load)
    at_hand.sha256_file = timed("sha256 of the inputs", at_hand.sha256_file)
    at_hand.Archive = timed("gunzip + tar (in memory)", at_hand.Archive)
    pool.parse_bytes = timed("parse sysbench logs (decode + parser)", pool.parse_bytes)
    context.parse_bytes = timed("parse my.cnf and published tables", context.parse_bytes)
    for f in ("window_stats", "full_mean", "cross_check"):
        setattr(metrics, f, timed("metrics (window stats, means, checks)", getattr(metrics, f)))
    runs._time_notes = timed("interval-time checks", runs._time_notes)
    real_module = derive.study_module

    def study_module(m):
        module = real_module(m)
        module.build = timed("study module tables", module.build)
        return module

    derive.study_module = study_module
    pipeline.dump = timed("YAML text (dump)", pipeline.dump)
    seriesfiles.series_json = timed("series JSON text", seriesfiles.series_json)
    pipeline.runs_csv = timed("CSV text (tables, runs)", pipeline.runs_csv)
    pipeline.table_csv = timed("CSV text (tables, runs)", pipeline.table_csv)
    pipeline.write_study = timed("write data/ (atomic)", pipeline.write_study)
    report._why_unmatched = timed(
        "report: format of the members no rule took", report._why_unmatched
    )
    report._error_lines = timed("report: error lines in the runs' logs", report._error_lines)

    data = Path(tempfile.mkdtemp()) / "data"
    t0 = time.process_time()
    with contextlib.redirect_stdout(sys.stderr):  # the ingest report; stdout is the JSON
        rc = cli.main(
            [
                "myrocks-cloud-cost",
                "--archives",
                str(ROOT.parent / "shared/archives"),
                "--studies",
                str(ROOT.parent / "shared/studies"),
                "--data",
                str(data),
            ]
        )
    total = time.process_time() - t0
    assert rc == 0
    out = {
        "interpreter start": START,
        "imports": imports,
        **spent,
        "other (run records, labels, ratios, tables)": total - sum(spent.values()),
        "total": START + imports + total,
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
