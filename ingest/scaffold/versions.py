"""The scaffold's draft of a version comparison (docs/manifest.md, "Version comparison"): when
the values of a label read as server versions (5.7.44, 8.0.36, 10.11.6, mysql-8.0.36,
ps8.0.36-28), a `versions:` section over it, its X the thread count (else another number label),
its facets the other labels that vary, and the chart that shows it in the post."""

from __future__ import annotations

import re
from typing import Any

# a version: an optional product prefix, two to four dot-separated numbers, an optional build
# suffix of any number of parts (a custom build, 8.0.40-ubu2204-lto-variant2, is part of the version)
VERSION = re.compile(r"(?:[A-Za-z]+[-_]?)?[0-9]+(?:\.[0-9]+){1,3}(?:[-_+][A-Za-z0-9.]+)*")
SERIES_QPS = ("sysbench1", "sysbench05")  # formats whose series have a qps column
ID = "versions"
# panels a draft's view shows at most: each panel draws every version at every X, and 27 of
# them (3 workloads x 3 families x 3 tiers, 11 versions) passed a post's page budget
MAX_PANELS = 9


def draft(
    doc: dict[str, Any], run_labels: list[dict[str, Any]], formats: set[Any]
) -> dict[str, Any] | None:
    """The `versions:` entry for a study whose runs have a version label, or None."""
    values = {
        k: list(dict.fromkeys(str(r[k]) for r in run_labels if k in r)) for k in doc["labels"]
    }
    found = [k for k, vs in values.items() if len(vs) > 1 and all(VERSION.fullmatch(v) for v in vs)]
    if not found:
        return None
    version = found[0]
    numbers = [
        k
        for k in doc["labels"]
        if k != version and doc.get("label_types", {}).get(k) == "int" and len(values[k]) > 1
    ]
    if not numbers:
        return None
    x = "threads" if "threads" in numbers else numbers[0]
    facets, where = _facets(doc, run_labels, version, x, values)
    metric = doc.get("metric") or "tps"
    metrics = {metric: metric.upper() if len(metric) <= 4 else metric}
    if metric == "tps" and formats and formats <= set(SERIES_QPS):
        metrics["qps"] = "QPS"
    entry = {"id": ID, "version": version, "facets": facets, "x": x, "metrics": metrics}
    return entry | ({"where": where} if where else {})


def _facets(
    doc: dict[str, Any],
    run_labels: list[dict[str, Any]],
    version: str,
    x: str,
    values: dict[str, list[Any]],
) -> tuple[list[str], dict[str, Any]]:
    """The labels that make the view's panels, at most MAX_PANELS of them in all, and a
    `where:` taking the first value (the smallest number) of each varying label left over. A
    label the version decides (a server family: each version is one family's) makes no panel:
    each would hold only that family's versions."""
    facets, panels, where = [], 1, {}
    ints = {k for k, t in doc.get("label_types", {}).items() if t == "int"}
    for k in doc["labels"]:
        if k in (version, x) or len(values[k]) < 2 or _decided_by(run_labels, version, k):
            continue
        if panels * len(values[k]) <= MAX_PANELS:
            facets.append(k)
            panels *= len(values[k])
        else:
            where[k] = min(int(v) for v in values[k]) if k in ints else values[k][0]
    return facets, where


def _decided_by(run_labels: list[dict[str, Any]], version: str, label: str) -> bool:
    """Whether every value of `version` goes with one value of `label`."""
    seen: dict[str, set[Any]] = {}
    for r in run_labels:
        if version in r and label in r:
            seen.setdefault(str(r[version]), set()).add(str(r[label]))
    return bool(seen) and all(len(v) == 1 for v in seen.values())


def chart(entry: dict[str, Any], headings: dict[str, str]) -> list[str]:
    """The post's lines that show the view (`headings`: the labels' readers' headings)."""
    name = headings.get(entry["version"], entry["version"])
    x = headings.get(entry["x"], entry["x"])
    some = ", for the first value of each other label" if entry.get("where") else ""
    return [
        f"## Every {name[:1].lower() + name[1:]} by {x[:1].lower() + x[1:]}",
        "",
        f'{{{{< chart kind="versions" id="every-version" table="{entry["id"]}" source="derived" '
        f"caption=\"Each version by the runs' X, a panel per facet on its own scale{some}; pick "
        'the base and switch to the ratios above the chart" >}}',
        "",
    ]
