"""Server settings: my.cnf option files and SHOW GLOBAL VARIABLES captures.

Both give `Parsed.settings`, a flat `{key: value}` dict (values as text), so runs can be
compared with `settings_diff`. Keys are normalised: lower case, `-` -> `_`, a `loose_`
prefix dropped (MySQL's "ignore if unknown" marker).

my.cnf (`MyCnf`): `[section]` lines; `key=value`, `key = value`, quoted values (quotes
removed); bare flags (`skip-log-bin`, stored as "ON": the option is enabled); comments from
`#` or `;` at line start and from ` #` inside a line (outside quotes). Keys of `[mysqld]` are
stored as they are (they match SHOW GLOBAL VARIABLES names); keys of other sections as
`<section>.<key>` (`mysqld_safe.malloc_lib`). Later settings of the same key win, as in MySQL.
`!include` directives are not followed: they are reported in `Parsed.problems`.

SHOW GLOBAL VARIABLES (`GlobalVariables`): the tab-separated `Variable_name<TAB>Value` output
of `mysql -e`, or the boxed `| Variable_name | Value |` form; an empty value stays "".
"""

from __future__ import annotations

import re
from typing import TypedDict

from ingest.parse import register
from ingest.parse._text import Lines
from ingest.parse.base import Parsed, Parser

SERVER_SECTION = "mysqld"


def normalise_key(key: str) -> str:
    key = key.strip().lower().replace("-", "_")
    return key[len("loose_") :] if key.startswith("loose_") else key


def _strip_comment(text: str) -> str:
    """`text` without a trailing ` # comment` (a # inside quotes is kept)."""
    quote = None
    for i, ch in enumerate(text):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or text[i - 1].isspace()):
            return text[:i].rstrip()
    return text


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


@register
class MyCnf(Parser):
    name = "mycnf"
    description = "my.cnf option file ([sections], key=value, bare flags)"

    def detect(self, head: str) -> str | None:
        if re.search(r"^\s*\[(mysqld|mysqld_safe|client|mysql|server)[\w.-]*\]\s*$", head, re.M):
            return "a [mysqld]-style option group header"
        return None

    def parse(self, text: str, file: str) -> Parsed:
        lines = Lines(text, file)
        parsed = Parsed(format=self.name, file=file, problems=lines.problems)
        section = None
        for n, raw in lines:
            line = raw.strip()
            if not line or line[0] in "#;":
                continue
            if line.startswith("!"):
                lines.problem(n, f"{line.split()[0]} not followed")
                continue
            if line.startswith("["):
                m = re.fullmatch(r"\[\s*([\w.-]+)\s*\]", _strip_comment(line))
                if not m:
                    raise lines.error(n, f"unreadable option group header {line[:40]!r}")
                section = m.group(1).lower()
                continue
            if section is None:
                raise lines.error(n, "option before any [group] header")
            key, eq, value = _strip_comment(line).partition("=")
            if not re.fullmatch(r"[A-Za-z][\w.-]*", key.strip()):
                raise lines.error(n, f"unreadable option name {key.strip()[:40]!r}")
            value = _unquote(value.strip()) if eq else "ON"
            key = normalise_key(key)
            parsed.settings[key if section == SERVER_SECTION else f"{section}.{key}"] = value
        if not parsed.settings:
            raise lines.error(0, "no options found")
        return parsed


@register
class GlobalVariables(Parser):
    name = "global-variables"
    description = "SHOW GLOBAL VARIABLES output (Variable_name / Value, tabbed or boxed)"

    HEADER = re.compile(r"^\|?\s*Variable_name\s*(\t|\|)\s*Value\s*\|?\s*$")

    def detect(self, head: str) -> str | None:
        first = next((l for l in head.splitlines() if l.strip() and not l.startswith("+")), "")
        return "a Variable_name / Value header" if self.HEADER.match(first) else None

    def parse(self, text: str, file: str) -> Parsed:
        lines = Lines(text, file)
        parsed = Parsed(format=self.name, file=file, problems=lines.problems)
        seen_header = False
        for n, raw in lines:
            if not raw.strip() or raw.startswith("+"):
                continue
            if not seen_header:
                if not self.HEADER.match(raw):
                    raise lines.error(n, "expected a 'Variable_name<TAB>Value' header")
                seen_header = True
                continue
            if raw.startswith("|"):
                cells = [c.strip() for c in raw.strip().strip("|").split("|", 1)]
            else:
                cells = raw.split("\t", 1)
            if len(cells) != 2 or not re.fullmatch(r"[A-Za-z][\w.-]*", cells[0].strip()):
                raise lines.error(n, f"expected 'name<TAB>value', got {raw[:40]!r}")
            parsed.settings[normalise_key(cells[0])] = (
                cells[1].strip() if raw.startswith("|") else cells[1]
            )
        if not parsed.settings:
            raise lines.error(0, "no variables found")
        return parsed


class SettingDiff(TypedDict):
    """A key whose values differ across runs: each run's value, None where it is not set."""

    key: str
    values: dict[str, str | None]


def settings_diff(runs: dict[str, dict[str, str]]) -> list[SettingDiff]:
    """Keys whose values differ across runs, sorted by key: `{"key": k, "values": {run: v}}`,
    with None where a run does not set the key. `runs` maps a run name to its settings."""
    keys = sorted(set().union(*runs.values())) if runs else []
    diff: list[SettingDiff] = []
    for key in keys:
        values = {run: settings.get(key) for run, settings in runs.items()}
        if len(set(values.values())) > 1:
            diff.append({"key": key, "values": values})
    return diff
