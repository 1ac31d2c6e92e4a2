"""A small study written into a test's tmp_path: a tar.gz of sysbench logs (the golden fixtures)
and a manifest whose runs:, extra sections and archive members a test chooses (make_study)."""

from __future__ import annotations

import io
import tarfile

from golden import FIXTURES

from ingest.archive import sha256_file

LOGS = {
    "a-8.log": "oltp-lua.log",
    "b-16.log": "c-reporter-p99.log",
    "multi.log": "tpcc-sessions.log",
    "two.log": "oltp-lua.log",
}  # two.log: the fixture twice, two complete sessions


def write_archive(path, extra=()):
    with tarfile.open(path, "w:gz") as tf:
        for name, fixture in LOGS.items():
            data = (FIXTURES / "sysbench1" / fixture).read_bytes() * (2 if name == "two.log" else 1)
            info = tarfile.TarInfo(f"mini/{name}")
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
        for info in extra:
            tf.addfile(info)
    return path


RUNS = """\
  - regex: '(?P<name>[a-z])-(?P<threads>\\d+)\\.log'
  - glob: 'multi.log'
    labels: {name: m}
    published: false
"""


def make_study(tmp_path, runs=RUNS, extra="", archive_members=()):
    (tmp_path / "archives").mkdir(exist_ok=True)
    arc = write_archive(tmp_path / "archives" / "mini.tar.gz", archive_members)
    man = tmp_path / "content" / "mini" / "manifest.yaml"
    man.parent.mkdir(parents=True, exist_ok=True)
    man.write_text(f"""\
study: mini
title: A small study
inputs:
  - name: mini.tar.gz
    kind: archive
    sha256: {sha256_file(arc)}
    origin: https://example.org/mini
interval_s: 1
window: {{start: 1, end: 4}}
labels: [name, threads]
label_types: {{threads: int}}
{extra}runs:
{runs}""")
    return man
