"""Every number a post shows comes from data/, as the templates render it: each rendered table
cell is its data/ value formatted with the column's digits (same rows, same order, nothing
added or dropped), each number quoted in prose by the `value` shortcode is the text recomputed
here from data/ for that shortcode, and each table's CSV has one line per data row. Uses the
session's one site build. (That no other number is typed into the prose is make build's rule,
publish/prose.py: tests/site/test_post_rules.py.)"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from publish.pipeline import HUGO
from tests.kit.post_numbers import (
    check_prose_values,
    check_table_cells,
    expected_value,
    fixed,
    parse_post,
    study_tables,
)

ROOT = Path(__file__).resolve().parents[2]
STUDIES = sorted(
    p.parent.name
    for p in (ROOT / "content" / "posts").glob("*/index.md")
    if (ROOT / "data" / p.parent.name / "study.yaml").exists()
)


@pytest.fixture(scope="module")
def rendered(built_site):
    return {study: parse_post(built_site, study) for study in STUDIES}


@pytest.mark.parametrize("study", STUDIES)
def test_table_cells_are_data(rendered, study, built_site):
    check_table_cells(study, rendered[study], built_site)


@pytest.mark.parametrize("study", STUDIES)
def test_prose_values_are_recomputed_from_data(rendered, study):
    """Each `value` the post renders is the text computed here from data/ for that shortcode's
    parameters, in page order (a stale or wrong number fails; so does a changed selector)."""
    check_prose_values(
        study, (ROOT / "content" / "posts" / study / "index.md").read_text(), rendered[study]
    )


def test_value_check_catches_a_wrong_number():
    """Negative control: a value computed from another row does not pass as this one."""
    study = "myrocks-cloud-cost"
    tables = study_tables(study)
    right = expected_value(
        tables,
        {},
        {"table": "avg-tps", "col": "avg_tps", "where": "engine=rocksdb,iops=5000,cache_gb=27"},
    )
    wrong = expected_value(
        tables,
        {},
        {"table": "avg-tps", "col": "avg_tps", "where": "engine=rocksdb,iops=5000,cache_gb=54"},
    )
    assert right != wrong


def test_numbers_are_formatted_as_hugo_prints_them(tmp_path):
    """The checks' formatting against Hugo's own lang.FormatNumber on the values where
    roundings part: 0.00015 was expected as 0.0002 (half-up on the decimal text) where the post
    showed 0.0001; Python's format() would say 0.015 where Hugo shows 0.016."""
    cases = [(4, 0.00015), (3, 0.0155), (2, 2.675), (2, 1.005), (0, 2.5), (1, -0.25)]
    cases += [(2, 1234567.125), (3, 0.4445), (0, 0.5)]
    (tmp_path / "layouts").mkdir()
    (tmp_path / "hugo.toml").write_text(
        'baseURL = "http://x/"\ndisableKinds = ["taxonomy", "term", "RSS", "sitemap", "404"]\n'
    )
    (tmp_path / "layouts" / "home.html").write_text(
        "|".join(f"{{{{ lang.FormatNumber {d} {x!r} }}}}" for d, x in cases)
    )
    subprocess.run(
        [str(HUGO), "--quiet", "-s", str(tmp_path), "-d", "out"], check=True, capture_output=True
    )
    hugo = (tmp_path / "out" / "index.html").read_text().strip().split("|")
    assert hugo == [fixed(x, d) for d, x in cases]
