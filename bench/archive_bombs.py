"""Archive bombs against `ingest.read.archive.Archive`: compressed size, peak memory, time, result.

    .venv/bin/python -m bench.archive_bombs [--repo DIR] [--scale N] [--only BOMB...] [--limit-mb N]
    .venv/bin/python -m bench.archive_bombs --smoke   # every bomb at 1/1000 of its size

Each bomb is generated (streamed through gzip, never held in memory) into a temporary
directory and opened by `Archive` in a fresh subprocess run from `--repo` (default: this
checkout; pass an older worktree to measure the code before a change). The peak resident
memory of that subprocess is its own high-water mark, `VmHWM` in /proc/self/status (not
`getrusage`'s ru_maxrss: Linux carries the parent's peak over fork and exec into it, so a child
of a large process reports at least the parent's size), and the extra memory is the peak less
that of a subprocess that only imports the module. `negative-pax-size` and
`interval-lines` (§10: 10 million sysbench interval lines, each member then parsed as the
ingest's rules do) were added with the hostile-input round; each probe's address space is capped
(`--limit-mb`, 8 GB) so the code before a fix fails with MemoryError, as it did in the issue,
instead of taking the machine's memory. Results are recorded in docs/formats.md.

The hang cases (`HANGS`) are hostile inputs that once ran for
minutes or took gigabytes: each is written to a temporary directory and run in a fresh
subprocess killed at `--timeout` seconds, reporting its seconds, peak memory and outcome.
`--smoke` runs every hang case at a small size and checks that each ends as it should (the
suite runs it: tests/ingest/read/test_hostile_bench.py); `--hangs` runs them at full size,
the figures of docs/performance.md, "Hostile inputs, round four".
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import json
import os
import resource
import subprocess
import sys
import tarfile
import tempfile
import time
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
    """A member whose PAX `size` is -1,099,511,627,776 (driving a byte counter
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
    """One sysbench 1.x log of `count` interval lines and its summary, in the
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


# -- hang cases --------------------------------------------------------------------------------
RUN = """
import contextlib, io, json, runpy, sys, time
t = time.monotonic()
kind, target, *args = sys.argv[1:]
out, err, code = io.StringIO(), io.StringIO(), 0
with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
    try:
        if kind == "module":
            sys.argv = [target, *args]
            runpy.run_module(target, run_name="__main__", alter_sys=True)
        else:
            exec(compile(target, "<case>", "exec"), {"ARGS": args})
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
        if isinstance(e.code, str):
            err.write(e.code)
    except BaseException as e:
        code, err = 3, io.StringIO(f"{type(e).__name__}: {e}")
said = (err.getvalue().strip().splitlines() or out.getvalue().strip().splitlines() or [""])[-1]
hwm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:"))
print(json.dumps({"rss_mb": round(hwm / 1024), "s": round(time.monotonic() - t, 2),
                  "exit": code, "said": said[:200]}))
"""


def run_case(repo: Path, argv: list[str], timeout: float, limit_mb: int) -> dict:
    """One hang case in a fresh subprocess from `repo`, killed at `timeout` seconds."""

    def cap():
        if limit_mb:
            resource.setrlimit(resource.RLIMIT_AS, (limit_mb << 20, limit_mb << 20))

    try:
        out = subprocess.run(
            [sys.executable, "-c", RUN, *argv],
            cwd=repo,
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(repo)},
            preexec_fn=cap,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return {"rss_mb": None, "s": timeout, "exit": None, "said": f"killed at {timeout:g} s"}
    if out.returncode:
        tail = (out.stderr.strip().splitlines() or ["?"])[-1]
        return {"rss_mb": None, "s": None, "exit": out.returncode, "said": f"crashed: {tail[:160]}"}
    return json.loads(out.stdout.strip().splitlines()[-1])


def _tar(path: Path, members: dict[str, bytes]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(path, "w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def explains(runs: list[tuple[str, int]], plan_rows: int = 1) -> bytes:
    """An all_explains.txt of the DBT3 kit: one block per (query, run), a plan of `plan_rows`."""
    border = "+----+-------------+\n"
    box = border + "| id | select_type |\n" + border + "|  1 | SIMPLE      |\n" * plan_rows + border
    return "".join(
        f"===== {q}_explain.sql Run No: {k} =====\nSTARTUP_PARAMS: \n\n"
        f"--- Explain result ---\n{box}--- Time elapsed ---\n{7 + k}\n\n"
        for q, k in runs
    ).encode()


QUERY_MANIFEST = """\
study: hostile
title: Hostile inputs
inputs:
  - {{name: q.tar.gz, kind: archive, sha256: {sha}, origin: "https://example.org/q"}}
labels: [server, engine]
queries:
  - regex: '(?P<server>[a-z0-9-]+)/all_explains\\.txt'
    format: dbt3-explains
{extra}"""


def query_study(tmp: Path, members: dict[str, bytes], extra: str = "") -> list[str]:
    """A query study of `members` (archive q.tar.gz, or a FIFO / link put there after): the
    ingest's command line. A README beside the folders keeps them folders (an archive of one
    top folder is read from inside it)."""
    arc = _tar(tmp / "archives" / "q.tar.gz", {"README": b"hostile inputs\n", **members})
    man = tmp / "content" / "hostile" / "manifest.yaml"
    man.parent.mkdir(parents=True)
    sha = hashlib.sha256(arc.read_bytes()).hexdigest()
    man.write_text(QUERY_MANIFEST.format(sha=sha, extra=extra))
    where = ["--content", tmp / "content", "--archives", tmp / "archives", "--data", tmp / "data"]
    return ["module", "ingest", "hostile", *map(str, where), "--studies", str(tmp / "studies")]


def case_label_regex(tmp: Path, n: int) -> list[str]:
    """A `label_files:` regex that backtracks, over a description of n a's."""
    members = {
        "DESC": f"runs\n\nx-1: {'a' * n}\n".encode(),
        "x-1/all_explains.txt": explains([("3", 1)]),
    }
    extra = "label_files:\n  - {file: DESC, display: server, regex: '(?P<engine>(a|aa)+b)'}\n"
    return query_study(tmp, members, extra)


def case_label_repeat(tmp: Path, n: int) -> list[str]:
    """A `label_files:` regex of a huge counted repeat (`a{n}`)."""
    members = {"DESC": b"runs\n\nx-1: a\n", "x-1/all_explains.txt": explains([("3", 1)])}
    extra = f"label_files:\n  - {{file: DESC, display: server, regex: 'a{{{n}}}'}}\n"
    return query_study(tmp, members, extra)


def case_desc_spaces(tmp: Path, n: int) -> list[str]:
    """A DESC line with a run of n spaces inside its description."""
    path = tmp / "DESC"
    path.write_text(f"a-1: one{' ' * n}two\n")
    code = "from ingest.parse.member import parse_bytes\nparse_bytes(open(ARGS[0], 'rb').read(), 'DESC', 'folder-desc')"
    return ["code", code, str(path)]


def case_plan_rows(tmp: Path, n: int) -> list[str]:
    """One query run whose EXPLAIN plan has n rows."""
    return query_study(tmp, {"x-1/all_explains.txt": explains([("3", 1)], plan_rows=n)})


def case_special_input(kind: str):
    def make(tmp: Path, _n: int) -> list[str]:
        argv = query_study(tmp, {"x-1/all_explains.txt": explains([("3", 1)])})
        arc = tmp / "archives" / "q.tar.gz"
        arc.unlink()
        os.mkfifo(arc) if kind == "fifo" else arc.symlink_to("/dev/zero")
        return argv

    make.__doc__ = f"The archive input is a {'FIFO' if kind == 'fifo' else 'symlink to /dev/zero'}."
    return make


def case_file_tables(tmp: Path, n: int) -> list[str]:
    """n summary tables, each name ~1 ms against a `file_tables:` pattern that backtracks."""
    text = "".join(f"{'a' * 18}{i:05d}\nips engine\n{i} x\n\n" for i in range(n))
    arc = _tar(tmp / "archives" / "t.tar.gz", {"bench.txt": text.encode()})
    man = tmp / "content" / "hostile" / "manifest.yaml"
    man.parent.mkdir(parents=True)
    man.write_text(
        "study: hostile\ntitle: Tables\ninputs:\n"
        f"  - {{name: t.tar.gz, kind: archive, sha256: {hashlib.sha256(arc.read_bytes()).hexdigest()}, "
        'origin: "https://example.org/t"}\n'
        "files:\n  - {glob: bench.txt, format: summary-table}\n"
        "file_tables:\n  - {id: t, file: bench.txt, table: '(a|aa)+b(?P<n>[0-9]+)'}\n"
    )
    where = ["--content", tmp / "content", "--archives", tmp / "archives", "--data", tmp / "data"]
    return ["module", "ingest", "hostile", *map(str, where), "--studies", str(tmp / "studies")]


def case_markdown(kind: str):
    def make(tmp: Path, n: int) -> list[str]:
        path = tmp / "p" / "index.md"
        path.parent.mkdir()
        if kind == "nested-front":
            path.write_text("---\ntitle: x\nnames: " + "[" * n + "]" * n + "\n---\nText.\n")
            code = (
                "from pathlib import Path\nfrom publish import post_source\n"
                "unreadable = getattr(post_source, 'Unreadable', ())  # none before the fix\n"
                "try:\n    post_source.read(Path(ARGS[0]), [])\n"
                "except unreadable as e:\n    raise SystemExit(str(e))"
            )
        else:
            body = {
                "shortcodes": "{{< " * n,
                "brackets": ("[" * 10_000 + "\n") * max(1, n // 10_000),
            }[kind]
            path.write_text(f"---\ntitle: x\nsummary: y\n---\n{body}")
            code = "from pathlib import Path\nfrom publish import post_source, prose\nprose.typed_numbers(post_source.read(Path(ARGS[0]), []))"
        return ["code", code, str(path)]

    make.__doc__ = {
        "nested-front": "A post's front matter of n nested lists.",
        "shortcodes": "A post's body of n unclosed `{{<`.",
        "brackets": "A post's body of n `[` (10,000 a line).",
    }[kind]
    return make


def case_layout(tmp: Path, n: int) -> list[str]:
    """A DESC layout of n placeholders side by side, against a name it misses at its end."""
    layout = "".join(f"<p{i}>" for i in range(n)) + "-end.log"
    code = "from ingest.scaffold.names import from_layout\nprint(from_layout(ARGS[0], [ARGS[1]]))"
    return ["code", code, layout, "x" * (2 * n + 5) + "-enX.log"]


def case_scaffold_sar(tmp: Path, n: int) -> list[str]:
    """`ingest new` on a DBT3 archive of n queries (one run each) and 3n sar reports, named so
    that no template names the reports of half the runs: each is tried for every report."""
    runs = [(str(q), 1) for q in range(1, n + 1)]
    sar = (
        b"Linux 5.10.0 (db) \t03/04/2025 \t_x86_64_\t(4 CPU)\n\n"
        b"10:00:00 CPU %user %iowait\n10:00:05 all 20.00 1.00\n"
    )
    members = {"x-1/all_explains.txt": explains(runs)}
    for q, _k in runs:  # a third name a run (too few for a template), the others run 2
        for kind in ("u", "r", "b"):
            members[f"x-1/{q}.sql_no_{1 if int(q) % 3 == 0 else 2}_sar_{kind}.txt"] = sar
    arc = _tar(tmp / "q.tar.gz", members)
    return ["module", "ingest", "new", "hostile", str(arc), "--content", str(tmp / "posts")]


# name -> (make(tmp, n) -> argv, n at full size, n for --smoke, what --smoke expects it to say)
HANGS = {
    "desc-spaces": (case_desc_spaces, 60_000, 2_000, "exit 0"),
    "label-files-backtracking": (case_label_regex, 40, 30, "too slow"),
    "label-files-a{1000000000}": (
        case_label_repeat,
        1_000_000_000,
        1_000_000_000,
        "regex too large",
    ),
    "file-tables-total": (case_file_tables, 4_000, 4_000, "patterns too slow"),
    "fifo-input": (case_special_input("fifo"), 0, 0, "not a regular file"),
    "dev-zero-input": (case_special_input("dev-zero"), 0, 0, "not a regular file"),
    "plan-rows": (case_plan_rows, 300_000, 2_000, "a plan of more than 1,000 rows"),
    "markdown-front-nesting": (case_markdown("nested-front"), 2_000, 2_000, "nests more than"),
    "markdown-shortcodes": (case_markdown("shortcodes"), 40_000, 40_000, "exit 0"),
    "markdown-brackets": (case_markdown("brackets"), 200_000, 10_000, "exit 0"),
    "scaffold-layout": (case_layout, 12, 12, "exit 0"),
    "scaffold-sar": (case_scaffold_sar, 1_000, 100, "exit 0"),
}


def run_hangs(repo: Path, only, smoke: bool, timeout: float, limit_mb: int) -> list[str]:
    """Run the hang cases; the lines to print, and (with `smoke`) each case's check."""
    failed = []
    for name, (make, full, small, expect) in HANGS.items():
        if only and name not in only:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            argv = make(Path(tmp), small if smoke else full)
            started = time.monotonic()
            r = run_case(repo, argv, timeout, limit_mb)
            wall = time.monotonic() - started
        said = f"exit {r['exit']}" + (f": {r['said']}" if r["said"] else "")
        print(
            f"{name} (n={small if smoke else full:,}): {r['s']} s ({wall:.1f} s wall), "
            f"peak {r['rss_mb']} MB, {said}"
        )
        ok = r["exit"] is not None and r["exit"] != 3 and expect in said
        if smoke and not ok:
            failed.append(f"{name}: expected {expect!r}, got {said}")
    return failed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repo", type=Path, default=Path(__file__).resolve().parents[1])
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every bomb's size")
    ap.add_argument("--only", nargs="*", choices=sorted(BOMBS), help="these bombs only")
    ap.add_argument(
        "--limit-mb", type=int, default=8192, help="address space of each probe (RLIMIT_AS)"
    )
    smoke.add_flag(ap)
    ap.add_argument("--hangs", action="store_true", help="the hang cases at full size")
    ap.add_argument("--hang", nargs="*", choices=sorted(HANGS), help="these hang cases only")
    ap.add_argument("--timeout", type=float, default=60.0, help="kill a hang case after (s)")
    args = ap.parse_args()
    if args.hangs or args.smoke:  # the smoke run: the hang cases small and checked, then the bombs
        failed = run_hangs(args.repo, args.hang, args.smoke, args.timeout, args.limit_mb)
        for line in failed:
            print(f"FAILED {line}", file=sys.stderr)
        if failed or args.hangs:
            raise SystemExit(1 if failed else 0)
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
