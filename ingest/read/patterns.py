"""Patterns (`regex:`, `glob:`) of a manifest: compiled with the `regex` package after their size
is bounded (`pattern_units`), and matched with a time budget per match and a total per ingest
(`MatchClock`), so a catastrophic pattern is reported, not run for minutes."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import regex

from ingest.problems import clean
from ingest.read.fields import Fields

MATCH_BUDGET_S = 0.1  # time budget of one pattern match against one member name


MATCH_TOTAL_S = 2.0  # time budget of all the pattern matches of one manifest's ingest


MAX_PATTERN_UNITS = 100_000  # a pattern's size with its counted repeats written out


class MatchClock:
    """What is left of MATCH_TOTAL_S, shared by the rules of one manifest: 3,000 members
    against a rule that takes 0.09 s each would otherwise run for minutes."""

    def __init__(self, total: float | None = None):
        self.total = self.left = MATCH_TOTAL_S if total is None else total
        self.matches = 0
        # id(rule) -> (rule, its seconds): the slowest is named
        self.spent: dict[int, tuple[Any, float]] = {}


def budgeted(
    pattern: regex.Pattern[str],
    text: str,
    clock: MatchClock,
    fail: Callable[[str], Exception],
    how: str = "fullmatch",
) -> regex.Match[str] | None:
    """`pattern.<how>(text)` (fullmatch or search) within MATCH_BUDGET_S and what is left of
    `clock`: the one path every pattern of a manifest section (label files, file tables,
    reproduction checks) is run through; `fail(reason)` is raised when it takes longer."""
    budget = min(MATCH_BUDGET_S, clock.left)
    start = time.perf_counter()
    try:
        if budget <= 0:
            raise TimeoutError
        found: regex.Match[str] | None = getattr(pattern, how)(text, timeout=budget)
        return found
    except TimeoutError:
        source = clean(pattern.pattern, 80)
        if budget < MATCH_BUDGET_S:
            raise fail(
                f"patterns too slow: {clock.matches:,} matches took over {clock.total:g} s in "
                f"all (the last: {source!r}); simplify them"
            ) from None
        raise fail(
            f"pattern {source!r} too slow (over {MATCH_BUDGET_S:g} s on {clean(text, 60)!r}); "
            "simplify it"
        ) from None
    finally:
        clock.left -= time.perf_counter() - start
        clock.matches += 1


def compile_pattern(
    v: Fields, key: str, source: str, where: str, what: str = "regex"
) -> regex.Pattern[str]:
    """`source` compiled with the `regex` package (VERSION0), its size bounded first
    (`pattern_units`); a `manifest:line` error when it is too large or invalid."""
    units = pattern_units(source)
    if units > MAX_PATTERN_UNITS:
        v.fail(
            key,
            f"{where}: {what} too large: its counted repeats write out to "
            f"{'at least 10^9' if units >= 10**9 else f'{units:,}'} characters "
            f"(limit {MAX_PATTERN_UNITS:,}); use fewer or smaller {{m,n}} repeats",
        )
    try:
        return regex.compile(source, regex.VERSION0)
    except (regex.error, RecursionError, OverflowError, ValueError, MemoryError) as e:
        v.fail(key, f"{where}: bad {what} ({clean(e, 120)})")


_REPEAT = re.compile(r"\{(\d*)(?:(,)(\d*))?\}")


_ESCAPE_BRACED = re.compile(r"\\[pPNxuUgk]\{[^}]*\}|\\g<[^>]*>|\\.", re.S)


_CLASS = re.compile(r"\[\^?\]?(?:\\.|[^\]\\])*\]", re.S)


_COMMENT = re.compile(r"\(\?#[^)]*\)")


def pattern_units(source: str) -> int:
    """A bound on the size of `source` with its counted repeats written out (`a{1000}` is
    1,000, `((a{1000}){1000}){1000}` 10^9): the `regex` package unrolls them when it compiles,
    2.7 GB for `a{10000000}`. Escapes and character classes count 1, alternatives add up;
    capped at 10^9. Read before compiling, so a huge repeat is an error, not MemoryError."""
    frames = [[0, 0]]  # per open group: [size so far, size of the last atom]
    i, cap = 0, 10**9
    while i < len(source):
        c = source[i]
        m = None
        if c == "\\":
            m = _ESCAPE_BRACED.match(source, i)
        elif c == "[":
            m = _CLASS.match(source, i)
        elif source.startswith("(?#", i):
            m = _COMMENT.match(source, i)
            if m:
                i = m.end()
                continue
        elif c == "{" and (m := _REPEAT.match(source, i)) and (m[1] or m[3]):
            low, high = m[1] or "0", m[3] if m[2] else m[1]
            times = max(int(x) if len(x) <= 9 else cap for x in (low, high or low))
            frame = frames[-1]
            frame[0] = min(cap, frame[0] + frame[1] * (times - 1))
            frame[1] = min(cap, frame[1] * times)
            i = m.end()
            continue
        if c == "(":
            frames.append([0, 0])
        elif c == ")" and len(frames) > 1:
            size = frames.pop()[0]
            frames[-1][0] = min(cap, frames[-1][0] + size)
            frames[-1][1] = size
        elif c not in "|*+?":
            frames[-1][0] += 1
            frames[-1][1] = 1
        i = m.end() if m else i + 1
    return min(cap, sum(f[0] for f in frames))


def glob_re(pattern: str) -> str:
    """A shell glob as a full-match regex: `*` and `?` do not cross `/`, `**` does."""
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        out.append("[^/]*" if c == "*" else "[^/]" if c == "?" else re.escape(c))
        i += 1
    return "".join(out)
