"""A small study written into a test's tmp_path: a tar.gz of sysbench logs (the golden fixtures)
and a manifest whose runs:, extra sections and archive members a test chooses (make_study,
ingested by run); a study of sysbench logs with declared tables (make_declared)."""

from __future__ import annotations

import io
import tarfile

from ingest.pipeline import ingest
from ingest.read.archive import sha256_file
from tests.kit.golden import FIXTURES
from tests.kit.sysbench_gen import sysbench_log, tar_gz

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


def archive_study(tmp_path, study: str, title: str, members: dict, body: str):
    """A study `study` of one archive, `archives/<study>.tar.gz` holding `members` (name ->
    text, under a `<study>/` folder), and its manifest: the study, title and inputs lines, then
    `body` (the rest of the manifest, as YAML). Returns the manifest's path."""
    (tmp_path / "archives").mkdir(exist_ok=True)
    arc = tar_gz(tmp_path / "archives" / f"{study}.tar.gz", members, top=study)
    man = tmp_path / "content" / study / "manifest.yaml"
    man.parent.mkdir(parents=True, exist_ok=True)
    origin = f"https://example.org/{study}"
    man.write_text(
        f"study: {study}\ntitle: {title}\ninputs:\n  - {{name: {study}.tar.gz, kind: archive, "
        f"sha256: {sha256_file(arc)}, origin: {origin}}}\n{body}"
    )
    return man


def run(tmp_path, man):
    """Ingest the manifest `man` of a study made under `tmp_path` (make_study)."""
    return ingest(man, tmp_path / "archives", tmp_path / "studies", tmp_path / "data")


RATES = {
    ("innodb", 1000): 500,
    ("innodb", 2000): 600,
    ("rocksdb", 1000): 800,
    ("rocksdb", 2000): 1500,
    ("rocksdb", 4000): 1700,
}  # no innodb at 4000 IOPS


def make_declared(tmp_path, tables: str, extra: str = "", more: dict | None = None):
    """A study of sysbench logs at RATES (engine, iops) with the declared `tables:` (for
    tests of declared tables). `more`: further runs, {(engine, iops, variant or None): tps}, first in the archive."""
    (tmp_path / "archives").mkdir(parents=True, exist_ok=True)
    logs = {
        f"res_{e}_{i}iops{'_' + x if x else ''}.log": sysbench_log(r, seconds=30)
        for (e, i, x), r in (more or {}).items()
    }
    logs.update(
        {f"res_{e}_{i}iops.log": sysbench_log(r, seconds=30) for (e, i), r in RATES.items()}
    )
    if any(x for _, _, x in more or {}):
        extra = (
            "  - regex: 'res_(?P<engine>[a-z]+)_(?P<iops>\\d+)iops_(?P<variant>t\\d+)\\.log'\n"
            + extra
        )
    logs["res_innodb_1000iops_again.log"] = sysbench_log(450, seconds=30)
    arc = tar_gz(tmp_path / "archives" / "d.tar.gz", logs)
    man = tmp_path / "content" / "d" / "manifest.yaml"
    man.parent.mkdir(parents=True, exist_ok=True)
    man.write_text(f"""\
study: d
title: Declared
inputs:
  - {{name: d.tar.gz, kind: archive, sha256: {sha256_file(arc)}, origin: https://example.org/d}}
interval_s: 1
window: {{start: 10, end: 30}}
labels: [engine, iops, variant]
label_types: {{iops: int}}
display: {{engine: {{innodb: InnoDB, rocksdb: MyRocks}}}}
runs:
  - regex: 'res_(?P<engine>[a-z]+)_(?P<iops>\\d+)iops\\.log'
  - regex: 'res_(?P<engine>[a-z]+)_(?P<iops>\\d+)iops_(?P<variant>again)\\.log'
    published: false
{extra}tables:
{tables}""")
    return man
