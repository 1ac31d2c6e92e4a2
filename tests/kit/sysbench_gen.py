"""sysbench 1.x logs written at test time, in the real format (F1 interval lines + F3 summary),
with numbers of our own: a steady rate with a small deterministic wobble."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path


def sysbench_log(
    tps: float, seconds: int = 20, threads: int = 8, fatal: int = 0, complete: bool = True
) -> str:
    """One session: `fatal` FATAL lines after the start, then `seconds` interval lines at about
    `tps` transactions/s (20 queries each), then the final summary unless not `complete`."""
    lines = [
        "sysbench 1.0.20 (using bundled LuaJIT 2.1.0-beta2)",
        "",
        "Running the test with following options:",
        f"Number of threads: {threads}",
        "Report intermediate results every 1 second(s)",
        "Initializing random number generator from current time",
        "",
        "",
        "Initializing worker threads...",
        "",
        "Threads started!",
        "",
    ]
    lines += [
        f"FATAL: mysql_stmt_execute() returned error 2013 (Lost connection to MySQL server) for query {i}"
        for i in range(fatal)
    ]
    rates = [round(tps * (1 + ((i * 7) % 5 - 2) / 100), 2) for i in range(seconds)]
    for i, r in enumerate(rates, 1):
        lines.append(
            f"[ {i}s ] thds: {threads} tps: {r:.2f} qps: {r * 20:.2f} (r/w/o: {r * 14:.2f}/{r * 4:.2f}/"
            f"{r * 2:.2f}) lat (ms,95%): {1000 * threads / r:.2f} err/s 0.00 reconn/s: 0.00"
        )
    if complete:
        events = round(sum(rates))
        mean = events / seconds
        lines += [
            "SQL statistics:",
            "    queries performed:",
            f"        read:                            {events * 14}",
            f"        write:                           {events * 4}",
            f"        other:                           {events * 2}",
            f"        total:                           {events * 20}",
            f"    transactions:                        {events}    ({mean:.2f} per sec.)",
            f"    queries:                             {events * 20}  ({mean * 20:.2f} per sec.)",
            "    ignored errors:                      0      (0.00 per sec.)",
            "    reconnects:                          0      (0.00 per sec.)",
            "",
            "General statistics:",
            f"    total time:                          {seconds}.0010s",
            f"    total number of events:              {events}",
            "",
            "Latency (ms):",
            "         min:                                    1.50",
            "         avg:                                   10.04",
            "         max:                                   30.77",
            "         95th percentile:                       12.10",
            "         sum:                                40020.00",
            "",
            "Threads fairness:",
            f"    events (avg/stddev):           {events / threads:.4f}/1.12",
            f"    execution time (avg/stddev):   {seconds}.0005/0.00",
        ]
    return "\n".join(lines) + "\n"


def tar_gz(path: Path, members: dict[str, str | bytes], top: str = "results") -> Path:
    """A .tar.gz of `members` (name -> text) under one top directory, as result archives are."""
    with tarfile.open(path, "w:gz") as tf:
        for name, data in members.items():
            raw = data.encode() if isinstance(data, str) else data
            info = tarfile.TarInfo(f"{top}/{name}")
            info.size = len(raw)
            tf.addfile(info, io.BytesIO(raw))
    return path
