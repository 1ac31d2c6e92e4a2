"""Size control (docs/manifest.md, "Size control"): `series: {extra: keep | drop | {every: N}}`
keeps the per-interval series of the runs outside the published comparison (`published:
false`) at lower resolution, honestly labelled, or drops them; statistics stay those of the
full series; the report says what it saved. Unit tests, then an ingest of an archive written
here."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from ingest.__main__ import main
from ingest.problems import Problem
from ingest.read.archive import sha256_file
from ingest.read.manifest import load
from ingest.write.csvfiles import series_csv
from ingest.write.seriesfiles import downsample, run_files
from tests.kit.sysbench_gen import sysbench_log, tar_gz


def doc(t, tps, interval_s=1):
    return {"run": "r", "interval_s": interval_s, "columns": ["t", "tps"], "t": t, "tps": tps}


def test_downsample_means_each_bucket_and_says_so():
    d = downsample(doc([1, 2, 3, 4, 5, 6, 7], [1.0, 2.0, 6.0, None, None, None, 5.5]), 3)
    assert d["t"] == [3, 6, 7]  # the end of each bucket's last interval
    assert d["tps"] == [3.0, None, 5.5]  # the mean; a bucket without numbers stays missing, never 0
    assert d["interval_s"] == 3 and d["downsampled"] == {
        "every": 3,
        "from_interval_s": 1,
        "stat": "mean",
    }
    assert list(d)[:4] == ["run", "interval_s", "downsampled", "columns"]


def test_downsample_rounds_means_and_keeps_uneven_intervals_labelled():
    d = downsample(doc([0.5, 1.0, 1.5], [1.0, 2.0, 2.0], interval_s=0.5), 2)
    assert d["tps"] == [1.5, 2.0] and d["interval_s"] == 1.0
    assert downsample(doc([1, 2, 3], [1.0, 1.0, 2.0]), 3)["tps"] == [1.333333]


def test_downsample_weights_uneven_intervals_by_their_length():
    d = downsample({**doc([1, 4, 5, 9], [10.0, 20.0, 30.0, 40.0]), "mean": "time-weighted"}, 2)
    # intervals of 1 and 3 s, then 1 and 4 s: the mean is operations over the elapsed time
    assert (
        d["tps"] == [(10 * 1 + 20 * 3) / 4, (30 * 1 + 40 * 4) / 5] and d["mean"] == "time-weighted"
    )


def record(published=True):
    return {"id": "r", "published": published, "linked": {"interval_s": 5}}


def test_run_files_keep_drop_and_every():
    full = doc(list(range(1, 101)), [float(i % 7) for i in range(100)])
    files, saved = run_files(record(False), full, None, "keep")
    assert sorted(files) == ["series/r.json"] and saved == 0  # one copy of the series
    rec = record(True)
    assert (
        run_files(rec, full, None, "drop") == (files, 0) and "series" not in rec
    )  # published: never reduced
    rec = record(False)
    dropped, saved = run_files(rec, full, None, "drop")
    assert dropped == {} and saved == sum(len(v.encode()) for v in files.values())
    assert rec["series"] == {"resolution": "dropped"} and "linked" not in rec
    rec = record(False)
    small, saved = run_files(rec, full, None, 10)
    assert rec["series"] == {
        "resolution": "downsampled",
        "every": 10,
        "interval_s": 10,
        "points": 10,
        "stat": "mean",
    }
    assert json.loads(small["series/r.json"])["downsampled"]["every"] == 10
    assert (
        saved
        == sum(len(v.encode()) for v in files.values())
        - sum(len(v.encode()) for v in small.values())
        > 0
    )


MANIFEST = """\
study: {study}
title: Size
inputs:
  - {{name: sz.tar.gz, kind: archive, sha256: {sha}, origin: https://example.org/sz}}
interval_s: 1
window: {{start: 10, end: 40}}
labels: [engine]
runs:
  - regex: 'res_(?P<engine>innodb|rocksdb)\\.log'
  - regex: 'extra_(?P<engine>[a-z]+)\\.log'
    published: false
{series}"""


def archive(tmp_path):
    arc = tmp_path / "archives" / "sz.tar.gz"
    if not arc.exists():
        arc.parent.mkdir()
        tar_gz(
            arc,
            {
                "res_innodb.log": sysbench_log(500, seconds=40),
                "res_rocksdb.log": sysbench_log(900, seconds=40),
                "extra_myisam.log": sysbench_log(300, seconds=40),
            },
        )
    return arc


def study(tmp_path, series: str = "", name: str = "sz", content: str = "content"):
    arc = archive(tmp_path)
    man = tmp_path / content / name / "manifest.yaml"
    man.parent.mkdir(parents=True, exist_ok=True)
    man.write_text(MANIFEST.format(study=name, sha=sha256_file(arc), series=series))
    return man


def ingest(capsys, tmp_path, series: str, data: str):
    study(tmp_path, series)
    code = main(
        [
            "sz",
            "--content",
            str(tmp_path / "content"),
            "--archives",
            str(tmp_path / "archives"),
            "--data",
            str(tmp_path / data),
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    root = tmp_path / data / "sz"
    runs = {r["id"]: r for r in yaml.safe_load((root / "runs.yaml").read_text())["runs"]}
    return out, root, runs


def size(root):
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())


@pytest.mark.parametrize(
    "series, every", [("series: {extra: {every: 4}}\n", 4), ("series: {extra: drop}\n", None)]
)
def test_ingest_with_size_control(capsys, tmp_path, series, every):
    out_full, full, runs_full = ingest(capsys, tmp_path, "", "full")
    out, small, runs = ingest(capsys, tmp_path, series, "small")
    extra = "myisam"
    # statistics: from the full-resolution series, whatever is written
    for rid, r in runs.items():
        assert r["window"] == runs_full[rid]["window"] and r["full"] == runs_full[rid]["full"]
        assert r["published"] == (rid != extra)
    # the published runs' series are untouched, byte for byte
    for rid in ("innodb", "rocksdb"):
        assert (small / "series" / f"{rid}.json").read_bytes() == (
            full / "series" / f"{rid}.json"
        ).read_bytes()
        assert "series" not in runs[rid]
    assert size(small) < size(full)
    series_full, series_small = (
        sum(p.stat().st_size for p in (root / "series").glob("*")) for root in (full, small)
    )
    saved = (
        series_full - series_small
    )  # the report counts the series files (runs.yaml grows by the note)
    if every:
        d = json.loads((small / "series" / f"{extra}.json").read_text())
        assert d["interval_s"] == 4 and d["downsampled"] == {
            "every": 4,
            "from_interval_s": 1,
            "stat": "mean",
        }
        assert d["t"] == [4, 8, 12, 16, 20, 24, 28, 32, 36, 40]
        src = json.loads((full / "series" / f"{extra}.json").read_text())["tps"]
        assert d["tps"][0] == round(sum(src[:4]) / 4, 6)
        assert runs[extra]["series"] == {
            "resolution": "downsampled",
            "every": 4,
            "interval_s": 4,
            "points": 10,
            "stat": "mean",
        }
        csv_text = series_csv((small / "series" / f"{extra}.json").read_text())
        assert csv_text.splitlines()[1].startswith("4,")  # the readers' CSV, when published
        how = "downsampled to one point per 4 intervals"
    else:
        assert not list((small / "series").glob(f"{extra}.*"))
        assert runs[extra]["series"] == {"resolution": "dropped"}
        how = "dropped"
    kb = lambda n: f"{n / 1e3:.1f} KB ({n} bytes)" if n >= 1e3 else f"{n} bytes"  # noqa: E731
    line = (
        f"size control (series: extra): 1 run(s) outside the published comparison {how}: series "
        f"{kb(series_full - saved)} instead of {kb(series_full)}, saved {kb(saved)} ({saved / series_full:.0%})"
    )
    assert line in out.splitlines()
    assert "size control" not in out_full
    assert out.splitlines()[0] == f"sz: 3 run(s), 2 table(s), {kb(size(small))} written"


@pytest.mark.parametrize(
    "series, reason",
    [
        (
            "series: {extra: sometimes}\n",
            "series: extra must be keep, drop or {every: N}, not 'sometimes'",
        ),
        (
            "series: {extra: {every: 1}}\n",
            "series.extra: every must be an integer of at least 2 (intervals per point), not 1",
        ),
        ("series: {extra: {every: 2.5}}\n", "series.extra: `every` must be int, not float"),
        ("series: {outside: drop}\n", "series: unknown field `outside` (allowed: extra)"),
        ("series: drop\n", "manifest: `series` must be a mapping, not str"),
    ],
)
def test_bad_series_option_is_file_line_reason(tmp_path, series, reason):
    man = study(tmp_path, series)  # `series:` is on line 12
    with pytest.raises(Problem) as e:
        load(man)
    assert str(e.value) == f"{man}:12: {reason}"


def test_keep_is_the_default(tmp_path):
    assert load(study(tmp_path)).extra_series == "keep"
    assert load(study(tmp_path, "series: {extra: keep}\n")).extra_series == "keep"


def build_alone(tmp: Path) -> Path:
    """The studies of `tmp` built alone (the project's own posts are not what is checked),
    with the compare page, which lists every study; the site's directory."""
    from tests.kit.sitebuild import ROOT, build

    (tmp / "content" / "compare").mkdir()
    shutil.copy(ROOT / "content" / "compare" / "index.md", tmp / "content" / "compare")
    site = tmp / "www" / "benchlog"
    build(site, "https://example.github.io/benchlog/", extra=tmp, previews=False, own_content=False)
    return site


def test_the_site_names_a_downsampled_run_and_leaves_a_dropped_one_out(tmp_path, browser):
    """A build with two studies of the archive above: `every: 4` and `drop`. The time series
    chart and the compare page name the downsampled run "(downsampled to 4 s means)"; the
    dropped run is in no chart and has no series on the compare page."""
    posts = tmp_path / "content" / "posts"
    for name, series in (
        ("sz-every", "series: {extra: {every: 4}}\n"),
        ("sz-drop", "series: {extra: drop}\n"),
    ):
        study(tmp_path, series, name, "content/posts")
        (posts / name / "index.md").write_text(
            f"---\ntitle: {name}\ndate: 2026-01-02\nstudy: {name}\noriginal: {{title: x}}\n---\n\n"
            '{{< chart kind="timeseries" id="over-time" source="derived" >}}\n'
        )
        assert (
            main(
                [
                    name,
                    "--content",
                    str(posts),
                    "--archives",
                    str(tmp_path / "archives"),
                    "--data",
                    str(tmp_path / "data"),
                ]
            )
            == 0
        )
    site = build_alone(tmp_path)
    every = (site / "posts" / "sz-every" / "index.html").read_text()
    assert (
        "data/sz-every/series/myisam.csv" in every and "myisam (downsampled to 4 s means)" in every
    )
    drop = (site / "posts" / "sz-drop" / "index.html").read_text()
    assert "data/sz-drop/series/innodb.csv" in drop and "series/myisam." not in drop
    assert '"id":"myisam"' not in drop  # nor in the chart's runs
    assert not (site / "data" / "sz-drop" / "series" / "myisam.json").exists()
    compare = (site / "compare" / "index.html").read_text()
    row = compare.split('data-key="sz-every/myisam"')[1].split("</tr>")[0]
    assert "data-series=" in row and "myisam (downsampled to 4 s means)</td>" in row
    row = compare.split('data-key="sz-drop/myisam"')[1].split("</tr>")[0]
    assert "data-series=" not in row and "series not kept (size control)" in row
    # the compare page's statistics of the downsampled run are the ingest's, at full resolution
    runs = {
        r["id"]: r
        for r in yaml.safe_load((tmp_path / "data/sz-every/runs.yaml").read_text())["runs"]
    }
    window = runs["myisam"]["window"]
    small = json.loads((tmp_path / "data/sz-every/series/myisam.json").read_text())
    assert window["n"] != sum(
        1 for t in small["t"] if 10 < t <= 40
    )  # the check below tells the two apart
    shown = compare_stats(browser, tmp_path / "www", "sz-every/myisam,sz-every/innodb")
    assert shown["sz-every/myisam"] == (
        window["n"],
        f"{window['mean']:,.1f}",
        f"{window['cv']:.3f}",
    )
    assert (
        shown["sz-every/innodb"][0] == runs["innodb"]["window"]["n"]
    )  # a run as printed: from its points


def compare_stats(browser, www, picked):
    """{run key: (n, mean, cv)} of the compare page's statistics table with `picked` in the URL."""
    from tests.kit.browser_kit import open_page, serve, until

    server, base = serve(www)
    problems = []
    try:
        page = open_page(browser, f"{base}/benchlog/compare/#compare.runs={picked}", problems)
        until(page, "document.querySelectorAll('#compare-stats tbody tr').length === 2")
        rows = page.evaluate("""Array.from(document.querySelectorAll('#compare-stats tbody tr')).map(tr =>
            [tr.dataset.key, Array.from(tr.cells).map(c => c.textContent)])""")
        page.context.close()
    finally:
        server.shutdown()
    assert not problems, problems
    return {key: (int(cells[4]), cells[5], cells[9]) for key, cells in rows}


# -- data/ grows with what is published ----------------------------------------
HOURS = 4
DATA_BUDGET = (
    600_000  # bytes of data/ for one run of 4 h at 1 s with vmstat at 1 s (docs/manifest.md)
)


def vmstat_1s(seconds: int) -> str:
    """`vmstat 1` for `seconds` samples (after the since-boot line), numbers of our own."""
    lines = [
        "procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----",
        " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st",
        " 1  0      0 8000000 100000 2000000    0    0   100  2000  500 1000  5  1 93  1  0",
    ]
    for i in range(seconds):
        us, sy, wa = 30 + i % 7, 5 + i % 3, i % 4
        lines.append(
            f" {4 + i % 5}  {i % 2}      0 {7900000 - i} 100100 2010000    0    0  {i % 50:>4} "
            f"{40000 + i % 999:>5} 3000 {20000 + i % 777} {us} {sy} {100 - us - sy - wa} {wa}  0"
        )
    return "\n".join(lines) + "\n"


def hours_study(tmp_path, linked: str) -> Path:
    seconds = HOURS * 3600
    (tmp_path / "archives").mkdir(exist_ok=True)
    arc = tar_gz(
        tmp_path / "archives" / "long.tar.gz",
        {"res_innodb.log": sysbench_log(500, seconds=seconds), "vm_innodb.txt": vmstat_1s(seconds)},
    )
    man = tmp_path / "content" / "long" / "manifest.yaml"
    man.parent.mkdir(parents=True)
    man.write_text(f"""\
study: long
title: Four hours
inputs:
  - {{name: long.tar.gz, kind: archive, sha256: {sha256_file(arc)}, origin: https://example.org/long}}
interval_s: 1
window: {{start: 600, end: {seconds}}}
labels: [engine]
runs:
  - regex: 'res_(?P<engine>\\w+)\\.log'
    linked: {linked}
files:
  - {{regex: 'vm_\\w+\\.txt', format: vmstat}}
""")
    return man


def ingest_bytes(capsys, tmp_path, man) -> tuple[int, dict]:
    data = tmp_path / "data"
    args = ["--content", str(man.parent.parent), "--archives", str(tmp_path / "archives")]
    assert main(["long", *args, "--data", str(data)]) == 0, capsys.readouterr().err
    capsys.readouterr()
    files = {p.relative_to(data / "long").as_posix(): p for p in (data / "long").rglob("*")}
    return sum(p.stat().st_size for p in files.values() if p.is_file()), files


def test_a_4_hour_run_with_vmstat_at_1_s_stays_within_the_data_budget(capsys, tmp_path):
    """Only the linked columns that are shown (the default panels here: vm.us, vm.sy, vm.wa,
    cpu_per_op) are written, once, at the precision vmstat printed."""
    total, files = ingest_bytes(
        capsys, tmp_path, hours_study(tmp_path, "{vmstat: 'vm_{engine}.txt', interval_s: 1}")
    )
    assert total <= DATA_BUDGET, total
    linked = json.loads(files["series/innodb.linked.json"].read_text())
    assert linked["columns"] == ["t", "vm.us", "vm.sy", "vm.wa"]  # no iostat: no cpu_per_op cores
    assert len(linked["t"]) == HOURS * 3600 and linked["vm.us"][:3] == [30, 31, 32]
    assert sorted(p for p in files if p.startswith("series/")) == [
        "series/innodb.json",
        "series/innodb.linked.json",
    ]


def test_every_linked_column_only_when_asked_for(capsys, tmp_path):
    man = hours_study(
        tmp_path, "{vmstat: 'vm_{engine}.txt', interval_s: 1, columns: all, panels: [vm.cs]}"
    )
    total, files = ingest_bytes(capsys, tmp_path, man)
    linked = json.loads(files["series/innodb.linked.json"].read_text())
    assert linked["columns"] == ["t", "vm.us", "vm.sy", "vm.wa", "vm.cs", "vm.r", "vm.b"]
    runs = yaml.safe_load(files["runs.yaml"].read_text())["runs"]
    assert runs[0]["linked"]["panels"] == ["vm.cs"]
    man.write_text(man.read_text().replace("columns: all, ", "columns: ['vm.r'], "))
    _, files = ingest_bytes(capsys, tmp_path, man)
    linked = json.loads(files["series/innodb.linked.json"].read_text())
    assert linked["columns"] == ["t", "vm.cs", "vm.r"]  # the panel's and the one asked for
