"""Members parsed by a pool of processes (ingest/parse/pool.py) give what one process gives, in
order, bad members included; and the cloud study's data/ is byte-identical either way."""

from __future__ import annotations

import pytest

from ingest.parse import pool
from ingest.pipeline import build_files
from ingest.problems import Problem
from ingest.read.manifest import load
from tests.kit.golden import ROOT, SHARED
from tests.kit.sysbench_gen import sysbench_log


def items() -> list[pool.Item]:
    logs: list[pool.Item] = [
        (sysbench_log(100 + i, seconds=30).encode(), f"a/run-{i}.txt", "sysbench1", None)
        for i in range(6)
    ]
    logs.insert(2, (b"", "a/empty.txt", "sysbench1", None))
    logs.insert(5, (b"\xff\xfe garbage\n", "a/binary.txt", "sysbench1", None))
    return logs


def outcome(result):
    return str(result) if isinstance(result, Problem) else result


def test_a_pool_parses_like_one_process_in_order(monkeypatch):
    monkeypatch.setattr(pool, "MIN_BYTES", 0)
    # alone in its process, as the ingest's command is (the suite may hold server threads)
    monkeypatch.setattr(pool.threading, "active_count", lambda: 1)
    monkeypatch.setenv("INGEST_WORKERS", "1")
    alone = [outcome(r) for r in pool.parse_many(items())]
    for n in (2, 3):  # this process and one or two workers
        monkeypatch.setenv("INGEST_WORKERS", str(n))
        assert pool.workers(items()) == n
        assert [outcome(r) for r in pool.parse_many(items())] == alone
    assert alone[2] == "a/empty.txt: empty file"
    assert alone[5].startswith("a/binary.txt:1: not UTF-8 text")
    assert [r.file for r in alone if not isinstance(r, str)] == [f"a/run-{i}.txt" for i in range(6)]


def test_no_fork_while_another_thread_runs(monkeypatch):
    monkeypatch.setattr(pool, "MIN_BYTES", 0)
    monkeypatch.setenv("INGEST_WORKERS", "2")
    monkeypatch.setattr(pool.threading, "active_count", lambda: 2)
    assert pool.workers(items()) == 1


def test_few_or_small_members_stay_in_one_process(monkeypatch):
    monkeypatch.setenv("INGEST_WORKERS", "2")
    assert pool.workers(items()) == 1  # 8 small logs: under MIN_BYTES
    monkeypatch.setattr(pool, "MIN_BYTES", 0)
    assert pool.workers(items()[: pool.MIN_MEMBERS - 1]) == 1


@pytest.mark.slow  # the cloud study built twice
def test_the_cloud_study_builds_the_same_bytes_with_a_pool(monkeypatch):
    m = load(ROOT / "content/posts/myrocks-cloud-cost/manifest.yaml")
    built = {}
    for n in ("1", "2"):
        monkeypatch.setenv("INGEST_WORKERS", n)
        built[n] = build_files(m, SHARED / "archives", SHARED / "studies").files
    assert built["2"] == built["1"] and len(built["1"]) > 36
