"""Archive bombs against `ingest.archive.Archive`: compressed size, peak memory, time, result.

    .venv/bin/python bench/archive_bombs.py [--repo DIR] [--scale N]

Each bomb is generated (streamed through gzip, never held in memory) into a temporary
directory and opened by `Archive` in a fresh subprocess run from `--repo` (default: this
checkout; pass an older worktree to measure the code before a change). The peak resident
memory of that subprocess is its own high-water mark, `VmHWM` in /proc/self/status (not
`getrusage`'s ru_maxrss: Linux carries the parent's peak over fork and exec into it, so a child
of a large process reports at least the parent's size), and the extra memory is the peak less
that of a subprocess that only imports the module. Results are recorded in docs/formats.md.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

BLOCK = 512


def _header(name: str, kind: bytes, size: int) -> bytes:
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


def _file(out, name: str, data: bytes):
    out.write(_header(name, tarfile.REGTYPE, len(data)))
    out.write(data + b"\0" * (-len(data) % BLOCK))


def pax_bomb(path: Path, size: int) -> Path:
    """One PAX extended header whose `comment` record is `size` bytes, then a small file."""
    body = len(" comment=\n") + size  # a record is "<length> comment=<value>\n"
    length = body + len(str(body))
    length = body + len(str(length))
    with gzip.open(path, "wb", compresslevel=9) as out:
        out.write(_header("././@PaxHeader", tarfile.XHDTYPE, length))
        _payload(out, length, start=f"{length} comment=".encode(), end=b"\n")
        _file(out, "r/a.log", b"x\n")
        out.write(b"\0" * BLOCK * 2)
    return path


def gnu_longname_bomb(path: Path, size: int) -> Path:
    """One GNU long-name header (`././@LongLink`, type L) with a `size`-byte name that climbs
    out (`../aaa...`, so a reader that rejects it may echo it), then a file."""
    with gzip.open(path, "wb", compresslevel=9) as out:
        out.write(_header("././@LongLink", tarfile.GNUTYPE_LONGNAME, size + 1))
        _payload(out, size + 1, start=b"../", end=b"\0")
        _file(out, "r/a.log", b"x\n")
        out.write(b"\0" * BLOCK * 2)
    return path


def directory_bomb(path: Path, count: int) -> Path:
    """`count` directory entries, then a file."""
    header = bytearray(_header("r/d0000000/", tarfile.DIRTYPE, 0))
    checksum = (
        sum(header[:148]) + 8 * 32 + sum(header[156:]) - 7 * ord("0")
    )  # the name's digits vary
    with gzip.open(path, "wb", compresslevel=9) as out:
        for i in range(count):  # one header patched in place: 1M headers in seconds
            digits = b"%07d" % i
            header[3:10] = digits
            header[148:156] = b"%06o\0 " % (checksum + sum(digits))
            out.write(header)
        _file(out, "r/a.log", b"x\n")
        out.write(b"\0" * BLOCK * 2)
    return path


def zip_entries_bomb(path: Path, count: int) -> Path:
    """A zip of `count` empty members (a central directory of ~`count` x 60 bytes)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as zf:
        for i in range(count):
            zf.writestr(f"r/f{i:07d}", b"")
    return path


BOMBS = {
    "pax-header": (pax_bomb, 600 << 20),
    "gnu-long-name": (gnu_longname_bomb, 600 << 20),
    "directory-entries": (directory_bomb, 1_000_000),
    "zip-entries": (zip_entries_bomb, 300_000),
}

PROBE = """
import sys, time, json
t = time.monotonic()
from ingest.archive import Archive
result = "imported"
if len(sys.argv) > 1:
    try:
        Archive(sys.argv[1])
        result = "accepted"
    except Exception as e:
        msg = str(e)
        result = f"rejected ({type(e).__name__}, message {len(msg)} chars): {msg[:160]}"
hwm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:"))
print(json.dumps({"rss_mb": hwm / 1024,
                  "s": round(time.monotonic() - t, 2), "result": result}))
"""


def probe(repo: Path, *args: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        cwd=repo,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(repo)},
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
    ap.add_argument("--repo", type=Path, default=Path(__file__).resolve().parent.parent)
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every bomb's size")
    ap.add_argument("--only", nargs="*", choices=sorted(BOMBS), help="these bombs only")
    args = ap.parse_args()
    base = probe(args.repo)["rss_mb"]
    print(f"repo {args.repo}: import alone {base:.0f} MB")
    with tempfile.TemporaryDirectory() as tmp:
        for name, (make, size) in BOMBS.items():
            if args.only and name not in args.only:
                continue
            path = make(
                Path(tmp) / f"{name}.{'zip' if 'zip' in name else 'tar.gz'}", int(size * args.scale)
            )
            r = probe(args.repo, str(path))
            extra = f"{r['rss_mb'] - base:.0f} MB extra" if r["rss_mb"] else "?"
            print(
                f"{name}: {path.stat().st_size / 1024:.0f} KB compressed, peak {r['rss_mb'] and round(r['rss_mb'])} MB "
                f"({extra}), {r['s']} s: {r['result']}"
            )
            path.unlink()


if __name__ == "__main__":
    main()
