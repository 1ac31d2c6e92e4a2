"""A study's inputs: where each is read from, which are at hand (`make ingest`, the `all`
command, skips a study whose archive or published-tables input is absent, with one warning
line, instead of stopping; the fresh-ingest test skips it with the same reason), and opening
them with their sha256 checked."""

from __future__ import annotations

import os
from pathlib import Path

from ingest.parse.member import decode
from ingest.problems import Problem
from ingest.read.archive import Archive, dir_sha256, sha256_file
from ingest.read.records import Input, Manifest


def input_path(m: Manifest, inp: Input, archives: str | Path, studies: str | Path) -> Path:
    """Where an input is read from: archives in ARCHIVES, published tables in STUDIES/<study>/."""
    return (
        Path(archives) / inp.name if inp.kind == "archive" else Path(studies) / m.study / inp.name
    )


def absent(m: Manifest, archives: str | Path, studies: str | Path) -> str | None:
    """Why the study cannot be ingested here (its absent inputs), or None when all are at hand."""
    missing = [
        str(input_path(m, i, archives, studies))
        for i in m.inputs
        if not input_path(m, i, archives, studies).exists()
    ]
    return f"not at hand: {', '.join(missing)}" if missing else None


def archive_dirs(archives: str | Path) -> list[Path]:
    """The folders of `--archives` (ARCHIVES=): one, or several joined by ':' (os.pathsep)."""
    return [Path(d) for d in str(archives).split(os.pathsep) if d] or [Path(".")]


def where(m: Manifest, archives: str | Path, studies: str | Path) -> tuple[Path, str | None]:
    """(the first folder of `archives` holding every input of the study, None), else (the
    first folder, why the study is not at hand: its inputs absent from each folder)."""
    dirs = archive_dirs(archives)
    whys = [absent(m, d, studies) for d in dirs]
    for d, why in zip(dirs, whys):
        if why is None:
            return d, None
    return dirs[0], "; ".join(dict.fromkeys(why for why in whys if why is not None))


def open_inputs(
    m: Manifest, archives: str | Path, studies: str | Path
) -> tuple[dict[str, Archive], dict[str, str]]:
    """(archive name -> Archive, published-tables name -> its text), each input's sha256 checked
    against the manifest's first."""
    opened: dict[str, Archive] = {}
    texts: dict[str, str] = {}
    for inp in m.inputs:
        path = input_path(m, inp, archives, studies)
        _check_input(m, inp, path)
        if inp.kind == "archive":
            opened[inp.name] = Archive(path)
        else:
            texts[inp.name] = decode(path.read_bytes(), str(path))
    return opened, texts


def _check_input(m: Manifest, inp: Input, path: Path) -> None:
    if not path.exists():
        raise Problem(m.path, inp.line, f"input {inp.name} not found at {path}")
    if inp.kind == "published-tables" and not path.is_file():
        raise Problem(
            m.path, inp.line, f"input {inp.name}: a published-tables input must be a file ({path})"
        )
    got = dir_sha256(path) if path.is_dir() else sha256_file(path)  # the archive reader's safe walk
    if got != inp.sha256:
        raise Problem(
            m.path,
            inp.line,
            f"sha256 mismatch for {inp.name}: manifest says {inp.sha256}, file has {got}",
        )
