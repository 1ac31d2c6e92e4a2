"""Every study post's data/ (found from content/posts/*/manifest.yaml): a fresh ingest of the
real inputs gives exactly the committed files (a study whose inputs are not at hand is skipped
with the reason), and the archive-derived LinkBench tables agree with the archive's own lines."""
import re
import tarfile

import pytest
import yaml

from golden import ROOT, SHARED
from ingest.at_hand import absent
from ingest.manifest import find_manifests, load, manifest_path
from ingest.study import build_files

POSTS = ROOT / "content" / "posts"
ALL = [p.parent.name for p in find_manifests(POSTS)]
# the studies whose raw data is not (all) public: their inputs carry a note saying so
NOTED = ["mysql8-optane", "index-condition-pushdown", "innodb-redo-log-size", "linkbench-cached",
         "sysbench-regressions"]
LINKBENCH = SHARED / "archives" / "mdcallag-linkbench-2017-inno5717-2m.tar.gz"


class Fresh(dict):
    """study -> its files as build_files() builds them, on first use; a study whose inputs are
    absent skips. `problems[study]`: the warnings of its build."""

    def __init__(self):
        super().__init__()
        self.problems = {}

    def __missing__(self, study):
        m = load(manifest_path(study, POSTS))
        why = absent(m, SHARED / "archives", SHARED / "studies")
        if why:
            pytest.skip(f"{study}: {why}")
        built = build_files(m, SHARED / "archives", SHARED / "studies")
        self[study], self.problems[study] = built.files, built.problems
        return self[study]


@pytest.fixture(scope="module")
def fresh():
    return Fresh()


def test_every_post_with_a_manifest_is_checked():
    assert len(ALL) >= 6 and "myrocks-cloud-cost" in ALL
    assert sorted(ALL) == sorted(p.name for p in POSTS.iterdir() if (p / "manifest.yaml").is_file())


@pytest.mark.parametrize("study", ALL)
def test_committed_data_is_a_fresh_ingest(fresh, study):
    files = fresh[study]
    committed = {p.relative_to(ROOT / "data" / study).as_posix(): p.read_bytes()
                 for p in (ROOT / "data" / study).rglob("*") if p.is_file()}
    assert sorted(files) == sorted(committed)
    for name, data in files.items():
        assert data == committed[name], f"data/{study}/{name} differs from a fresh ingest (run make ingest)"
    if study in NOTED:
        assert fresh.problems[study] == []  # no problems (e.g. the sysbench ratio cross-check)


def test_study_notes_carried(fresh):
    for study in NOTED:
        doc = yaml.safe_load(fresh[study]["study.yaml"])
        assert all(i.get("note") for i in doc["inputs"]), study


def test_linkbench_hourly_matches_the_archive(fresh):
    hourly = yaml.safe_load(fresh["linkbench-cached"]["tables/hourly.yaml"])
    with tarfile.open(LINKBENCH) as tar:
        rates = {}
        for m in tar.getmembers():
            hour = re.search(r"/r\.r\.in\.L(\d+)\.P1$", m.name)
            if hour:
                text = tar.extractfile(m).read().decode()
                rates[int(hour[1])] = int(re.search(r"Requests/second = (\d+)", text)[1])
    assert [r["hour"] for r in hourly["rows"]] == sorted(rates) == list(range(1, 25))
    assert {r["hour"]: r["rate"] for r in hourly["rows"]} == rates
    sizes = [r["gb_after"] for r in hourly["rows"]]
    assert sizes[-1] > sizes[0]  # the database grows over the 24 hours


def test_linkbench_hw_per_op_agrees_with_the_wrapper(fresh):
    hw = yaml.safe_load(fresh["linkbench-cached"]["tables/hw-per-op.yaml"])
    for r in hw["rows"]:
        # our per-op figures from raw vmstat/iostat against the wrapper's, within 5%
        for ours, theirs in (("cs_per_op", "wrapper_cs_per_op"), ("kb_written_per_op", "wrapper_wkb_per_op")):
            assert r[ours] == pytest.approx(r[theirs], rel=0.05), (r["phase"], ours)


def test_docs_list_every_table_with_its_columns():
    doc = (ROOT / "docs" / "studies.md").read_text()
    for study in ALL:
        section = doc.split(f"\n## {study}\n")[1].split("\n## ")[0]
        listed = dict(re.findall(r"^- `([^`]+)`: `([^`]+)`$", section, re.M))
        tables = yaml.safe_load((ROOT / "data" / study / "study.yaml").read_text())["tables"]
        assert sorted(listed) == sorted(tables), study
        for tid in tables:
            t = yaml.safe_load((ROOT / "data" / study / "tables" / f"{tid}.yaml").read_text())
            assert listed[tid] == ",".join(c["key"] for c in t["columns"]), (study, tid)
