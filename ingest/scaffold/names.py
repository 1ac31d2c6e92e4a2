"""`runs:` rules from the names of an archive's run files, for the scaffold (ingest/scaffold/__init__.py).

The parts of the paths that vary become labels, named for what they are:
- a layout the archive states itself, in a DESC or README at any depth
  (`Layout: <server>/<collation>/<threads>thr.log`): each `<placeholder>` a label;
- otherwise the paths of one depth are compared folder by folder. A folder (or file name)
  whose values share one shape (the same separators and sequence of letters, digits,
  versions) varies token by token; one whose values differ in shape varies as a whole;
- a varying part is named by its values: a known storage engine (`engine`), a server with
  its version (`mysql-8-0-21`, `mariadb-10.4.8`) or a dotted version (`version`; a folder
  that is a version with a build suffix, `8.0.36-custom` or `8.0.36-28`, is one whole version;
  one version in two servers' folders, `mysql/8.0.36` and `percona/8.0.36`, is joined with its
  server into one label, `mysql-8.0.36`: `join_families`),
  an OS release kept whole (`ubu2204`: `os`), a storage
  type (`io1`, `gp2`, `nvme`, `ssd`: `storage`), a collation (`collation`), a sysbench test
  (`test`); a number by the word beside it, canonical where it is known (`16thr`, `t16`,
  `c16`: `threads`; `5000iops`: `iops`; `w1000`: `warehouses`; `bp54GB`: `bp_gb`, `27GB`:
  `size_gb`, `redo2g`: `redo_gb`), else by the runs' own thread counts when the values are
  those (`threads`), else by the word before it across a separator (`wps=1000`: `wps`);
- a time stamp (`20200302-1530`, epoch seconds), or a number that is different in every run,
  is not a label when the other parts already tell the runs apart: it stays a group named
  `_<name>`, which templates (`id:`, `name:`, `linked:`) may use and which is not a label.
- names of several shapes whose whole values say nothing a label could be named for
  (`res_16thr_innodb_io1_15000ios.txt`, `res_rocksdb_5000iops_cache27GB.txt`, ...): one rule per
  shape (at most MAX_SHAPES), each named token by token, and what a rule's names share that
  says what it is (`innodb`, `io1`, `16thr`) a constant label of that rule (`constants`);
Each rule is checked against its members (it must take each, with the values intended); a
shape the tokens cannot describe falls back to whole folders.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

import regex

from ingest.read.patterns import MatchClock, budgeted

SERVERS = r"percona-server|mariadb|mysql|percona|pxc|fbmysql|webscalesql|aurora|tidb|ps|fb"
SERVER_VERSION = rf"(?:{SERVERS})[-_]?[0-9]+(?:[._-][0-9]+){{1,3}}"
# one token of a name: a server with its version, a time stamp, a dotted version, a storage
# type with its digit, letters, digits, or a run of other characters (separators)
TOKEN = re.compile(
    rf"(?P<V>(?i:{SERVER_VERSION})(?![0-9]))"
    r"|(?P<T>(?:19|20)[0-9]{2}(?:0[1-9]|1[0-2])(?:[0-2][0-9]|3[01])(?:[-_T]?[0-9]{4}(?:[0-9]{2})?)?"
    r"(?![0-9])|1[5-9][0-9]{8}(?![0-9]))"
    r"|(?P<v>[0-9]+(?:\.[0-9]+)+)"
    r"|(?P<w>(?i:io[12]|gp[23]|st1|sc1)(?![A-Za-z0-9]))"
    r"|(?P<a>[A-Za-z]+)|(?P<d>[0-9]+)|(?P<s>[^A-Za-z0-9]+)",
    re.ASCII,
)
PATTERNS = {  # the regex of a group of each token kind (ASCII digits only, never \d)
    "V": f"(?i:{SERVER_VERSION})",
    "T": r"[0-9]{8}(?:[-_T]?[0-9]{4}(?:[0-9]{2})?)?|[0-9]{10}",
    "v": r"[0-9]+(?:\.[0-9]+)+",
    "w": r"[A-Za-z]+[0-9]+",
    "a": r"[A-Za-z]+",
    "d": r"[0-9]+",
    "seg": r"[^/]+",
}
ENGINES = {"innodb", "rocksdb", "myrocks", "tokudb", "myisam", "memory", "aria", "xtradb"}
ENGINES |= {"wiredtiger", "mmapv1", "heap", "archive", "ndb", "ndbcluster", "columnstore"}
STORAGE = {"io1", "io2", "gp2", "gp3", "st1", "sc1", "nvme", "ssd", "hdd", "optane", "sata"}
STORAGE |= {"sas", "ebs", "local", "ramdisk", "tmpfs", "pmem", "flash", "disk", "raid"}
SERVER_WORDS = set(SERVERS.split("|")) | {"percona_server", "ms", "maria"}
TEST_WORDS = {"ro", "rw", "wo", "oltp", "select", "insert", "update", "delete", "point"}
TEST_WORDS |= {"read", "write", "scan", "range", "readonly", "readwrite", "writeonly", "tpcc"}
COLLATION = re.compile(r"[a-z0-9]+(?:_[a-z0-9]+)*_(?:ci|cs|bin|ai_ci|as_cs)|binary", re.I)
TEST = re.compile(r"(?:oltp|select|insert|update|delete|point|read|write|scan)[a-z_]*", re.I)
# a word beside a number -> the label's name
WORDS = {w: "threads" for w in ("thr", "thrs", "thread", "threads", "thd", "thds", "th", "t")}
WORDS |= {w: "threads" for w in ("c", "clients", "client", "conn", "conns", "connections")}
WORDS |= {"iops": "iops", "ios": "iops", "kiops": "kiops", "dop": "threads", "users": "threads"}
WORDS |= {w: "warehouses" for w in ("w", "wh", "whs", "warehouse", "warehouses")}
WORDS |= {"tables": "tables", "tbl": "tables", "rows": "rows", "s": "seconds", "sec": "seconds"}
SIZE_UNITS = {"gb": "gb", "g": "gb", "gib": "gb", "mb": "mb", "m": "mb", "mib": "mb", "tb": "tb"}
SIZE_UNITS |= {"kb": "kb", "k": "kb", "tib": "tb"}
# a folder that is a whole version, its build suffix included (`8.0.36-custom`, `8.0.36-28`,
# `mysql-8.0.36-custom`): one label, never a version and a number beside it
WHOLE_VERSION = re.compile(
    rf"(?:(?:{SERVERS})[-_]?[0-9]+(?:[._-][0-9]+){{1,3}}|[0-9]+(?:\.[0-9]+)+)(?:[-+~][A-Za-z0-9]+)*",
    re.I | re.ASCII,
)
# an operating system and its release, named as one word (`ubu2204`, `el9`): kept whole
OS_RELEASE = re.compile(
    r"(?:ubu|ubuntu|deb|debian|centos|rhel|el|rocky|alma|ol|fc|fedora|sles|amzn|al|bookworm)"
    r"[0-9]+",
    re.I | re.ASCII,
)
# words before a number that say nothing of it (`res_3.log`): the number stays `n`
FILLERS = {"res", "result", "results", "log", "logs", "out", "output", "file", "data", "tmp"}
DESC_FILES = {"desc", "readme", "readme.md", "readme.txt", "readme.rst", "description"}
PLACEHOLDER = re.compile(r"[<{]([A-Za-z][A-Za-z0-9 _-]{0,40})[>}]")
MAX_LABEL = 40  # characters of a label name
MAX_SHAPES = 12  # more shapes of names than this: whole names, not a rule per shape
# the names a constant part of a rule's names may give a label: it says what it is
CONSTANT_NAMES = {"engine", "storage", "server", "version", "test", "collation"}
CONSTANT_NAMES |= set(WORDS.values())


@dataclass
class Group:
    """One varying part of the names of a rule's members."""

    kind: str  # token kind (PATTERNS), or "seg" for a whole folder or file name
    values: list[str]  # its value in each member, in member order
    before: str | None = None  # the constant word just before it, if any
    after: str | None = None  # the constant word just after it, if any
    sep_before: str = ""  # the separator between that word and the part
    name: str = ""
    numeric: bool = False
    hidden: bool = False  # a template field (`_name`), not a label
    vague: bool = False  # a number no known word names (`n`, or the word before it)


@dataclass
class Proposal:
    """A `runs:` rule: its regex, the groups in order (label name, int-typed, hidden) and the
    members it takes."""

    regex: str
    groups: list[tuple[str, bool, bool]]
    members: list[str]
    source: str = "names"  # "names", or the DESC/README file whose layout it follows
    parts: list[str | Group] = field(default_factory=list)  # literal text and groups
    constants: dict[str, Any] = field(
        default_factory=dict
    )  # label -> the value every member's name says
    joined: dict[str, list[str]] = field(
        default_factory=dict
    )  # label -> the groups it joins (`join:`)


def tokens(text: str) -> list[tuple[str, str]]:
    """(kind, text) tokens; a separator's kind is its own text."""
    out = []
    for m in TOKEN.finditer(text):
        kind = m.lastgroup or ""  # (every alternative is a named group)
        out.append((m.group() if kind == "s" else kind, m.group()))
    return out


def layouts(texts: dict[str, str]) -> list[tuple[str, str]]:
    """(file, layout) for each path with `<placeholders>` in a DESC or README text."""
    out = []
    for file, text in texts.items():
        for line in text.splitlines()[:200]:
            for word in line.split():
                if PLACEHOLDER.search(word) and ("/" in word or "." in word):
                    out.append((file, word.strip("`'\",;:()")))
    return out


class _TooSlow(Exception):
    """A stated layout's pattern over the budget of the scaffold's matches."""


def from_layout(layout: str, names: list[str], clock: MatchClock | None = None) -> Proposal | None:
    """The rule a stated layout gives, when it takes every one of `names` within the match
    budget (`patterns.budgeted`: `clock`, the scaffold's, or a new one)."""
    parts, groups, pos, seen = [], [], 0, set()
    for m in PLACEHOLDER.finditer(layout):
        parts.append(re.escape(layout[pos : m.start()]))
        label = slug(m[1])
        if not label or label in seen:
            return None
        seen.add(label)
        groups.append(label)
        parts.append(f"(?P<{label}>[^/]+?)")
        pos = m.end()
    parts.append(re.escape(layout[pos:]))
    pattern = "".join(parts)
    if not groups:
        return None
    compiled = regex.compile(pattern, regex.VERSION0)
    try:  # placeholders side by side backtrack: 10 of them took 25 s on a name they miss
        matches = [budgeted(compiled, n, clock or MatchClock(), _TooSlow) for n in names]
    except _TooSlow:
        return None  # the layout is too ambiguous to follow: the names propose the rule
    found = [mt for mt in matches if mt is not None]
    if len(found) < len(matches):
        return None
    numeric = {g: all(whole_number(mt[g]) for mt in found) for g in groups}
    final = pattern
    for g in groups:
        if numeric[g]:
            final = final.replace(f"(?P<{g}>[^/]+?)", f"(?P<{g}>[0-9]+)")
    return Proposal(final, [(g, numeric[g], False) for g in groups], list(names), "layout")


def propose(
    names: list[str], threads: dict[str, set[Any]], stated: list[tuple[str, str]]
) -> list[Proposal]:
    """One Proposal per depth of path (a layout stated in a DESC/README first); `threads`:
    member -> the thread counts its log says."""
    by_depth: dict[int, list[str]] = {}
    for n in names:
        by_depth.setdefault(n.count("/"), []).append(n)
    out = []
    clock = MatchClock()  # one budget for every stated layout's matches
    for members in by_depth.values():
        for file, lay in stated:
            if prop := from_layout(lay, members, clock):
                prop.source = file
                break
        else:
            out += from_names(members, threads)
            continue
        out.append(prop)
    for prop in out:
        join_families(prop)
    return out


def join_families(p: Proposal) -> None:
    """A version two server families share (`mysql/8.0.36`, `percona/8.0.36`) says no server
    alone: both groups become template fields (`_server`, `_version`) and the label `version`
    joins them (`mysql-8.0.36`): one label says which server, as a server with its version
    in one path part does."""
    shown = [name for name, _, hidden in p.groups if not hidden]
    if "version" not in shown or "server" not in shown:
        return
    families: dict[str, set[str]] = {}
    for member in p.members:
        mt = re.fullmatch(p.regex, member)
        if mt:
            families.setdefault(mt["version"], set()).add(mt["server"].lower())
    if all(len(f) < 2 for f in families.values()):
        return
    for name in ("server", "version"):
        p.regex = p.regex.replace(f"(?P<{name}>", f"(?P<_{name}>")
    p.groups = [
        (f"_{g}", n, True) if g in ("server", "version") else (g, n, h) for g, n, h in p.groups
    ]
    p.joined = {"version": ["_server", "_version"]}


def from_names(
    members: list[str], threads: dict[str, set[Any]], split: bool = True
) -> list[Proposal]:
    """The rules of paths of one depth: one, token by token where the shapes allow, else whole
    folders (the rule is checked; a token rule that does not take its members falls back);
    a rule per shape when whole names say nothing (`variant`) and the shapes are few."""
    for whole in (False, True):
        parts = _parts(members, whole)
        groups = [p for p in parts if isinstance(p, Group)]
        _name(groups, members, threads)
        prop = assemble(parts, members)
        if _takes(prop, groups):
            break
    else:
        raise AssertionError("whole-folder rules take their members")  # pragma: no cover
    shapes = _by_shape(members)
    if not (split and any(g.kind == "seg" and g.name.startswith("variant") for g in groups)):
        return [prop]
    if not 1 < len(shapes) <= MAX_SHAPES:
        return [prop]
    out = []
    for same in shapes:
        (one,) = from_names(same, threads, split=False)
        taken = {name for name, _, _ in one.groups}
        one.constants = {k: v for k, v in _constants(same).items() if k not in taken}
        out.append(one)
    return out


def _by_shape(members: list[str]) -> list[list[str]]:
    """The members grouped by the shape of their paths (the kinds of their tokens), in order."""
    shapes: dict[tuple[Any, ...], list[str]] = {}
    for m in members:
        shapes.setdefault(tuple(k for k, _ in tokens(m)), []).append(m)
    return list(shapes.values())


def _constants(members: list[str]) -> dict[str, str]:
    """The labels the parts every member's name shares say (`innodb`: engine, `io1`: storage,
    `16thr`: threads, `bp54GB`: bp_gb), for one rule of names of one shape."""
    out: dict[str, str] = {}
    segs = [m.split("/") for m in members]
    for i in range(len(segs[0])):
        values = [s[i] for s in segs]
        ext = _common_ext(values) if i == len(segs[0]) - 1 else ""
        toks = [tokens(v[: len(v) - len(ext)]) for v in values]
        for j, (kind, text) in enumerate(toks[0]):
            if kind not in ("a", "w", "d", "V", "v") or len({t[j][1] for t in toks}) > 1:
                continue
            g = Group(kind, [t[j][1] for t in toks], numeric=kind == "d")
            g.before, g.sep_before = _word(toks, j - 1, j - 2)
            g.after, _ = _word(toks, j + 1, j + 2)
            name = _what(g, members, {})
            sized = name.endswith(tuple(f"_{u}" for u in set(SIZE_UNITS.values())))
            if (name in CONSTANT_NAMES or (kind == "d" and sized)) and name not in out:
                out[name] = text
    return out


def _parts(members: list[str], whole: bool) -> list[str | Group]:
    """Literal strings and Groups, in path order."""
    segs = [m.split("/") for m in members]
    out: list[Any] = []
    for i in range(len(segs[0])):
        values = [s[i] for s in segs]
        if i:
            out.append("/")
        last = i == len(segs[0]) - 1
        ext = _common_ext(values) if last else ""
        stems = [v[: len(v) - len(ext)] for v in values]
        if len(set(stems)) == 1:
            out.append(stems[0] + ext)
            continue
        toks = [tokens(v) for v in stems]
        shapes = {tuple(k for k, _ in t) for t in toks}
        if whole or len(shapes) != 1 or _whole(stems):
            out.append(Group("seg", stems))
        else:
            out += _token_parts(toks)
        if ext:
            out.append(ext)
    return _merge_literals(out)


def _whole(stems: list[str]) -> bool:
    """Values a reader names as one word: a version with a build suffix in any of them
    (`8.0.36-custom` is not `8.0.36`), an OS release (`ubu2204`, not `ubu`)."""
    if all(WHOLE_VERSION.fullmatch(v) for v in stems):
        return any(not re.fullmatch(SERVER_VERSION + "|[0-9.]+", v, re.I) for v in stems)
    return all(OS_RELEASE.fullmatch(v) for v in stems)


def _token_parts(toks: list[list[tuple[str, str]]]) -> list[str | Group]:
    out: list[Any] = []
    for j in range(len(toks[0])):
        kind = toks[0][j][0]
        values = [t[j][1] for t in toks]
        if len(set(values)) == 1:
            out.append(values[0])
            continue
        g = Group(kind, values)
        g.before, g.sep_before = _word(toks, j - 1, j - 2)
        g.after, _ = _word(toks, j + 1, j + 2)
        out.append(g)
    return out


def _word(toks: list[list[tuple[str, str]]], at: int, beyond: int) -> tuple[str | None, str]:
    """The constant letters token at `at` (or, across a `-`/`=` separator there, at `beyond`)."""

    def const(k: int) -> bool:
        return 0 <= k < len(toks[0]) and len({t[k][1] for t in toks}) == 1

    if not const(at):
        return None, ""
    kind, text = toks[0][at]
    if kind == "a":
        return text, ""
    if text in ("-", "=", "_") and const(beyond) and toks[0][beyond][0] == "a":
        return toks[0][beyond][1], text
    return None, ""


def _common_ext(values: list[str]) -> str:
    exts = {PurePosixPath(v).suffix for v in values}
    ext = exts.pop() if len(exts) == 1 else ""
    return ext if re.fullmatch(r"\.[A-Za-z][A-Za-z0-9]{0,7}", ext) else ""


def _merge_literals(parts: list[str | Group]) -> list[str | Group]:
    out: list[Any] = []
    for p in parts:
        if isinstance(p, str) and out and isinstance(out[-1], str):
            out[-1] += p
        else:
            out.append(p)
    return out


def whole_number(text: str) -> bool:
    """Whether a name's part is a number that reads back as itself: `07` is text, since a
    template filled with the number 7 would name another file (`run7`, not `run07`)."""
    return text.isascii() and text.isdigit() and (text == "0" or not text.startswith("0"))


def _name(groups: list[Group], members: list[str], threads: dict[str, set[Any]]) -> None:
    """Each group's label name (unique), whether it is a number, whether it is hidden."""
    used: set[str] = set()
    for g in groups:
        g.numeric = g.kind in ("d", "seg") and all(whole_number(v) for v in g.values)
        base = _what(g, members, threads)
        g.name = _unique(base, used)
    # a time stamp, or a number different in every run, is no label when the rest tells the
    # runs apart: a template field `_name` instead
    for g in groups:
        if g.kind == "T" or (g.numeric and g.vague):
            rest = [h for h in groups if h is not g and not h.hidden]
            keys = {tuple(h.values[i] for h in rest) for i in range(len(members))}
            if len(set(g.values)) == len(members) and len(keys) == len(members) and rest:
                g.hidden = True
                g.name = "_" + g.name.lstrip("_")


def _what(g: Group, members: list[str], threads: dict[str, set[Any]]) -> str:
    """The name a group's values call for."""
    low = {v.lower() for v in g.values}
    if g.kind == "T":
        return "started"
    if g.kind in ("V", "v") or all(re.fullmatch(SERVER_VERSION, v, re.I) for v in g.values):
        return "version"
    if g.kind == "seg" and all(WHOLE_VERSION.fullmatch(v) for v in g.values):
        return "version"
    if g.kind == "seg" and all(OS_RELEASE.fullmatch(v) for v in g.values):
        return "os"
    if g.numeric:
        return _number_name(g, members, threads)
    if low <= ENGINES:
        return "engine"
    if g.kind == "w" or low <= STORAGE:
        return "storage"
    if all(COLLATION.fullmatch(v) for v in g.values):
        return "collation"
    if low <= SERVER_WORDS:
        return "server"
    if low <= TEST_WORDS or all(TEST.fullmatch(v) for v in g.values):
        return "test"
    if g.before and g.sep_before in ("-", "=") and len(g.before) > 1:
        return slug(g.before) or "variant"
    return "variant"


def _number_name(g: Group, members: list[str], threads: dict[str, set[Any]]) -> str:
    before = (g.before or "").lower() if not g.sep_before else ""
    after = (g.after or "").lower()
    # a unit run into the next word (`log2gchange`): the unit names the number
    unit_first = re.match(r"(gb|mb|g|m)[a-z]{3,}$", after)
    if unit_first and after not in WORDS:
        after = unit_first[1]
    if after in SIZE_UNITS:
        unit = SIZE_UNITS[after]
        return f"{slug(before)}_{unit}" if before and before not in WORDS else f"size_{unit}"
    for word in (before, after):
        if word in WORDS:
            return WORDS[word]
    if len(before) > 1:
        return slug(before)
    if len(after) > 1 and after not in ("log", "txt", "out", "csv"):
        return slug(after)
    if all(threads.get(m) == {int(v)} for m, v in zip(members, g.values)):
        return "threads"
    g.vague = True
    # the word before it across a separator (`wps=1000`, `node-3`, `run_2`): fuller than `n`
    word = (g.before or "").lower()
    if g.sep_before and len(word) > 1 and word not in FILLERS:
        return slug(word)
    return "n"


def slug(text: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")
    s = ("x" + s if s[:1].isdigit() else s)[:MAX_LABEL]
    return s


def _unique(name: str, used: set[str]) -> str:
    out, k = name, 2
    while out in used:
        out, k = f"{name}{k}", k + 1
    used.add(out)
    return out


def _server_of(version: str) -> str:
    """The server's name before a version's number (`mysql-` of `mysql-8.0.36`; "" for none)."""
    m = re.match(r"[A-Za-z-]*?[-_]?(?=[0-9])", version)
    return m[0] if m else ""


def assemble(parts: list[str | Group], members: list[str]) -> Proposal:
    pieces, groups = [], []
    for p in parts:
        if isinstance(p, str):
            pieces.append(re.escape(p))
        else:
            pattern = PATTERNS["d" if p.kind == "seg" and p.numeric else p.kind]
            if p.kind == "V":  # the servers seen, then the version: (?:mysql-|mariadb-)[0-9]+...
                seen = sorted({_server_of(v) for v in p.values})
                pattern = f"(?:{'|'.join(map(re.escape, seen))})[0-9]+(?:[._-][0-9]+){{1,3}}"
            pieces.append(f"(?P<{p.name}>{pattern})")
            groups.append((p.name, p.numeric, p.hidden))
    return Proposal("".join(pieces), groups, list(members), parts=parts)


def _takes(prop: Proposal, groups: list[Group]) -> bool:
    """Does the rule take each member, with each group's intended value?"""
    pattern = regex.compile(prop.regex)
    for i, member in enumerate(prop.members):
        mt = pattern.fullmatch(member)
        if not mt or any(mt[g.name] != g.values[i] for g in groups):
            return False
    return True
