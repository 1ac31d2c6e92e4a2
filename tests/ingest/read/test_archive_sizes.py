"""Sizes a tar declares: a PAX `size` record must be ASCII decimal digits (no
sign, no spaces, no other digits, at most 20 of them) and no member may declare more than the
archive may still expand to; bytes are counted from what is read, so no declared size can
move the budget. Every tar here is crafted byte by byte (bench/archive_bombs.py's helpers)."""

from __future__ import annotations

import tarfile
from pathlib import Path

import pytest

from bench.archive_bombs import BLOCK, link, negative_pax_size_bomb, pax_header, tar_header  # noqa: E402
from ingest.problems import Problem
from ingest.read.archive import Archive, Limits

LIMITS = Limits(total_bytes=1 << 20)  # 1 MiB, so the bombs here stay small


def tar(path: Path, *blocks: bytes) -> Path:
    path.write_bytes(b"".join(blocks) + b"\0" * BLOCK * 2)
    return path


def member(name: str, data: bytes) -> bytes:
    return tar_header(name, tarfile.REGTYPE, len(data)) + data + b"\0" * (-len(data) % BLOCK)


@pytest.mark.parametrize(
    "size",
    ["-1099511627776", "-1", "+5", " 5", "5 ", "0x10", "1e3", "5_0", "\u0663", "\uff15", "9" * 21],
)
def test_a_pax_size_that_is_not_plain_decimal_is_rejected(tmp_path, size):
    path = tar(tmp_path / "t.tar", pax_header({"size": size}), member("r/a.log", b"alpha\n"))
    with pytest.raises(Problem) as e:
        Archive(path, LIMITS)
    assert str(e.value).startswith("t.tar: r/a.log: corrupt tar archive (PAX size '")
    assert str(e.value).endswith("' is not a decimal number of at most 20 digits)")


def test_a_declared_size_beyond_the_budget_is_rejected_before_it_is_read(tmp_path):
    big = str((1 << 20) + 1)
    path = tar(tmp_path / "t.tar", pax_header({"size": big}), member("r/a.log", b"alpha\n"))
    with pytest.raises(Problem) as e:
        Archive(path, LIMITS)
    assert str(e.value) == (
        f"t.tar: r/a.log: member of {big} bytes: the archive would expand beyond 1048576 bytes (bomb?)"
    )
    info = tarfile.TarInfo("r/huge")
    info.size = 1 << 70  # GNU base-256 in the header itself
    header = info.tobuf(tarfile.GNU_FORMAT)
    with pytest.raises(Problem, match=r"^t2\.tar: r/huge: member of 1180591620717411303424 bytes"):
        Archive(tar(tmp_path / "t2.tar", header), LIMITS)


def test_the_negative_pax_size_bypass_is_closed(tmp_path):
    """Before: the counter went to -1.1e12 and 2.43 GB of hard-linked members were accepted."""
    path = negative_pax_size_bomb(tmp_path / "neg.tar.gz", 64 << 20)  # 8 links to 8 MiB
    with pytest.raises(Problem, match=r"^neg\.tar\.gz: r/a\.log: corrupt tar archive \(PAX size"):
        Archive(path, Limits(total_bytes=32 << 20))


def test_links_count_the_bytes_they_repeat(tmp_path):
    data = b"x" * 300_000
    blocks = [member("r/a.log", data)] + [link(f"r/l{i}", "r/a.log") for i in range(3)]
    with pytest.raises(Problem, match=r"^t\.tar: r/l2: archive expands beyond 1048576 bytes"):
        Archive(tar(tmp_path / "t.tar", *blocks), LIMITS)
    assert len(Archive(tar(tmp_path / "ok.tar", *blocks[:3]), LIMITS).names()) == 3


def test_plain_pax_sizes_still_read(tmp_path):
    path = tar(tmp_path / "t.tar", pax_header({"size": "6"}), member("r/a.log", b"alpha\n"))
    assert Archive(path, LIMITS).read("a.log") == b"alpha\n"


def test_one_member_over_its_limit_is_rejected_in_every_kind_of_input(tmp_path):
    """`Limits.member_bytes` (256 MiB; 100 bytes here): 10 million interval lines were one
    1.2 GB member, read whole (2.4 GB) before anything could say no."""
    import zipfile

    data = b"x" * 101
    limits = Limits(member_bytes=100)
    with zipfile.ZipFile(tmp_path / "t.zip", "w") as zf:
        zf.writestr("r/a.log", data)
    (tmp_path / "d" / "r").mkdir(parents=True)
    (tmp_path / "d" / "r" / "a.log").write_bytes(data)
    inputs = [tar(tmp_path / "t.tar", member("r/a.log", data)), tmp_path / "t.zip", tmp_path / "d"]
    for path in inputs:
        with pytest.raises(Problem) as e:
            Archive(path, limits)
        assert str(e.value).endswith(
            "r/a.log: member of 101 bytes, above the limit of one member (100 bytes; bomb?)"
        ), path
        assert Archive(path, Limits(member_bytes=101)).read("a.log") == data
