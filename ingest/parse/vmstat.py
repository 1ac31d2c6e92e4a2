"""F11: vmstat output at any interval (procps 3.x and 4.x, with or without -w/-t).

The first data row is the average since boot and is dropped; the column header may repeat
mid-file. vmstat prints no interval, so `t` counts samples (1, 2, ...; `meta.t_unit` is
"sample") and `ingest.linked` / `ingest.osmetrics` put the series on a run's clock.

`vmstat -t` ends every row with the local date and time the row was printed (the end of its
interval) under a `-----timestamp-----` group, and the column header names the time zone
(`UTC`, `CEST`). These are kept, never guessed: the series gets a `time` column (ISO
`YYYY-MM-DDTHH:MM:SS`, as printed, without zone) and `meta.zone` the zone name as printed.
A header that names another zone than the first (a DST switch, TZ changed) is reported.
"""

from __future__ import annotations

import re
from datetime import datetime

from ingest.parse import register
from ingest.parse._columns import PLAIN, numbers, read_columns
from ingest.parse._text import Lines, columnar
from ingest.parse.base import Column, Parsed, Parser, Row, Session

GROUPS = re.compile(r"^\s*procs\s+-+\s*memory")
HEADER = re.compile(r"^\s*r\s+b\s+swpd\s+")
STAMP = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d")
STAMPS = re.compile(r"(?:\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\n)+", re.ASCII)  # one a line


@register
class VmstatParser(Parser):
    name = "vmstat"
    linked_as = "vmstat"
    description = "vmstat: r b swpd free ... us sy id wa st [-t date time], one row per interval (first row dropped: since boot)"

    def detect(self, head: str) -> str | None:
        for line in head.splitlines()[:50]:
            if HEADER.match(line):
                return "vmstat column header `r b swpd free ...`"
        return None

    def parse(self, text: str, file: str) -> Parsed:
        fast = _fast(text, file)
        if fast is not None:
            return fast
        lines = Lines(text, file)
        names: list[str] | None = None
        zone: str | None = (
            None  # `vmstat -t`: each row ends with date and time, the header names the zone
        )
        stamped = False
        rows: list[Row] = []
        at: list[int] = []
        since_boot_dropped = False
        for no, line in lines:
            if not line.strip() or GROUPS.match(line):
                continue
            if HEADER.match(line):
                names, stamped, zone = _header(lines, no, line, zone)
                continue
            if names is None:
                raise lines.error(no, "vmstat row before the column header `r b swpd free ...`")
            values, stamp = _values(lines, no, line, names, stamped)
            if not since_boot_dropped:
                since_boot_dropped = True
                continue
            row: Row = dict(zip(names, map(int, values)))
            if stamp:
                row["time"] = _time(lines, no, stamp)
            rows.append(row)
            at.append(no)
        if not rows or names is None:  # (no header: no rows)
            raise lines.error(0, "no vmstat rows after the since-boot row")
        for i, row in enumerate(rows, start=1):
            row["t"] = i
        meta = {"tool": "vmstat", "t_unit": "sample", "since_boot_row": "dropped"}
        columns = ["t"] + names
        if zone is not None:
            meta["zone"] = zone
            columns.append("time")
        session = Session(series=columnar(rows, columns), meta=meta, line=at[0], sample_lines=at)
        return Parsed(self.name, file, sessions=[session], problems=lines.problems)


def _header(
    lines: Lines, no: int, line: str, zone: str | None
) -> tuple[list[str], bool, str | None]:
    """(column names, whether rows end with a date and time, the first header's zone) of a
    column header; a zone other than the first one's is a warning."""
    names = line.split()
    stamped = names[-1] not in KNOWN
    if not stamped:
        return names, False, zone
    if zone is not None and names[-1] != zone:
        lines.problem(
            no,
            f"time zone changes from {zone} to {names[-1]} (DST or TZ changed?): "
            "the time stamps are kept as printed",
        )
    return names[:-1], True, zone or names[-1]


def _values(
    lines: Lines, no: int, line: str, names: list[str], stamped: bool
) -> tuple[list[str], list[str] | None]:
    """(the whole numbers under `names`, the date and time fields or None) of one row."""
    values, stamp = line.split(), None
    if stamped:
        values, stamp = values[:-2], values[-2:]
    if len(values) != len(names) or not all(v.isdigit() for v in values):
        raise lines.error(
            no,
            f"not a vmstat row: expected {len(names)} whole numbers under `{' '.join(names)}`"
            + (" and a date and time" if stamped else ""),
        )
    return values, stamp


def _time(lines: Lines, no: int, stamp: list[str]) -> str:
    """The ISO local time of a `vmstat -t` row's date and time, as printed."""
    when = " ".join(stamp)
    if not STAMP.fullmatch(when):
        raise lines.error(no, f"not a vmstat -t time stamp (YYYY-MM-DD HH:MM:SS): {when[:40]!r}")
    try:  # fromisoformat checks the date, at ~10x strptime's speed
        return datetime.fromisoformat(when).isoformat()
    except ValueError as e:
        raise lines.error(no, f"unreadable date or time: {when!r} ({e})") from None


def _fast(text: str, file: str) -> Parsed | None:
    """The parse of a regular file, a whole column at a time: one column header (and its
    groups line above it), repeated as it is, and rows of as many plain whole numbers (and a
    date and time with -t). None for anything else (a blank line, a cut, another header, a
    value that does not read): the line-by-line parse reads it and names the line."""
    if "\r" in text or not text.endswith("\n"):
        return None
    lines = text.split("\n")
    lines.pop()  # after the last line end (no copy of the text less its last character)
    at = 1 if GROUPS.match(lines[0]) else 0
    if len(lines) < at + 3 or not HEADER.match(lines[at]):
        return None
    heads = {lines[at], lines[0]}
    names = lines[at].split()
    zone = names.pop() if names[-1] not in KNOWN else None
    if len(set(names)) != len(names) or {"t", "time"} & set(names):
        return None
    numbered = [(no, line) for no, line in enumerate(lines, 1) if line not in heads]
    if len(numbered) < 2:
        return None
    rows = [line for _, line in numbered]

    def convert(j: int, words: list[str]) -> Column | None:
        if j >= len(names):  # the date and time of -t
            return words
        joined = " ".join(words)
        if not joined.isascii() or joined.translate(PLAIN) or "." in joined:
            return None
        return numbers(words, kind=int)

    series: dict[str, Column] = {"t": list(range(1, len(rows)))}
    try:
        columns = read_columns(rows, len(names) + (2 if zone else 0), convert)
        if columns is None:
            return None
        series.update((name, values[1:]) for name, values in zip(names, columns))
        if zone:
            when = list(map("{} {}".format, columns[-2], columns[-1]))
            if not STAMPS.fullmatch("\n".join(when) + "\n"):
                return None
            series["time"] = list(map(datetime.isoformat, map(datetime.fromisoformat, when)))[1:]
    except ValueError:
        return None
    meta = {"tool": "vmstat", "t_unit": "sample", "since_boot_row": "dropped"}
    if zone:
        meta["zone"] = zone
    sample_lines = [no for no, _ in numbered[1:]]
    session = Session(series=series, meta=meta, line=sample_lines[0], sample_lines=sample_lines)
    return Parsed("vmstat", file, sessions=[session])


KNOWN = {
    "r",
    "b",
    "swpd",
    "free",
    "buff",
    "cache",
    "inact",
    "active",
    "si",
    "so",
    "bi",
    "bo",
    "in",
    "cs",
    "us",
    "sy",
    "id",
    "wa",
    "st",
    "gu",
}
