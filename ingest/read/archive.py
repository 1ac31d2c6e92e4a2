"""Read a result archive (a directory, `.tar.gz`/`.tgz`/`.tar`, or `.zip`) safely.

Archives are untrusted. Members are read into memory, never extracted, and the whole
archive is rejected with a `Problem` (`archive: member: reason`) when any member:
- has an absolute name, a name that climbs out with `..` (also `x/../../y`), a name that is
  not UTF-8 or holds control characters (ESC, newline, ...), longer than `Limits.name` characters or deeper than `Limits.depth` directories;
- appears twice (both positions are named);
- is a symlink or hardlink whose target lies outside the archive root (a sibling such as
  `/tmp/x-evil` next to `/tmp/x` is outside), is missing, or is a chain of links longer than
  `Limits.link_hops` (or a loop); or is a device, FIFO or socket; or an encrypted zip member;
- would make the archive a bomb: more than `Limits.members` entries (every tar header counts:
  files, directories, links, PAX extended headers, GNU long names), more than
  `Limits.header_bytes` of PAX / long-name payload in all, more than `Limits.total_bytes`
  uncompressed bytes, or (past `Limits.ratio_floor` bytes) an uncompressed/compressed ratio
  above `Limits.ratio`.
A tar is read header by header from the decompressed stream (not with `tarfile`, which
reads a PAX or long-name payload whole before one can look at it), so a bomb is rejected
after at most `Limits.header_bytes` of metadata or `Limits.ratio_floor` of data.
Links inside the archive are followed to their target, through chains of links. `./` entries
and a `./` prefix are ignored. When every member lives under one top-level directory, that
directory is stripped, so manifests match `res.csv`, not `percona-.../res.csv`.
A directory input is walked without recursion and without reading anything before its
checks pass (`walk_dir`); `dir_sha256` hashes one through the same walk.
"""

from __future__ import annotations

import errno
import gzip
import hashlib
import io
import os
import posixpath
import re
import stat
import tarfile
import tempfile
import weakref
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from ingest.problems import CONTROL, Problem, clean

BLOCK = 512


@dataclass(frozen=True)
class Limits:
    """Bomb limits (defaults fit real result archives with a wide margin)."""

    members: int = 20_000  # entries of every kind (tar headers, zip entries, directory entries)
    total_bytes: int = 2 * 1024**3  # uncompressed bytes
    ratio: float = 200.0  # uncompressed / compressed, checked past ratio_floor bytes
    ratio_floor: int = 16 * 1024**2
    header_bytes: int = 1024**2  # PAX extended headers and GNU long names/links, in all
    member_bytes: int = 256 * 1024**2  # one member (the largest real one: 2.5 MB)
    name: int = 4096  # characters of a member name or link target
    depth: int = 100  # directories in a member name
    link_hops: int = 32  # links followed to reach a file


def _error(archive: str, member: str | None, reason: str) -> Problem:
    """`archive: member: reason` (the member name cleaned and bounded)."""
    return Problem(archive, None, reason if member is None else f"{clean(member, 200)}: {reason}")


def open_regular(path: str | os.PathLike[str]) -> io.BufferedReader:
    """`path` opened for reading only if it is a regular file (links followed), else Problem:
    the open of a FIFO would wait for a writer and /dev/zero never ends. O_NONBLOCK lets the
    open of a FIFO return at once; fstat checks the file opened, not a name that may change."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as e:
        raise Problem(str(path), None, f"cannot read ({e.strerror})") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise Problem(str(path), None, "not a regular file (device, FIFO or socket): not read")
    os.set_blocking(fd, True)
    return io.BufferedReader(io.FileIO(fd, "rb"))


def sha256_file(path: str | os.PathLike[str]) -> str:
    with open_regular(path) as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def _clean_name(archive: str, name: str, limits: Limits = Limits(), is_dir: bool = False) -> str:
    """A member name as a safe relative POSIX path ("" for a `./` directory entry), or Problem."""
    if len(name) > limits.name:
        raise _error(archive, name, f"member name longer than {limits.name} characters")
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raise _error(
            archive,
            name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace"),
            "member name is not UTF-8",
        ) from None
    if CONTROL.search(name):
        raise _error(
            archive,
            name,
            "member name has control characters (they would reach pages and terminals)",
        )
    if name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        raise _error(archive, name, "absolute member name")
    parts = [p for p in name.replace("\\", "/").split("/") if p not in ("", ".")]
    if ".." in parts:
        raise _error(archive, name, "member name escapes the archive (`..`)")
    if not parts and not is_dir:
        raise _error(archive, name, "empty member name")
    if len(parts) > limits.depth:
        raise _error(archive, name, f"nested deeper than {limits.depth} directories")
    return "/".join(parts)


def _inside(archive: str, member: str, target: str, base: str | None = None) -> str:
    """Resolve a link `target` relative to `base` (default: `member`'s directory), inside the root."""
    if target.startswith("/"):
        raise _error(archive, member, f"link points outside the archive ({clean(target, 200)})")
    base = posixpath.dirname(member) if base is None else base
    joined = posixpath.normpath(posixpath.join(base, target))
    if joined == ".." or joined.startswith("../") or joined.startswith("/"):
        raise _error(archive, member, f"link points outside the archive ({clean(target, 200)})")
    return joined


# -- directories ------------------------------------------------------------------------------
def walk_dir(root: str | os.PathLike[str], limits: Limits = Limits()) -> list[tuple[str, str, int]]:
    """(relative name, real path) of every file under directory `root`, sorted by name, links
    inside the root followed; Problem (`root: name: reason`) for a link that leaves the root, is
    dangling or loops, a device/FIFO/socket, a non-UTF-8 name, too deep or too many entries.
    Iterative (any depth is safe) and nothing is opened before its checks pass."""
    root = Path(root)
    name = root.name
    real_root = os.path.realpath(root)
    entries, found = 0, []
    stack = [("", str(root))]
    while stack:
        rel_dir, path = stack.pop()
        try:
            with os.scandir(path) as it:
                listing = sorted(it, key=lambda e: e.name)
        except OSError as e:
            raise _error(name, rel_dir or ".", f"cannot list ({e.strerror})") from None
        for entry in listing:
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            entries += 1
            if entries > limits.members:
                raise _error(
                    name, rel, f"too many members (limit {limits.members}): directories count"
                )
            _clean_name(name, rel, limits)  # UTF-8, length, depth
            try:
                st = os.stat(entry.path)  # follows links: a loop or a dangling link fails
            except OSError as e:
                what = (
                    "symlink loop (a link to itself or a cycle)"
                    if e.errno == errno.ELOOP
                    else "dangling symlink (its target does not exist)"
                    if e.errno == errno.ENOENT
                    else f"cannot read ({e.strerror})"
                )
                raise _error(name, rel, what) from None
            if entry.is_symlink():
                real = os.path.realpath(entry.path)
                if os.path.commonpath([real_root, real]) != real_root:
                    raise _error(
                        name, rel, f"link points outside the directory ({clean(real, 200)})"
                    )
                if stat.S_ISDIR(st.st_mode):
                    raise _error(name, rel, "link to a directory (not followed)")
            if stat.S_ISDIR(st.st_mode):
                stack.append((rel, entry.path))
            elif stat.S_ISREG(st.st_mode):
                found.append((rel, entry.path, st.st_size))
            else:
                raise _error(name, rel, "not a regular file (device, FIFO or socket)")
    return sorted(found)


def dir_sha256(path: str | os.PathLike[str], limits: Limits = Limits()) -> str:
    """sha256 of a directory input: over its `sha256sum`-style listing, sorted by path."""
    lines = sorted(f"{sha256_file(real)}  {rel}\n" for rel, real, _size in walk_dir(path, limits))
    return hashlib.sha256("".join(lines).encode()).hexdigest()


# -- tar, header by header ----------------------------------------------------------------------
class _TarStream:
    """The decompressed bytes of a tar (gzip or plain), with the position and the limits."""

    def __init__(self, archive: Archive):
        self.archive = archive
        self.compressed = max(1, archive.path.stat().st_size)
        raw = open(archive.path, "rb")
        magic = raw.read(2)
        raw.seek(0)
        self.f = gzip.GzipFile(fileobj=raw, mode="rb") if magic == b"\x1f\x8b" else raw
        self.raw = raw
        self.pos = 0

    def close(self) -> None:
        self.f.close()
        self.raw.close()

    def read(self, n: int, member: str | None) -> bytes:
        """Exactly `n` bytes (read in pieces of at most 1 MiB), counted against the limits."""
        parts = []
        while n > 0:
            piece = self.f.read(min(n, 1 << 20))
            if not piece:
                raise _error(
                    self.archive.name,
                    member,
                    "corrupt tar archive (it ends inside a member: truncated?)",
                )
            n -= len(piece)
            self._counted(len(piece), member)
            parts.append(piece)
        return b"".join(parts)

    def _counted(self, n: int, member: str | None) -> None:
        """Count `n` bytes read against the total and the ratio (headers counted before)."""
        lim = self.archive.limits
        self.pos += n
        if self.pos > lim.total_bytes:
            raise _error(
                self.archive.name, member, f"archive expands beyond {lim.total_bytes} bytes (bomb?)"
            )
        if self.pos > lim.ratio_floor and self.pos / self.compressed > lim.ratio:
            raise _error(
                self.archive.name, member, f"compression ratio above {lim.ratio:g} (bomb?)"
            )

    def header(self) -> bytes:
        """The next 512-byte header block, or b"" at the end of the stream."""
        block = self.f.read(BLOCK)
        while block and len(block) < BLOCK:
            more = self.f.read(BLOCK - len(block))
            if not more:
                raise _error(
                    self.archive.name,
                    None,
                    "corrupt tar archive (it ends inside a header: truncated?)",
                )
            block += more
        self.pos += len(block)  # checked with the next payload (Limits.members bounds headers)
        return block

    def skip_padding(self, size: int, member: str | None) -> None:
        if size % BLOCK:
            self.read(BLOCK - size % BLOCK, member)


DECIMAL = re.compile(r"[0-9]{1,20}")  # a PAX length or size: ASCII digits, no sign, no spaces


def _pax_records(data: bytes, archive: str) -> dict[str, str]:
    """The `length key=value\\n` records of a PAX extended header."""
    out, pos = {}, 0
    while pos < len(data):
        if data[pos : pos + 1] == b"\0":
            break
        space = data.find(b" ", pos, pos + 20)
        digits = data[pos:space].decode("ascii", "replace") if space > pos else ""
        length = int(digits) if DECIMAL.fullmatch(digits) else 0
        record = data[space + 1 : pos + length] if length else b""
        if length <= 0 or not record.endswith(b"\n") or b"=" not in record:
            raise _error(archive, None, "corrupt tar archive (bad PAX extended header)")
        key, value = record[:-1].split(b"=", 1)
        out[key.decode("utf-8", "surrogateescape")] = value.decode("utf-8", "surrogateescape")
        pos += length
    return out


# the tar entries that describe the next member rather than being one
EXTENDED = (
    tarfile.XHDTYPE,
    tarfile.XGLTYPE,
    tarfile.SOLARIS_XHDTYPE,
    tarfile.GNUTYPE_LONGNAME,
    tarfile.GNUTYPE_LONGLINK,
)


@dataclass
class _Extended:
    """What the extended headers read since the last member say about the next one (PAX
    records, GNU long name and link target), and the bytes all of them took (`total`)."""

    pax: dict[str, str] = field(default_factory=dict)
    long_name: str | None = None
    long_link: str | None = None
    total: int = 0

    def name(self, info: tarfile.TarInfo) -> str:
        return self.pax.get("path", self.long_name if self.long_name is not None else info.name)

    def link(self, info: tarfile.TarInfo) -> str:
        default = self.long_link if self.long_link is not None else info.linkname
        return self.pax.get("linkpath", default)

    def applied(self) -> None:
        """The member they described is read: the next one starts with none (`total` stays)."""
        self.pax, self.long_name, self.long_link = {}, None, None


class _Spool:
    """Members' bytes, once read and checked, kept in an unnamed temporary file rather than in
    memory: an archive of 1.2 GB of text costs its reader one member at a time (`get`), and
    the page cache, not the process, holds the rest. A link is a second name for the same
    (offset, size)."""

    def __init__(self) -> None:
        self._fd, name = tempfile.mkstemp(prefix="benchlog-archive-")
        os.unlink(name)  # gone with the descriptor, closed with the spool
        weakref.finalize(self, os.close, self._fd)
        self._end = 0

    def put(self, data: bytes) -> tuple[int, int]:
        view = memoryview(data)
        while view:  # pwrite may write less than asked
            done = os.pwrite(self._fd, view, self._end + len(data) - len(view))
            view = view[done:]
        ref = (self._end, len(data))
        self._end += len(data)
        return ref

    def get(self, ref: tuple[int, int]) -> bytes:
        offset, size = ref
        data = os.pread(self._fd, size, offset) if size else b""
        while len(data) < size:  # a short read: the rest
            more = os.pread(self._fd, size - len(data), offset + len(data))
            if not more:
                raise OSError(errno.EIO, "the archive's spool file was cut short")
            data += more
        return data


class Archive:
    """Members of an archive by relative name (top-level directory stripped)."""

    def __init__(self, path: str | os.PathLike[str], limits: Limits = Limits()):
        self.path = Path(path)
        self.name = clean(self.path.name)
        self.limits = limits
        self._spool = _Spool()
        self._data: dict[str, tuple[int, int]] = {}  # member -> (offset, size) in the spool
        self._where: dict[str, int] = {}  # member -> its position (1-based entry number)
        self._total = 0
        if self.path.is_dir():
            self._read_dir()
        elif self.name.endswith(".zip"):
            self._read_zip()
        elif self.name.endswith((".tar.gz", ".tgz", ".tar")):
            self._read_tar()
        elif not self.path.exists():
            raise Problem(self.path, None, "not found")
        else:
            raise Problem(
                self.name,
                None,
                "unknown archive type (want a directory, .tar.gz, .tgz, .tar or .zip)",
            )
        self._strip_top()

    # -- access -------------------------------------------------------------------------
    def names(self) -> list[str]:
        return sorted(self._data)

    def read(self, name: str) -> bytes:
        return self._spool.get(self._data[name])

    # -- limits -------------------------------------------------------------------------
    def _claim(self, member: str, position: int) -> None:
        """Record `member` at `position`; Problem naming both positions when it is there already."""
        if member in self._where:
            raise _error(
                self.name,
                member,
                f"duplicate member name (entries {self._where[member]} and {position})",
            )
        self._where[member] = position

    def _count(self, member: str, size: int, compressed: int | None = None) -> None:
        self._total += size
        if self._total > self.limits.total_bytes:
            raise _error(
                self.name, member, f"archive expands beyond {self.limits.total_bytes} bytes (bomb?)"
            )
        if (
            compressed is not None
            and size > self.limits.ratio_floor // 16
            and size > compressed * self.limits.ratio
        ):
            raise _error(
                self.name, member, f"compression ratio above {self.limits.ratio:g} (bomb?)"
            )
        if self._total > self.limits.ratio_floor and not self.path.is_dir():
            ratio = self._total / max(1, self.path.stat().st_size)
            if ratio > self.limits.ratio:
                raise _error(
                    self.name, member, f"compression ratio above {self.limits.ratio:g} (bomb?)"
                )

    # -- readers ------------------------------------------------------------------------
    def _read_dir(self) -> None:
        for i, (rel, real, size) in enumerate(walk_dir(self.path, self.limits), 1):
            self._claim(rel, i)
            self._count(rel, self._fits(rel, size))
            with open(real, "rb") as f:
                data = f.read(size + 1)
            if len(data) != size:
                raise _error(self.name, rel, "file changed while it was read")
            self._data[rel] = self._spool.put(data)

    def _read_tar(self) -> None:
        try:
            stream = _TarStream(self)
        except OSError as e:
            raise Problem(self.name, None, f"unreadable tar archive ({e.strerror})") from None
        try:
            self._read_tar_stream(stream)
        except (OSError, EOFError, zlib.error) as e:  # gzip.BadGzipFile is an OSError
            raise Problem(self.name, None, f"corrupt tar archive ({clean(e, 200)})") from None
        finally:
            stream.close()

    def _read_tar_stream(self, stream: _TarStream) -> None:
        """Every header of the stream in order (to a zero block or the end of the stream):
        extended headers apply to the next member; links are resolved after the last one."""
        links: list[tuple[str, str]] = []
        ext = _Extended()
        entry = 0
        while (block := stream.header()) and block != b"\0" * BLOCK:
            entry += 1
            info = self._tar_info(block, entry)
            if info.type in EXTENDED:
                self._read_extended(stream, info, ext, entry)
            else:
                self._read_tar_member(stream, info, ext, entry, links)
        self._resolve_links(links)

    def _tar_info(self, block: bytes, entry: int) -> tarfile.TarInfo:
        """The header of the `entry`th tar entry, within the member limit, its size not negative."""
        try:
            info = tarfile.TarInfo.frombuf(block, "utf-8", "surrogateescape")
        except tarfile.HeaderError as e:
            raise Problem(self.name, None, f"corrupt tar archive (entry {entry}: {e})") from None
        if entry > self.limits.members:
            raise _error(
                self.name,
                info.name,
                f"too many members (limit {self.limits.members}): every tar header "
                "counts (files, directories, links, extended headers)",
            )
        if info.size < 0:
            raise _error(self.name, None, f"corrupt tar archive (entry {entry}: negative size)")
        return info

    def _read_extended(
        self, stream: _TarStream, info: tarfile.TarInfo, ext: _Extended, entry: int
    ) -> None:
        """A PAX or GNU long-name header: its payload (all of them bounded by
        `Limits.header_bytes`) noted in `ext` for the next member (a global PAX header is read
        and ignored)."""
        ext.total += info.size
        if ext.total > self.limits.header_bytes:
            raise _error(
                self.name,
                None,
                f"extended headers and long names above {self.limits.header_bytes} "
                f"bytes (entry {entry}; bomb?)",
            )
        payload = stream.read(info.size, None)
        stream.skip_padding(info.size, None)
        if info.type == tarfile.GNUTYPE_LONGNAME:
            ext.long_name = payload.split(b"\0", 1)[0].decode("utf-8", "surrogateescape")
        elif info.type == tarfile.GNUTYPE_LONGLINK:
            ext.long_link = payload.split(b"\0", 1)[0].decode("utf-8", "surrogateescape")
        elif info.type != tarfile.XGLTYPE:
            ext.pax.update(_pax_records(payload, self.name))

    def _read_tar_member(
        self,
        stream: _TarStream,
        info: tarfile.TarInfo,
        ext: _Extended,
        entry: int,
        links: list[tuple[str, str]],
    ) -> None:
        """One member, named by its extended headers if any: a file is read, a link noted in
        `links`, a directory's payload skipped; devices, FIFOs and other types are refused."""
        kind = info.type
        raw_name, linkname = ext.name(info), ext.link(info)
        size = self._size(ext.pax.get("size"), info.size, raw_name)
        ext.applied()
        name = _clean_name(self.name, raw_name, self.limits, is_dir=kind == tarfile.DIRTYPE)
        if kind in (tarfile.REGTYPE, tarfile.AREGTYPE, tarfile.CONTTYPE):
            self._claim(name, entry)
            self._data[name] = self._spool.put(stream.read(size, raw_name))
            self._count(name, self._data[name][1])  # the bytes read, not the header's word
            stream.skip_padding(size, raw_name)
        elif kind in (tarfile.SYMTYPE, tarfile.LNKTYPE):
            if len(linkname) > self.limits.name:
                raise _error(
                    self.name, raw_name, f"link target longer than {self.limits.name} characters"
                )
            # symlink targets are relative to the link; hardlinks to the root
            target = _inside(self.name, name, linkname, None if kind == tarfile.SYMTYPE else "")
            self._claim(name, entry)
            links.append((name, target))
            if size:
                raise _error(self.name, raw_name, "corrupt tar archive (a link with data)")
        elif kind == tarfile.DIRTYPE:
            if size:  # skip what a directory entry carries
                stream.read(size, raw_name)
                stream.skip_padding(size, raw_name)
        elif kind in (tarfile.CHRTYPE, tarfile.BLKTYPE, tarfile.FIFOTYPE):
            raise _error(self.name, raw_name, "not a regular file (device, FIFO or socket)")
        else:
            raise _error(self.name, raw_name, f"unsupported tar entry type {kind!r}")

    def _size(self, pax_size: str | None, header_size: int, member: str) -> int:
        """A member's size: its PAX `size` record (ASCII digits only: no sign, no spaces, no
        other digits) or its header's; a Problem when it exceeds what may still be read."""
        if pax_size is not None:
            if not DECIMAL.fullmatch(pax_size):
                raise _error(
                    self.name,
                    member,
                    f"corrupt tar archive (PAX size {clean(pax_size, 40)!r} is not a decimal "
                    "number of at most 20 digits)",
                )
            header_size = int(pax_size)
        return self._fits(member, header_size)

    def _fits(self, member: str, size: int) -> int:
        """`size`, checked before the member is read: at most `Limits.member_bytes`, and
        within what the archive may still expand to."""
        if size > self.limits.member_bytes:
            raise _error(
                self.name,
                member,
                f"member of {size} bytes, above the limit of one member "
                f"({self.limits.member_bytes} bytes; bomb?)",
            )
        if size > self.limits.total_bytes - self._total:
            raise _error(
                self.name,
                member,
                f"member of {size} bytes: the archive would expand beyond "
                f"{self.limits.total_bytes} bytes (bomb?)",
            )
        return size

    def _read_zip(self) -> None:
        lim = self.limits
        try:
            with open(self.path, "rb") as f:
                # the end record only (entry count, directory size): zipfile's own reader of
                # it, private, as the public ZipFile reads the whole directory first
                end = zipfile._EndRecData(f)  # type: ignore[attr-defined]
        except OSError as e:
            raise Problem(self.name, None, f"unreadable zip archive ({e.strerror})") from None
        if end is None:
            raise Problem(self.name, None, "unreadable zip archive (File is not a zip file)")
        entries, size = end[zipfile._ECD_ENTRIES_TOTAL], end[zipfile._ECD_SIZE]  # type: ignore[attr-defined]
        if entries > lim.members:
            raise _error(
                self.name,
                None,
                f"too many members (limit {lim.members}): the zip lists {entries}",
            )
        if size > lim.members * (46 + 256) + lim.header_bytes:
            raise _error(self.name, None, f"zip central directory of {size} bytes (bomb?)")
        try:
            zf = zipfile.ZipFile(self.path)
        except (zipfile.BadZipFile, OSError, UnicodeDecodeError, ValueError) as e:
            raise Problem(self.name, None, f"unreadable zip archive ({clean(e, 200)})") from None
        with zf:
            infos = zf.infolist()
            if len(infos) > lim.members:
                raise _error(self.name, None, f"too many members (limit {lim.members})")
            links = []
            for i, info in enumerate(infos, 1):
                name = _clean_name(self.name, info.filename, lim, is_dir=info.is_dir())
                if info.is_dir():
                    continue
                if info.flag_bits & 0x1:
                    raise _error(self.name, info.filename, "encrypted member (not supported)")
                self._claim(name, i)
                kind = stat.S_IFMT(info.external_attr >> 16) if info.create_system == 3 else 0
                if kind == stat.S_IFLNK:
                    if info.file_size > lim.name:
                        raise _error(
                            self.name,
                            info.filename,
                            f"link target longer than {lim.name} characters",
                        )
                    target = self._zip_member(zf, info).decode("utf-8", "replace")
                    links.append((name, _inside(self.name, name, target)))
                    continue
                if kind not in (0, stat.S_IFREG):
                    raise _error(
                        self.name, info.filename, "not a regular file (device, FIFO or socket)"
                    )
                self._count(name, self._fits(info.filename, info.file_size), info.compress_size)
                self._data[name] = self._spool.put(self._zip_member(zf, info))
        self._resolve_links(links)

    def _zip_member(self, zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
        try:
            with zf.open(info) as f:
                data = f.read(info.file_size + 1)
        except (
            zipfile.BadZipFile,
            OSError,
            NotImplementedError,
            RuntimeError,
            ValueError,
            EOFError,
            zlib.error,
        ) as e:
            raise _error(self.name, info.filename, f"corrupt member ({clean(e, 200)})") from None
        if len(data) != info.file_size:
            raise _error(self.name, info.filename, "member size differs from its header (bomb?)")
        return data

    def _resolve_links(self, links: list[tuple[str, str]]) -> None:
        """Each link -> the file it leads to, through at most `Limits.link_hops` links."""
        target_of = dict(links)
        for name, target in links:
            hops = 0
            while target in target_of:
                hops += 1
                if hops > self.limits.link_hops:
                    raise _error(
                        self.name,
                        name,
                        f"link chain longer than {self.limits.link_hops} links, or a loop",
                    )
                target = target_of[target]
            if target not in self._data:
                raise _error(
                    self.name,
                    name,
                    f"link target {clean(target, 200)!r} is not a file in the archive",
                )
            self._count(name, self._data[target][1])
            self._data[name] = self._data[target]

    def _strip_top(self) -> None:
        tops = {n.split("/", 1)[0] for n in self._data}
        if len(tops) == 1 and all("/" in n for n in self._data):
            self._data = {n.split("/", 1)[1]: b for n, b in self._data.items()}
