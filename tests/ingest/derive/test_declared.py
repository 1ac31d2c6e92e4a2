"""Declared tables (`tables:` in the manifest, ingest/derive/declared.py) on an archive written here:
grouping, window statistics, pivot, ratio to a base chosen by label, filters, units, the
missing cell left missing, and errors as file:line."""

from __future__ import annotations

import json
import math

import pytest

from ingest.pipeline import ingest
from ingest.problems import Problem
from ingest.write import report
from tests.kit import fastyaml
from tests.kit.study_kit import make_declared


def tables(tmp_path, spec, extra="", more=None, problems=None):
    man = make_declared(tmp_path, spec, extra, more)
    got = ingest(man, tmp_path / "archives", tmp_path / "studies", tmp_path / "data")
    if problems is not None:
        problems.extend(str(p) for p in got["problems"])
        shown = report.text(got["report"])  # the ingest's report lists them with the other warnings
        assert all(str(p) in shown for p in got["problems"][: report.SHOWN]), shown
    doc = fastyaml.load((tmp_path / "data" / "d" / "study.yaml").read_text())
    runs = {
        r["id"]: r
        for r in fastyaml.load((tmp_path / "data" / "d" / "runs.yaml").read_text())["runs"]
    }
    return {
        t: fastyaml.load((tmp_path / "data" / "d" / "tables" / f"{t}.yaml").read_text())
        for t in doc["tables"]
    }, runs


def test_group_statistic_order_filter_and_units(tmp_path):
    got, runs = tables(
        tmp_path,
        """\
  - id: mean-tps
    title: "Mean from {start} s to {end} s"
    where: {published: true, iops: [1000, 2000]}
    rows: [iops, engine]
    order: {engine: [rocksdb, innodb]}
    columns: {iops: IOPS}
    value: {key: tps, label: TPS, stat: mean, round: 1, digits: 1, unit: tps}
  - id: p95
    where: {published: true}
    rows: [engine, iops]
    value: {key: p95, label: p95, stat: p95}
  - id: rate
    where: {published: true, engine: innodb}
    rows: [iops]
    value: {key: rate, label: Rate, stat: rate}
""",
    )
    assert list(got) == ["mean-tps", "p95", "rate", "runs", "jitter"]  # the default tables stay
    t = got["mean-tps"]
    assert t["title"] == "Mean from 10 s to 30 s"
    assert t["columns"] == [
        {"key": "iops", "label": "IOPS", "kind": "label"},
        {"key": "engine", "label": "engine", "kind": "label"},
        {"key": "tps", "label": "TPS", "kind": "number", "digits": 1, "unit": "tps"},
    ]
    want = [
        (i, e, round(runs[f"{e}-{i}"]["window"]["mean"], 1))
        for i in (1000, 2000)
        for e in ("rocksdb", "innodb")
    ]
    assert [(r["iops"], r["engine"], r["tps"]) for r in t["rows"]] == want
    # no order given: the values in run order; a missing cell (innodb, 4000) is missing, not 0
    p95 = {(r["engine"], r["iops"]): r["p95"] for r in got["p95"]["rows"]}
    assert (
        p95[("innodb", 4000)] is None
        and p95[("rocksdb", 4000)] == runs["rocksdb-4000"]["window"]["p95"]
    )
    assert [r["rate"] for r in got["rate"]["rows"]] == [
        runs["innodb-1000"]["summary"]["tps"],
        runs["innodb-2000"]["summary"]["tps"],
    ]


def test_pivot_and_ratio_to_a_base_chosen_by_label(tmp_path):
    got, runs = tables(
        tmp_path,
        """\
  - id: pivot
    where: {published: true}
    rows: [iops]
    pivot: engine
    value: {key: "{engine}_tps", label: "{engine} TPS", stat: mean, round: 2, digits: 2}
    ratio: {key: ratio, label: MyRocks / InnoDB, base: {engine: innodb}, round: 4, digits: 2}
  - id: vs-1000
    where: {published: true}
    rows: [engine, iops]
    value: {key: tps, label: TPS, stat: mean}
    ratio: {key: vs_1000, label: vs 1000 IOPS, base: {iops: 1000}}
""",
    )
    t = got["pivot"]
    assert [c["key"] for c in t["columns"]] == ["iops", "innodb_tps", "rocksdb_tps", "ratio"]
    assert [c["label"] for c in t["columns"]][1:] == [
        "InnoDB TPS",
        "MyRocks TPS",
        "MyRocks / InnoDB",
    ]
    mean = {i: r["window"]["mean"] for i, r in runs.items()}
    assert t["rows"][0] == {
        "iops": 1000,
        "innodb_tps": round(mean["innodb-1000"], 2),
        "rocksdb_tps": round(mean["rocksdb-1000"], 2),
        "ratio": round(mean["rocksdb-1000"] / mean["innodb-1000"], 4),
    }
    assert t["rows"][2] == {
        "iops": 4000,
        "innodb_tps": None,
        "rocksdb_tps": round(mean["rocksdb-4000"], 2),
        "ratio": None,
    }  # no base: the ratio is missing
    vs = {(r["engine"], r["iops"]): r["vs_1000"] for r in got["vs-1000"]["rows"]}
    assert vs[("rocksdb", 2000)] == round(mean["rocksdb-2000"] / mean["rocksdb-1000"], 6)
    assert vs[("innodb", 1000)] == 1.0 and vs[("innodb", 4000)] is None


@pytest.mark.parametrize(
    "spec, line, reason",
    [
        (
            "  - {id: x, rows: [nope], value: {key: v, label: V, stat: mean}}",
            15,
            "tables[0] (x): 'nope' is not one of labels",
        ),
        (
            "  - {id: x, rows: [engine], value: {key: v, label: V, stat: average}}",
            15,
            "tables[0] (x).value: stat must be one of",
        ),
        (
            "  - {id: x, rows: [engine], colour: red, value: {key: v, label: V, stat: mean}}",
            15,
            "tables[0]: unknown field `colour`",
        ),
        # a misspelt label, a value no run has, a filter that leaves no run
        (
            "  - id: x\n    where: {published: true,\n            engne: innodb}\n    rows: [iops]\n"
            "    value: {key: v, label: V, stat: mean}",
            17,
            "tables[0] (x).where: 'engne' is not one of labels (engine, iops, variant) or published",
        ),
        (
            "  - id: x\n    where: {engine: tokudb}\n    rows: [iops]\n    value: {key: v, label: V, stat: mean}",
            16,
            "tables[0] (x).where: engine: no run has the value 'tokudb' (values: innodb, rocksdb)",
        ),
        (
            "  - id: x\n    where: {published: true, variant: again}\n    rows: [iops]\n    value: {key: v, label: V, stat: mean}",
            16,
            "tables[0] (x): takes no run (where: published=True, variant=again)",
        ),
        # an order value no run taken has (would be a row of nulls)
        (
            "  - id: x\n    where: {published: true}\n    rows: [iops]\n    order: {iops: [1000, 3000]}\n"
            "    value: {key: v, label: V, stat: mean}",
            18,
            "tables[0] (x).order: iops: no run taken has the value '3000' (values: 1000, 2000, 4000)",
        ),
        # ids: the site's rule and unique, with the line
        (
            "  - {id: p_99, rows: [engine], value: {key: v, label: V, stat: mean}}",
            15,
            "tables[0]: id 'p_99' must be lowercase letters, digits and dashes",
        ),
        (
            "  - {id: x, where: {published: true}, rows: [engine, iops], value: {key: v, label: V, stat: mean}}\n"
            "  - {id: x, where: {published: true}, rows: [engine, iops], value: {key: v, label: V, stat: p95}}",
            16,
            "tables[1]: id 'x' is already the id of the table at line 15",
        ),
        (
            "  - {id: x, where: {published: true}, rows: [engine, iops], value: {key: engine, label: V, stat: mean}}",
            15,
            "table 'x': column keys must be unique",
        ),
        (
            "  - id: x\n    rows: [engine, iops]\n    values:\n      - {key: v, label: V, stat: mean}\n"
            "      - {key: w, label: W, stat: mean, column: latency}",
            19,
            "tables[0] (x): run innodb-1000 has no series column 'latency' (columns: tps, qps, lat_ms, err_s, reconn_s)",
        ),
        (
            "  - {id: x, rows: [engine], value: {key: v, label: V, stat: mean}, values: []}",
            15,
            "tables[0] (x): give `value:` (one statistic) or `values:` (a list of them)",
        ),
    ],
)
def test_errors_name_the_manifest_line(tmp_path, spec, line, reason):
    man = make_declared(tmp_path, spec + "\n")
    with pytest.raises(Problem) as e:
        ingest(man, tmp_path / "archives", tmp_path / "studies", tmp_path / "data")
    assert (e.value.file, e.value.line) == (str(man), line) and e.value.reason.startswith(reason)
    data = tmp_path / "data"  # no study written (errors found at load: not even the lock)
    assert [p.name for p in data.iterdir()] in ([".ingest.lock"], []) if data.exists() else True


ONE = "  - {id: one, where: {published: true}, rows: [engine, iops], value: {key: v, label: V, stat: mean}}\n"


def test_default_tables_stay_unless_replaced_by_id_or_left_out(tmp_path):
    got, runs = tables(tmp_path / "a", ONE)
    assert list(got) == [
        "one",
        "runs",
        "jitter",
    ]  # a scaffolded post's {{< table id="runs" >}} still builds
    assert [r["run"] for r in got["runs"]["rows"]] == list(runs)
    # the one runs table (the cloud module reuses it): source, window statistics, cross-check
    assert [c["key"] for c in got["runs"]["columns"]] == [
        "run",
        "name",
        "engine",
        "iops",
        "variant",
        "published",
        "file",
        "session",
        "n",
        "mean",
        "cv",
        "full_mean",
        "summary",
        "check_rel_diff",
    ]
    row = got["runs"]["rows"][0]
    assert (row["full_mean"], row["summary"]) == (
        runs[row["run"]]["full"]["mean"],
        runs[row["run"]]["summary"]["tps"],
    )
    got, _ = tables(
        tmp_path / "b",
        ONE + "  - {id: runs, rows: [engine, iops, variant], value: {key: v, label: V, stat: n}}\n",
    )
    assert (
        list(got) == ["one", "runs", "jitter"] and got["runs"]["columns"][-1]["key"] == "v"
    )  # the declared one
    got, _ = tables(tmp_path / "c", ONE, extra="default_tables: [jitter]\n")
    assert list(got) == ["one", "jitter"]
    got, _ = tables(tmp_path / "d", ONE, extra="default_tables: []\n")
    assert list(got) == ["one"]


def test_default_tables_names_only_default_tables(tmp_path):
    man = make_declared(tmp_path, ONE, extra="default_tables: [runs, latency]\n")
    with pytest.raises(Problem) as e:
        ingest(man, tmp_path / "archives", tmp_path / "studies", tmp_path / "data")
    assert (
        e.value.line == 14
        and e.value.reason == "default_tables: 'latency' is not a default table (runs, jitter)"
    )


def _series(tmp_path, run):
    return json.loads((tmp_path / "data" / "d" / "series" / f"{run}.json").read_text())


def test_several_values_another_column_rate_from_the_series_and_numeric_order(tmp_path):
    got, runs = tables(
        tmp_path,
        """\
  - id: lat
    where: {engine: innodb, published: true}
    rows: [run, iops]
    columns: {run: Run id}
    values:
      - {key: mean, label: Mean TPS, stat: mean}
      - {key: lat_p95, label: p95 latency, stat: p95, column: lat_ms, unit: ms}
      - {key: lat_cv, label: cv latency, stat: cv, column: lat_ms, digits: 3}
      - {key: rate, label: Rate, stat: rate, round: 3}
""",
        more={("innodb", 10000, None): 333.333},
    )
    t = got["lat"]
    assert [c["key"] for c in t["columns"]] == ["run", "iops", "mean", "lat_p95", "lat_cv", "rate"]
    assert t["columns"][0]["label"] == "Run id"
    assert [r["iops"] for r in t["rows"]] == [
        1000,
        2000,
        10000,
    ]  # an int label in numeric order, not 10000 first
    assert [r["run"] for r in t["rows"]] == ["innodb-1000", "innodb-2000", "innodb-10000"]
    for row in t["rows"]:
        s = _series(tmp_path, row["run"])
        lat = sorted(x for ti, x in zip(s["t"], s["lat_ms"]) if 10 < ti <= 30)
        assert row["mean"] == runs[row["run"]]["window"]["mean"]
        assert row["lat_p95"] == lat[math.ceil(0.95 * len(lat)) - 1]
        mean = sum(lat) / len(lat)
        assert row["lat_cv"] == pytest.approx(
            math.sqrt(sum((x - mean) ** 2 for x in lat) / len(lat)) / mean, abs=1e-6
        )
        # rate: the total over the elapsed time from the series (1 s intervals), not the printed summary
        assert row["rate"] == round(math.fsum(s["tps"]) / s["t"][-1], 3)
    odd = t["rows"][2]
    assert odd["rate"] != runs["innodb-10000"]["summary"]["tps"]  # the summary's 2 decimals


def test_repeats_in_one_cell_are_averaged_and_unlisted_labels_warned(tmp_path):
    problems = []
    got, runs = tables(
        tmp_path,
        """\
  - id: avg
    where: {engine: innodb}
    rows: [iops]
    value: {key: tps, label: TPS, stat: mean}
  - id: vs
    where: {published: true}
    rows: [iops]
    pivot: engine
    value: {key: "{engine}", label: "{engine}", stat: mean}
    ratio: {key: ratio, label: ratio, base: {engine: innodb}}
""",
        more={("innodb", 4000, "t16"): 900},
        problems=problems,
    )
    avg = {r["iops"]: r for r in got["avg"]["rows"]}
    mean = {i: r["window"]["mean"] for i, r in runs.items()}
    assert avg[1000]["tps"] == round((mean["innodb-1000"] + mean["innodb-1000-again"]) / 2, 6)
    assert (
        avg[1000]["runs"] == 2
        and avg[2000]["runs"] == 1
        and avg[2000]["tps"] == mean["innodb-2000"]
    )
    assert got["avg"]["columns"][-1] == {
        "key": "runs",
        "label": "Runs",
        "kind": "number",
        "digits": 0,
    }
    vs = {r["iops"]: r for r in got["vs"]["rows"]}
    assert vs[4000]["ratio"] == round(mean["rocksdb-4000"] / mean["innodb-4000-t16"], 6)
    warned = [p.split(": ", 1)[1] for p in problems if "tables[" in p]
    assert warned == [
        "tables[0] (avg): runs innodb-1000, innodb-1000-again share the cell {'iops': '1000'} and are averaged, "
        "but differ in variant (again, none), not in rows, pivot or where",
        "tables[1] (vs): ratio rocksdb-4000 over innodb-4000-t16 compares runs that differ in variant (none / t16), "
        "not in rows, pivot or where",
    ]
    assert all(
        p.startswith(str(tmp_path / "content" / "d" / "manifest.yaml") + ":")
        for p in problems
        if "tables[" in p
    )


def test_a_ratio_of_the_value_named_by_of(tmp_path):
    got, runs = tables(
        tmp_path,
        """\
  - id: two
    where: {published: true}
    rows: [engine, iops]
    values:
      - {key: mean, label: Mean, stat: mean}
      - {key: p95, label: p95, stat: p95}
    ratio: {key: p95_vs_innodb, label: p95 / InnoDB, base: {engine: innodb}, of: p95}
""",
    )
    row = next(r for r in got["two"]["rows"] if (r["engine"], r["iops"]) == ("rocksdb", 2000))
    p95 = {i: r["window"]["p95"] for i, r in runs.items()}
    assert row["p95_vs_innodb"] == round(p95["rocksdb-2000"] / p95["innodb-2000"], 6)
    man = make_declared(
        tmp_path / "bad",
        "  - {id: x, rows: [engine, iops], value: {key: v, label: V, stat: mean}, "
        "ratio: {key: r, label: R, base: {engine: innodb}, of: p95}}\n",
    )
    with pytest.raises(Problem) as e:
        ingest(
            man,
            tmp_path / "bad" / "archives",
            tmp_path / "bad" / "studies",
            tmp_path / "bad" / "data",
        )
    assert (e.value.line, e.value.reason) == (
        15,
        "tables[0] (x).ratio: of: 'p95' is not the key of one of the values",
    )


def test_label_columns_are_headed_by_label_names_unless_the_table_says(tmp_path):
    got, _ = tables(
        tmp_path,
        """\
  - id: by-engine
    where: {published: true}
    rows: [engine, iops]
    columns: {iops: Provisioned IOPS}
    value: {key: tps, label: TPS, stat: mean}
""",
        extra="label_names: {engine: Storage engine, iops: IOPS tier}\n",
    )
    headings = {c["key"]: c["label"] for c in got["by-engine"]["columns"]}
    assert headings["engine"] == "Storage engine" and headings["iops"] == "Provisioned IOPS"
    assert {c["key"]: c["label"] for c in got["runs"]["columns"]}["iops"] == "IOPS tier"
