"""What the manifest's sections for the later steps say, once validated: each is parsed at load
by its section's own module (named on each record), and kept here, beside `Manifest`, so that
the manifest can name their types without the read step importing the steps that use them.
A check that needs the runs stays with the section's builder, at the lines recorded here."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import regex

from ingest.read.fields import Fields


@dataclass(frozen=True)
class LabelFile:
    """A `label_files:` entry (ingest/join/queries.py): an archive member naming what each
    folder of query runs is; `regex:` named groups of a description become labels, `label:`
    takes the whole description, `display:` names the label whose value it describes."""

    where: str  # `label_files[i]`, for the errors
    input: str
    file: str
    format: str
    pattern: regex.Pattern[str] | None
    label: str | None
    display: str | None
    file_line: int  # the lines of `file:` and `regex:`, named when the archive disagrees
    regex_line: int


@dataclass(frozen=True)
class QueryRatio:
    """A query table's `ratio:`: each value over the base's (the label `key` at `value`)."""

    key: str
    value: str | int | float
    of: str | None  # the base's statistic divided by (default: the same one)
    scale: float
    digits: int | None
    label: str | None
    line: int  # of `base:`, named when no run taken has the base value


@dataclass(frozen=True)
class QueryTable:
    """A `query_tables:` entry (ingest/derive/query_tables.py): statistics of query runs per
    query, or their geometric mean, with a ratio to a base."""

    id: str
    title: str
    line: int
    where: str  # `query_tables[i] (id)`, for the errors
    filters: dict[str, object]  # `where:` label -> a value or a list, or published: bool
    pivot: str | None
    values: list[str]
    column: str  # seconds, or a sar column of the runs
    digits: int | None
    geomean: bool
    headings: dict[str, str]
    queries: list[str] | None  # None: every query of its runs
    ratio: QueryRatio | None
    lines: dict[str, int]  # field (`where.<label>` for a filter) -> its line


@dataclass
class DeclaredTable:
    """A `tables:` entry (ingest/derive/declared.py): window statistics of the runs a `where:`
    takes, a row per combination of `rows:` labels (a column per `pivot:` value), a ratio to
    a base; `v` and friends name the manifest lines in the errors that need the runs."""

    id: str
    title: str
    line: int
    v: Fields
    where: str
    rows_by: list[str]
    groups: list[str]
    with_run: bool
    pivot: str | None
    headings: dict[str, str]
    values: list[dict[str, Any]]
    filters: dict[str, Any]
    fv: Fields  # the `where:` mapping's (the table's without one)
    ov: Fields  # the `order:` mapping's (the table's without one)
    order: dict[str, list[Any]] = field(default_factory=dict)  # label -> its values, typed
    ratio: dict[str, Any] | None = None


@dataclass(frozen=True)
class FileTable:
    """A `file_tables:` entry (ingest/derive/file_tables.py): the rows of the tables of a
    summary file whose names `table` matches, as they are."""

    id: str
    title: str | None
    line: int
    where: str
    file: str
    table: regex.Pattern[str]  # the tables' names; its named groups become label columns
    labels: dict[str, str]  # group -> heading
    columns: dict[str, str] | None  # printed column name -> heading; None: every column


@dataclass(frozen=True)
class CounterTable:
    """A `counters:` entry (ingest/derive/counters.py): each run's server counters after -
    before, a row per counter and a column per run."""

    id: str
    title: str | None
    line: int
    v: Fields
    where: str
    names: dict[str, str]  # before/after, or file: member name templates
    per: str | None
    wanted: list[str] | None
    base: dict[str, Any]
    digits: int | None
    filters: dict[str, Any]


@dataclass
class ValueMap:
    """One published value column and the derived column it is compared with."""

    published: str | None  # None for a quoted figure
    derived: str
    where: dict[str, str] = field(default_factory=dict)  # extra derived keys (e.g. clients: 1)
    of: str | None = None  # the derived column this ratio divides ...
    base: dict[str, str] = field(default_factory=dict)  # ... by its value in these keys' row


@dataclass
class Cause:
    """Why some cells of a reproduction check are not exact, as the manifest's author knows it."""

    cause: str
    key: regex.Pattern[str] | None = None  # searched in a cell's `key`; None: every cell


@dataclass
class ReproductionCheck:
    """A `reproduction:` entry (ingest/derive/reproduction.py): a published table, or one
    figure quoted from the original's prose, compared cell by cell with a derived table."""

    line: int
    name: str
    derived: str  # id of a table the study produces
    input: str | None = None  # published-tables input ...
    format: str | None = None  # ... and its parser
    file: str | None = None  # or an archive member read by a `files:` rule
    table: regex.Pattern[str] | None = None  # which parsed tables; named groups: derived keys
    quote: str | None = None  # or one figure as printed in the original's prose
    keys: dict[str, tuple[str, dict[str, str]]] = field(default_factory=dict)  # published
    # column -> (derived column, value map)
    values: list[ValueMap] = field(default_factory=list)
    where: dict[str, str] = field(default_factory=dict)  # derived rows considered
    digits: int | None = None
    causes: list[Cause] = field(default_factory=list)


@dataclass(frozen=True)
class RatioView:
    """A `ratios:` entry (ingest/derive/ratios.py): a table's heat-table rows, columns, value and spread."""

    table: str
    row: list[str]
    col: str
    value: str
    spread: str | tuple[str, str] | None  # "runs", (lo column, hi column), or none
    line: int
    where: str


@dataclass(frozen=True)
class VersionsView:
    """A `versions:` entry (ingest/derive/versions.py): per facet, version and X, each
    metric's mean and spread, its ratio to a base version, and the largest regressions and
    gains."""

    id: str
    title: str | None
    line: int
    where: str  # `versions[i] (id)`, for the errors
    version: str  # the label (or table column) that is the version
    base: str | None  # default: the first version in order
    order: list[str] | None  # None: natural order
    facets: list[str]
    x: str
    metrics: dict[str, str]  # series (or table) column -> heading
    filters: dict[str, Any]  # `where:` as in `tables:`
    table: str | None  # a table built before, instead of the runs
    top: int
    lines: dict[str, int]  # field -> its line
