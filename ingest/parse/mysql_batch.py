"""Headerless `mysql -N -e "SHOW GLOBAL VARIABLES"` / `"SHOW GLOBAL STATUS"` dumps.

`mysql -N` (`--skip-column-names`) in batch mode prints one `name<TAB>value` line per
variable and no `Variable_name / Value` header. The two are told apart by their names: server
variables are lower case (`innodb_buffer_pool_size`), status variables start with a capital
(`Com_select`, `Uptime`, `Innodb_rows_read`), in MySQL, Percona Server and MariaDB alike.

- `mysql-n-variables`: read as SHOW GLOBAL VARIABLES captures are (ingest/parse/mycnf.py):
  `Parsed.settings`, names normalised, values as text ("" stays "").
- `mysql-n-status`: read as a SHOW GLOBAL STATUS snapshot is (ingest/parse/server_status.py):
  a `status` table (`variable, value`, names lower case, numbers as numbers). Several dumps
  appended to one file start again at their first name: a table per snapshot, and with three
  or more, the per-second rates on the clock of their `Uptime`, as `global-status` gives
  them (a last dump cut short is left out of the rates and reported).

A line that is not `name<TAB>value` (or whose name is of the other kind) is an error at its line.
"""

from __future__ import annotations

import re

from ingest.parse import register
from ingest.parse._text import Lines
from ingest.parse.base import Parsed, Parser, Table
from ingest.parse.mycnf import normalise_key
from ingest.parse.server_status import _is_relative, _rates, _Snapshot, _value

VARIABLE = re.compile(r"[a-z][a-z0-9_]*")
STATUS = re.compile(r"[A-Z][A-Za-z0-9_]*")
# a status name in the file: capitalised, or lower case as Galera's `wsrep_*`
ANY_STATUS = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
HEAD_LINES = 8  # lines of the head that must all be `name<TAB>value` for detection


def _pairs(head: str) -> list[str] | None:
    """The names of the head's first lines when each is `name<TAB>value`, else None."""
    names = []
    for line in head.splitlines()[: HEAD_LINES + 1]:
        name, tab, _ = line.partition("\t")
        if not tab or name == "Variable_name":  # a header: not a headerless dump
            return None
        names.append(name)
    return names[:HEAD_LINES] if len(names) >= 3 else None


class _Batch(Parser):
    """Shared reading; subclasses give the names' pattern and what a dump becomes."""

    names = VARIABLE  # the names detection asks for
    read = VARIABLE  # the names a dump may hold
    kind = ""

    def detect(self, head: str) -> str | None:
        names = _pairs(head)
        if names and all(self.names.fullmatch(n) for n in names):
            return f"headerless `name<TAB>value` lines with {self.kind} names"
        return None

    def _read(self, text: str, file: str) -> tuple[Lines, list[list[tuple[int, str, str]]]]:
        """The dump's (line, name, value) rows, a list per snapshot."""
        lines = Lines(text, file)
        snaps: list[list[tuple[int, str, str]]] = []
        first = None
        for no, raw in lines:
            if not raw.strip():
                continue
            name, tab, value = raw.partition("\t")
            if not tab or not self.read.fullmatch(name):
                raise lines.error(
                    no, f"expected `name<TAB>value` with {self.kind} names, got {raw[:40]!r}"
                )
            if first is None or name == first:
                first = name
                snaps.append([])
            snaps[-1].append((no, name, value))
        if not snaps:
            raise lines.error(0, f"no {self.kind} variables")
        return lines, snaps


@register
class MysqlVariables(_Batch):
    name = "mysql-n-variables"
    description = "mysql -N SHOW GLOBAL VARIABLES: headerless name<TAB>value, lower-case names"
    kind = "server-variable (lower-case)"

    def parse(self, text: str, file: str) -> Parsed:
        lines, snaps = self._read(text, file)
        parsed = Parsed(self.name, file, problems=lines.problems)
        if len(snaps) > 1:
            lines.problem(snaps[1][0][0], "the variables start again: the later values win")
        for snap in snaps:
            for _, name, value in snap:
                parsed.settings[normalise_key(name)] = value
        return parsed


@register
class MysqlStatus(_Batch):
    name = "mysql-n-status"
    description = "mysql -N SHOW GLOBAL STATUS: headerless name<TAB>value, capitalised names"
    kind = "status-variable (capitalised)"
    names = STATUS
    read = ANY_STATUS

    def parse(self, text: str, file: str) -> Parsed:
        lines, snaps = self._read(text, file)
        tables, read = [], []
        for snap in snaps:
            got = _Snapshot(snap[0][0], None)
            for no, name, value in snap:
                key = name.lower()
                if key in got.values:
                    raise lines.error(no, f"{name} twice in one snapshot")
                got.values[key], got.lines[key] = _value(value.strip()), no
            rows = [{"variable": k, "value": v} for k, v in got.values.items()]
            tables.append(Table("status", ["variable", "value"], rows, line=got.line))
            read.append(got)
        parsed = Parsed(self.name, file, tables=tables, problems=lines.problems)
        if len(read) > 1 and len(read[-1].values) < len(read[0].values):
            lines.missing_end(
                read[-1].line, "this dump's last variable (it has fewer than the first)"
            )
            read = read[:-1]
        if len(read) >= 3:
            session = _rates(read, _is_relative(read), file, parsed.problems)
            session.meta["mode_from"] = "Uptime"
            parsed.sessions.append(session)
        return parsed
