"""The version view's data (`versions:` in the manifest, ingest/derive/versions.py) on an archive
written here: per tier, version and threads the mean and spread of TPS and QPS, the ratio to
the base and its noise verdict by the one noise rule, the extremes sorted, and the manifest's
mistakes as file:line."""

from __future__ import annotations

import pytest
import yaml

from ingest.derive.noise import ratio_class, within_noise
from ingest.derive.versions import version_key
from ingest.problems import Problem
from tests.kit.archive_gen import sysbench1_log
from tests.kit.study_kit import archive_study, run

# (version, tier, threads) -> TPS; 8.0.36 at 2G/8 threads has two runs (repeats)
RATES = {
    ("5.7.44", 2, 1): 100,
    ("5.7.44", 2, 8): 700,
    ("5.7.44", 12, 1): 120,
    ("5.7.44", 12, 8): 900,
    ("8.0.36", 2, 1): 80,
    ("8.0.36", 2, 8): 701,
    ("8.0.36", 12, 1): 150,
    ("8.0.36", 12, 8): 600,
    ("10.11.6", 2, 1): 100.5,
    ("10.11.6", 12, 8): 1800,
}

BODY = """\
interval_s: 1
window: {start: 10, end: 60}
labels: [version, tier, threads, rep]
label_types: {tier: int, threads: int}
runs:
  - regex: '(?P<version>[0-9.]+)/Tier(?P<tier>\\d+)G_(?P<threads>\\d+)th(?:_(?P<rep>r\\d))?\\.log'
versions:
  - id: by-version
    version: version
    base: "5.7.44"
    facets: [tier]
    x: threads
    metrics: {tps: TPS, qps: QPS}
    top: 3
"""


def study(tmp_path, body=BODY):
    members = {
        f"{v}/Tier{t}G_{th}th.log": sysbench1_log(r, 60, threads=th, seed=th + t)
        for (v, t, th), r in RATES.items()
    }
    members["8.0.36/Tier2G_8th_r2.log"] = sysbench1_log(705, 60, threads=8, seed=99)
    man = archive_study(tmp_path, "vers", "Versions", members, body)
    got = run(tmp_path, man)
    tables = tmp_path / "data" / "vers" / "tables"
    load = lambda t: yaml.safe_load((tables / f"{t}.yaml").read_text())  # noqa: E731
    runs = yaml.safe_load((tmp_path / "data" / "vers" / "runs.yaml").read_text())["runs"]
    return got, load("by-version"), load("by-version-extremes"), {r["id"]: r for r in runs}


def test_cells_means_spreads_and_ratios(tmp_path):
    _, t, ext, runs = study(tmp_path)
    rows = {(r["tier"], r["version"], r["x"]): r for r in t["rows"]}
    # versions in natural order (10.11.6 after 8.0.36), tiers as they come, threads ascending
    order = [(r["tier"], r["version"], r["x"]) for r in t["rows"]]
    assert order[:5] == [(2, "5.7.44", 1), (2, "5.7.44", 8), (2, "8.0.36", 1)] + [
        (2, "8.0.36", 8),
        (2, "10.11.6", 1),
    ]
    # one run: the mean is its window mean, its spread its batch means' range
    one = rows[(12, "8.0.36", 1)]
    run_ = runs[one["run"]]
    assert one["runs"] == 1 and one["tps"] == pytest.approx(run_["window"]["mean"], abs=0.01)
    assert one["tps_lo"] < one["tps"] < one["tps_hi"]
    # two runs: the mean of their means, the spread their range
    two = rows[(2, "8.0.36", 8)]
    means = sorted(
        r["window"]["mean"]
        for r in runs.values()
        if r["labels"]["version"] == "8.0.36"
        and r["labels"]["tier"] == 2
        and r["labels"]["threads"] == 8
    )
    assert two["runs"] == 2
    assert (two["tps_lo"], two["tps_hi"]) == pytest.approx(tuple(means), abs=0.01)
    assert two["tps"] == pytest.approx(sum(means) / 2, abs=0.01)
    # the ratio to the base and its class by ingest/derive/noise.py
    for r in t["rows"]:
        b = rows.get((r["tier"], "5.7.44", r["x"]))
        if r["version"] == "5.7.44" or b is None:
            assert r["tps_class"] is None
            continue
        assert r["tps_ratio"] == pytest.approx(r["tps"] / b["tps"], rel=1e-5)
        noise = within_noise((r["tps_lo"], r["tps_hi"]), (b["tps_lo"], b["tps_hi"]))
        assert r["tps_class"] == ratio_class(r["tps_ratio"], noise)
        assert r["tps_noise"] == ("within noise" if noise else "beyond noise")
    # 8.0.36 at 2G/8 threads is within noise of 5.7.44 (701-705 vs 700), 1 thread is not
    assert rows[(2, "8.0.36", 8)]["tps_noise"] == "within noise"
    assert rows[(2, "8.0.36", 1)]["tps_class"] < 0
    # QPS too: 10.11.6 at 12 GB, 8 threads (1800 TPS) against 5.7.44 (900)
    assert rows[(12, "10.11.6", 8)]["qps_ratio"] == pytest.approx(2.0, rel=0.02)
    assert ext["rows"]  # checked below


def test_extremes_sorted_beyond_noise_and_quotable(tmp_path):
    _, t, ext, _ = study(tmp_path)
    tps = [r for r in ext["rows"] if r["metric"] == "tps"]
    losses = [r["ratio"] for r in tps if r["direction"] == "regression"]
    gains = [r["ratio"] for r in tps if r["direction"] == "gain"]
    assert losses == sorted(losses) and all(x < 1 for x in losses) and len(losses) <= 3
    assert gains == sorted(gains, reverse=True) and all(x > 1 for x in gains)
    assert all(r["noise"] == "beyond noise" for r in tps)
    beyond = [
        r["tps_ratio"] for r in t["rows"] if r["tps_noise"] == "beyond noise" and r["tps_ratio"] > 1
    ]
    assert gains[0] == max(beyond)  # the largest gain is the table's, never typed
    assert [r["rank"] for r in tps if r["direction"] == "gain"] == list(range(1, len(gains) + 1))


def test_natural_version_order():
    got = sorted(["10.11.6", "8.0.36", "5.7.44", "8.0.4", "11.4.2"], key=version_key)
    assert got == ["5.7.44", "8.0.4", "8.0.36", "10.11.6", "11.4.2"]


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        ("    x: threads\n", "    x: thread\n", "'thread' is not one of labels"),
        ("    top: 3\n", "    top: 0\n", "top must be from 1 to"),
        ("    metrics: {tps: TPS, qps: QPS}\n", "    metrics: []\n", "metrics must name columns"),
        ("    facets: [tier]\n", "    facets: [threads]\n", "must be different labels"),
        ("    top: 3\n", "    top: 3\n    colour: red\n", "unknown field `colour`"),
    ],
)
def test_manifest_mistakes_at_their_line(tmp_path, old, new, says):
    body = BODY.replace(old, new)
    with pytest.raises(Problem) as e:
        study(tmp_path, body)
    assert says in str(e.value)
    line = body.splitlines().index(new.splitlines()[-1]) + 5  # after the 4 lines of the header
    assert str(e.value).startswith(f"{tmp_path}/content/vers/manifest.yaml:{line}: ")


def test_a_base_no_cell_has_is_an_error_at_its_line(tmp_path):
    body = BODY.replace('base: "5.7.44"', 'base: "9.9.9"')
    with pytest.raises(Problem) as e:
        study(tmp_path, body)
    assert "base '9.9.9' is not a version of the view (5.7.44, 8.0.36, 10.11.6)" in str(e.value)
    assert ":14:" in str(e.value)


def test_the_browsers_noise_rule_is_checked_against_the_ingests_cases():
    """tests/fixtures/noise-cases.json is what assets/js/noise.js must give (tests/js/
    noise.test.js); here, that it is what ingest/derive/noise.py gives, and that it covers
    each verdict and classes on both sides."""
    import json

    from ingest.derive.noise import EDGES
    from tests.kit.golden import FIXTURES

    doc = json.loads((FIXTURES / "noise-cases.json").read_text())
    assert doc["edges"] == list(EDGES)
    for c in doc["cases"]:
        spreads = [tuple(s) if s else None for s in (c["a"], c["b"])]
        assert within_noise(*spreads) == c["within"]
        assert ratio_class(c["ratio"], c["within"]) == c["class"]
    assert {c["within"] for c in doc["cases"]} == {True, False, None}
    assert {c["class"] for c in doc["cases"]} >= {-5, -1, 0, 1, 5, None}


TABLE_VIEWS = """\
  - id: from-runs
    table: runs
    version: version
    facets: [tier, rep]
    x: threads
    metrics: {mean: TPS}
"""


def test_a_view_of_a_table_with_run_ids_names_each_cells_run(tmp_path):
    """A view built from a table that names its rows' runs (the default `runs` table) keeps
    each cell's run, as a view of the runs does, so that the chart links it."""
    study(tmp_path, BODY + TABLE_VIEWS)
    tables = tmp_path / "data" / "vers" / "tables"
    t = yaml.safe_load((tables / "from-runs.yaml").read_text())
    runs = yaml.safe_load((tables / "runs.yaml").read_text())["rows"]
    by_labels = {(r["version"], r["tier"], r["rep"], r["threads"]): r for r in runs}
    assert len(t["rows"]) == len(runs) == len(RATES) + 1
    for row in t["rows"]:
        source = by_labels[(row["version"], row["tier"], row["rep"], row["x"])]
        assert row["run"] == source["run"] and row["runs"] == 1
        assert row["mean"] == source["mean"]
    ext = yaml.safe_load((tables / "from-runs-extremes.yaml").read_text())["rows"]
    assert ext and all(r["run"] in {s["run"] for s in runs} for r in ext)


def test_the_cells_table_names_what_the_chart_reads_of_its_columns():
    """The `view` block (docs/manifest.md, "Versions"): facets and headings from the columns."""
    from ingest.derive.tables import col
    from ingest.derive.versions import _view
    from ingest.read.sections import VersionsView

    view = VersionsView(
        id="v",
        title=None,
        line=1,
        where="versions[0] (v)",
        version="server",
        base=None,
        order=None,
        facets=["group", "test"],
        x="clients",
        metrics={"qps": "QPS"},
        filters={},
        table=None,
        top=5,
        lines={},
    )
    columns = [
        col("group", "Group", "label"),
        col("test", "Test", "label"),
        col("version", "Server", "label"),
        col("x", "Clients", "label"),
        col("qps", "QPS", "number", 2),
    ]
    assert _view(view, columns) == {
        "facets": ["group", "test"],
        "facet_titles": ["Group", "Test"],
        "version_title": "Server",
        "x_title": "Clients",
        "x_numbers": False,
        "metrics": [{"key": "qps", "label": "QPS", "digits": 2}],
    }
