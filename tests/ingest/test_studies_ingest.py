"""Every study post's data/ (found from content/posts/*/manifest.yaml): a fresh ingest of the
real inputs gives exactly the committed files (a study whose inputs are not at hand is skipped
with the reason; archives are looked for in $ARCHIVES, as `make test ARCHIVES=<dir>` sets it,
then in ../shared/archives), and the archive-derived LinkBench tables agree with the archive's own lines."""

import os
import re
import tarfile
from pathlib import Path

import pytest
import yaml

from ingest.pipeline import build_files
from ingest.read.inputs import absent
from ingest.read.manifest import find_manifests, load, manifest_path
from tests.kit.golden import ROOT, SHARED
from tests.kit.study_docs import check_docs_tables, documented_columns

POSTS = ROOT / "content" / "posts"
ALL = [p.parent.name for p in find_manifests(POSTS)]
# the studies whose raw data is not (all) public: their inputs carry a note saying so
NOTED = [
    "mysql8-optane",
    "index-condition-pushdown",
    "innodb-redo-log-size",
    "linkbench-cached",
    "sysbench-regressions",
]
LINKBENCH = SHARED / "archives" / "mdcallag-linkbench-2017-inno5717-2m.tar.gz"
# where archives are looked for, in order: $ARCHIVES (README: archives may be anywhere; several
# folders joined by ':'), then the project's own ../shared/archives
ARCHIVE_DIRS = [
    *(Path(d) for d in os.environ.get("ARCHIVES", "").split(os.pathsep) if d),
    SHARED / "archives",
]


def fast_yaml(text: str):
    """YAML of data/ (tables of hundreds of rows) with libyaml's loader: the safe loader's rules,
    10 to 20 times faster than PyYAML's pure-Python one."""
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


class Fresh(dict):
    """study -> its files as build_files() builds them, on first use; a study whose inputs are
    absent skips. `problems[study]`: the warnings of its build."""

    def __init__(self):
        super().__init__()
        self.problems = {}

    def __missing__(self, study):
        m = load(manifest_path(study, POSTS))
        whys = {d: absent(m, d, SHARED / "studies") for d in ARCHIVE_DIRS}
        at = next((d for d, why in whys.items() if not why), None)
        if at is None:
            pytest.skip(
                f"{study}: "
                + "; ".join(whys.values())
                + " (set ARCHIVES=<dir> for archives elsewhere)"
            )
        built = build_files(m, at, SHARED / "studies")
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
    committed = {
        p.relative_to(ROOT / "data" / study).as_posix(): p.read_bytes()
        for p in (ROOT / "data" / study).rglob("*")
        if p.is_file()
    }
    assert sorted(files) == sorted(committed)
    for name, data in files.items():
        assert data == committed[name], (
            f"data/{study}/{name} differs from a fresh ingest (run make ingest)"
        )
    if study in NOTED:
        # no problems (e.g. the sysbench ratio cross-check) but the lines of wrappers and JVMs
        # that no parser reads, each named
        other = [p for p in map(str, fresh.problems[study]) if " skipped, not read as " not in p]
        assert other == []


def test_study_notes_carried(fresh):
    for study in NOTED:
        doc = yaml.safe_load(fresh[study]["study.yaml"])
        assert all(i.get("note") for i in doc["inputs"]), study


def test_linkbench_hourly_matches_the_archive(fresh):
    hourly = yaml.safe_load(fresh["linkbench-hourly-2017"]["tables/hourly.yaml"])
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


def test_linkbench_hw_per_op_agrees_with_the_summary_files(fresh):
    hw = yaml.safe_load(fresh["linkbench-hourly-2017"]["tables/hw-per-op.yaml"])
    for r in hw["rows"]:
        # our per-op figures from raw vmstat/iostat against the run's summary files', within 5%
        for ours, theirs in (
            ("cs_per_op", "summary_cs_per_op"),
            ("kb_written_per_op", "summary_wkb_per_op"),
        ):
            assert r[ours] == pytest.approx(r[theirs], rel=0.05), (r["phase"], ours)


@pytest.mark.parametrize("study", ALL)
def test_docs_list_every_table_with_its_columns(study):
    check_docs_tables(study)


def test_docs_check_needs_a_section_for_a_study_with_tables_of_its_own(tmp_path):
    """Negative control: a study without a docs/studies.md section whose tables are not just the
    default ones or declared in its manifest fails; with only those, the default ones'
    documented columns must be its own."""
    (tmp_path / "x-study" / "tables").mkdir(parents=True)
    (tmp_path / "x-study" / "manifest.yaml").write_text("tables: [{id: declared}]\n")
    (tmp_path / "x-study" / "study.yaml").write_text(
        "labels: [engine]\ntables: [runs, jitter, declared, extra]\n"
    )
    with pytest.raises(AssertionError, match=r"no section for x-study.*\['extra'\] come from"):
        check_docs_tables("x-study", tmp_path, tmp_path)
    (tmp_path / "x-study" / "study.yaml").write_text("labels: [engine]\ntables: [runs, jitter]\n")
    (tmp_path / "x-study" / "runs.yaml").write_text("runs: [{labels: {engine: innodb}}]\n")
    assert (
        documented_columns("x-study", tmp_path, tmp_path)["jitter"]
        == "run,name,engine,n,mean,cv,min,p1,p5,p50,p95,p99,max"
    )
    for tid, cols in (
        ("runs", "run,name,engine,file,n,mean,p5,p50,p95"),
        ("jitter", "run,name,n,mean"),
    ):
        (tmp_path / "x-study" / "tables" / f"{tid}.yaml").write_text(
            yaml.safe_dump({"columns": [{"key": k} for k in cols.split(",")]})
        )
    with pytest.raises(AssertionError):
        check_docs_tables("x-study", tmp_path, tmp_path)


def test_linkbench_engine_and_version_labels_are_what_the_server_said(fresh, tmp_path):
    """The 2017 runs' engine and version labels (declared in the manifest, so the compare page
    files them under InnoDB and MySQL 5.7.17, whatever the post lists) agree with
    l.gv.in; a label that disagrees fails the ingest at the manifest's line."""
    from ingest.derive.studies.linkbench_hourly_2017 import server_label
    from ingest.problems import Problem

    runs = yaml.safe_load(fresh["linkbench-hourly-2017"]["runs.yaml"])["runs"]
    with tarfile.open(LINKBENCH) as tar:
        member = next(m for m in tar.getmembers() if m.name.endswith("l.gv.in"))
        text = tar.extractfile(member).read().decode()
    said = dict(line.split("\t", 1) for line in text.splitlines() if "\t" in line)
    engine = server_label("default_storage_engine", said["default_storage_engine"].strip())
    version = server_label("version", said["version"].strip())
    assert runs and all(
        r["labels"]["engine"] == engine and r["labels"]["version"] == version for r in runs
    )
    src = manifest_path("linkbench-hourly-2017", POSTS)
    lines = src.read_text().splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if "labels: {phase: load" in line)
    lines[at] = lines[at].replace("engine: innodb", "engine: rocksdb")
    bad = tmp_path / "linkbench-hourly-2017" / "manifest.yaml"
    bad.parent.mkdir()
    bad.write_text("".join(lines))
    with pytest.raises(Problem) as err:
        build_files(load(bad), SHARED / "archives", SHARED / "studies")
    rule = next(r for r in load(bad).runs if r.labels.get("engine") == "rocksdb")
    assert str(err.value).startswith(f"{bad}:{rule.line}: run load: engine='rocksdb'")
    assert "engine='rocksdb'" in str(err.value) and "InnoDB" in str(err.value)
