"""Bytes of one input file -> `Parsed`, with the checks every format shares:
UTF-8 text, not empty, at most MAX_FILE_LINES lines, a known (or detected) format, at least
one result.

Size budget (docs/formats.md, "Size limits"): parsing costs about 0.7 KB of memory a line at
its peak (sysbench 1.x, 1,000,000 interval lines: 1.2 GB, 9 s), so a file of more than
MAX_FILE_LINES lines is refused before it is decoded, and one ingest reads at most
MAX_INGEST_LINES lines in all (`LineBudget`). The largest real input has 86,400 lines."""

from __future__ import annotations

from ingest.parse import Parsed, by_name, detect
from ingest.problems import Problem

HEAD = 64 * 1024
MAX_FILE_LINES = 1_000_000  # lines of one input file
MAX_INGEST_LINES = 2_000_000  # lines of all the files one ingest parses (its runs: and files:)
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


class LineBudget:
    """The lines one ingest has parsed so far, against MAX_INGEST_LINES (a count per file)."""

    def __init__(self, limit: int | None = None):
        self.limit = MAX_INGEST_LINES if limit is None else limit
        self.used = 0

    def take(self, data: bytes, file: str):
        lines = check_lines(data, file)
        if self.used + lines > self.limit:
            raise Problem(
                file,
                self.limit - self.used + 1,
                f"the files of this ingest pass {self.limit:,} lines in all here "
                f"({LIMITS_DOC}); split the study",
            )
        self.used += lines


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
    parsed = parser.parse(text, file, mode=mode) if mode else parser.parse(text, file)
    if not parsed.sessions and not parsed.tables and not parsed.settings:
        raise Problem(file, 0, f"no results found ({parser.name})")
    return parsed
