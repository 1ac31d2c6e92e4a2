"""`python -m publish.series` (make build, after Hugo): the per-run series JSON the site serves is
linked into the built site, since a production build has no mount for it
(config/production/hugo.toml), and each series' readers' CSV is written beside it from the JSON
(data/ keeps one copy of a series); `--csv DIR` writes only the CSVs, for `make serve`."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from ingest.write.csvfiles import series_csv
from publish import series as publish_series
from publish.series import main, publish, series_files

ROOT = Path(__file__).resolve().parents[2]


def mounts(path: Path) -> list[dict]:
    return tomllib.loads(path.read_text(encoding="utf-8"))["module"]["mounts"]


def test_production_mounts_are_config_toml_less_the_series_files():
    full = mounts(ROOT / "config.toml")
    series = [
        m for m in full if m["source"] in ("data", ".cache/serve") and "static" in m["target"]
    ]
    assert series == [
        {"source": "data", "target": "static/data", "files": ["*/series/*.json"]},
        {"source": ".cache/serve", "target": "static"},
    ]
    assert mounts(ROOT / "config" / "production" / "hugo.toml") == [
        m for m in full if m not in series
    ]
    assert (
        ".venv/bin/python -m publish.series --csv .cache/serve data"
        in (ROOT / "Makefile").read_text()
    )


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


SERIES = '{"run":"r1","columns":["t","tps"],"t":[1,2],"tps":[1.5,null]}\n'


def test_links_every_series_json_and_writes_its_csv(tmp_path):
    data, site = tmp_path / "data", tmp_path / "site"
    site.mkdir()
    files = [
        write(data / "s1" / "series" / "r1.json", SERIES),
        write(data / "s2" / "series" / "r.linked.json", SERIES),
    ]
    write(data / "s1" / "series" / "r1.yaml", "run: r1\n")  # not a served file
    write(data / "s1" / "tables" / "runs.csv", "a\n")  # a table: published by Hugo
    write(data / "s1" / "series" / "deeper" / "x.json", "{}")  # not what the mount takes
    assert series_files(data) == sorted(files)
    assert publish(site, [data]) == 2
    got = sorted(p.relative_to(site) for p in site.rglob("*") if p.is_file())
    served = [Path("data") / f.relative_to(data) for f in files]
    assert got == sorted(served + [p.with_suffix(".csv") for p in served])
    for f in files:
        out = site / "data" / f.relative_to(data)
        assert out.read_bytes() == f.read_bytes()
        assert os.path.samefile(out, f) or out.stat().st_nlink == 1  # a hard link, else a copy
        assert out.with_suffix(".csv").read_text() == series_csv(SERIES) == "t,tps\n1,1.5\n2,\n"
    assert publish(site, [data]) == 2  # again over a built site


def test_csv_only_for_the_development_server(tmp_path):
    data, out = tmp_path / "data", tmp_path / ".cache" / "serve"
    write(data / "s1" / "series" / "r1.json", SERIES)
    write(out / "data" / "gone" / "series" / "old.csv", "stale\n")  # a study since removed
    assert main(["--csv", str(out), str(data)]) == 0
    got = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert got == ["data/s1/series/r1.csv"]


def test_a_later_data_dir_wins_and_copies_when_links_fail(tmp_path, monkeypatch):
    a, b, site = tmp_path / "a", tmp_path / "b", tmp_path / "site"
    site.mkdir()
    write(a / "s" / "series" / "r.json", SERIES.replace("1.5", "1"))
    write(b / "s" / "series" / "r.json", SERIES)
    monkeypatch.setattr(os, "link", lambda *_: (_ for _ in ()).throw(OSError("no links here")))
    assert publish(site, [a, b]) == 2
    out = site / "data" / "s" / "series" / "r.json"
    assert out.read_text() == SERIES and not os.path.samefile(out, b / "s" / "series" / "r.json")


def test_a_rebuild_takes_each_unchanged_series_csv_from_the_cache(tmp_path, monkeypatch):
    data, site, store = tmp_path / "data", tmp_path / "site", tmp_path / "store"
    site.mkdir()
    write(data / "s" / "series" / "a.json", SERIES)
    changing = write(data / "s" / "series" / "b.json", SERIES.replace("1.5", "3.5"))
    monkeypatch.setenv("SERIES_CSV_CACHE", str(store))
    cold = publish_series.csv_cache()
    assert publish(site, [data], cache=cold) == 2 and cold.hits == 0
    first = {p.name: p.read_bytes() for p in site.rglob("*.csv")}
    assert first == {"a.csv": b"t,tps\n1,1.5\n2,\n", "b.csv": b"t,tps\n1,3.5\n2,\n"}

    written = []
    monkeypatch.setattr(publish_series, "series_csv", lambda t: written.append(t) or series_csv(t))
    warm = publish_series.csv_cache()
    publish(site, [data], cache=warm)
    assert warm.hits == 2 and written == []  # nothing written anew
    assert {p.name: p.read_bytes() for p in site.rglob("*.csv")} == first

    changing.write_text(SERIES.replace("1.5", "2.5"))
    changed = publish_series.csv_cache()
    publish(site, [data], cache=changed)
    assert changed.hits == 1 and len(written) == 1
    assert (site / "data/s/series/b.csv").read_text() == "t,tps\n1,2.5\n2,\n"
    changed.prune()  # the old b.csv's entry was not used: gone
    assert sorted(p.name for p in store.iterdir()) == sorted(changed.used)

    monkeypatch.setenv("SERIES_CSV_CACHE", "off")
    assert publish_series.csv_cache().root is None
