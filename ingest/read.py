"""Bytes of one input file -> `Parsed`, with the checks every format shares:
UTF-8 text, not empty, a known (or detected) format, at least one result."""

from __future__ import annotations

from .parsers import Parsed, by_name, detect
from .problems import Problem

HEAD = 64 * 1024


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
