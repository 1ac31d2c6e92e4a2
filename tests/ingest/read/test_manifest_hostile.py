"""Hostile and broken manifests: each is one `file:line: reason`
line on stderr and exit 1 from the command line, never a traceback, and data/ keeps its old
pipeline."""

from __future__ import annotations

import tarfile

import pytest

from ingest.__main__ import main
from ingest.read.archive import sha256_file
from tests.kit.study_kit import RUNS, make_study

LONG = "a" * 40


def cli(capsys, tmp_path, study="mini"):
    args = [
        study,
        "--content",
        tmp_path / "content",
        "--archives",
        tmp_path / "archives",
        "--data",
        tmp_path / "data",
        "--studies",
        tmp_path / "studies",
    ]
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def data(tmp_path):
    return {
        p: p.read_bytes()
        for p in (tmp_path / "data").rglob("*")
        if p.is_file() and p.name != ".ingest.lock"
    }


def edit(man, old, new):
    text = man.read_text()
    assert old in text
    man.write_text(text.replace(old, new, 1))


def published_input(tmp_path, man, content: bytes | None):
    """Add a published-tables input `pt.md` (a file with `content`, or a directory)."""
    path = tmp_path / "studies" / "mini" / "pt.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    if content is None:
        path.mkdir()
        (path / "x.md").write_text("# x\n")
        from ingest.read.archive import dir_sha256

        sha = dir_sha256(path)
    else:
        path.write_bytes(content)
        sha = sha256_file(path)
    edit(
        man,
        "interval_s: 1\n",
        f"  - name: pt.md\n    kind: published-tables\n    sha256: {sha}\n"
        f"    origin: https://example.org/pt\ninterval_s: 1\n",
    )


# (what to change in the manifest made by make_study, the line, the reason)
CASES = {
    "nesting 3000 levels": (
        (
            "labels: [name, threads]\n",
            "labels: [name, threads]\nx: " + "[" * 3000 + "]" * 3000 + "\n",
        ),
        11,
        "nesting deeper than 32 levels",
    ),
    "5000-digit integer": (
        ("interval_s: 1\n", "interval_s: " + "1" * 5000 + "\n"),
        8,
        "invalid value '1111",
    ),
    "title: 2020-13-45": (
        ("title: A small study", "title: 2020-13-45"),
        2,
        "invalid value '2020-13-45' (month must be in 1..12)",
    ),
    "display is a list": (
        ("labels: [name", "display: [a, b]\nlabels: [name"),
        10,
        "manifest: `display` must be a mapping, not a list",
    ),
    "display is a string": (
        ("labels: [name", "display: names\nlabels: [name"),
        10,
        "manifest: `display` must be a mapping, not str",
    ),
    "display is an int": (
        ("labels: [name", "display: 3\nlabels: [name"),
        10,
        "manifest: `display` must be a mapping, not int",
    ),
    "display value is a list": (
        ("labels: [name", "display: {name: [a]}\nlabels: [name"),
        10,
        "display: name must be a mapping, not a list",
    ),
    "display name is a list": (
        ("labels: [name", "display: {name: {a: [1]}}\nlabels: [name"),
        10,
        "display: name: a: the display name must be a string",
    ),
    "views: no module": (
        ("labels: [name", "views: common\nlabels: [name"),
        10,
        "study module ingest.derive.studies.common not found",
    ),
    "views: __init__": (
        ("labels: [name", "views: __init__\nlabels: [name"),
        10,
        "views: '__init__' must name a study module",
    ),
    "id attribute": (
        ("  - glob: 'multi.log'\n", "    id: '{name.nosuch}'\n  - glob: 'multi.log'\n"),
        14,
        "runs[0]: id template: {name.nosuch} must be a plain label name",
    ),
    "id index": (
        ("  - glob: 'multi.log'\n", "    id: '{name[x]}'\n  - glob: 'multi.log'\n"),
        14,
        "runs[0]: id template: {name[x]} must be a plain label name",
    ),
    "id conversion": (
        ("  - glob: 'multi.log'\n", "    id: '{name!r}'\n  - glob: 'multi.log'\n"),
        14,
        "runs[0]: id template: {name!r} must be a plain label name",
    ),
    "huge width": (
        ("  - glob: 'multi.log'\n", "    name: '{name:>300000000}'\n  - glob: 'multi.log'\n"),
        14,
        "runs[0]: name template: format spec '>300000000' too wide (widths up to 200)",
    ),
    "nested spec": (
        ("  - glob: 'multi.log'\n", "    name: '{name:{threads}}'\n  - glob: 'multi.log'\n"),
        14,
        "runs[0]: name template: format spec '{threads}' too wide",
    ),
    "run id too long": (
        (
            "  - glob: 'multi.log'\n",
            f"    id: '{{name}}-{{threads}}-{'x' * 300}'\n  - glob: 'multi.log'\n",
        ),
        13,
        "run id 'a-8-xxxx",
    ),
    "NaN interval": (("interval_s: 1\n", "interval_s: .nan\n"), 8, "'.nan' is not a finite number"),
    "inf interval": (("interval_s: 1\n", "interval_s: .inf\n"), 8, "'.inf' is not a finite number"),
    "inf window bound": (
        ("window: {start: 1, end: 4}", "window: {start: 1, end: .inf}"),
        9,
        "'.inf' is not a finite number",
    ),
    "huge window bound": (
        ("window: {start: 1, end: 4}", "window: {start: 1, end: 1.0e+999}"),
        9,
        "'1.0e+999' is not a finite number",
    ),
    "NaN marker time": (
        ("labels: [name", "markers: [{t: .NaN, label: x}]\nlabels: [name"),
        10,
        "'.NaN' is not a finite number",
    ),
    "NaN label": (
        ("    labels: {name: m}", "    labels: {name: m, threads: .nan}"),
        15,
        "'.nan' is not a finite number",
    ),
    "window outside the data": (
        ("window: {start: 1, end: 4}", "window: {start: 1000, end: 2000}"),
        9,
        "window (1000, 2000] holds no interval of run a-8 (a-8.log: t from 1 to",
    ),
    "base no run has": (
        ("labels: [name", "base: {name: zz}\nlabels: [name"),
        10,
        "base {'name': 'zz'}: no run has these labels",
    ),
    "study is not its folder": (
        ("study: mini", "study: victim"),
        1,
        "study 'victim' must equal its folder name 'mini'",
    ),
    "bad regex": (
        ("  - glob: 'multi.log'\n", "  - regex: '(?P<x'\n"),
        14,
        "runs[1]: bad regex (missing > at position 5)",
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_each_bad_manifest_is_one_line_with_its_line(tmp_path, capsys, case):
    (old, new), line, reason = CASES[case]
    man = make_study(tmp_path)
    assert cli(capsys, tmp_path)[0] == 0
    before = data(tmp_path)
    edit(man, old, new)
    code, out, err = cli(capsys, tmp_path)
    assert (code, out) == (1, "")
    assert err.startswith(f"{man}:{line}: {reason}"), err
    assert err.count("\n") == 1 and len(err) < 2500
    assert data(tmp_path) == before


@pytest.mark.parametrize(
    "content, where, reason",
    [
        (b"# t\n\xff\xfe bad\n", "studies/mini/pt.md:2", "not UTF-8 text (byte 0xff at offset 4)"),
        (
            None,
            "content/mini/manifest.yaml:8",
            "input pt.md: a published-tables input must be a file",
        ),
    ],
)
def test_published_tables_input_not_utf8_or_a_directory(tmp_path, capsys, content, where, reason):
    man = make_study(tmp_path)
    published_input(tmp_path, man, content)
    code, out, err = cli(capsys, tmp_path)
    assert (code, out) == (1, "")
    assert err.startswith(f"{tmp_path}/{where}: {reason}"), err


def test_a_pattern_over_its_time_budget_is_reported(tmp_path, capsys):
    slow = tarfile.TarInfo(f"mini/{LONG}")  # (a|aa)+b backtracks 2^40 ways on it
    man = make_study(tmp_path, runs="  - regex: '(a|aa)+b'\n" + RUNS, archive_members=[slow])
    code, out, err = cli(capsys, tmp_path)
    assert (code, out) == (1, "")
    assert err == f"{man}:13: pattern '(a|aa)+b' too slow (over 0.1 s on '{LONG}'); simplify it\n"


def test_all_with_two_manifests_naming_one_study_names_both(tmp_path, capsys):
    man = make_study(tmp_path)
    other = tmp_path / "content" / "copy" / "manifest.yaml"
    other.parent.mkdir()
    other.write_text(man.read_text())
    code, out, err = cli(capsys, tmp_path, "all")
    assert (code, out) == (1, "")
    assert err == f"{man}:1: study 'mini' is also named by {other}:1\n"
    assert not (tmp_path / "data" / "mini").exists()


def test_single_study_named_after_another_folder_cannot_overwrite_it(tmp_path, capsys):
    make_study(tmp_path)
    assert cli(capsys, tmp_path)[0] == 0
    before = data(tmp_path)
    evil = tmp_path / "content" / "s" / "manifest.yaml"
    evil.parent.mkdir()
    evil.write_text(
        (tmp_path / "content" / "mini" / "manifest.yaml")
        .read_text()
        .replace("window: {start: 1,", "window: {start: 2,")
    )
    code, out, err = cli(capsys, tmp_path, "s")
    assert (code, err) == (1, f"{evil}:1: study 'mini' must equal its folder name 's'\n")
    assert data(tmp_path) == before


def test_an_unforeseen_error_is_one_line_exit_3(tmp_path, capsys, monkeypatch):
    make_study(tmp_path)
    from ingest import pipeline

    def bug(*a, **k):
        raise ZeroDivisionError("division by zero\nforged line")

    monkeypatch.setattr(pipeline, "build_files", bug)
    code, out, err = cli(capsys, tmp_path)
    assert (code, out, err) == (
        3,
        "",
        "internal error, please report: ZeroDivisionError: division by zero\\x0aforged line\n",
    )


def test_ctrl_c_is_one_line_exit_130(tmp_path, capsys, monkeypatch):
    make_study(tmp_path)
    from ingest import pipeline

    def interrupt(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(pipeline, "build_files", interrupt)
    code, out, err = cli(capsys, tmp_path)
    assert (code, out, err) == (130, "", f"interrupted; {tmp_path / 'data' / 'mini'} unchanged\n")


def test_label_types_of_the_wrong_type_and_a_huge_manifest(tmp_path, capsys):
    man = make_study(tmp_path)
    edit(man, "label_types: {threads: int}", "label_types: {threads: [int]}")
    code, out, err = cli(capsys, tmp_path)
    assert (code, err) == (
        1,
        f"{man}:11: label_types: threads: type must be one of str, int, float\n",
    )
    man.write_text(man.read_text() + "# " + "x" * (1 << 20) + "\n")
    code, out, err = cli(capsys, tmp_path)
    assert (code, err) == (1, f"{man}: larger than 1048576 bytes (a manifest is a few KB)\n")
