"""Untrusted archives: every hostile one is generated here, at test time, and rejected with an
error naming the archive and the member; nothing is ever written outside."""
from __future__ import annotations

import io
import os
import stat
import tarfile
import zipfile

import pytest

from ingest.archive import Archive, ArchiveError, Limits


def make_tar(path, members, mode="w:gz"):
    """members: (name, bytes) for files, or ready TarInfo objects (links, devices)."""
    with tarfile.open(path, mode) as tf:
        for m in members:
            if isinstance(m, tarfile.TarInfo):
                tf.addfile(m)
            else:
                name, data = m
                info = tarfile.TarInfo(name)
                info.size = len(data)
                tf.addfile(info, io.BytesIO(data))
    return path


def link(name, target, kind=tarfile.SYMTYPE):
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, target
    return info


def special(name, kind):
    info = tarfile.TarInfo(name)
    info.type = kind
    return info


def make_zip(path, members):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data, *mode in members:
            info = zipfile.ZipInfo(name)
            info.compress_type = zipfile.ZIP_DEFLATED
            if mode:
                info.create_system = 3
                info.external_attr = mode[0] << 16
            zf.writestr(info, data)
    return path


def test_reads_tar_zip_and_directory_alike(tmp_path):
    files = [("top/a.txt", b"alpha\n"), ("top/sub/b.txt", b"beta\n")]
    tgz = make_tar(tmp_path / "r.tar.gz", files)
    zp = make_zip(tmp_path / "r.zip", [(n, d) for n, d in files])
    d = tmp_path / "dir" / "top"
    (d / "sub").mkdir(parents=True)
    for n, data in files:
        (tmp_path / "dir" / n).write_bytes(data)
    for path in (tgz, zp, tmp_path / "dir"):
        arc = Archive(path)
        assert arc.names() == ["a.txt", "sub/b.txt"], path   # single top-level dir stripped
        assert arc.read("sub/b.txt") == b"beta\n"


def test_links_inside_the_archive_are_followed(tmp_path):
    tgz = make_tar(tmp_path / "l.tgz", [("r/a.txt", b"data\n"), link("r/alias.txt", "a.txt"),
                                        link("r/hard.txt", "r/a.txt", tarfile.LNKTYPE)])
    arc = Archive(tgz)
    assert arc.read("alias.txt") == arc.read("hard.txt") == b"data\n"


HOSTILE_TARS = {
    "dotdot": ([("../x", b"evil")], "../x", "member name escapes the archive"),
    "dotdot-inside": ([("r/../../x", b"evil")], "r/../../x", "member name escapes the archive"),
    "absolute": ([("/tmp/x", b"evil")], "/tmp/x", "absolute member name"),
    "symlink-out": ([link("r/l", "../../etc/passwd")], "r/l", "link points outside"),
    "symlink-abs": ([link("r/l", "/etc/passwd")], "r/l", "link points outside"),
    "hardlink-out": ([link("r/h", "../outside", tarfile.LNKTYPE)], "r/h", "link points outside"),
    "sibling-prefix": ([("x/a", b"ok"), link("x/l", "../x-evil/secret")], "x/l", "link target 'x-evil/secret' is not a file"),
    "chardev": ([special("r/dev", tarfile.CHRTYPE)], "r/dev", "not a regular file"),
    "blockdev": ([special("r/blk", tarfile.BLKTYPE)], "r/blk", "not a regular file"),
    "fifo": ([special("r/fifo", tarfile.FIFOTYPE)], "r/fifo", "not a regular file"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE_TARS))
def test_hostile_tar_is_rejected_naming_archive_and_member(tmp_path, case):
    members, member, reason = HOSTILE_TARS[case]
    work = tmp_path / "work"
    work.mkdir()
    path = make_tar(work / f"{case}.tar.gz", members)
    before = sorted(p for p in tmp_path.rglob("*"))
    with pytest.raises(ArchiveError) as e:
        Archive(path)
    assert str(e.value).startswith(f"{case}.tar.gz: {member}: {reason}")
    assert sorted(p for p in tmp_path.rglob("*")) == before
    assert not (tmp_path / "x").exists() and not (tmp_path.parent / "x").exists()


HOSTILE_ZIPS = {
    "dotdot": ([("../x", b"evil")], "../x", "member name escapes the archive"),
    "absolute": ([("/tmp/x", b"evil")], "/tmp/x", "absolute member name"),
    "backslash": ([("..\\x", b"evil")], "..\\x", "member name escapes the archive"),
    "symlink-out": ([("r/l", b"../../etc/passwd", stat.S_IFLNK | 0o777)], "r/l", "link points outside"),
    "fifo": ([("r/f", b"", stat.S_IFIFO | 0o644)], "r/f", "not a regular file"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE_ZIPS))
def test_hostile_zip_is_rejected_naming_archive_and_member(tmp_path, case):
    members, member, reason = HOSTILE_ZIPS[case]
    path = make_zip(tmp_path / f"{case}.zip", members)
    with pytest.raises(ArchiveError) as e:
        Archive(path)
    assert str(e.value).startswith(f"{case}.zip: {member}: {reason}")


def test_directory_link_to_sibling_prefix_dir_is_outside(tmp_path):
    root, evil = tmp_path / "x", tmp_path / "x-evil"
    root.mkdir()
    evil.mkdir()
    (evil / "secret").write_text("s")
    (root / "ok.txt").write_text("ok")
    os.symlink(evil / "secret", root / "l")
    with pytest.raises(ArchiveError, match=r"^x: l: link points outside the directory"):
        Archive(root)


def test_directory_with_fifo_is_rejected(tmp_path):
    root = tmp_path / "d"
    root.mkdir()
    os.mkfifo(root / "pipe")
    with pytest.raises(ArchiveError, match=r"^d: pipe: not a regular file"):
        Archive(root)


def test_zip_bomb_is_rejected(tmp_path):
    path = make_zip(tmp_path / "bomb.zip", [("r/zeros", b"\0" * (4 << 20))])
    assert os.path.getsize(path) < 40_000
    with pytest.raises(ArchiveError, match=r"^bomb\.zip: r/zeros: compression ratio above 200"):
        Archive(path)


def test_zip_member_lying_about_its_size_is_rejected(tmp_path):
    path = make_zip(tmp_path / "lie.zip", [("r/a", b"x" * 1000)])
    raw = bytearray(path.read_bytes())
    cd = raw.rfind(b"PK\x01\x02")              # central directory entry: uncompressed size at +24
    raw[cd + 24:cd + 28] = (10).to_bytes(4, "little")
    path.write_bytes(bytes(raw))
    with pytest.raises(ArchiveError, match=r"^lie\.zip: r/a: "):
        Archive(path)


def test_tar_bomb_is_rejected(tmp_path):
    path = make_tar(tmp_path / "bomb.tar.gz", [("r/zeros", b"\0" * (20 << 20))])
    assert os.path.getsize(path) < 100_000
    with pytest.raises(ArchiveError, match=r"^bomb\.tar\.gz: r/zeros: compression ratio above 200"):
        Archive(path)


def test_total_size_and_member_count_limits(tmp_path):
    path = make_tar(tmp_path / "many.tar.gz", [(f"r/{i}", b"12345") for i in range(11)])
    with pytest.raises(ArchiveError, match=r"^many\.tar\.gz: r/10: too many members \(limit 10\)"):
        Archive(path, Limits(members=10))
    with pytest.raises(ArchiveError, match=r"^many\.tar\.gz: r/\d+: archive expands beyond 20 bytes"):
        Archive(path, Limits(total_bytes=20))


def test_corrupt_and_unknown_archives(tmp_path):
    bad = tmp_path / "bad.tar.gz"
    bad.write_bytes(b"not a tarball")
    with pytest.raises(ArchiveError, match=r"^bad\.tar\.gz: (unreadable|corrupt) tar archive"):
        Archive(bad)
    odd = tmp_path / "odd.rar"
    odd.write_bytes(b"x")
    with pytest.raises(ArchiveError, match=r"^odd\.rar: unknown archive type"):
        Archive(odd)
