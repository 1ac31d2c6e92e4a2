"""What every kind of draft starts from: the archive's members surveyed (each one's format
and whether it holds a complete run), the manifest's first keys, the post's date from the
newest member, and a Draft written as the manifest's and the post's text.

Every file is written with the YAML emitter (ingest/write/datadir.py `dump`), never by pasting
text into a template: a study name, an origin, a member name cannot add a key to the front
matter or the manifest."""

from __future__ import annotations

import datetime
import os
import shlex
import statistics
import tarfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ingest.parse import Parsed, Session, all_parsers, detect
from ingest.parse.member import HEAD, parse_bytes
from ingest.problems import Problem, clean
from ingest.read.archive import Archive, dir_sha256, sha256_file, walk_dir
from ingest.write.datadir import dump

WARMUP = 0.1  # proposed window: skip the first 10% of the shortest run


def monitors() -> dict[str, str]:
    """format -> the `linked:` key of every monitor format in the registry (its parser's
    `linked_as`): a monitor format added to ingest/parse is proposed with no change here."""
    return {p.name: p.linked_as for p in all_parsers() if p.linked_as}


INTERVALS = (1, 2, 3, 5, 10, 15, 20, 30, 60)  # a monitor's interval, proposed from its samples


LISTED = 40  # archive members listed in the manifest's header


EARLIEST = datetime.date(1990, 1, 1)  # a member time before this is no date (tar's 0)


@dataclass
class Member:
    name: str
    format: str | None  # detected format, None when unreadable
    why: str  # what was found (or why not a run)
    threads: set[Any] = field(default_factory=set)  # the thread counts its log says
    metric: str | None = None
    last_t: float | None = None
    interval_s: float | None = None
    run: bool = False
    sessions: int = 0  # complete runs in the file
    samples: int = 0  # a monitor's samples
    devices: list[str] = field(default_factory=list)  # iostat's devices
    tool: str | None = None
    tables: int = 0  # tables read from the file (summary tables, published figures)
    raw: bytes | None = field(default=None, repr=False)  # a monitor's bytes, parsed on demand


def sampled(m: Member) -> Member:
    """A monitor with its samples and devices read (parsed now, once, when first asked for:
    the draft needs them for a few runs, not for each of hundreds of monitors)."""
    if m.raw is not None:
        raw, m.raw = m.raw, None
        try:
            parsed = parse_bytes(raw, m.name, m.format or "auto")
        except Problem:
            return m
        if parsed.sessions:
            m.samples = max(s.intervals for s in parsed.sessions)
            m.devices = [s.meta["device"] for s in parsed.sessions if s.meta.get("device")]
    return m


@dataclass
class Draft:
    """What `new` writes: the manifest (its document and the comment lines that head it and
    precede its rules) and the post (front matter and body)."""

    manifest: dict[str, Any]
    head: list[str]
    rule_notes: list[str]
    front: dict[str, Any]
    front_notes: dict[str, Any]  # front matter key -> the comment line written before it
    body: str


def sha256(path: Path) -> str:
    """sha256 of a file archive (hashlib.file_digest); of a directory: the digest the ingest
    checks (ingest/read/archive.py `dir_sha256`)."""
    return dir_sha256(path) if path.is_dir() else sha256_file(path)


def survey(arc: Archive) -> list[Member]:
    """Every member with its format and whether it holds a complete run with intervals."""
    out, kinds = [], monitors()
    for name in arc.names():
        data = arc.read(name)
        fmt = _detected(data)
        if fmt in kinds and not data.isspace():  # a monitor: parsed when its samples are asked
            why = "no complete run with intervals" if fmt != "sar" else SAR_SAMPLES
            out.append(Member(name, fmt, why, raw=data))
            continue
        try:
            parsed = parse_bytes(data, name, fmt or "auto")
        except Problem as e:
            out.append(Member(name, None, clean(e.reason, 120)))
            continue
        done = [s for s in parsed.sessions if s.complete and s.intervals and s.metric]
        m = Member(name, parsed.format, _what_found(parsed, done), tables=len(parsed.tables))
        if done:
            m.run, m.sessions = True, len(done)
            m.metric = done[0].metric
            m.threads = {s.meta.get("threads") for s in done} - {None}
            m.last_t = min(s.series["t"][-1] for s in done)
            m.interval_s = _step(done[0])
            m.tool = done[0].meta.get("tool") or parsed.format
        elif parsed.format in kinds and parsed.sessions:
            m.samples = max(s.intervals for s in parsed.sessions)
            m.devices = [s.meta["device"] for s in parsed.sessions if s.meta.get("device")]
        out.append(m)
    return out


def _detected(data: bytes) -> str | None:
    """The format of a file as its head says (None: no format knows it; parse_bytes then
    says why), detected once: the monitors among the files are not parsed here."""
    head = data[:HEAD].decode("utf-8", "replace").removeprefix("\ufeff").replace("\r\n", "\n")
    try:
        return detect(head)[0].name
    except Problem:
        return None


SAR_SAMPLES = "OS samples (joined to runs by `linked:`, or to query runs by `sar:`)"


def _what_found(parsed: Parsed, done: list[Session]) -> str:
    if done:
        return f"{len(done)} complete run(s)"
    if parsed.format == "sar":
        return SAR_SAMPLES
    if parsed.sessions:
        return "no complete run with intervals"
    return f"{len(parsed.tables)} table(s), no run" if parsed.tables else "settings, no run"


def _step(session: Session) -> float:
    """The run's reporting interval as its data says: the tool's own, else the median step of
    its interval times (sysbench 0.5 at `--report-interval=2` gives 2)."""
    if session.meta.get("interval_s"):
        own: float = session.meta["interval_s"]  # the tool's, as it printed it
        return own
    t = session.series["t"]
    steps = [b - a for a, b in zip(t, t[1:])] or [t[0]]
    step = statistics.median(steps)
    return int(step) if float(step).is_integer() else round(step, 3)


def head_of(study: str, archive: Path, digest: str, origin: str | None) -> dict[str, Any]:
    """The first keys of every draft's manifest: study, title and the archive as its input."""
    source = {"name": archive.name, "kind": "archive", "sha256": digest}
    return {
        "study": study,
        "title": study.replace("-", " ").capitalize(),
        "inputs": [{**source, "origin": origin or f"file:{archive.name}"}],
    }


def literal(text: str) -> str:
    """`text` as a member template that names no field: its braces doubled."""
    return text.replace("{", "{{").replace("}", "}}")


def next_commands(study: str, archive: Path) -> list[str]:
    """What to run after `new`: the ingest of this study from the archive's folder, the build."""
    return [f"make ingest STUDY={study} ARCHIVES={shlex.quote(str(archive.parent))}", "make build"]


def newest_member_day(archive: Path) -> datetime.date | None:
    """The date (UTC) of the archive's newest member, as the archive records it; None when it
    records none (tar's 0, zip's 1980) or a time in the future."""
    try:
        if archive.is_dir():
            times = [os.stat(real).st_mtime for _, real, _ in walk_dir(archive)]
        elif archive.name.endswith(".zip"):
            with zipfile.ZipFile(archive) as zf:
                times = [
                    datetime.datetime(*i.date_time, tzinfo=datetime.UTC).timestamp()
                    for i in zf.infolist()
                    if not i.is_dir()
                ]
        else:
            with tarfile.open(archive) as tf:
                times = [i.mtime for i in tf if i.isfile()]
    except (OSError, ValueError, tarfile.TarError, zipfile.BadZipFile, Problem):
        return None
    day = datetime.datetime.fromtimestamp(max(times, default=0), datetime.UTC).date()
    today = datetime.datetime.now(datetime.UTC).date()
    return day if EARLIEST <= day <= today and day.year > 1980 else None


def manifest_text(d: Draft) -> str:
    """The manifest: its header comments, then the document, each rule after a comment
    saying what it takes (comments are whole lines: names are cleaned of line breaks)."""
    lines = ["# " + clean(h, 400) for h in d.head]
    k = 0
    for line in dump(d.manifest).splitlines():
        if line.startswith(("  - regex:", "  - {regex:")) and k < len(d.rule_notes):
            lines.append("  # " + clean(d.rule_notes[k], 400))
            k += 1
        lines.append(line)
    return "\n".join(lines) + "\n"


def index_text(d: Draft) -> str:
    """The post: YAML front matter (with a comment before some keys), then the body."""
    lines = ["---"]
    for line in dump(d.front).splitlines():
        key = line.split(":", 1)[0]
        if not line.startswith(" ") and key in d.front_notes:
            lines += ["# " + clean(x, 400) for x in d.front_notes[key].splitlines()]
        lines.append(line)
    return "\n".join(lines + ["---", "", d.body])
