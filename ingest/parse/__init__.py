"""Ordered registry of format parsers. Order matters for `format: auto` detection:
the most specific formats come first (see docs/formats.md).

A format module is imported when one of its parsers is first needed, so an ingest loads
only the parsers it uses (detection imports modules in order until one recognises the file).
To add a format: list its module in `MODULES` at its place in detection order, with the
names of the parsers it registers (tests check the two agree).
"""

from __future__ import annotations

import importlib
from typing import TypeVar

from ingest.parse.base import Parsed, Parser, Session, Table
from ingest.problems import Problem

# module -> the format names it registers (in registration order), in detection order
MODULES = {
    "sysbench1": ["sysbench1"],  # ingest: F1 + F3
    "sysbench_csv": ["sysbench-csv"],  # ingest: F2 + F3
    "linkbench_summary": ["linkbench-summary", "db-size"],  # formats: F6 wrapper summaries, db size
    "linkbenchx": ["linkbenchx"],  # formats: F7, before F6: its load logs look alike
    "linkbench": ["linkbench"],  # formats: F6
    "sysbench05": ["sysbench05"],  # formats: F4
    "tpcc_mysql": ["tpcc-mysql"],  # formats: F5
    "ibench": ["ibench"],  # formats: F8
    "pt_summary": ["pt-mysql-summary"],  # studies: by its banner; it quotes a my.cnf
    "dstat": ["dstat"],  # formats: dstat, before the summary tables its rows look like
    "mpstat": ["mpstat"],  # formats: mpstat -P ALL, whose banner and header are sar's: before it
    "iostat": ["iostat"],  # formats: F12
    "sar": ["sar"],  # formats: sar (sysstat), whose banner is iostat's: after it
    "vmstat": ["vmstat"],  # formats: F11
    "dbt3_explains": ["dbt3-explains"],  # queries: DBT3 all_explains.txt (times and plans)
    "mysql_explain": ["mysql-explain"],  # queries: EXPLAIN, boxed or tab-separated
    "dbt3_results": ["dbt3-results"],  # queries: DBT3 results.dat (#Version: sections)
    "dbt3_percents": ["dbt3-percents"],  # queries: DBT3 2percents.dat (decimal commas)
    "dbt3_summary": ["dbt3-query-summary"],  # queries: DBT3 2<server>.dat (median, min, max)
    "html_table": ["html-table"],  # queries: an HTML <table> of published figures
    "sysbench_report": ["sysbench-report"],  # studies: F10
    "server_status": [
        "global-status",
        "mysqladmin-status",
    ],  # formats: SHOW GLOBAL STATUS, extended-status
    "mycnf": ["mycnf", "global-variables"],  # studies: my.cnf, SHOW GLOBAL VARIABLES
    "mysql_batch": ["mysql-n-variables", "mysql-n-status"],  # mysql -N: after headed dumps
    "markdown_tables": ["markdown-tables"],  # studies: F13
    "folder_desc": ["folder-desc"],  # queries: a DESC/README naming what each folder is
    "summary_table": ["summary-table"],  # studies: F9, the most generic format: keep it last
}
P = TypeVar("P", bound=Parser)
_registered: dict[str, Parser] = {}  # format name -> parser, filled as modules are imported


def register(parser_cls: type[P]) -> type[P]:
    """Class decorator: add a parser to the registry (its module's entry in MODULES gives its place)."""
    parser = parser_cls()
    _registered[parser.name] = parser
    return parser_cls


def _parsers_of(module: str) -> list[Parser]:
    importlib.import_module(f"{__name__}.{module}")
    return [_registered[name] for name in MODULES[module]]


def all_parsers() -> list[Parser]:
    """Every parser, in detection order."""
    return [p for module in MODULES for p in _parsers_of(module)]


def by_name(name: str) -> Parser:
    for module, names in MODULES.items():
        if name in names:
            return _parsers_of(module)[names.index(name)]
    known = ", ".join(name for names in MODULES.values() for name in names)
    raise KeyError(f"unknown format {name!r} (known: {known})")


def detect(head: str, file: str = "<input>") -> tuple[Parser, str]:
    """The first parser (in detection order) that recognises `head`, with its reason."""
    for module in MODULES:
        for p in _parsers_of(module):
            reason = p.detect(head)
            if reason:
                return p, reason
    raise Problem(
        file,
        1,
        "unknown format (no parser recognises this file; see `python -m ingest list-formats`)",
    )


__all__ = [
    "all_parsers",
    "register",
    "by_name",
    "detect",
    "Parsed",
    "Parser",
    "Session",
    "Table",
]
