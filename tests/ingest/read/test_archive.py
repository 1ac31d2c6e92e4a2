"""Untrusted archives: every hostile one is generated here, at test time, and rejected with an
error naming the archive and the member; nothing is ever written outside."""

from __future__ import annotations

import io
import os
import stat
import subprocess
import tarfile
import warnings
import zipfile
from pathlib import Path

import pytest

from ingest.problems import Problem
from ingest.read.archive import Archive, Limits, dir_sha256


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
        assert arc.names() == ["a.txt", "sub/b.txt"], path  # single top-level dir stripped
        assert arc.read("sub/b.txt") == b"beta\n"


def test_links_inside_the_archive_are_followed(tmp_path):
    tgz = make_tar(
        tmp_path / "l.tgz",
        [
            ("r/a.txt", b"data\n"),
            link("r/alias.txt", "a.txt"),
            link("r/hard.txt", "r/a.txt", tarfile.LNKTYPE),
        ],
    )
    arc = Archive(tgz)
    assert arc.read("alias.txt") == arc.read("hard.txt") == b"data\n"


HOSTILE_TARS = {
    "dotdot": ([("../x", b"evil")], "../x", "member name escapes the archive"),
    "dotdot-inside": ([("r/../../x", b"evil")], "r/../../x", "member name escapes the archive"),
    "absolute": ([("/tmp/x", b"evil")], "/tmp/x", "absolute member name"),
    "symlink-out": ([link("r/l", "../../etc/passwd")], "r/l", "link points outside"),
    "symlink-abs": ([link("r/l", "/etc/passwd")], "r/l", "link points outside"),
    "hardlink-out": ([link("r/h", "../outside", tarfile.LNKTYPE)], "r/h", "link points outside"),
    "sibling-prefix": (
        [("x/a", b"ok"), link("x/l", "../x-evil/secret")],
        "x/l",
        "link target 'x-evil/secret' is not a file",
    ),
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
    with pytest.raises(Problem) as e:
        Archive(path)
    assert str(e.value).startswith(f"{case}.tar.gz: {member}: {reason}")
    assert sorted(p for p in tmp_path.rglob("*")) == before
    assert not (tmp_path / "x").exists() and not (tmp_path.parent / "x").exists()


HOSTILE_ZIPS = {
    "dotdot": ([("../x", b"evil")], "../x", "member name escapes the archive"),
    "absolute": ([("/tmp/x", b"evil")], "/tmp/x", "absolute member name"),
    "backslash": ([("..\\x", b"evil")], "..\\x", "member name escapes the archive"),
    "symlink-out": (
        [("r/l", b"../../etc/passwd", stat.S_IFLNK | 0o777)],
        "r/l",
        "link points outside",
    ),
    "fifo": ([("r/f", b"", stat.S_IFIFO | 0o644)], "r/f", "not a regular file"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE_ZIPS))
def test_hostile_zip_is_rejected_naming_archive_and_member(tmp_path, case):
    members, member, reason = HOSTILE_ZIPS[case]
    path = make_zip(tmp_path / f"{case}.zip", members)
    with pytest.raises(Problem) as e:
        Archive(path)
    assert str(e.value).startswith(f"{case}.zip: {member}: {reason}")


def test_directory_link_to_sibling_prefix_dir_is_outside(tmp_path):
    root, evil = tmp_path / "x", tmp_path / "x-evil"
    root.mkdir()
    evil.mkdir()
    (evil / "secret").write_text("s")
    (root / "ok.txt").write_text("ok")
    os.symlink(evil / "secret", root / "l")
    with pytest.raises(Problem, match=r"^x: l: link points outside the directory"):
        Archive(root)


def test_directory_with_fifo_is_rejected(tmp_path):
    root = tmp_path / "d"
    root.mkdir()
    os.mkfifo(root / "pipe")
    with pytest.raises(Problem, match=r"^d: pipe: not a regular file"):
        Archive(root)


def test_zip_bomb_is_rejected(tmp_path):
    path = make_zip(tmp_path / "bomb.zip", [("r/zeros", b"\0" * (4 << 20))])
    assert os.path.getsize(path) < 40_000
    with pytest.raises(Problem, match=r"^bomb\.zip: r/zeros: compression ratio above 200"):
        Archive(path)


def test_zip_member_lying_about_its_size_is_rejected(tmp_path):
    path = make_zip(tmp_path / "lie.zip", [("r/a", b"x" * 1000)])
    raw = bytearray(path.read_bytes())
    cd = raw.rfind(b"PK\x01\x02")  # central directory entry: uncompressed size at +24
    raw[cd + 24 : cd + 28] = (10).to_bytes(4, "little")
    path.write_bytes(bytes(raw))
    with pytest.raises(Problem, match=r"^lie\.zip: r/a: "):
        Archive(path)


def test_tar_bomb_is_rejected(tmp_path):
    path = make_tar(tmp_path / "bomb.tar.gz", [("r/zeros", b"\0" * (20 << 20))])
    assert os.path.getsize(path) < 100_000
    with pytest.raises(Problem, match=r"^bomb\.tar\.gz: r/zeros: compression ratio above 200"):
        Archive(path)


def test_total_size_and_member_count_limits(tmp_path):
    path = make_tar(tmp_path / "many.tar.gz", [(f"r/{i}", b"12345") for i in range(11)])
    with pytest.raises(Problem, match=r"^many\.tar\.gz: r/10: too many members \(limit 10\)"):
        Archive(path, Limits(members=10))
    with pytest.raises(Problem, match=r"^many\.tar\.gz: r/\d+: archive expands beyond 20 bytes"):
        Archive(path, Limits(total_bytes=20))


def test_corrupt_and_unknown_archives(tmp_path):
    bad = tmp_path / "bad.tar.gz"
    bad.write_bytes(b"not a tarball")
    with pytest.raises(Problem, match=r"^bad\.tar\.gz: (unreadable|corrupt) tar archive"):
        Archive(bad)
    odd = tmp_path / "odd.rar"
    odd.write_bytes(b"x")
    with pytest.raises(Problem, match=r"^odd\.rar: unknown archive type"):
        Archive(odd)


# -- valid archives, duplicates, hostile directories --------------------------------
def test_members_under_dot_slash_are_read(tmp_path):
    """`tar -C dir -czf x.tar.gz .` writes `./` and `./a.log`; a zip may hold a `./` entry."""
    src = tmp_path / "src"
    (src / "sub").mkdir(parents=True)
    (src / "a.log").write_bytes(b"alpha\n")
    (src / "sub" / "b.log").write_bytes(b"beta\n")
    tgz = tmp_path / "x.tar.gz"
    subprocess.run(["tar", "-C", str(src), "-czf", str(tgz), "."], check=True)
    assert Archive(tgz).names() == ["a.log", "sub/b.log"]
    zp = tmp_path / "x.zip"
    with zipfile.ZipFile(zp, "w") as zf:
        zf.writestr(zipfile.ZipInfo("./"), b"")
        zf.writestr("./a.log", b"alpha\n")
    assert Archive(zp).names() == ["a.log"]


def test_link_chains_are_followed_and_bounded(tmp_path):
    chain = make_tar(
        tmp_path / "chain.tar.gz",
        [
            ("r/a.log", b"data\n"),
            link("r/l1", "l2"),
            link("r/l2", "sub/l3"),
            link("r/sub/l3", "../a.log"),
        ],
    )
    arc = Archive(chain)
    assert arc.read("l1") == arc.read("l2") == arc.read("sub/l3") == b"data\n"
    loop = make_tar(
        tmp_path / "loop.tar.gz", [("r/a.log", b"x"), link("r/l1", "l2"), link("r/l2", "l1")]
    )
    with pytest.raises(
        Problem, match=r"^loop\.tar\.gz: r/l1: link chain longer than 32 links, or a loop$"
    ):
        Archive(loop)
    long = make_tar(
        tmp_path / "long.tar.gz",
        [("r/a.log", b"x")]
        + [link(f"r/l{i}", f"l{i + 1}") for i in range(40)]
        + [link("r/l40", "a.log")],
    )
    with pytest.raises(Problem, match=r"link chain longer than 32 links"):
        Archive(long)
    zp = make_zip(
        tmp_path / "chain.zip",
        [
            ("r/a.log", b"data\n"),
            ("r/l1", b"l2", stat.S_IFLNK | 0o777),
            ("r/l2", b"a.log", stat.S_IFLNK | 0o777),
        ],
    )
    assert Archive(zp).read("l1") == b"data\n"


def test_duplicate_member_names_are_an_error_naming_both(tmp_path):
    tgz = make_tar(
        tmp_path / "dup.tar.gz", [("r/a.log", b"1"), ("r/b.log", b"2"), ("r/./a.log", b"3")]
    )
    with pytest.raises(
        Problem, match=r"^dup\.tar\.gz: r/a\.log: duplicate member name \(entries 1 and 3\)$"
    ):
        Archive(tgz)
    zp = tmp_path / "dup.zip"
    with zipfile.ZipFile(zp, "w") as zf, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns about the duplicate it writes
        zf.writestr("r/a.log", b"1")
        zf.writestr("r/a.log", b"2")
    with pytest.raises(
        Problem, match=r"^dup\.zip: r/a\.log: duplicate member name \(entries 1 and 2\)$"
    ):
        Archive(zp)


def test_encrypted_zip_member_is_an_error(tmp_path):
    path = make_zip(tmp_path / "enc.zip", [("r/a.log", b"secret\n")])
    raw = bytearray(path.read_bytes())
    for sig, off in (
        (b"PK\x03\x04", 6),
        (b"PK\x01\x02", 8),
    ):  # general purpose flags: bit 0 = encrypted
        at = raw.find(sig)
        raw[at + off] |= 1
    path.write_bytes(bytes(raw))
    with pytest.raises(Problem, match=r"^enc\.zip: r/a\.log: encrypted member \(not supported\)$"):
        Archive(path)


def test_member_names_are_bounded_and_cleaned(tmp_path):
    tgz = make_tar(
        tmp_path / "ctl.tar.gz", [("r/\x1b[31mred\nx.log", b"x"), ("r/\x1b[31mred\nx.log", b"y")]
    )
    with pytest.raises(Problem) as e:
        Archive(tgz)
    assert "\x1b" not in str(e.value) and "\n" not in str(e.value)
    assert (
        str(e.value)
        == "ctl.tar.gz: r/\\x1b[31mred\\x0ax.log: member name has control characters (they would reach pages and terminals)"
    )
    deep = make_tar(tmp_path / "deep.tar.gz", [("/".join(["d"] * 1200) + "/a.log", b"x")])
    with pytest.raises(
        Problem,
        match=r"^deep\.tar\.gz: d/d/d.*…: member name longer than 4096|nested deeper than 100",
    ):
        Archive(deep)
    bad = tmp_path / "bad.tar"
    with tarfile.open(
        bad, "w", format=tarfile.GNU_FORMAT, encoding="utf-8", errors="surrogateescape"
    ) as tf:
        info = tarfile.TarInfo("r/caf\udce9.log")
        tf.addfile(info, io.BytesIO(b""))
    with pytest.raises(Problem, match=r"^bad\.tar: r/caf\\xe9\.log: member name is not UTF-8$"):
        Archive(bad)


@pytest.mark.parametrize(
    "case", ["dangling", "loop", "self", "special", "deep", "not-utf8", "dir-link"]
)
def test_hostile_directory_input(tmp_path, case):
    root = tmp_path / "in"
    root.mkdir()
    (root / "ok.log").write_text("ok\n")
    expect = {
        "dangling": (lambda: os.symlink(root / "missing", root / "l"), r"^in: l: dangling symlink"),
        "loop": (
            lambda: (os.symlink("l2", root / "l1"), os.symlink("l1", root / "l2")),
            r"^in: l1: symlink loop",
        ),
        "self": (lambda: os.symlink("me", root / "me"), r"^in: me: symlink loop"),
        "special": (
            lambda: os.symlink("/dev/zero", root / "z"),
            r"^in: z: link points outside the directory",
        ),
        "deep": (
            lambda: [os.mkdir(root / "/".join(["d"] * n)) for n in range(1, 1201)],
            r"^in: d/d/.*: nested deeper than 100",
        ),
        "not-utf8": (
            lambda: open(os.path.join(os.fsencode(root), b"caf\xe9.log"), "w").close(),
            r"^in: caf\\xe9\.log: member name is not UTF-8",
        ),
        "dir-link": (
            lambda: (os.mkdir(root / "sub"), os.symlink("sub", root / "alias")),
            r"^in: alias: link to a directory",
        ),
    }
    make, pattern = expect[case]
    try:
        make()
        with pytest.raises(Problem, match=pattern):
            Archive(root)
        with pytest.raises(Problem, match=pattern):
            dir_sha256(root)  # the manifest's checksum walks the same way
    finally:
        if (
            case == "deep"
        ):  # pytest's cleanup (shutil.rmtree) recurses per level: RecursionError later
            remove_tree(root)
    assert case != "deep" or not root.exists()


def remove_tree(top: Path) -> None:
    """Remove a directory tree of any depth without recursion: a stack of directories, each
    removed once it holds no directory (its files unlinked, links not followed)."""
    stack = [os.fspath(top)]
    while stack:
        with os.scandir(stack[-1]) as it:
            entries = list(it)
        subdirs = [e.path for e in entries if e.is_dir(follow_symlinks=False)]
        if subdirs:
            stack.extend(subdirs)
            continue
        for e in entries:
            os.unlink(e.path)
        os.rmdir(stack.pop())


def test_directory_checksum_reads_nothing_outside(tmp_path, monkeypatch):
    """A link to a FIFO outside the input would block a reader: the walk rejects it unopened."""
    root = tmp_path / "in"
    root.mkdir()
    os.mkfifo(tmp_path / "pipe")
    os.symlink(tmp_path / "pipe", root / "p")
    opened = []
    real_open = open
    monkeypatch.setattr(
        "builtins.open", lambda f, *a, **k: opened.append(f) or real_open(f, *a, **k)
    )
    with pytest.raises(Problem, match=r"^in: p: link points outside the directory"):
        dir_sha256(root)
    assert opened == []


def test_directory_checksum_is_unchanged(tmp_path):
    """Same value as the `sha256sum`-style listing the manifests were written with."""
    import hashlib

    root = tmp_path / "in"
    (root / "sub").mkdir(parents=True)
    (root / "a.log").write_bytes(b"a\n")
    (root / "sub" / "b.log").write_bytes(b"b\n")
    os.symlink("../a.log", root / "sub" / "l.log")
    listing = "".join(
        sorted(
            f"{hashlib.sha256(p.read_bytes()).hexdigest()}  {p.relative_to(root).as_posix()}\n"
            for p in root.rglob("*")
            if p.is_file()
        )
    )
    assert dir_sha256(root) == hashlib.sha256(listing.encode()).hexdigest()
