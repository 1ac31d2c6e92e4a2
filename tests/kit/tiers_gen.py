"""A study of many server versions as published today, written at test time in the real
formats (sysbench 1.0.20 at 1 s, `vmstat 1`, `iostat -x 1`), with numbers of our own:
`<os>/<family>/<version>/Tier<N>G_RW_<T>th.<tool>.txt`, where the OS folder (`ubu2204`), the
version with its build suffix (`8.0.36-custom`), the buffer-pool tier and the thread count
vary. Each monitor starts 0-25 s before sysbench's first report (drawn per run) and stops with
it; some runs lack a monitor, some monitors and one log are empty.

`tiers(root)` writes the archive (about 250 runs with the defaults) and returns
(archive path, origin URL); deterministic, like tests/kit/archive_gen.py.
"""

from __future__ import annotations

import random
from pathlib import Path

from tests.kit.archive_gen import iostat_text, sysbench1_log, tar_gz, vmstat_text

SERVERS = {  # (family, version): relative speed
    ("mysql", "8.0.36"): 1.0,
    ("mysql", "8.0.36-custom"): 1.04,
    ("mariadb", "10.11.6"): 0.93,
    ("percona", "8.0.36-28"): 0.98,
}
SYSTEMS = {"ubu2204": 1.0, "ubu2404": 1.02}
TIERS = (2, 12, 32)
THREADS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)
MTIME = 1767225600  # 2026-01-01 00:00 UTC


def tiers(root: Path, seconds: int = 40, threads=THREADS) -> tuple[Path, str]:
    rnd = random.Random(27)
    members: dict[str, str] = {}
    seed = 0
    for system, s in SYSTEMS.items():
        for (family, version), v in SERVERS.items():
            for tier in TIERS:
                for t in threads:
                    seed += 1
                    stem = f"{system}/{family}/{version}/Tier{tier}G_RW_{t}th"
                    rate = 30 * min(t, 64) ** 0.8 * s * v * (1 + tier / 40)
                    members[f"{stem}.sysbench.txt"] = sysbench1_log(
                        rate, seconds, threads=t, seed=seed
                    )
                    early = rnd.randint(0, 25)  # the monitors started this much before
                    members[f"{stem}.vmstat.txt"] = vmstat_text(seconds + early, seed=seed)
                    members[f"{stem}.iostat.txt"] = iostat_text(seconds + early, seed=seed)
    # what real archives hold too: a monitor missing, monitors empty, a log empty
    del members[f"ubu2204/mysql/8.0.36/Tier2G_RW_{threads[1]}th.iostat.txt"]
    members[f"ubu2404/mariadb/10.11.6/Tier12G_RW_{threads[0]}th.vmstat.txt"] = ""
    members[f"ubu2404/mariadb/10.11.6/Tier12G_RW_{threads[0]}th.iostat.txt"] = ""
    members[f"ubu2204/percona/8.0.36-28/Tier32G_RW_{threads[-1]}th.sysbench.txt"] = ""
    path = tar_gz(root / "tiers-2026.tar.gz", members, top="tiers-2026", mtime=MTIME)
    return path, "https://example.org/results/tiers-2026"
