"""Deterministic YAML and atomic study writes.

`dump(obj)` emits a small YAML subset by hand (dicts, lists, str, int, float, bool, None):
keys in the order given (callers build dicts in a fixed order), lists of scalars in flow
style (`t: [1, 2, 3]`, columnar series), dicts of scalars inside lists in flow style (table
rows), floats by `repr` (shortest round-trip) with a forced `.` so every YAML 1.1 reader
sees a float, NaN/inf as null, strings plain only when unambiguous, otherwise double-quoted.
No anchors, no aliases, no tags, `\\n` line ends.

`write_study(root, study, files)` replaces `root/<study>/` with `files` ({relpath: bytes}):
unchanged files are not touched (their mtime stays), changed files are written to a temp
dir inside `root` and moved in with `os.replace`, files not in `files` are removed. On any
failure every change already made is rolled back and the temp dir is removed.
"""
from __future__ import annotations

import math
import os
import re
import shutil
import tempfile
from pathlib import Path

PLAIN = re.compile(r"^[A-Za-z_/][A-Za-z0-9_ ./()%+\-]*$")
# characters YAML allows unescaped in a double-quoted scalar (no controls, no BOM, no C1)
PRINTABLE = re.compile("[\x20-\x7e\xa0-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]*")
RESERVED = {"y", "n", "yes", "no", "on", "off", "true", "false", "null", "nan", "inf"}


def _str(s: str) -> str:
    if PLAIN.match(s) and not s.endswith(" ") and s.lower() not in RESERVED and ": " not in s and " #" not in s:
        return s
    if PRINTABLE.fullmatch(s):
        return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif 0x20 <= o <= 0x7E or (0xA0 <= o <= 0xD7FF) or (0xE000 <= o <= 0xFFFD and o != 0xFEFF) or o >= 0x10000:
            out.append(ch)
        elif o <= 0xFF:
            out.append(f"\\x{o:02x}")
        else:
            out.append(f"\\u{o:04x}")
    out.append('"')
    return "".join(out)


def _float(x: float) -> str:
    if not math.isfinite(x):
        return "null"
    s = repr(x)
    if "e" in s:
        mant, exp = s.split("e")
        if "." not in mant:
            mant += ".0"
        sign = exp[0] if exp[0] in "+-" else "+"
        s = f"{mant}e{sign}{exp.lstrip('+-')}"
    return s


def scalar(v) -> str:
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return _float(v)
    if isinstance(v, str):
        return _str(v)
    raise TypeError(f"cannot write {type(v).__name__} to YAML")


def _is_scalar(v) -> bool:
    return v is None or isinstance(v, (str, int, float, bool))


def _numbers(v: list) -> str | None:
    """Fast path for a list of plain floats or of ints (series columns): Python's own list
    repr, `[1.5, 2.0]`, is the flow sequence; None if not such a list."""
    types = set(map(type, v))
    if types == {float}:
        text = list.__repr__(v)
        return None if ("e" in text or "n" in text) else text   # exponents, nan, inf: slow path
    if types == {int}:
        return list.__repr__(v)
    return None


def _flow(v) -> str:
    if isinstance(v, list) and v and (fast := _numbers(v)) is not None:
        return fast
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_str(str(k))}: {_flow(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(_flow(x) for x in v) + "]"
    return scalar(v)


def _flowable(v) -> bool:
    if isinstance(v, list):
        types = set(map(type, v))
        return types <= {int, float, type(None), bool} or all(
            _is_scalar(x) and not (isinstance(x, str) and len(x) > 60) for x in v)
    if isinstance(v, dict):
        return all(_is_scalar(x) or (isinstance(x, list) and all(_is_scalar(y) for y in x)) for x in v.values())
    return True


def _block(v, indent: int, out: list[str]):
    pad = " " * indent
    if isinstance(v, dict):
        for k, x in v.items():
            key = _str(str(k))
            if isinstance(x, list) and x and (fast := _numbers(x)) is not None:   # a series column
                out.append(f"{pad}{key}: {fast}")
            elif _is_scalar(x) or (isinstance(x, list) and _flowable(x)) or (isinstance(x, dict) and not x):
                out.append(f"{pad}{key}: {_flow(x)}")
            else:
                out.append(f"{pad}{key}:")
                _block(x, indent + 2, out)
    elif isinstance(v, list):
        for x in v:
            if isinstance(x, dict) and x and not _flowable(x):
                sub: list[str] = []
                _block(x, indent + 2, sub)
                out.append(f"{pad}- {sub[0].lstrip()}")
                out.extend(sub[1:])
            else:
                out.append(f"{pad}- {_flow(x)}")
    else:
        out.append(pad + scalar(v))


def dump(obj) -> str:
    """YAML text of `obj` (a dict at the top)."""
    out: list[str] = []
    _block(obj, 0, out)
    return "\n".join(out) + "\n"


def write_study(root: str | os.PathLike, study: str, files: dict[str, bytes]) -> dict[str, list[str]]:
    """Make `root/study/` hold exactly `files`; returns {"written": [...], "removed": [...]}."""
    root = Path(root)
    target = root / study
    current = {p.relative_to(target).as_posix() for p in target.rglob("*") if p.is_file()} if target.is_dir() else set()
    changed = sorted(n for n, b in files.items() if n not in current or (target / n).read_bytes() != b)
    removed = sorted(current - set(files))
    if not changed and not removed:
        return {"written": [], "removed": []}
    root.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{study}.tmp-", dir=root))
    done: list[tuple[str, bool]] = []   # (relpath, existed before) in apply order
    try:
        for n in changed:
            p = tmp / "new" / n
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(files[n])
        for n in changed + removed:
            if n in current:
                b = tmp / "old" / n
                b.parent.mkdir(parents=True, exist_ok=True)
                os.link(target / n, b)
        for n in changed:
            (target / n).parent.mkdir(parents=True, exist_ok=True)
            os.replace(tmp / "new" / n, target / n)
            done.append((n, n in current))
        for n in removed:
            os.unlink(target / n)
            done.append((n, True))
    except BaseException:
        for n, existed in reversed(done):
            if existed:
                os.rename(tmp / "old" / n, target / n)   # rename: not the patched-able replace
            else:
                (target / n).unlink(missing_ok=True)
        _prune_dirs(target)
        raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    _prune_dirs(target)
    return {"written": changed, "removed": removed}


def _prune_dirs(target: Path):
    """Remove empty subdirectories left by removed files (the study dir itself too)."""
    if not target.is_dir():
        return
    for d in sorted((p for p in target.rglob("*") if p.is_dir()), key=lambda p: -len(p.parts)):
        if not any(d.iterdir()):
            d.rmdir()
    if not any(target.iterdir()):
        target.rmdir()
