"""pt-mysql-summary reports (Percona Toolkit): the server's version and key settings.

The report opens with its banner `# Percona Toolkit MySQL Summary Report ####`; sections
start with `# <Name> ####` (`# Instances ###`, `# Report On Port 3306 ###`, `# InnoDB ###`),
and most of their lines are `<label> | <value>`, the label right-aligned (`  Version | 8.0.36-28
Percona Server (GPL), Release 28`). The `# Configuration File ###` section quotes the server's
my.cnf (`[mysqld]`, `key = value`), which is why the report must never be read as a my.cnf.

`Parsed.settings` holds every `label | value` line, the label lower case with `_` for spaces
and punctuation, prefixed by its section (`innodb.buffer_pool_size`: "12.0G"); the
`Report On Port N` section has no prefix (`version`, `hostname`, `started`); the quoted my.cnf
options as `cnf.<key>` (`cnf.<group>.<key>` outside `[mysqld]`). The values stay as printed
(text). The lines of the report's tables (processlist, status counters, schemas) are not read:
they are counted, one warning per file.
"""

from __future__ import annotations

import re

from ingest.parse import register
from ingest.parse._text import Lines
from ingest.parse.base import Parsed, Parser
from ingest.parse.mycnf import _strip_comment, _unquote, normalise_key

BANNER = "# Percona Toolkit MySQL Summary Report #"
SECTION = re.compile(r"# (\S.*?) #{3,}\s*")
LABEL = re.compile(r"[^\W_]+")  # the words of a label: `Buffer Pool Size` -> buffer_pool_size
OPTION = re.compile(r"[A-Za-z][\w.-]*")


def _slug(text: str) -> str:
    return "_".join(LABEL.findall(text.lower()))


@register
class PtMysqlSummary(Parser):
    name = "pt-mysql-summary"
    what = "pt-mysql-summary `label | value` lines"
    description = "pt-mysql-summary report: version and settings from its `label | value` lines"

    def detect(self, head: str) -> str | None:
        for line in head.splitlines()[:5]:
            if line.startswith(BANNER):
                return "the `# Percona Toolkit MySQL Summary Report #` banner"
        return None

    def parse(self, text: str, file: str) -> Parsed:
        lines = Lines(text, file)
        parsed = Parsed(self.name, file, problems=lines.problems)
        prefix: str | None = None  # the current section's key prefix; None before the banner
        cnf: str | None = None  # in the quoted my.cnf: its current [group]
        for no, line in lines:
            if not line.strip():
                continue
            if line.startswith("# "):
                if line.startswith(BANNER):
                    prefix, cnf = "", None
                elif (m := SECTION.fullmatch(line)) and prefix is not None:
                    prefix, cnf = (
                        _prefix(m[1]),
                        ("" if m[1].startswith("Configuration File") else None),
                    )
                else:
                    lines.skip(no)
                continue
            if prefix is None:
                raise lines.error(
                    no, "expected the `# Percona Toolkit MySQL Summary Report` banner"
                )
            label, bar, value = line.partition(" | ")
            if not bar and line.rstrip().endswith(" |"):
                label, bar, value = line.rstrip()[:-2], " | ", ""
            if bar and label.startswith(" ") and _slug(label):
                parsed.settings[prefix + _slug(label)] = value.strip()
            elif cnf is not None and (found := _option(line, cnf)):
                if found[0] is None:
                    cnf = found[1]
                else:
                    parsed.settings[found[0]] = found[1]
            else:
                lines.skip(no)
        if prefix is None:
            raise lines.error(0, "no `# Percona Toolkit MySQL Summary Report` banner")
        if not parsed.settings:
            raise lines.error(0, "no `label | value` lines in this pt-mysql-summary report")
        return parsed


def _prefix(section: str) -> str:
    """The settings prefix of a section: none for the server's own report."""
    return "" if section.startswith("Report On Port") else _slug(section) + "."


def _option(line: str, group: str) -> tuple[str | None, str] | None:
    """(key, value) of a quoted my.cnf option line, (None, group) of a `[group]` line, or None."""
    text = _strip_comment(line.strip())
    if not text or text[0] in "#;!":
        return None
    if text.startswith("["):
        m = re.fullmatch(r"\[\s*([\w.-]+)\s*\]", text)
        return (None, m[1].lower()) if m else None
    key, eq, value = text.partition("=")
    if not OPTION.fullmatch(key.strip()):
        return None
    key = normalise_key(key)
    name = key if group in ("mysqld", "") else f"{group}.{key}"
    return f"cnf.{name}", _unquote(value.strip()) if eq else "ON"
