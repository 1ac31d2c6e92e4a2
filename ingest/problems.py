"""The one error type of the ingest: `Problem(file, line, reason)`.

Parsers, the manifest loader, the archive reader, the writer and study modules all raise
`Problem` for bad input, and report non-fatal findings as `Problem` values (never strings).
It prints as `file:line: reason`, or `file: reason` when no line applies (never "line 0").
Every text that reaches a terminal, a file or a page goes through `clean()`: control
characters are escaped and the length is bounded, so a hostile member name can neither forge
a second error line nor fill the screen.
"""

from __future__ import annotations

import re

MAX_TEXT = 300
# controls, line/paragraph separators and the bidi controls that reorder text (U+202E); the
# archive reader and the scaffold refuse member and archive names holding one
CONTROL = re.compile(
    r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)


def clean(text: object, limit: int = MAX_TEXT) -> str:
    """`text` as one printable line of at most `limit` characters (controls as \\xNN)."""
    s = str(text)
    if len(s) > limit * 4:  # bound the work before escaping, too
        s = s[: limit * 4]
    s = CONTROL.sub(
        lambda m: (
            f"\\x{ord(m.group()):02x}" if ord(m.group()) < 256 else f"\\u{ord(m.group()):04x}"
        ),
        s,
    )
    if len(s) > limit:
        s = s[: limit - 1] + "…"
    return s


class Problem(Exception):
    """Bad input at `file:line`: `line` is 1-based, or None when no line applies."""

    def __init__(self, file: object, line: int | None, reason: str):
        self.file = clean(file)
        self.line = line if line else None
        self.reason = clean(reason, 4 * MAX_TEXT)
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where}: {self.reason}"

    def __reduce__(
        self,
    ) -> tuple[
        type[Problem], tuple[str, int | None, str]
    ]:  # picklable (multiprocessing, Hypothesis reports)
        return (Problem, (self.file, self.line, self.reason))
