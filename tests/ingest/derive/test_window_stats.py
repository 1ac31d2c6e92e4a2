"""The window-statistics rows of the time series charts (ingest/derive/window_stats.py): one row
per run with its window's statistics, headings as i18n keys the site defines, the CSV with the
same columns."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
import yaml

from ingest.derive.window_stats import window_stats
from ingest.write.csvfiles import table_csv

ROOT = Path(__file__).resolve().parents[3]
I18N = tomllib.loads((ROOT / "i18n" / "en.toml").read_text(encoding="utf-8"))


def test_one_row_per_run_its_window_and_headings_as_keys():
    runs = [
        {
            "id": "a",
            "name": "A run",
            "window": {
                "mean": 10.5,
                "p1": 9,
                "p5": 9.5,
                "p50": 10,
                "p95": 12,
                "p99": 13,
                "cv": 0.05,
                "n": 3,
            },
        },
        {"id": "b", "window": None},
    ]
    t = window_stats(runs)
    assert [c["key"] for c in t["columns"]] == [
        "run", "name", "mean", "p1", "p5", "p50", "p95", "p99", "cv",
    ]  # fmt: skip
    assert all(c["i18n"] in I18N for c in t["columns"])
    assert t["rows"][0] == {"run": "a", "name": "A run", "mean": 10.5, "p1": 9, "p5": 9.5,
                            "p50": 10, "p95": 12, "p99": 13, "cv": 0.05}  # fmt: skip
    # a run without statistics: missing cells, never 0; its id stands for its name
    assert t["rows"][1]["name"] == "b" and t["rows"][1]["mean"] is None
    assert table_csv(t).splitlines()[0] == "run,name,mean,p1,p5,p50,p95,p99,cv"


STUDIES = sorted(p.parent.name for p in (ROOT / "data").glob("*/window-stats.yaml"))


@pytest.mark.parametrize("study", STUDIES)
def test_the_studies_rows_are_their_runs_windows(study):
    data = ROOT / "data" / study
    runs = yaml.safe_load((data / "runs.yaml").read_text(encoding="utf-8"))["runs"]
    t = yaml.safe_load((data / "window-stats.yaml").read_text(encoding="utf-8"))
    assert t == window_stats(runs)
    assert (data / "window-stats.csv").read_text(encoding="utf-8") == table_csv(t)


def test_some_study_has_them():
    assert len(STUDIES) >= 2
