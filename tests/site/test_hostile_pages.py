"""Hostile names and numbers on built pages: two query studies whose suite and query names
hold `/` (suite `TPC-H/1` query `9`, suite `TPC-H` query `1/9`) were one compare entry
`TPC-H/1/9`, their rows ranked together; a whole number beyond 2^53 in a table
(12345678901234567, exact in data/) showed rounded through a float. One small build."""

from __future__ import annotations

import html
import re

import pytest
import yaml

from ingest.derive.compare import QueryRows, compare_doc
from ingest.write.datadir import dump
from tests.kit.sitebuild import BASE_URL, ROOT, build

STUDY = """\
schema: 1
study: {study}
title: {study}
ingest_version: 0.1.0
inputs:
  - {{name: q.tar.gz, kind: archive, sha256: "00", origin: "https://example.org/q"}}
interval_s: null
metric: null
window: null
labels: [server]
display: {{}}
markers: []
tables: [query-summary, big]
problems: []
queries: {{suite: "{suite}", labels: [server], runs: 2, queries: ["{query}"]}}
"""
SUMMARY = """\
id: query-summary
title: Each query
columns:
  - {{key: server, label: Server, kind: label}}
  - {{key: query, label: Query, kind: label}}
  - {{key: "n", label: Runs, kind: number, digits: 0}}
  - {{key: median, label: Median s, kind: number}}
  - {{key: min, label: Min s, kind: number}}
  - {{key: max, label: Max s, kind: number}}
  - {{key: status, label: Status, kind: text}}
rows:
  - {{server: {server}, query: "{query}", "n": 2, median: {median}, min: {median}, max: {median}, status: finished}}
"""
BIG = """\
id: big
title: Counters
columns:
  - {key: name, label: Name, kind: label}
  - {key: count, label: Count, kind: number}
  - {key: bytes, label: Bytes, kind: number, digits: 1}
rows:
  - {name: a, count: 12345678901234567, bytes: -9007199254740993}
  - {name: b, count: 42, bytes: 1.5}
"""
POSTS = {  # post -> (suite, query, server, median)
    "slash-suite": ("TPC-H/1", "9", "alpha", 11),
    "slash-query": ("TPC-H", "1/9", "beta", 22),
}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hostile-pages")
    for post, (suite, query, server, median) in POSTS.items():
        data = tmp / "data" / post / "tables"
        data.mkdir(parents=True)
        (data.parent / "study.yaml").write_text(STUDY.format(study=post, suite=suite, query=query))
        (data.parent / "runs.yaml").write_text("runs: []\n")
        summary = SUMMARY.format(server=server, query=query, median=median)
        (data / "query-summary.yaml").write_text(summary)
        rows = QueryRows(suite, ["server"], yaml.safe_load(summary)["rows"])
        (data.parent / "compare.yaml").write_text(dump(compare_doc([], {}, rows)))  # as ingested
        (data / "big.yaml").write_text(BIG)
        page = tmp / "content" / "posts" / post
        page.mkdir(parents=True)
        (page / "index.md").write_text(
            f'---\ntitle: "{post}"\ndate: 2019-06-12\nsummary: "Queries."\nstudy: {post}\n---\n\n'
            '{{< table id="big" source="derived" >}}\n'
        )
    (tmp / "content" / "compare").mkdir()
    (tmp / "content" / "compare" / "index.md").write_text(
        (ROOT / "content" / "compare" / "index.md").read_text()
    )
    try:  # the post rules fail these bare posts; the pages are built before the checks
        build(tmp / "www" / "benchlog", BASE_URL, extra=tmp, previews=False, own_content=False)
    except AssertionError:
        pass
    return tmp / "www" / "benchlog"


def test_suite_and_query_names_holding_a_slash_stay_two_compare_entries(site):
    page = (site / "compare" / "index.html").read_text()
    keys = html.unescape(" ".join(re.findall(r'data-query="([^"]*)"', page))).split()
    assert sorted(keys) == ["TPC-H%2F1/9", "TPC-H/1%2F9"]
    options = re.findall(r"<option>([^<]*)</option>", page)
    assert sorted(html.unescape(o) for o in options) == ["TPC-H%2F1/9", "TPC-H/1%2F9"]


def test_whole_numbers_beyond_2_53_are_shown_exactly(site):
    page = (site / "posts" / "slash-suite" / "index.html").read_text()
    assert "12,345,678,901,234,567" in page and "12,345,678,901,234,568" not in page
    assert "-9,007,199,254,740,993.0" in page
    assert ">42<" in page and ">1.5<" in page
