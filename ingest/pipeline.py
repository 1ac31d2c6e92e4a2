"""Ingest one study, top to bottom (docs/manifest.md):

1. open the inputs, their sha256 checked (ingest/read/inputs.py);
2. collect the runs the manifest's rules take, with their series (ingest/join/runs.py), the
   query runs (ingest/join/queries.py) and the OS and server metrics linked to the runs
   (ingest/join/linked.py), as the typed records of ingest/join/records.py;
3. derive the tables: the table sources walked in order from one StudyContext
   (ingest/derive/study.py `SOURCES`), each table checked (ingest/derive/checks.py), with the
   summaries the posts show (ingest/derive/summaries.py);
4. turn each run into its runs.yaml record and lay out the files of `data/<study>/`
   (docs/data-schema.md; the runs' series files, with the manifest's size control, by
   ingest/write/seriesfiles.py) and write them as a whole, atomically, under the data
   directory's lock (ingest/write/datadir.py);
5. report what was done (ingest/write/report.py).
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, TypedDict

from ingest import __version__
from ingest.derive.checks import check_study
from ingest.derive.colors import color_indices
from ingest.derive.compare import QueryRows, compare_doc
from ingest.derive.context import StudyContext
from ingest.derive.study import derived_tables
from ingest.derive.summaries import with_summaries
from ingest.derive.tables import DerivedTable
from ingest.derive.window_stats import window_stats
from ingest.join import linked, queries
from ingest.join.columns import meta_of
from ingest.join.queries import QueryData
from ingest.join.records import Record, Run, Series
from ingest.join.runs import Progress, collect_runs, fill
from ingest.parse.member import SeriesBudget
from ingest.problems import Problem
from ingest.read.inputs import open_inputs
from ingest.read.manifest import check_folder, load
from ingest.read.records import Manifest
from ingest.write import report
from ingest.write.built import Built
from ingest.write.csvfiles import runs_csv, table_csv
from ingest.write.datadir import Outcome, Written, dump, locked, write_study
from ingest.write.seriesfiles import run_files


class Ingested(TypedDict):
    """What `ingest` did for one study: its runs, the files written and removed, the problems
    found, and the report for the author (ingest/write/report.py)."""

    study: str
    runs: int
    written: list[str]
    removed: list[str]
    problems: list[Problem]
    report: report.Report


def ingest(
    manifest_file: str | Path,
    archives: str | Path = "archives",
    studies: str | Path = "../shared/studies",
    data: str | Path = "data",
    progress: Progress | None = None,
    dry_run: bool = False,
    manifest: Manifest | None = None,
    outcome: Outcome | None = None,
) -> Ingested:
    """Ingest one study; returns what it did (`Ingested`). `dry_run`: parse and report, write
    nothing. Holds the data directory's lock from before reading the inputs to after the
    switch. `outcome`: the command line's record of the switch (writer.Outcome), for its
    report after an interrupt."""
    m = manifest or load(manifest_file)
    check_folder(m)
    with contextlib.nullcontext() if dry_run else locked(data):
        with _no_cyclic_gc():
            built = build_files(m, Path(archives), Path(studies), progress)
        result: Written = (
            {"written": [], "removed": []}
            if dry_run
            else write_study(data, m.study, built.files, outcome)
        )
    return {
        "study": m.study,
        "runs": len(built.runs),
        "problems": built.problems,
        "written": result["written"],
        "removed": result["removed"],
        "report": report.build(m, built, dry_run, result),
    }


def build_files(
    m: Manifest, archives_dir: Path, studies_dir: Path, progress: Progress | None = None
) -> Built:
    """Every file of data/<study>/, built in memory; writes nothing."""
    archives, texts = open_inputs(m, archives_dir, studies_dir)
    # run id -> its labels and `_` groups (the templates' fields)
    fields: dict[str, dict[str, Any]] = {}
    budget = SeriesBudget()  # what this ingest keeps of its files: runs, queries, sar
    runs, series, files, problems = collect_runs(m, archives, progress, fields, budget)
    by_labels = {_key(r.labels): fields[r.id] for r in runs}
    query_data = queries.collect(m, archives, budget)  # docs/manifest.md, "Query runs"
    problems.extend(query_data.problems)
    linked_runs, linked_problems = linked.attach(
        m,
        runs,
        series,
        files,
        lambda rule, t, labels: fill(m, rule, t, by_labels.get(_key(labels), labels)),
    )
    problems.extend(linked_problems)
    runs = [replace(r, linked=linked_runs[r.id]) if r.id in linked_runs else r for r in runs]
    ctx = StudyContext(
        manifest=m,
        runs=runs,
        series=series,
        files=files,
        inputs=texts,
        problems=problems,
        queries=query_data,
    )
    tables = derived_tables(ctx)
    check_study(m, runs, tables)
    # what the posts show as it is (ingest/derive/summaries.py)
    tables = with_summaries(tables, runs)
    # the write step: each run as its runs.yaml record (the size control marks it)
    records = [r.record() for r in runs]
    out, saved = _series_files(m, runs, records, series)
    out["study.yaml"] = dump(_study_doc(m, runs, tables, ctx.problems, query_data))
    out["runs.yaml"] = dump({"runs": records})
    out["compare.yaml"] = dump(compare_doc(records, m.display, _query_rows(m, query_data, tables)))
    if runs:  # the runs' window statistics (ingest/write/csvfiles.py)
        out["runs.csv"] = runs_csv(records, m.window)
        # the rows a time series chart shows beside its runs, and their CSV
        stats = window_stats(records)
        out["window-stats.yaml"] = dump(stats)
        out["window-stats.csv"] = table_csv(stats)
    out.update((f"tables/{t['id']}.yaml", dump(t)) for t in tables)
    out.update((f"tables/{t['id']}.csv", table_csv(t)) for t in tables)
    return Built(
        files={k: v.encode("utf-8") for k, v in out.items()},
        problems=ctx.problems,
        archives=archives,
        runs=runs,
        tables=tables,
        series_saved=saved,
        series_reduced=sum(1 for rec in records if "series" in rec),
        queries=query_data,
    )


def _series_files(
    m: Manifest, runs: list[Run], records: list[Record], series: dict[str, Series]
) -> tuple[dict[str, str], int]:
    """({path: text} of every run's series files, bytes the size control saved); written
    first of the study's files, as the size control marks the run records."""
    out: dict[str, str] = {}
    saved = 0
    for r, rec in zip(runs, records):
        s = series[r.id]
        # meta: each column's label, unit and kind (ingest/join/columns.py), read by the charts
        doc = {
            "run": r.id,
            "interval_s": r.tool.get("interval_s", m.interval_s),
            **({"mean": "time-weighted"} if r.time_weighted else {}),
            "meta": meta_of(s, r.metric, r.tool.get("lat_pct")),
            "columns": list(s),
            **s,
        }
        lk = r.linked.series if r.linked else None  # docs/manifest.md, "Linked metrics"
        ldoc = (
            {
                "run": r.id,
                "interval_s": r.linked.interval_s,
                "meta": meta_of(lk),
                "columns": list(lk),
                **lk,
            }
            if r.linked and lk
            else None
        )
        files_of_run, saved_of_run = run_files(rec, doc, ldoc, m.extra_series)
        out.update(files_of_run)
        saved += saved_of_run
    return out, saved


def _query_rows(m: Manifest, qd: QueryData, tables: list[DerivedTable]) -> QueryRows | None:
    """A query study's `query-summary` rows as the compare page lists them; None otherwise."""
    summary = next((t for t in tables if t["id"] == "query-summary"), None)
    if not qd.runs or summary is None:
        return None
    return QueryRows(m.suite or m.study, queries.label_columns(m, qd.runs), summary["rows"])


def _key(labels: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((k, str(v)) for k, v in labels.items()))


def _study_doc(
    m: Manifest,
    runs: list[Run],
    tables: list[DerivedTable],
    problems: list[Problem],
    query_data: QueryData | None = None,
) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "schema": 1,
        "study": m.study,
        "title": m.title,
        "ingest_version": __version__,
        "inputs": [
            {
                "name": i.name,
                "kind": i.kind,
                "sha256": i.sha256,
                "origin": i.origin,
                **({"note": i.note} if i.note else {}),
            }
            for i in m.inputs
        ],
        "interval_s": m.interval_s,
        "metric": _study_metric(m, runs),
        "window": m.window,
        "base": m.base,
        "labels": m.labels,
        "display": m.display,
        "markers": m.markers,
        "tables": [t["id"] for t in tables],
        "colors": color_indices(tables, runs),  # one colour per label value in every chart
        "problems": [str(p) for p in problems],
    }
    if query_data is not None and query_data.runs:  # a query study: its suite and size
        doc["queries"] = {
            "suite": m.suite,  # the compare page matches a query across studies of one suite
            "labels": queries.label_columns(m, query_data.runs),
            "runs": len(query_data.runs),
            "queries": sorted({r.query for r in query_data.runs}, key=queries.natural),
        }
    return doc


def _study_metric(m: Manifest, runs: list[Run]) -> str | None:
    """The study's main column (study.yaml `metric`, the charts' default): the manifest's,
    else the one its runs share, else the first run's."""
    found = [r.metric for r in runs if r.metric]
    return m.metric or (found[0] if found else None)


@contextlib.contextmanager
def _no_cyclic_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector: building a study allocates ~10^5 tuples and lists
    (none in a reference cycle) and each batch of them would start a collection walking the
    live ones, ~8% of the ingest time. Reference counting still frees everything at once;
    any cycle is collected when the collector runs again."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


__all__ = ["Built", "ingest", "build_files"]
