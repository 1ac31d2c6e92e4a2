"""The draft of an archive of interval runs (sysbench, tpcc-mysql, LinkBench ...): its members'
names give the `runs:` rules and labels (ingest/scaffold/names.py: a layout stated in a
DESC/README, else the parts of the paths that vary, named for what they are); the runs give
the metric, the interval (from the data), a proposed window and the thread counts; monitors
beside the runs (vmstat, iostat, sar, dstat, mpstat, server status) are proposed as `linked:`. The post
(ingest/scaffold/post.py) opens with key results that compare across the label that varies
most."""

from __future__ import annotations

import os
import re
import statistics
from pathlib import Path
from typing import Any

import regex

from ingest.problems import clean
from ingest.read.archive import Archive
from ingest.read.patterns import MatchClock, budgeted, glob_re
from ingest.read.records import MONITOR_KINDS
from ingest.scaffold import names, post, versions
from ingest.scaffold.survey import (
    INTERVALS,
    LISTED,
    WARMUP,
    Draft,
    Member,
    head_of,
    literal,
    monitors,
    newest_member_day,
    next_commands,
    sampled,
)

# monitors whose samples are read to find the interval and offset (spread over the runs; of
# each format): reading every one of hundreds of monitors was most of `new`'s time
PROBED = 32
Beside = tuple[str, list[tuple[str, Member]]]  # a monitor's template, and each (run, monitor)

DISPLAY_SERVERS = {"mysql": "MySQL", "mariadb": "MariaDB", "percona": "Percona Server"}
DISPLAY_SERVERS |= {"percona-server": "Percona Server", "ps": "Percona Server", "fb": "FB MySQL"}
DISPLAY_SERVERS |= {"fbmysql": "FB MySQL", "pxc": "Percona XtraDB Cluster", "aurora": "Aurora"}
DISPLAY_SERVERS |= {"webscalesql": "WebScaleSQL", "tidb": "TiDB"}


DISPLAY_ENGINES = {"innodb": "InnoDB", "rocksdb": "MyRocks", "myrocks": "MyRocks"}
DISPLAY_ENGINES |= {"tokudb": "TokuDB", "myisam": "MyISAM", "xtradb": "XtraDB"}
DISPLAY_ENGINES |= {"wiredtiger": "WiredTiger", "aria": "Aria", "memory": "MEMORY"}


def draft(
    study: str, archive: Path, digest: str, origin: str | None, arc: Archive, members: list[Member]
) -> Draft | None:
    """The first draft of a study of interval runs, or None when no member holds one."""
    runs = [m for m in members if m.run]
    if not runs:
        return None
    texts = _desc_texts(arc)
    threads = {m.name: m.threads for m in runs}
    proposals = names.propose([m.name for m in runs], threads, names.layouts(texts))
    doc, notes, run_labels = _manifest(study, archive, digest, origin, members, proposals)
    p = post.plan(doc, run_labels, {m.format for m in runs})
    if any(m.sessions > 1 for m in runs) or any("id" in r for r in doc["runs"]):
        p.show, p.compared = [], []  # ids the names alone do not give (-sN, an id: template)
    if p.table:
        doc["tables"] = [p.table]
    view = versions.draft(doc, run_labels, {m.format for m in runs})
    if view:
        doc["versions"] = [view]
    front, front_notes, body = post.post(doc, p, study, origin, newest_member_day(archive))
    return Draft(doc, _head(doc, members, archive), notes, front, front_notes, body)


def _manifest(
    study: str,
    archive: Path,
    digest: str,
    origin: str | None,
    members: list[Member],
    proposals: list[names.Proposal],
) -> tuple[dict[str, Any], list[str], list[dict[str, str]]]:
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
    default_linked, files = _linked(proposals, rules, members)
    interval = _common([runs[n].interval_s for p in proposals for n in p.members])
    end = min(m.last_t for m in runs.values() if m.last_t is not None)  # (every run's is)
    doc = {
        **head_of(study, archive, digest, origin),
        "interval_s": interval,
        "metric": metric,
        "window": {"start": round(end * WARMUP / interval) * interval, "end": end},
        "labels": labels,
    }
    optional = {
        "label_types": types,
        "label_names": {k: post.heading(k) for k in labels},
        "display": _display(proposals),
        "linked": default_linked,
        "runs": rules,
        "files": files,
    }
    doc.update((k, v) for k, v in optional.items() if v or k == "runs")
    return doc, notes, _run_labels(proposals, rules, runs, labels)


def _labels(proposals: list[names.Proposal]) -> tuple[list[str], dict[str, str]]:
    """The labels of the rules' groups, in order of appearance, and the int-typed ones."""
    labels: list[str] = []
    types: dict[str, str] = {}
    for p in proposals:
        constants = [(k, names.whole_number(v), False) for k, v in p.constants.items()]
        at = {parts[-1]: label for label, parts in p.joined.items()}  # in its last part's place
        for name, numeric, hidden in [*p.groups, *constants]:
            if name in at:
                name, numeric, hidden = at[name], False, False
            if hidden:
                continue
            if name not in labels:
                labels.append(name)
            if numeric:
                types[name] = "int"
    return labels, types


def _rules(proposals: list[names.Proposal]) -> tuple[list[dict[str, Any]], list[str]]:
    """A `runs:` rule per proposal, and the note that heads it. A rule without a label (one
    file) gets a `file` label, or, the archive's only run, an `id:` of its name."""
    single = len(proposals) == 1 and not any(not h for _, _, h in proposals[0].groups)
    rules: list[dict[str, Any]] = []
    notes: list[str] = []
    for i, p in enumerate(proposals):
        rule: dict[str, Any] = {"regex": p.regex}
        if p.constants:  # what the names of a rule of its own shape share
            rule["labels"] = {
                k: int(v) if names.whole_number(v) else v for k, v in p.constants.items()
            }
        elif not any(not h for _, _, h in p.groups):
            stem = _slug(Path(p.members[0]).stem) or f"run{i + 1}"
            rule.update({"id": stem} if single else {"labels": {"file": stem}})
        if p.joined:  # a label from two path parts (`mysql-8.0.36`)
            rule["labels"] = {
                **rule.get("labels", {}),
                **{k: {"join": parts} for k, parts in p.joined.items()},
            }
        rules.append(rule)
        src = f"the layout in {p.source}" if p.source not in ("names", "layout") else "the names"
        notes.append(
            f"{len(p.members)} file(s), e.g. {clean(p.members[0], 120)}; labels from {src}"
        )
    return rules, notes


def _run_labels(
    proposals: list[names.Proposal],
    rules: list[dict[str, Any]],
    runs: dict[str, Member],
    labels: list[str],
) -> list[dict[str, str]]:
    """Each run's labels as the ingest will give them (values as text): the rule's named
    groups and constant labels, and `threads` from the log when it is a label of its own."""
    out = []
    for p, rule in zip(proposals, rules):
        for n in p.members:
            values = _values(p, rule, n)
            counts = (
                sorted(runs[n].threads)
                if "threads" in labels and "threads" not in values
                else [None]
            )
            for c in counts:
                out.append({**values, **({"threads": str(c)} if c is not None else {})})
    return out


def _values(p: names.Proposal, rule: dict[str, Any], member: str) -> dict[str, str]:
    """A run's labels as the rule gives them (values as text): its named groups that are
    labels, the labels joined from them, and its constant labels."""
    mt = _own_match(p, member)
    values = {k: v for k, v in mt.groupdict().items() if not k.startswith("_")}
    values.update({k: "-".join(mt[g] for g in parts) for k, parts in p.joined.items()})
    fixed = rule.get("labels", {})
    values.update({k: str(v) for k, v in fixed.items() if not isinstance(v, dict)})
    return values


def _common(values: list[Any]) -> Any:
    """The most common value (the first of the most common)."""
    counts: dict[Any, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return max(counts, key=counts.__getitem__)


def _threads_label(
    proposals: list[names.Proposal],
    rules: list[dict[str, Any]],
    runs: dict[str, Member],
    labels: list[str],
    types: dict[str, str],
) -> None:
    """`threads` becomes a label when the runs' thread counts (as their logs say) vary, or
    when the names do not tell the runs apart, unless a label already is the thread count."""
    if "threads" in labels:
        return
    counts = set().union(*(runs[n].threads for p in proposals for n in p.members))
    keys = set()
    for p, rule in zip(proposals, rules):
        for n in p.members:
            keys.add(tuple(sorted(_values(p, rule, n).items())))
    n_runs = sum(runs[n].sessions for p in proposals for n in p.members)
    if len(counts) > 1 or (counts and len(keys) < n_runs):
        labels.append("threads")
        types["threads"] = "int"


def _set_label(
    proposals: list[names.Proposal], rules: list[dict[str, Any]], labels: list[str]
) -> None:
    """Rules giving the same labels to their runs: a `set` label for each of those rules."""
    first: dict[tuple[Any, ...], int] = {}  # a run's labels -> the first rule that gave them
    clashing: set[int] = set()
    for i, (p, rule) in enumerate(zip(proposals, rules)):
        for n in p.members:
            key = tuple(sorted(_values(p, rule, n).items()))
            if first.setdefault(key, i) != i:
                clashing |= {first[key], i}
    for i in sorted(clashing):
        rules[i].setdefault("labels", {})["set"] = f"s{i + 1}"
    if clashing:
        labels.append("set")


def _exclude(
    proposals: list[names.Proposal], rules: list[dict[str, Any]], others: list[str]
) -> None:
    """A rule must not take a member without a run (an empty or interrupted file named like
    the runs, a monitor in the same folder): by their file names when few, else by name, else
    (hundreds of names) `incomplete: skip`, which skips them with a warning each."""
    clock = MatchClock()
    for p, rule in zip(proposals, rules):
        pattern = regex.compile(rule["regex"], regex.VERSION0)
        hits = [n for n in others if _taken(pattern, n, clock)]
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


class _TooSlow(Exception):
    """A rule's pattern over the match budget on a member."""


def _taken(pattern: regex.Pattern[str], name: str, clock: MatchClock) -> bool:
    """Whether the rule's pattern takes `name`, through the budgeted path (a stated layout's
    placeholders side by side backtrack on a name they miss); over the budget counts as taken,
    so the rule leaves the member out or skips what it cannot read."""
    try:
        return budgeted(pattern, name, clock, _TooSlow) is not None
    except _TooSlow:
        return True


def _linked(
    proposals: list[names.Proposal], rules: list[dict[str, Any]], members: list[Member]
) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """Monitors beside the runs (every monitor format of the registry: vmstat, iostat, sar,
    server status ... in the run's folder, or named like it) as each rule's `linked:`, with
    a `files:` rule per monitor; the template is the monitor's path with the run's named
    groups in it, checked against every run. When every rule links the same way, the block is
    returned once, as the manifest's top-level `linked:` the rules inherit."""
    kinds = monitors()
    mons = [m for m in members if m.format in kinds]
    runs = {m.name: m for m in members if m.run}
    files: list[dict[str, Any]] = []
    for p, rule in zip(proposals, rules):
        linked: dict[str, Any] = {}
        pairs: dict[str, list[tuple[Member, Member]]] = {}  # by format: (run, monitor)s
        for fmt in sorted({m.format for m in mons if m.format}):
            kind = kinds[fmt]
            if kind in linked:
                continue
            found = _beside(p, [m for m in mons if m.format == fmt])
            if not found:
                continue
            template, got = found
            linked[kind] = template
            pairs[fmt] = [(runs[r], mon) for r, mon in got]
            glob = re.sub(r"\{[^{}]*\}", "*", template).replace("{{", "{").replace("}}", "}")
            if not any(f["glob"] == glob for f in files):
                files.append(_files_rule(glob, fmt, members))
        if linked:
            order = [*dict.fromkeys([*MONITOR_KINDS, *kinds.values()])]
            rule["linked"] = {k: linked[k] for k in order if k in linked}
            each = max(PROBED // len(pairs), 8)  # every format read, about PROBED in all
            probe = [
                (run, sampled(mon)) for got in pairs.values() for run, mon in _spread(got, each)
            ]
            interval = _monitor_interval(probe)
            rule["linked"]["interval_s"] = interval
            offset = _monitor_offset(probe, interval)
            if offset:
                rule["linked"]["offset_s"] = offset
            rule["linked"]["panels"] = _panels(linked, [mon for _, mon in probe])
    blocks = [b for r in rules if (b := r.get("linked"))]
    if len(rules) < 2 or len(blocks) < len(rules):  # a rule links nothing
        return None, files
    shared = {k: v for k, v in blocks[0].items() if all(b.get(k) == v for b in blocks)}
    for r in rules:  # what differs (a template naming a rule's own groups) stays the rule's
        r["linked"] = {k: v for k, v in r["linked"].items() if k not in shared}
        if not r["linked"]:
            del r["linked"]
    return shared or None, files


def _spread(pairs: list[Any], n: int = PROBED) -> list[Any]:
    """At most `n` of the pairs, spread over them: the monitors whose samples are read."""
    if len(pairs) <= n:
        return pairs
    return [pairs[round(i * (len(pairs) - 1) / (n - 1))] for i in range(n)]


def _files_rule(glob: str, fmt: str, members: list[Member]) -> dict[str, Any]:
    """The `files:` rule of a monitor: its glob, with `incomplete: skip` when the glob also takes
    files that do not read as that monitor (empty, cut short): each is skipped with a warning."""
    pattern = re.compile(glob_re(glob))
    rule = {"glob": glob, "format": fmt}
    if any(m.format != fmt and pattern.fullmatch(m.name) for m in members):
        rule["incomplete"] = "skip"
    return rule


def _monitor_offset(pairs: list[tuple[Member, Member]], interval: float) -> float | str:
    """Where the monitors started on the run's clock, from the data: a monitor stopped with
    its run started its samples x interval before the run's end. One offset when every
    monitor of every run agrees (within a sample; 0 is left unsaid), else `run-end`: each
    monitor's own, run by run, derived by the ingest the same way (monitors started by hand,
    0-25 s early, differ run by run and tool by tool)."""
    offsets = [
        run.last_t - mon.samples * interval for run, mon in pairs if mon.samples and run.last_t
    ]
    if not offsets:
        return 0
    if max(offsets) - min(offsets) > interval:  # run by run, or one tool against another
        return "run-end"
    median = statistics.median(offsets)
    return 0 if abs(median) <= interval else round(median, 3)


def _named_like(p: names.Proposal, run: str, here: list[Member]) -> list[Member]:
    """The monitors of a run's folder: all when one, else those named with a part of the run's
    name (its time stamp, its engine)."""
    if len(here) <= 1:
        return here
    values = [v for v in _own_match(p, run).groupdict().values() if v and len(v) > 1]
    return [m for m in here if any(v in m.name.rsplit("/", 1)[-1] for v in values)]


def _panels(linked: dict[str, Any], monitors: list[Member]) -> list[str]:
    """The panels shown first: CPU and I/O wait, context switches, the first device's writes,
    and the CPU per operation when both monitors are there (docs/manifest.md)."""
    out = ["vm.us", "vm.wa", "vm.cs"] if "vmstat" in linked else []
    if "sar" in linked and "vmstat" not in linked:
        out += ["sar.%user", "sar.%iowait"]
    if "dstat" in linked and "vmstat" not in linked:
        out += ["ds.us", "ds.wa", "ds.cs"]
    if "mpstat" in linked and not {"vmstat", "dstat", "sar"} & set(linked):
        out += ["mp.all.%usr", "mp.all.%iowait"]
    device = next((d for m in monitors if m.format == "iostat" for d in m.devices), None)
    if "iostat" in linked and device:
        out.append(f"io.{device}.w/s")
    cores = {"iostat", "sar", "mpstat"} & set(linked)  # a banner's `(N CPU)`
    if (
        ("vmstat" in linked and "iostat" in linked)
        or ("sar" in linked and "vmstat" not in linked)
        or ({"dstat", "mpstat"} & set(linked) and cores)
    ):
        out.append("cpu_per_op")
    return out


def _beside(p: names.Proposal, monitors: list[Member]) -> Beside | None:
    """(template, [(run, monitor)]) when the runs of a rule have monitors of one format
    beside them: one each in the run's folder, or the one named with a part of the run's name
    (`vm_{_started}.txt`), or the one named as the run but for one word
    (`Tier2G_16th.vmstat.txt` beside `Tier2G_16th.sysbench.txt`); the template filled from
    the run's groups, checked against every pair."""
    found = [f for f in (_beside_by_values(p, monitors), _beside_by_stem(p, monitors)) if f]
    return max(found, key=lambda f: len(f[1]), default=None)  # the way that pairs most runs


def _beside_by_stem(p: names.Proposal, monitors: list[Member]) -> Beside | None:
    """Each run's monitor: in its folder, named as the run but for one part outside the run's
    groups (the tool's name), that part the same for most runs (a run whose own monitor is
    missing or unreadable has none: the nearest name is another run's)."""
    folder: dict[str, list[Member]] = {}
    for mon in monitors:
        folder.setdefault(mon.name.rpartition("/")[0], []).append(mon)
    pattern = re.compile(p.regex)
    found: dict[str, list[tuple[str, Member]]] = {}
    for run in p.members:
        here = folder.get(run.rpartition("/")[0], [])
        if here:
            mon = max(here, key=lambda m: _shared(run, m.name))
            got = _stem_template(run, mon.name, _own_match(p, run, pattern))
            found.setdefault(got or "", []).append((run, mon))
    found.pop("", None)
    if not found:
        return None
    template, pairs = max(found.items(), key=lambda kv: len(kv[1]))
    return (template, pairs) if 2 * len(pairs) >= len(p.members) else None


def _shared(a: str, b: str) -> int:
    """Characters two names share at their start and end."""
    start = len(os.path.commonprefix([a, b]))
    end = len(os.path.commonprefix([a[start:][::-1], b[start:][::-1]]))
    return start + end


def _stem_template(run: str, mon: str, mt: re.Match[str]) -> str | None:
    """The monitor's template: the run's name with its groups as fields and the part where
    the two names differ taken from the monitor; None when that part overlaps a group."""
    start = len(os.path.commonprefix([run, mon]))
    end = len(os.path.commonprefix([run[start:][::-1], mon[start:][::-1]]))
    cut = (start, len(run) - end)
    spans = sorted((mt.span(k), k) for k, v in mt.groupdict().items() if v)
    if any(a < cut[1] and cut[0] < b for (a, b), _ in spans):
        return None

    def fill(lo: int, hi: int) -> str:
        out, at = "", lo
        for (a, b), k in spans:
            if lo <= a and b <= hi:
                out += literal(run[at:a]) + "{" + k + "}"
                at = b
        return out + literal(run[at:hi])

    return fill(0, cut[0]) + literal(mon[start : len(mon) - end]) + fill(cut[1], len(run))


def _beside_by_values(p: names.Proposal, monitors: list[Member]) -> Beside | None:
    """The monitor alone in the run's folder, or the one named with the run's values."""
    folder: dict[str, list[Member]] = {}
    for mon in monitors:
        folder.setdefault(mon.name.rsplit("/", 1)[0] if "/" in mon.name else "", []).append(mon)
    pairs: list[tuple[str, Member]] = []
    for run in p.members:
        here = _named_like(p, run, folder.get(run.rsplit("/", 1)[0] if "/" in run else "", []))
        if len(here) == 1:
            pairs.append((run, here[0]))
    if not pairs:
        return None
    run, mon = pairs[0]
    groups = _own_match(p, run).groupdict()
    template = literal(mon.name)
    for key, value in sorted(groups.items(), key=lambda kv: -len(kv[1] or "")):
        if value and template.count(value) == 1:
            template = template.replace(value, "{" + key + "}")
    for run, mon in pairs:
        values = _own_match(p, run).groupdict()
        try:
            if template.format(**values) != mon.name:
                return None
        except (KeyError, IndexError, ValueError):
            return None
    return template, [(r, m) for r, m in pairs]


def _monitor_interval(pairs: list[tuple[Member, Member]]) -> int:
    """The monitors' sample interval: the run's length over the samples, the nearest usual one."""
    ratios = [run.last_t / mon.samples for run, mon in pairs if mon.samples and run.last_t]
    if not ratios:
        return 1
    guess = statistics.median(ratios)
    return min(INTERVALS, key=lambda i: abs(i - guess))


def _display(proposals: list[names.Proposal]) -> dict[str, dict[str, str]]:
    """Readers' names of versions (`mysql-8-0-21`: MySQL 8.0.21) and engines (InnoDB), for any
    label whose values are all such."""
    out: dict[str, dict[str, str]] = {}
    for p in proposals:
        for name, _, hidden in p.groups:
            if hidden:
                continue
            values = [_own_match(p, m)[name] for m in p.members]
            if all(re.fullmatch(names.SERVER_VERSION, v, re.I) for v in values):
                shown = {v: _version_name(v) for v in values}
            elif {v.lower() for v in values} <= set(DISPLAY_ENGINES):
                shown = {v: DISPLAY_ENGINES[v.lower()] for v in values}
            else:
                continue
            out.setdefault(name, {}).update({v: n for v, n in shown.items() if n and n != v})
        for label, (family, version) in p.joined.items():  # mysql-8.0.36: MySQL 8.0.36
            for m in p.members:
                mt = _own_match(p, m)
                name = f"{DISPLAY_SERVERS.get(mt[family].lower(), mt[family])} {mt[version]}"
                out.setdefault(label, {})[f"{mt[family]}-{mt[version]}"] = name
    return {k: v for k, v in out.items() if v}


def _own_match(
    p: names.Proposal, member: str, pattern: re.Pattern[str] | None = None
) -> re.Match[str]:
    """A member's match by its own rule's regex (`pattern`, when given, is it compiled)."""
    mt = (pattern or re.compile(p.regex)).fullmatch(member)
    if mt is None:  # not reached: a rule's members are the names its regex takes
        raise ValueError(f"{member!r} is not taken by its rule {p.regex!r}")
    return mt


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
        if name.rsplit("/", 1)[-1].lower() in names.DESC_FILES:
            out[name] = arc.read(name)[:65536].decode("utf-8", "replace")
    return out


def _head(doc: dict[str, Any], members: list[Member], archive: Path) -> list[str]:
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
