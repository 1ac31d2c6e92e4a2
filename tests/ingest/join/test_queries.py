"""Query runs (ingest/join/queries.py, ingest/derive/query_tables.py): a DBT3 archive of our own
(tests/kit/dbt3_gen.py: InnoDB, two servers in two configurations each, sar files beside the runs,
queries that did not finish) through a manifest of YAML only: labels from folder names and
from the DESC, the default query tables, declared per-query and geometric-mean tables, did not
finish carried through as a missing value with its note, and manifest mistakes at
`manifest:line`."""

from __future__ import annotations

import math
import statistics

import pytest

from ingest.__main__ import main
from ingest.pipeline import build_files
from ingest.problems import Problem
from ingest.read.manifest import load
from tests.kit import fastyaml
from tests.kit.dbt3_gen import DNF, FOLDERS, MANIFEST, QUERIES, REPEATS, seconds, write_archive

TABLES = """\
query_tables:
  - id: medians
    pivot: config
    where: {server: mysql}
    ratio: {base: {config: 5-6-bp16}}
  - id: geomean
    geomean: true
    ratio: {base: {config: 10-0-bp16}}
"""


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("queries")
    archive = write_archive(tmp / "archives" / "dbt3.tar.gz")
    return tmp, archive


def ingest(tmp, archive, extra: str = TABLES, name: str = "innodb-queries"):
    import hashlib

    post = tmp / "content" / name
    post.mkdir(parents=True, exist_ok=True)
    sha = hashlib.sha256(archive.read_bytes()).hexdigest()
    (post / "manifest.yaml").write_text(
        MANIFEST.format(sha=sha, extra=extra).replace("innodb-queries", name)
    )
    built = build_files(load(post / "manifest.yaml"), archive.parent, tmp)
    return {
        k.removeprefix("tables/").removesuffix(".yaml"): fastyaml.load(v)
        for k, v in built.files.items()
        if k.endswith(".yaml")
    }


@pytest.fixture(scope="module")
def tables(study):
    return ingest(*study)


def folder_of(row) -> str:
    return f"{row['server']}-{row['config']}"


def test_every_run_is_read_with_its_labels(tables):
    runs = tables["query-runs"]["rows"]
    assert len(runs) == len(FOLDERS) * len(QUERIES) * REPEATS
    for r in runs:
        want = seconds(folder_of(r), r["query"], r["repeat"])
        assert r["seconds"] == (None if want == -1 else want)
        assert r["status"] == ("did not finish" if want == -1 else "finished")
        # the DESC names each folder: its version and buffer pool become labels
        assert r["version"] in ("10.0.3", "5.6.11") and r["bp_gb"] == int(
            r["config"].rsplit("bp", 1)[1]
        )
    dnf = [i for i, r in enumerate(runs) if r["seconds"] is None]
    assert dnf and all(
        tables["query-runs"]["notes"][f"{i}/seconds"] == "did not finish (printed -1)" for i in dnf
    )
    # the DESC's descriptions are the display names of the folders' labels
    assert tables["study"]["display"]["config"]["10-0-bp16"] == FOLDERS["mariadb-10-0-bp16"][0]


def test_summary_is_the_median_of_the_finished_runs(tables):
    t = tables["query-summary"]
    for i, row in enumerate(t["rows"]):
        times = [seconds(folder_of(row), row["query"], k) for k in range(1, REPEATS + 1)]
        done = [x for x in times if x != -1]
        assert row["n"] == REPEATS and row["finished"] == len(done)
        if not done:  # never finished: missing, with its reason; never a time
            assert row["median"] is None and row["min"] is None
            assert (
                row["status"] == "did not finish" and t["notes"][f"{i}/median"] == "did not finish"
            )
        else:
            assert row["median"] == statistics.median(done)
            assert (row["min"], row["max"]) == (min(done), max(done))
        if 0 < len(done) < REPEATS:
            assert row["status"] == f"{REPEATS - len(done)} of {REPEATS} did not finish"
            assert t["notes"][f"{i}/median"] == row["status"]


def test_per_query_pivot_carries_did_not_finish_into_values_and_ratios(tables):
    t = tables["medians"]
    keys = [c["key"] for c in t["columns"]]
    assert keys == ["query", "5_6_bp16", "5_6_bp4", "5_6_bp4_median_ratio"]
    q9 = next(i for i, r in enumerate(t["rows"]) if r["query"] == "9")
    assert t["rows"][q9]["5_6_bp4"] is None and t["notes"][f"{q9}/5_6_bp4"] == "did not finish"
    assert t["rows"][q9]["5_6_bp4_median_ratio"] is None
    assert t["notes"][f"{q9}/5_6_bp4_median_ratio"] == "did not finish"
    q1 = next(r for r in t["rows"] if r["query"] == "1")
    assert q1["5_6_bp4_median_ratio"] == round(q1["5_6_bp4"] / q1["5_6_bp16"], 6)


def test_geomean_is_over_the_queries_every_one_finished_and_names_the_others(tables):
    t = tables["geomean"]
    left = [
        q
        for q in QUERIES
        if any(runs == set(range(1, REPEATS + 1)) for (_, x), runs in DNF.items() if x == q)
    ]
    assert {r["left_out"] for r in t["rows"]} == {", ".join(left)}
    common = [q for q in QUERIES if q not in left]
    for r in t["rows"]:
        medians = [
            statistics.median(
                x for k in range(1, REPEATS + 1) if (x := seconds(folder_of(r), q, k)) != -1
            )
            for q in common
        ]
        assert r["queries"] == len(common)
        assert r["geomean"] == pytest.approx(
            math.exp(statistics.fmean(map(math.log, medians))), abs=1e-6
        )
    base = next(r for r in t["rows"] if r["config"] == "10-0-bp16")
    assert base["ratio"] == 1.0


def test_plans_are_kept_once_per_distinct_plan_with_their_runs(tables):
    rows = tables["query-plans"]["rows"]
    q7 = [r for r in rows if r["query"] == "7"]
    assert {(folder_of(r), r["step"], r["table"]) for r in q7} >= {
        ("mysql-5-6-bp16", 1, "lineitem"),
        ("mariadb-10-0-bp16", 1, "orders"),
    }
    assert {r["runs"] for r in rows} == {f"1-{REPEATS}"}


def test_study_yaml_names_the_suite(tables):
    q = tables["study"]["queries"]
    assert q["suite"] == "TPC-H" and q["runs"] == len(FOLDERS) * len(QUERIES) * REPEATS
    assert q["queries"] == QUERIES


@pytest.mark.parametrize(
    "extra, line, reason",
    [
        ("query_tables:\n  - {id: t, values: [p99]}", 14, "values: 'p99' is not one of median"),
        (
            "query_tables:\n  - {id: t, pivot: engine}",
            14,
            "pivot 'engine' is not a label of its runs",
        ),
        (
            "query_tables:\n  - id: t\n    ratio: {base: {config: nope}}",
            15,
            "base: no run taken has config=nope",
        ),
        (
            "query_tables:\n  - {id: t, where: {server: tokudb}}",
            14,
            "no query run has the value 'tokudb'",
        ),
        ("query_tables:\n  - {id: t, queries: ['99']}", 14, "no run of query '99'"),
        ("query_tables:\n  - {id: Bad_Id}", 14, "must be lowercase letters"),
        ("query_tables:\n  - {id: t, colour: red}", 14, "unknown field `colour`"),
    ],
)
def test_query_table_mistakes_name_the_manifest_line(study, extra, line, reason):
    with pytest.raises(Problem) as err:
        ingest(*study, extra=extra, name="bad-tables")
    assert err.value.file.endswith("bad-tables/manifest.yaml") and err.value.line == line, str(
        err.value
    )
    assert reason in err.value.reason


@pytest.mark.parametrize(
    "old, new, line, reason",
    [
        ("display: config", "display: engine", 12, "label_files[0]: 'engine' is not one of labels"),
        ("  - {file:", "  - {input: x.tar.gz, file:", 12, "input 'x.tar.gz' is not an archive"),
        ("suite: TPC-H", "suite: [TPC-H]", 5, "suite: must be a name"),
        ("EXTRA", "query_tables:\n  - {id: t, where: {engine: x}}", 14, "'engine' is not one of"),
        (
            "EXTRA",
            "query_tables:\n  - {id: t, ratio: {base: {config: a}, of: p9}}",
            14,
            "of: 'p9'",
        ),
        ("queries:", "files:", 11, "label_files: the study has no query runs"),
    ],
)
def test_the_query_sections_are_checked_at_load_before_the_archive(
    tmp_path, old, new, line, reason
):
    """`label_files:`, `suite:` and `query_tables:` are parsed with the manifest: a mistake is
    found by `load` alone, with no archive to read."""
    text = MANIFEST.format(sha="a" * 64, extra="EXTRA")
    assert old in text
    text = text.replace(old, new).replace("EXTRA", "")
    (tmp_path / "manifest.yaml").write_text(text)
    with pytest.raises(Problem) as err:
        load(tmp_path / "manifest.yaml")
    assert err.value.line == line and reason in err.value.reason, str(err.value)


def test_a_label_the_manifest_does_not_list_is_an_error(study):
    tmp, archive = study
    post = tmp / "content" / "bad-label"
    post.mkdir(parents=True)
    text = (tmp / "content" / "innodb-queries" / "manifest.yaml").read_text()
    text = text.replace("innodb-queries", "bad-label").replace("(?P<server>", "(?P<engine>")
    (post / "manifest.yaml").write_text(text)
    with pytest.raises(Problem) as err:
        build_files(load(post / "manifest.yaml"), archive.parent, tmp)
    assert err.value.line == 9 and "label 'engine'" in err.value.reason, str(err.value)


def test_the_cli_ingests_and_reports_query_runs(study, tmp_path, capsys):
    tmp, archive = study
    ingest(tmp, archive, extra="", name="cli-study")
    code = main(
        [
            "cli-study",
            "--content",
            str(tmp / "content"),
            "--archives",
            str(archive.parent),
            "--data",
            str(tmp_path),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    assert f"{len(FOLDERS)} folder" not in out and "(query runs)" in out
    assert (tmp_path / "cli-study" / "tables" / "query-summary.csv").is_file()


def test_query_label_and_sar_files_count_in_the_ingests_series_budget(study, monkeypatch):
    """The budget bounded only the `runs:` files: query files of any size were parsed. With
    the budget lowered to 2,000 bytes, this study's query files pass it."""
    from ingest.parse import member

    monkeypatch.setattr(member, "MAX_SERIES_BYTES", 2_000)
    with pytest.raises(Problem) as err:
        ingest(*study, name="over-budget")
    assert "the series parsed by this ingest pass 0 MB" in err.value.reason, str(err.value)
