"""Ingest one study, top to bottom (docs/manifest.md):

1. open the inputs, their sha256 checked (ingest/read/inputs.py);
2. collect the runs the manifest's rules take, with their series (ingest/join/runs.py), and the
   OS and server metrics linked to them (ingest/join/linked.py);
3. derive the tables: declared, the study module's, or the defaults, and the reproduction
   check (ingest/derive/study.py), each checked (ingest/derive/checks.py), with the summaries the posts
   show (ingest/derive/summaries.py);
4. lay out the files of `data/<study>/` (docs/data-schema.md; the runs' series files, with
   the manifest's size control, by ingest/write/seriesfiles.py) and write them as a whole,
   atomically, under the data directory's lock (ingest/write/datadir.py);
5. report what was done (ingest/write/report.py).
"""

from __future__ import annotations

import contextlib
import gc
from dataclasses import dataclass, field
from pathlib import Path

from ingest import __version__
from ingest.derive.checks import check_study
from ingest.derive.study import StudyContext, derived_tables
from ingest.derive.summaries import with_summaries
from ingest.join import linked, queries
from ingest.join.columns import meta_of
from ingest.join.runs import collect_runs, fill, study_metric
from ingest.problems import Problem
from ingest.read.archive import Archive
from ingest.read.inputs import open_inputs
from ingest.read.manifest import check_folder, load
from ingest.read.records import Manifest
from ingest.write import report
from ingest.write.csvfiles import runs_csv, table_csv
from ingest.write.datadir import Outcome, dump, locked, write_study
from ingest.write.seriesfiles import run_files


@dataclass
class Built:
    """A study built in memory: `files` (path under data/<study>/ -> bytes) and what the report
    needs besides: the warnings, the archives read, the run records and the checked tables."""

    files: dict[str, bytes]
    problems: list[Problem] = field(default_factory=list)
    archives: dict[str, Archive] = field(default_factory=dict)
    runs: list[dict] = field(default_factory=list)
    tables: list[dict] = field(default_factory=list)
    series_saved: int = 0  # bytes of series the manifest's `series:` option did not write
    queries: queries.QueryData | None = None  # the query runs (ingest/join/queries.py)


def ingest(
    manifest_file: str | Path,
    archives: str | Path = "archives",
    studies: str | Path = "../shared/studies",
    data: str | Path = "data",
    progress=None,
    dry_run: bool = False,
    manifest: Manifest | None = None,
    outcome: Outcome | None = None,
) -> dict:
    """Ingest one study; returns {"study", "runs", "written", "removed", "problems", "report"}
    (`report`: ingest/write/report.py). `dry_run`: parse and report, write nothing. Holds the data
    directory's lock from before reading the inputs to after the switch. `outcome`: the
    command line's record of the switch (writer.Outcome), for its report after an interrupt."""
    m = manifest or load(manifest_file)
    check_folder(m)
    with contextlib.nullcontext() if dry_run else locked(data):
        with _no_cyclic_gc():
            built = build_files(m, Path(archives), Path(studies), progress)
        result = (
            {"written": [], "removed": []}
            if dry_run
            else write_study(data, m.study, built.files, outcome)
        )
    return {
        "study": m.study,
        "runs": len(built.runs),
        "problems": built.problems,
        **result,
        "report": report.build(m, built, dry_run, result),
    }


def build_files(m: Manifest, archives_dir: Path, studies_dir: Path, progress=None) -> Built:
    """Every file of data/<study>/, built in memory; writes nothing."""
    archives, texts = open_inputs(m, archives_dir, studies_dir)
    fields: dict[str, dict] = {}  # run id -> its labels and `_` groups (templates' fields)
    runs, series, files, problems = collect_runs(m, archives, progress, fields)
    by_labels = {_key(r["labels"]): fields[r["id"]] for r in runs}
    query_data = queries.collect(m, archives)  # docs/manifest.md, "Query runs"
    problems.extend(query_data.problems)
    linked_docs, linked_problems = linked.attach(
        m,
        runs,
        series,
        files,
        lambda rule, t, labels: fill(m, rule, t, by_labels.get(_key(labels), labels)),
    )
    problems.extend(linked_problems)
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
    out, saved = _series_files(m, runs, series, linked_docs)
    out["study.yaml"] = dump(
        _study_doc(m, runs, [t["id"] for t in tables], ctx.problems, query_data)
    )
    out["runs.yaml"] = dump({"runs": runs})
    if runs:  # the runs' window statistics, the time series charts' CSV (ingest/write/csvfiles.py)
        out["runs.csv"] = runs_csv(runs, m.window)
    out.update((f"tables/{t['id']}.yaml", dump(t)) for t in tables)
    out.update((f"tables/{t['id']}.csv", table_csv(t)) for t in tables)
    return Built(
        files={k: v.encode("utf-8") for k, v in out.items()},
        problems=ctx.problems,
        archives=archives,
        runs=runs,
        tables=tables,
        series_saved=saved,
        queries=query_data,
    )


def _series_files(m: Manifest, runs: list[dict], series: dict, linked_docs: dict):
    """({path: text} of every run's series files, bytes the size control saved); written
    first of the study's files, as the size control marks the run records."""
    out, saved = {}, 0
    for r in runs:
        s, lk = (
            series[r["id"]],
            linked_docs.get(r["id"]),
        )  # linked: docs/manifest.md, "Linked metrics"
        # meta: each column's label, unit and kind (ingest/join/columns.py), read by the charts
        doc = {
            "run": r["id"],
            "interval_s": r["tool"].get("interval_s", m.interval_s),
            **({"mean": r["mean"]} if "mean" in r else {}),
            "meta": meta_of(s, r["metric"], r["tool"].get("lat_pct")),
            "columns": list(s),
            **s,
        }
        ldoc = (
            {
                "run": r["id"],
                "interval_s": r["linked"]["interval_s"],
                "meta": meta_of(lk),
                "columns": list(lk),
                **lk,
            }
            if lk
            else None
        )
        files_of_run, saved_of_run = run_files(r, doc, ldoc, m.extra_series)
        out.update(files_of_run)
        saved += saved_of_run
    return out, saved


def _key(labels: dict) -> tuple:
    return tuple(sorted((k, str(v)) for k, v in labels.items()))


def _study_doc(
    m: Manifest, runs: list[dict], table_ids: list[str], problems: list, query_data=None
) -> dict:
    doc = {
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
        "metric": study_metric(m, runs),
        "window": m.window,
        "base": m.base,
        "labels": m.labels,
        "display": m.display,
        "markers": m.markers,
        "tables": table_ids,
        "problems": [str(p) for p in problems],
    }
    if query_data is not None and query_data.runs:  # a query study: its suite and size
        doc["queries"] = queries.study_entry(m, query_data)
    return doc


@contextlib.contextmanager
def _no_cyclic_gc():
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
