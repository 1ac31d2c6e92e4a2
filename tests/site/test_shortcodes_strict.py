"""Strict shortcodes: every shortcode (table, value, provenance, reproduction, keyresult(s) and
chart of every kind) rejects unknown or positional parameters, unknown columns and values it
cannot use, with errorf and the position (file:line:col), instead of building a page that
silently ignores them. All cases are pages of one build: errorf does not stop Hugo, so every
case reports (docs/charts.md, "Strict parameters")."""

from __future__ import annotations

import pytest

from tests.kit.sitebuild import build

KEYRESULTS = (
    "{{{{< keyresults >}}}}"
    + 3 * '{{{{< keyresult ref="{ref}" >}}}}A result.{{{{< /keyresult >}}}}'
    + "{{{{< /keyresults >}}}}"
)
POSTS = {  # post -> (its shortcode line, the message expected)
    "strict-colr": (
        '{{< table id="avg-tps" colr="red" >}}',
        'table: unknown parameter "colr" (allowed: id, caption, collapsed, source, hide, lazy)',
    ),
    "strict-collapsed": (
        '{{< table id="avg-tps" collapsed="yes" >}}',
        'table: collapsed must be "true" or "false"',
    ),
    "strict-value": (
        '{{< value table="ratio" col="ratio" agg="max" cols="x" >}}',
        'value: unknown parameter "cols" (allowed: table, col, where, agg, over, overcol, digits, kind, show)',
    ),
    "strict-value-show": (
        '{{< value table="ratio" col="ratio" agg="max" show="nope" >}}',
        'no column "nope" in table "ratio"',
    ),
    "strict-value-show-over": (
        '{{< value table="avg-tps" col="avg_tps" where="engine=rocksdb,iops=5000,cache_gb=27" show="engine" over="same" >}}',
        "value: show and over cannot go together",
    ),
    "strict-value-agg-text": (  # was the lexicographically largest engine
        '{{< value table="avg-tps" col="engine" agg="max" >}}',
        'value: agg="max" needs a number or ratio column, not the label column "engine" of table "avg-tps"',
    ),
    "strict-value-agg-list-over": (
        '{{< value table="avg-tps" col="engine" agg="list" over="same" >}}',
        'value: agg="list" cannot go with show or over',
    ),
    "strict-value-agg-unknown": (
        '{{< value table="avg-tps" col="avg_tps" agg="sum" >}}',
        'value: agg must be min, max or list, not "sum"',
    ),
    "strict-digits": (
        '{{< value table="ratio" col="ratio" agg="max" digits="abc" >}}',
        'value: digits must be a whole number, not "abc"',
    ),
    "strict-provenance": (
        '{{< provenance extra="1" >}}',
        'provenance: unknown parameter "extra" (it takes none)',
    ),
    "strict-positional": (
        '{{< table "avg-tps" >}}',
        "table: positional parameters are not accepted",
    ),
    "strict-table-source": (
        '{{< table id="avg-tps" source="guess" >}}',
        'table: source must be derived, published, computed or estimate, not "guess"',
    ),
    "strict-reproduction": (
        '{{< reproduction all="1" >}}',
        'reproduction: unknown parameter "all" (it takes none)',
    ),
    "strict-keyresults": (
        '{{< keyresults n="3" >}}{{< keyresult ref="a" >}}a{{< /keyresult >}}{{< keyresult ref="b" >}}b'
        '{{< /keyresult >}}{{< keyresult ref="c" >}}c{{< /keyresult >}}{{< /keyresults >}}',
        'keyresults: unknown parameter "n" (it takes none)',
    ),
    "strict-keyresult": (
        '{{< keyresults >}}{{< keyresult ref="a" to="b" >}}a{{< /keyresult >}}{{< keyresult ref="b" >}}b'
        '{{< /keyresult >}}{{< keyresult ref="c" >}}c{{< /keyresult >}}{{< /keyresults >}}',
        'keyresult: unknown parameter "to" (allowed: ref)',
    ),
    # charts: one shared check (chart-parts/params.html) with each kind's own list
    "strict-chart-positional": (
        '{{< chart "bars" >}}',
        "chart: positional parameters are not accepted",
    ),
    "strict-bars-colr": (
        '{{< chart kind="bars" id="b" table="avg-tps" x="iops" y="avg_tps" colr="engine" >}}',
        'chart kind=bars: unknown parameter "colr" (allowed: kind, id, caption, source, table, x, y, '
        "color, facet, mark, log, order, where, basis)",
    ),
    "strict-bars-color": (
        '{{< chart kind="bars" id="b" table="avg-tps" x="iops" y="avg_tps" color="engin" >}}',
        'no column "engin" in table "avg-tps"',
    ),
    "strict-bars-order": (
        '{{< chart kind="bars" id="b" table="avg-tps" x="iops" y="avg_tps" order="5000,100,999" >}}',
        'bars: order value "100" is not a value of column "iops"',
    ),
    "strict-bars-log": (
        '{{< chart kind="bars" id="b" table="avg-tps" x="iops" y="avg_tps" log="yes" >}}',
        'chart kind=bars: log must be "true" or "false", not "yes"',
    ),
    "strict-bars-source": (
        '{{< chart kind="bars" id="b" table="avg-tps" x="iops" y="avg_tps" source="guess" >}}',
        'chart kind=bars: source must be derived, published, computed or estimate, not "guess"',
    ),
    "strict-line-xlgo": (
        '{{< chart kind="line" id="l" table="avg-tps" x="cache_gb" y="avg_tps" xlgo="true" >}}',
        'chart kind=line: unknown parameter "xlgo"',
    ),
    "strict-line-xlog-names": (
        '{{< chart kind="line" id="l" table="avg-tps" x="engine" y="avg_tps" xlog="true" >}}',
        'line: xlog="true" needs numbers, but column "engine" is shown as names',
    ),
    "strict-line-y": (
        '{{< chart kind="line" id="l" table="avg-tps" x="cache_gb" y="tps" >}}',
        'no column "tps" in table "avg-tps"',
    ),
    "strict-ratio-noise": (
        '{{< chart kind="ratio" id="r" table="avg-tps" row="iops,cache_gb" col="engine" value="avg_tps" noise="runs" >}}',
        'chart kind=ratio: unknown parameter "noise"',
    ),
    "strict-ratio-view": (
        '{{< chart kind="ratio" id="r" table="avg-tps" row="iops" col="engine" value="avg_tps" >}}',
        'ratio: table "avg-tps"\'s ratio block is row="iops,cache_gb" col="engine" value="avg_tps", not the chart\'s',
    ),
    "strict-ratio-undeclared": (
        '{{< chart kind="ratio" id="r" table="latency" row="iops,cache_gb" col="engine" value="p95" >}}',
        'ratio: table "latency" has no ratio block: declare it in the manifest\'s ratios:',
    ),
    "strict-ratio-digits": (
        '{{< chart kind="ratio" id="r" table="avg-tps" row="iops,cache_gb" col="engine" value="avg_tps" digits="two" >}}',
        'chart kind=ratio: digits must be a whole number, not "two"',
    ),
    "strict-ts-window": (
        '{{< chart kind="timeseries" id="t" window="abc" >}}',
        'timeseries: window must be "start-end" in seconds (e.g. "600-1800"), not "abc"',
    ),
    "strict-ts-window-order": (
        '{{< chart kind="timeseries" id="t" window="900-300" >}}',
        'timeseries: window "900-300" starts at or after its end',
    ),
    "strict-ts-metric": (
        '{{< chart kind="timeseries" id="t" metric="tsp" >}}',
        'timeseries: metric "tsp" is not a column of the chart\'s runs',
    ),
    "strict-ts-param": (
        '{{< chart kind="timeseries" id="t" windw="0-60" >}}',
        'chart kind=timeseries: unknown parameter "windw"',
    ),
    "strict-metrics-param": (
        '{{< chart kind="metrics" id="m" panel="lat_ms" >}}',
        'chart kind=metrics: unknown parameter "panel" (allowed: kind, id, caption, source, runs, show, panels, color)',
    ),
    "strict-metrics-panels": (
        '{{< chart kind="metrics" id="m" panels="lat_ms,vm.us" >}}',
        'metrics: panels: "vm.us" is no metric of the chart\'s runs',
    ),
    "strict-queries-param": (
        '{{< chart kind="queries" id="q" colour="server" >}}',
        'chart kind=queries: unknown parameter "colour"',
    ),
    "strict-queries-color": (
        '{{< chart kind="queries" id="q" color="engine" >}}',
        'no column "engine" in table "query-runs"',
    ),
    "strict-queries-query": (
        '{{< chart kind="queries" id="q" color="server" queries="1,99" >}}',
        'chart kind=queries: no query "99" in table "query-summary"',
    ),
    "strict-queries-log": (
        '{{< chart kind="queries" id="q" log="auto" >}}',
        'chart kind=queries: log must be "true" or "false", not "auto"',
    ),
    "strict-plans-query": (
        '{{< chart kind="plans" id="p" by="server" query="99" >}}',
        'chart kind=plans: query "99" has no plan in table "query-plans"',
    ),
    "strict-plans-base": (
        '{{< chart kind="plans" id="p" by="server" base="mysql-8-0" >}}',
        'chart kind=plans: base "mysql-8-0" is not a value of column "server"',
    ),
    "strict-plans-columns": (
        '{{< chart kind="plans" id="p" columns="table,cost" >}}',
        'no column "cost" in table "query-plans"',
    ),
    "strict-versions-param": (
        '{{< chart kind="versions" id="v" metrc="qps" >}}',
        'chart kind=versions: unknown parameter "metrc" (allowed: kind, id, caption, source, table, metric, base, where, top, ratio)',
    ),
    "strict-versions-metric": (
        '{{< chart kind="versions" id="v" metric="tps" >}}',
        'chart kind=versions: metric "tps" is not a metric of table "versions" (qps)',
    ),
    "strict-versions-base": (
        '{{< chart kind="versions" id="v" base="9.9.9" >}}',
        'chart kind=versions: base "9.9.9" is not a version of table "versions"',
    ),
    "strict-versions-top": (
        '{{< chart kind="versions" id="v" top="many" >}}',
        'chart kind=versions: top "many" must be a whole number from 1 to 99',
    ),
    "strict-versions-where": (
        '{{< chart kind="versions" id="v" where="group=no-such-group" >}}',
        'chart kind=versions: no row of table "versions" is left (where="group=no-such-group")',
    ),
    "strict-versions-table": (
        '{{< chart kind="versions" id="v" table="absolute-qps" >}}',
        'chart kind=versions: table "absolute-qps" is not a versions: view\'s',
    ),
    # a missing table, study or run: our errorf, and nothing after it (no Go error of the code below)
    "strict-no-table": (
        '{{< table id="no-such-table" >}}',
        'no table "no-such-table" in data/myrocks-cloud-cost/tables/',
    ),
    "strict-no-table-hide": (
        '{{< table id="no-such-table" hide="x" >}}',
        'no table "no-such-table" in data/',
    ),
    "strict-no-table-collapsed": (
        '{{< table id="no-such-table" collapsed="true" >}}',
        'no table "no-such-table" in data/',
    ),
    "strict-no-value-table": (
        '{{< value table="no-such-table" col="x" >}}',
        'no table "no-such-table" in data/',
    ),
    "strict-no-bars-table": (
        '{{< chart kind="bars" id="b" table="no-such-table" x="a" y="b" >}}',
        'no table "no-such-table" in data/',
    ),
    "strict-no-ratio-table": (
        '{{< chart kind="ratio" id="r" table="no-such-table" row="a" col="b" value="c" >}}',
        'no table "no-such-table" in data/',
    ),
    "strict-no-ts-stats": (
        '{{< chart kind="timeseries" id="t" stats="no-such-table" >}}',
        'no table "no-such-table" in data/',
    ),
    "strict-no-ts-runs": (
        '{{< chart kind="timeseries" id="t" runs="nope|nada" >}}',
        'timeseries: runs="nope|nada" matches no run',
    ),
    "strict-no-ts-data": (
        '{{< chart kind="timeseries" id="t" >}}',
        "no data/no-such-study/ for this post",
    ),
    "strict-no-metrics-data": (
        '{{< chart kind="metrics" id="m" >}}',
        "no data/no-such-study/ for this post",
    ),
    "strict-no-reproduction-data": ("{{< reproduction >}}", "no data/no-such-study/ for this post"),
    # rules across shortcodes (post/checks.html): before, only the HTML checker ("Duplicate ID")
    # or a browser test minutes later found these
    "strict-id-heading": (
        '{{< table id="avg-tps" >}}\n\n## Avg tps',
        'the chart or table id "avg-tps" is also the anchor of a heading of this post',
    ),
    "strict-ref-closed": (
        KEYRESULTS.format(ref="avg-tps") + '\n\n{{< table id="avg-tps" collapsed="true" >}}',
        'keyresult ref="avg-tps" points at a collapsed table',
    ),
    "strict-ref-missing": (
        KEYRESULTS.format(ref="nope") + '\n\n{{< table id="avg-tps" >}}',
        'keyresult ref="nope" names no chart or table of this post (its ids: avg-tps)',
    ),
}
STUDY = {
    "strict-no-ts-data": "no-such-study",
    "strict-no-metrics-data": "no-such-study",
    "strict-no-reproduction-data": "no-such-study",
    **{
        name: "dbt3-myisam-2012"
        for name in POSTS
        if name.startswith(("strict-queries", "strict-plans"))
    },
    **{name: "sysbench-regressions" for name in POSTS if name.startswith("strict-versions")},
}  # else myrocks-cloud-cost


@pytest.fixture(scope="module")
def errors(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("strict")
    for name, (code, _) in POSTS.items():
        post = tmp / "content" / "posts" / name
        post.mkdir(parents=True)
        (post / "index.md").write_text(
            f'---\ntitle: "{name}"\ndate: 2026-01-01\nstudy: {STUDY.get(name, "myrocks-cloud-cost")}\n'
            f"---\n\nText.\n\n{code}\n"
        )
    with pytest.raises(AssertionError) as e:
        build(tmp / "www" / "benchlog", "https://example.github.io/benchlog/", extra=tmp)
    return str(e.value)


@pytest.mark.parametrize("post", POSTS)
def test_bad_parameters_fail_the_build_with_the_position(errors, post):
    message = POSTS[post][1]
    assert message in errors
    line = next((x for x in errors.splitlines() if message in x and f"/posts/{post}/" in x), "")
    assert f"posts/{post}/index.md:9:1" in line  # the shortcode's own position


def test_only_the_bad_posts_fail(errors):
    """The project's own posts (with their valid parameters) build: every error is a strict-* post's."""
    lines = [
        x for x in errors.splitlines() if x.startswith("ERROR") and "error building site" not in x
    ]
    assert len(lines) >= len(POSTS)
    assert all("/posts/strict-" in x for x in lines), [
        x for x in lines if "/posts/strict-" not in x
    ][:3]


def test_each_error_is_ours_alone(errors):
    """After its errorf a shortcode stops: no Go error of the template code below it (`can't
    iterate over <nil>`, `reflect: call of reflect.Value.Type on zero Value`), which would also
    stop Hugo before the other posts report; one errorf per missing table, study or run."""
    assert "execute of template failed" not in errors, errors[-600:]
    lines = [
        x for x in errors.splitlines() if x.startswith("ERROR") and "error building site" not in x
    ]
    assert f"error building site: logged {len(lines)} error(s)" in errors
    for post in (p for p in POSTS if p.startswith("strict-no-")):
        assert len([x for x in lines if f"/posts/{post}/" in x]) == 1, post
