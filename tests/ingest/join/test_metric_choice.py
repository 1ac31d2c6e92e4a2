"""No wrong number from a manifest the docs allow. The manifest's `metric:` (or a
rule's) is the column every statistic, heading and chart of a run is of, or an error at the
manifest's line; a value the tool prints for an empty interval (tpcc-mysql's `95%: 0.000` when
no New-Order completed, sysbench's `lat (ms,95%): 0.00` when nothing ran) is missing, never
0; `rows: [run, ...]` gives one row per run, never a row for a combination no run has."""

from __future__ import annotations

import statistics

import pytest
import yaml

from ingest.parse.member import parse_bytes
from ingest.pipeline import ingest
from ingest.problems import Problem
from ingest.read.archive import sha256_file
from tests.kit.archive_gen import sysbench05_log, sysbench1_log, tar_gz, tpcc_mysql_log

SERVERS = {"mariadb-10.1": 900.0, "mysql-5.7": 1100.0}


def study(tmp_path, head: str, tables: str = "", logs: dict | None = None):
    """A study of two sysbench 0.5 runs (2 s intervals) with `head` added to its manifest;
    returns (manifest path, ingest result or the Problem raised)."""
    (tmp_path / "archives").mkdir(parents=True, exist_ok=True)
    logs = logs or {
        f"{s}/oltp.log": sysbench05_log(r, 60, seed=i) for i, (s, r) in enumerate(SERVERS.items())
    }
    arc = tar_gz(tmp_path / "archives" / "sb.tar.gz", logs, top="sb")
    man = tmp_path / "content" / "sb" / "manifest.yaml"
    man.parent.mkdir(parents=True, exist_ok=True)
    man.write_text(
        "study: sb\ntitle: Servers\ninputs:\n"
        f"  - {{name: sb.tar.gz, kind: archive, sha256: {sha256_file(arc)}, origin: https://example.org/sb}}\n"
        "interval_s: 2\nwindow: {start: 10, end: 60}\nlabels: [server]\n"
        f"{head}runs:\n  - regex: '(?P<server>[a-z0-9.-]+)/oltp\\.log'\n{tables}"
    )
    return man


def run(tmp_path, man):
    got = ingest(man, tmp_path / "archives", tmp_path / "studies", tmp_path / "data")
    data = tmp_path / "data" / "sb"
    runs = {r["id"]: r for r in yaml.safe_load((data / "runs.yaml").read_text())["runs"]}
    tables = {
        t: yaml.safe_load((data / "tables" / f"{t}.yaml").read_text())
        for t in yaml.safe_load((data / "study.yaml").read_text())["tables"]
    }
    return got, runs, tables, yaml.safe_load((data / "study.yaml").read_text())


def window_mean(text: str, column: str, start=10, end=60) -> float:
    s = parse_bytes(text.encode(), "x.log").sessions[0].series
    return statistics.fmean(
        v for t, v in zip(s["t"], s[column]) if start < t <= end and v is not None
    )


def test_the_manifests_metric_is_what_every_statistic_and_heading_is_of(tmp_path):
    """`metric: reads_s`: the run statistics, the default tables' numbers and headings, the
    jitter spread and study.yaml (the charts' default) are all of reads/s. Before, the runs'
    statistics stayed on tps while the tables were headed "Mean reads_s" (a mean of 899 shown
    where the reads/s mean is about 12,600)."""
    man = study(tmp_path, "metric: reads_s\n")
    _, runs, tables, meta = run(tmp_path, man)
    assert meta["metric"] == "reads_s"
    for i, (server, rate) in enumerate(SERVERS.items()):
        want = window_mean(sysbench05_log(rate, 60, seed=i), "reads_s")
        r = runs[server]
        assert r["metric"] == "reads_s" and r["window"]["mean"] == pytest.approx(want, abs=1e-6)
        row = next(x for x in tables["runs"]["rows"] if x["run"] == server)
        assert row["mean"] == r["window"]["mean"] and row["mean"] > 10 * rate
        # the tool's summary has no reads/s: the cross-check is missing, not another rate's
        assert row["summary"] is None and row["check_rel_diff"] is None
        spread = next(x for x in tables["jitter"]["rows"] if x["run"] == server)
        assert spread["max"] > 10 * rate
    heads = {c["key"]: c["label"] for c in tables["runs"]["columns"]}
    assert heads["mean"] == "Mean reads_s" and "reads_s" in tables["runs"]["title"]
    assert "metric" not in heads  # one metric: no column saying it on every row


def test_a_metric_no_run_has_is_an_error_at_its_line(tmp_path):
    from ingest.problems import Problem

    man = study(tmp_path, "metric: reads_per_s\n")
    with pytest.raises(Problem) as err:
        ingest(man, tmp_path / "archives", tmp_path / "studies", tmp_path / "data")
    line = man.read_text().splitlines().index("metric: reads_per_s") + 1
    assert str(err.value).startswith(f"{man}:{line}: metric 'reads_per_s' is not a column of run")
    assert "reads_s" in str(err.value)  # it names the columns there are
    assert not (tmp_path / "data" / "sb").exists()


def test_a_rules_metric_wins_and_mixed_metrics_are_named_on_every_row(tmp_path):
    """A rule's `metric:` sets its runs' column; when the runs' metrics differ, the default
    tables name each row's and no heading names one metric for all (LinkBench's load in
    links/s beside its request phases was headed "Mean requests/s")."""
    man = study(tmp_path, "")
    text = man.read_text().replace(
        "runs:\n",
        "runs:\n  - regex: 'mariadb-10\\.1/oltp\\.log'\n    labels: {server: mariadb-10.1}\n    metric: writes_s\n",
    )
    man.write_text(text)
    _, runs, tables, meta = run(tmp_path, man)
    assert runs["mariadb-10.1"]["metric"] == "writes_s" and runs["mysql-5.7"]["metric"] == "tps"
    for t in ("runs", "jitter"):
        heads = {c["key"]: c["label"] for c in tables[t]["columns"]}
        assert heads["metric"] == "Metric" and heads["mean"] == "Mean", heads
        assert {r["run"]: r["metric"] for r in tables[t]["rows"]} == {
            "mariadb-10.1": "writes_s",
            "mysql-5.7": "tps",
        }
    assert (
        "writes_s or tps" in tables["runs"]["title"] or "tps or writes_s" in tables["runs"]["title"]
    )
    # a declared value over runs of two metrics, without `column:`, is an error at its line
    man.write_text(
        text
        + "tables:\n  - id: mean\n    rows: [server]\n    value: {key: mean, label: Mean, stat: mean}\n"
    )
    from ingest.problems import Problem

    with pytest.raises(
        Problem,
        match=r"manifest\.yaml:\d+: tables\[0\] \(mean\): the runs taken have different metrics",
    ):
        ingest(man, tmp_path / "archives", tmp_path / "studies", tmp_path / "data2")


def test_rows_with_run_give_one_row_per_run_and_no_empty_combinations(tmp_path):
    """docs/manifest.md: `run` in rows is "no grouping". Before, the rows were every
    combination of the other labels, one empty row for each combination no run has."""
    logs = {
        f"{s}/oltp.log": sysbench05_log(r, 60, seed=i)
        for i, (s, r) in enumerate({"a-1": 500.0, "b-2": 700.0, "c-3": 900.0}.items())
    }
    man = study(
        tmp_path,
        "",
        "tables:\n  - id: per-run\n    rows: [run, server]\n"
        "    value: {key: mean, label: Mean tps, stat: mean}\n",
        logs,
    )
    man.write_text(
        man.read_text()
        .replace("labels: [server]", "labels: [server, digit]")
        .replace("(?P<server>[a-z0-9.-]+)/", "(?P<server>[a-z])-(?P<digit>\\d)/")
        .replace("rows: [run, server]", "rows: [run, server, digit]")
    )
    _, runs, tables, _ = run(tmp_path, man)
    rows = tables["per-run"]["rows"]
    assert [r["run"] for r in rows] == list(runs) and len(rows) == 3  # not 3 x 3 = 9
    assert all(r["mean"] == runs[r["run"]]["window"]["mean"] for r in rows)


def test_tpcc_mysql_empty_interval_latencies_are_missing():
    """tpcc-mysql prints `trx: 0, 95%: 0.000, 99%: 0.000, max_rt: 0.000` (and `0|0.000` for each
    other transaction type) for an interval in which none completed: the response times are
    missing there, so no latency statistic is biased low by 0 ms readings."""
    text = tpcc_mysql_log(900, 100, idle=(3, 7))
    s = parse_bytes(text.encode(), "tpcc.log").sessions[0].series
    assert s["trx"][2] == 0 and s["trx"][6] == 0  # the count stays a count: 0 is a reading
    for col in ("p95_ms", "p99_ms", "max_rt_ms", "payment_max_rt_ms", "delivery_max_rt_ms"):
        assert s[col][2] is None and s[col][6] is None, col
        assert all(v > 0 for i, v in enumerate(s[col]) if i not in (2, 6)), col
    assert s["payment"][2] == 0


@pytest.mark.parametrize(
    "text",
    [sysbench1_log(400, 10, idle=(4,)), sysbench05_log(400, 20, idle=(4,))],
    ids=["sysbench1", "sysbench05"],
)
def test_sysbench_empty_interval_latency_is_missing(text):
    s = parse_bytes(text.encode(), "sb.log").sessions[0].series
    assert s["tps"][3] == 0 and s["lat_ms"][3] is None
    assert all(v > 0 for i, v in enumerate(s["lat_ms"]) if i != 3)


def test_a_metric_with_a_control_character_is_refused(tmp_path):
    man = study(tmp_path, 'metric: "tps\\x1b"\n')
    with pytest.raises(Problem, match=r"metric 'tps\\x1b' must name a series column"):
        ingest(man, tmp_path / "archives", tmp_path / "studies", tmp_path / "data")


def test_a_declared_table_names_the_metric_it_is_of(tmp_path):
    """`{metric}` in a declared value's label or a table's title is the column its numbers are
    of: a label the scaffold writes ("Mean {metric}") stays right when the author changes
    `metric:` (a typed "Mean tps" over reads/s means was the wrong label)."""
    man = study(
        tmp_path,
        "metric: reads_s\n",
        "tables:\n  - id: by-server\n    title: 'Mean {metric} by server'\n    rows: [server]\n"
        "    values:\n      - {key: mean, label: 'Mean {metric}', stat: mean}\n"
        "      - {key: lat, label: 'Mean {metric}', stat: mean, column: lat_ms}\n",
    )
    _, runs, tables, _ = run(tmp_path, man)
    t = tables["by-server"]
    assert t["title"] == "Mean reads_s by server"
    assert [c["label"] for c in t["columns"][1:]] == ["Mean reads_s", "Mean lat_ms"]
    assert t["rows"][0]["mean"] == runs[t["rows"][0]["server"]]["window"]["mean"]


def test_a_base_ratio_is_only_between_like_metrics(tmp_path):
    """Run mariadb-10.1 reads writes_s (its rule's `metric:`), its base mysql-5.7 tps: the
    ratio of writes/s over tps was published as a number; now it is missing, with a warning
    at `base:`. The base run's own ratio (like over like) stays 1."""
    man = study(tmp_path, "base: {server: mysql-5.7}\n")
    text = man.read_text().replace(
        "runs:\n",
        "runs:\n  - regex: 'mariadb-10\\.1/oltp\\.log'\n    labels: {server: mariadb-10.1}\n    metric: writes_s\n",
    )
    man.write_text(text)
    got, runs, _, _ = run(tmp_path, man)
    assert runs["mariadb-10.1"]["base"] == {"run": "mysql-5.7", "ratio": None}
    assert runs["mysql-5.7"]["base"] == {"run": "mysql-5.7", "ratio": 1.0}
    line = text.splitlines().index("base: {server: mysql-5.7}") + 1
    assert (
        f"{man}:{line}: run mariadb-10.1 (writes_s) has no ratio to its base run mysql-5.7 (tps): "
        "a ratio is only between like metrics"
    ) in [str(p) for p in got["problems"]]
