"""mysql8-optane: MySQL 8.0, MySQL 5.7 and Percona Server 5.7 on Intel Optane.

Raw data of this study is not public: every table comes from the published figures in
`published-tables.md` (F13), with the post's qualifiers ("about") kept as cell notes.
Derived here: storage MB/s relative to MySQL 5.7 and the Optane / SSD throughput ratio.
Every row says where its figure comes from (`basis`): `published` (stated by the original) or
`estimate` (inferred from a statement of the original, e.g. the Optane TPS from "2.5x slower", or
MySQL 8.0's 1.0 from "no improvement"), or `base` (the base case's 1.0, by definition).
Rows list the servers in one order everywhere (that of the relative-throughput table).
"""

from __future__ import annotations

import re

from ingest.derive.tables import carry_notes, col, find, ratio, table

BASE_SERVER = "MySQL 5.7"


def build(ctx) -> list[dict]:
    return derive(ctx.published(fmt="markdown-tables"))


def derive(parsed) -> list[dict]:
    return [relative_throughput(parsed), storage_throughput(parsed), device_comparison(parsed)]


def server_order(parsed) -> list[str]:
    """The servers in the order of the relative-throughput table (the base first)."""
    return [r["server"] for r in find(parsed, "Throughput relative to").rows]


def basis_of(note) -> str:
    """Where a figure comes from, by the transcription's note: `base` for the base case (1.0 by
    definition), `estimate` for a figure the original only implies, through a ratio ("about 2.5x
    the ...") or in words ("no improvement over 5.7": read as 1.0, no number printed), else
    `published`."""
    if note == "base":
        return "base"
    if note and (
        re.search(r"\d(\.\d+)?x the ", note)
        or re.match(r"no (improvement|difference|change)\b", note)
    ):
        return "estimate"
    return "published"


def relative_throughput(parsed) -> dict:
    t = find(parsed, "Throughput relative to")
    rows = [
        {
            "server": r["server"],
            "relative": r["relative throughput"],
            "basis": basis_of(r["note"]),
            "note": r["note"],
        }
        for r in t.rows
    ]
    return table(
        "relative-throughput",
        f"{t.name}, as published or read from the text",
        [
            col("server", "Server", "label"),
            col("relative", f"Throughput / {BASE_SERVER}", "ratio", 1),
            col("basis", "Figure", "label"),
            col("note", "Note", "text"),
        ],
        rows,
        carry_notes(t, {i: i for i in range(len(rows))}, {"relative throughput": "relative"}),
    )


def storage_throughput(parsed) -> dict:
    """One row per server and direction (read/write), with the ratio to the base server."""
    t = find(parsed, "Storage throughput")
    base = next(r for r in t.rows if r["server"] == BASE_SERVER)
    order = server_order(parsed)
    rows = []
    for direction in ("read", "write"):
        key = f"{direction} MB/s"
        for r in sorted(
            t.rows, key=lambda r: order.index(r["server"]) if r["server"] in order else len(order)
        ):
            rows.append(
                {
                    "server": r["server"],
                    "direction": direction,
                    "mb_s": r[key],
                    "vs_base": ratio(r[key], base[key], 2),
                }
            )
    return table(
        "storage-throughput",
        f"{t.name}, as published",
        [
            col("server", "Server", "label"),
            col("direction", "Direction", "label"),
            col("mb_s", "MB/s", "number", 0),
            col("vs_base", f"/ {BASE_SERVER} (computed)", "ratio", 2),
        ],
        rows,
    )


def device_comparison(parsed) -> dict:
    """TPS per device and the ratio to the slowest; a ratio of approximate figures is approximate."""
    t = find(parsed, "Device comparison")
    s = min(range(len(t.rows)), key=lambda i: t.rows[i]["tps"])
    rows = [
        {
            "device": r["device"],
            "tps": r["tps"],
            "vs_slowest": ratio(r["tps"], t.rows[s]["tps"], 1),
            "basis": basis_of(r["note"]),
            "note": r["note"],
        }
        for r in t.rows
    ]
    notes = carry_notes(t, {i: i for i in range(len(rows))}, {"tps": "tps"})
    for i in range(len(rows)):
        if i != s and (f"{i}/tps" in notes or f"{s}/tps" in notes):
            notes[f"{i}/vs_slowest"] = notes.get(f"{i}/tps") or notes[f"{s}/tps"]
    return table(
        "device-tps",
        f"{t.name}, as published",
        [
            col("device", "Device", "label"),
            col("tps", "TPS", "number", 0),
            col("vs_slowest", "/ slowest device", "ratio", 1),
            col("basis", "Figure", "label"),
            col("note", "Note", "text"),
        ],
        rows,
        notes,
    )
