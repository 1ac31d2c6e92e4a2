"""Read a result archive (a directory, `.tar.gz`/`.tgz`/`.tar`, or `.zip`) safely.

Archives are untrusted. Members are read into memory, never extracted, and the whole
archive is rejected (with an `ArchiveError` naming archive and member) when any member:
- has an absolute name or a name that climbs out with `..` (also `x/../../y`);
- is a symlink or hardlink whose target lies outside the archive root (a sibling such as
  `/tmp/x-evil` next to `/tmp/x` is outside), or a device, FIFO or socket;
- would make the archive a bomb: more than `Limits.members` members, more than
  `Limits.total_bytes` uncompressed bytes, or (past `Limits.ratio_floor` bytes) an
  uncompressed/compressed ratio above `Limits.ratio`.
Links inside the archive are followed to their target. When every member lives under one
top-level directory, that directory is stripped, so manifests match `res.csv`, not
`percona-.../res.csv`.
"""
from __future__ import annotations

import hashlib
import os
import posixpath
import stat
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path


class ArchiveError(Exception):
    """An archive that cannot be read safely: `archive: member: reason`."""

    def __init__(self, archive: str, member: str | None, reason: str):
        self.archive, self.member, self.reason = archive, member, reason
        where = f"{archive}: {member}" if member is not None else archive
        super().__init__(f"{where}: {reason}")


@dataclass(frozen=True)
class Limits:
    """Bomb limits (defaults fit real result archives with a wide margin)."""

    members: int = 20_000
    total_bytes: int = 2 * 1024**3
    ratio: float = 200.0
    ratio_floor: int = 16 * 1024**2


def sha256_file(path: str | os.PathLike) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _clean_name(archive: str, name: str) -> str:
    """A member name as a safe relative POSIX path, or ArchiveError."""
    if name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        raise ArchiveError(archive, name, "absolute member name")
    parts = [p for p in name.replace("\\", "/").split("/") if p not in ("", ".")]
    if ".." in parts:
        raise ArchiveError(archive, name, "member name escapes the archive (`..`)")
    if not parts:
        raise ArchiveError(archive, name, "empty member name")
    return "/".join(parts)


def _inside(archive: str, member: str, target: str, base: str | None = None) -> str:
    """Resolve a link `target` relative to `base` (default: `member`'s directory), inside the root."""
    if target.startswith("/"):
        raise ArchiveError(archive, member, f"link points outside the archive ({target})")
    base = posixpath.dirname(member) if base is None else base
    joined = posixpath.normpath(posixpath.join(base, target))
    if joined == ".." or joined.startswith("../") or joined.startswith("/"):
        raise ArchiveError(archive, member, f"link points outside the archive ({target})")
    return joined


class Archive:
    """Members of an archive by relative name (top-level directory stripped)."""

    def __init__(self, path: str | os.PathLike, limits: Limits = Limits()):
        self.path = Path(path)
        self.name = self.path.name
        self.limits = limits
        self._data: dict[str, bytes] = {}
        self._total = 0
        if self.path.is_dir():
            self._read_dir()
        elif self.name.endswith(".zip"):
            self._read_zip()
        elif self.name.endswith((".tar.gz", ".tgz", ".tar")):
            self._read_tar()
        elif not self.path.exists():
            raise ArchiveError(str(self.path), None, "not found")
        else:
            raise ArchiveError(self.name, None, "unknown archive type (want a directory, .tar.gz, .tgz, .tar or .zip)")
        self._strip_top()

    # -- access -------------------------------------------------------------------------
    def names(self) -> list[str]:
        return sorted(self._data)

    def read(self, name: str) -> bytes:
        return self._data[name]

    # -- limits -------------------------------------------------------------------------
    def _count(self, member: str, size: int, compressed: int | None = None):
        if len(self._data) >= self.limits.members:
            raise ArchiveError(self.name, member, f"too many members (limit {self.limits.members})")
        self._total += size
        if self._total > self.limits.total_bytes:
            raise ArchiveError(self.name, member, f"archive expands beyond {self.limits.total_bytes} bytes (bomb?)")
        if compressed is not None and size > self.limits.ratio_floor // 16 and size > compressed * self.limits.ratio:
            raise ArchiveError(self.name, member, f"compression ratio above {self.limits.ratio:g} (bomb?)")
        if self._total > self.limits.ratio_floor and not self.path.is_dir():
            ratio = self._total / max(1, self.path.stat().st_size)
            if ratio > self.limits.ratio:
                raise ArchiveError(self.name, member, f"compression ratio above {self.limits.ratio:g} (bomb?)")

    # -- readers ------------------------------------------------------------------------
    def _read_dir(self):
        root = self.path.resolve()
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            for fn in sorted(filenames):
                full = Path(dirpath, fn)
                rel = full.relative_to(root).as_posix()
                real = full.resolve()
                if not real.is_relative_to(root):
                    raise ArchiveError(self.name, rel, f"link points outside the directory ({real})")
                mode = real.stat().st_mode
                if not stat.S_ISREG(mode):
                    raise ArchiveError(self.name, rel, "not a regular file (device, FIFO or socket)")
                self._count(rel, real.stat().st_size)
                self._data[rel] = real.read_bytes()

    def _read_tar(self):
        try:
            tf = tarfile.open(self.path, "r:*")
        except (tarfile.TarError, OSError) as e:
            raise ArchiveError(self.name, None, f"unreadable tar archive ({e})") from None
        links: list[tuple[str, str]] = []
        with tf:
            try:
                for m in tf:
                    name = _clean_name(self.name, m.name)
                    if m.isdir():
                        continue
                    if m.issym() or m.islnk():
                        # symlink targets are relative to the link; hardlinks to the root
                        target = _inside(self.name, name, m.linkname, None if m.issym() else "")
                        links.append((name, target))
                        continue
                    if not m.isreg():
                        raise ArchiveError(self.name, m.name, "not a regular file (device, FIFO or socket)")
                    self._count(name, m.size)
                    f = tf.extractfile(m)
                    self._data[name] = f.read() if f else b""
            except (tarfile.TarError, EOFError, OSError, ValueError) as e:
                raise ArchiveError(self.name, None, f"corrupt tar archive ({e})") from None
        self._resolve_links(links)

    def _read_zip(self):
        try:
            zf = zipfile.ZipFile(self.path)
        except (zipfile.BadZipFile, OSError) as e:
            raise ArchiveError(self.name, None, f"unreadable zip archive ({e})") from None
        with zf:
            links = []
            for info in zf.infolist():
                name = _clean_name(self.name, info.filename)
                if info.is_dir():
                    continue
                kind = stat.S_IFMT(info.external_attr >> 16) if info.create_system == 3 else 0
                if kind == stat.S_IFLNK:
                    links.append((name, _inside(self.name, name, zf.read(info).decode("utf-8", "replace"))))
                    continue
                if kind not in (0, stat.S_IFREG):
                    raise ArchiveError(self.name, info.filename, "not a regular file (device, FIFO or socket)")
                self._count(name, info.file_size, info.compress_size)
                try:
                    with zf.open(info) as f:
                        data = f.read(info.file_size + 1)
                except (zipfile.BadZipFile, OSError, NotImplementedError) as e:
                    raise ArchiveError(self.name, info.filename, f"corrupt member ({e})") from None
                if len(data) != info.file_size:
                    raise ArchiveError(self.name, info.filename, "member size differs from its header (bomb?)")
                self._data[name] = data
        self._resolve_links(links)

    def _resolve_links(self, links: list[tuple[str, str]]):
        for name, target in links:
            if target not in self._data:
                raise ArchiveError(self.name, name, f"link target {target!r} is not a file in the archive")
            self._count(name, len(self._data[target]))
            self._data[name] = self._data[target]

    def _strip_top(self):
        tops = {n.split("/", 1)[0] for n in self._data}
        if len(tops) == 1 and all("/" in n for n in self._data):
            self._data = {n.split("/", 1)[1]: b for n, b in self._data.items()}
