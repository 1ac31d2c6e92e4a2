"""What each series column means: its label, unit and kind, written into the series files'
`meta` (docs/data-schema.md) so the charts name and read a column the way the ingest and its
parsers do (one list of gauges: the server-status parser's `GAUGES`), never by a list of
their own.

kind: `throughput` (the run's metric), `rate` (per second), `gauge` (a level, not a rate),
`percent`, `latency` (ms) or `per-op` (per operation of the run). A column the ingest does not
know gets no entry: the chart shows its name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ingest.parse.server_status import GAUGES

# The linked metrics' columns (docs/manifest.md, "Linked metrics"), the one list of them
# (ingest/join/linked.py joins them): vmstat's `vm.<column>`, and per iostat device
# `io.<device>.<name>`, read from iostat's `source` column times `factor`.
VMSTAT = {
    "us": ("CPU user (%)", "%", "percent"),
    "sy": ("CPU system (%)", "%", "percent"),
    "wa": ("CPU IO wait (%)", "%", "percent"),
    "cs": ("context switches/s", "/s", "rate"),
    "r": ("runnable processes", "processes", "gauge"),
    "b": ("blocked processes", "processes", "gauge"),
}
IOSTAT = {  # name: (source, factor, label, unit, kind)
    "r/s": ("r/s", 1, "reads/s", "/s", "rate"),
    "w/s": ("w/s", 1, "writes/s", "/s", "rate"),
    "rMB/s": ("rkB/s", 1 / 1024, "MB read/s", "MB/s", "rate"),
    "wMB/s": ("wkB/s", 1 / 1024, "MB written/s", "MB/s", "rate"),
    "await": ("await", 1, "await (ms)", "ms", "latency"),
    "util": ("%util", 1, "util (%)", "%", "percent"),
}
OWN = {
    "tps": ("tps", "/s", "rate"),
    "qps": ("qps", "/s", "rate"),
    "lat_ms": ("latency (ms)", "ms", "latency"),
    "err_s": ("errors/s", "/s", "rate"),
    "reconn_s": ("reconnects/s", "/s", "rate"),
    "cpu_per_op": ("CPU s per op", "s", "per-op"),
    "kb_written_per_op": ("KB written per op", "KB", "per-op"),
}
# LinkBench request runs: per operation, its 95th percentile and mean latency (ingest/parse/linkbench.py)
OP_LATENCY = re.compile(r"^lat\.([A-Z_]+)\.(p95|mean)$")
MPSTAT_COLUMN = re.compile(r"^mp\.([^.]+)\.(%\w+)$")
DSTAT_BYTES = {"dsk": "disk", "net": "network", "pg": "paging"}
DSTAT_WORDS = {"writ": "written", "recv": "received", "send": "sent"}
IO_COLUMN = re.compile(rf"^io\.(.+)\.({'|'.join(map(re.escape, IOSTAT))})$")


def column_meta(
    name: str, metric: str | None = None, lat_pct: float | None = None
) -> dict[str, Any] | None:
    """{label, unit, kind} of a series column, or None when the ingest does not know it.
    `lat_pct`: the percentile sysbench printed as its interval latency (`lat (ms,95%)`), named
    in that column's label when known."""
    if name == metric:
        return {
            "label": name,
            "unit": "/s",
            "kind": "throughput",
        }  # every tool here counts per second
    if name in OWN:
        label, unit, kind = OWN[name]
        if name == "lat_ms" and lat_pct is not None:
            label = f"p{lat_pct:g} {label}"
    elif m := OP_LATENCY.match(name):
        label, unit, kind = f"{m[1]} {m[2]} (ms)", "ms", "latency"
    elif name.startswith("vm.") and name[3:] in VMSTAT:
        label, unit, kind = VMSTAT[name[3:]]
    elif m := IO_COLUMN.match(name):
        label, unit, kind = IOSTAT[m[2]][2:]
        label = f"{m[1]} {label}"
    elif name.startswith(
        "st."
    ):  # server counters: per second, gauges as levels (ingest/parse/server_status.py)
        counter = name[3:]
        label, unit, kind = (
            (counter, "", "gauge") if GAUGES.match(counter) else (f"{counter}/s", "/s", "rate")
        )
    elif name.startswith("ds."):  # dstat, named as vmstat names the same readings
        label, unit, kind = _dstat(name[3:])
    elif m := MPSTAT_COLUMN.match(name):  # mpstat: a CPU's (or `all`'s) percentages
        label, unit, kind = f"CPU {m[1]} {m[2][1:]} (%, mpstat)", "%", "percent"
    elif name.startswith("sar."):  # sar's own names: a percentage, a rate, else a level
        column = name[4:]
        label, unit, kind = (
            (f"{column[1:]} (%, sar)", "%", "percent")
            if column.startswith("%")
            else (f"{column} (sar)", "/s", "rate")
            if column.endswith("/s")
            else (f"{column} (sar)", "", "gauge")
        )
    elif name.endswith("/s"):
        label, unit, kind = name, "/s", "rate"
    else:
        return None
    return {"label": label, "unit": unit, "kind": kind}


def _dstat(column: str) -> tuple[str, str, str]:
    """(label, unit, kind) of a dstat column (ingest/parse/dstat.py names them)."""
    if column in VMSTAT:
        label, unit, kind = VMSTAT[column]
        return f"{label}, dstat", unit, kind
    if column in ("id", "st", "hiq", "siq"):
        return f"CPU {column} (%, dstat)", "%", "percent"
    if column == "in":
        return "interrupts/s, dstat", "/s", "rate"
    group, _, rest = column.partition(".")
    if group in DSTAT_BYTES:
        *item, what = rest.split(".")
        words = " ".join([DSTAT_BYTES[group], *item, DSTAT_WORDS.get(what, what)])
        return f"{words} (bytes/s, dstat)", "B/s", "rate"
    return f"{column} (dstat)", "", "gauge"


def meta_of(
    columns: Iterable[str], metric: str | None = None, lat_pct: float | None = None
) -> dict[str, dict[str, Any]]:
    """{column: {label, unit, kind}} of the columns the ingest knows (`t` left out)."""
    return {
        c: m for c in columns if c != "t" and (m := column_meta(c, metric, lat_pct)) is not None
    }
