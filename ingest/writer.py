"""Deterministic YAML and atomic study writes.

`dump(obj)` emits a small YAML subset by hand (dicts, lists, str, int, float, bool, None):
keys in the order given (callers build dicts in a fixed order), lists of scalars in flow
style (`t: [1, 2, 3]`, columnar series), dicts of scalars inside lists in flow style (table
rows), floats by `repr` (shortest round-trip) with a forced `.` so every YAML 1.1 reader
sees a float, NaN/inf as null, strings plain only when unambiguous, otherwise double-quoted.
No anchors, no aliases, no tags, `\\n` line ends.

`write_study(root, study, files)` replaces `root/<study>/` with `files` ({relpath: bytes}) as a
whole: the new tree is built in `root/.<study>.tmp-*` (unchanged files hard-linked, so their
mtime stays; new ones written), made durable with one syncfs(2) of its file system, then
switched in with ONE atomic step (the parent directory fsynced after it), and the old tree
removed. After a signal at any moment the study is entirely old or entirely new.
Details (the lock, the switch, its fallback, leftovers): docs/manifest.md "Writing data/".
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import math
import os
import re
import shutil
import signal
import sys
import tempfile
from pathlib import Path

from .problems import Problem

PLAIN = re.compile(r"^[A-Za-z_/][A-Za-z0-9_ ./()%+\-]*$")
# characters YAML allows unescaped in a double-quoted scalar (no controls, no BOM, no C1)
PRINTABLE = re.compile("[\x20-\x7e\xa0-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]*")
RESERVED = {"y", "n", "yes", "no", "on", "off", "true", "false", "null", "nan", "inf"}


def _str(s: str) -> str:
    if (
        PLAIN.match(s)
        and not s.endswith(" ")
        and s.lower() not in RESERVED
        and ": " not in s
        and " #" not in s
    ):
        return s
    if PRINTABLE.fullmatch(s):
        return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif (
            0x20 <= o <= 0x7E
            or (0xA0 <= o <= 0xD7FF)
            or (0xE000 <= o <= 0xFFFD and o != 0xFEFF)
            or o >= 0x10000
        ):
            out.append(ch)
        elif o <= 0xFF:
            out.append(f"\\x{o:02x}")
        else:
            out.append(f"\\u{o:04x}")
    out.append('"')
    return "".join(out)


def _float(x: float) -> str:
    if not math.isfinite(x):
        return "null"
    s = repr(x)
    if "e" in s:
        mant, exp = s.split("e")
        if "." not in mant:
            mant += ".0"
        sign = exp[0] if exp[0] in "+-" else "+"
        s = f"{mant}e{sign}{exp.lstrip('+-')}"
    return s


def scalar(v) -> str:
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return _float(v)
    if isinstance(v, str):
        return _str(v)
    raise TypeError(f"cannot write {type(v).__name__} to YAML")


def _is_scalar(v) -> bool:
    return v is None or isinstance(v, (str, int, float, bool))


def _numbers(v: list) -> str | None:
    """Fast path for a list of plain floats or of ints (series columns): Python's own list
    repr, `[1.5, 2.0]`, is the flow sequence; None if not such a list."""
    types = set(map(type, v))
    if types == {float}:
        text = list.__repr__(v)
        return None if ("e" in text or "n" in text) else text  # exponents, nan, inf: slow path
    if types == {int}:
        return list.__repr__(v)
    return None


def _flow(v) -> str:
    if isinstance(v, list) and v and (fast := _numbers(v)) is not None:
        return fast
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_str(str(k))}: {_flow(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(_flow(x) for x in v) + "]"
    return scalar(v)


def _flowable(v) -> bool:
    if isinstance(v, list):
        types = set(map(type, v))
        return types <= {int, float, type(None), bool} or all(
            _is_scalar(x) and not (isinstance(x, str) and len(x) > 60) for x in v
        )
    if isinstance(v, dict):
        return all(
            _is_scalar(x) or (isinstance(x, list) and all(_is_scalar(y) for y in x))
            for x in v.values()
        )
    return True


def _block(v, indent: int, out: list[str]):
    pad = " " * indent
    if isinstance(v, dict):
        for k, x in v.items():
            key = _str(str(k))
            if isinstance(x, list) and x and (fast := _numbers(x)) is not None:  # a series column
                out.append(f"{pad}{key}: {fast}")
            elif (
                _is_scalar(x)
                or (isinstance(x, list) and _flowable(x))
                or (isinstance(x, dict) and not x)
            ):
                out.append(f"{pad}{key}: {_flow(x)}")
            else:
                out.append(f"{pad}{key}:")
                _block(x, indent + 2, out)
    elif isinstance(v, list):
        for x in v:
            if isinstance(x, dict) and x and not _flowable(x):
                sub: list[str] = []
                _block(x, indent + 2, sub)
                out.append(f"{pad}- {sub[0].lstrip()}")
                out.extend(sub[1:])
            else:
                out.append(f"{pad}- {_flow(x)}")
    else:
        out.append(pad + scalar(v))


def dump(obj) -> str:
    """YAML text of `obj` (a dict at the top)."""
    out: list[str] = []
    _block(obj, 0, out)
    return "\n".join(out) + "\n"


# -- writing data/<study>/ -------------------------------------------------------------------
LOCK = ".ingest.lock"
LEFTOVER = re.compile(r"^\.(?P<study>.+)\.(?P<kind>tmp|old)-[A-Za-z0-9_]+$")
NAME_MAX = 255  # bytes in one file name (Linux file systems)
AT_FDCWD, RENAME_EXCHANGE = -100, 2
SIGNALS = {signal.SIGINT, signal.SIGTERM}

# What the command line reports after an interrupt: the study being written and whether it
# has been switched in yet (set with SIGINT/SIGTERM blocked, so the report is always true).
status = {"target": None, "switched": False}
_held: dict[str, int] = {}  # data dir (real path) -> fd of its lock, held by this process
_steps = 0  # fault-injection step counter (INGEST_FAULT)


def _fault(step: str):
    """Fault injection for the tests (docs/manifest.md): INGEST_FAULT=trace lists the steps on
    stderr; INGEST_FAULT=N:ACTION acts at the Nth step: SIGINT, SIGTERM, SIGKILL (signal this
    process), sleep (5 s, holding the lock) or an errno name such as ENOSPC (raise that OSError)."""
    spec = os.environ.get("INGEST_FAULT")
    if not spec:
        return
    global _steps
    _steps += 1
    if spec == "trace":
        print(f"fault-step {_steps} {step}", file=sys.stderr, flush=True)
        return
    n, _, action = spec.partition(":")
    if int(n) != _steps:
        return
    if action.startswith("SIG"):
        os.kill(os.getpid(), getattr(signal, action))
    elif action == "sleep":
        import time

        time.sleep(5)
    else:
        code = getattr(errno, action)
        raise OSError(code, os.strerror(code))


def _io_problem(path, e: OSError) -> Problem:
    return Problem(path, None, f"cannot write ({e.strerror or e})")


@contextlib.contextmanager
def locked(root: str | os.PathLike):
    """Hold `root/.ingest.lock` (flock) for the block; re-entrant within one process. A second
    ingest on the same data directory fails at once (Problem). Under the lock, what a killed
    run left behind is cleaned up first (`recover`)."""
    root = Path(root)
    key = os.path.realpath(root)
    if key in _held:
        yield
        return
    path = root / LOCK
    if os.path.lexists(root) and not root.is_dir():
        raise Problem(root, None, "cannot write (not a directory)")
    try:
        root.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
    except OSError as e:
        raise _io_problem(path, e) from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = os.pread(fd, 20, 0).decode("ascii", "replace").strip() or "?"
            raise Problem(
                path,
                None,
                f"another ingest (pid {pid}) is writing to {root}; try again when it has finished",
            ) from None
        with contextlib.suppress(OSError):  # the holder's pid, for the message above
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        _held[key] = fd
        try:
            try:
                _fault("locked")
                recover(root)
            except OSError as e:
                raise _io_problem(root, e) from None
            yield
        finally:
            del _held[key]
    finally:
        os.close(fd)  # releases the lock


def recover(root: Path):
    """Clean up after a killed run (call under the lock): a `.<study>.old-*` whose study is
    missing (the fallback switch was cut between its two renames) is renamed back, so the study
    is entirely old; every other `.<study>.tmp-*` / `.<study>.old-*` is removed."""
    try:
        entries = sorted(root.iterdir())
    except OSError as e:
        raise _io_problem(root, e) from None
    for p in entries:
        m = LEFTOVER.match(p.name)
        if not m:
            continue
        target = root / m["study"]
        try:
            if m["kind"] == "old" and not os.path.lexists(target):
                os.rename(p, target)
                _fsync_dir(root)
            else:
                _remove(p)
        except OSError as e:
            raise _io_problem(p, e) from None
    _fault("recovered")


def write_study(
    root: str | os.PathLike, study: str, files: dict[str, bytes]
) -> dict[str, list[str]]:
    """Make `root/study/` hold exactly `files`; returns {"written": [...], "removed": [...]}.
    Nothing changed: nothing is touched. Otherwise the whole new tree replaces the old in one
    atomic step. An OSError (read-only, disk full) is a Problem and leaves the old tree."""
    root = Path(root)
    target = root / study
    status.update(target=str(target), switched=False)
    with locked(root):
        current = _files_in(target)
        changed = sorted(n for n, b in files.items() if n not in current or _differs(target / n, b))
        removed = sorted(current - set(files))
        if not changed and not removed:
            return {"written": [], "removed": []}
        for n in files:
            _check_name(target, n)
        _check_name(root, f".{study}.tmp-xxxxxxxx")
        try:
            old = _build_and_switch(root, study, target, files, set(changed))
            _fault("switched")
            if old is not None:
                _remove(old, quiet=True)  # a failure here: removed by the next run
            _fault("old-removed")
        except OSError as e:
            where = "the new data is in place" if status["switched"] else "left unchanged"
            raise Problem(target, None, f"cannot write ({e.strerror or e}); {where}") from None
    return {"written": changed, "removed": removed}


def _files_in(target: Path) -> set[str]:
    if not target.is_dir():
        return set()
    return {p.relative_to(target).as_posix() for p in target.rglob("*") if p.is_file()}


def _differs(path: Path, data: bytes) -> bool:
    try:
        return path.stat().st_size != len(data) or path.read_bytes() != data
    except OSError:
        return True


def _check_name(base: Path, relpath: str):
    for part in relpath.split("/"):
        if len(os.fsencode(part)) > NAME_MAX:
            raise Problem(base / relpath, None, f"file name longer than {NAME_MAX} bytes")


def _build_and_switch(
    root: Path, study: str, target: Path, files: dict, changed: set
) -> Path | None:
    """Write the new tree beside `target`, switch it in; return the path holding the old tree."""
    tmp = Path(tempfile.mkdtemp(prefix=f".{study}.tmp-", dir=root))
    try:
        _fault("tmpdir")
        os.chmod(tmp, _dir_mode(target))
        for n in sorted(files):
            p = tmp / n
            p.parent.mkdir(parents=True, exist_ok=True)
            if n in changed:
                _write(p, files[n])
            else:
                _link_or_copy(target / n, p)
            _fault("file")
        _sync_tree(tmp)
        _fault("fsynced")
        return _switch(root, target, tmp, absent=not files)
    except BaseException:
        if not status["switched"]:
            _remove(tmp, quiet=True)
        raise


def _switch(root: Path, target: Path, new: Path, absent: bool = False) -> Path | None:
    """THE step: `new` becomes `target` atomically (`absent`: the study is to be removed, `new`
    is an empty dir). SIGINT/SIGTERM are held back meanwhile, so `status` is true when their
    handler runs; SIGKILL leaves old-or-new, or, for the fallback, a `.old-` tree that the next
    run renames back. Returns where the old tree now is (None: there was none)."""
    old_mask = signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)
    try:
        _fault("switch")
        if not os.path.lexists(target):
            if not absent:
                os.rename(new, target)  # first ingest: nothing to exchange
            old = None
        elif absent:
            os.rename(target, new)  # replaces the empty dir `new`
            old = new
        elif _exchange(new, target):
            old = new
        else:  # fallback: two renames, recovered on next run
            old = new.with_name(new.name.replace(".tmp-", ".old-", 1))
            os.rename(target, old)
            try:
                _fault("aside")
                os.rename(new, target)
            except OSError:
                os.rename(old, target)
                raise
        status["switched"] = True
        _fsync_dir(root)
        _fault("switch-done")
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old_mask)
    return old


def _renameat2():
    if not sys.platform.startswith("linux") or os.environ.get("INGEST_NO_EXCHANGE"):
        return None
    return getattr(ctypes.CDLL(None, use_errno=True), "renameat2", None)  # glibc >= 2.28


def _exchange(a: Path, b: Path) -> bool:
    """renameat2(RENAME_EXCHANGE): swap two paths atomically; False where unsupported."""
    fn = _renameat2()
    if fn is None:
        return False
    if fn(AT_FDCWD, os.fsencode(a), AT_FDCWD, os.fsencode(b), RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        return False  # kernel or file system without it
    raise OSError(code, os.strerror(code), str(b))


def _dir_mode(target: Path) -> int:
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o777 & ~mask


def _write(path: Path, data: bytes):
    """A new file of the tree; not synced here: `_sync_tree` syncs the whole tree at once."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def _link_or_copy(src: Path, dst: Path):
    """An unchanged file in the new tree: a hard link (same inode, same mtime), else a copy
    keeping the mtime."""
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def _fsync_dir(path: Path):
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _syncfs():
    if not sys.platform.startswith("linux"):
        return None
    return getattr(ctypes.CDLL(None, use_errno=True), "syncfs", None)  # glibc >= 2.14


def _sync_tree(top: Path):
    """Make the new tree durable before it is switched in, so that after a crash the switch
    never points at files whose data was lost: one syncfs(2) of its file system (every file's
    data, inode and directory entry in one journal commit; measured at 0.6 of fsyncing each
    file and directory, docs/performance.md), else an fsync of each file and directory."""
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        fn = _syncfs()
        if fn is not None and fn(fd) == 0:
            return
    finally:
        os.close(fd)
    for p in sorted(top.rglob("*"), key=lambda p: -len(p.parts)):
        if p.is_file():
            with open(p, "rb") as f:
                os.fsync(f.fileno())
        else:
            _fsync_dir(p)
    _fsync_dir(top)


def _remove(path: Path, quiet: bool = False):
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=quiet)
    else:
        try:
            path.unlink(missing_ok=True)
        except OSError:
            if not quiet:
                raise
