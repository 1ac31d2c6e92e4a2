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
import secrets
import shutil
import signal
import stat
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypedDict

from ingest.problems import Problem

PLAIN = re.compile(r"\A[A-Za-z_/][A-Za-z0-9_ ./()%+\-]*\Z")  # \Z: `$` took "ra\n" as plain
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


def scalar(v: object) -> str:
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


def _is_scalar(v: object) -> bool:
    return v is None or isinstance(v, (str, int, float, bool))


def _numbers(v: list[object]) -> str | None:
    """Fast path for a list of plain floats or of ints (series columns): Python's own list
    repr, `[1.5, 2.0]`, is the flow sequence; None if not such a list."""
    types = set(map(type, v))
    if types == {float}:
        text = list.__repr__(v)
        return None if ("e" in text or "n" in text) else text  # exponents, nan, inf: slow path
    if types == {int}:
        return list.__repr__(v)
    return None


def _flow(v: object) -> str:
    if isinstance(v, list) and v and (fast := _numbers(v)) is not None:
        return fast
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_str(str(k))}: {_flow(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(_flow(x) for x in v) + "]"
    return scalar(v)


def _flowable(v: object) -> bool:
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


def _block(v: object, indent: int, out: list[str]) -> None:
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


def dump(obj: Mapping[str, object]) -> str:
    """YAML text of `obj` (a dict at the top)."""
    out: list[str] = []
    _block(obj, 0, out)
    return "\n".join(out) + "\n"


# -- writing data/<study>/ -------------------------------------------------------------------
LOCK = ".ingest.lock"
# the trees an ingest makes beside a study: `.<study>.tmp-<token>` and, in the fallback switch,
# `.<study>.old-<token>`; the token is random and recorded in the lock file before the tree is
# made, and the next run touches only the recorded ones (a person's `.s.old-1` is not ours)
LEFTOVER = re.compile(r"\.(?P<study>[^/\x00]+)\.(?P<kind>tmp|old)-(?P<token>[0-9a-f]{16})")
MADE = "made "  # a lock file line recording a tree this ingest made
JOURNAL_MAX = 1 << 16  # bytes of the lock file read back (a pid and a few names)
NAME_MAX = 255  # bytes in one file name (Linux file systems)
AT_FDCWD, RENAME_EXCHANGE = -100, 2
SIGNALS = {signal.SIGINT, signal.SIGTERM}


class Written(TypedDict):
    """What `write_study` changed: the files written and removed (paths under the study)."""

    written: list[str]
    removed: list[str]


@dataclass
class Outcome:
    """What the command line reports after an interrupt: the study being written and whether
    it has been switched in yet (set with SIGINT/SIGTERM blocked, so the report is true)."""

    target: str | None = None
    switched: bool = False


@dataclass
class _Held:
    """A data directory locked by this process: the lock file's fd and the directory's fd."""

    lock_fd: int
    dir_fd: int
    path: Path
    made: list[str] = field(default_factory=list)  # trees recorded, not yet removed


_held: dict[str, _Held] = {}  # data dir (real path) -> its lock, held by this process


def _io_problem(path: str | os.PathLike[str], e: OSError, what: str = "cannot write") -> Problem:
    return Problem(path, None, f"{what} ({e.strerror or e})")


def _kind(mode: int) -> str:
    return (
        "a symbolic link"
        if stat.S_ISLNK(mode)
        else "a directory"
        if stat.S_ISDIR(mode)
        else "a FIFO"
        if stat.S_ISFIFO(mode)
        else "a socket"
        if stat.S_ISSOCK(mode)
        else "a device"
        if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
        else "a regular file"
    )


def _open_lock(path: Path) -> int:
    """The lock file, opened without following a link (O_NOFOLLOW) and without blocking on a
    FIFO; anything but a regular file of one link is refused before it is opened, so nothing
    is ever written through it."""
    refuse = "the lock must be a regular file of data/; remove it"
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise _io_problem(path, e, "cannot read") from None
    if st is not None and (not stat.S_ISREG(st.st_mode) or st.st_nlink != 1):
        what = _kind(st.st_mode) if not stat.S_ISREG(st.st_mode) else "a file of several links"
        raise Problem(path, None, f"is {what}, not a regular file: {refuse}")
    flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(path, flags, 0o666)
    except OSError as e:
        if e.errno == errno.ELOOP:  # a link put there since the lstat
            raise Problem(path, None, f"is a symbolic link, not a regular file: {refuse}") from None
        raise _io_problem(path, e) from None
    opened = os.fstat(fd)
    if not stat.S_ISREG(opened.st_mode) or opened.st_nlink != 1:
        os.close(fd)
        raise Problem(path, None, f"is {_kind(opened.st_mode)}, not a regular file: {refuse}")
    return fd


@contextlib.contextmanager
def locked(root: str | os.PathLike[str]) -> Iterator[None]:
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
    except OSError as e:
        raise _io_problem(path, e) from None
    fd = _open_lock(path)
    try:
        _flock(fd, path, root)
        try:
            dir_fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError as e:
            raise _io_problem(root, e) from None
        held = _held[key] = _Held(fd, dir_fd, root)
        try:
            try:
                held.made = _journal(held)  # what a killed run made, still recorded...
                _rewrite_journal(held)  # ...under this process's pid
                recover(root)
            except OSError as e:
                raise _io_problem(root, e) from None
            yield
        finally:
            del _held[key]
            os.close(dir_fd)
    finally:
        os.close(fd)  # releases the lock


def _flock(fd: int, path: Path, root: Path) -> None:
    """Take the lock without waiting: a Problem naming the holder's pid when another ingest has
    it, or naming the reason when the file system cannot lock (ENOLCK on some NFS mounts)."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        first = os.pread(fd, 20, 0).split(b"\n", 1)[0]
        pid = first.decode("ascii", "replace").strip() or "?"
        raise Problem(
            path,
            None,
            f"another ingest (pid {pid}) is writing to {root}; try again when it has finished",
        ) from None
    except OSError as e:
        raise _io_problem(path, e, "cannot lock") from None


def _journal(held: _Held) -> list[str]:
    """The trees recorded in the lock file by a run that did not finish (its `made` lines)."""
    text = os.pread(held.lock_fd, JOURNAL_MAX, 0).decode("utf-8", "replace")
    return [
        line[len(MADE) :]
        for line in text.split("\n")[1:]
        if line.startswith(MADE) and LEFTOVER.fullmatch(line[len(MADE) :])
    ]


def _rewrite_journal(held: _Held) -> None:
    """The lock file: this process's pid, then the trees it made that are still there."""
    body = "".join(f"{MADE}{n}\n" for n in held.made)
    os.ftruncate(held.lock_fd, 0)
    os.pwrite(held.lock_fd, f"{os.getpid()}\n{body}".encode(), 0)


def _record(held: _Held, name: str) -> None:
    """Record a tree before making it (appended and fsynced: after a crash it is in the file)."""
    size = os.fstat(held.lock_fd).st_size
    os.pwrite(held.lock_fd, f"{MADE}{name}\n".encode(), size)
    os.fsync(held.lock_fd)
    held.made.append(name)


def _settle(held: _Held) -> None:
    """Forget the recorded trees that are gone (removed, or switched in as the study)."""
    gone = [n for n in held.made if not any(_exists(x, held.dir_fd) for x in _both(n))]
    if gone:
        held.made = [n for n in held.made if n not in gone]
        _rewrite_journal(held)


def _both(name: str) -> tuple[str, str]:
    """The tmp and old names of a recorded tree."""
    m = LEFTOVER.fullmatch(name)
    assert m is not None, name  # a recorded name is one LEFTOVER matched
    return f".{m['study']}.old-{m['token']}", f".{m['study']}.tmp-{m['token']}"


def recover(root: Path) -> None:
    """Clean up after a killed run (call under the lock): of the trees the lock file records
    (and only those), a `.<study>.old-*` whose study is missing (the fallback switch was cut
    between its two renames) is renamed back, so the study is entirely old; the others are
    removed. Anything else in data/ is left alone."""
    held = _held[os.path.realpath(root)]
    for name in held.made:
        recorded = LEFTOVER.fullmatch(name)
        assert recorded is not None, name  # a recorded name is one LEFTOVER matched
        study = recorded["study"]
        for leftover in _both(name):  # the old tree first: it may be the study
            try:
                st = os.lstat(leftover, dir_fd=held.dir_fd)
            except FileNotFoundError:
                continue
            if not stat.S_ISDIR(st.st_mode):
                continue  # not a tree of ours
            try:
                if ".old-" in leftover and not _exists(study, held.dir_fd):
                    os.rename(leftover, study, src_dir_fd=held.dir_fd, dst_dir_fd=held.dir_fd)
                    os.fsync(held.dir_fd)
                else:
                    shutil.rmtree(leftover, dir_fd=held.dir_fd)
            except OSError as e:
                raise _io_problem(root / leftover, e) from None
    held.made = []
    _rewrite_journal(held)


def _exists(name: str, dir_fd: int) -> bool:
    try:
        os.lstat(name, dir_fd=dir_fd)
    except FileNotFoundError:
        return False
    return True


def write_study(
    root: str | os.PathLike[str],
    study: str,
    files: dict[str, bytes],
    outcome: Outcome | None = None,
) -> Written:
    """Make `root/study/` hold exactly `files`; returns {"written": [...], "removed": [...]}.
    Nothing changed: nothing is touched. Otherwise the whole new tree replaces the old in one
    atomic step. An OSError (read-only, disk full) is a Problem and leaves the old tree.
    `outcome` (the command line's) says, after an interrupt, whether the switch happened."""
    root = Path(root)
    target = root / study
    outcome = outcome or Outcome()
    outcome.target, outcome.switched = str(target), False
    with locked(root):
        held = _held[os.path.realpath(root)]
        current = _files_in(target)
        changed = sorted(n for n, b in files.items() if n not in current or _differs(target / n, b))
        removed = sorted(current - set(files))
        if not changed and not removed:
            return {"written": [], "removed": []}
        for n in files:
            _check_name(target, n)
        _check_name(root, f".{study}.tmp-{'x' * 16}")
        try:
            old = _build_and_switch(held, study, target, files, set(changed), outcome)
            if old is not None:
                _remove(old, quiet=True)  # a failure here: removed by the next run
        except OSError as e:
            where = "the new data is in place" if outcome.switched else "left unchanged"
            raise Problem(target, None, f"cannot write ({e.strerror or e}); {where}") from None
        finally:
            with contextlib.suppress(OSError):
                _settle(held)
    return {"written": changed, "removed": removed}


def _files_in(target: Path) -> set[str]:
    """Every entry but directories under `target`, found without following a link: a link or a
    FIFO in the study is listed (so it is replaced or removed) and never read through. A study
    that is itself a link, or not a directory, is refused."""
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        return set()
    if not stat.S_ISDIR(st.st_mode):
        raise Problem(
            target,
            None,
            f"is {_kind(st.st_mode)}, not a directory: the ingest replaces only a directory "
            "it can read without following links; remove it",
        )
    out: set[str] = set()
    stack = [("", str(target))]
    while stack:
        rel, path = stack.pop()
        with os.scandir(path) as it:
            for e in it:
                name = f"{rel}{e.name}"
                if e.is_dir(follow_symlinks=False):
                    stack.append((name + "/", e.path))
                else:
                    out.add(name)
    return out


def _differs(path: Path, data: bytes) -> bool:
    """True unless `path` is a regular file (not a link) holding exactly `data`."""
    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size != len(data):
            return True
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as f:
            return f.read(len(data) + 1) != data
    except OSError:
        return True


def _check_name(base: Path, relpath: str) -> None:
    for part in relpath.split("/"):
        if len(os.fsencode(part)) > NAME_MAX:
            raise Problem(base / relpath, None, f"file name longer than {NAME_MAX} bytes")


def _make_tmp(held: _Held, study: str) -> Path:
    """A new, empty `.<study>.tmp-<token>` beside the study, recorded in the lock file first."""
    name = f".{study}.tmp-{secrets.token_hex(8)}"
    _record(held, name)
    os.mkdir(name, 0o700, dir_fd=held.dir_fd)
    return held.path / name


def _build_and_switch(
    held: _Held,
    study: str,
    target: Path,
    files: dict[str, bytes],
    changed: set[str],
    outcome: Outcome,
) -> Path | None:
    """Write the new tree beside `target`, switch it in; return the path holding the old tree."""
    tmp = _make_tmp(held, study)
    try:
        os.chmod(tmp, _dir_mode(target))
        for n in sorted(files):
            p = tmp / n
            p.parent.mkdir(parents=True, exist_ok=True)
            if n in changed:
                _write(p, files[n])
            else:
                _link_or_copy(target / n, p)
        _sync_tree(tmp)
        return _switch(held.path, target, tmp, outcome, absent=not files)
    except BaseException:
        if not outcome.switched:
            _remove(tmp, quiet=True)
        raise


def _switch(
    root: Path, target: Path, new: Path, outcome: Outcome, absent: bool = False
) -> Path | None:
    """THE step: `new` becomes `target` atomically (`absent`: the study is to be removed, `new`
    is an empty dir). SIGINT/SIGTERM are held back meanwhile, so `outcome` is true when their
    handler runs; SIGKILL leaves old-or-new, or, for the fallback, a `.old-` tree that the next
    run renames back. Returns where the old tree now is (None: there was none)."""
    old_mask = signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)
    try:
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
                os.rename(new, target)
            except OSError:
                os.rename(old, target)
                raise
        outcome.switched = True
        _fsync_dir(root)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old_mask)
    return old


def _renameat2() -> Callable[[int, bytes, int, bytes, int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    fn: Callable[[int, bytes, int, bytes, int], int] | None = getattr(
        ctypes.CDLL(None, use_errno=True), "renameat2", None
    )  # glibc >= 2.28
    return fn


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


def _write(path: Path, data: bytes) -> None:
    """A new file of the tree; not synced here: `_sync_tree` syncs the whole tree at once."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def _link_or_copy(src: Path, dst: Path) -> None:
    """An unchanged file in the new tree: a hard link (same inode, same mtime), else a copy
    keeping the mtime."""
    try:
        os.link(src, dst, follow_symlinks=False)
    except OSError:
        shutil.copy2(src, dst, follow_symlinks=False)


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _syncfs() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    fn: Callable[[int], int] | None = getattr(
        ctypes.CDLL(None, use_errno=True), "syncfs", None
    )  # glibc >= 2.14
    return fn


def _sync_tree(top: Path) -> None:
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
        if p.is_symlink():
            continue  # never made by the writer; not followed
        if p.is_file():
            fd = os.open(p, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        else:
            _fsync_dir(p)
    _fsync_dir(top)


def _remove(path: Path, quiet: bool = False) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=quiet)
    else:
        try:
            path.unlink(missing_ok=True)
        except OSError:
            if not quiet:
                raise
