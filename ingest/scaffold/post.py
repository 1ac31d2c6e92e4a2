"""The post the scaffold writes (ingest/scaffold/__init__.py): front matter and body of a first draft.

It opens with key results that compare across the label that varies most (`plan`): a
declared table of the mean per value of that label, the other labels fixed to the fullest
combination, with each value's ratio to the first (the base), gives "from ... (at ...) to ...
(at ...)" and "at best ... the mean at <base>". Then the time series, the linked OS metrics
when there are any, that table, the default tables (collapsed, or as pages of their own for
large run sets, so the post stays within its budget) and the provenance. Every number comes
from data/ through `value`; no digit is typed into the prose (a name with digits that the
prose uses is listed under `names:`, docs/studies.md "Numbers in prose"). The prose and captions
name no metric: the tables' headings and the charts' titles do, from data/ (the comparison
table's label is "Mean {metric}"), so a `metric:` the author changes is named right everywhere.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field
from typing import Any

from ingest.scaffold import versions as version_view

COLLAPSE = 12  # more runs than this: the runs table is collapsed
LAZY = 40  # more rows than this: a table's rows are on a page of their own
# more runs than this: the time series and metrics charts take the compared runs only (each
# run in a chart adds its spec, its files and its pick to the page; every run stays on the
# compare page and in the runs table), so that a draft fits the page budgets at any size
PICKED = 24
BENCHMARKS = {"sysbench05": "sysbench", "sysbench1": "sysbench", "sysbench-csv": "sysbench"}
BENCHMARKS |= {"tpcc-mysql": "tpcc-mysql", "linkbench": "linkbench", "linkbenchx": "linkbench"}
BENCHMARKS |= {"ibench": "insert-benchmark"}


@dataclass
class Plan:
    """What the post compares: `label` (the label that varies most; None for one run or runs
    that share every label), its values in order, the `base` (the first), the other labels
    fixed to `fixed`, the declared table's id, and the runs' count."""

    runs: int
    label: str | None = None
    values: list[Any] = field(default_factory=list)
    base: object = None
    fixed: dict[str, Any] = field(default_factory=dict)
    table: dict[str, Any] | None = None
    show: list[str] = field(default_factory=list)  # run ids the time series draws first
    compared: list[str] = field(default_factory=list)  # run ids of the comparison, in its order
    linked: bool = False
    formats: set[Any] = field(default_factory=set)


UPPER = {"gb", "mb", "tb", "kb", "iops", "kiops", "cpu", "io", "ssd", "hdd"}


MD_PUNCT = re.compile(r"[\\`*_\[\]#|!~]")
MD_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "{": "&#123;", "}": "&#125;"}


def md_text(text: object) -> str:
    """`text` (a name from an archive) as literal Markdown prose: Markdown punctuation
    backslash-escaped, and `& < > { }` as character references, since Hugo reads `{{<` as a
    shortcode before Markdown, whatever precedes it; line ends become spaces."""
    s = MD_PUNCT.sub(lambda m: "\\" + m.group(), " ".join(str(text).split()))
    return "".join(MD_ENTITIES.get(c, c) for c in s)


def heading(label: str) -> str:
    """A label's readers' heading: `redo_gb` -> "Redo GB", `bp_gb` -> "BP GB"."""
    words = [w for w in label.split("_") if w]
    shown = " ".join(w.upper() if w in UPPER or len(w) <= 2 else w for w in words)
    return shown[:1].upper() + shown[1:] if shown else label


def in_prose(label: str, doc: dict[str, Any]) -> str:
    """The label's heading inside a sentence (lower case, unless it starts with an acronym)."""
    h = doc.get("label_names", {}).get(label) or heading(label)
    return h if h[:2].isupper() else h[:1].lower() + h[1:]


def plan(doc: dict[str, Any], run_labels: list[dict[str, str]], formats: set[Any]) -> Plan:
    """The comparison of the post, from each run's labels (label -> value as text)."""
    p = Plan(len(run_labels), formats=formats)
    p.linked = "linked" in doc or any("linked" in r for r in doc["runs"])
    values = {k: _ordered([r[k] for r in run_labels if k in r], doc, k) for k in doc["labels"]}
    varying = [k for k in doc["labels"] if len(values[k]) > 1]
    if len(run_labels) < 2 or not varying:
        return p
    label = p.label = max(varying, key=lambda k: (len(values[k]), -doc["labels"].index(k)))
    others = [k for k in varying if k != label]
    # the combination of the other labels with the most values of the compared label
    combos: dict[tuple[Any, ...], set[Any]] = {}
    for r in run_labels:
        combos.setdefault(tuple(r.get(k) for k in others), set()).add(r.get(label))
    best = max(combos, key=lambda c: len(combos[c] - {None}))
    p.fixed = {k: _typed(doc, k, v) for k, v in zip(others, best) if v is not None}
    p.values = [v for v in values[label] if v in combos[best]]
    if len(p.values) < 2:
        p.label = None
        return p
    p.base = _typed(doc, label, p.values[0])
    p.table = _table(doc, p, label)
    # the time series draws first up to four runs of that comparison, spread over its values
    picks = sorted({round(i * (len(p.values) - 1) / 3) for i in range(4)})
    wanted = [{**dict(zip(others, best)), label: p.values[i]} for i in picks]
    p.show = [_run_id(doc, r) for w in wanted for r in run_labels if _same(r, w)]
    fixed = dict(zip(others, best))
    runs = [r for r in run_labels if _same(r, fixed)]
    runs.sort(key=lambda r: p.values.index(r[label]) if r.get(label) in p.values else 0)
    if len(runs) > PICKED:  # spread over the compared values, the first and the last kept
        runs = [runs[round(i * (len(runs) - 1) / (PICKED - 1))] for i in range(PICKED)]
    p.compared = list(dict.fromkeys(_run_id(doc, r) for r in runs))
    if len(p.compared) >= PICKED:  # the time series draws first what it was given
        p.show = [s for s in p.show if s in p.compared] or p.compared[:1]
    return p


def _same(run: dict[str, Any], wanted: dict[str, Any]) -> bool:
    return all(run.get(k) == v for k, v in wanted.items() if v is not None)


def _run_id(doc: dict[str, Any], labels: dict[str, Any]) -> str:
    """The id the ingest gives a run of these labels (no `id:` template): the values in label
    order, typed, joined by '-', lower case (ingest/join/runs.py)."""
    from ingest.join.runs import default_id

    return default_id(_typed(doc, k, labels[k]) for k in doc["labels"] if labels.get(k) is not None)


def _ordered(vals: list[Any], doc: dict[str, Any], key: str) -> list[Any]:
    seen = list(dict.fromkeys(vals))
    if doc.get("label_types", {}).get(key) == "int":
        return sorted(seen, key=lambda v: int(v))
    return seen


def _typed(doc: dict[str, Any], key: str, value: Any) -> Any:
    return int(value) if doc.get("label_types", {}).get(key) == "int" else value


def _table(doc: dict[str, Any], p: Plan, label: str) -> dict[str, Any]:
    """The `tables:` entry of the comparison: the mean by `label`, the others fixed."""
    fixed = ", ".join(f"{in_prose(k, doc)} {v}" for k, v in p.fixed.items())
    t: dict[str, Any] = {
        "id": "mean-by-" + re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-"),
        "title": f"Mean {{metric}} by {in_prose(label, doc)}"
        + (f" ({fixed})" if fixed else "")
        + ", {start} s to {end} s",
    }
    if p.fixed:
        t["where"] = dict(p.fixed)
    t["rows"] = [label]
    t["value"] = {"key": "mean", "label": "Mean {metric}", "stat": "mean", "digits": 2}
    t["ratio"] = {
        "key": "vs_base",
        "label": f"Mean / {in_prose(label, doc)} {p.base}",
        "base": {label: p.base},
        "digits": 2,
    }
    return t


def post(
    doc: dict[str, Any], p: Plan, study: str, origin: str | None, day: datetime.date | None
) -> tuple[dict[str, Any], dict[str, Any], str]:
    """(front matter, comments before some of its keys, body)."""
    display = doc.get("display", {})
    body, used = _body(doc, p)
    terms = {
        "engines": _terms(doc, "engine", display),
        "versions": _terms(doc, "version", display),
        "benchmarks": sorted({BENCHMARKS.get(f, f) for f in p.formats}),
        "storage": _terms(doc, "storage", display),
    }
    front, notes = front_matter(doc, study, origin, day, terms, used)
    return front, notes, body


def front_matter(
    doc: dict[str, Any],
    study: str,
    origin: str | None,
    day: datetime.date | None,
    terms: dict[str, Any],
    used: list[str],
) -> tuple[dict[str, Any], dict[str, str]]:
    """(front matter, comments before some of its keys) of a first draft, any kind of study:
    the date from the archive (or a note asking for it, never today), the taxonomies' `terms`,
    the names with digits the body `used`, and the archive as the original."""
    archive = doc["inputs"][0]["name"]
    front: dict[str, Any] = {"title": doc["title"]}
    notes: dict[str, str] = {}
    if day:
        front["date"] = day.isoformat()
        notes["date"] = (
            "The newest member's time in the archive: the day its results were written. Give "
            "the original's date (original: date:) when it is known."
        )
    else:
        notes["summary"] = (
            "date: not in the archive (its members carry no time): add `date: YYYY-MM-DD`,\n"
            "the day the results were published or written."
        )
    front["summary"] = f"The runs of {archive}; the summary is still to be written."
    # for the author, not the reader: a comment, never a sentence of the page
    notes["summary"] = "\n".join(
        [*([notes["summary"]] if "summary" in notes else []), KEY_RESULTS_NOTE]
    )
    front["study"] = study
    front["tags"] = []
    front.update(terms)
    names = [n for n in dict.fromkeys([archive, *used]) if re.search(r"[0-9]", n)]
    if names:
        front["names"] = names
        notes["names"] = 'Names that contain digits (docs/studies.md, "Numbers in prose").'
    front["original"] = {"title": archive, **({"url": origin} if origin else {})}
    notes["original"] = (
        'The original this post revisits (docs/studies.md, "Writing a post"): for now the\n'
        "archive; give its title, authors, publisher and date (YYYY-MM-DD) when known."
        + (
            ""
            if origin
            else "\nNo origin was given (make new ... ORIGIN=<url>): add url: when known."
        )
    )
    return front, notes


def _terms(doc: dict[str, Any], label: str, display: dict[str, Any]) -> list[Any]:
    """A taxonomy's terms: the label's values by their display names, as the compare page
    files the runs."""
    out = []
    for rule in doc["runs"]:
        v = rule.get("labels", {}).get(label)
        if v is not None:
            out.append(display.get(label, {}).get(str(v), str(v)))
    out += list(display.get(label, {}).values())
    return sorted(set(out))


def _value(table: str, col: str, **kw: str) -> str:
    extra = "".join(f' {k}="{v}"' for k, v in kw.items())
    return f'{{{{< value table="{table}" col="{col}"{extra} >}}}}'


KEY_RESULTS_NOTE = (
    "The key results are a first draft from the tables: write what the runs show, each\n"
    "number from the tables through the `value` shortcode (docs/charts.md)."
)


def _keyresults(doc: dict[str, Any], p: Plan) -> tuple[list[str], list[str]]:
    """The 3 key results (ref, sentence) and the names with digits they use."""
    used: list[str] = []  # the prose names no metric: the tables' headings do, from data/
    if p.label and p.table is not None:
        t, lab = p.table["id"], p.label
        said = in_prose(lab, doc)
        ref = t if len(p.values) <= LAZY else "over-time"
        first = f"Across {said}, the mean goes from "
        first += f"{_value(t, 'mean', agg='min')} ({said} {_value(t, 'mean', agg='min', show=lab)})"
        first += f" to {_value(t, 'mean', agg='max')} ({_value(t, 'mean', agg='max', show=lab)})"
        if not set(str(p.base)) & set(',="{}<>'):  # a value the where= syntax can carry
            first += (
                f"; at best {_value(t, 'vs_base', agg='max')} the mean at "
                f"{said} {_value(t, lab, where=f'{lab}={p.base}')}"
            )
        used.append(said)
        out = [
            (ref, first + "."),
            (
                "over-time",
                "Over the window, the mean of a run ranges from "
                f"{_value('runs', 'mean', agg='min')} ({_value('runs', 'mean', agg='min', show='run')}) "
                f"to {_value('runs', 'mean', agg='max')} ({_value('runs', 'mean', agg='max', show='run')}).",
            ),
            (
                "over-time",
                f"Interval by interval, the rate went as low as {_value('jitter', 'min', agg='min')} "
                f"and as high as {_value('jitter', 'max', agg='max')} within the window; the "
                f"steadiest run's coefficient of variation is {_value('jitter', 'cv', agg='min')}, "
                f"the least steady's {_value('jitter', 'cv', agg='max')}.",
            ),
        ]
        return [_item(r, s) for r, s in out], used
    out = [
        (
            "over-time",
            f"Over the window, the mean is {_value('runs', 'mean', agg='max')}, with a "
            f"coefficient of variation of {_value('jitter', 'cv', agg='max')} between intervals.",
        ),
        (
            "jitter",
            f"Interval by interval, the rate went from {_value('jitter', 'min', agg='min')} to "
            f"{_value('jitter', 'max', agg='max')}; half the intervals were above "
            f"{_value('jitter', 'p50', agg='max')}.",
        ),
        (
            "jitter",
            f"One interval in a hundred was below {_value('jitter', 'p1', agg='min')}, and one in "
            f"twenty above {_value('jitter', 'p95', agg='max')}.",
        ),
    ]
    return [_item(r, s) for r, s in out], used


def _item(ref: str, sentence: str) -> str:
    return f'{{{{< keyresult ref="{ref}" >}}}}{sentence}{{{{< /keyresult >}}}}'


def _table_code(tid: str, rows: int, collapsed: bool = False) -> str:
    extra = ' lazy="true"' if rows > LAZY else ' collapsed="true"' if collapsed else ""
    return f'{{{{< table id="{tid}" source="derived"{extra} >}}}}'


def _show(p: Plan) -> str:
    """The time series' `show=`: the compared runs, when there are more runs than it draws."""
    return f' show="{",".join(p.show)}"' if p.show and p.runs > 4 else ""


def _picked(p: Plan) -> str:
    """A chart's `runs=`: past PICKED runs, the compared ones only."""
    if p.runs <= PICKED or len(p.compared) < 2:
        return ""
    return f' runs="{",".join(p.compared)}"'


def _first(p: Plan) -> str:
    """The metrics chart's `show=`: the first run the time series draws."""
    return f' show="{p.show[0]}"' if p.show and p.runs > PICKED and len(p.compared) > 1 else ""


def _body(doc: dict[str, Any], p: Plan) -> tuple[str, list[str]]:
    items, used = _keyresults(doc, p)
    parts = [
        "{{< keyresults >}}",
        *items,
        "{{< /keyresults >}}",
        "",
        "## The runs over time",
        "",
        f'{{{{< chart kind="timeseries" id="over-time" source="derived"{_picked(p)}{_show(p)} '
        'caption="Each run\'s rate per interval, for the whole run" >}}',
        "",
    ]
    if p.linked:
        parts += [
            "## What the system did",
            "",
            f'{{{{< chart kind="metrics" id="system" source="derived"{_picked(p)}{_first(p)} '
            'caption="The rate with the OS and server metrics of the same seconds" >}}',
            "",
        ]
    if doc.get("versions"):
        parts += version_view.chart(doc["versions"][0], doc.get("label_names", {}))
    if p.label and p.table is not None:
        parts += [
            f"## By {in_prose(p.label, doc)}",
            "",
            _table_code(p.table["id"], len(p.values)),
            "",
        ]
    parts += [
        "## Every run",
        "",
        _table_code("runs", p.runs, collapsed=p.runs > COLLAPSE),
        "",
        "## Jitter over the window",
        "",
        "The spread of the per-interval rate over the window (its bounds and metric are in the",
        "table's caption).",
        "",
        _table_code(
            "jitter", p.runs, collapsed=p.runs > 1 and (p.runs > COLLAPSE or p.label is not None)
        ),
        "",
        "## Provenance",
        "",
        "{{< provenance >}}",
        "",
    ]
    return "\n".join(parts), used
