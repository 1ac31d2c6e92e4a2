"""Ingest one study: manifest -> inputs (sha256 checked) -> runs -> metrics -> study module
tables -> the files of `data/<study>/`, written atomically.

The study-module hook: when the manifest names `views: <module>` (or a module
`ingest/studies/<study with _ for ->.py` exists), its `build(ctx: StudyContext) -> list[dict]`
returns derived tables in the `tables/<id>.yaml` shape of docs/data-schema.md. Bad input is a
`Problem` (a study module raises it too); warnings are `Problem` values.
"""
from __future__ import annotations

import contextlib
import gc
import importlib
import importlib.util
import operator
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from . import __version__, counters, declared, defaults, linked, metrics, report, reproduction
from .archive import Archive, dir_sha256, sha256_file
from .manifest import Manifest, Rule, _typed, load
from .parsers import Parsed
from .problems import Problem, clean
from .read import decode, parse_bytes
from .seriesfiles import series_csv, series_json
from .writer import NAME_MAX, dump, locked, write_study

TABLE_KINDS = ("label", "number", "ratio", "text")
ID = re.compile(r"^[a-z0-9][a-z0-9._-]*$")
# table ids: the site's rule for table and chart ids (layouts/_partials/unique-id.html), so an
# id the ingest writes is one a shortcode accepts
TABLE_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
ID_MAX = NAME_MAX - 55     # bytes of a run id: room for any file suffix of data/<study>/series/


@dataclass
class StudyContext:
    """What a study module's `build(ctx)` gets.

    manifest: the validated Manifest; runs: run records as in runs.yaml (in manifest order);
    series: run id -> columnar series; files: archive member -> Parsed for `files:` rules;
    inputs: published-tables input name -> its text (`published(name)` parses it);
    problems: warnings so far, `Problem` values (append to add). Bad data: raise `Problem`.
    """

    manifest: Manifest
    runs: list[dict]
    series: dict[str, dict]
    files: dict[str, Parsed] = field(default_factory=dict)
    inputs: dict[str, str] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    def published(self, name: str, fmt: str = "auto") -> Parsed:
        """A published-tables input parsed (format detected unless given), e.g. its `tables`."""
        return parse_bytes(self.inputs[name].encode("utf-8"), name, fmt)

    def run(self, **labels) -> dict | None:
        """The one run whose labels include all of `labels` (values compared as strings)."""
        hits = [r for r in self.runs if all(str(r["labels"].get(k)) == str(v) for k, v in labels.items())]
        if len(hits) > 1:
            raise Problem(self.manifest.path, None, f"{len(hits)} runs match {labels}: {[r['id'] for r in hits]}")
        return hits[0] if hits else None

    @staticmethod
    def table(id: str, title: str, columns: list[dict], rows: list[dict], notes: dict | None = None) -> dict:
        """A derived table in the tables/<id>.yaml shape (checked when the study is written)."""
        return {"id": id, "title": title, "columns": columns, "rows": rows, "notes": notes or {}}


def find_manifests(content: str | Path = "content/posts") -> list[Path]:
    return sorted(Path(content).glob("*/manifest.yaml"))


def manifest_path(study: str, content: str | Path = "content/posts") -> Path:
    p = Path(content) / study / "manifest.yaml"
    if not p.is_file():
        raise Problem(p, None, f"no manifest for study {clean(study, 80)!r}")
    return p


def check_folder(m: Manifest):
    """A manifest writes only the study of its own folder: `study:` must be the folder name."""
    folder = Path(m.path).parent.name
    if m.study != folder:
        raise Problem(m.path, m.line_of.get("study"),
                      f"study {m.study!r} must equal its folder name {clean(folder, 80)!r}")


def check_unique(manifests: list[Manifest]):
    """With `all`: two manifests naming one study is an error naming both."""
    seen: dict[str, Manifest] = {}
    for m in manifests:
        if m.study in seen:
            first = seen[m.study]
            raise Problem(m.path, m.line_of.get("study"), f"study {m.study!r} is also named by "
                          f"{first.path}:{first.line_of.get('study')}")
        seen[m.study] = m


def ingest(manifest_file: str | Path, archives: str | Path = "archives", studies: str | Path = "../shared/studies",
           data: str | Path = "data", progress=None, dry_run: bool = False, manifest: Manifest | None = None) -> dict:
    """Ingest one study; returns {"study", "runs", "written", "removed", "problems", "report"}
    (`report`: ingest/report.py). `dry_run`: parse and report, write nothing. Holds the data
    directory's lock from before reading the inputs to after the switch."""
    m = manifest or load(manifest_file)
    check_folder(m)
    kept: dict = {}
    with contextlib.nullcontext() if dry_run else locked(data):
        with _no_cyclic_gc():
            files = build_files(m, Path(archives), Path(studies), progress, kept)
        problems = files.pop(None)
        result = {"written": [], "removed": []} if dry_run else write_study(data, m.study, files)
    return {"study": m.study, "runs": len([n for n in files if n.startswith("series/") and n.endswith(".yaml")]),
            "problems": problems, **result, "report": report.build(m, files, problems, kept, dry_run)}


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


# -- inputs ----------------------------------------------------------------------------------
def _check_input(m: Manifest, inp, path: Path):
    if not path.exists():
        raise Problem(m.path, inp.line, f"input {inp.name} not found at {path}")
    if inp.kind == "published-tables" and not path.is_file():
        raise Problem(m.path, inp.line, f"input {inp.name}: a published-tables input must be a file ({path})")
    got = dir_sha256(path) if path.is_dir() else sha256_file(path)   # the archive reader's safe walk
    if got != inp.sha256:
        raise Problem(m.path, inp.line, f"sha256 mismatch for {inp.name}: manifest says {inp.sha256}, file has {got}")


# -- runs ------------------------------------------------------------------------------------
def _select(rule: Rule, sessions: list, file: str) -> list:
    complete = [s for s in sessions if s.complete]
    if rule.session == "all":
        if len(complete) > 1 and any("session" not in s.meta for s in complete):
            # sessions of different kinds (LinkBench phases, iostat devices) are not runs of one tool
            kinds = ", ".join(str(s.meta.get("phase") or s.meta.get("device") or s.meta.get("tool")) for s in complete)
            raise Problem(file, complete[1].line, f"{len(complete)} sessions of different kinds ({clean(kinds, 80)}) "
                                                  "in one file: a `runs:` rule needs one (`session: last`) or a `files:` rule")
        return complete
    if rule.session == "last":
        return complete[-1:]
    chosen = [s for s in sessions if s.meta.get("session") == rule.session]
    if not chosen or not chosen[0].complete:
        raise Problem(file, None, f"session {rule.session} (picked by the manifest) is not a complete session")
    return chosen


def _labels(m: Manifest, rule: Rule, match: re.Match, session) -> dict:
    labels = {}
    for k, v in match.groupdict().items():
        if v is not None:
            labels[k] = v
    labels.update(rule.labels)
    if "threads" in m.labels and "threads" not in labels and session.meta.get("threads") is not None:
        labels["threads"] = session.meta["threads"]
    return {k: _typed(m.path, rule.line, k, v, m.label_types) for k, v in labels.items()}


def _fmt(m: Manifest, rule: Rule, template: str, labels: dict, display: bool) -> str:
    values = {k: (m.display.get(k, {}).get(str(v), v) if display else v) for k, v in labels.items()}
    try:                  # the manifest checked the fields are plain names with bounded widths
        return template.format(**values)
    except KeyError as e:
        raise Problem(m.path, rule.line, f"template {template!r}: unknown label {e}") from None
    except (IndexError, ValueError, TypeError, AttributeError) as e:
        raise Problem(m.path, rule.line, f"template {template!r}: {e}") from None


def _run_record(m: Manifest, rule: Rule, member: str, match, session, n_sessions: int, multi: bool, fmt: str):
    labels = _labels(m, rule, match, session)
    ordered = [k for k in m.labels if labels.get(k) is not None] + sorted(k for k in labels if k not in m.labels)
    rid = _fmt(m, rule, rule.id, labels, False) if rule.id else "-".join(str(labels[k]) for k in ordered)
    name = (_fmt(m, rule, rule.name, labels, True) if rule.name else
            ", ".join(str(m.display.get(k, {}).get(str(labels[k]), labels[k])) for k in ordered))
    if multi:   # one file, several complete sessions: one run each
        labels["session"] = session.meta["session"]
        ordered.append("session")
        rid += f"-s{session.meta['session']}"
        name += f", session {session.meta['session']}"
    rid = rid.lower()
    if not ID.match(rid):
        raise Problem(m.path, rule.line, f"run id {clean(rid, 80)!r} (from {member}) is not a slug")
    if len(rid.encode()) > ID_MAX:
        raise Problem(m.path, rule.line, f"run id {clean(rid, 60)!r} (from {member}) is longer than "
                                          f"{ID_MAX} bytes (it names a file; NAME_MAX is {NAME_MAX})")
    metric = session.metric
    series = session.series
    t, values = series.get("t", []), series.get(metric, []) if metric else []
    weighted = session.meta.get("intervals") == "uneven"   # mean = operations over elapsed time
    window = metrics.window_stats(t, values, m.window["start"], m.window["end"], weighted)
    if values and not window["n"]:
        span = f"t from {t[0]} to {t[-1]} s" if t else "no interval times"
        raise Problem(m.path, m.line_of.get("window"), f"window ({m.window['start']}, {m.window['end']}] "
                                                       f"holds no interval of run {rid} ({member}: {span})")
    full = metrics.full_mean(values, t if weighted else None)
    summary = {k: session.summary[k] for k in sorted(session.summary)}
    meta = session.meta
    tool = {"name" if k == "tool" else k: meta[k] for k in ("tool", "version", "threads", "interval_s", "lat_pct")
            if meta.get(k) is not None}
    return {
        "id": rid, "name": name, "labels": {k: labels[k] for k in ordered},
        "published": rule.published,
        "source": {"file": member, "line": session.line, "session": meta.get("session", 1), "sessions": n_sessions},
        "format": fmt, "tool": tool, "metric": metric, "intervals": session.intervals,
        **({"mean": "time-weighted"} if weighted else {}),
        # time of the last interval's end: how long the run lasted, as its log says
        "end_s": t[-1] if t else None,
        # the run's t = 0 as a local date and time, when its log prints one (LinkBench's meta.start)
        **({"start": meta["start"]} if meta.get("start") else {}),
        "window": window, "full": full, "summary": summary or None,
        "check": metrics.cross_check(full["mean"], session.summary.get(metric) if metric else None),
    }


def _time_notes(file: str, line: int, run_id: str, t: list, interval: float) -> list[Problem]:
    """Warnings about interval times that repeat, go back, or (fixed-clock reports) skip
    intervals; the series keeps them as printed."""
    steps = list(map(operator.sub, t[1:], t))
    back = [t[i + 1] for i, d in enumerate(steps) if d <= 0] if steps and min(steps) <= 0 else []
    # gaps only mean something for tools reporting on a fixed clock (whole-second times)
    fixed = set(map(type, t)) <= {int}
    gaps = [d for d in steps if d > interval * 1.5] if fixed and steps and max(steps) > interval * 1.5 else []
    notes = []
    if back:
        notes.append(Problem(file, line, f"run {run_id}: interval time(s) {', '.join(map(str, back[:5]))} s printed "
                                         f"again or out of order ({len(back)} in all); kept as printed"))
    if gaps:
        notes.append(Problem(file, line, f"run {run_id}: {len(gaps)} gap(s) in the interval times, "
                                         f"{sum(gaps) - len(gaps) * interval:g} s without a report; kept as printed"))
    return notes


def collect_runs(m: Manifest, archives: dict[str, Archive], progress=None):
    """Runs (records + series) and non-run files from the archive members the rules match."""
    runs, series, files, problems = [], {}, {}, []
    taken: dict[str, int] = {}
    jobs = []
    for inp in m.inputs:
        if inp.kind != "archive":
            continue
        arc = archives[inp.name]
        for member in arc.names():
            for rule in [*m.runs, *m.files]:
                if rule.input == inp.name and (mt := rule.match(m.path, member)):
                    jobs.append((arc, member, rule, mt))
                    break
    for rule in [*m.runs, *m.files]:
        if not any(j[2] is rule for j in jobs):
            raise Problem(m.path, rule.line, f"rule `{rule.source}` matches no file of {rule.input}")
    for i, (arc, member, rule, mt) in enumerate(jobs):
        if progress:
            progress(i, len(jobs), member)
        file = f"{arc.name}/{member}"
        parsed = parse_bytes(arc.read(member), file, rule.format)
        problems.extend(map(str, parsed.problems))
        if rule in m.files:
            files[member] = parsed
            continue
        chosen = _select(rule, parsed.sessions, file)
        if not chosen:
            raise Problem(file, None, "no complete session (every session lacks its final summary)")
        for s in chosen:
            rec = _run_record(m, rule, member, mt, s, len(parsed.sessions), len(chosen) > 1, parsed.format)
            if rec["id"] in taken:
                raise Problem(m.path, rule.line, f"duplicate run id {rec['id']!r} ({member}; "
                                                    f"also from the rule at line {taken[rec['id']]})")
            taken[rec["id"]] = rule.line
            same = [r for r in runs if r["labels"] == rec["labels"]]
            if same:
                raise Problem(m.path, rule.line, f"duplicate run labels {rec['labels']} ({member} and "
                                                    f"{same[0]['source']['file']})")
            runs.append(rec)
            series[rec["id"]] = s.series
            problems.extend(_time_notes(file, s.line, rec["id"], s.series.get("t", []),
                                        s.meta.get("interval_s") or m.interval_s))
    if progress:
        progress(len(jobs), len(jobs), "")
    if m.base and runs and not any(all(str(r["labels"].get(k)) == str(v) for k, v in m.base.items()) for r in runs):
        raise Problem(m.path, m.line_of.get("base"), f"base {m.base}: no run has these labels")
    base_of = metrics.base_counterparts(runs, m.base) if m.base else {}
    by_id = {r["id"]: r for r in runs}
    for r in runs:
        b = base_of.get(r["id"])
        r["base"] = {"run": b, "ratio": metrics.ratio(r["window"]["mean"], by_id[b]["window"]["mean"])} if b else None
    return runs, series, files, problems


# -- study module ----------------------------------------------------------------------------
def study_module(m: Manifest):
    """The study's module (`views:`, else ingest/studies/<study_with_underscores>.py), or None."""
    name = m.views or m.study.replace("-", "_").replace(".", "_")
    full = f"{__package__}.studies.{name}"
    if m.views is None and importlib.util.find_spec(full) is None:
        return None
    try:
        module = importlib.import_module(full)
    except ModuleNotFoundError:
        raise Problem(m.path, m.line_of.get("views"), f"study module {full} not found") from None
    if not callable(getattr(module, "build", None)):
        raise Problem(m.path, m.line_of.get("views"), f"study module {full} has no build(ctx)")
    return module


def check_table(m: Manifest, t: dict) -> dict:
    """Validate a derived table; return it with keys in the schema's order."""
    tid = t.get("id")

    def bad(reason):
        return Problem(m.path, None, f"table {clean(tid, 80)!r}: {reason}")
    if not isinstance(tid, str) or not TABLE_ID.match(tid):
        raise bad("id must be lowercase letters, digits and dashes (the site's id rule)")
    keys = []
    for c in t.get("columns", []):
        if c.get("kind") not in TABLE_KINDS or not c.get("key") or not c.get("label"):
            raise bad(f"column {c} needs key, label and kind in {TABLE_KINDS}")
        keys.append(c["key"])
    if len(set(keys)) != len(keys) or not keys:
        raise bad("column keys must be unique and non-empty")
    rows = []
    for r in t.get("rows", []):
        extra = set(r) - set(keys)
        if extra:
            raise bad(f"row has keys not in columns: {sorted(extra)}")
        rows.append({k: r.get(k) for k in keys})
    cols = [{k: c[k] for k in ("key", "label", "kind", "digits", "unit") if k in c} for c in t["columns"]]
    return {"id": tid, "title": t.get("title", tid), "columns": cols, "rows": rows, "notes": t.get("notes") or {}}


# -- files -----------------------------------------------------------------------------------
def build_files(m: Manifest, archives_dir: Path, studies_dir: Path, progress=None, kept: dict | None = None) -> dict:
    """All files of data/<study>/ as {relpath: bytes}, plus {None: problems}. Writes nothing.
    `kept` (optional) receives what the report needs (ingest/report.py): "archives" (name ->
    Archive), "runs" (the run records) and "tables" (the checked tables)."""
    archives, texts = {}, {}
    for inp in m.inputs:
        if inp.kind == "archive":
            path = archives_dir / inp.name
            _check_input(m, inp, path)
            archives[inp.name] = Archive(path)
        else:
            path = studies_dir / m.study / inp.name
            _check_input(m, inp, path)
            texts[inp.name] = decode(path.read_bytes(), str(path))
    runs, series, files, problems = collect_runs(m, archives, progress)
    linked_docs, linked_problems = linked.attach(m, runs, series, files,
                                                 lambda rule, t, labels: _fmt(m, rule, t, labels, False))
    problems.extend(linked_problems)
    ctx = StudyContext(manifest=m, runs=runs, series=series, files=files, inputs=texts, problems=problems)
    module = study_module(m)
    # the manifest's `tables:`, then the study module's; the default tables when neither gives any
    built = declared.build(m, runs) + (module.build(ctx) if module else [])   # may raise Problem
    tables = [check_table(m, t) for t in (built or defaults.build(ctx))]
    counter_tables, counter_problems = counters.build(m, runs, files)   # the manifest's `counters:`
    tables += [check_table(m, t) for t in counter_tables]
    problems.extend(counter_problems)
    check = reproduction.build(m, m.reproduction, tables, lambda c: reproduction.published_tables(ctx, c))
    tables += [check_table(m, check)] if check else []
    ids = [t["id"] for t in tables]
    if len(set(ids)) != len(ids):
        raise Problem(m.path, None, f"duplicate table ids from the study module: {ids}")
    _no_control_text(m, runs, tables)
    out = {
        "study.yaml": dump(_study_doc(m, ids, ctx.problems)),
        "runs.yaml": dump({"runs": runs}),
    }
    for r in runs:
        s = series[r["id"]]
        doc = {"run": r["id"], "interval_s": r["tool"].get("interval_s", m.interval_s),
               **({"mean": r["mean"]} if "mean" in r else {}), "columns": list(s)}
        doc.update(s)
        out[f"series/{r['id']}.yaml"] = dump(doc)
        out[f"series/{r['id']}.json"] = series_json(doc)   # served as is (ingest/seriesfiles.py)
        out[f"series/{r['id']}.csv"] = series_csv(doc)
        if r["id"] in linked_docs:   # docs/manifest.md, "Linked metrics"
            lk = linked_docs[r["id"]]
            ldoc = {"run": r["id"], "interval_s": r["linked"]["interval_s"], "columns": list(lk), **lk}
            out[f"series/{r['id']}.linked.yaml"] = dump(ldoc)
            out[f"series/{r['id']}.linked.json"] = series_json(ldoc)
            out[f"series/{r['id']}.linked.csv"] = series_csv(ldoc)
    for t in tables:
        out[f"tables/{t['id']}.yaml"] = dump(t)
    if kept is not None:
        kept.update(archives=archives, runs=runs, tables=tables)
    files_out = {k: v.encode("utf-8") for k, v in out.items()}
    files_out[None] = ctx.problems
    return files_out


_CONTROL_TEXT = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")   # tab and line ends are text


def _no_control_text(m: Manifest, runs: list[dict], tables: list[dict]) -> None:
    """Problem for a run name or label, or a table title, label or cell, holding a control
    character (ESC would reach the pages and the terminal); data/ never holds one."""
    def texts(obj):
        if isinstance(obj, str):
            yield obj
        elif isinstance(obj, dict):
            for k, v in obj.items():
                yield from texts(k)
                yield from texts(v)
        elif isinstance(obj, list):
            for v in obj:
                yield from texts(v)
    for what, obj in [*((f"run {r['id']}", {k: r[k] for k in ("id", "name", "labels")}) for r in runs),
                      *((f"table {t['id']}", t) for t in tables)]:
        for text in texts(obj):
            if _CONTROL_TEXT.search(text):
                raise Problem(m.path, None, f"{clean(what, 80)}: text {clean(text, 80)!r} has control characters")


def _study_doc(m: Manifest, table_ids: list[str], problems: list) -> dict:
    return {
        "schema": 1, "study": m.study, "title": m.title, "ingest_version": __version__,
        "inputs": [{"name": i.name, "kind": i.kind, "sha256": i.sha256, "origin": i.origin,
                    **({"note": i.note} if i.note else {})} for i in m.inputs],
        "interval_s": m.interval_s, "metric": m.metric, "window": m.window, "base": m.base,
        "labels": m.labels, "display": m.display, "markers": m.markers, "tables": table_ids,
        "problems": [str(p) for p in problems],
    }


def progress_bar(stream=None):
    """A progress callback drawing a one-line bar, or None when `stream` (default: the current
    sys.stderr) is not a TTY."""
    stream = stream or sys.stderr
    if not stream.isatty():
        return None

    def draw(i, n, what):
        width = 30
        done = int(width * i / n) if n else width
        stream.write(f"\r[{'#' * done}{'.' * (width - done)}] {i}/{n} {what[:40]:<40}")
        if i >= n:
            stream.write("\n")
        stream.flush()
    return draw


__all__ = ["StudyContext", "ingest", "find_manifests", "manifest_path", "build_files", "progress_bar"]
