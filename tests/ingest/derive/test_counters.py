"""Server counter tables from the manifest: before/after SHOW GLOBAL STATUS or
mysqladmin extended-status snapshots of each run -> one per-operation table, a row per counter
and a column per run (ICP-style), without a study module. Our own snapshots, written here in
the two documented MySQL layouts, around our own LinkBench log (tests/fixtures/linkbench/noon.log)."""

from __future__ import annotations

import pytest
import yaml

from ingest.pipeline import ingest
from ingest.problems import Problem
from tests.kit.golden import FIXTURES
from tests.kit.study_kit import archive_study

# (before, after) per engine: our own numbers
STATUS = {
    "old": (
        {
            "Com_select": 1000,
            "Handler_read_key": 50000,
            "Handler_read_next": 900000,
            "Innodb_rows_read": 950000,
            "Threads_running": 1,
            "Innodb_buffer_pool_dump_status": "not started",
            "Uptime": 3600,
        },
        {
            "Com_select": 275500,
            "Handler_read_key": 599000,
            "Handler_read_next": 2547000,
            "Innodb_rows_read": 3695000,
            "Threads_running": 9,
            "Innodb_buffer_pool_dump_status": "not started",
            "Uptime": 3661,
        },
    ),
    "new": (
        {
            "Com_select": 20,
            "Handler_read_key": 10,
            "Handler_read_next": 0,
            "Innodb_rows_read": 0,
            "Threads_running": 1,
            "Innodb_buffer_pool_dump_status": "not started",
            "Uptime": 100,
        },
        {
            "Com_select": 274520,
            "Handler_read_key": 823510,
            "Handler_read_next": 549000,
            "Innodb_rows_read": 1372500,
            "Threads_running": 7,
            "Innodb_buffer_pool_dump_status": "not started",
            "Uptime": 161,
        },
    ),
}
REQUESTS = 274500  # noon.log: REQUEST PHASE COMPLETED. 274500 requests done


def tab(values: dict) -> str:
    """`mysql -e 'SHOW GLOBAL STATUS'` output."""
    return "Variable_name\tValue\n" + "".join(f"{k}\t{v}\n" for k, v in values.items())


def boxed(values: dict) -> str:
    """`mysqladmin extended-status` output."""
    rule = "+" + "-" * 34 + "+" + "-" * 14 + "+\n"
    return (
        rule
        + f"| {'Variable_name':<32} | {'Value':>12} |\n"
        + rule
        + "".join(f"| {k:<32} | {v!s:>12} |\n" for k, v in values.items())
        + rule
    )


def study(tmp_path, counters, members=None):
    members = (
        members
        if members is not None
        else {
            "gs.old.before": tab(STATUS["old"][0]),
            "gs.old.after": tab(STATUS["old"][1]),
            "gs.new.before": boxed(STATUS["new"][0]),
            "gs.new.after": boxed(STATUS["new"][1]),
        }
    )
    members = {
        "r.o.old": (FIXTURES / "linkbench" / "noon.log").read_text(),
        "r.o.new": (FIXTURES / "linkbench" / "noon.log").read_text(),
        **members,
    }
    rules = "".join(
        f"  - {{glob: '{name}', format: {'mysqladmin-status' if text.startswith('+') else 'global-status'}}}\n"
        for name, text in members.items()
        if name.startswith("gs.")
    )
    return archive_study(
        tmp_path,
        "ctr",
        "Counters per request",
        members,
        f"""\
interval_s: 10
metric: requests/s
window: {{start: 0, end: 60}}
labels: [engine]
runs:
  - regex: 'r\\.o\\.(?P<engine>\\w+)'
    format: linkbench
files:
{rules}counters:
{counters}""",
    )


def run(tmp_path, man):
    res = ingest(man, tmp_path / "archives", tmp_path / "studies", tmp_path / "data")
    return res, tmp_path / "data" / "ctr"


def test_per_request_counters_with_ratios_to_a_base(tmp_path):
    man = study(
        tmp_path,
        """\
  - id: per-request
    title: Counters per request
    before: 'gs.{engine}.before'
    after: 'gs.{engine}.after'
    per: requests
    base: {engine: old}
""",
    )
    res, data = run(tmp_path, man)
    table = yaml.safe_load((data / "tables" / "per-request.yaml").read_text())
    assert [c["key"] for c in table["columns"]] == [
        "variable",
        "new",
        "old",
        "new-ratio",
    ]  # runs in runs.yaml order
    rows = {r["variable"]: r for r in table["rows"]}
    # every counter that changed; the gauge (threads_running), uptime and text are not totals
    assert list(rows) == ["com_select", "handler_read_key", "handler_read_next", "innodb_rows_read"]
    for engine in ("old", "new"):
        before, after = STATUS[engine]
        for name in ("Com_select", "Handler_read_key", "Handler_read_next", "Innodb_rows_read"):
            assert rows[name.lower()][engine] == pytest.approx(
                (after[name] - before[name]) / REQUESTS, abs=1e-6
            )
    assert rows["handler_read_key"]["new-ratio"] == pytest.approx(
        1.5, rel=1e-4
    )  # 3 key reads per request vs 2
    assert rows["handler_read_next"]["new-ratio"] == pytest.approx(2 / 6, rel=1e-4)
    assert not [p for p in res["problems"] if "counters" in str(p)]
    assert (data / "tables" / "runs.yaml").exists()  # the default tables stay: counters add to them


def test_one_file_with_both_snapshots_and_chosen_variables(tmp_path):
    members = {
        "gs.old": tab(STATUS["old"][0]) + tab(STATUS["old"][1]),
        "gs.new": boxed(STATUS["new"][0]) + boxed(STATUS["new"][1]),
    }
    man = study(
        tmp_path,
        """\
  - id: deltas
    file: 'gs.{engine}'
    variables: [Innodb_rows_read, Com_select, Bytes_sent]
""",
        members,
    )
    res, data = run(tmp_path, man)
    table = yaml.safe_load((data / "tables" / "deltas.yaml").read_text())
    assert table["title"] == "Server counters, after - before"
    assert table["rows"] == [
        {"variable": "innodb_rows_read", "old": 2745000, "new": 1372500},
        {"variable": "com_select", "old": 274500, "new": 274500},
        {"variable": "bytes_sent", "old": None, "new": None},
    ]  # missing, never 0
    assert any("no run's snapshots have 'bytes_sent'" in str(p) for p in res["problems"])


def test_a_missing_member_leaves_that_run_out_and_says_so(tmp_path):
    members = {"gs.old.before": tab(STATUS["old"][0]), "gs.old.after": tab(STATUS["old"][1])}
    man = study(
        tmp_path, "  - {id: d, before: 'gs.{engine}.before', after: 'gs.{engine}.after'}\n", members
    )
    res, data = run(tmp_path, man)
    table = yaml.safe_load((data / "tables" / "d.yaml").read_text())
    assert [c["key"] for c in table["columns"]] == ["variable", "old"]
    assert any(
        f"{man}:" in str(p) and "run new: gs.new.before, gs.new.after not read" in str(p)
        for p in res["problems"]
    )


def test_a_fallen_counter_is_missing_and_reported(tmp_path):
    after = dict(STATUS["old"][1], Handler_read_next=10)  # FLUSH STATUS between the snapshots
    members = {"gs.old.before": tab(STATUS["old"][0]), "gs.old.after": tab(after)}
    man = study(
        tmp_path,
        "  - {id: d, before: 'gs.{engine}.before', after: 'gs.{engine}.after', where: {engine: old}}\n",
        members,
    )
    res, data = run(tmp_path, man)
    rows = {
        r["variable"]: r for r in yaml.safe_load((data / "tables" / "d.yaml").read_text())["rows"]
    }
    assert "handler_read_next" not in rows
    assert (
        "gs.old.after: handler_read_next fell from 900000 to 10 (FLUSH STATUS or a restart?): left missing"
        in [str(p) for p in res["problems"]]
    )


def test_relative_snapshots_are_refused_with_their_line(tmp_path):
    text = (FIXTURES / "mysqladmin-status" / "relative.txt").read_text()
    man = study(
        tmp_path, "  - {id: d, file: 'gs.{engine}', where: {engine: new}}\n", {"gs.new": text}
    )
    with pytest.raises(Problem) as err:
        run(tmp_path, man)
    assert "relative (-r) snapshots or a restart, not a before/after pair" in str(err.value)
    assert str(err.value).startswith("gs.new:")


@pytest.mark.parametrize(
    "counters, reason",
    [
        (
            "  - {id: d, before: 'gs.{engine}.before'}\n",
            "counters[0]: give `before` and `after`, or `file`",
        ),
        ("  - {id: d, file: x, colour: red}\n", "counters[0]: unknown field `colour`"),
        ("  - {id: d, file: '{nosuch.attr}'}\n", "must be a plain label name"),
        (
            "  - {id: d, file: 'gs.{engine}', where: {engine: none}}\n",
            "counters[0]: no run has these labels",
        ),
        (
            "  - {id: d, file: 'r.o.{engine}'}\n",
            "counters[0] (d): no run has its before/after snapshots",
        ),
        ("  x: 1\n", "counters: must be a list"),
    ],
)
def test_declarations_are_checked_with_their_line(tmp_path, counters, reason):
    man = study(tmp_path, counters)
    with pytest.raises(Problem) as err:
        run(tmp_path, man)
    assert str(err.value).startswith(f"{man}:") and reason in str(err.value)
