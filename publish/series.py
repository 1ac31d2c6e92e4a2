"""Publishes the per-run series into a built site: `python -m publish.series SITE [DATA ...]`
(`make build`, after Hugo; DATA defaults to `data`).

data/ keeps one copy of each series, `DATA/<study>/series/<run>.json` (and `<run>.linked.json`,
written by the ingest, docs/data-schema.md). This step puts each at
`/data/<study>/series/<run>.json`, as a hard link where the file system allows (no bytes
copied; `make build` removes site/ first, never writes into these files), else a copy, and
writes the readers' `<run>.csv` beside it, turned from the JSON by the one CSV writer
(ingest/write/csvfiles.py). A production build has no mount for them (config/production/hugo.toml):
Hugo copying ~4 MB per cloud-size study was most of the build's I/O with many studies.

The pipeline's step keeps the CSVs it wrote in .cache/series-csv/ (publish/filecache.py;
SERIES_CSV_CACHE=DIR elsewhere, `off` for none), by the sha256 of the series JSON and of the
CSV writer's code, and a build keeps only the entries it used: a rebuild writes a series' CSV
again only when the series or the writer changed (with 24 extra cloud-size studies, 1.7 s of
CPU a build otherwise, docs/performance.md).

`python -m publish.series --csv DIR [DATA ...]` writes only the CSVs, under DIR/data/...:
`make serve` does so into .cache/serve, which config.toml mounts beside the JSON files that
`hugo server` serves from data/, so the development server links the same files."""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from functools import partial
from pathlib import Path

import ingest.write.csvfiles
import ingest.write.csvsafe
import ingest.write.numbers
from ingest.write.csvfiles import series_csv
from publish.filecache import FileCache


def series_files(data: Path) -> list[Path]:
    """The series files of `data`: what config.toml's mount `*/series/*.json` serves."""
    return sorted(p for p in data.glob("*/series/*.json") if p.is_file())


def csv_cache() -> FileCache:
    """The pipeline's cache of series CSVs (SERIES_CSV_CACHE, .cache/series-csv by default),
    salted with the CSV writer's source (ingest/write/csvfiles.py and the modules it writes with): a
    change of one of them writes every CSV anew."""
    writer = hashlib.sha256()
    for module in (ingest.write.csvfiles, ingest.write.csvsafe, ingest.write.numbers):
        writer.update(Path(module.__file__).read_bytes())
    return FileCache.from_env("SERIES_CSV_CACHE", "series-csv", writer.hexdigest(), ".csv")


def publish(
    site: Path, data_dirs: list[Path], json: bool = True, cache: FileCache | None = None
) -> int:
    """Links (or copies) every series JSON of `data_dirs` into `site` (`json`) and writes its
    CSV beside (from `cache` when it has it); returns how many series. A later data dir's file
    replaces an earlier one's at the same path, as a later mount does."""
    cache = cache or FileCache(None, "", ".csv")
    count = 0
    for data in data_dirs:
        for src in series_files(data):
            dst = site / "data" / src.relative_to(data)
            dst.parent.mkdir(parents=True, exist_ok=True)
            if json:
                dst.unlink(missing_ok=True)
                try:
                    os.link(src, dst)
                except OSError:
                    shutil.copyfile(src, dst)
            source = src.read_bytes()
            body = cache.get(source, partial(_csv_bytes, source))
            dst.with_suffix(".csv").write_bytes(body)
            count += 1
    return count


def _csv_bytes(series_json: bytes) -> bytes:
    return series_csv(series_json.decode()).encode()


USAGE = "usage: python -m publish.series SITE [DATA ...]  |  --csv DIR [DATA ...]"


def main(argv: list[str]) -> int:
    csv_only = bool(argv) and argv[0] == "--csv"
    args = argv[1:] if csv_only else argv
    if not args or args[0].startswith("-"):
        print(USAGE, file=sys.stderr)
        return 2
    site = Path(args[0])
    if csv_only:
        shutil.rmtree(site / "data", ignore_errors=True)  # no CSV of a series since removed
    elif not site.is_dir():
        print(f"publish.series: {site}: no built site", file=sys.stderr)
        return 1
    publish(site, [Path(d) for d in args[1:]] or [Path("data")], json=not csv_only)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
