"""my.cnf and SHOW GLOBAL VARIABLES: golden fixtures, errors, the real captures, settings_diff."""

import re

import pytest

from ingest.parse import by_name, detect
from ingest.parse.mycnf import settings_diff
from ingest.problems import Problem
from tests.kit.golden import FIXTURES, archive_text, check_golden, golden_cases

MYCNF, GV = by_name("mycnf"), by_name("global-variables")
SYSBENCH = (
    "mdcallag-sysbench-dec2020-innodb-inmem.tar.gz",
    "mdcallag-sysbench-dec2020-innodb-inmem",
)
VERSIONS = ("5649", "5731", "8018", "8021", "8022")


@pytest.mark.parametrize("path", golden_cases("mycnf"), ids=lambda p: p.name)
def test_golden(path):
    check_golden(path)


@pytest.mark.parametrize(
    "case, parser, line, reason",
    [
        ("no-group.cnf", MYCNF, 1, "option before any [group] header"),
        ("bad-group.cnf", MYCNF, 1, "unreadable option group header"),
        ("broken.gv", GV, 3, "expected 'name<TAB>value'"),
    ],
)
def test_errors(case, parser, line, reason):
    path = FIXTURES / "mycnf" / case
    with pytest.raises(Problem, match=re.escape(reason)) as err:
        parser.parse(path.read_text(), path.name)
    assert (err.value.file, err.value.line) == (case, line)


@pytest.mark.parametrize(
    "case, parser", [("server.cnf", MYCNF), ("tabbed.gv", GV), ("boxed.gv", GV)]
)
def test_detect(case, parser):
    assert detect((FIXTURES / "mycnf" / case).read_text())[0] is parser


def test_settings_diff():
    runs = {
        "a": {"x": "1", "y": "ON", "z": "2"},
        "b": {"x": "1", "y": "OFF"},
        "c": {"x": "1", "y": "ON", "z": "2"},
    }
    assert settings_diff(runs) == [
        {"key": "y", "values": {"a": "ON", "b": "OFF", "c": "ON"}},
        {"key": "z", "values": {"a": "2", "b": None, "c": "2"}},
    ]
    assert settings_diff({}) == []


def _real_cnf(version):
    text = archive_text(SYSBENCH[0], f"{SYSBENCH[1]}/my.cnf.cx6d.{version}")
    return text, MYCNF.parse(text, f"my.cnf.cx6d.{version}").settings


def test_real_sysbench_cnfs():
    """Every uncommented key=value line is a setting; the diff lists exactly the keys not shared."""
    runs = {}
    for v in VERSIONS:
        text, settings = _real_cnf(v)
        assignments = re.findall(r"^([A-Za-z][\w-]*)=", text, re.M)
        server = [a for a in assignments if not a.startswith("malloc")]
        assert set(settings) - {"mysqld_safe.malloc_lib"} == {a.replace("-", "_") for a in server}
        runs[v] = settings
    diff = {d["key"]: d["values"] for d in settings_diff(runs)}
    shared = set.intersection(*(set(s) for s in runs.values()))
    assert all(len({runs[v][k] for v in VERSIONS}) == 1 for k in shared - set(diff))
    # the facts sheet: eq_range_index_dive_limit=10 in every version, so it is not a difference
    assert "eq_range_index_dive_limit" not in diff and {
        runs[v]["eq_range_index_dive_limit"] for v in VERSIONS
    } == {"10"}
    assert (
        diff["innodb_checksum_algorithm"]["5649"] == "crc32"
        and diff["innodb_checksum_algorithm"]["8022"] is None
    )


def test_real_global_variables():
    text = archive_text(
        "mdcallag-linkbench-2017-inno5717-2m.tar.gz", "mdcallag-linkbench-2017-inno5717-2m/l.gv.in"
    )
    settings = GV.parse(text, "l.gv.in").settings
    assert len(settings) == len(text.splitlines()) - 1
    assert settings["version"].startswith("5.7.17")
    assert int(settings["innodb_buffer_pool_size"]) > 0


def test_real_cloud_mycnf():
    text = archive_text(
        "percona-201807-rocksdb-cloud.tar.gz", "percona-201807-rocksdb-cloud/my.cnf"
    )
    settings = MYCNF.parse(text, "my.cnf").settings
    assert settings["binlog_format"] == "ROW"  # quotes removed
    assert settings["skip_innodb"] == "ON"  # a bare flag
    assert "rocksdb_rate_limiter_bytes_per_sec" not in settings  # commented out
    assert "compression=kLZ4Compression" in settings["rocksdb_default_cf_options"]
    assert settings["client.socket"] == settings["socket"]
