"""Linked metrics: what the OS and the server did during a run, on the run's own clock.

For a run whose manifest rule names its vmstat, iostat or periodic server-status files
(docs/manifest.md, "Linked metrics"), `linked_series` builds one columnar series beside the
run's throughput: one row per OS sample, `t` in seconds of the run, columns

    vm.us vm.sy vm.wa vm.cs vm.r vm.b                      vmstat
    io.<dev>.r/s io.<dev>.w/s io.<dev>.rMB/s io.<dev>.wMB/s io.<dev>.await io.<dev>.util
    st.<counter>                                           server counters (per second)
    cpu_per_op kb_written_per_op                           derived, per interval

Alignment (never silent, never stretched): no tool in the archives prints absolute times, so
sample i (1-based; the since-boot sample is already dropped by the parsers and so never averaged
in) ends at `offset_s + i * interval_s`, both declared in the manifest. A series whose span
differs from the run's by more than the tolerance (default: two samples or 2% of the run,
whichever is larger) is reported with its file, as are samples outside the run when they
cover more than the tolerance (monitors often run a little before and after the benchmark).
Server-status snapshots carry their own clock (time stamps or Uptime) and are put on the run's
clock by `offset_s` only.

Derived per interval: the run's throughput over each OS interval (t - interval_s, t], its
interval rates weighted by their overlap (None when the run covers less than half of it), then CPU seconds per operation = (us + sy) / 100 x cores /
ops per second, and KB written per operation = the devices' summed wkB/s / ops per second.
A value the inputs cannot give is None, never 0.
"""
from __future__ import annotations

from .parsers.base import Session
from .problems import Problem

VMSTAT = ("us", "sy", "wa", "cs", "r", "b")
IOSTAT = {"r/s": ("r/s", 1), "w/s": ("w/s", 1), "rkB/s": ("rMB/s", 1 / 1024), "wkB/s": ("wMB/s", 1 / 1024),
          "await": ("await", 1), "%util": ("util", 1)}
DEFAULT_PANELS = ("vm.us", "vm.sy", "vm.wa", "io.*.w/s", "cpu_per_op")


def tolerance(run_span: float, interval_s: float, declared: float | None = None) -> float:
    """The largest difference between a series' span and the run's that is not reported."""
    return declared if declared is not None else max(2 * interval_s, 0.02 * run_span)


def place(n: int, interval_s: float, offset_s: float) -> list[float]:
    """End times on the run's clock of samples 1..n."""
    return [round(offset_s + i * interval_s, 6) for i in range(1, n + 1)]


def check_span(file: str, what: str, t: list, run_t: list, interval_s: float, tol: float) -> list[Problem]:
    """Problems when a series' span does not match the run's, beyond `tol` seconds."""
    if not t or not run_t:
        return []
    out = []
    span, run_span = t[-1] - t[0] + interval_s, run_t[-1]
    if abs(span - run_span) > tol:
        out.append(Problem(file, None, f"{what}: {len(t)} samples x {interval_s:g} s = {span:g} s, but the run "
                                        f"lasts {run_span:g} s (tolerance {tol:g} s): check interval_s/offset_s; "
                                        "the samples are kept at their declared times, not stretched"))
    outside = sum(1 for x in t if x <= 0 or x - interval_s >= run_span)   # no overlap with the run
    if outside * interval_s > tol:   # a monitor may run a little before and after the benchmark
        out.append(Problem(file, None, f"{what}: {outside} sample(s) fall outside the run (0, {run_span:g}] s"))
    return out


def ops_per_interval(run_t: list, ops: list, t: list, interval_s: float) -> list[float | None]:
    """The run's mean throughput over each interval (x - interval_s, x] of `t`: the run's
    interval rates weighted by how much of each run interval (t[k-1], t[k]] overlaps it."""
    out, j = [], 0
    starts = [0.0, *run_t[:-1]]
    for x in t:
        a = x - interval_s
        while j < len(run_t) and run_t[j] <= a:
            j += 1
        k, weight, total = j, 0.0, 0.0
        while k < len(run_t) and starts[k] < x:
            overlap = min(run_t[k], x) - max(starts[k], a)
            if ops[k] is not None and overlap > 0:
                weight += overlap
                total += ops[k] * overlap
            k += 1
        out.append(total / weight if weight >= 0.5 * interval_s else None)
    return out


def _div(a, b):
    return None if a is None or not b else a / b


def linked_series(run_t: list, ops: list, *, interval_s: float, offset_s: float = 0.0,
                  vmstat: tuple[str, Session] | None = None, iostat: tuple[str, list[Session]] | None = None,
                  status: tuple[str, Session] | None = None, cores: int | None = None,
                  tol_s: float | None = None) -> tuple[dict[str, list], list[Problem]]:
    """One columnar series of the run's linked metrics (see the module docstring), and problems.

    vmstat/iostat/status: (file name, parsed session(s)); cores defaults to iostat's `(N CPU)`."""
    problems: list[Problem] = []
    columns: dict[str, dict[float, object]] = {}
    tol = tolerance(run_t[-1] if run_t else 0, interval_s, tol_s)

    def add(name, t, values):
        columns[name] = dict(zip(t, values))

    if vmstat:
        file, s = vmstat
        t = place(len(s.series["t"]), interval_s, offset_s)
        problems += check_span(file, "vmstat", t, run_t, interval_s, tol)
        for c in VMSTAT:
            if c in s.series:
                add(f"vm.{c}", t, s.series[c])
    if iostat:
        file, sessions = iostat
        devices = [x for x in sessions if x.meta.get("device")]
        if devices:
            t = place(len(devices[0].series["t"]), interval_s, offset_s)
            problems += check_span(file, "iostat", t, run_t, interval_s, tol)
        cores = cores or next((x.meta["cpus"] for x in sessions if x.meta.get("cpus")), None)
        for dev in devices:
            name = dev.meta["device"]
            td = place(len(dev.series["t"]), interval_s, offset_s)
            for src, (dst, factor) in IOSTAT.items():
                col = dev.series.get(src)
                if col is None and src == "await":   # sysstat 12 prints r_await/w_await only
                    continue
                if col is not None:
                    add(f"io.{name}.{dst}", td, [None if v is None else round(v * factor, 3) for v in col])
    if status:
        file, s = status
        t = [round(offset_s + x, 6) for x in s.series["t"]]
        step = s.meta.get("interval_s") or interval_s
        problems += check_span(file, "server status", t, run_t, step, tolerance(run_t[-1] if run_t else 0, step, tol_s))
        for c, col in s.series.items():
            if c != "t":
                add(f"st.{c}", t, col)
    times = sorted({x for col in columns.values() for x in col})
    out: dict[str, list] = {"t": times}
    for name, col in columns.items():
        out[name] = [col.get(x) for x in times]
    if times and (vmstat or iostat):
        per = ops_per_interval(run_t, ops, times, interval_s)
        if "vm.us" in out and "vm.sy" in out and cores:
            out["cpu_per_op"] = [None if us is None or sy is None else _round(_div((us + sy) / 100 * cores, o))
                                 for us, sy, o in zip(out["vm.us"], out["vm.sy"], per)]
        written = [c for c in out if c.startswith("io.") and c.endswith(".wMB/s")]
        if written:
            total = [None if any(out[c][i] is None for c in written) else sum(out[c][i] for c in written) * 1024
                     for i in range(len(times))]
            out["kb_written_per_op"] = [_round(_div(w, o)) for w, o in zip(total, per)]
    return out, problems


def _round(x):
    return None if x is None else float(f"{x:.6g}")


def attach(m, runs: list[dict], series: dict, files: dict, fill) -> tuple[dict[str, dict], list[Problem]]:
    """Linked series of every run whose rule has `linked:` (docs/manifest.md, "Linked metrics").

    runs/series/files: what `study.collect_runs` gives (files: member -> Parsed, read by the
    manifest's `files:` rules); fill(rule, template, labels) -> the member name. Sets each run's
    `columns` (its own series) and, for a linked run, `linked` (columns, panels, interval and
    offset, files); returns {run id: columnar series} and the problems found."""
    docs, problems = {}, []
    for rec in runs:
        rec["columns"] = list(series[rec["id"]])
        rule = next((r for r in m.runs if r.input is not None and r.match(m.path, rec["source"]["file"])), None)
        spec = rule.linked if rule else None
        if not spec:
            continue
        found = {}
        for kind in ("vmstat", "iostat", "status"):
            if kind in spec:
                member = fill(rule, spec[kind], rec["labels"])
                if member in files:
                    found[kind] = (member, files[member])
        if not found:
            continue   # this run's monitors were not kept (e.g. LinkBench hours 2-23)
        args = {}
        for kind, (member, parsed) in found.items():
            sessions = parsed.sessions
            if kind == "iostat":
                args[kind] = (member, sessions)
            elif sessions:
                args[kind] = (member, sessions[0])
        t = series[rec["id"]].get("t", [])
        ops = series[rec["id"]].get(rec["metric"], []) if rec["metric"] else []
        doc, found_problems = linked_series(t, ops, interval_s=spec["interval_s"], offset_s=spec["offset_s"],
                                            tol_s=spec["tolerance_s"], **args)
        problems += [Problem(p.file, p.line, f"run {rec['id']}: {p.reason}") for p in found_problems]
        if len(doc) <= 1:
            continue
        docs[rec["id"]] = doc
        columns = [c for c in doc if c != "t"]
        panels = [p for p in spec["panels"] if p in columns]
        unknown = [p for p in spec["panels"] if p not in columns]
        if unknown:
            problems.append(Problem(m.path, rule.line, f"run {rec['id']}: linked panels {unknown} are not among its "
                                                      f"metrics ({', '.join(columns[:12])}{', ...' if len(columns) > 12 else ''})"))
        rec["linked"] = {"columns": columns, "panels": panels, "interval_s": spec["interval_s"],
                         "offset_s": spec["offset_s"], "files": sorted(member for member, _ in found.values())}
    return docs, problems
