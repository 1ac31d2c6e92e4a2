"""A version-comparison study of our own, at the scale published studies have today: sysbench
1.0.20 OLTP reported every second for 900 s, on 11 server versions, three buffer-pool tiers
(2, 12, 32 GB), 1 to 512 threads and three workloads, with OS monitors beside every run and the
server's configuration per version and tier. Numbers of our own (a seed), in the real formats.

Layout, under one top folder (the read-only workload keeps the `_RW_` of the file names the
other two have, as the publisher's scripts wrote it):

    <workload>/<family>/<version>/Tier<N>G_RW_<T>th.<tool>.txt   tool: sysbench dstat mpstat
                                                                  iostat vmstat
    <workload>/<family>/<version>/Tier<N>G.<what>.txt            what: my.cnf variables status
                                                                  pt-mysql-summary

Each monitor starts 0-25 s before sysbench's first report (sysbench prints no clock time;
dstat and mpstat print the wall clock, vmstat and iostat do not). Some files are missing or
empty, as in a real archive. `write(path, size)` writes the .tar.gz member by member (the full
size never sits in memory) and a truth file beside it: each run's member, TPS and QPS as the
sysbench summary prints them, and the mean of its interval lines.

Sizes: `full` (11 versions x 3 tiers x 10 thread counts x 3 workloads, less the missing runs:
984 runs, 1.2 GB of text), `tenth` (one workload, 3 thread counts: 98 runs of 900 s) and
`small` (47 runs of 60 s, every irregularity kept).
"""

from __future__ import annotations

import argparse
import io
import json
import math
import random
import tarfile
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

# family -> version folder -> relative speed (a build suffix is part of the version)
VERSIONS = {
    "mysql": {
        "5.7.44": 1.0,
        "8.0.40": 0.86,
        "8.4.3": 0.84,
        "9.1.0": 0.82,
        "8.0.40-ubu2204-lto-variant2": 0.93,  # the custom build
    },
    "percona": {"5.7.44-48": 1.01, "8.0.39-30": 0.87, "8.4.2-2": 0.85},
    "mariadb": {"10.11.10": 0.97, "11.4.4": 0.95, "12.1.1": 0.94},
}
TIERS = (2, 12, 32)  # buffer pool, GB
THREADS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)
# workload folder -> (queries per transaction: read, write, other; a relative speed)
WORKLOADS = {
    "oltp_read_write": ((14, 4, 2), 1.0),
    "oltp_read_write_net": ((14, 4, 2), 0.78),
    "oltp_read_only": ((14, 0, 2), 1.6),  # its files are named _RW_ like the others
}
CPUS = 2  # mpstat -P ALL rows per sample (with `all`)
DEVICES = ("nvme0n1", "nvme1n1", "sda")
START = datetime(2026, 3, 13, 5, 30, 0)
MTIME = int(datetime(2026, 3, 20, 12, 0, 0).timestamp())


@dataclass(frozen=True)
class Size:
    seconds: int
    versions: tuple[tuple[str, str], ...]  # (family, version)
    tiers: tuple[int, ...]
    threads: tuple[int, ...]
    workloads: tuple[str, ...]


ALL_VERSIONS = tuple((f, v) for f, vs in VERSIONS.items() for v in vs)
SIZES = {
    "full": Size(900, ALL_VERSIONS, TIERS, THREADS, tuple(WORKLOADS)),
    # a tenth of the full study, every version and tier at 900 s: what a loaded machine measures
    "tenth": Size(900, ALL_VERSIONS, TIERS, (1, 64, 512), ("oltp_read_write",)),
    "small": Size(
        60,
        (
            ("mysql", "8.0.40"),
            ("mysql", "8.0.40-ubu2204-lto-variant2"),
            ("percona", "8.0.39-30"),
            ("mariadb", "11.4.4"),
        ),
        (2, 32),
        (1, 16, 512),
        ("oltp_read_write", "oltp_read_only"),
    ),
}


@dataclass(frozen=True)
class Run:
    workload: str
    family: str
    version: str
    tier: int
    threads: int
    seed: int

    @property
    def folder(self) -> str:
        return f"{self.workload}/{self.family}/{self.version}"

    def member(self, tool: str) -> str:
        return f"{self.folder}/Tier{self.tier}G_RW_{self.threads}th.{tool}.txt"


def runs(size: Size) -> list[Run]:
    out, seed = [], 0
    for w in size.workloads:
        for fam, ver in size.versions:
            for tier in size.tiers:
                for t in size.threads:
                    seed += 1
                    out.append(Run(w, fam, ver, tier, t, seed))
    return out


def _scaling(threads: int, tier: int) -> float:
    """Throughput against threads: near-linear to 32, a plateau, then a decline past 128;
    a buffer pool smaller than the data set (2 GB) caps it at the disk's rate."""
    s = min(threads, 32) ** 0.85 * (1 + 0.1 * math.log2(max(1, min(threads, 128) / 32)))
    if threads > 128:
        s *= (128 / threads) ** 0.2
    return s * {2: 0.35, 12: 0.9}.get(tier, 1.0)


def _tps_series(run: Run, seconds: int, rnd: random.Random) -> list[float]:
    """Per-second TPS: a warm-up (longer when the pool is small), +-4 % noise, periodic
    checkpoint dips, and a rare stall (a second of near-zero throughput)."""
    speed = VERSIONS[run.family][run.version] * WORKLOADS[run.workload][1]
    base = 210 * _scaling(run.threads, run.tier) * speed
    warm = {2: 60, 12: 25, 32: 10}[run.tier] * seconds / 900
    out = []
    for i in range(seconds):
        r = base * (1 - math.exp(-(i + 1) / max(warm, 1))) * rnd.gauss(1, 0.04)
        if i % 60 in (58, 59):
            r *= 0.85
        if rnd.random() < 0.002:
            r *= 0.02
        out.append(max(round(r, 2), 0.01))
    return out


def sysbench(  # long: the log, top to bottom
    run: Run, seconds: int, rnd: random.Random
) -> tuple[str, dict]:
    """sysbench 1.0.20 OLTP output (1 s reports, final summary) and the run's truth."""
    (nr, nw, no), _ = WORKLOADS[run.workload]
    per = nr + nw + no
    tps = _tps_series(run, seconds, rnd)
    t = run.threads
    lines = [
        "sysbench 1.0.20 (using bundled LuaJIT 2.1.0-beta2)",
        "",
        "Running the test with following options:",
        f"Number of threads: {t}",
        "Report intermediate results every 1 second(s)",
        "Initializing random number generator from current time",
        "",
        "",
        "Initializing worker threads...",
        "",
        "Threads started!",
        "",
    ]
    lat_base = 1000 * t / max(sum(tps) / seconds, 1)
    for i, r in enumerate(tps, 1):
        q = r * per
        lat = lat_base * rnd.uniform(1.3, 1.9)
        lines.append(
            f"[ {i}s ] thds: {t} tps: {r:.2f} qps: {q:.2f} (r/w/o: {r * nr:.2f}/{r * nw:.2f}/"
            f"{r * no:.2f}) lat (ms,95%): {lat:.2f} err/s: 0.00 reconn/s: 0.00"
        )
    events = round(sum(tps))
    total = seconds + rnd.uniform(0.0005, 0.03)
    lines += [
        "SQL statistics:",
        "    queries performed:",
        f"        read:                            {events * nr}",
        f"        write:                           {events * nw}",
        f"        other:                           {events * no}",
        f"        total:                           {events * per}",
        f"    transactions:                        {events} ({events / total:.2f} per sec.)",
        f"    queries:                             {events * per} ({events * per / total:.2f} per sec.)",
        "    ignored errors:                      0      (0.00 per sec.)",
        "    reconnects:                          0      (0.00 per sec.)",
        "",
        "General statistics:",
        f"    total time:                          {total:.4f}s",
        f"    total number of events:              {events}",
        "",
        "Latency (ms):",
        f"         min:                                    {lat_base / 8:.2f}",
        f"         avg:                                   {lat_base:.2f}",
        f"         max:                                   {lat_base * 9:.2f}",
        f"         95th percentile:                       {lat_base * 1.6:.2f}",
        f"         sum:                                {lat_base * events:.2f}",
        "",
        "Threads fairness:",
        f"    events (avg/stddev):           {events / t:.4f}/{rnd.uniform(0.5, 40):.2f}",
        f"    execution time (avg/stddev):   {seconds - 0.0005:.4f}/0.00",
        "",
    ]
    truth = {
        "member": run.member("sysbench"),
        "workload": run.workload,
        "family": run.family,
        "version": run.version,
        "tier_gb": run.tier,
        "threads": t,
        "tps": round(events / total, 2),
        "qps": round(events * per / total, 2),
        "tps_mean": sum(tps) / seconds,
        "qps_mean": sum(round(r * per, 2) for r in tps) / seconds,
        "intervals": seconds,
    }
    return "\n".join(lines), truth


def _unit(v: float) -> str:
    """dstat's 4-or-5-character quantities: 2217B, 394k, 39M, 1.2G."""
    for suffix, scale in (("G", 1024**3), ("M", 1024**2), ("k", 1024)):
        if v >= scale * 0.95:
            x = v / scale
            return f"{x:.1f}{suffix}" if x < 10 else f"{x:.0f}{suffix}"
    return f"{v:.0f}B" if v else "0"


def dstat(start: datetime, samples: int, rnd: random.Random) -> str:
    """`dstat -t` with the default -cdngy columns: a clock column `dd-mm HH:MM:SS|`."""
    out = [
        "----system---- --total-cpu-usage-- -dsk/total- -net/total- ---paging-- ---system--",
        "     time     |usr sys idl wai stl| read  writ| recv  send|  in   out | int   csw ",
    ]
    for i in range(samples):
        when = (start + timedelta(seconds=i)).strftime("%d-%m %H:%M:%S")
        us, sy, wa = rnd.randint(20, 70), rnd.randint(3, 15), rnd.randint(0, 9)
        idle = max(0, 100 - us - sy - wa)
        out.append(
            f"{when}|{us:3d} {sy:3d} {idle:3d} {wa:3d}   0|"
            f"{_unit(rnd.uniform(0, 60) * 1024**2):>5} {_unit(rnd.uniform(1, 90) * 1024**2):>5}|"
            f"{_unit(rnd.uniform(0.5, 40) * 1024**2):>5} {_unit(rnd.uniform(0.5, 80) * 1024**2):>5}|"
            f"{'0':>5} {'0':>5} |{_unit(rnd.uniform(5, 90) * 1000):>5} "
            f"{_unit(rnd.uniform(20, 300) * 1000):>5}"
        )
    return "\n".join(out) + "\n"


def mpstat(start: datetime, samples: int, rnd: random.Random) -> str:
    """`mpstat -P ALL 1` (24-hour clock): a header and one row per CPU each second, then the
    Average: block."""
    cols = "%usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle"
    out = [
        f"Linux 6.8.0-45-generic (db-bench-01) \t{start:%m/%d/%Y} \t_x86_64_\t({CPUS} CPU)",
        "",
    ]
    for i in range(1, samples + 1):
        when = (start + timedelta(seconds=i)).strftime("%H:%M:%S")
        out.append(f"{when}     CPU    {cols}")
        for cpu in ["all", *map(str, range(CPUS))]:
            usr, sy, io_ = rnd.uniform(15, 75), rnd.uniform(2, 14), rnd.uniform(0, 8)
            soft = rnd.uniform(0, 3)
            idle = max(0.0, 100 - usr - sy - io_ - soft)
            out.append(
                f"{when}     {cpu:>3} {usr:7.2f} {0:7.2f} {sy:7.2f} {io_:7.2f} {0:7.2f} "
                f"{soft:7.2f} {0:7.2f} {0:7.2f} {0:7.2f} {idle:7.2f}"
            )
        out.append("")
    out.append(f"Average:     CPU    {cols}")
    out.append(
        f"Average:     all {40:7.2f} {0:7.2f} {8:7.2f} {4:7.2f} {0:7.2f} {1.5:7.2f} "
        f"{0:7.2f} {0:7.2f} {0:7.2f} {46.5:7.2f}"
    )
    return "\n".join(out) + "\n"


def iostat(start: datetime, samples: int, rnd: random.Random) -> str:
    """`iostat -x 1` (sysstat 12), several devices: the since-boot report, then a block a
    second (avg-cpu, then the devices)."""
    dev_head = (
        "Device            r/s     rMB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wMB/s"
        "   wrqm/s  %wrqm w_await wareq-sz  aqu-sz  %util"
    )
    out = [f"Linux 6.8.0-45-generic (db-bench-01) \t{start:%m/%d/%Y} \t_x86_64_\t({CPUS} CPU)", ""]
    for i in range(samples + 1):
        scale = 0.1 if i == 0 else 1.0
        usr = rnd.uniform(15, 70)
        out += [
            "avg-cpu:  %user   %nice %system %iowait  %steal   %idle",
            f"          {usr:6.2f}    0.00 {8:7.2f} {3:7.2f}    0.00 {100 - usr - 11:7.2f}",
            "",
            dev_head,
        ]
        for d in DEVICES:
            r, w = rnd.uniform(0, 9000) * scale, rnd.uniform(100, 12000) * scale
            out.append(
                f"{d:<12}{r:9.2f} {r * 16 / 1024:9.2f} {0:8.2f} {0:6.2f} {0.2:7.2f} {16:8.2f} "
                f"{w:7.2f} {w * 24 / 1024:9.2f} {rnd.uniform(0, 40):8.2f} {2.5:6.2f} "
                f"{rnd.uniform(0.02, 2):7.2f} {24:8.2f} {rnd.uniform(0, 9):7.2f} "
                f"{min(100, rnd.uniform(5, 99)):6.2f}"
            )
        out.append("")
    return "\n".join(out) + "\n"


def vmstat(samples: int, rnd: random.Random) -> str:
    """`vmstat 1` (header repeated every 20 samples, as to a terminal), the since-boot first."""
    head = [
        "procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----",
        " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st",
    ]
    out = [
        *head,
        " 2  0      0 60123456 204800 9000000    0    0    80  1900  600 1200  3  1 95  1  0",
    ]
    for i in range(1, samples + 1):
        if i % 20 == 0:
            out += head
        us, sy, wa = rnd.randint(15, 70), rnd.randint(2, 14), rnd.randint(0, 8)
        out.append(
            f"{rnd.randint(1, 64):2d} {rnd.randint(0, 6):2d}      0 {50000000 - i * 100:8d} 204800 "
            f"9000000    0    0 {rnd.randint(0, 90000):5d} {rnd.randint(1000, 150000):5d} "
            f"{rnd.randint(3000, 90000):5d} {rnd.randint(20000, 400000):6d} {us:2d} {sy:2d} "
            f"{max(0, 100 - us - sy - wa):2d} {wa:2d}  0"
        )
    return "\n".join(out) + "\n"


def _settings(family: str, version: str, tier: int) -> dict[str, str]:
    return {
        "innodb_buffer_pool_size": str(tier * 1024**3),
        "innodb_log_file_size": str(2 * 1024**3),
        "innodb_flush_log_at_trx_commit": "1",
        "innodb_flush_method": "O_DIRECT",
        "innodb_io_capacity": "2000",
        "max_connections": "4000",
        "table_open_cache": "8000",
        "version": version.split("-ubu")[0] + ("-MariaDB" if family == "mariadb" else ""),
        "version_comment": {
            "mysql": "MySQL Community Server - GPL",
            "percona": "Percona Server (GPL), Release 30",
            "mariadb": "MariaDB Server",
        }[family],
    }


def mycnf(family: str, version: str, tier: int) -> str:
    s = _settings(family, version, tier)
    keys = ("innodb_log_file_size", "innodb_flush_log_at_trx_commit", "innodb_flush_method")
    return (
        f"# {family} {version}, {tier} GB buffer pool\n[mysqld]\n"
        f"innodb_buffer_pool_size = {tier}G\n"
        + "".join(f"{k} = {s[k]}\n" for k in keys)
        + "max_connections = 4000\nskip-log-bin\n"
    )


def variables(family: str, version: str, tier: int) -> str:
    """`mysql -N -e 'SHOW GLOBAL VARIABLES'`: name TAB value, no header."""
    return "".join(f"{k}\t{v}\n" for k, v in sorted(_settings(family, version, tier).items()))


def status(rnd: random.Random) -> str:
    """`mysql -N -e 'SHOW GLOBAL STATUS'`: name TAB value, no header."""
    names = (
        "Aborted_clients",
        "Bytes_received",
        "Bytes_sent",
        "Com_select",
        "Innodb_buffer_pool_read_requests",
        "Innodb_buffer_pool_reads",
        "Innodb_data_written",
        "Innodb_row_lock_waits",
        "Questions",
        "Threads_connected",
        "Uptime",
    )
    return "".join(f"{n}\t{rnd.randint(0, 10**9)}\n" for n in names)


def pt_summary(family: str, version: str, tier: int) -> str:
    """pt-mysql-summary: `#` section banners, `label | value` lines, the config file last."""
    s = _settings(family, version, tier)
    return (
        "# Percona Toolkit MySQL Summary Report #######################\n"
        "              System time | 2026-03-13 05:29:00 UTC (local TZ: UTC +0000)\n"
        "# Instances ##################################################\n"
        "  Port  Data Directory             Nice OOM Socket\n"
        "  ===== ========================== ==== === ======\n"
        "   3306 /var/lib/mysql             0    0   /var/run/mysqld/mysqld.sock\n"
        "# Report On Port 3306 ########################################\n"
        "                     User | root@localhost\n"
        "                 Hostname | db-bench-01\n"
        f"                  Version | {s['version']} {s['version_comment']}\n"
        "                Databases | 5\n"
        "# InnoDB #####################################################\n"
        f"                  Version | {s['version']}\n"
        f"         Buffer Pool Size | {tier}.0G\n"
        "         Buffer Pool Fill | 100%\n"
        "        Buffer Pool Dirty | 12%\n"
        "           File Per Table | ON\n"
        "             Flush Method | O_DIRECT\n"
        "# Configuration File #########################################\n"
        "              Config File | /etc/mysql/my.cnf\n"
        + mycnf(family, version, tier)
        + "# The End ####################################################\n"
    )


def _gaps(size: Size, all_runs: list[Run], rnd: random.Random) -> tuple[set, set, set]:
    """(runs without sysbench, (run, tool) missing, (run, tool) empty): about 0.6 % of the runs,
    1 % of the monitors missing and 1 % empty (at least one of each)."""
    n = len(all_runs)
    no_run = set(rnd.sample(range(n), max(1, round(n * 6 / 990))))
    pick = [i for i in range(n) if i not in no_run]
    tools = ("dstat", "mpstat", "iostat", "vmstat")
    gone = {(i, rnd.choice(tools)) for i in rnd.sample(pick, max(1, n // 100))}
    empty = {(i, rnd.choice(tools)) for i in rnd.sample(pick, max(1, n // 100))} - gone
    return no_run, gone, empty


def members(size: Size, seed: int = 2026) -> Iterator[tuple[str, str] | dict]:
    """(name, text) per archive member in order, and a truth dict per run."""
    rnd = random.Random(seed)
    all_runs = runs(size)
    no_run, gone, empty = _gaps(size, all_runs, rnd)
    configs_done: set[tuple[str, int]] = set()
    clock = START
    for i, run in enumerate(all_runs):
        key = (run.folder, run.tier)
        if key not in configs_done:
            configs_done.add(key)
            prefix = f"{run.folder}/Tier{run.tier}G"
            yield f"{prefix}.my.cnf.txt", mycnf(run.family, run.version, run.tier)
            yield (
                f"{prefix}.variables.txt",
                "" if len(configs_done) == 2 else variables(run.family, run.version, run.tier),
            )
            yield f"{prefix}.status.txt", status(rnd)
            if len(configs_done) != 3:  # one server and tier without its summary
                yield (
                    f"{prefix}.pt-mysql-summary.txt",
                    pt_summary(run.family, run.version, run.tier),
                )
        r = random.Random(seed * 100_000 + run.seed)
        lead = {t: r.randint(0, 25) for t in ("dstat", "mpstat", "iostat", "vmstat")}
        if i not in no_run:
            text, truth = sysbench(run, size.seconds, r)
            yield run.member("sysbench"), text
            yield truth
        for tool, lead_s in lead.items():
            if (i, tool) in gone:
                continue
            samples = size.seconds + lead_s + 5
            start = clock - timedelta(seconds=lead_s)
            text = {
                "dstat": lambda: dstat(start, samples, r),
                "mpstat": lambda: mpstat(start, samples, r),
                "iostat": lambda: iostat(start, samples, r),
                "vmstat": lambda: vmstat(samples, r),
            }[tool]()
            yield run.member(tool), "" if (i, tool) in empty else text
        clock += timedelta(seconds=size.seconds + 60)


def write(path: Path, size: str = "small", seed: int = 2026, top: str = "sysbench-versions-2026"):
    """Write the .tar.gz at `path` member by member and `<path>.truth.json` beside it (a list of
    the runs' truth dicts); returns (path, truth path, uncompressed bytes)."""
    truths, total = [], 0
    with tarfile.open(path, "w:gz", compresslevel=6) as tf:
        for item in members(SIZES[size], seed):
            if isinstance(item, dict):
                truths.append(item)
                continue
            name, text = item
            raw = text.encode()
            info = tarfile.TarInfo(f"{top}/{name}")
            info.size, info.mtime = len(raw), MTIME
            tf.addfile(info, io.BytesIO(raw))
            total += len(raw)
    truth = path.with_name(path.name + ".truth.json")
    truth.write_text(json.dumps(truths, indent=0))
    return path, truth, total


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("path", type=Path)
    p.add_argument("--size", choices=SIZES, default="small")
    p.add_argument("--seed", type=int, default=2026)
    a = p.parse_args(argv)
    path, truth, total = write(a.path, a.size, a.seed)
    runs_ = len(json.loads(truth.read_text()))
    print(f"{path}: {runs_} runs, {total / 1e6:.0f} MB of text, {path.stat().st_size / 1e6:.0f} MB")


if __name__ == "__main__":
    main()
