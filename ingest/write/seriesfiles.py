"""The per-run series files (docs/data-schema.md, "series/"): one copy of each series in
data/, `series/<run>.json` (and `<run>.linked.json`), which the site serves as it is (the
charts fetch it) and from which the publish step writes the readers' `<run>.csv`
(publish/series.py, ingest/write/csvfiles.py).

JSON: the document's keys in order (`run`, `interval_s`, ..., `meta`, `columns`), then one
array per column, compact, numbers as JSON writes them (ingest/write/numbers.py: `1` for 1.0, the
digits the tool printed and no more), `null` for a missing value.

Size control (docs/manifest.md): `downsample` makes a lower-resolution copy of a series for a
run outside the published comparison, each point the mean of `every` intervals, labelled in
the document (`interval_s` of the points, `downsampled: {every, from_interval_s, stat}`) so a
chart never shows it as the original resolution. The ingest computes every statistic from the
full series before that.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from ingest.join.records import Record
from ingest.write.numbers import json_array

# a columnar series document: run, interval_s, ..., meta, columns, then one list per column
# (its keys are the columns' names, so no TypedDict)
SeriesDoc = dict[str, Any]


def series_json(doc: SeriesDoc) -> str:
    """Compact JSON of a columnar series document ({run, interval_s, columns, <col>: [...]}),
    its column arrays last."""
    columns = doc["columns"]
    head = {k: v for k, v in doc.items() if k not in columns}
    parts = [json.dumps(head, separators=(",", ":"), ensure_ascii=False)[:-1]]
    parts += [f",{json.dumps(c, ensure_ascii=False)}:{json_array(doc[c])}" for c in columns]
    return "".join(parts) + "}\n"


def downsample(doc: SeriesDoc, every: int) -> SeriesDoc:
    """`doc` with each `every` consecutive intervals as one point: `t` is the end of the last
    interval of the bucket, every other column the mean of the bucket's numbers (missing when
    it has none; 6 decimals); a last, shorter bucket is the mean of what it holds. A series of
    uneven intervals (`mean: time-weighted`) weights each value by its interval's length, as
    its run's statistics do (docs/data-schema.md)."""
    columns = doc["columns"]
    step = doc.get("interval_s")
    out: SeriesDoc = {
        "run": doc["run"],
        "interval_s": None if step is None else round(step * every, 6),
        "downsampled": {"every": every, "from_interval_s": step, "stat": "mean"},
        **({"mean": doc["mean"]} if "mean" in doc else {}),
        **({"meta": doc["meta"]} if "meta" in doc else {}),
        "columns": columns,
    }
    t = doc.get("t", [])
    lengths = [b - a for a, b in zip([0, *t], t)] if doc.get("mean") == "time-weighted" else None
    for c in columns:
        values = doc[c]
        weights = lengths or [1] * len(values)
        starts = range(0, len(values), every)
        out[c] = (
            [values[i : i + every][-1] for i in starts]
            if c == "t"
            else [_mean(values[i : i + every], weights[i : i + every]) for i in starts]
        )
    return out


# Any: one series column, whatever its values (as numbers.json_array takes it)
def _mean(values: list[Any], weights: Sequence[float]) -> float | None:
    pairs = [
        (v, w) for v, w in zip(values, weights) if type(v) in (int, float) and math.isfinite(v)
    ]
    total = math.fsum(w for _, w in pairs)
    return round(math.fsum(v * w for v, w in pairs) / total, 6) if pairs and total > 0 else None


def series_files(stem: str, doc: SeriesDoc) -> dict[str, str]:
    """The file of one columnar series document: `<stem>.json`."""
    return {f"{stem}.json": series_json(doc)}


def run_files(
    rec: Record, doc: SeriesDoc, linked_doc: SeriesDoc | None, extra: str | int
) -> tuple[dict[str, str], int]:
    """The series files of one run ({path under data/<study>/: text}) and the bytes the size
    control saved. `extra` (the manifest's `series: {extra: ...}`) applies to a run outside the
    published comparison: `keep`, `drop` (no files; the record says `series: {resolution:
    dropped}` and loses `linked`) or N (downsampled; the record says how)."""
    stem = f"series/{rec['id']}"
    full = series_files(stem, doc)
    if linked_doc is not None:
        full.update(series_files(f"{stem}.linked", linked_doc))
    if rec["published"] or extra == "keep":
        return full, 0
    full_bytes = _size(full)
    if extra == "drop":
        rec["series"] = {"resolution": "dropped"}
        rec.pop("linked", None)
        return {}, full_bytes
    assert isinstance(extra, int)  # keep and drop are done above: every N intervals
    small = downsample(doc, extra)
    rec["series"] = {
        "resolution": "downsampled",
        "every": extra,
        "interval_s": small["interval_s"],
        "points": len(small["t"]) if "t" in small else 0,
        "stat": "mean",
    }
    files = series_files(stem, small)
    if linked_doc is not None:
        small_linked = downsample(linked_doc, extra)
        rec["linked"]["downsampled"] = {"every": extra, "interval_s": small_linked["interval_s"]}
        files.update(series_files(f"{stem}.linked", small_linked))
    return files, full_bytes - _size(files)


def _size(files: dict[str, str]) -> int:
    return sum(len(text.encode("utf-8")) for text in files.values())


__all__ = ["series_json", "series_files", "downsample", "run_files"]
