"""Archive bombs against `ingest.read.archive.Archive`: compressed size, peak memory, time, result.

    .venv/bin/python -m bench.archive_bombs [--repo DIR] [--scale N] [--only BOMB...] [--limit-mb N]
    .venv/bin/python -m bench.archive_bombs --smoke   # every bomb at 1/1000 of its size

Each bomb is generated (streamed through gzip, never held in memory) into a temporary
directory and opened by `Archive` in a fresh subprocess run from `--repo` (default: this
checkout; pass an older worktree to measure the code before a change). The peak resident
memory of that subprocess is its own high-water mark, `VmHWM` in /proc/self/status (not
`getrusage`'s ru_maxrss: Linux carries the parent's peak over fork and exec into it, so a child
of a large process reports at least the parent's size), and the extra memory is the peak less
that of a subprocess that only imports the module. `negative-pax-size` (issue 21 §3) and
`interval-lines` (§10: 10 million sysbench interval lines, each member then parsed as the
ingest's rules do) were added for issue 21; each probe's address space is capped
(`--limit-mb`, 8 GB) so the code before a fix fails with MemoryError, as it did in the issue,
instead of taking the machine's memory. Results are recorded in docs/formats.md.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

from bench import smoke

BLOCK = 512


def tar_header(name: str, kind: bytes, size: int) -> bytes:
    """One tar header block of `kind` for `name` (shared with the tests' hand-made archives)."""
    info = tarfile.TarInfo(name)
    info.type, info.size = kind, size
    return info.tobuf(tarfile.USTAR_FORMAT if kind == tarfile.DIRTYPE else tarfile.GNU_FORMAT)


def _payload(out, size: int, byte: bytes = b"a", end: bytes = b"", start: bytes = b""):
    """`size` bytes (`start`, then `byte`s, then `end`), padded to a whole block, written in 1 MiB pieces."""
    out.write(start)
    body = size - len(end) - len(start)
    chunk = byte * (1 << 20)
    while body > 0:
        n = min(body, len(chunk))
        out.write(chunk[:n])
        body -= n
    out.write(end)
    out.write(b"\0" * (-size % BLOCK))


def tar_file(out, name: str, data: bytes):
    """A regular member `name` holding `data`, padded to a whole block."""
    out.write(tar_header(name, tarfile.REGTYPE, len(data)))
    out.write(data + b"\0" * (-len(data) % BLOCK))


def pax_bomb(path: Path, size: int) -> Path:
    """One PAX extended header whose `comment` record is `size` bytes, then a small file."""
    body = len(" comment=\n") + size  # a record is "<length> comment=<value>\n"
    length = body + len(str(body))
    length = body + len(str(length))
    with gzip.open(path, "wb", compresslevel=9) as out:
        out.write(tar_header("././@PaxHeader", tarfile.XHDTYPE, length))
        _payload(out, length, start=f"{length} comment=".encode(), end=b"\n")
        tar_file(out, "r/a.log", b"x\n")
        out.write(b"\0" * BLOCK * 2)
    return path


def gnu_longname_bomb(path: Path, size: int) -> Path:
    """One GNU long-name header (`././@LongLink`, type L) with a `size`-byte name that climbs
    out (`../aaa...`, so a reader that rejects it may echo it), then a file."""
    with gzip.open(path, "wb", compresslevel=9) as out:
        out.write(tar_header("././@LongLink", tarfile.GNUTYPE_LONGNAME, size + 1))
        _payload(out, size + 1, start=b"../", end=b"\0")
        tar_file(out, "r/a.log", b"x\n")
        out.write(b"\0" * BLOCK * 2)
    return path


def directory_bomb(path: Path, count: int) -> Path:
    """`count` directory entries, then a file."""
    header = bytearray(tar_header("r/d0000000/", tarfile.DIRTYPE, 0))
    checksum = (
        sum(header[:148]) + 8 * 32 + sum(header[156:]) - 7 * ord("0")
    )  # the name's digits vary
    with gzip.open(path, "wb", compresslevel=9) as out:
        for i in range(count):  # one header patched in place: 1M headers in seconds
            digits = b"%07d" % i
            header[3:10] = digits
            header[148:156] = b"%06o\0 " % (checksum + sum(digits))
            out.write(header)
        tar_file(out, "r/a.log", b"x\n")
        out.write(b"\0" * BLOCK * 2)
    return path


def zip_entries_bomb(path: Path, count: int) -> Path:
    """A zip of `count` empty members (a central directory of ~`count` x 60 bytes)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as zf:
        for i in range(count):
            zf.writestr(f"r/f{i:07d}", b"")
    return path


def pax_header(records: dict[str, str]) -> bytes:
    """A PAX extended header with `records` written as given (any sign, any digits), padded."""
    body = b""
    for key, value in records.items():
        record = f" {key}={value}\n".encode()
        length = len(record) + len(str(len(record)))
        length = len(record) + len(str(length))
        body += str(length).encode() + record
    return (
        tar_header("././@PaxHeader", tarfile.XHDTYPE, len(body))
        + body
        + b"\0" * (-len(body) % BLOCK)
    )


def link(name: str, target: str) -> bytes:
    """A hard-link header (`name` -> `target`, no data)."""
    info = tarfile.TarInfo(name)
    info.type, info.linkname = tarfile.LNKTYPE, target
    return info.tobuf(tarfile.GNU_FORMAT)


def negative_pax_size_bomb(path: Path, size: int) -> Path:
    """Issue 21 §3: a member whose PAX `size` is -1,099,511,627,776 (driving a byte counter
    that trusts it far below zero), then an 8 MiB member of zeros and hard links to it until
    the members hold `size` bytes."""
    member = 8 << 20
    with gzip.open(path, "wb", compresslevel=9) as out:
        out.write(pax_header({"size": "-1099511627776"}))
        out.write(tar_header("r/a.log", tarfile.REGTYPE, 0))
        out.write(tar_header("r/big", tarfile.REGTYPE, member))
        _payload(out, member, b"\0")
        for i in range(size // member):
            out.write(link(f"r/l{i:05d}", "r/big"))
        out.write(b"\0" * BLOCK * 2)
    return path


INTERVAL = (
    "[ %ds ] thds: 8 tps: 1000.00 qps: 20000.00 (r/w/o: 14000.00/4000.00/2000.00) "
    "lat (ms,95%%): 8.00 err/s 0.00 reconn/s: 0.00\n"
)


def interval_lines_bomb(path: Path, count: int) -> Path:
    """Issue 21 §10: one sysbench 1.x log of `count` interval lines and its summary, in the
    real format, streamed through gzip (~125 bytes a line: 1.2 GB for 10 million)."""
    head = (
        b"sysbench 1.0.20\n\nNumber of threads: 8\n"
        b"Report intermediate results every 1 second(s)\n\nThreads started!\n\n"
    )
    fixed = len(INTERVAL % 0) - 1  # a line less its number's digits
    digits = sum(
        d * (min(count, 10**d - 1) - 10 ** (d - 1) + 1) for d in range(1, len(str(count)) + 1)
    )
    size = len(head) + count * fixed + digits + len(SUMMARY.encode())
    with gzip.open(path, "wb", compresslevel=6) as out:
        out.write(tar_header("r/big.log", tarfile.REGTYPE, size))
        out.write(head)
        for start in range(1, count + 1, 100_000):
            block = range(start, min(count, start + 99_999) + 1)
            out.write("".join(INTERVAL % i for i in block).encode())
        out.write(SUMMARY.encode())
        out.write(b"\0" * (-size % BLOCK) + b"\0" * BLOCK * 2)
    return path


SUMMARY = """SQL statistics:
    queries performed:
        read:                            14000
        write:                           4000
        other:                           2000
        total:                           20000
    transactions:                        1000    (1000.00 per sec.)
    queries:                             20000  (20000.00 per sec.)
    ignored errors:                      0      (0.00 per sec.)
    reconnects:                          0      (0.00 per sec.)

General statistics:
    total time:                          1.0010s
    total number of events:              1000

Latency (ms):
         min:                                    1.50
         avg:                                    8.00
         max:                                   30.77
         95th percentile:                        8.00
         sum:                                 8000.00

Threads fairness:
    events (avg/stddev):           125.0000/1.12
    execution time (avg/stddev):   1.0005/0.00
"""

BOMBS = {  # name -> (generator, size, read the members as the ingest does)
    "pax-header": (pax_bomb, 600 << 20, False),
    "gnu-long-name": (gnu_longname_bomb, 600 << 20, False),
    "directory-entries": (directory_bomb, 1_000_000, False),
    "zip-entries": (zip_entries_bomb, 300_000, False),
    "negative-pax-size": (negative_pax_size_bomb, 2600 << 20, False),
    "interval-lines": (interval_lines_bomb, 10_000_000, True),
}

PROBE = """
import sys, time, json
t = time.monotonic()
try:
    from ingest.read.archive import Archive
    from ingest.parse.member import parse_bytes
except ImportError:  # a checkout from before the ingest's packages
    from ingest.archive import Archive
    from ingest.read import parse_bytes
result = "imported"
if len(sys.argv) > 1:
    try:
        arc = Archive(sys.argv[1])
        result = f"accepted: {len(arc.names())} members"
        if sys.argv[2:] == ["parse"]:  # each member parsed, as the ingest's rules do
            for name in arc.names():
                parsed = parse_bytes(arc.read(name), name)
                result += f", {name}: {sum(s.intervals for s in parsed.sessions)} intervals"
    except BaseException as e:
        msg = str(e)
        result = f"rejected ({type(e).__name__}, message {len(msg)} chars): {msg[:160]}"
hwm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:"))
print(json.dumps({"rss_mb": hwm / 1024,
                  "s": round(time.monotonic() - t, 2), "result": result}))
"""


def probe(repo: Path, *args: str, limit_mb: int = 0) -> dict:
    """Run PROBE from `repo`; `limit_mb`: its address space capped (RLIMIT_AS), so a probe
    that would take all the machine's memory ends in MemoryError instead."""

    def cap():
        if limit_mb:
            resource.setrlimit(resource.RLIMIT_AS, (limit_mb << 20, limit_mb << 20))

    out = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        cwd=repo,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(repo)},
        preexec_fn=cap,
    )
    if out.returncode:
        return {
            "rss_mb": None,
            "s": None,
            "result": f"crashed: {out.stderr.strip().splitlines()[-1][:160]}",
        }
    return json.loads(out.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repo", type=Path, default=Path(__file__).resolve().parents[1])
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every bomb's size")
    ap.add_argument("--only", nargs="*", choices=sorted(BOMBS), help="these bombs only")
    ap.add_argument(
        "--limit-mb", type=int, default=8192, help="address space of each probe (RLIMIT_AS)"
    )
    smoke.add_flag(ap)
    args = ap.parse_args()
    if args.smoke:
        args.scale = 0.001
    base = probe(args.repo)["rss_mb"]
    if base is None:
        raise SystemExit(f"repo {args.repo}: the probe does not import: {probe(args.repo)}")
    crashed = []
    print(f"repo {args.repo}: import alone {base:.0f} MB")
    with tempfile.TemporaryDirectory() as tmp:
        for name, (make, size, parse) in BOMBS.items():
            if args.only and name not in args.only:
                continue
            path = make(
                Path(tmp) / f"{name}.{'zip' if 'zip' in name else 'tar.gz'}", int(size * args.scale)
            )
            r = probe(args.repo, str(path), *(["parse"] if parse else []), limit_mb=args.limit_mb)
            extra = f"{r['rss_mb'] - base:.0f} MB extra" if r["rss_mb"] else "?"
            print(
                f"{name}: {path.stat().st_size / 1024:.0f} KB compressed, peak {r['rss_mb'] and round(r['rss_mb'])} MB "
                f"({extra}), {r['s']} s: {r['result']}"
            )
            path.unlink()
            if r["result"].startswith("crashed"):
                crashed.append(name)
    if crashed:  # the probe itself broke (not a bomb's verdict): the figures are void
        raise SystemExit(f"probe crashed on {', '.join(crashed)}")


if __name__ == "__main__":
    main()
