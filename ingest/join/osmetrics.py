"""OS metrics for a benchmark run: vmstat/iostat joined to the run, HW efficiency per operation.

The archives' monitors print no per-sample time stamps, so here an OS series is put on the
run's clock by interval index and interval length (`ingest.linked` also joins `vmstat -t` /
`iostat -t` samples by their own times): sample i (1-based, the since-boot sample already dropped by the
parser) ends at `offset_s + i * interval_s` seconds of the run. `offset_s` is where the monitor
started relative to the run's t = 0 (e.g. -60 when vmstat started with a 60 s warm-up that the
run's series leaves out).

HW efficiency over a window (start < t <= end, as for the run's own metrics):
    CPU per op = (us + sy) / 100 x cores / ops per second   (CPU seconds per operation)
    KB read / written per op = rkB/s / ops per second, wkB/s / ops per second
    reads per op = r/s / ops per second;  context switches per op = cs / ops per second
A figure the inputs cannot give is None (missing), never 0. Pure functions: callers (study
modules) pass the parsed sessions and get plain dicts back.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ingest.parse.base import Session

PER_OP = ("cpu_s_per_op", "kb_read_per_op", "kb_written_per_op", "reads_per_op", "cs_per_op")
IO_COLUMNS = ("r/s", "w/s", "rkB/s", "wkB/s")


def on_run_clock(
    series: dict[str, list[Any]], interval_s: float, offset_s: float = 0.0
) -> dict[str, list[Any]]:
    """A copy of an OS series (t = sample index) with t in seconds on the run's clock."""
    if interval_s <= 0:
        raise ValueError("interval_s must be positive")
    out = dict(series)
    out["t"] = [round(offset_s + i * interval_s, 6) for i in series["t"]]
    return out


def window_mean(
    series: dict[str, list[Any]], column: str, start: float, end: float
) -> float | None:
    """Mean of `column` over the rows with start < t <= end; None when no row has a value."""
    values = [
        v for t, v in zip(series["t"], series.get(column, [])) if start < t <= end and v is not None
    ]
    return sum(values) / len(values) if values else None


def window_count(series: dict[str, list[Any]], start: float, end: float) -> int:
    """Rows of `series` in the window start < t <= end."""
    return sum(1 for t in series["t"] if start < t <= end)


def cpu_busy(vmstat: dict[str, list[Any]]) -> dict[str, list[Any]]:
    """vmstat series with a `busy` column: us + sy, percent of all CPUs."""
    busy = [
        None if us is None or sy is None else us + sy for us, sy in zip(vmstat["us"], vmstat["sy"])
    ]
    return dict(vmstat, busy=busy)


def device_sum(iostat: list[Session], devices: list[str] | None = None) -> dict[str, list[Any]]:
    """r/s, w/s, rkB/s, wkB/s summed over `devices` (all devices when None), by report index t.

    A report in which a named device is missing gives None for that t (not a partial sum).
    """
    chosen = [
        s
        for s in iostat
        if s.meta.get("device") and (devices is None or s.meta["device"] in devices)
    ]
    if devices is not None and {s.meta["device"] for s in chosen} != set(devices):
        found = sorted(str(s.meta["device"]) for s in iostat if s.meta.get("device"))
        raise ValueError(
            f"iostat has no device(s) {sorted(set(devices) - {s.meta['device'] for s in chosen})}; found {found}"
        )
    if not chosen:
        raise ValueError("iostat has no device series")
    by_t: dict[int, list[dict[str, Any]]] = {}
    for s in chosen:
        for i, t in enumerate(s.series["t"]):
            by_t.setdefault(t, []).append({c: s.series[c][i] for c in IO_COLUMNS if c in s.series})
    out: dict[str, list[Any]] = {"t": sorted(by_t)}
    for c in IO_COLUMNS:
        out[c] = [
            _sum([row.get(c) for row in by_t[t]]) if len(by_t[t]) == len(chosen) else None
            for t in out["t"]
        ]
    return out


def per_op(
    ops_per_s: float | None,
    *,
    busy_pct: float | None = None,
    cores: int | None = None,
    cs_per_s: float | None = None,
    reads_per_s: float | None = None,
    read_kb_per_s: float | None = None,
    write_kb_per_s: float | None = None,
) -> dict[str, float | None]:
    """HW cost per operation from window means (see the module docstring)."""

    return {
        "cpu_s_per_op": cpu_s_per_op(busy_pct, cores, ops_per_s),
        "kb_read_per_op": each_op(read_kb_per_s, ops_per_s),
        "kb_written_per_op": each_op(write_kb_per_s, ops_per_s),
        "reads_per_op": each_op(reads_per_s, ops_per_s),
        "cs_per_op": each_op(cs_per_s, ops_per_s),
    }


def each_op(per_s: float | None, ops_per_s: float | None) -> float | None:
    """A rate per second as an amount per operation; None when either is missing or no
    operation was done."""
    return None if per_s is None or not ops_per_s else per_s / ops_per_s


def cpu_s_per_op(
    busy_pct: float | None, cores: int | None, ops_per_s: float | None
) -> float | None:
    """CPU seconds per operation: (us + sy) / 100 x cores / ops per second (the one formula,
    for a window's means here and per sample in ingest/join/linked.py)."""
    return None if busy_pct is None or not cores else each_op(busy_pct / 100 * cores, ops_per_s)


def hw_efficiency(
    run: dict[str, list[Any]],
    metric: str,
    start: float,
    end: float,
    *,
    os_interval_s: float,
    offset_s: float = 0.0,
    vmstat: Session | None = None,
    iostat: list[Session] | None = None,
    devices: list[str] | None = None,
    cores: int | None = None,
    ops_per_s: float | None = None,
) -> dict[str, Any]:
    """HW efficiency of a run over the window start < t <= end.

    run: the run's columnar series (t in seconds) and `metric` its ops/s column.
    vmstat: the vmstat session; iostat: the iostat sessions (devices summed, see `device_sum`).
    cores: CPUs for CPU per op; default: the `(N CPU)` of the iostat banner.
    ops_per_s: the run's rate when the caller knows it better than the unweighted mean of its
    intervals (e.g. operations over elapsed time when the intervals are uneven).
    Returns ops_per_s, the per-op figures (PER_OP), and the OS samples used (n_vmstat, n_iostat).
    """
    ops = ops_per_s if ops_per_s is not None else window_mean(run, metric, start, end)
    out: dict[str, Any] = {"ops_per_s": ops, "n_vmstat": 0, "n_iostat": 0}
    means: dict[str, Any] = {}
    if vmstat is not None:
        vm = on_run_clock(cpu_busy(vmstat.series), os_interval_s, offset_s)
        means.update(
            busy_pct=window_mean(vm, "busy", start, end), cs_per_s=window_mean(vm, "cs", start, end)
        )
        out["n_vmstat"] = window_count(vm, start, end)
    if iostat:
        io = on_run_clock(device_sum(iostat, devices), os_interval_s, offset_s)
        means.update(
            reads_per_s=window_mean(io, "r/s", start, end),
            read_kb_per_s=window_mean(io, "rkB/s", start, end),
            write_kb_per_s=window_mean(io, "wkB/s", start, end),
        )
        out["n_iostat"] = window_count(io, start, end)
        cores = cores or next((s.meta["cpus"] for s in iostat if s.meta.get("cpus")), None)
    out.update(per_op(ops, cores=cores, **means))
    out["cores"] = cores
    return out


def relative(
    values: dict[str, Any], base: dict[str, Any], keys: Iterable[str] = PER_OP
) -> dict[str, float | None]:
    """values[k] / base[k] for each key; None when either is missing or the base is 0."""
    return {
        k: None if values.get(k) is None or not base.get(k) else values[k] / base[k] for k in keys
    }


def _sum(values: list[Any]) -> float | None:
    return None if not values or any(v is None for v in values) else sum(values)
