"""Property-based fuzzing with Hypothesis. The real-format fixtures of every
parser (tests/fixtures/<format>/) and the real manifests (content/posts/*/manifest.yaml) are
mutated the way a damaged or hostile file is (one changed byte or digit, a number of 400 or
4,400 digits, Unicode digits, lines swapped, duplicated or cut, random bytes): the only
exception that may escape is the project's own `Problem`. The hostile-input round added the classes it did not
reach: PAX records of any sign and digits, regexes of nested counted repeats, declared tables
against the manifest's limits, values with a trailing newline or a bidi character.

`make test` runs a bounded, derandomized number of examples (reproducible in CI). For a long
randomized run: `HYPOTHESIS_PROFILE=long .venv/bin/pytest -q tests/ingest/parse/test_fuzz.py` (docs/formats.md).
Inputs that once crashed are kept as plain regression tests: tests/fixtures/crashers/ and
`test_crasher`.
"""

from __future__ import annotations

import os
import tarfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ingest.parse import MODULES
from ingest.parse.member import parse_bytes
from ingest.problems import Problem
from ingest.read.manifest import load

pytestmark = pytest.mark.slow  # Hypothesis runs hundreds of inputs per parser

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "tests" / "fixtures"
CRASHERS = FIXTURES / "crashers"

settings.register_profile(
    "default",
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "long",
    max_examples=3000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
PROFILE = settings.get_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

FORMATS = [name for names in MODULES.values() for name in names]
# formats whose fixtures live in another format's folder, by file extension
SHARED_DIRS = {"global-variables": ("mycnf", ".gv"), "mycnf": ("mycnf", ".cnf")}


def fixtures_of(fmt: str) -> list[Path]:
    folder, ext = SHARED_DIRS.get(fmt, (fmt, ""))
    d = FIXTURES / folder
    if not d.is_dir():
        return []
    return sorted(
        p for p in d.iterdir() if p.is_file() and p.suffix != ".yaml" and p.name.endswith(ext)
    )


def test_every_format_has_fixtures_to_fuzz():
    assert {fmt for fmt in FORMATS if not fixtures_of(fmt)} == set()


# -- mutations ---------------------------------------------------------------------------------
DIGITS = st.sampled_from(
    [
        "9" * 400,
        "1" * 4400,
        "\u0663",
        "\uff17",
        "95..1",
        "1.1.00",
        "99.9.",
        "5.0",
        "-",
        "0",
        "1e999",
        "nan",
        "inf",
        "-0",
        ".",
        "\u00b2",  # a superscript: isdigit() but not int()
        "\u0661\u0662",
        "+7",
        "1_000",
        "1" + "0" * 309,  # a whole number past a float's range: OverflowError once
        "9" * 41,
        "12345678901234567",  # past 2^53: kept exact
        "\u0663\u0664\u0663",
    ]
)
JUNK = st.binary(min_size=1, max_size=8) | st.sampled_from(
    [b"\x00", b"\xff", b"\r", b"\n", b"\t", b"%", b"|", b"\xe2\x80\xa8", b"=", b":", b"#"]
)


@st.composite
def mutated(draw, data: bytes) -> bytes:
    """`data` with one to three mutations."""
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["digit", "byte", "insert", "delete", "lines", "cut"]))
        n = len(data)
        at = draw(st.integers(0, max(0, n - 1)))
        if kind == "digit":
            digits = [i for i, c in enumerate(data) if 48 <= c <= 57] or [at]
            i = draw(st.sampled_from(digits))
            data = data[:i] + draw(DIGITS).encode() + data[i + 1 :]
        elif kind == "byte":
            data = data[:at] + draw(JUNK)[:1] + data[at + 1 :]
        elif kind == "insert":
            data = data[:at] + draw(JUNK) + data[at:]
        elif kind == "delete":
            data = data[:at] + data[at + draw(st.integers(1, 40)) :]
        elif kind == "lines":
            lines = data.split(b"\n")
            i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            how = draw(st.sampled_from(["swap", "dup", "drop"]))
            if how == "swap":
                lines[i], lines[j] = lines[j], lines[i]
            elif how == "dup":
                lines.insert(j, lines[i])
            else:
                del lines[i]
            data = b"\n".join(lines)
        else:
            data = data[:at]
    return data


def parses_or_problem(data: bytes, name: str, fmt: str):
    try:
        parse_bytes(data, name, fmt)
    except Problem as e:
        text = str(e)
        assert "\n" not in text and len(text) < 2000, text


@pytest.mark.parametrize("fmt", FORMATS)
def test_mutated_fixtures_parse_or_raise_problem(fmt):
    files = fixtures_of(fmt)
    if not files:
        pytest.skip(f"no fixture for {fmt}")  # test_every_format_has_fixtures_to_fuzz fails instead
    originals = {p.name: p.read_bytes() for p in files}

    @PROFILE
    @given(
        st.sampled_from(sorted(originals)).flatmap(
            lambda n: st.tuples(st.just(n), mutated(originals[n]))
        ),
        st.sampled_from([fmt, "auto"]),
    )
    def check(case, use):
        name, data = case
        parses_or_problem(data, name, use)

    check()


# -- generated query, sar and summary-table files -------------------------------------------------
# Files written from parts, each part drawn from what a hostile file holds: numbers of any
# length, digits of other scripts, names with controls, bidi characters or shortcodes, a
# column named twice. Whatever parses holds only bounded, finite numbers and printable names.
TOKENS = DIGITS | st.sampled_from(["12", "3.5", "0", "-1", "N/A", "x"])
NAMES = st.sampled_from(
    ["%user", "%iowait", "kbmemfree", "%user", "a\x1bb", "\u202eq", "{{<x>}}", "CPU", "7-opt"]
) | st.text(
    alphabet=st.characters(codec="utf-8", exclude_characters="\n\r\t "), min_size=1, max_size=12
)


def parsed_is_clean(parsed) -> None:
    from ingest.parse.values import MAX_WHOLE
    from ingest.read.fields import DISPLAY_BAD

    for s in parsed.sessions:
        for name, values in s.series.items():
            assert not DISPLAY_BAD.search(name), name
            for v in values:
                assert v is None or isinstance(v, str) or abs(v) <= MAX_WHOLE, (name, v)
    for t in parsed.tables:
        assert len(set(t.columns)) == len(t.columns), t.columns
        for row in t.rows:
            for v in row.values():
                if isinstance(v, int) and not isinstance(v, bool):
                    assert abs(v) <= MAX_WHOLE, v
                elif isinstance(v, float):
                    assert v == v and abs(v) != float("inf"), v
        if "query" in t.columns:
            assert all(not DISPLAY_BAD.search(str(r["query"])) for r in t.rows)


def parses_clean_or_problem(text: str, name: str, fmt: str) -> None:
    try:
        parsed = parse_bytes(text.encode("utf-8", "surrogatepass"), name, fmt)
    except Problem as e:
        assert "\n" not in str(e) and len(str(e)) < 2000, str(e)
        return
    except UnicodeEncodeError:
        return
    parsed_is_clean(parsed)


@PROFILE
@given(
    st.lists(NAMES, min_size=2, max_size=5),
    st.lists(st.lists(TOKENS, min_size=1, max_size=6), max_size=4),
    TOKENS,
)
def test_generated_sar_reports_parse_clean_or_raise_problem(header, rows, cpus):
    text = (
        f"Linux 6.1.0 (db) \t03/04/2025 \t_x86_64_\t({cpus} CPU)\n\n10:00:00 {' '.join(header)}\n"
    )
    text += "".join(f"10:00:{i + 1:02d} {' '.join(r)}\n" for i, r in enumerate(rows))
    parses_clean_or_problem(text, "sar.txt", "sar")


@PROFILE
@given(st.lists(st.tuples(NAMES | DIGITS, TOKENS, TOKENS), min_size=1, max_size=4))
def test_generated_query_files_parse_clean_or_raise_problem(runs):
    text = "".join(
        f"===== {q}_explain.sql Run No: {k} =====\nSTARTUP_PARAMS: \n\n--- Explain result ---\n"
        "+----+-------------+\n| id | select_type |\n+----+-------------+\n"
        "|  1 | SIMPLE      |\n+----+-------------+\n"
        f"--- Time elapsed ---\n{t}\n\n"
        for q, k, t in runs
    )
    parses_clean_or_problem(text, "all_explains.txt", "dbt3-explains")


@PROFILE
@given(
    st.lists(NAMES, min_size=2, max_size=4),
    st.lists(st.lists(TOKENS, min_size=2, max_size=4), min_size=1, max_size=4),
)
def test_generated_summary_tables_parse_clean_or_raise_problem(header, rows):
    text = "Disk A\n" + "\t".join(header) + "\n" + "".join("\t".join(r) + "\n" for r in rows)
    parses_clean_or_problem(text, "t.txt", "summary-table")


@PROFILE
@given(TOKENS | st.text(max_size=50))
def test_read_number_gives_a_bounded_finite_number_or_a_value_error(text):
    from ingest.parse.values import MAX_WHOLE, read_number

    try:
        value = read_number(text)
    except ValueError:
        return
    assert text.strip().isascii()
    assert (isinstance(value, int) and abs(value) <= MAX_WHOLE) or (
        isinstance(value, float) and value == value and abs(value) != float("inf")
    )


@PROFILE
@given(st.text(max_size=5000) | st.just("1" * 4301))
def test_the_natural_sort_key_of_any_query_name(name):
    from ingest.join.queries import natural

    sorted([name, "1", "12", "7-opt"], key=natural)


# -- the manifest loader ------------------------------------------------------------------------
MANIFESTS = sorted((ROOT / "content" / "posts").glob("*/manifest.yaml"))
YAML_JUNK = st.sampled_from(
    [
        b"[",
        b"{",
        b"]",
        b"'",
        b'"',
        b"&a",
        b"*a",
        b"!!python/object:os.system",
        b"- ",
        b"9" * 5000,
        b"2020-13-45",
        b"[" * 3000,
        b"~",
        b"null",
        b"\t",
        b": ",
        b"\xff",
        b"'{name.nosuch}'",
        b"'{name[x]}'",
        b"common",
        b"__init__",
        b"nan",
        b".inf",
        b'"ra\\n"',  # trailing newlines and separators: `$` accepted them
        b'"x\\r"',
        b'"a\\u2028"',
        b'"\\u202eevil"',
        b"-3",
        b"1000",
        b"'a{1000000000}'",
        b"'((a{1000}){1000}){1000}'",
        b"[a, a, a, a]",
    ]
)


@st.composite
def mutated_manifest(draw, data: bytes) -> bytes:
    for _ in range(draw(st.integers(1, 3))):
        lines = data.split(b"\n")
        i = draw(st.integers(0, len(lines) - 1))
        line = lines[i]
        how = draw(st.sampled_from(["value", "insert", "drop", "dup", "byte"]))
        if how == "value" and b": " in line:
            key = line.split(b": ", 1)[0]
            lines[i] = key + b": " + draw(YAML_JUNK)
        elif how == "insert":
            at = draw(st.integers(0, len(line)))
            lines[i] = line[:at] + draw(YAML_JUNK) + line[at:]
        elif how == "drop":
            del lines[i]
        elif how == "dup":
            lines.insert(i, line)
        else:
            at = draw(st.integers(0, max(0, len(line) - 1)))
            lines[i] = line[:at] + draw(JUNK)[:1] + line[at + 1 :]
        data = b"\n".join(lines)
    return data


@pytest.mark.parametrize("manifest", MANIFESTS, ids=lambda p: p.parent.name)
def test_mutated_manifests_load_or_raise_problem(manifest, tmp_path):
    original = manifest.read_bytes()
    target = tmp_path / manifest.parent.name / "manifest.yaml"
    target.parent.mkdir()

    @PROFILE
    @given(mutated_manifest(original))
    def check(data):
        target.write_bytes(data)
        try:
            m = load(target)
        except Problem as e:
            assert "\n" not in str(e) and len(str(e)) < 3000, str(e)
            assert e.line is not None or "manifest" not in e.reason, str(e)
            return
        loaded_is_clean(m)

    check()


def loaded_is_clean(m):
    """What a manifest that loads may hold: names without a trailing line
    end, display strings without controls or bidi characters, bounded patterns and digits."""
    from ingest.read.fields import DISPLAY_BAD, SLUG
    from ingest.read.patterns import MAX_PATTERN_UNITS, pattern_units

    assert SLUG.fullmatch(m.study)
    for text in [
        m.title,
        *m.label_names.values(),
        *(str(v) for r in m.runs for v in r.labels.values()),
    ]:
        assert not DISPLAY_BAD.search(text), text
    for rule in [*m.runs, *m.files]:
        assert pattern_units(rule.pattern.pattern) <= MAX_PATTERN_UNITS
    for t in m.tables:
        assert len(set(t.rows_by)) == len(t.rows_by)
        for sv in t.values:
            assert sv["digits"] is None or 0 <= sv["digits"] <= 15


# -- regression corpus: inputs that once crashed -------------------------------------------------
def crashers() -> list[Path]:
    return (
        sorted(p for p in CRASHERS.iterdir() if not p.name.endswith(".expected"))
        if CRASHERS.is_dir()
        else []
    )


@pytest.mark.parametrize("path", crashers(), ids=lambda p: p.name)
def test_crasher(path):
    """Each file once ended in a traceback; now it is a `file:line: reason` Problem, or parses.
    Name: `<format>--<what>.<ext>` (`manifest--<what>.yaml` for the manifest loader);
    `<name>.expected` beside it holds the expected message."""
    fmt = path.name.split("--", 1)[0]
    expected = path.with_name(path.name + ".expected")
    with pytest.raises(Problem) as e:
        if fmt == "manifest":  # `manifest--<what>.yaml`: a manifest that once crashed the loader
            load(path)
        else:
            parse_bytes(path.read_bytes(), path.name, fmt)
    assert str(e.value).replace(str(path), path.name) == expected.read_text().strip()


# -- the archive reader ------------------------------------------------------------------------
def _small_archives(tmp: Path) -> dict[str, bytes]:
    import io
    import tarfile
    import zipfile

    files = {"r/a.log": b"alpha\n", "r/sub/b.log": b"beta\n" * 20}
    out = {}
    for fmt, name in ((tarfile.GNU_FORMAT, "gnu.tar"), (tarfile.PAX_FORMAT, "pax.tar")):
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w", format=fmt) as tf:
            for n, data in files.items():
                info = tarfile.TarInfo(n)
                info.size = len(data)
                tf.addfile(info, io.BytesIO(data))
            link = tarfile.TarInfo("r/l")
            link.type, link.linkname = tarfile.SYMTYPE, "a.log"
            tf.addfile(link)
        out[name] = buf.getvalue()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for n, data in files.items():
            zf.writestr(n, data)
    out["small.zip"] = buf.getvalue()
    return out


def test_mutated_archives_read_or_raise_problem(tmp_path):
    from ingest.read.archive import Archive, Limits

    originals = _small_archives(tmp_path)
    limits = Limits(members=50, total_bytes=1 << 20, header_bytes=4096)

    @PROFILE
    @given(
        st.sampled_from(sorted(originals)).flatmap(
            lambda n: st.tuples(st.just(n), mutated(originals[n]))
        )
    )
    def check(case):
        name, data = case
        path = tmp_path / name
        path.write_bytes(data)
        try:
            Archive(path, limits)
        except Problem as e:
            assert "\n" not in str(e) and len(str(e)) < 2000, str(e)

    check()


# -- PAX fields and signs, counted repeats, manifests with limits ---------------------
PAX_VALUES = st.one_of(
    st.integers(-(2**70), 2**70).map(str),
    st.sampled_from(["+5", " 5", "5 ", "0x10", "1e3", "5_0", "\u0663", "\u00b2", "", "-0"]),
    st.sampled_from(["9" * 25, "-1099511627776", "1048577", "\u0661\u0662"]),
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=12),
)


def test_pax_records_of_any_sign_and_digits_read_or_raise_problem(tmp_path):
    """A PAX `size` (or path, linkpath, ...) of any sign, digits or text before a member: read
    within the limits, or a Problem; never a byte budget moved by a declared size."""
    from bench.archive_bombs import BLOCK, pax_header, tar_header
    from ingest.read.archive import Archive, Limits

    limits = Limits(members=20, total_bytes=4096, header_bytes=2048, member_bytes=2048)

    @PROFILE
    @given(
        st.sampled_from(["size", "path", "linkpath", "mtime", "comment"]),
        PAX_VALUES,
        st.integers(0, 3000),
        st.binary(max_size=600),
        st.integers(1, 6),
    )
    def check(key, value, declared, data, links):
        blocks = [pax_header({key: value}), tar_header("r/a.log", tarfile.REGTYPE, declared)]
        blocks.append(data + b"\0" * (-len(data) % BLOCK))
        blocks += [_link(f"r/l{i}", "r/a.log") for i in range(links)]
        path = tmp_path / "p.tar"
        path.write_bytes(b"".join(blocks) + b"\0" * BLOCK * 2)
        try:
            arc = Archive(path, limits)
        except Problem as e:
            assert "\n" not in str(e) and len(str(e)) < 2000, str(e)
            return
        assert sum(len(arc.read(n)) for n in arc.names()) <= limits.total_bytes
        assert all(len(arc.read(n)) <= limits.member_bytes for n in arc.names())

    check()


def _link(name: str, target: str) -> bytes:
    info = tarfile.TarInfo(name)
    info.type, info.linkname = tarfile.LNKTYPE, target
    return info.tobuf(tarfile.GNU_FORMAT)


COUNTS = st.sampled_from([0, 1, 2, 7, 99, 1000, 4000, 100_000, 10**9, 10**25])


@st.composite
def patterns(draw, depth: int = 0) -> str:
    """Regexes of nested groups, alternatives and counted repeats (`{m}`, `{m,n}`, `{,n}`)."""
    parts = []
    for _ in range(draw(st.integers(1, 3))):
        if depth < 3 and draw(st.booleans()):
            atom = "(" + draw(patterns(depth + 1)) + ")"
        else:
            atom = draw(st.sampled_from(["a", "[a-z]", r"\d", ".", "(?:ab)", r"\p{L}", "x|y"]))
        m, n = draw(COUNTS), draw(COUNTS)
        q = draw(
            st.sampled_from(
                ["", "*", "+", "?", f"{{{m}}}", f"{{{m},{n}}}", f"{{,{n}}}", f"{{{m},}}"]
            )
        )
        parts.append(atom + q)
    return draw(st.sampled_from(["", "^"])) + "".join(parts)


def test_counted_repeats_load_bounded_or_raise_problem(tmp_path):
    """A rule's regex of any nesting of counted repeats: a `manifest:line` Problem, or a pattern
    of at most MAX_PATTERN_UNITS (compiled within a few MB); never MemoryError."""
    target = tmp_path / "s" / "manifest.yaml"
    target.parent.mkdir()

    @PROFILE
    @given(patterns())
    def check(pattern):
        target.write_text(MINIMAL.format(rule="regex: '" + pattern.replace("'", "''") + "'"))
        try:
            m = load(target)
        except Problem as e:
            assert e.line is not None and "\n" not in str(e), str(e)
            return
        loaded_is_clean(m)

    check()


MINIMAL = """\
study: s
title: S
inputs:
  - {{name: s.tar.gz, kind: archive, sha256: {sha}, origin: https://example.org/s}}
interval_s: 1
window: {{start: 1, end: 9}}
labels: [engine, iops]
runs:
  - {rule}
""".replace("{sha}", "0" * 64)

TABLES = st.fixed_dictionaries(
    {
        "rows": st.lists(st.sampled_from(["engine", "iops", "run", "nope"]), max_size=20),
        "order": st.dictionaries(
            st.sampled_from(["engine", "iops"]),
            st.lists(st.sampled_from(["1", "2", "innodb", "\u0663", "x\n"]), max_size=6),
            max_size=2,
        ),
        "digits": st.sampled_from([None, -3, 0, 2, 15, 16, 1000, 10**30]),
        "round": st.sampled_from([None, -16, -2, 4, 99]),
        "pivot": st.sampled_from([None, "engine", "iops", "nope"]),
    }
)


def test_declared_tables_with_limits_load_or_raise_problem(tmp_path):
    """`tables:` of repeated rows, repeated order values, digits and rounds of any size: a
    `manifest:line` Problem at load (before any archive is read), or a table within the limits."""
    import json

    target = tmp_path / "s" / "manifest.yaml"
    target.parent.mkdir()

    @PROFILE
    @given(TABLES)
    def check(t):
        value = {"key": "v", "label": "V", "stat": "mean"}
        value.update({k: t[k] for k in ("digits", "round") if t[k] is not None})
        table = {"id": "x", "rows": t["rows"], "value": value}
        if t["order"]:
            table["order"] = t["order"]
        if t["pivot"]:
            table["pivot"] = t["pivot"]
        text = MINIMAL.format(rule="glob: '*.log'") + "tables:\n  - " + json.dumps(table) + "\n"
        target.write_text(text)
        try:
            m = load(target)
        except Problem as e:
            assert e.line is not None and "\n" not in str(e), str(e)
            return
        loaded_is_clean(m)
        for spec in m.tables:
            for values in spec.order.values():
                assert len({str(x) for x in values}) == len(values)

    check()
