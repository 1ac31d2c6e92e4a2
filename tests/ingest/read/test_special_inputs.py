"""An input in the ARCHIVES folder that is no regular file: a FIFO (its open waited for a
writer) or a symlink to /dev/zero (its sha256 never ended). Both are refused before a byte is
read: `path: not a regular file`, exit 1, data/ untouched. Each case runs in a thread joined
with a bound, so a regression fails the test instead of hanging it."""

from __future__ import annotations

import os
import threading

import pytest

from ingest.problems import Problem
from tests.kit.study_kit import make_study, run


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_an_input_that_is_no_regular_file_is_refused_unread(tmp_path, kind):
    man = make_study(tmp_path)
    arc = tmp_path / "archives" / "mini.tar.gz"
    arc.unlink()
    if kind == "fifo":
        os.mkfifo(arc)
    else:
        arc.symlink_to("/dev/zero")
    got: list[object] = []

    def ingest():
        try:
            run(tmp_path, man)
            got.append("ingested")
        except Problem as e:
            got.append(e)

    worker = threading.Thread(target=ingest, daemon=True)
    worker.start()
    worker.join(30)
    assert got, "the ingest is still reading the input"
    (e,) = got
    assert isinstance(e, Problem) and str(e) == (
        f"{arc}: not a regular file (device, FIFO or socket): not read"
    ), e
    assert not (tmp_path / "data" / "mini").exists()
