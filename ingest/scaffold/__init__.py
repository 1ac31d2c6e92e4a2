"""`python -m ingest new <study> ARCHIVE [--origin URL]`: a first draft of a manifest and a
post for an archive the project has never seen (docs/manifest.md, "The scaffold").

It hashes the archive, reads every member and detects its format, and keeps the members with
a complete run. Their names give the `runs:` rules and labels (ingest/scaffold/names.py: a
layout stated in a DESC/README, else the parts of the paths that vary, named for what they
are). The runs give the metric and the interval (from the data), a proposed window, the
thread counts; monitors beside the runs (vmstat, iostat, sar, server status) are proposed as
`linked:`; the newest member time dates the post. The post (ingest/scaffold/post.py) opens
with key results that compare across the label that varies most.

Every file is written with the YAML emitter (ingest/write/datadir.py `dump`), never by pasting text
into a template: a study name, an origin, a member name cannot add a key to the front matter
or the manifest. The origin must be an http(s) URL without control characters; the post's
folder and files are created exclusively (never overwritten, never through a symlink).
"""

from __future__ import annotations

import datetime
import os
import re
import shlex
import stat
import statistics
import tarfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from ingest.parse.member import parse_bytes
from ingest.problems import CONTROL, Problem, clean
from ingest.read.archive import Archive, dir_sha256, sha256_file, walk_dir
from ingest.read.manifest import MONITOR_KINDS, SLUG
from ingest.scaffold import names as scaffold_names
from ingest.scaffold import post as scaffold_post
from ingest.write.datadir import dump

WARMUP = 0.1  # proposed window: skip the first 10% of the shortest run
MAX_STUDY = 64  # characters of a study name (a folder, a URL path, a prefix of file names)
MAX_ORIGIN = 2000
MONITORS = {"vmstat": "vmstat", "iostat": "iostat"}
MONITORS |= {"global-status": "status", "mysqladmin-status": "status", "sar": "sar"}
INTERVALS = (1, 2, 3, 5, 10, 15, 20, 30, 60)  # a monitor's interval, proposed from its samples
LISTED = 40  # archive members listed in the manifest's header
DISPLAY_SERVERS = {"mysql": "MySQL", "mariadb": "MariaDB", "percona": "Percona Server"}
DISPLAY_SERVERS |= {"percona-server": "Percona Server", "ps": "Percona Server", "fb": "FB MySQL"}
DISPLAY_SERVERS |= {"fbmysql": "FB MySQL", "pxc": "Percona XtraDB Cluster", "aurora": "Aurora"}
DISPLAY_SERVERS |= {"webscalesql": "WebScaleSQL", "tidb": "TiDB"}
DISPLAY_ENGINES = {"innodb": "InnoDB", "rocksdb": "MyRocks", "myrocks": "MyRocks"}
DISPLAY_ENGINES |= {"tokudb": "TokuDB", "myisam": "MyISAM", "xtradb": "XtraDB"}
DISPLAY_ENGINES |= {"wiredtiger": "WiredTiger", "aria": "Aria", "memory": "MEMORY"}
EARLIEST = datetime.date(1990, 1, 1)  # a member time before this is no date (tar's 0)


@dataclass
class Member:
    name: str
    format: str | None  # detected format, None when unreadable
    why: str  # what was found (or why not a run)
    threads: set = field(default_factory=set)
    metric: str | None = None
    last_t: float | None = None
    interval_s: float | None = None
    run: bool = False
    sessions: int = 0  # complete runs in the file
    samples: int = 0  # a monitor's samples
    devices: list = field(default_factory=list)  # iostat's devices
    tool: str | None = None
    tables: int = 0  # tables read from the file (summary tables, published figures)


@dataclass
class Draft:
    """What `new` writes: the manifest (its document and the comment lines that head it and
    precede its rules) and the post (front matter and body)."""

    manifest: dict
    head: list[str]
    rule_notes: list[str]
    front: dict
    front_notes: dict  # front matter key -> the comment line written before it
    body: str


def sha256(path: Path) -> str:
    """sha256 of a file archive (hashlib.file_digest); of a directory: the digest the ingest
    checks (ingest/read/archive.py `dir_sha256`)."""
    return dir_sha256(path) if path.is_dir() else sha256_file(path)


def survey(arc: Archive) -> list[Member]:
    """Every member with its format and whether it holds a complete run with intervals."""
    out = []
    for name in arc.names():
        try:
            parsed = parse_bytes(arc.read(name), name)
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
        elif parsed.format in MONITORS and parsed.sessions:
            m.samples = max(s.intervals for s in parsed.sessions)
            m.devices = [s.meta["device"] for s in parsed.sessions if s.meta.get("device")]
        out.append(m)
    return out


def _what_found(parsed, done) -> str:
    if done:
        return f"{len(done)} complete run(s)"
    if parsed.format == "sar":
        return "OS samples (joined to runs by `linked:`, or to query runs by `sar:`)"
    if parsed.sessions:
        return "no complete run with intervals"
    return f"{len(parsed.tables)} table(s), no run" if parsed.tables else "settings, no run"


def _step(session) -> float:
    """The run's reporting interval as its data says: the tool's own, else the median step of
    its interval times (sysbench 0.5 at `--report-interval=2` gives 2)."""
    if session.meta.get("interval_s"):
        return session.meta["interval_s"]
    t = session.series["t"]
    steps = [b - a for a, b in zip(t, t[1:])] or [t[0]]
    step = statistics.median(steps)
    return int(step) if float(step).is_integer() else round(step, 3)


# -- checks of the arguments --------------------------------------------------------------------
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


# -- the manifest ------------------------------------------------------------------------------
def draft(study: str, archive: Path, digest: str, origin: str | None, arc: Archive) -> Draft:
    """The first draft of a study from its archive's members."""
    members = survey(arc)
    runs = [m for m in members if m.run]
    if not runs:
        # Another kind of archive (a query benchmark: ingest/scaffold/queries.py) is proposed
        # here, before giving up: _other_kinds() gives functions (study, archive, digest,
        # origin, arc, members) -> Draft | None, tried in order.
        for kind in _other_kinds():
            if got := kind(study, archive, digest, origin, arc, members):
                return got
        raise Problem(str(archive), None, _no_runs(members))
    texts = _desc_texts(arc)
    threads = {m.name: m.threads for m in runs}
    proposals = scaffold_names.propose(
        [m.name for m in runs], threads, scaffold_names.layouts(texts)
    )
    doc, notes, run_labels = _manifest(study, archive, digest, origin, members, proposals)
    p = scaffold_post.plan(doc, run_labels, {m.format for m in runs})
    if any(m.sessions > 1 for m in runs) or any("id" in r for r in doc["runs"]):
        p.show = []  # ids the names alone do not give (-sN, an id: template)
    if p.table:
        doc["tables"] = [p.table]
    front, front_notes, body = scaffold_post.post(doc, p, study, origin, newest_member_day(archive))
    return Draft(doc, _head(doc, members, archive), notes, front, front_notes, body)


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


def head_of(study: str, archive: Path, digest: str, origin: str | None) -> dict:
    """The first keys of every draft's manifest: study, title and the archive as its input."""
    source = {"name": archive.name, "kind": "archive", "sha256": digest}
    return {
        "study": study,
        "title": study.replace("-", " ").capitalize(),
        "inputs": [{**source, "origin": origin or f"file:{archive.name}"}],
    }


def _other_kinds() -> list:
    """The drafts of other kinds of archive, tried when no member holds an interval run (their
    modules import this one's Member and Draft, so they are imported here, when needed)."""
    from ingest.scaffold import queries as scaffold_queries
    from ingest.scaffold import tables as scaffold_tables

    return [scaffold_queries.draft, scaffold_tables.draft]


def _manifest(study, archive, digest, origin, members, proposals) -> tuple[dict, list, list]:
    """(manifest document, a note per rule, each run's labels)."""
    runs = {m.name: m for m in members if m.run}
    labels, types = _labels(proposals)
    rules, notes = _rules(proposals)
    if any("file" in r.get("labels", {}) for r in rules) and "file" not in labels:
        labels.append("file")
    metric = _common([runs[n].metric for p in proposals for n in p.members])
    for p, rule in zip(proposals, rules):
        own = _common([runs[n].metric for n in p.members])
        if own != metric:
            rule["metric"] = own
    _threads_label(proposals, rules, runs, labels, types)
    _set_label(proposals, rules, labels)
    _exclude(proposals, rules, [m.name for m in members if not m.run])
    files = _linked(proposals, rules, members)
    interval = _common([runs[n].interval_s for p in proposals for n in p.members])
    end = min(m.last_t for m in runs.values())
    doc = {
        **head_of(study, archive, digest, origin),
        "interval_s": interval,
        "metric": metric,
        "window": {"start": round(end * WARMUP / interval) * interval, "end": end},
        "labels": labels,
    }
    optional = {
        "label_types": types,
        "label_names": {k: scaffold_post.heading(k) for k in labels},
        "display": _display(proposals),
        "runs": rules,
        "files": files,
    }
    doc.update((k, v) for k, v in optional.items() if v or k == "runs")
    return doc, notes, _run_labels(proposals, rules, runs, labels)


def _labels(proposals) -> tuple[list, dict]:
    """The labels of the rules' groups, in order of appearance, and the int-typed ones."""
    labels, types = [], {}
    for p in proposals:
        constants = [(k, v.isascii() and v.isdigit(), False) for k, v in p.constants.items()]
        for name, numeric, hidden in [*p.groups, *constants]:
            if hidden:
                continue
            if name not in labels:
                labels.append(name)
            if numeric:
                types[name] = "int"
    return labels, types


def _rules(proposals) -> tuple[list[dict], list[str]]:
    """A `runs:` rule per proposal, and the note that heads it. A rule without a label (one
    file) gets a `file` label, or, the archive's only run, an `id:` of its name."""
    single = len(proposals) == 1 and not any(not h for _, _, h in proposals[0].groups)
    rules, notes = [], []
    for i, p in enumerate(proposals):
        rule = {"regex": p.regex}
        if p.constants:  # what the names of a rule of its own shape share
            rule["labels"] = {
                k: int(v) if v.isascii() and v.isdigit() else v for k, v in p.constants.items()
            }
        elif not any(not h for _, _, h in p.groups):
            stem = _slug(Path(p.members[0]).stem) or f"run{i + 1}"
            rule.update({"id": stem} if single else {"labels": {"file": stem}})
        rules.append(rule)
        src = f"the layout in {p.source}" if p.source not in ("names", "layout") else "the names"
        notes.append(
            f"{len(p.members)} file(s), e.g. {clean(p.members[0], 120)}; labels from {src}"
        )
    return rules, notes


def _run_labels(proposals, rules, runs, labels) -> list[dict]:
    """Each run's labels as the ingest will give them (values as text): the rule's named
    groups and constant labels, and `threads` from the log when it is a label of its own."""
    out = []
    for p, rule in zip(proposals, rules):
        for n in p.members:
            mt = re.fullmatch(p.regex, n)
            values = {k: v for k, v in mt.groupdict().items() if not k.startswith("_")}
            values.update({k: str(v) for k, v in rule.get("labels", {}).items()})
            counts = (
                sorted(runs[n].threads)
                if "threads" in labels and "threads" not in values
                else [None]
            )
            for c in counts:
                out.append({**values, **({"threads": str(c)} if c is not None else {})})
    return out


def _common(values: list):
    """The most common value (the first of the most common)."""
    counts: dict = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return max(counts, key=counts.get)


def _threads_label(proposals, rules, runs, labels, types) -> None:
    """`threads` becomes a label when the runs' thread counts (as their logs say) vary, or
    when the names do not tell the runs apart, unless a label already is the thread count."""
    if "threads" in labels:
        return
    counts = set().union(*(runs[n].threads for p in proposals for n in p.members))
    keys = set()
    for p, rule in zip(proposals, rules):
        for n in p.members:
            mt = re.fullmatch(p.regex, n)
            visible = {k: v for k, v in mt.groupdict().items() if not k.startswith("_")}
            keys.add(tuple(sorted({**visible, **rule.get("labels", {})}.items())))
    n_runs = sum(runs[n].sessions for p in proposals for n in p.members)
    if len(counts) > 1 or (counts and len(keys) < n_runs):
        labels.append("threads")
        types["threads"] = "int"


def _set_label(proposals, rules, labels) -> None:
    """Rules giving the same labels to their runs: a `set` label for each of those rules."""
    first: dict[tuple, int] = {}  # a run's labels -> the first rule that gave them
    clashing: set[int] = set()
    for i, (p, rule) in enumerate(zip(proposals, rules)):
        for n in p.members:
            mt = re.fullmatch(p.regex, n)
            values = {k: v for k, v in mt.groupdict().items() if not k.startswith("_")}
            key = tuple(sorted({**values, **rule.get("labels", {})}.items()))
            if first.setdefault(key, i) != i:
                clashing |= {first[key], i}
    for i in sorted(clashing):
        rules[i].setdefault("labels", {})["set"] = f"s{i + 1}"
    if clashing:
        labels.append("set")


def _exclude(proposals, rules, others: list[str]) -> None:
    """A rule must not take a member without a run (an empty or interrupted file named like
    the runs, a monitor in the same folder): by their file names when few, else by name, else
    (hundreds of names) `incomplete: skip`, which skips them with a warning each."""
    for p, rule in zip(proposals, rules):
        pattern = re.compile(rule["regex"])
        hits = [n for n in others if pattern.fullmatch(n)]
        if not hits:
            continue
        base = {n.rsplit("/", 1)[-1] for n in hits}
        if len(base) <= 5 and not any(m.rsplit("/", 1)[-1] in base for m in p.members):
            alts = "|".join(map(re.escape, sorted(base)))
            rule["regex"] = f"(?!(?:.*/)?(?:{alts})$){rule['regex']}"
        elif sum(len(n) for n in hits) <= 2000:
            rule["regex"] = f"(?!(?:{'|'.join(map(re.escape, hits))})$){rule['regex']}"
        else:
            rule["incomplete"] = "skip"


def literal(text: str) -> str:
    """`text` as a member template that names no field: its braces doubled."""
    return text.replace("{", "{{").replace("}", "}}")


def _linked(proposals, rules, members) -> list[dict]:
    """Monitors beside the runs (vmstat, iostat, sar, server status in the run's folder, or named
    like it) as each rule's `linked:`, with a `files:` rule per monitor; the template is the
    monitor's path with the run's named groups in it, checked against every run."""
    monitors = [m for m in members if m.format in MONITORS]
    runs = {m.name: m for m in members if m.run}
    files = []
    for p, rule in zip(proposals, rules):
        linked = {}
        for fmt in sorted({m.format for m in monitors}):
            kind = MONITORS[fmt]
            if kind in linked:
                continue
            found = _beside(p, [m for m in monitors if m.format == fmt])
            if not found:
                continue
            template, pairs = found
            linked[kind] = template
            glob = re.sub(r"\{[^{}]*\}", "*", template).replace("{{", "{").replace("}}", "}")
            if not any(f["glob"] == glob for f in files):
                files.append({"glob": glob, "format": fmt})
            linked.setdefault("interval_s", _monitor_interval([(runs[r], mon) for r, mon in pairs]))
        if linked:
            rule["linked"] = {k: linked[k] for k in (*MONITOR_KINDS, "interval_s") if k in linked}
            rule["linked"]["panels"] = _panels(linked, monitors)
    return files


def _named_like(p, run: str, here: list[Member]) -> list[Member]:
    """The monitors of a run's folder: all when one, else those named with a part of the run's
    name (its time stamp, its engine)."""
    if len(here) <= 1:
        return here
    values = [v for v in re.fullmatch(p.regex, run).groupdict().values() if v and len(v) > 1]
    return [m for m in here if any(v in m.name.rsplit("/", 1)[-1] for v in values)]


def _panels(linked: dict, monitors: list[Member]) -> list[str]:
    """The panels shown first: CPU and I/O wait, context switches, the first device's writes,
    and the CPU per operation when both monitors are there (docs/manifest.md)."""
    out = ["vm.us", "vm.wa", "vm.cs"] if "vmstat" in linked else []
    if "sar" in linked and "vmstat" not in linked:
        out += ["sar.%user", "sar.%iowait"]
    device = next((d for m in monitors if m.format == "iostat" for d in m.devices), None)
    if "iostat" in linked and device:
        out.append(f"io.{device}.w/s")
    if ("vmstat" in linked and "iostat" in linked) or ("sar" in linked and "vmstat" not in linked):
        out.append("cpu_per_op")  # the cores: iostat's or sar's `(N CPU)`
    return out


def _beside(p, monitors) -> tuple[str, list] | None:
    """(template, [(run, monitor)]) when the runs of a rule have monitors of one format
    beside them (one each in the run's folder, or the one named with a part of the run's name:
    `vm_{_started}.txt`), the template filled from the run's groups."""
    folder = {}
    for mon in monitors:
        folder.setdefault(mon.name.rsplit("/", 1)[0] if "/" in mon.name else "", []).append(mon)
    pairs = []
    for run in p.members:
        here = _named_like(p, run, folder.get(run.rsplit("/", 1)[0] if "/" in run else "", []))
        if len(here) == 1:
            pairs.append((run, here[0]))
    if not pairs:
        return None
    run, mon = pairs[0]
    groups = re.fullmatch(p.regex, run).groupdict()
    template = literal(mon.name)
    for key, value in sorted(groups.items(), key=lambda kv: -len(kv[1] or "")):
        if value and template.count(value) == 1:
            template = template.replace(value, "{" + key + "}")
    for run, mon in pairs:
        values = re.fullmatch(p.regex, run).groupdict()
        try:
            if template.format(**values) != mon.name:
                return None
        except (KeyError, IndexError, ValueError):
            return None
    return template, [(r, m) for r, m in pairs]


def _monitor_interval(pairs) -> int:
    """The monitors' sample interval: the run's length over the samples, the nearest usual one."""
    ratios = [run.last_t / mon.samples for run, mon in pairs if mon.samples and run.last_t]
    if not ratios:
        return 1
    guess = statistics.median(ratios)
    return min(INTERVALS, key=lambda i: abs(i - guess))


def _display(proposals) -> dict:
    """Readers' names of versions (`mysql-8-0-21`: MySQL 8.0.21) and engines (InnoDB), for any
    label whose values are all such."""
    out: dict = {}
    for p in proposals:
        for name, _, hidden in p.groups:
            if hidden:
                continue
            values = [re.fullmatch(p.regex, m)[name] for m in p.members]
            if all(re.fullmatch(scaffold_names.SERVER_VERSION, v, re.I) for v in values):
                shown = {v: _version_name(v) for v in values}
            elif {v.lower() for v in values} <= set(DISPLAY_ENGINES):
                shown = {v: DISPLAY_ENGINES[v.lower()] for v in values}
            else:
                continue
            out.setdefault(name, {}).update({v: n for v, n in shown.items() if n and n != v})
    return {k: v for k, v in out.items() if v}


def _version_name(value: str) -> str | None:
    m = re.fullmatch(r"([A-Za-z-]*?)[-_]?([0-9]+(?:[._-][0-9]+){1,3})", value)
    if not m:
        return None
    server = DISPLAY_SERVERS.get(m[1].lower(), m[1])
    number = re.sub(r"[_-]", ".", m[2])
    return f"{server} {number}".strip()


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60].strip("-")


def _desc_texts(arc: Archive) -> dict[str, str]:
    """The DESC and README files of the archive (any depth): their text."""
    out = {}
    for name in arc.names():
        if name.rsplit("/", 1)[-1].lower() in scaffold_names.DESC_FILES:
            out[name] = arc.read(name)[:65536].decode("utf-8", "replace")
    return out


def _head(doc: dict, members: list[Member], archive: Path) -> list[str]:
    head = [
        "Study manifest (docs/manifest.md), proposed by `python -m ingest new`; check it, then",
        f"`{next_commands(doc['study'], archive)[0]}` reports what each rule took.",
        "Archive members:",
    ]
    for m in members[:LISTED]:
        head.append(f"  {clean(m.name, 160)}: {m.format + ': ' if m.format else ''}{m.why}")
    if len(members) > LISTED:
        head.append(f"  ... and {len(members) - LISTED} more (`make ingest` reports each)")
    head += [
        f"interval_s: from the runs' own interval times; window: the first {WARMUP:.0%} of the",
        "shortest run is taken as warm-up, the end is where it ends. Look at the time series",
        "and move it to the steady state.",
        "base: add `base: {<label>: <value>}` for each run's ratio to a base case.",
        "label_names: add `label_names: {<label>: <heading>}` for the readers' column headings.",
    ]
    return head


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


# -- writing ------------------------------------------------------------------------------------
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
