"""A `runs:` rule that matches a file of several session kinds (a LinkBench log
with both phases, an iostat report) is a `file:line: reason` Problem, not `KeyError: 'session'`;
a hostile directory input is rejected before anything outside it is read."""

from __future__ import annotations

import io
import tarfile

import pytest

from ingest.pipeline import ingest
from ingest.problems import Problem
from ingest.read.archive import sha256_file
from tests.kit.golden import FIXTURES


def study(tmp_path, members: dict[str, bytes], runs: str):
    arc = tmp_path / "archives" / "mini.tar.gz"
    arc.parent.mkdir()
    with tarfile.open(arc, "w:gz") as tf:
        for name, data in members.items():
            info = tarfile.TarInfo(f"mini/{name}")
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    man = tmp_path / "content" / "mini" / "manifest.yaml"
    man.parent.mkdir(parents=True)
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
labels: [name]
runs:
{runs}""")
    return man


@pytest.mark.parametrize(
    "member, data, kinds",
    [
        (
            "both.log",
            (FIXTURES / "linkbench" / "load.log").read_bytes()
            + (FIXTURES / "linkbench" / "request.log").read_bytes(),
            "load, request",
        ),
        ("io.txt", (FIXTURES / "iostat" / "sysstat12.txt").read_bytes(), None),
    ],
)
def test_a_runs_rule_on_several_session_kinds_is_a_problem(tmp_path, member, data, kinds):
    man = study(tmp_path, {member: data}, f"  - glob: '{member}'\n    labels: {{name: x}}\n")
    with pytest.raises(Problem) as e:
        ingest(man, tmp_path / "archives", tmp_path / "studies", tmp_path / "data")
    text = str(e.value)
    assert text.startswith(f"mini.tar.gz/{member}:"), text
    assert "sessions of different kinds" in text and "`session: last`" in text, text
    if kinds:
        assert f"({kinds})" in text
    assert not (tmp_path / "data" / "mini").exists()


def test_session_last_takes_one_of_them(tmp_path):
    both = (FIXTURES / "linkbench" / "load.log").read_bytes() + (
        FIXTURES / "linkbench" / "request.log"
    ).read_bytes()
    man = study(
        tmp_path,
        {"both.log": both},
        "  - glob: 'both.log'\n    labels: {name: x}\n    session: last\n",
    )
    # a window that holds the request phase's intervals (t 10..40 s): a window holding none is an error
    man.write_text(
        man.read_text().replace("window: {start: 1, end: 4}", "window: {start: 0, end: 40}")
    )
    result = ingest(man, tmp_path / "archives", tmp_path / "studies", tmp_path / "data")
    assert result["runs"] == 1


def test_control_characters_never_reach_data(tmp_path):
    """A label with ESC (here from the manifest) is a Problem at its line, escaped (found when
    the manifest is loaded); data/ is not written."""
    log = (FIXTURES / "sysbench1" / "oltp-lua.log").read_bytes()
    man = study(
        tmp_path,
        {"a.log": log},
        "  - glob: 'a.log'\n    id: run-a\n    labels: {name: \"x\\e[31mred\"}\n",
    )
    with pytest.raises(Problem) as e:
        ingest(man, tmp_path / "archives", tmp_path / "studies", tmp_path / "data")
    assert str(e.value).endswith(
        "holds U+001B (a control, line separator or bidi character): "
        "it would reach pages and terminals"
    ) and "\x1b" not in str(e.value), str(e.value)
    assert e.value.line == 14
    assert "\\x1b[31mred" in str(e.value)
    assert not (tmp_path / "data" / "mini").exists()
