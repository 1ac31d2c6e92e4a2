"""The charts' text summaries and data sections (summaries/*.html, chart-parts/plan-fallback.html)
say one and many as English does: their sentences and plurals are i18n/en.toml's, on a tiny
site of our own (tests/kit/front_site.py) with a plans table made up here."""

from __future__ import annotations

import html
import re

import pytest
import yaml

from ingest.derive import plan_diffs
from tests.kit.front_site import STUDY, run_hugo, write_site


def _step(server, query, step, table, type_, key, rows):
    return {
        "server": server,
        "query": query,
        "runs": "1-3",
        "step": step,
        "table": table,
        "type": type_,
        "key": key,
        "rows": rows,
        "extra": None,
    }


PLANS = {  # query 1: one step each, beta's differs; query 2: two steps, beta's second differs,
    # gamma's are alpha's; query 3: alpha's plan only
    "id": "query-plans",
    "title": "Plans (made up)",
    "columns": [
        {"key": "server", "label": "Server", "kind": "label"},
        {"key": "query", "label": "Query", "kind": "label"},
        {"key": "runs", "label": "Runs", "kind": "text"},
        {"key": "step", "label": "Step", "kind": "number", "digits": 0},
        {"key": "table", "label": "table", "kind": "text"},
        {"key": "type", "label": "type", "kind": "text"},
        {"key": "key", "label": "key", "kind": "text"},
        {"key": "rows", "label": "rows", "kind": "number", "digits": 0},
        {"key": "extra", "label": "extra", "kind": "text"},
    ],
    "rows": [
        _step("alpha", "1", 1, "orders", "ALL", None, 900),
        _step("beta", "1", 1, "orders", "range", "i_date", 40),
        _step("alpha", "2", 1, "orders", "ALL", None, 900),
        _step("alpha", "2", 2, "items", "ref", "PRIMARY", 4),
        _step("beta", "2", 1, "orders", "ALL", None, 900),
        _step("beta", "2", 2, "items", "ALL", None, 7000),
        _step("gamma", "2", 1, "orders", "ALL", None, 900),
        _step("gamma", "2", 2, "items", "ref", "PRIMARY", 4),
        _step("alpha", "3", 1, "orders", "ALL", None, 900),
    ],
    "notes": {},
}

POST = f"""---
title: Summaries
date: 2024-01-03
study: {STUDY}
---
{{{{< chart kind="bars" id="one-bar" table="avg-tps" x="iops" y="avg_tps" where="engine=alpha,iops=100" >}}}}

{{{{< chart kind="bars" id="two-bars" table="avg-tps" x="iops" y="avg_tps" where="engine=alpha" >}}}}

{{{{< chart kind="plans" id="plan-one" by="server" query="1" queries="1" where="server!=gamma" >}}}}

{{{{< chart kind="plans" id="plan-two" by="server" query="2" queries="1,2" >}}}}

{{{{< chart kind="plans" id="plan-alone" by="server" query="3" where="server=alpha" >}}}}
"""


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    site = write_site(tmp_path_factory.mktemp("summaries"), post=POST)
    tables = site / "data" / STUDY / "tables"
    plans = dict(PLANS)
    plan_diffs.add([plans])  # its plan_diff block, as the ingest writes it
    (tables / "query-plans.yaml").write_text(yaml.safe_dump(plans, sort_keys=False))
    (tables / "query-plans.csv").write_text("server,query\n")  # the plans' CSV link needs one
    out = site.parent / "out"
    proc = run_hugo(site, out)
    assert proc.returncode == 0, proc.stderr
    return html.unescape((out / "posts" / STUDY / "index.html").read_text(encoding="utf-8"))


def summary(page: str, chart: str) -> str:
    """The text summary of the figure with id `chart` (its figcaption when it has no caption)."""
    figure = page[page.index(f'<figure class="chart" id="{chart}"') :]
    return re.search(r'class="chart-summary">(.*?)</', figure).group(1)


def test_a_bars_chart_of_one_value_says_one_value(page):
    assert re.fullmatch(r"Avg TPS, 1 value: [0-9.,]+ \(IOPS 100\)\.", summary(page, "one-bar"))
    assert re.fullmatch(
        r"Avg TPS, 2 values: from [0-9.,]+ \(IOPS \d+\) to [0-9.,]+ \(IOPS \d+\)\.",
        summary(page, "two-bars"),
    )


def test_a_plan_of_one_step_differs_in_1_of_1_step(page):
    assert summary(page, "plan-one") == (
        "EXPLAIN of query 1 for 2 series side by side, compared with alpha: "
        "beta differs in 1 of 1 step."
    )
    assert summary(page, "plan-two") == (
        "EXPLAIN of query 2 for 3 series side by side, compared with alpha: "
        "beta differs in 1 of 2 steps; gamma has the same plan."
    )


def test_a_plan_with_nothing_to_compare_says_no_more(page):
    assert summary(page, "plan-alone") == "EXPLAIN of query 3 for 1 series side by side."


def test_the_plans_data_section_counts_one_query_and_many(page):
    assert "Every step of the 1 query's plan, 2 rows, is in plan-one.csv." in page
    assert "Every step of the 2 queries' plans, 8 rows, is in plan-two.csv." in page
