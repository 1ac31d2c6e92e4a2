"""Publishes the per-run series files into a built site: `python -m publish.series SITE [DATA ...]`
(`make build`, after Hugo; DATA defaults to `data`).

Each `DATA/<study>/series/<run>.json|csv` (written by the ingest, docs/data-schema.md) is
served as it is at `/data/<study>/series/<run>.json|csv`. `hugo server` serves them through a
mount (config.toml); a production build leaves that mount out (config/production/hugo.toml),
because Hugo copying ~8 MB per cloud-size study was most of the build's I/O with many studies.
This step puts the same bytes at the same paths, as hard links where the file system allows
(no bytes copied; `make build` removes site/ first, never writes into these files), else as
copies. Nothing else of DATA is published (the YAML stays archival)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

SUFFIXES = (".json", ".csv")


def series_files(data: Path) -> list[Path]:
    """The files the site serves: what config.toml's mount `*/series/*.json|csv` takes."""
    return sorted(p for p in data.glob("*/series/*") if p.suffix in SUFFIXES and p.is_file())


def publish(site: Path, data_dirs: list[Path]) -> int:
    """Links (or copies) every series file of `data_dirs` into `site`; returns how many. A
    later data dir's file replaces an earlier one's at the same path, as a later mount does."""
    count = 0
    for data in data_dirs:
        for src in series_files(data):
            dst = site / "data" / src.relative_to(data)
            dst.parent.mkdir(parents=True, exist_ok=True)
            dst.unlink(missing_ok=True)
            try:
                os.link(src, dst)
            except OSError:
                shutil.copyfile(src, dst)
            count += 1
    return count


def main(argv: list[str]) -> int:
    if not argv or argv[0].startswith("-"):
        print("usage: python -m publish.series SITE [DATA ...]", file=sys.stderr)
        return 2
    site = Path(argv[0])
    if not site.is_dir():
        print(f"publish.series: {site}: no built site", file=sys.stderr)
        return 1
    publish(site, [Path(d) for d in argv[1:]] or [Path("data")])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
