"""The whole manifest is checked before any input is read: each mistake below is one
`manifest:line: reason`, found by `load()` alone, so it wins over an archive that is not even
there, and the run-dependent work (3^16 rows for a label named 16 times) never starts."""

from __future__ import annotations

import pytest
import yaml

from ingest.derive import declared
from ingest.pipeline import ingest
from ingest.problems import Problem
from ingest.read.manifest import load
from ingest.write import datadir
from tests.kit.study_kit import make_declared

TABLE = "  - {id: x, rows: [engine], value: {key: v, label: V, stat: mean}}"

# (what replaces TABLE in the manifest of test_declared.make, the line, the reason)
CASES = {
    "a label named 16 times in rows": (
        "  - {id: x, rows: ["
        + ", ".join(["iops"] * 16)
        + "], value: {key: v, label: V, stat: mean}}",
        15,
        "tables[0] (x): rows: 'iops' is named twice",
    ),
    "a repeated order value": (
        "  - id: x\n    rows: [iops]\n    order: {iops: [1000, 2000, 1000]}\n"
        "    value: {key: v, label: V, stat: mean}",
        17,
        "tables[0] (x).order: iops: '1000' is listed twice (each value is one row)",
    ),
    "the pivot in rows too": (
        "  - {id: x, rows: [engine], pivot: engine, value: {key: v, label: V, stat: mean}}",
        15,
        "tables[0] (x): pivot 'engine' is also in rows",
    ),
    "value.digits -3": (
        "  - {id: x, rows: [engine], value: {key: v, label: V, stat: mean, digits: -3}}",
        15,
        "tables[0] (x).value: digits must be from 0 to 15, not -3",
    ),
    "value.digits 1000": (
        "  - {id: x, rows: [engine], value: {key: v, label: V, stat: mean, digits: 1000}}",
        15,
        "tables[0] (x).value: digits must be from 0 to 15, not 1000",
    ),
    "ratio.round 99": (
        "  - id: x\n    rows: [iops]\n    pivot: engine\n    value: {key: v, label: V, stat: mean}\n"
        "    ratio: {key: r, label: R, base: {engine: innodb}, round: 99}",
        19,
        "tables[0] (x).ratio: round must be from -15 to 15, not 99",
    ),
    "a table id with a trailing newline": (
        '  - {id: "x\\n", rows: [engine], value: {key: v, label: V, stat: mean}}',
        15,
        r"tables[0]: id 'x\\x0a' must be lowercase letters, digits and dashes",
    ),
    "a value label with U+202E": (
        '  - {id: x, rows: [engine], value: {key: v, label: "V\\u202e", stat: mean}}',
        15,
        r"tables[0] (x).value: label: 'V\u202e' holds U+202E",
    ),
    "a column heading with U+2028": (
        '  - {id: x, rows: [engine], columns: {engine: "E\\u2028"}, value: {key: v, label: V, stat: mean}}',
        15,
        r"tables[0] (x): columns: engine: 'E\u2028' holds U+2028",
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_a_table_mistake_is_found_at_load_before_the_archive(tmp_path, case):
    table, line, reason = CASES[case]
    man = make_declared(tmp_path, table + "\n")
    (tmp_path / "archives" / "d.tar.gz").unlink()  # the inputs are not even read
    with pytest.raises(Problem) as e:
        load(man)
    assert (e.value.file, e.value.line) == (str(man), line), str(e.value)
    assert e.value.reason.startswith(reason), e.value.reason
    with pytest.raises(Problem) as e:
        ingest(man, tmp_path / "archives", tmp_path / "studies", tmp_path / "data")
    assert e.value.reason.startswith(reason)
    assert not (tmp_path / "data").exists()


def test_a_table_of_too_many_rows_is_refused_before_they_are_computed(tmp_path, monkeypatch):
    man = make_declared(
        tmp_path, "  - {id: x, rows: [engine, iops], value: {key: v, label: V, stat: mean}}\n"
    )
    monkeypatch.setattr(declared, "MAX_ROWS", 5)  # 2 engines x 3 iops = 6 rows
    with pytest.raises(Problem) as e:
        ingest(man, tmp_path / "archives", tmp_path / "studies", tmp_path / "data")
    assert (
        str(e.value)
        == f"{man}:15: tables[0] (x): 6 rows (every combination of engine, iops): more than 5"
    )


OTHER = {  # (old text of make_declared()'s manifest, new text, line, reason)
    "a study name with a trailing newline": (
        "study: d\n",
        'study: "d\\n"\n',
        1,
        r"study 'd\n' must be a slug",
    ),
    "a run id with a trailing newline": (
        "    published: false\n",
        '    published: false\n    id: "again\\n"\n',
        12,
        r"run id 'again\\x0a' (from res_innodb_1000iops_again.log) is not a slug",
    ),
    "a label value with a newline": (
        "    published: false\n",
        '    published: false\n    labels: {variant: "ra\\n"}\n',
        14,
        r"runs[1]: label variant: 'ra\x0a' holds U+000A",
    ),
    "label_names with U+202E": (
        "display: {engine:",
        'label_names: {engine: "Engine\\u202e"}\ndisplay: {engine:',
        9,
        r"label_names: engine: 'Engine\u202e' holds U+202E",
    ),
    "a display name with U+2028": (
        "rocksdb: MyRocks}}",
        'rocksdb: "My\\u2028Rocks"}}',
        9,
        r"display: engine: rocksdb: 'My\u2028Rocks' holds U+2028",
    ),
    "display of a label that is not a mapping": (
        "display: {engine: {innodb: InnoDB, rocksdb: MyRocks}}",
        "display: {engine: names}",
        9,
        "display: engine must be a mapping, not str",
    ),
    "a table id declared in two sections": (
        "tables:",
        "file_tables:\n  - {id: x, file: f.txt, table: t}\ntables:",
        17,
        "table 'x' is already declared at line 15",
    ),
    "a quoted value with an escape character": (
        "tables:",
        'quoted:\n  said:\n    - {engine: innodb, tps: "12\\e[31m"}\ntables:',
        16,
        r"quoted: said[0]: tps: '12\x1b[31m' holds U+001B",
    ),
}


@pytest.mark.parametrize("case", OTHER)
def test_other_mistakes_are_a_manifest_line(tmp_path, case):
    old, new, line, reason = OTHER[case]
    man = make_declared(tmp_path, TABLE + "\n")
    text = man.read_text()
    assert old in text
    man.write_text(text.replace(old, new, 1))
    with pytest.raises(Problem) as e:
        ingest(man, tmp_path / "archives", tmp_path / "studies", tmp_path / "data")
    assert (e.value.file, e.value.line) == (str(man), line), str(e.value)
    assert e.value.reason.startswith(reason), e.value.reason
    assert not (tmp_path / "data" / "d").exists()


@pytest.mark.parametrize("text", ["ra\n", "a\n", "x y\n", "ra\r", "end\u2028"])
def test_the_yaml_writer_quotes_a_string_with_a_line_end(text):
    out = datadir.dump({"k": text, "l": [text]})
    assert out.count("\n") == 2  # one line each: the line end is escaped
    assert yaml.safe_load(out) == {"k": text, "l": [text]}


def test_ingest_new_refuses_a_study_name_with_a_trailing_newline(tmp_path, capsys):
    """The scaffold checks the name with the manifest's SLUG: `$` let `content/abc\\n/` be made."""
    from ingest.__main__ import main
    from tests.kit.sysbench_gen import sysbench_log, tar_gz

    arc = tar_gz(tmp_path / "a.tar.gz", {"a.log": sysbench_log(100, seconds=3)})
    assert main(["new", "abc\n", str(arc), "--content", str(tmp_path / "content")]) == 1
    assert "must be a slug" in capsys.readouterr().err
    assert not (tmp_path / "content").exists()


def test_the_manifest_yaml_is_read_by_the_manifest_module_alone():
    """Every section is parsed at load (ingest/read/manifest.py): no later step reads the YAML
    again, so nothing is validated after an input is read."""
    import ast
    from pathlib import Path

    ingest_dir = Path(__file__).resolve().parents[3] / "ingest"
    callers = set()
    for path in ingest_dir.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and "load_yaml" in ast.unparse(node.func):
                callers.add(path.relative_to(ingest_dir).as_posix())
    assert callers == {"read/manifest.py"}
