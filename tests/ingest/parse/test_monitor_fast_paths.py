"""The monitor parsers' fast paths (a whole column at a time) against their line-by-line
parse: on our fixtures, on generated files and on damaged copies of them, the parse gives
the same sessions, warnings and errors whichever path reads the file; a regular file takes
the fast path (else the speed is lost without a test failing)."""

from __future__ import annotations

import random
from datetime import datetime

import pytest

from ingest.parse import _columns, by_name, dstat, iostat, mpstat, sar, vmstat
from ingest.problems import Problem
from tests.kit import versions_gen
from tests.kit.golden import FIXTURES

MODULES = {"iostat": iostat, "mpstat": mpstat, "vmstat": vmstat, "dstat": dstat, "sar": sar}
# each format's fast path, and what stands for it when it is turned off: a reader of the
# whole file (None: not this file), or dstat's row read with one split (None: group by group)
FAST = {fmt: [(module, "_fast", lambda text, file: None)] for fmt, module in MODULES.items()}
FAST["dstat"] = [
    (dstat._Reader, "whole", lambda self, text: False),
    (dstat._Reader, "_aligned", lambda self, line: None),
]
START = datetime(2026, 3, 14, 0, 57, 40)


def generated(fmt: str, samples: int = 30, seed: int = 7) -> str:
    rnd = random.Random(seed)
    if fmt == "sar":  # mpstat -P ALL reads as sar too, one session per CPU
        fmt = "mpstat"
    if fmt == "vmstat":
        return versions_gen.vmstat(samples, rnd)
    return getattr(versions_gen, fmt)(START, samples, rnd)


def outcome(fmt: str, text: str, fast: bool, monkeypatch) -> str:
    """The parse's result (or its Problem) as text, by the fast path when it takes the file
    (`fast`), else by the line-by-line parse alone."""
    with monkeypatch.context() as m:
        for off in [] if fast else FAST[fmt]:
            m.setattr(*off)
        try:
            parsed = by_name(fmt).parse(text, "m.txt")
        except Problem as e:
            return f"Problem: {e}"
    return repr(parsed)


def mutations(text: str, rnd: random.Random) -> list[str]:
    """Damaged copies of `text`: a word that is no number, a value lost or added, a line
    cut, lost or repeated, a blank line more, CR line ends, the file cut mid-line."""
    lines = text.split("\n")
    out = [text.replace("\n", "\r\n"), text[: len(text) * 2 // 3], text.rstrip("\n")]
    for _ in range(12):
        i = rnd.randrange(2, len(lines) - 1)
        words = lines[i].split()
        if not words:
            continue
        j = rnd.randrange(len(words))
        for changed in (
            words[:j] + ["x1"] + words[j + 1 :],
            words[:j] + words[j + 1 :],
            words[:j] + ["7.25"] + words[j:],
            words[:j] + ["1e3"] + words[j + 1 :],
            words[:j] + ["-1.00"] + words[j + 1 :],
            words[:j] + ["1.2345"] + words[j + 1 :],
        ):
            out.append("\n".join([*lines[:i], "  ".join(changed), *lines[i + 1 :]]))
        out.append("\n".join([*lines[:i], *lines[i + 1 :]]))
        out.append("\n".join([*lines[:i], lines[i], *lines[i:]]))
        out.append("\n".join([*lines[:i], "", *lines[i:]]))
        out.append("\n".join([*lines[:i], "   ", *lines[i + 1 :]]))
    return out


@pytest.mark.parametrize("fmt", MODULES)
def test_a_regular_file_takes_the_fast_path(fmt, monkeypatch):
    text = generated(fmt)
    if fmt == "dstat":
        monkeypatch.setattr(dstat._Reader, "row", None)  # never called: all rows at once
        assert by_name(fmt).parse(text, "m.txt").sessions[0].intervals == 29
    else:
        assert MODULES[fmt]._fast(text, "m.txt") is not None


@pytest.mark.parametrize("fmt", MODULES)
def test_both_paths_read_every_fixture_alike(fmt, monkeypatch):
    for path in sorted((FIXTURES / fmt).glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        assert outcome(fmt, text, True, monkeypatch) == outcome(fmt, text, False, monkeypatch)


@pytest.mark.parametrize("chunk", [7, 2_000])
@pytest.mark.parametrize("fmt", MODULES)
def test_both_paths_read_damaged_files_alike(fmt, chunk, monkeypatch):
    monkeypatch.setattr(_columns, "CHUNK", chunk)  # 7: a file's rows in many chunks
    monkeypatch.setattr(dstat, "CHUNK", chunk)
    rnd = random.Random(fmt)
    for text in [generated(fmt, 25, seed) for seed in (1, 2)]:
        for damaged in [text, *mutations(text, rnd)]:
            fast = outcome(fmt, damaged, True, monkeypatch)
            assert fast == outcome(fmt, damaged, False, monkeypatch), damaged[:200]
