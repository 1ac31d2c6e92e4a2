"""A hostile data/: links, FIFOs and directories where the writer expects its
lock file or a study's tree, as a commit can carry them. The writer never writes, truncates or
reads through them: a lock that is not a regular file of one link is refused with one line
(`data/.ingest.lock: ...`, exit 1, nothing written); a study that is a link is refused; a link
inside a study is replaced, never followed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ingest.__main__ import main
from ingest.problems import Problem
from ingest.write import datadir
from tests.kit.study_kit import make_study

PRECIOUS = b"a file outside data/\n"


def outside(tmp_path: Path) -> Path:
    victim = tmp_path / "home" / "victim"
    victim.parent.mkdir(exist_ok=True)
    victim.write_bytes(PRECIOUS)
    return victim


def lock_layouts(tmp_path: Path, data: Path) -> dict:
    """What each hostile layout puts at data/.ingest.lock, and what the error says it is."""
    victim = outside(tmp_path)
    lock = data / datadir.LOCK
    return {
        "absolute symlink": (lambda: lock.symlink_to(victim), "a symbolic link"),
        "relative symlink climbing out": (
            lambda: lock.symlink_to(os.path.relpath(victim, data)),
            "a symbolic link",
        ),
        "dangling symlink out": (
            lambda: lock.symlink_to(tmp_path / "home" / "new-file"),
            "a symbolic link",
        ),
        "FIFO": (lambda: os.mkfifo(lock), "a FIFO"),
        "directory": (lambda: lock.mkdir(), "a directory"),
        "hard link": (lambda: os.link(victim, lock), "a file of several links"),
    }


LAYOUTS = [
    "absolute symlink",
    "relative symlink climbing out",
    "dangling symlink out",
    "FIFO",
    "directory",
    "hard link",
]


def listing(top: Path) -> dict:
    return {
        p.relative_to(top).as_posix(): p.read_bytes() if p.is_file() and not p.is_fifo() else None
        for p in sorted(top.rglob("*"))
        if not p.is_symlink()
    }


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_lock_that_is_not_a_regular_file_is_refused(tmp_path, layout):
    data = tmp_path / "data"
    data.mkdir()
    make, what = lock_layouts(tmp_path, data)[layout]
    make()
    before = listing(tmp_path)
    with pytest.raises(Problem) as e:
        datadir.write_study(data, "s", {"a.yaml": b"1\n"})
    assert str(e.value) == (
        f"{data / datadir.LOCK}: is {what}, not a regular file: "
        "the lock must be a regular file of data/; remove it"
    )
    assert listing(tmp_path) == before  # nothing written, inside data/ or out
    assert (tmp_path / "home" / "victim").read_bytes() == PRECIOUS
    assert not (tmp_path / "home" / "new-file").exists()


@pytest.mark.parametrize("layout", ["relative symlink climbing out", "FIFO"])
def test_the_command_line_says_so_in_one_line_exit_1(tmp_path, capsys, layout):
    make_study(tmp_path)
    data = tmp_path / "data"
    data.mkdir()
    lock_layouts(tmp_path, data)[layout][0]()
    args = ["mini", "--content", tmp_path / "content", "--archives", tmp_path / "archives"]
    code = main([str(a) for a in [*args, "--data", data, "--studies", tmp_path / "studies"]])
    out, err = capsys.readouterr()
    assert (code, out) == (1, "")
    assert err.startswith(f"{data / datadir.LOCK}: is a ") and err.count("\n") == 1, err
    assert sorted(p.name for p in data.iterdir()) == [datadir.LOCK]
    assert (tmp_path / "home" / "victim").read_bytes() == PRECIOUS


def test_a_study_that_is_a_link_out_of_data_is_refused(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    elsewhere = tmp_path / "home" / "dir"
    elsewhere.mkdir(parents=True)
    (elsewhere / "a.yaml").write_bytes(PRECIOUS)
    (data / "s").symlink_to(elsewhere)
    with pytest.raises(Problem, match=r"/data/s: is a symbolic link, not a directory: "):
        datadir.write_study(data, "s", {"a.yaml": b"1\n"})
    assert (elsewhere / "a.yaml").read_bytes() == PRECIOUS
    assert sorted(p.name for p in data.iterdir()) == [datadir.LOCK, "s"]


def test_links_inside_a_study_are_replaced_not_followed(tmp_path):
    """A file or a directory of the study that is a link out of data/: the new tree holds
    regular files in their place; nothing outside is read into data/ or changed."""
    data = tmp_path / "data"
    victim = outside(tmp_path)
    datadir.write_study(data, "s", {"a.yaml": b"1\n", "series/x.yaml": b"x\n"})
    (data / "s" / "a.yaml").unlink()
    (data / "s" / "a.yaml").symlink_to(victim)
    (data / "s" / "series" / "x.yaml").unlink()
    (data / "s" / "series").rmdir()
    (data / "s" / "series").symlink_to(victim.parent)
    (victim.parent / "x.yaml").write_bytes(PRECIOUS)
    files = {"a.yaml": PRECIOUS, "series/x.yaml": PRECIOUS}  # the same bytes as outside
    res = datadir.write_study(data, "s", files)
    assert res == {"written": ["a.yaml", "series/x.yaml"], "removed": ["series"]}
    for name in files:
        p = data / "s" / name
        assert not p.is_symlink() and not p.parent.is_symlink() and p.read_bytes() == PRECIOUS
        assert p.stat().st_ino not in {
            victim.stat().st_ino,
            (victim.parent / "x.yaml").stat().st_ino,
        }
    assert victim.read_bytes() == PRECIOUS and (victim.parent / "x.yaml").read_bytes() == PRECIOUS


def test_a_file_system_without_locks_is_one_line(tmp_path, monkeypatch):
    """ENOLCK (an NFS mount without a lock manager) was an internal error."""
    import errno
    import fcntl

    def no_locks(fd, how):
        raise OSError(errno.ENOLCK, os.strerror(errno.ENOLCK))

    monkeypatch.setattr(fcntl, "flock", no_locks)
    with pytest.raises(Problem) as e:
        datadir.write_study(tmp_path, "s", {"a.yaml": b"1\n"})
    assert str(e.value) == f"{tmp_path / datadir.LOCK}: cannot lock (No locks available)"
    assert sorted(p.name for p in tmp_path.iterdir()) == [datadir.LOCK]
