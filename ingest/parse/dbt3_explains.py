"""The DBT3 kit's `all_explains.txt` (mariadb-tools dbt3_benchmark): every timed run of every
query of one server, in the order run.

A run is a block:

    ===== 7-opt_explain.sql Run No: 2 =====
    STARTUP_PARAMS: --optimizer_switch='semijoin=off'
    <the EXPLAIN statement>
    --- Explain result ---
    <the plan: a MySQL EXPLAIN box, mysql_explain.py>
    --- Time elapsed ---
    543

The query is the name before `_explain.sql` (`1` .. `22`, `7-opt`), the repeat the run number.
The time is whole seconds as the kit prints them; `-1` is the kit's marker of a query that did
not finish (it timed out): the run's `seconds` is missing, never -1, and its `status` says
`did not finish` (the note of the cell says what was printed).

Tables: `times` (`query, repeat, seconds, status, params, line`: one row per run, `params` the
STARTUP_PARAMS as printed, None when empty, `line` the run's `=====` line) and one plan per run,
`plan <query> run <repeat>` (the EXPLAIN columns; none when the block has no plan). A block the
file ends in before its time (a run cut short) is left out and reported; a time that is not a
whole number of seconds, a second `Time elapsed` or a plan outside a block stop the parse.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ingest.parse import register
from ingest.parse._text import Lines, query_name
from ingest.parse.base import Parsed, Parser, Table
from ingest.parse.mysql_explain import read_boxed
from ingest.parse.values import read_number

RUN = re.compile(r"^===== (?P<query>\S+?)_explain\.sql Run No: (?P<repeat>\d+) =====\s*$", re.ASCII)
DNF = -1  # the kit's time of a query that did not finish
DID_NOT_FINISH = "did not finish"


@dataclass
class _Run:
    """One `===== <query>_explain.sql Run No: <n> =====` block as read so far."""

    query: str
    repeat: int
    line: int
    params: str | None = None
    plan: Table | None = None


@register
class Dbt3Explains(Parser):
    name = "dbt3-explains"
    description = "DBT3 kit all_explains.txt: per query and run, the EXPLAIN plan and the time"

    def detect(self, head: str) -> str | None:
        if any(RUN.match(l) for l in head.splitlines()[:40]) and "--- Explain result ---" in head:
            return "===== <query>_explain.sql Run No: <n> ===== blocks"
        return None

    def parse(self, text: str, file: str) -> Parsed:
        lines = Lines(text, file)
        parsed = Parsed(format=self.name, file=file, problems=lines.problems)
        times = Table(
            name="times",
            columns=["query", "repeat", "seconds", "status", "params", "line"],
            rows=[],
        )
        items = list(lines)
        block: _Run | None = None
        i = 0
        while i < len(items):
            n, line = items[i]
            i += 1
            if m := RUN.match(line):
                if block is not None:  # the previous run has no time: cut short
                    lines.problem(block.line, _cut(block))
                repeat = read_number(m["repeat"], "run number", whole=True)
                block = _Run(query_name(lines, n, m["query"]), repeat, n)
            elif line.startswith("STARTUP_PARAMS:") and block is not None:
                block.params = line.partition(":")[2].strip() or None
            elif line == "--- Explain result ---":
                block = _in_block(lines, block, n, "an EXPLAIN result")
                while i < len(items) and not items[i][1].strip():
                    i += 1
                if i < len(items) and items[i][1].startswith("+"):
                    at = items[i + 1][0] if i + 1 < len(items) else items[i][0]
                    block.plan, i, _closed = read_boxed(lines, items, i)
                    if block.plan is None:  # a box of another header: not dropped unsaid
                        raise lines.error(
                            at, "EXPLAIN result: a box without an | id | select_type | header"
                        )
            elif line == "--- Time elapsed ---":
                block = _in_block(lines, block, n, "a time")
                if i >= len(items):
                    break  # the file ends before the time: reported below
                lines.at, seconds = items[i]
                _add(parsed, times, block, read_number(seconds, "time elapsed", whole=True))
                block, i = None, i + 1
        if block is not None:  # the file ends inside a run (one problem per file, as Lines says)
            lines.missing_end(
                block.line,
                f"the time of query {block.query} run {block.repeat} (--- Time elapsed ---)",
            )
        if not times.rows:
            raise lines.error(
                None, "no timed run (expected ===== <query>_explain.sql Run No: <n> ===== blocks)"
            )
        parsed.tables.insert(0, times)
        return parsed


def _in_block(lines: Lines, block: _Run | None, n: int, what: str) -> _Run:
    """`block`, or the error of `what` met outside a run."""
    if block is None:
        raise lines.error(
            n, f"{what} outside a run (no ===== ... Run No: ... ===== line before it)"
        )
    return block


def _cut(block: _Run) -> str:
    return (
        f"query {block.query} run {block.repeat} ends before its time "
        "(--- Time elapsed ---), left out"
    )


def _add(parsed: Parsed, times: Table, block: _Run, seconds: int) -> None:
    """One timed run: its row in `times` (a did-not-finish marker is missing, with its status
    and the printed marker as the cell's note) and its plan."""
    if seconds < 0 and seconds != DNF:
        raise ValueError(f"invalid literal for int() with base 10: {str(seconds)!r}")
    done = seconds != DNF
    if not done:
        times.notes[f"{len(times.rows)}/seconds"] = f"{DID_NOT_FINISH} (printed {DNF})"
    times.rows.append(
        {
            "query": block.query,
            "repeat": block.repeat,
            "seconds": seconds if done else None,
            "status": "finished" if done else DID_NOT_FINISH,
            "params": block.params,
            "line": block.line,
        }
    )
    if block.plan is not None:
        block.plan.name = f"plan {block.query} run {block.repeat}"
        parsed.tables.append(block.plan)
