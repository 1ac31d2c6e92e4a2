"""linkbench-hourly-2017: a LinkBench run of MySQL 5.7.17 from a real archive (the author's
mdcallag/mytools): the load, then 24 one-hour request phases.

`hourly` (requests/s, size and the per-query OS metrics of each of the 24 hours, from the
run's per-hour summary files `r.r.in.L<n>.P1`), `hw-per-op` (HW efficiency of the load and
hour 1 computed from the raw vmstat/iostat with `ingest.join.osmetrics`, beside the summary files'
own per-operation figures) and `server-settings` (a few SHOW GLOBAL VARIABLES values). The
manifest's engine and version labels are checked against the server's own (l.gv.in).
"""

from __future__ import annotations

import re

from ingest.derive.tables import col, one_file, table
from ingest.join import osmetrics
from ingest.problems import Problem

GB = 1024**3
DEVICE = "nvme0n1"  # the data device; the summary files' per-operation IO figures are for it alone
BYTE_SETTINGS = ("innodb_buffer_pool_size", "innodb_log_file_size")  # shown in GiB, not raw bytes
# Settings worth showing next to the results (names as SHOW GLOBAL VARIABLES prints them).
SETTINGS = (
    "version",
    "innodb_buffer_pool_size",
    "innodb_log_file_size",
    "innodb_log_files_in_group",
    "innodb_flush_log_at_trx_commit",
    "innodb_flush_method",
    "innodb_doublewrite",
    "sync_binlog",
    "log_bin",
    "innodb_io_capacity",
    "innodb_page_cleaners",
    "innodb_purge_threads",
)


def build(ctx) -> list[dict]:
    check_server_labels(ctx)
    return [hourly(ctx.files), hw_per_op(ctx), server_settings(ctx.files)]


def server_label(variable: str, value: str | None) -> str | None:
    """A run label as SHOW GLOBAL VARIABLES states it: default_storage_engine lower-cased
    ('InnoDB' -> 'innodb'), version without its build suffix ('5.7.17-log' -> '5.7.17')."""
    if value is None:
        return None
    return value.lower() if variable == "default_storage_engine" else re.sub(r"-.*$", "", value)


def check_server_labels(ctx) -> None:
    """The manifest's `engine` and `version` labels of the 2017 runs are what the server said
    (l.gv.in): a label that disagrees fails the ingest at the manifest rule's line."""
    settings = one_file(ctx.files, r"l\.gv\.in").settings
    for run in ctx.runs:
        for label, variable in (("engine", "default_storage_engine"), ("version", "version")):
            said = server_label(variable, settings.get(variable))
            if label in run["labels"] and str(run["labels"][label]) != said:
                rule = next(
                    (r for r in ctx.manifest.runs if r.took(run["source"]["file"])),
                    None,
                )
                raise Problem(
                    ctx.manifest.path,
                    rule.line if rule else None,
                    f"run {run['id']}: {label}={run['labels'][label]!r}, but l.gv.in says "
                    f"{variable} {settings.get(variable)!r} ({label}={said!r})",
                )


def _summary_row(parsed) -> dict:
    """Phase rate, size after, and the per-operation OS metrics of one summary file."""
    session = parsed.sessions[0]
    metric = session.metric
    t = {x.name: x for x in parsed.tables}
    io = t["iostat"].rows[0] if "iostat" in t else {}
    vm = t["vmstat"].rows[0] if "vmstat" in t else {}
    after = [r for r in t["db-size"].rows if r["when"] == "after"] if "db-size" in t else []
    return {
        "rate": session.summary.get(metric),
        "seconds": session.summary.get("time_s"),
        "gb_after": round(after[0]["bytes"] / GB, 2) if after else None,
        "cpu_per_op": vm.get("cpu/q"),
        "cs_per_op": vm.get("cs/q"),
        "r_per_op": io.get("r/q"),
        "rkb_per_op": io.get("rkb/q"),
        "wkb_per_op": io.get("wkb/q"),
        "samples": vm.get("samp"),
    }


def hourly(files: dict) -> dict:
    """One row per one-hour request phase, from the summary files `r.r.in.L<n>.P1`."""
    rows = []
    for member, parsed in files.items():
        m = re.fullmatch(r"r\.r\.in\.L(\d+)\.P1", member)
        if m:
            rows.append(
                {
                    "hour": int(m[1]),
                    **{
                        k: v
                        for k, v in _summary_row(parsed).items()
                        if k not in ("seconds", "samples")
                    },
                }
            )
    rows.sort(key=lambda r: r["hour"])
    return table(
        "hourly",
        "LinkBench request phases, MySQL 5.7.17: one row per hour",
        [
            col("hour", "Hour", "number", 0),
            col("rate", "Requests/s", "number", 0),
            col("gb_after", "DB GB after", "number", 1),
            col("cpu_per_op", "CPU/q (vmstat us+sy per query/s)", "number", 6),
            col("cs_per_op", "Context switches/q", "number", 3),
            col("r_per_op", "Reads/q", "number", 3),
            col("rkb_per_op", "KB read/q", "number", 4),
            col("wkb_per_op", "KB written/q", "number", 3),
        ],
        rows,
    )


def elapsed_rate(series: dict, metric: str) -> tuple[float, float, int]:
    """(operations over elapsed time, elapsed seconds, intervals) of a run whose per-interval
    rates are differences of cumulative counts: the sum of rate x interval length is the count
    at the last line, so uneven intervals weigh by their length (an unweighted mean would not)."""
    t, rates = series["t"], series[metric]
    ops, prev = 0.0, 0.0
    for ti, r in zip(t, rates):
        ops += r * (ti - prev)
        prev = ti
    return ops / t[-1], t[-1], len(t)


def hw_per_op(ctx) -> dict:
    """HW efficiency of the load and hour 1 from the raw vmstat/iostat, next to the summary files'
    own figures. The rate is operations over elapsed time; storage is the data device (DEVICE),
    like the summary files' figures."""
    rows = [
        _phase_row(ctx, phase, run_id, member_re)
        for phase, run_id, member_re in (
            ("load", "load", r"l\.{}\.in"),
            ("Hour 1", "request-hour-1", r"r\.{}\.in\.L1\.P1"),
        )
    ]
    return table(
        "hw-per-op",
        f"HW efficiency per operation (load: per link; requests: per query; storage: {DEVICE})",
        [
            col("phase", "Phase", "label"),
            col("seconds", "Seconds", "number", 1),
            col("ops_per_s", "Ops/s (operations over elapsed time, client log)", "number", 0),
            col("tool_ops_per_s", "Ops/s (LinkBench's own summary)", "number", 0),
            col("interval_mean_s", "Log interval, mean s", "number", 2),
            col("interval_min_s", "shortest s", "number", 1),
            col("interval_max_s", "longest s", "number", 1),
            col("interval_max_from_s", "longest, from s", "number", 1),
            col("interval_max_to_s", "longest, to s", "number", 1),
            col("cores", "CPUs", "number", 0),
            col("cpu_us_per_op", "CPU µs/op", "number", 2),
            col("cs_per_op", "Context switches/op", "number", 3),
            col("summary_cs_per_op", "… its summary file's figure", "number", 3),
            col("kb_written_per_op", "KB written/op", "number", 3),
            col(
                "summary_wkb_per_op",
                f"… its summary file's figure ({DEVICE}, with the since-boot sample)",
                "number",
                3,
            ),
            col("kb_read_per_op", "KB read/op", "number", 4),
            col(
                "summary_rkb_per_op",
                f"… its summary file's figure ({DEVICE}, with the since-boot sample)",
                "number",
                4,
            ),
        ],
        rows,
    )


def _phase_row(ctx, phase: str, run_id: str, member_re: str) -> dict:
    """One phase's row: its rate and log intervals, and the HW efficiency of its OS samples
    beside its summary file's figures."""
    run = next(r for r in ctx.runs if r["id"] == run_id)
    summary = _summary_row(one_file(ctx.files, member_re.format("r")))
    vmstat = one_file(ctx.files, member_re.format("vm")).sessions[0]
    iostat = one_file(ctx.files, member_re.format("io")).sessions
    rate, elapsed, intervals = elapsed_rate(ctx.series[run_id], run["metric"])
    # OS samples span the phase: their interval is the phase length over the sample count.
    os_interval = round(summary["seconds"] / summary["samples"])
    # where the monitors started on the run's clock, as the linked metrics place them (hour 1:
    # with the phase's warm-up, docs/manifest.md "Linked metrics"), so the window's OS samples
    # are the run's own seconds, not the warm-up's
    offset = (run.get("linked") or {}).get("offset_s", 0)
    try:
        hw = osmetrics.hw_efficiency(
            ctx.series[run_id],
            run["metric"],
            0,
            summary["seconds"],
            os_interval_s=os_interval,
            offset_s=offset,
            vmstat=vmstat,
            iostat=iostat,
            devices=[DEVICE],
            ops_per_s=rate,
        )
    except ValueError as e:  # the OS files lack what the table needs (osmetrics says what)
        raise Problem(ctx.manifest.path, None, f"files: {phase}: {e}") from None
    return {
        "phase": phase,
        "seconds": summary["seconds"],
        "ops_per_s": round(rate, 1),
        "tool_ops_per_s": run["summary"].get(run["metric"]),
        "interval_mean_s": round(elapsed / intervals, 2),
        "interval_min_s": round(
            min(b - a for a, b in zip([0.0, *ctx.series[run_id]["t"]], ctx.series[run_id]["t"])),
            1,
        ),
        **longest_interval(ctx.series[run_id]["t"]),
        "cores": hw["cores"],
        "cpu_us_per_op": _round(hw["cpu_s_per_op"], 1e6, 2),
        "cs_per_op": _round(hw["cs_per_op"], 1, 3),
        "summary_cs_per_op": summary["cs_per_op"],
        "kb_written_per_op": _round(hw["kb_written_per_op"], 1, 3),
        "summary_wkb_per_op": summary["wkb_per_op"],
        "kb_read_per_op": _round(hw["kb_read_per_op"], 1, 4),
        "summary_rkb_per_op": summary["rkb_per_op"],
    }


def longest_interval(t: list) -> dict:
    """The longest step between the log's lines (from the run's start) and where it lies: a
    stretch of the run with no progress line, which the time series does not draw across."""
    steps = [(b - a, a, b) for a, b in zip([0.0, *t], t)]
    length, start, end = max(steps)
    return {
        "interval_max_s": round(length, 1),
        "interval_max_from_s": round(start, 1),
        "interval_max_to_s": round(end, 1),
    }


def _round(value, scale, digits):
    return None if value is None else round(value * scale, digits)


def server_settings(files: dict) -> dict:
    settings = one_file(files, r"l\.gv\.in").settings
    rows = [
        {"variable": k, "value": _gib(settings.get(k)) if k in BYTE_SETTINGS else settings.get(k)}
        for k in SETTINGS
    ]
    return table(
        "server-settings",
        "Server settings of the run (SHOW GLOBAL VARIABLES)",
        [col("variable", "Variable", "label"), col("value", "Value", "text")],
        rows,
    )


def _gib(value):
    """'12884901888' -> '12 GiB'; a size that is not whole GiB keeps its MiB or bytes."""
    try:
        n = int(value)
    except (TypeError, ValueError):
        return value
    for unit, size in (("GiB", GB), ("MiB", 1024**2)):
        if n and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n} bytes"
