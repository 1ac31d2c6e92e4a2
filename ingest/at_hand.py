"""Which inputs of a study are at hand: `make ingest` (the `all` command) skips a study whose
archive or published-tables input is absent, with one warning line, instead of stopping; the
fresh-ingest test skips it with the same reason."""
from __future__ import annotations

from pathlib import Path

from .manifest import Manifest


def input_path(m: Manifest, inp, archives: str | Path, studies: str | Path) -> Path:
    """Where an input is read from: archives in ARCHIVES, published tables in STUDIES/<study>/."""
    return Path(archives) / inp.name if inp.kind == "archive" else Path(studies) / m.study / inp.name


def absent(m: Manifest, archives: str | Path, studies: str | Path) -> str | None:
    """Why the study cannot be ingested here (its absent inputs), or None when all are at hand."""
    missing = [str(input_path(m, i, archives, studies)) for i in m.inputs
               if not input_path(m, i, archives, studies).exists()]
    return f"not at hand: {', '.join(missing)}" if missing else None
