"""`python -m ingest new <study> ARCHIVE [--origin URL]`: a first manifest and post for an
archive the project has never seen.

It hashes the archive (`hashlib.file_digest`), reads every member and detects its format,
keeps the members with a complete run, groups their names by shape and proposes one `runs:`
rule per group, with a named group for each part that varies (`res_(?P<iops>\\d+)iops.log`:
the name comes from the letters beside the number, or from what the values look like), then
writes `content/posts/<study>/manifest.yaml` and `index.md` (front matter with the site's
taxonomies, a key-results placeholder, the default tables and a time series). Nothing else is
needed: `make ingest STUDY=<study> ARCHIVES=<dir>` and `make build` give a working post.
"""

from __future__ import annotations

import datetime
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from .archive import Archive, dir_sha256, sha256_file
from .manifest import SLUG, InputError
from .parsers import ParseError
from .read import parse_bytes
from .writer import dump

# name parts: a dotted version with its letters (v8.0.22), letters, digits, separators
TOKEN = re.compile(r"[A-Za-z]*\d+(?:\.\d+)+[A-Za-z]*|[A-Za-z]+|\d+|[^A-Za-z0-9]+")
VERSIONED = re.compile(r"^([A-Za-z]*)(\d+(?:\.\d+)+)([A-Za-z]*)$")
ENGINES = {
    "innodb",
    "rocksdb",
    "myrocks",
    "tokudb",
    "myisam",
    "memory",
    "aria",
    "xtradb",
    "wiredtiger",
}
VERSION = re.compile(r"^\d+(?:[._]\d+)+$")
WARMUP = 0.1  # proposed window: skip the first 10% of the shortest run


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


def sha256(path: Path) -> str:
    """sha256 of a file archive (hashlib.file_digest); of a directory: the digest the ingest
    checks (ingest/archive.py `dir_sha256`)."""
    return dir_sha256(path) if path.is_dir() else sha256_file(path)


def survey(arc: Archive) -> list[Member]:
    """Every member with its format and whether it holds a complete run with intervals."""
    out = []
    for name in arc.names():
        try:
            parsed = parse_bytes(arc.read(name), name)
        except ParseError as e:
            out.append(Member(name, None, e.reason))
            continue
        done = [s for s in parsed.sessions if s.complete and s.intervals and s.metric]
        m = Member(
            name,
            parsed.format,
            f"{len(done)} complete run(s)"
            if done
            else "no complete run with intervals"
            if parsed.sessions
            else "tables or settings, no run",
        )
        if done:
            m.run, m.sessions = True, len(done)
            m.metric = done[0].metric
            m.threads = {s.meta.get("threads") for s in done}
            m.last_t = min(s.series["t"][-1] for s in done)
            m.interval_s = done[0].meta.get("interval_s") or 1
        out.append(m)
    return out


# -- rules -----------------------------------------------------------------------------------
def _kind(tok: str) -> str:
    """A part's class: 'v' dotted version, '9' digits, 'a' letters, else the separator itself."""
    if VERSIONED.match(tok):
        return "v"
    return "9" if tok.isdigit() else "a" if tok.isalpha() else tok


def _group(position: int, columns: list[list[str]], used: set) -> tuple[str, str, bool]:
    """(label name, regex, numeric) for the varying part at `position` of names of one shape
    (`columns[i]`: the values of part i). Digits are named by the constant letters before them,
    else after them (`iops5000`, `5000iops`); letters by what they look like."""
    values = columns[position]
    kind = _kind(values[0])
    if kind == "9":
        near = [columns[k] for k in (position - 1, position + 1) if 0 <= k < len(columns)]
        word = next((c[0].lower() for c in near if len(set(c)) == 1 and c[0].isalpha()), "n")
        return _unique(word, used), "(?P<{}>\\d+)", True
    if kind == "v":
        vers = [VERSIONED.match(v) for v in values]
        if len({v[1] for v in vers}) == 1 and len({v[3] for v in vers}) == 1:
            return (
                _unique("version", used),
                f"{re.escape(vers[0][1])}(?P<{{}}>\\d+(?:\\.\\d+)+){re.escape(vers[0][3])}",
                False,
            )
        return _unique("version", used), "(?P<{}>[A-Za-z0-9.]+)", False
    name = "engine" if {v.lower() for v in values} & ENGINES else f"part{position}"
    return _unique(name, used), "(?P<{}>[A-Za-z]+)", False


def _unique(name: str, used: set) -> str:
    out, k = name, 2
    while out in used:
        out, k = f"{name}{k}", k + 1
    used.add(out)
    return out


def propose_rules(names: list[str]) -> list[dict]:
    """One rule per group of names with the same shape (the same separators and sequence of
    letter, digit and version parts): {"regex", "groups": [(label, numeric)], "members"};
    the parts that never vary stay literal."""
    shapes: dict[tuple, list[list[str]]] = {}
    for n in names:
        toks = TOKEN.findall(n)
        shapes.setdefault(tuple(map(_kind, toks)), []).append(toks)
    rules = []
    for shape, members in shapes.items():
        columns = [[m[i] for m in members] for i in range(len(shape))]
        used: set = set()
        parts, groups = [], []
        for i, values in enumerate(columns):
            if len(set(values)) == 1:
                parts.append(re.escape(values[0]))
                continue
            name, pattern, numeric = _group(i, columns, used)
            parts.append(pattern.format(name))
            groups.append((name, numeric))
        rules.append(
            {"regex": "".join(parts), "groups": groups, "members": ["".join(m) for m in members]}
        )
    return rules


def exclude(rules: list[dict], others: list[str]) -> None:
    """Make each rule's regex leave out the members that hold no run (an empty or interrupted
    file named like the runs), by name, so the ingest never reads them as runs."""
    for r in rules:
        hits = [n for n in others if re.fullmatch(r["regex"], n)]
        if hits:
            r["regex"] = f"(?!(?:{'|'.join(map(re.escape, hits))})$)" + r["regex"]


# -- files -----------------------------------------------------------------------------------
def manifest_doc(
    study: str, title: str, archive: Path, digest: str, origin: str, members: list[Member]
) -> tuple[dict, list[dict]]:
    runs = [m for m in members if m.run]
    if not runs:
        raise InputError(
            str(archive),
            0,
            "no member holds a complete run with intervals "
            "(`python -m ingest detect FILE` shows how a file is read)",
        )
    rules = propose_rules([m.name for m in runs])
    exclude(rules, [m.name for m in members if not m.run])
    labels, types = [], {}
    for r in rules:
        for name, numeric in r["groups"]:
            if name not in labels:
                labels.append(name)
            if numeric:
                types[name] = "int"
    by_name = {m.name: m for m in runs}
    rule_docs = []
    for i, r in enumerate(rules):
        d = {"regex": r["regex"]}
        if not r["groups"]:  # a file of its own: a label tells it apart
            d["labels"] = {"file": _slug(Path(r["members"][0]).stem) or f"run{i + 1}"}
        rule_docs.append(d)
    if any(not r["groups"] for r in rules) and "file" not in labels:
        labels.append("file")
    # thread counts that vary across runs (or runs the names do not tell apart): threads becomes
    # a label too, unless a number in the names already is the thread count of every run
    keys, groups = {}, []
    for r, d in zip(rules, rule_docs):
        for name in r["members"]:
            mt = re.fullmatch(r["regex"], name)
            key = tuple(sorted(mt.groupdict().items())) + tuple(sorted(d.get("labels", {}).items()))
            keys.setdefault(key, set()).update(by_name[name].threads)
            groups.append((mt.groupdict(), by_name[name].threads))
    counts = set().union(*(t for _, t in groups)) - {None}
    named = any(
        all(
            len(t) == 1 and g.get(k) is not None and g[k].isdigit() and int(g[k]) in t
            for g, t in groups
        )
        for k in types
    )
    if "threads" not in labels and not named and (len(counts) > 1 or len(keys) < len(runs)):
        labels.append("threads")
        types["threads"] = "int"
    ids = _ids(rules, rule_docs, labels)
    if (
        len(set(ids)) != len(ids) and len(rules) > 1
    ):  # two rules give the same labels: a set label per rule
        for i, d in enumerate(rule_docs):
            d.setdefault("labels", {})["set"] = f"s{i + 1}"
        labels.append("set")
    metric = runs[0].metric
    interval = runs[0].interval_s
    end = min(m.last_t for m in runs)
    start = round(end * WARMUP / interval) * interval
    doc = {
        "study": study,
        "title": title,
        "inputs": [{"name": archive.name, "kind": "archive", "sha256": digest, "origin": origin}],
        "interval_s": interval,
        "metric": metric,
        "window": {"start": start, "end": end},
        "labels": labels,
    }
    if types:
        doc["label_types"] = types
    doc["runs"] = rule_docs
    return doc, rules


def _ids(rules, rule_docs, labels) -> list[str]:
    ids = []
    for r, d in zip(rules, rule_docs):
        for name in r["members"]:
            mt = re.fullmatch(r["regex"], name)
            vals = {**mt.groupdict(), **d.get("labels", {})}
            ids.append("-".join(str(vals[k]) for k in labels if k in vals).lower())
    return ids


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def next_commands(study: str, archive: Path) -> list[str]:
    """What to run after `new`: the ingest of this study from the archive's folder, the build."""
    return [f"make ingest STUDY={study} ARCHIVES={shlex.quote(str(archive.parent))}", "make build"]


def manifest_text(doc: dict, members: list[Member], rules: list[dict], archive: Path) -> str:
    """The manifest with comments saying where each proposal came from."""
    head = [
        "# Study manifest (docs/manifest.md), proposed by `python -m ingest new`; check it, then",
        f"# `{next_commands(doc['study'], archive)[0]}` reports what each rule took.",
        "# Archive members:",
    ]
    for m in members:
        head.append(f"#   {m.name}: {m.format + ': ' if m.format else ''}{m.why}")
    head.append(
        f"# window: the first {WARMUP:.0%} of the shortest run is taken as warm-up; the end is where the"
    )
    head.append("# shortest run ends. Look at the time series and move it to the steady state.")
    head.append("# base: add `base: {<label>: <value>}` for ratios to a base case.")
    head.append(
        "# label_names: add `label_names: {<label>: <heading>}` for the readers' column headings."
    )
    body = dump(doc)
    lines = body.splitlines()
    out, k = [], 0
    for line in lines:
        if line.startswith(("  - regex:", "  - {regex:")) and k < len(rules):
            out.append(f"  # {len(rules[k]['members'])} file(s), e.g. {rules[k]['members'][0]}")
            k += 1
        out.append(line)
    return "\n".join(head + out) + "\n"


ARCHETYPE = Path(__file__).resolve().parent.parent / "archetypes" / "posts.md"
# the archetype's words for the run's metric -> the scaffold's, which names it
METRIC_WORDS = (
    ("the mean rate", "the mean {metric}"),
    ("Interval by interval, the rate", "Interval by interval, {metric}"),
    ("The rate per interval", "{metric} per interval"),
    ("per-interval rate", "per-interval {metric}"),
)


def post_body(metric: str) -> str:
    """The post under the front matter: the body of the posts archetype (what `hugo new content`
    writes), its shortcodes unescaped and the metric named where the archetype says "the rate"."""
    body = ARCHETYPE.read_text().split("\n---\n", 1)[1].lstrip("\n")
    body = body.replace('{{ "{{<" }}', "{{<").replace('{{ ">}}" }}', ">}}")
    for words, named in METRIC_WORDS:
        assert words in body, f"{ARCHETYPE}: {words!r} is gone (ingest/scaffold.py METRIC_WORDS)"
        body = body.replace(words, named.format(metric=metric))
    return body


def index_text(
    doc: dict, study: str, today: datetime.date, engines: list[str], origin: str | None
) -> str:
    """The post: front matter with the taxonomies of config.toml and the original (the archive,
    linked to its origin when given), three key results whose numbers come from the default
    tables through `value`, the time series, the default tables and the provenance. No digit
    is typed into the prose, and every figure says where its numbers come from, so the post
    passes the site's checks as it is (tests/test_posts_numbers.py, tests/test_post_trust.py)."""
    title = doc["title"].replace('"', "'")
    archive = doc["inputs"][0]["name"].replace('"', "'")
    metric = doc["metric"]
    link = (
        f'  url: "{origin}"\n'
        if origin
        else "  # no origin given (make new ... ORIGIN=<url>): the byline says so; add url: when known\n"
    )
    # the summary names the archive: a name with digits is listed, as every name with digits is
    names = (
        f'# Names that contain digits (docs/studies.md, "Numbers in prose").\nnames: ["{archive}"]\n'
        if re.search(r"\d", archive)
        else ""
    )
    return f"""---
title: "{title}"
date: {today.isoformat()}
summary: "The runs of {archive}; the summary is still to be written."
study: {study}
tags: []
engines: [{", ".join(engines)}]
versions: []
benchmarks: [sysbench]
storage: []
{names}# The original this post revisits (docs/studies.md, "Writing a post"): for now the archive;
# give its title, authors, publisher and date (YYYY-MM-DD) when known.
original:
  title: "{archive}"
{link}---

{post_body(metric)}"""


def new(
    study: str,
    archive: str | Path,
    origin: str | None,
    content: str | Path = "content/posts",
    today: datetime.date | None = None,
) -> list[Path]:
    """Write content/posts/<study>/{manifest.yaml,index.md}; returns the paths written."""
    archive = Path(archive)
    if not SLUG.match(study) or "_" in study or "." in study:
        raise InputError(
            study, 0, "the study name must be a slug of a-z, 0-9 and '-' (it is the post's URL)"
        )
    post = Path(content) / study
    for name in ("manifest.yaml", "index.md"):
        if (post / name).exists():
            raise InputError(str(post / name), 0, "already exists; `new` never overwrites a post")
    if not archive.exists():
        raise InputError(str(archive), 0, "archive not found")
    digest = sha256(archive)
    members = survey(Archive(archive))
    from . import scaffold_queries  # a query benchmark (DBT3): its own draft

    if scaffold_queries.is_query_archive(members):
        day = today or datetime.date.today()
        return scaffold_queries.write(
            study, Archive(archive), archive, digest, origin, members, post, day
        )
    title = study.replace("-", " ").capitalize()
    doc, rules = manifest_doc(
        study, title, archive, digest, origin or f"file:{archive.name}", members
    )
    post.mkdir(parents=True, exist_ok=True)
    (post / "manifest.yaml").write_text(
        manifest_text(doc, members, rules, archive), encoding="utf-8"
    )
    engines = sorted(
        {
            mt["engine"]
            for r in rules
            for n in r["members"]
            if (mt := re.fullmatch(r["regex"], n)) and "engine" in mt.groupdict()
        }
    )
    (post / "index.md").write_text(
        index_text(doc, study, today or datetime.date.today(), engines, origin), encoding="utf-8"
    )
    return [post / "manifest.yaml", post / "index.md"]
