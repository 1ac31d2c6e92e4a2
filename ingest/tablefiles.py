"""Each derived table's CSV, written beside its archival `tables/<id>.yaml` (docs/data-schema.md),
so Hugo never re-serialises a table field by field: the table shortcode publishes the file as it
is at `<post URL><id>.csv` (layouts/_partials/csv/table.html).

The CSV is the one the site's templates write for any other rows (layouts/_partials/csv/publish.html):
a header of the column keys in order, one line per row, `\\n` line ends; a number as JSON writes
it (Go's encoding/json, which Hugo's `jsonify` uses: `2` for the float 2.0, positional notation
from 1e-6 to 1e21, `1e-7` and `1e+21` outside); a missing value (None) as an empty field; text a
spreadsheet would run as a formula prefixed with `'` (ingest/csvsafe.py), and quoted when it holds
a comma, a quote or a line break.
"""

from __future__ import annotations

import csv
import io
import math
from decimal import Decimal

from ingest.csvsafe import safe_cell


def json_number(v: int | float) -> str:
    """`v` as Go's encoding/json writes a number (the shortest digits that read back as `v`)."""
    if type(v) is int:
        return str(v)
    if not math.isfinite(v):
        raise ValueError(f"no JSON number for {v!r}")
    if v == 0:
        return "-0" if math.copysign(1.0, v) < 0 else "0"
    if 1e-6 <= abs(v) < 1e21:
        text = format(Decimal(repr(v)), "f")
        return text.rstrip("0").rstrip(".") if "." in text else text
    mantissa, exp = f"{Decimal(repr(v)):e}".split("e")  # Go: 1e-7, 1.5e+21
    mantissa = mantissa.rstrip("0").rstrip(".") if "." in mantissa else mantissa
    sign, digits = exp[0], exp[1:].lstrip("0")
    return f"{mantissa}e{sign}{digits if sign == '-' else digits.zfill(2)}"


def _field(v) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return json_number(v)
    return safe_cell(str(v))


def table_csv(table: dict) -> str:
    """CSV of a table in the tables/<id>.yaml shape ({columns: [{key, ...}], rows: [{key: value}]})."""
    keys = [c["key"] for c in table["columns"]]
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow([_field(k) for k in keys])
    writer.writerows([_field(row.get(k)) for k in keys] for row in table["rows"])
    return buf.getvalue()


__all__ = ["json_number", "table_csv"]
