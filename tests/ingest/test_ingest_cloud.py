"""The myrocks-cloud-cost study from the real archive (read in place, ingested once per session)."""

from __future__ import annotations

import csv
import io
import json
import math
import tarfile
from collections import defaultdict

import pytest
import yaml

from ingest.pipeline import ingest
from ingest.write.csvfiles import series_csv
from tests.kit.golden import ROOT, SHARED

ARCHIVE = SHARED / "archives" / "percona-201807-rocksdb-cloud.tar.gz"
STUDY = "myrocks-cloud-cost"


def load(cloud, rel):
    return yaml.load((cloud["data"] / STUDY / rel).read_text(), Loader=yaml.CSafeLoader)


@pytest.fixture(scope="module")
def runs(cloud_ingest):
    return load(cloud_ingest, "runs.yaml")["runs"]


@pytest.fixture(scope="module")
def series(cloud_ingest, runs):
    """run id -> its series file (the one copy, JSON), each parsed once."""
    return {
        r["id"]: json.loads(
            (cloud_ingest["data"] / STUDY / "series" / f"{r['id']}.json").read_text()
        )
        for r in runs
    }


@pytest.fixture(scope="module")
def res_csv():
    """The authors' own per-second extract, (engine, iops, cache) -> [(sec, tps)], read in place."""
    with tarfile.open(ARCHIVE) as tf:
        member = next(m for m in tf.getmembers() if m.name.endswith("/res.csv"))
        text = tf.extractfile(member).read().decode()
    cells = defaultdict(list)
    for sec, tps, engine, iops, cache in csv.reader(io.StringIO(text)):
        cells[engine, iops, int(cache)].append((int(sec), float(tps)))
    return cells


def published(runs):
    return {
        (r["labels"]["engine"], r["labels"]["iops"], r["labels"]["cache_gb"]): r
        for r in runs
        if r["published"]
    }


def test_every_run_of_the_archive(runs, series):
    assert len(published(runs)) == 24
    files = {r["source"]["file"] for r in runs}
    with tarfile.open(ARCHIVE) as tf:
        logs = {m.name.split("/", 1)[1] for m in tf.getmembers() if m.name.endswith(".txt")}
    assert files == logs  # every log gave at least one run
    for r in runs:
        s = series[r["id"]]
        assert s["columns"] == ["t", "tps", "qps", "lat_ms", "err_s", "reconn_s"]
        assert all(len(s[c]) == r["intervals"] == 3600 for c in s["columns"])
        assert s["t"] == sorted(s["t"]) and s["t"][-1] == 3600  # as printed (one repeats 644)
        assert r["window"]["n"] == 1600


def test_series_and_window_means_match_the_authors_res_csv(runs, series, res_csv):
    cells = published(runs)
    assert set(cells) == set(res_csv)
    for key, rows in res_csv.items():
        s = series[cells[key]["id"]]
        assert list(zip(s["t"], s["tps"])) == rows, key
        theirs = [tps for sec, tps in rows if 2000 < sec <= 3600]
        assert cells[key]["window"]["mean"] == pytest.approx(
            math.fsum(theirs) / len(theirs), abs=1e-6
        )


def test_the_series_is_stored_once_and_its_csv_holds_it(cloud_ingest, runs, series):
    """data/ has the JSON only (the chart fetches it); the readers' CSV written from it when the
    site is published holds the same numbers, one row per interval."""
    folder = cloud_ingest["data"] / STUDY / "series"
    assert sorted(p.name for p in folder.iterdir()) == sorted(f"{r['id']}.json" for r in runs)
    for r in runs:
        rows = list(csv.reader(io.StringIO(series_csv((folder / f"{r['id']}.json").read_text()))))
        assert rows[0] == series[r["id"]]["columns"] and len(rows) == 1 + r["intervals"]
        assert [float(x) for x in next(zip(*rows[1:]))] == series[r["id"]]["t"]


def test_the_cloud_studys_data_is_within_5_mb(cloud_ingest):
    """15 MB when each series was written three times (YAML, JSON, CSV)."""
    files = [p for p in (cloud_ingest["data"] / STUDY).rglob("*") if p.is_file()]
    assert sum(p.stat().st_size for p in files) <= 5_000_000


def test_interval_means_agree_with_sysbench_summaries(runs):
    for r in runs:
        assert r["check"]["ok"] is True, r["id"]
        assert r["check"]["rel_diff"] < 0.001
        assert r["check"]["summary"] == r["summary"]["tps"]


def test_multi_session_files_and_extras(cloud_ingest, runs):
    by_id = {r["id"]: r for r in runs}
    s3, s4 = by_id["unlabelled-16thr-s3"], by_id["unlabelled-16thr-s4"]
    assert (s3["source"]["session"], s4["source"]["session"], s3["source"]["sessions"]) == (3, 4, 4)
    assert by_id["innodb-5000-54"]["source"]["file"] == "res_innodb_32thr_5000iops_bp54GB.txt"
    assert by_id["innodb-5000-54-repeat"]["published"] is False
    assert by_id["rocksdb-30000-32thr-direct"]["labels"]["variant"] == "direct"
    problems = load(cloud_ingest, "study.yaml")["problems"]
    assert any(
        p.startswith("percona-201807-rocksdb-cloud.tar.gz/res_16thr.txt:380: session 1 ")
        for p in problems
    )
    assert any(
        p.startswith("percona-201807-rocksdb-cloud.tar.gz/res_16thr.txt:414: session 2 ")
        for p in problems
    )
    assert (
        "percona-201807-rocksdb-cloud.tar.gz/res_rocksdb_15000iops_cache27GB.txt:1: run rocksdb-15000-27: "
        "interval time(s) 644 s printed again or out of order (1 in all); kept as printed"
    ) in problems


def test_avg_tps_table_contract(cloud_ingest, runs):
    t = load(cloud_ingest, "tables/avg-tps.yaml")
    assert [c["key"] for c in t["columns"]] == ["engine", "iops", "cache_gb", "avg_tps"]
    assert len(t["rows"]) == 24
    assert {r["engine"] for r in t["rows"]} == {"innodb", "rocksdb"}
    assert {r["iops"] for r in t["rows"]} == {
        "5000",
        "10000",
        "15000",
        "20000",
        "30000",
        "10000gp2",
    }
    assert {r["cache_gb"] for r in t["rows"]} == {27, 54}
    cells = published(runs)
    for row in t["rows"]:  # unrounded (shown with 2 decimals): the reproduction sees truncations
        assert (
            row["avg_tps"] == cells[row["engine"], row["iops"], row["cache_gb"]]["window"]["mean"]
        )


def test_published_ratios_are_reproduced(cloud_ingest):
    ratio = {
        (r["iops"], r["cache_gb"]): r["ratio"]
        for r in load(cloud_ingest, "tables/ratio.yaml")["rows"]
    }
    assert ratio["10000gp2", 54] == pytest.approx(4.7, abs=0.1)  # "about 4.7x" on gp2
    assert round(ratio["30000", 54], 2) == 2.45  # "about 2.45x" on io1 30000
    assert all(v > 1 for v in ratio.values())  # MyRocks ahead everywhere


def test_cost_and_tps_per_dollar(cloud_ingest):
    cost = {r["resource"]: r for r in load(cloud_ingest, "tables/cost.yaml")["rows"]}
    assert cost["c5.9xlarge"]["io_usd"] is None  # empty cell: missing, not 0
    per = load(cloud_ingest, "tables/tps-per-dollar.yaml")["rows"]
    assert len(per) == 24
    for r in per:
        assert r["total_usd"] == cost["c5.9xlarge"]["total_usd"] + r["storage_usd"]
        assert r["tps_per_1000usd"] == pytest.approx(r["avg_tps"] / r["total_usd"] * 1000, abs=0.01)


def test_jitter_and_runs_tables_cover_every_run(cloud_ingest, runs):
    jitter = load(cloud_ingest, "tables/jitter.yaml")["rows"]
    listing = load(cloud_ingest, "tables/runs.yaml")["rows"]
    assert [r["run"] for r in jitter] == [r["run"] for r in listing] == [r["id"] for r in runs]
    for j in jitter:
        assert j["min"] <= j["p1"] <= j["p5"] <= j["p50"] <= j["p95"] <= j["p99"] <= j["max"]
        assert j["cv"] > 0


def test_committed_data_is_the_fresh_ingest(cloud_ingest):
    fresh = cloud_ingest["data"] / STUDY
    committed = ROOT / "data" / STUDY
    names = sorted(p.relative_to(fresh).as_posix() for p in fresh.rglob("*") if p.is_file())
    assert names == sorted(
        p.relative_to(committed).as_posix() for p in committed.rglob("*") if p.is_file()
    )
    for n in names:
        assert (fresh / n).read_bytes() == (committed / n).read_bytes(), n


def test_reingest_changes_nothing(cloud_ingest):
    out = cloud_ingest["data"] / STUDY
    before = {p: (p.stat().st_mtime_ns, p.read_bytes()) for p in out.rglob("*") if p.is_file()}
    res = ingest(
        ROOT / "content/posts" / STUDY / "manifest.yaml",
        SHARED / "archives",
        SHARED / "studies",
        cloud_ingest["data"],
    )
    assert res["written"] == [] and res["removed"] == []
    assert {
        p: (p.stat().st_mtime_ns, p.read_bytes()) for p in out.rglob("*") if p.is_file()
    } == before
    assert sorted(p.name for p in cloud_ingest["data"].iterdir()) == [
        ".ingest.lock",
        STUDY,
    ]  # no temp dirs left


def test_my_cnf_table_from_the_archive(cloud_ingest):
    opts = {r["option"]: r["value"] for r in load(cloud_ingest, "tables/my-cnf.yaml")["rows"]}
    assert opts["default_storage_engine"] == "RocksDB"
    assert (
        "compression=kLZ4Compression" in opts["rocksdb_default_cf_options"]
    )  # LZ4, as the post says
