"""Bytes of one input file -> `Parsed`, with the checks every format shares:
UTF-8 text, not empty, at most MAX_FILE_LINES lines, a known (or detected) format, at least
one result.

Memory budget (docs/formats.md, "Size limits"): parsing costs about 0.7 KB of memory a line at
its peak (sysbench 1.x, 1,000,000 interval lines: 1.2 GB, 9 s), so a file of more than
MAX_FILE_LINES lines is refused before it is decoded. Members are read and parsed one at a
time; what an ingest keeps of them until the study is written is their parsed series, counted
by `SeriesBudget` against MAX_SERIES_BYTES (a study of 1,000 runs at 1 s for 900 s with four
monitors beside each keeps a tenth of it). The largest real input has 86,400 lines."""

from __future__ import annotations

from collections.abc import Callable

from ingest.parse import Parsed, by_name, detect
from ingest.problems import Problem

HEAD = 64 * 1024
MAX_FILE_LINES = 1_000_000  # lines of one input file
# the parsed series one ingest keeps until it writes the study (runs: and files: rules)
MAX_SERIES_BYTES = 3 * 1024**3
VALUE_BYTES = (
    32  # one kept value: its list slot and a float object (measured: bench/scale_bench.py)
)
LIMITS_DOC = 'docs/formats.md, "Size limits"'


def check_lines(data: bytes, file: str) -> int:
    """The number of lines of `data`; a Problem at the first line over MAX_FILE_LINES."""
    lines = data.count(b"\n")
    if lines > MAX_FILE_LINES:
        raise Problem(
            file,
            MAX_FILE_LINES + 1,
            f"more than {MAX_FILE_LINES:,} lines ({lines:,}): the limit of one input file "
            f"({LIMITS_DOC}); split the file or keep fewer intervals",
        )
    return lines


class SeriesBudget:
    """The bytes of parsed series one ingest keeps (VALUE_BYTES a value in a list, 8 in a
    packed monitor's array: runs.packed), against
    MAX_SERIES_BYTES: a Problem at the file whose series pass it, before the next is read."""

    def __init__(self, limit: int | None = None):
        self.limit = MAX_SERIES_BYTES if limit is None else limit
        self.used = 0

    def take(self, parsed: Parsed, file: str) -> None:
        self.used += sum(
            len(col) * getattr(col, "itemsize", VALUE_BYTES)  # an array's, or a list's
            for s in parsed.sessions
            for col in s.series.values()
        )
        self._check(file)

    def take_text(self, data: bytes, file: str) -> None:
        """A query, label or sar file, before it is parsed: its lines checked (MAX_FILE_LINES)
        and its bytes counted, as what is kept of it is no larger than its text."""
        check_lines(data, file)
        self.used += len(data)
        self._check(file)

    def _check(self, file: str) -> None:
        if self.used > self.limit:
            raise Problem(
                file,
                None,
                f"the series parsed by this ingest pass {self.limit // 1024**2:,} MB here "
                f"({LIMITS_DOC}); keep fewer monitor files in its files: rules, or split the study",
            )


def decode(data: bytes, file: str) -> str:
    """UTF-8 text of `data` (a BOM is dropped); Problem naming the line of a bad byte."""
    if not data or data.isspace():
        raise Problem(file, 0, "empty file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise Problem(
            file, line, f"not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start})"
        ) from None
    return text.removeprefix("\ufeff").replace("\r\n", "\n")


def parse_bytes(data: bytes, file: str, fmt: str = "auto", mode: str | None = None) -> Parsed:
    """Decode, pick the parser (`auto`: registry detection), parse; zero results is an error.
    `mode`: a server-status `files:` rule's declared relative/absolute (manifest `mode:`)."""
    if len(data) > MAX_FILE_LINES:  # a shorter file has fewer lines: no count to make
        check_lines(data, file)
    text = decode(data, file)
    if fmt == "auto":
        parser, _ = detect(text[:HEAD], file)
    else:
        try:
            parser = by_name(fmt)
        except KeyError as e:
            raise Problem(file, 0, e.args[0]) from None
    parse: Callable[..., Parsed] = parser.parse  # a server-status parse takes a `mode`
    parsed = parse(text, file, mode=mode) if mode else parse(text, file)
    if not parsed.sessions and not parsed.tables and not parsed.settings:
        raise Problem(file, 0, f"no results found ({parser.name})")
    return parsed
