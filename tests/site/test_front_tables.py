"""Table, value and CSV output of the layouts, on a tiny synthetic site built once."""

import csv
import io

import pytest

from tests.kit.front_site import STUDY, run_hugo, write_site


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    site = write_site(tmp_path_factory.mktemp("tiny"))
    out = site / "out"
    proc = run_hugo(site, out)
    assert proc.returncode == 0, proc.stderr
    return out / "posts" / STUDY


def test_table_renders_rows_missing_and_notes(built):
    html = (built / "index.html").read_text()
    assert 'id="avg-tps-table"' in html
    assert '<caption id="avg-tps-caption">Average TPS (synthetic)</caption>' in html
    # a null cell is n/a and sorts last, never 0
    assert '<td class="number missing" data-sort="">n/a</td>' in html
    assert '<span class="note">about</span>' in html
    assert '<caption id="cost-caption">What it costs</caption>' in html
    assert "1,234,567" in html


def test_csv_is_published_next_to_the_post(built):
    text = (built / "avg-tps.csv").read_text()
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["engine", "iops", "avg_tps", "cv"]
    assert len(rows) == 5 and rows[4][2] == ""
    assert 'href="/posts/tiny-study/avg-tps.csv"' in (built / "index.html").read_text()
    cost = list(csv.reader(io.StringIO((built / "cost.csv").read_text())))
    assert cost[1] == ["box, large", "1234567"] and cost[2] == ["disk", ""]


def test_value_shortcode_quotes_the_table(built):
    html = (built / "index.html").read_text()
    rows = list(csv.DictReader(io.StringIO((built / "avg-tps.csv").read_text())))
    alpha = float(rows[0]["avg_tps"])
    beta = float(rows[1]["avg_tps"])
    assert f'<span class="value">{alpha:,.2f}</span>' in html
    assert f'<span class="value">{beta / alpha:.1f}×</span>' in html


def test_ratio_cells_within_noise_stay_uncoloured(built):
    html = (built / "index.html").read_text()
    figure = html[html.index('id="close-ratio"') :]
    figure = figure[: figure.index("</table>")]
    # a's builds' ranges (980-1040, 1010-1050) overlap: noise; b's (990-1010, 690-710) do not
    assert 'class="r noise" data-c="0"' in figure and "1.03×" in figure
    assert 'data-c="-3" title="700">0.70×' in figure


@pytest.mark.parametrize(
    "post, message",
    [
        ('---\ntitle: x\n---\n{{< table id="nope" >}}\n', 'no table "nope"'),
        (
            '---\ntitle: x\n---\n{{< table id="cost" >}}\n{{< table id="cost" >}}\n',
            'duplicate table/chart id "cost"',
        ),
        (
            '---\ntitle: x\n---\n{{< value table="avg-tps" col="avg_tps" where="engine=alpha" >}}\n',
            "matches 2 rows",
        ),
    ],
)
def test_bad_shortcodes_fail_the_build_with_a_position(tmp_path, post, message):
    site = write_site(tmp_path / "s", post=post)
    proc = run_hugo(site, tmp_path / "out")
    assert proc.returncode != 0
    assert message in proc.stderr and "index.md:" in proc.stderr, proc.stderr
