"""Raw benchmark output written at test time, in the real formats (docs/formats.md: sysbench
0.5, sysbench 1.x and sysbench-tpcc, tpcc-mysql, vmstat, iostat), with numbers of our own.

Every writer is deterministic: the rates follow a smooth curve with a wobble drawn from a
`random.Random` seeded by the caller, so the same arguments give the same bytes. `idle` lists
interval numbers (1-based) in which nothing completed, printed as each tool prints an empty
interval (a rate of 0 and its placeholder latency 0.00), which the parsers must read as missing
latency, never as 0 ms (docs/formats.md, "Placeholders")."""

from __future__ import annotations

import io
import random
import tarfile
import zipfile
from pathlib import Path


def _rates(rate: float, n: int, seed: int, idle=()) -> list[float]:
    """n per-interval rates around `rate`: a slow warm-up over the first tenth, then +-3 %."""
    rnd = random.Random(seed)
    out = []
    for i in range(1, n + 1):
        warm = min(1.0, 0.5 + 5 * i / n)
        out.append(0.0 if i in idle else round(rate * warm * (1 + rnd.uniform(-0.03, 0.03)), 2))
    return out


def sysbench05_log(
    tps: float, seconds: int, interval: int = 2, threads: int = 16, seed: int = 1, idle=()
) -> str:
    """sysbench 0.5 OLTP output: the banner, interval lines every `interval` s (the variant
    with `errors:` and `reconnects:`), and the `OLTP test statistics:` summary."""
    n = seconds // interval
    rates = _rates(tps, n, seed, idle)
    lines = [
        "sysbench 0.5:  multi-threaded system evaluation benchmark",
        "",
        "Running the test with following options:",
        f"Number of threads: {threads}",
        f"Report intermediate results every {interval} second(s)",
        "Random number generator seed is 0 and will be ignored",
        "",
        "",
        "Threads started!",
        "",
    ]
    for i, r in enumerate(rates, 1):
        lat = 0.0 if r == 0 else 1000 * threads / r * 1.4
        lines.append(
            f"[{i * interval:4d}s] threads: {threads}, tps: {r:.2f}, reads: {r * 14:.2f}, "
            f"writes: {r * 4:.2f}, response time: {lat:.2f}ms (95%), errors: 0.00, "
            "reconnects:  0.00"
        )
    events = round(sum(rates) * interval)
    total = n * interval
    lines += [
        "OLTP test statistics:",
        "    queries performed:",
        f"        read:                            {events * 14}",
        f"        write:                           {events * 4}",
        f"        other:                           {events * 2}",
        f"        total:                           {events * 20}",
        f"    transactions:                        {events}  ({events / total:.2f} per sec.)",
        f"    read/write requests:                 {events * 18}  ({events * 18 / total:.2f} per sec.)",
        f"    other operations:                    {events * 2}  ({events * 2 / total:.2f} per sec.)",
        "    ignored errors:                      0      (0.00 per sec.)",
        "    reconnects:                          0      (0.00 per sec.)",
        "",
        "General statistics:",
        f"    total time:                          {total}.0021s",
        f"    total number of events:              {events}",
        f"    total time taken by event execution: {total * threads - 0.5:.4f}s",
        "    response time:",
        "         min:                                  1.21ms",
        "         avg:                                 12.93ms",
        "         max:                                301.57ms",
        "         approx.  95 percentile:              21.40ms",
        "",
        "Threads fairness:",
        f"    events (avg/stddev):           {events / threads:.4f}/9.31",
        f"    execution time (avg/stddev):   {total - 0.01:.4f}/0.00",
    ]
    return "\n".join(lines) + "\n"


def sysbench1_log(
    tps: float,
    seconds: int,
    interval: int = 1,
    threads: int = 8,
    seed: int = 1,
    idle=(),
    queries_per_trx: int = 20,
    version: str = "1.0.20",
) -> str:
    """sysbench 1.x output (`--report-interval`): the banner, `[ Ns ] thds: ...` lines and the
    final summary. sysbench-tpcc (tpcc.lua) prints exactly this format; its transactions run
    about 30 queries each (`queries_per_trx`)."""
    n = seconds // interval
    rates = _rates(tps, n, seed, idle)
    q = queries_per_trx
    lines = [
        f"sysbench {version} (using bundled LuaJIT 2.1.0-beta2)",
        "",
        "Running the test with following options:",
        f"Number of threads: {threads}",
        f"Report intermediate results every {interval} second(s)",
        "Initializing random number generator from current time",
        "",
        "",
        "Initializing worker threads...",
        "",
        "Threads started!",
        "",
    ]
    for i, r in enumerate(rates, 1):
        lat = 0.0 if r == 0 else 1000 * threads / r * 1.3
        lines.append(
            f"[ {i * interval}s ] thds: {threads} tps: {r:.2f} qps: {r * q:.2f} "
            f"(r/w/o: {r * q * 0.7:.2f}/{r * q * 0.2:.2f}/{r * q * 0.1:.2f}) "
            f"lat (ms,95%): {lat:.2f} err/s 0.00 reconn/s: 0.00"
        )
    events = round(sum(rates) * interval)
    total = n * interval
    lines += [
        "SQL statistics:",
        "    queries performed:",
        f"        read:                            {round(events * q * 0.7)}",
        f"        write:                           {round(events * q * 0.2)}",
        f"        other:                           {round(events * q * 0.1)}",
        f"        total:                           {events * q}",
        f"    transactions:                        {events}  ({events / total:.2f} per sec.)",
        f"    queries:                             {events * q}  ({events * q / total:.2f} per sec.)",
        "    ignored errors:                      0      (0.00 per sec.)",
        "    reconnects:                          0      (0.00 per sec.)",
        "",
        "General statistics:",
        f"    total time:                          {total}.0012s",
        f"    total number of events:              {events}",
        "",
        "Latency (ms):",
        "         min:                                    1.12",
        "         avg:                                   11.80",
        "         max:                                  250.02",
        "         95th percentile:                       20.37",
        f"         sum:                             {total * threads * 1000.0:.2f}",
        "",
        "Threads fairness:",
        f"    events (avg/stddev):           {events / threads:.4f}/3.10",
        f"    execution time (avg/stddev):   {total - 0.005:.4f}/0.00",
    ]
    return "\n".join(lines) + "\n"


def tpcc_mysql_log(
    trx: float,
    seconds: int,
    interval: int = 10,
    warehouses: int = 100,
    connections: int = 32,
    seed: int = 1,
    idle=(),
) -> str:
    """tpcc-mysql (`tpcc_start`) output: the parameters, `MEASURING START.`, one line per
    interval (New-Order count, its 95%/99%/max response times, then count|max_rt of the four
    other transactions) and the `<TpmC>` summary. An idle interval prints `trx: 0` and
    `0.000` response times, as the tool does for an empty histogram."""
    n = seconds // interval
    counts = [round(x) for x in _rates(trx, n, seed, idle)]
    lines = [
        "***************************************",
        "*** ###easy### TPC-C Load Generator ***",
        "***************************************",
        "<Parameters>",
        "     [server]: 127.0.0.1",
        "     [port]: 3306",
        f"     [DBname]: tpcc{warehouses}",
        "       [user]: root",
        "       [pass]: ",
        f"  [warehouse]: {warehouses}",
        f" [connection]: {connections}",
        "     [rampup]: 60 (sec.)",
        f"    [measure]: {seconds} (sec.)",
        "",
        "RAMP-UP TIME.(60 sec.)",
        "",
        "MEASURING START.",
        "",
    ]
    rnd = random.Random(seed + 7)
    for i, c in enumerate(counts, 1):
        if c == 0:
            lat = "95%: 0.000, 99%: 0.000, max_rt: 0.000"
            others = "0|0.000, 0|0.000, 0|0.000, 0|0.000"
        else:
            p95 = 20 + rnd.uniform(0, 10)
            lat = f"95%: {p95:.3f}, 99%: {p95 * 1.4:.3f}, max_rt: {p95 * 2.1:.3f}"
            others = (
                f"{c}|{p95 * 0.5:.3f}, {round(c / 10)}|{p95 * 0.2:.3f}, "
                f"{round(c / 10)}|{p95 * 3:.3f}, {round(c / 10)}|{p95 * 2:.3f}"
            )
        lines.append(f"{i * interval:4d}, trx: {c}, {lat}, {others}")
    tpmc = sum(counts) / (n * interval) * 60
    lines += [
        "",
        "STOPPING THREADS................................",
        "",
        "<Raw Results>",
        f"  [0] sc:{sum(counts)} lt:0  rt:0  fl:0 avg_rt: 12.1 (5)",
        "",
        "<TpmC>",
        f"                 {tpmc:.3f} TpmC",
    ]
    return "\n".join(lines) + "\n"


def vmstat_text(samples: int, seed: int = 1, header_every: int = 0, busy: float = 60.0) -> str:
    """`vmstat 1` output: the two header lines, the since-boot sample, then `samples` samples
    (the header repeated every `header_every` samples when given)."""
    rnd = random.Random(seed)
    head = [
        "procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----",
        " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st",
    ]
    out = head + [
        " 1  0      0 8000000 100000 2000000    0    0   100  2000  500 1000  2  1 96  1  0"
    ]
    for i in range(1, samples + 1):
        if header_every and i % header_every == 0:
            out += head
        us = max(0, min(90, round(busy + rnd.uniform(-8, 8))))
        sy, wa = 8, 3
        out.append(
            f"{rnd.randint(4, 40):2d}  {rnd.randint(0, 3)}      0 {7000000 - i:7d} 100000 2000000"
            f"    0    0 {rnd.randint(0, 900):5d} {rnd.randint(20000, 60000):5d} "
            f"{rnd.randint(3000, 9000):4d} {rnd.randint(20000, 90000):5d} {us:2d} {sy:2d} "
            f"{100 - us - sy - wa:2d} {wa:2d}  0"
        )
    return "\n".join(out) + "\n"


def sar_text(samples: int, busy: float = 60.0, cpus: int = 2) -> str:
    """`sar -u -P ALL 1` output in the en_US locale (12-hour clock): the banner, a header, then
    per sample the whole machine (`all`: %user = `busy` + the sample's index / 10) and each
    CPU, then the `Average:` lines."""
    head = "11:59:58 AM     CPU     %user     %nice   %system   %iowait    %steal     %idle"
    out = [f"Linux 6.1.0-13-amd64 (bench) \t01/15/2025 \t_x86_64_\t({cpus} CPU)", "", head]
    for i in range(1, samples + 1):
        h, rest = divmod(11 * 3600 + 59 * 60 + 58 + i, 3600)  # from 11:59:58 AM, past noon
        m, sec = divmod(rest, 60)
        clock = f"{(h - 1) % 12 + 1:02d}:{m:02d}:{sec:02d} {'AM' if h < 12 else 'PM'}"
        user = busy + i / 10
        out.append(
            f"{clock}     all     {user:5.2f}      0.00      8.00      3.00      0.00     {89 - user:5.2f}"
        )
        out += [
            f"{clock}       {c}     {user + c:5.2f}      0.00      8.00      3.00      0.00     {89 - user - c:5.2f}"
            for c in range(cpus)
        ]
    out += [
        "",
        head.replace("11:59:58 AM", "Average:   "),
        "Average:        all     50.00      0.00      8.00      3.00      0.00     39.00",
    ]
    return "\n".join(out) + "\n"


def iostat_text(samples: int, interval: int = 1, device: str = "nvme0n1", seed: int = 1) -> str:
    """`iostat -x <interval>` output (sysstat 12 columns): the banner, the since-boot report,
    then `samples` reports of one device."""
    rnd = random.Random(seed)
    cols = (
        "Device            r/s     rMB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wMB/s   "
        "wrqm/s  %wrqm w_await wareq-sz     d/s     dMB/s   drqm/s  %drqm d_await dareq-sz     "
        "f/s f_await  aqu-sz  %util"
    )
    out = ["Linux 5.15.0-91-generic (db1) \t03/02/2024 \t_x86_64_\t(32 CPU)", ""]
    for i in range(samples + 1):
        r, w = rnd.uniform(100, 5000), rnd.uniform(1000, 9000)
        out += [
            "avg-cpu:  %user   %nice %system %iowait  %steal   %idle",
            f"          {rnd.uniform(20, 70):6.2f}    0.00    8.00    3.00    0.00   20.00",
            "",
            cols,
            f"{device:<12}{r:9.2f} {r / 64:9.2f}     0.00   0.00    0.20    16.00 {w:9.2f}"
            f" {w / 40:9.2f}     0.00   0.00    0.50    25.60    0.00      0.00     0.00   0.00"
            "    0.00     0.00    0.00    0.00    2.00  60.00",
            "",
        ]
    return "\n".join(out) + "\n"


def write_tree(root: Path, members: dict[str, str | bytes]) -> Path:
    """A result directory: each member written at its path under `root`."""
    for name, data in members.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data.encode() if isinstance(data, str) else data)
    return root


def tar_gz(path: Path, members: dict[str, str | bytes], top: str, mtime: int = 0) -> Path:
    """A .tar.gz of `members` under one top directory, each with modification time `mtime`."""
    with tarfile.open(path, "w:gz") as tf:
        for name, data in members.items():
            raw = data.encode() if isinstance(data, str) else data
            info = tarfile.TarInfo(f"{top}/{name}")
            info.size, info.mtime = len(raw), mtime
            tf.addfile(info, io.BytesIO(raw))
    return path


def zip_file(path: Path, members: dict[str, str | bytes], top: str, when=(2020, 1, 1, 0, 0, 0)):
    """A .zip of `members` under one top directory, each dated `when`."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(zipfile.ZipInfo(f"{top}/{name}", when), data)
    return path
