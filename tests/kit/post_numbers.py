"""The number checks of the templates on every post (tests/site/test_posts_numbers.py on our
posts, tests/ingest/scaffold/ on scaffolded ones): each rendered table cell is its data/ value
formatted with the column's digits, each `value` shortcode's text is recomputed from data/.
(That no other number is typed into the prose is make build's rule: publish/prose.py.)"""

from __future__ import annotations

import csv
import io
import re
from decimal import ROUND_HALF_UP, Decimal
from html.parser import HTMLParser
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


class Cells(HTMLParser):
    """Rendered tables: {table id: [[(class, text), ...] per body row]}, and prose values."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tables: dict[str, list[list[tuple[str, str]]]] = {}
        self.keys: dict[str, list[str]] = {}
        self.values: list[str] = []
        self._table = self._cell = self._value = None
        self._in_body = False
        self._skip = 0
        self._chart = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "figure" and {"chart", "reproduction"} & set((a.get("class") or "").split()):
            # a chart's own data table (checked with the chart), or the reproduction check's
            # summary tables (tests/ingest/derive/test_reproduction.py): not a study table
            self._chart += 1
        elif (
            tag == "table"
            and "data" in (a.get("class") or "").split()
            and a.get("id", "").endswith("-table")
            and not self._chart
        ):
            self._table = a["id"][: -len("-table")]
            self.tables[self._table] = []
        elif tag == "th" and self._table and not self._in_body and a.get("data-key"):
            self.keys.setdefault(self._table, []).append(a["data-key"])  # the columns shown
        elif tag == "tbody" and self._table:
            self._in_body = True
        elif tag == "tr" and self._in_body:
            self.tables[self._table].append([])
        elif tag == "td" and self._in_body:
            self._cell = [a.get("class", ""), ""]
        elif tag == "span" and self._cell is not None and "note" in (a.get("class") or ""):
            self._skip += 1
        elif tag == "span" and "value" in (a.get("class") or "").split() and self._table is None:
            self._value = ""

    def handle_endtag(self, tag):
        if tag == "figure" and self._chart:
            self._chart -= 1
        elif tag == "td" and self._cell is not None:
            self.tables[self._table][-1].append((self._cell[0], self._cell[1].strip()))
            self._cell = None
        elif tag == "span" and self._skip:
            self._skip -= 1
        elif tag == "span" and self._value is not None:
            self.values.append(self._value.strip())
            self._value = None
        elif tag == "tbody":
            self._in_body = False
        elif tag == "table":
            self._table = None

    def handle_data(self, data):
        if self._cell is not None and not self._skip:
            self._cell[1] += data
        elif self._value is not None:
            self._value += data


def formatted(value, column, display=None) -> str:
    """The text the table partial prints for a cell (lang.FormatNumber, en-us; label values
    with the study's display names)."""
    if value is None:
        return "n/a"
    if column["kind"] not in ("number", "ratio"):
        return str((display or {}).get(column["key"], {}).get(str(value), value))
    digits = column.get("digits", 2 if isinstance(value, float) else 0)
    return fixed(value, digits) + ("×" if column["kind"] == "ratio" else "")


def number_of(text: str) -> float | None:
    m = re.fullmatch(r"-?[\d,]*\.?\d+×?", text)
    return float(text.replace(",", "").rstrip("×")) if m else None


def study_tables(study, data_dir: Path = ROOT / "data") -> dict[str, dict]:
    return {p.stem: fast_yaml(p.read_text()) for p in (data_dir / study / "tables").glob("*.yaml")}


def display_of(study, data_dir: Path = ROOT / "data") -> dict:
    return fast_yaml((data_dir / study / "study.yaml").read_text()).get("display") or {}


def parse_post(site, study, data_dir: Path = ROOT / "data") -> Cells:
    """The rendered tables and values of a study's post (`site`: a BuiltSite)."""
    parser = Cells()
    parser.feed(site.page(f"posts/{study}/index.html"))
    # a lazy table (table lazy="true") is a page of its own beside the post
    for page in sorted((site.site / "posts" / study).glob("*.table.html")):
        if (data_dir / study / "tables" / f"{page.name[: -len('.table.html')]}.yaml").exists():
            parser.feed(page.read_text(encoding="utf-8"))
    return parser


def check_table_cells(study, parsed: Cells, site, data_dir: Path = ROOT / "data") -> None:
    """Every rendered table cell is its data/ value as the table partial formats it, and each
    table's CSV has one line per row."""
    tables = study_tables(study, data_dir)
    display = display_of(study, data_dir)
    shown = parsed.tables
    assert shown, f"{study}: the post shows no table"
    for tid, rows in shown.items():
        data = tables[tid]
        assert len(rows) == len(data["rows"]), f"{study}/{tid}: rendered rows != data rows"
        # every column, or those left after hide= (in order; the CSV keeps them all)
        keys = parsed.keys[tid]
        columns = [c for c in data["columns"] if c["key"] in keys]
        assert [c["key"] for c in columns] == keys, f"{study}/{tid}: columns not in data order"
        for i, (cells, row) in enumerate(zip(rows, data["rows"])):
            assert len(cells) == len(columns)
            for (cls, text), column in zip(cells, columns):
                # a missing value with a note ("did not finish") shows the note (read apart,
                # as every note is) instead of n/a
                noted = row[column["key"]] is None and (data.get("notes") or {}).get(
                    f"{i}/{column['key']}"
                )
                assert text == ("" if noted else formatted(row[column["key"]], column, display)), (
                    f"{study}/{tid} row {i} {column['key']}"
                )
                if row[column["key"]] is None:
                    assert "missing" in cls  # shown as n/a, never as 0
        lines = list(csv.reader(io.StringIO(site.page(f"posts/{study}/{tid}.csv"))))
        assert len(lines) == 1 + len(data["rows"]), f"{study}/{tid}.csv"


# -- the value shortcode, recomputed from data/ ----------------------------------------------
VALUE = re.compile(r"\{\{<\s*value\s+(.*?)\s*>\}\}", re.S)


PARAM = re.compile(r'(\w+)=(?:"([^"]*)"|(\S+))')


def hugo_string(v) -> str:
    """`string $v` in Hugo: whole floats print without ".0"."""
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def matches(row: dict, where: str) -> bool:
    for cond in filter(None, (c.strip() for c in where.split(","))):
        key, op, want = re.fullmatch(r"(\w+)\s*(!?=)\s*(.*)", cond).groups()
        v = row.get(key)
        is_ = v is None if want == "null" else (v is not None and hugo_string(v) == want)
        if is_ == (op == "!="):
            return False
    return True


def fixed(x: float, digits: int) -> str:
    """`x` with `digits` decimals as Hugo's lang.FormatNumber prints it: x times 10^digits
    rounded half away from zero (Go's math.Round), so 0.00015 (x 10^4 = 1.4999999999999998)
    is 0.0001 and 0.0155 (x 10^3 = 15.5) is 0.016; thousands grouped."""
    scaled = Decimal(x * 10.0**digits).quantize(Decimal(1), rounding=ROUND_HALF_UP)
    return f"{float(scaled) / 10.0**digits:,.{digits}f}"


def fast_yaml(text: str):
    """YAML of data/ (tables of hundreds of rows) with libyaml's loader: the safe loader's rules,
    10 to 20 times faster than PyYAML's pure-Python one."""
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def expected_value(tables: dict, display: dict, params: dict) -> str:
    """The text `{{< value ... >}}` prints, computed here from data/ (docs/charts.md)."""
    t = tables[params["table"]]
    col_key = params["col"]
    over_col = params.get("overcol", col_key)
    column = next(c for c in t["columns"] if c["key"] == col_key)
    where = params.get("where", "")
    rows = [r for r in t["rows"] if matches(r, where)]
    if params.get("agg") == "list":  # distinct values in table order: "a, b and c"
        items = list(dict.fromkeys(r[col_key] for r in rows if r.get(col_key) is not None))
        assert items, f"value {params}: no row"
        shown = [formatted(x, column, display) for x in items]
        return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
    if params.get("agg"):
        rows = sorted(
            (r for r in rows if r.get(col_key) is not None),
            key=lambda r: r[col_key],
            reverse=params["agg"] == "max",
        )
    assert rows and (params.get("agg") or len(rows) == 1), f"value {params}: {len(rows)} rows"
    v = rows[0][col_key]
    if params.get("show"):  # another column of the row picked (e.g. the run with the highest mean)
        return formatted(
            rows[0][params["show"]],
            next(c for c in t["columns"] if c["key"] == params["show"]),
            display,
        )
    over = params.get("over")
    if over:
        over_rows = [r for r in t["rows"] if matches(r, where if over == "same" else over)]
        assert len(over_rows) == 1, f"value {params}: over matches {len(over_rows)} rows"
        b = over_rows[0][over_col]
        if v is None or not b:
            return "n/a"
        return fixed(v / b, int(params.get("digits", 2))) + "×"
    column = dict(column)
    if "digits" in params:
        column["digits"] = int(params["digits"])
    if "kind" in params:
        column["kind"] = params["kind"]
    return formatted(v, column, display)


def value_calls(text: str) -> list[dict]:
    return [
        {k: a if a or not b else b for k, a, b in PARAM.findall(m)} for m in VALUE.findall(text)
    ]


def check_prose_values(study, text: str, parsed: Cells, data_dir: Path = ROOT / "data") -> None:
    tables = study_tables(study, data_dir)
    display = display_of(study, data_dir)
    calls = value_calls(text)
    shown = parsed.values
    assert calls and len(shown) == len(calls), (
        f"{study}: {len(shown)} values rendered, {len(calls)} in the source"
    )
    for params, got in zip(calls, shown):
        assert got == expected_value(tables, display, params), f"{study}: {params}"
