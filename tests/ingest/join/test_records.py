"""The join step's typed records (ingest/join/records.py): a run is written as its runs.yaml
record, field for field, and a study module reads it as that record (`run["labels"]`)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import yaml

from ingest.pipeline import build_files
from ingest.read.manifest import load
from tests.kit.study_kit import make_study


def test_a_run_is_its_runs_yaml_record_and_reads_as_one(tmp_path):
    built = build_files(load(make_study(tmp_path)), tmp_path / "archives", Path("none"))
    written = yaml.safe_load(built.files["runs.yaml"])["runs"]
    assert [r.record() for r in built.runs] == written
    run, record = built.runs[0], written[0]
    assert list(run.record()) == list(record)  # in the schema's order
    assert run["labels"] == run.labels == record["labels"]
    assert run["source"]["file"] == run.source.file
    assert run.get("linked") is None and run.get("linked", {}) == {}
    with pytest.raises(KeyError):
        run["nope"]
    with pytest.raises(dataclasses.FrozenInstanceError):  # a step adds to a run by a new one
        run.labels = {}
