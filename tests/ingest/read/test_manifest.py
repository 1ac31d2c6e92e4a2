"""Manifests (safe YAML, validation with file:line) and the ingest of a small study built here."""

from __future__ import annotations

import re
import sys
import tarfile

import pytest

from ingest.derive import checks
from ingest.problems import Problem
from ingest.read.archive import sha256_file
from ingest.read.manifest import load
from ingest.write import datadir
from tests.kit.study_kit import RUNS, make_study, run


def test_small_study_end_to_end(tmp_path):
    res = run(tmp_path, make_study(tmp_path))
    assert res["runs"] == 3
    series = [f"series/{run}.json" for run in ("a-8", "b-16", "m-4")]  # one copy each
    assert res["written"] == [
        "compare.yaml",
        "runs.csv",
        "runs.yaml",
        *series,
        "study.yaml",
        "tables/jitter.csv",
        "tables/jitter.yaml",
        "tables/runs.csv",
        "tables/runs.yaml",
        "window-stats.csv",
        "window-stats.yaml",
    ]  # the default tables (ingest/derive/defaults.py), YAML and CSV; the time series' rows;
    # the compare page's entries (ingest/derive/compare.py)
    assert any(str(p).startswith("mini.tar.gz/multi.log:35: session 2 ") for p in res["problems"])


@pytest.mark.parametrize(
    "extra, line, reason",
    [
        ("x: !!python/object/apply:os.system [echo]\n", 12, "YAML tags are not allowed"),
        ("x: !custom 1\n", 12, "YAML tags are not allowed (!custom)"),
        ("x: &a 1\n", 12, "YAML anchors are not allowed (&a)"),
        ("markers: [{t: 1, label: x}]\nx: *a\n", 13, "YAML aliases are not allowed (*a)"),
        ("interval_s: 2\n", 12, "duplicate key 'interval_s'"),
        ("colour: red\n", 12, "manifest: unknown field `colour`"),
        ("base: {engine: x}\n", 12, "base: 'engine' is not one of labels (name, threads)"),
        ("markers: [{t: one, label: x}]\n", 12, "markers[0]: `t` must be int or float, not str"),
        ("label_names: [Name]\n", 12, "manifest: `label_names` must be a mapping, not a list"),
        (
            "label_names:\n  name: Name\n  engine: Engine\n",
            14,
            "label_names: 'engine' is not one of labels (name, threads)",
        ),
        (
            "label_names: {threads: 4}\n",
            12,
            "label_names: threads: the heading must be a non-empty string",
        ),
    ],
)
def test_bad_yaml_and_invalid_fields_name_their_line(tmp_path, extra, line, reason):
    man = make_study(tmp_path, extra=extra)
    with pytest.raises(Problem, match="^" + re.escape(f"{man}:{line}: {reason}")):
        load(man)


def test_label_names_head_the_label_columns_of_the_default_tables(tmp_path):
    """`label_names:` gives a label its readers' heading in the runs and jitter tables (without
    one, the key with spaces)."""
    import yaml

    run(tmp_path, make_study(tmp_path, extra="label_names: {threads: Client threads}\n"))
    for table in ("runs", "jitter"):
        columns = yaml.safe_load(
            (tmp_path / "data" / "mini" / "tables" / f"{table}.yaml").read_text()
        )["columns"]
        assert {c["key"]: c["label"] for c in columns}["threads"] == "Client threads"
        assert "name" not in {
            c["key"] for c in columns if c["kind"] == "label"
        }  # in the run's name


def test_missing_field_and_bad_rule(tmp_path):
    man = make_study(tmp_path, runs="  - regex: 'a-8.log'\n    glob: x\n")
    with pytest.raises(
        Problem, match=rf"^{man}:13: runs\[0\]: give exactly one of `glob` or `regex`$"
    ):
        load(man)
    man = make_study(tmp_path)
    man.write_text(man.read_text().replace("title: A small study\n", ""))
    with pytest.raises(Problem, match=rf"^{man}:1: manifest: missing field `title`$"):
        load(man)


def test_duplicate_run_labels_are_an_error(tmp_path):
    man = make_study(
        tmp_path,
        runs="  - regex: '(?P<name>[a-z])-\\d+\\.log'\n    labels: {name: same, threads: 1}\n"
        "  - glob: multi.log\n",
    )
    with pytest.raises(Problem, match=rf"^{man}:13: duplicate run (id 'same-1'|labels)"):
        run(tmp_path, man)


def test_duplicate_run_ids_are_an_error(tmp_path):
    man = make_study(
        tmp_path,
        runs="  - regex: '(?P<name>[a-z])-(?P<threads>\\d+)\\.log'\n    id: same\n"
        "  - glob: multi.log\n",
    )
    with pytest.raises(
        Problem,
        match=rf"^{man}:13: duplicate run id 'same' \(b-16.log; also from the rule at line 13\)",
    ):
        run(tmp_path, man)


def test_rule_matching_nothing_is_an_error(tmp_path):
    man = make_study(tmp_path, runs=RUNS + "  - glob: 'nothing*.log'\n")
    with pytest.raises(
        Problem, match=rf"^{man}:17: rule `nothing\*.log` matches no file of mini.tar.gz$"
    ):
        run(tmp_path, man)


def test_sha256_mismatch_and_missing_input(tmp_path):
    man = make_study(tmp_path)
    good = sha256_file(tmp_path / "archives" / "mini.tar.gz")
    man.write_text(man.read_text().replace(good, "f" * 64))
    with pytest.raises(
        Problem,
        match=rf"^{man}:4: sha256 mismatch for mini.tar.gz: manifest says f{{64}}, file has {good}$",
    ):
        run(tmp_path, man)
    (tmp_path / "archives" / "mini.tar.gz").unlink()
    with pytest.raises(Problem, match=rf"^{man}:4: input mini.tar.gz not found at "):
        run(tmp_path, man)


def test_hostile_archive_leaves_data_untouched(tmp_path):
    man = make_study(tmp_path)
    run(tmp_path, man)
    before = {p: p.read_bytes() for p in (tmp_path / "data").rglob("*") if p.is_file()}
    evil = tarfile.TarInfo("../evil")
    man = make_study(tmp_path, archive_members=[evil])  # same manifest, sha256 of the new archive
    with pytest.raises(
        Problem, match=r"^mini\.tar\.gz: \.\./evil: member name escapes the archive"
    ):
        run(tmp_path, man)
    assert {p: p.read_bytes() for p in (tmp_path / "data").rglob("*") if p.is_file()} == before
    assert not (tmp_path / "evil").exists() and not (tmp_path / "archives" / "evil").exists()


def test_failing_replace_during_ingest_keeps_old_data(tmp_path, monkeypatch):
    man = make_study(tmp_path)
    run(tmp_path, man)
    before = {p: p.read_bytes() for p in (tmp_path / "data").rglob("*") if p.is_file()}
    man.write_text(
        man.read_text().replace("window: {start: 1, end: 4}", "window: {start: 2, end: 4}")
    )

    def boom(src, dst):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(datadir.os, "rename", boom)
    monkeypatch.setattr(datadir, "_renameat2", lambda: None)  # the fallback switch: os.rename
    with pytest.raises(
        Problem, match=r"/data/mini: cannot write \(Input/output error\); left unchanged$"
    ):
        run(tmp_path, man)
    assert {p: p.read_bytes() for p in (tmp_path / "data").rglob("*") if p.is_file()} == before
    assert sorted(p.name for p in (tmp_path / "data").iterdir()) == [".ingest.lock", "mini"]


def test_session_pick(tmp_path):
    man = make_study(tmp_path, runs="  - glob: '*.log'\n    session: 2\n")
    with pytest.raises(
        Problem,
        match=r"^mini.tar.gz/a-8.log: session 2 \(picked by the manifest\) is not a complete session$",
    ):
        run(tmp_path, man)


def test_study_module_errors_are_input_errors(tmp_path, monkeypatch):
    man = make_study(tmp_path, extra="views: broken_tables\n")
    fake = type(sys)("ingest.derive.studies.broken_tables")
    fake.build = lambda ctx: [
        ctx.table("Bad Id", "t", [{"key": "a", "label": "A", "kind": "number"}], [])
    ]
    monkeypatch.setitem(sys.modules, "ingest.derive.studies.broken_tables", fake)
    with pytest.raises(
        Problem,
        match=rf"^{man}: table 'Bad Id': id must be lowercase letters, digits and dashes",
    ):
        run(tmp_path, man)
    assert not (tmp_path / "data" / "mini").exists()


@pytest.mark.parametrize("tid", ["foo_bar", "v5.7", "-x"])
def test_table_ids_follow_the_sites_id_rule(tmp_path, monkeypatch, tid):
    """One id rule: a table id the ingest writes is one the table/chart shortcodes accept."""
    import re

    from tests.kit.golden import ROOT

    site = re.search(
        r"findRE `([^`]+)` \.id", (ROOT / "layouts/_partials/unique-id.html").read_text()
    )[1]
    assert site == checks.TABLE_ID.pattern
    man = make_study(tmp_path, extra="views: odd_ids\n")
    fake = type(sys)("ingest.derive.studies.odd_ids")
    fake.build = lambda ctx: [
        ctx.table(tid, "t", [{"key": "a", "label": "A", "kind": "number"}], [])
    ]
    monkeypatch.setitem(sys.modules, "ingest.derive.studies.odd_ids", fake)
    with pytest.raises(Problem, match="the site's id rule"):
        run(tmp_path, man)


@pytest.mark.parametrize(
    "pick, ids", [("all", ["t-8-s1", "t-8-s2"]), ("last", ["t-8"]), (1, ["t-8"])]
)
def test_each_complete_session_is_a_run_unless_one_is_picked(tmp_path, pick, ids):
    import yaml

    man = make_study(
        tmp_path, runs=f"  - glob: two.log\n    labels: {{name: t}}\n    session: {pick}\n"
    )
    run(tmp_path, man)
    runs = yaml.safe_load((tmp_path / "data/mini/runs.yaml").read_text())["runs"]
    assert [r["id"] for r in runs] == ids
    if pick == "all":
        assert [r["labels"]["session"] for r in runs] == [1, 2]
        assert runs[1]["name"] == "t, 8, session 2" and runs[1]["source"]["line"] == 44


QUOTED = """\
quoted:
  claims:
    - {claim: fewer reads, stated: 9x, counter: reads}
    - {claim: about, stated: null, share: 0.5}
"""


def test_quoted_figures_reach_the_study_module(tmp_path, monkeypatch):
    """`quoted:` rows reach a study module as written (docs/manifest.md, "Quoted figures"); a
    module asking for a name the manifest lacks is an input error naming the manifest."""
    man = make_study(tmp_path, extra=QUOTED + "views: quoting\n")
    assert load(man).quoted == {
        "claims": [
            {"claim": "fewer reads", "stated": "9x", "counter": "reads"},
            {"claim": "about", "stated": None, "share": 0.5},
        ]
    }
    fake = type(sys)("ingest.derive.studies.quoting")
    fake.build = lambda ctx: [
        ctx.table(
            "claims",
            "t",
            [
                {"key": "claim", "label": "C", "kind": "text"},
                {"key": "stated", "label": "S", "kind": "text"},
            ],
            [{"claim": q["claim"], "stated": q["stated"]} for q in ctx.quoted("claims")],
        )
    ]
    monkeypatch.setitem(sys.modules, "ingest.derive.studies.quoting", fake)
    run(tmp_path, man)
    assert (
        '{claim: fewer reads, stated: "9x"}'
        in (tmp_path / "data/mini/tables/claims.yaml").read_text()
    )
    fake.build = lambda ctx: ctx.quoted("load")
    with pytest.raises(
        Problem, match=rf"^{man}:12: quoted: no `load` \(the study module quoting shows it"
    ):
        run(tmp_path, man)


@pytest.mark.parametrize(
    "section, line, reason",
    [
        ("quoted: [1]\n", 12, "manifest: `quoted` must be a mapping, not a list"),
        ("quoted:\n  x: 1\n", 13, "quoted: `x` must be a list, not int"),
        (
            "quoted:\n  x:\n    - {a: yes}\n",
            14,
            "quoted: x[0]: a: a value must be a string, a number or null",
        ),
        (
            "quoted:\n  x:\n    - {a: [1]}\n",
            14,
            "quoted: x[0]: a: a value must be a string, a number or null",
        ),
        ("quoted:\n  Bad Name: []\n", 12, "quoted: 'Bad Name' must be a slug"),
    ],
)
def test_quoted_values_are_plain(tmp_path, section, line, reason):
    man = make_study(tmp_path, extra=section)
    with pytest.raises(Problem, match="^" + re.escape(f"{man}:{line}: {reason}")):
        load(man)


def test_duplicate_run_labels_of_distinct_ids_are_an_error(tmp_path):
    """Two runs with ids of their own and the same labels: found by one look-up per run."""
    man = make_study(
        tmp_path,
        runs="  - regex: '(?P<name>[a-z])-(?P<_n>\\d+)\\.log'\n    id: 'r{_n}'\n"
        "    labels: {name: same, threads: 1}\n  - glob: multi.log\n",
    )
    with pytest.raises(Problem, match=rf"^{man}:13: duplicate run labels .*same.* \(b-"):
        run(tmp_path, man)
