"""`python -m publish.series` (make build, after Hugo): the per-run series files the site serves
are linked into the built site, since a production build has no mount for them
(config/production/hugo.toml). The files and bytes are the ones config.toml's mount serves."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from publish.series import publish, series_files

ROOT = Path(__file__).resolve().parent.parent


def mounts(path: Path) -> list[dict]:
    return tomllib.loads(path.read_text(encoding="utf-8"))["module"]["mounts"]


def test_production_mounts_are_config_toml_less_the_series_files():
    full = mounts(ROOT / "config.toml")
    series = [m for m in full if m["target"] == "static/data"]
    assert series == [
        {"source": "data", "target": "static/data", "files": ["*/series/*.json", "*/series/*.csv"]}
    ]
    assert mounts(ROOT / "config" / "production" / "hugo.toml") == [
        m for m in full if m not in series
    ]


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_links_every_series_json_and_csv_and_nothing_else(tmp_path):
    data, site = tmp_path / "data", tmp_path / "site"
    site.mkdir()
    files = [
        write(data / "s1" / "series" / "r1.json", '{"run":"r1"}'),
        write(data / "s1" / "series" / "r1.csv", "t,tps\n0,1.0\n"),
        write(data / "s2" / "series" / "r.linked.json", "{}"),
    ]
    write(data / "s1" / "series" / "r1.yaml", "run: r1\n")  # archival, not served
    write(data / "s1" / "tables" / "runs.csv", "a\n")  # a table: published by Hugo
    write(data / "s1" / "series" / "deeper" / "x.json", "{}")  # not what the mount takes
    assert series_files(data) == sorted(files)
    assert publish(site, [data]) == 3
    got = sorted(p.relative_to(site) for p in site.rglob("*") if p.is_file())
    assert got == sorted(Path("data") / f.relative_to(data) for f in files)
    for f in files:
        out = site / "data" / f.relative_to(data)
        assert out.read_bytes() == f.read_bytes()
        assert os.path.samefile(out, f) or out.stat().st_nlink == 1  # a hard link, else a copy
    assert publish(site, [data]) == 3  # again over a built site


def test_a_later_data_dir_wins_and_copies_when_links_fail(tmp_path, monkeypatch):
    a, b, site = tmp_path / "a", tmp_path / "b", tmp_path / "site"
    site.mkdir()
    write(a / "s" / "series" / "r.json", "A")
    write(b / "s" / "series" / "r.json", "B")
    monkeypatch.setattr(os, "link", lambda *_: (_ for _ in ()).throw(OSError("no links here")))
    assert publish(site, [a, b]) == 2
    out = site / "data" / "s" / "series" / "r.json"
    assert out.read_text() == "B" and not os.path.samefile(out, b / "s" / "series" / "r.json")
