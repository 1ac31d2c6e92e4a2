"""`python -m ingest new <study> ARCHIVE [--origin URL]`: a first draft of a manifest and a
post for an archive the project has never seen (docs/manifest.md, "The scaffold").

It hashes the archive, reads every member and detects its format, and keeps the members with
a complete run. Their names give the `runs:` rules and labels (ingest/scaffold/names.py: a
layout stated in a DESC/README, else the parts of the paths that vary, named for what they
are). The runs give the metric and the interval (from the data), a proposed window, the
thread counts; monitors beside the runs (vmstat, iostat, sar, server status) are proposed as
`linked:`; the newest member time dates the post. The post (ingest/scaffold/post.py) opens
with key results that compare across the label that varies most.

The kinds of draft, tried in order: interval runs (ingest/scaffold/runs.py), query runs
(queries.py), summary tables (tables.py); each starts from the members surveyed by
survey.py, which also writes the files with the YAML emitter, never by pasting text into a
template. The origin must be an http(s) URL without control characters; the post's
folder and files are created exclusively (never overwritten, never through a symlink).
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from urllib.parse import urlsplit

from ingest.problems import CONTROL, Problem, clean
from ingest.read.archive import Archive
from ingest.read.fields import SLUG
from ingest.scaffold import queries, runs, tables
from ingest.scaffold.survey import (
    Draft,
    Member,
    index_text,
    manifest_text,
    next_commands,
    sha256,
    survey,
)

KINDS = (runs.draft, queries.draft, tables.draft)  # tried in order; the first draft wins
MAX_STUDY = 64  # characters of a study name (a folder, a URL path, a prefix of file names)


MAX_ORIGIN = 2000


def check_study(study: str) -> None:
    if (
        not isinstance(study, str)
        or not SLUG.fullmatch(study)
        or "_" in study
        or "." in study
        or len(study) > MAX_STUDY
    ):
        raise Problem(
            clean(study, 80),
            None,
            f"the study name must be a slug of a-z, 0-9 and '-', at most {MAX_STUDY} characters "
            "(it is the post's folder and URL)",
        )


def check_origin(origin: str | None) -> None:
    """An origin is an http(s) URL with a host, no spaces or control characters."""
    if origin is None:
        return
    parts = urlsplit(origin) if len(origin) <= MAX_ORIGIN else None
    if (
        parts is None
        or parts.scheme not in ("http", "https")
        or not parts.netloc
        or re.search(r"[\x00-\x20\x7f-\x9f\u2028\u2029\"<>\\`]", origin)
    ):
        raise Problem(
            "--origin",
            None,
            f"{clean(origin, 80)!r} is not an http(s) URL (https://host/path, no spaces, double "
            f"quotes, <>, or control characters, at most {MAX_ORIGIN} characters)",
        )


def check_archive(archive: Path) -> None:
    """A directory or a regular file (never a FIFO, socket or device, which would hang or
    never end)."""
    try:
        mode = os.stat(archive).st_mode
    except OSError as e:
        raise Problem(str(archive), None, f"archive not found ({e.strerror})") from None
    if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)):
        raise Problem(str(archive), None, "not a directory or a regular file")
    if CONTROL.search(archive.name) or '"' in archive.name:
        raise Problem(
            clean(archive, 200), None, 'rename the archive: its name has control characters or "'
        )


def draft(study: str, archive: Path, digest: str, origin: str | None, arc: Archive) -> Draft:
    """The first draft of a study from its archive's members: the first kind that takes them."""
    members = survey(arc)
    for kind in KINDS:
        if got := kind(study, archive, digest, origin, arc, members):
            return got
    raise Problem(str(archive), None, _no_runs(members))


def _no_runs(members: list[Member]) -> str:
    """Why no draft: no run, and (an archive of summary tables) where its tables can go."""
    why = "no member holds a complete run with intervals"
    tabled = [m for m in members if m.tables and m.format != "mycnf"]
    if not tabled:
        return f"{why} (`python -m ingest detect FILE` shows how a file is read)"
    held = ", ".join(
        f"{clean(m.name, 60)} holds {m.tables} {m.format} table(s)" for m in tabled[:3]
    )
    more = f" and {len(tabled) - 3} more file(s)" if len(tabled) > 3 else ""
    return (
        f"{why}; {held}{more}. Declare the tables to publish under `file_tables:` "
        '(docs/manifest.md, "Tables from summary files"); '
        "`python -m ingest parse FILE` lists them by name"
    )


def new(
    study: str,
    archive: str | Path,
    origin: str | None,
    content: str | Path = "content/posts",
) -> list[Path]:
    """Write content/posts/<study>/{manifest.yaml,index.md}; returns the paths written."""
    check_study(study)
    check_origin(origin)
    archive = Path(archive)
    post = Path(content) / study
    for p in (post, post / "manifest.yaml", post / "index.md"):
        if p.is_symlink() or (p != post and os.path.lexists(p)):
            raise Problem(str(p), None, "already exists; `new` never overwrites a post")
    check_archive(archive)
    digest = sha256(archive)
    d = draft(study, archive, digest, origin, Archive(archive))
    texts = {"manifest.yaml": manifest_text(d), "index.md": index_text(d)}
    try:
        post.mkdir(parents=True, exist_ok=True)
        if post.is_symlink() or not post.is_dir():
            raise Problem(str(post), None, "not a folder of its own; `new` never writes there")
        written = []
        for name, text in texts.items():
            _create(post / name, text)
            written.append(post / name)
    except OSError as e:
        raise Problem(
            clean(e.filename or post, 200), None, f"cannot write ({e.strerror})"
        ) from None
    return written


def _create(path: Path, text: str) -> None:
    """Create `path` (never an existing file, never through a symlink) and write `text`."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)


__all__ = ["new", "next_commands", "draft"]
