"""Pre-rendered chart previews: `python -m publish.previews SITE_DIR`, run after Hugo.

For every post listed in SITE_DIR/previews.json (written by layouts/home.previews.json) this
reads the post's built page, takes its first Vega-Lite chart spec (a
`<script type="application/json">` holding a spec) and the data that spec points at (inline
values, named datasets or a CSV/JSON file of the site), and draws a small, text-free picture
of it: lines for a quantitative x, bars for categories. A post without a chart gets bars of
its first downloadable table (CSV). It writes two files beside the page:

- `preview.svg` (320x168): the home page / term page thumbnail;
- `preview.png` (1200x630): the Open Graph / Twitter card image.

No browser and no third-party package: the PNG is written with zlib. Data labels never reach
the images (they have no text), so hostile labels cannot inject anything. A post without a
chart still gets a neutral preview so its links resolve.
"""
from __future__ import annotations

import csv
import io
import json
import math
import struct
import sys
import zlib
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

# Okabe-Ito, colour-blind safe (black left out: it is the axis colour).
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442"]
AXIS = "#444444"
BACKGROUND = "#ffffff"
MAX_POINTS = 400          # per line, after min/max bucketing
MAX_BARS = 48


@dataclass
class Figure:
    """A chart reduced to geometry in unit coordinates (x right, y up, both 0..1)."""
    lines: list[list[tuple[float, float]]] = field(default_factory=list)
    bars: list[tuple[float, float, float, int]] = field(default_factory=list)  # x0, x1, top, colour

    @property
    def empty(self) -> bool:
        return not self.lines and not self.bars


class _ScriptGrabber(HTMLParser):
    """Collects the text of every `<script type="application/json">` element and the target of
    every CSV download link, in page order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[str] = []
        self.csv_links: list[str] = []
        self._inside = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script" and (attrs.get("type") or "").lower() == "application/json":
            self._inside = True
            self.blocks.append("")
        elif tag == "a" and (attrs.get("href") or "").lower().endswith(".csv"):
            self.csv_links.append(attrs["href"])

    def handle_endtag(self, tag):
        if tag == "script":
            self._inside = False

    def handle_data(self, data):
        if self._inside:
            self.blocks[-1] += data


def first_chart_spec(html: str) -> dict | None:
    """The first JSON script of the page that is a Vega-Lite spec (or holds one under "spec")."""
    grabber = _ScriptGrabber()
    grabber.feed(html)
    for block in grabber.blocks:
        try:
            doc = json.loads(block)
        except ValueError:
            continue
        for candidate in (doc, doc.get("spec") if isinstance(doc, dict) else None):
            if isinstance(candidate, dict) and _find_view(candidate, None)[0] is not None:
                return candidate
    return None


def _find_view(spec: dict, data):
    """Depth-first: the first unit view (a mark with x and y fields) and the data in scope."""
    data = spec.get("data", data)
    enc = spec.get("encoding")
    if "mark" in spec and isinstance(enc, dict) and _field(enc, "x") and _field(enc, "y"):
        return spec, data
    for key in ("layer", "vconcat", "hconcat", "concat"):
        for sub in spec.get(key) or []:
            if isinstance(sub, dict):
                view, view_data = _find_view(sub, data)
                if view is not None:
                    return view, view_data
    if isinstance(spec.get("spec"), dict):
        return _find_view(spec["spec"], data)
    return None, None


def _load_rows(data, spec: dict, page_path: str, site: Path) -> list[dict]:
    """Rows of a Vega-Lite data block: inline values, a named dataset, or a file of the site."""
    if not isinstance(data, dict):
        return []
    if isinstance(data.get("values"), list):
        return [r for r in data["values"] if isinstance(r, dict)]
    if "name" in data:
        rows = (spec.get("datasets") or {}).get(data["name"])
        return [r for r in rows if isinstance(r, dict)] if isinstance(rows, list) else []
    url = data.get("url")
    if not isinstance(url, str):
        return []
    target = _site_file(url, page_path, site)
    if target is None:
        return []
    text = target.read_text(encoding="utf-8")
    kind = (data.get("format") or {}).get("type") or target.suffix.lstrip(".")
    if kind in ("csv", "tsv"):
        return list(csv.DictReader(io.StringIO(text), delimiter="," if kind == "csv" else "\t"))
    doc = json.loads(text)
    prop = (data.get("format") or {}).get("property")
    if prop and isinstance(doc, dict):
        doc = doc.get(prop)
    return [r for r in doc if isinstance(r, dict)] if isinstance(doc, list) else []


def _site_file(url: str, page_path: str, site: Path) -> Path | None:
    """The file of the site a same-site URL points at (None for other hosts or escapes)."""
    parts = urlsplit(url)
    if parts.scheme or parts.netloc:
        return None
    path = unquote(parts.path)
    rel = path.lstrip("/") if path.startswith("/") else page_path + path
    root = site.resolve()
    for candidate in (root / rel, root / rel.split("/", 1)[-1]):  # second: drop a base path
        resolved = candidate.resolve()
        if resolved.is_file() and resolved.is_relative_to(root):
            return resolved
    return None


def _number(value) -> float | None:
    if isinstance(value, bool) or value is None:
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def _field(enc: dict, channel: str) -> str | None:
    value = (enc.get(channel) or {}).get("field") if isinstance(enc.get(channel), dict) else None
    return value if isinstance(value, str) else None


def figure_of(spec: dict, page_path: str, site: Path) -> Figure:
    """Reduce the first view of a spec to lines (numeric x and y) or bars (one categorical axis)."""
    view, data = _find_view(spec, None)
    if view is None:
        return Figure()
    rows = _load_rows(data, spec, page_path, site)
    enc = view["encoding"]
    x, y, colour = _field(enc, "x"), _field(enc, "y"), _field(enc, "color")
    if not rows or not x or not y:
        return Figure()
    facet = _facet_field(spec, enc)
    if facet:  # a small multiple: draw its first panel
        first = rows[0].get(facet)
        rows = [r for r in rows if r.get(facet) == first]
    mark = view["mark"]["type"] if isinstance(view["mark"], dict) else view["mark"]
    xs_numeric = all(_number(r.get(x)) is not None for r in rows if r.get(x) not in (None, ""))
    ys_numeric = all(_number(r.get(y)) is not None for r in rows if r.get(y) not in (None, ""))
    if mark in ("line", "area", "trail", "point", "circle") and xs_numeric and ys_numeric:
        return _lines(rows, x, y, colour, _is_log(enc, "x"), _is_log(enc, "y"))
    if ys_numeric:
        return _bars(rows, x, y, colour)
    if xs_numeric:
        return _bars(rows, y, x, colour)
    return Figure()


def first_table_figure(html: str, page_path: str, site: Path) -> Figure:
    """Fallback for a post without a chart: bars of its first downloadable table (CSV), the
    first text column as categories, a later one that repeats (if any) as colours, the first number as value."""
    grabber = _ScriptGrabber()
    grabber.feed(html)
    for link in grabber.csv_links[:1]:
        target = _site_file(link, page_path, site)
        rows = list(csv.DictReader(io.StringIO(target.read_text(encoding="utf-8")))) if target else []
        if not rows:
            continue
        text = [k for k in rows[0] if not any(_number(r[k]) is not None for r in rows)]
        numbers = [k for k in rows[0] if all(_number(r[k]) is not None or r[k] == "" for r in rows)
                   and any(_number(r[k]) is not None for r in rows)]
        if text and numbers:
            groups = [k for k in text[1:] if len({r[k] for r in rows}) < len(rows)]
            return _bars(rows, text[0], numbers[0], groups[0] if groups else None)
    return Figure()


def _facet_field(spec: dict, enc: dict) -> str | None:
    """The field a spec splits into panels by (top-level facet or a row/column/facet channel)."""
    facet = spec.get("facet")
    if isinstance(facet, dict):
        if isinstance(facet.get("field"), str):
            return facet["field"]
        for channel in ("row", "column"):
            if isinstance(facet.get(channel), dict) and isinstance(facet[channel].get("field"), str):
                return facet[channel]["field"]
    for channel in ("facet", "row", "column"):
        if _field(enc, channel):
            return _field(enc, channel)
    return None


def _is_log(enc: dict, channel: str) -> bool:
    scale = enc[channel].get("scale") if isinstance(enc.get(channel), dict) else None
    return isinstance(scale, dict) and scale.get("type") == "log"


def _log(value: float | None, log: bool) -> float | None:
    if value is None or not log:
        return value
    return math.log10(value) if value > 0 else None


def _lines(rows, x, y, colour, xlog=False, ylog=False) -> Figure:
    groups: dict[str, list[tuple[float, float]]] = {}
    for r in rows:
        px, py = _log(_number(r.get(x)), xlog), _log(_number(r.get(y)), ylog)
        if px is not None and py is not None:
            groups.setdefault(str(r.get(colour, "")) if colour else "", []).append((px, py))
    points = [p for g in groups.values() for p in g]
    if not points:
        return Figure()
    x0, x1 = min(p[0] for p in points), max(p[0] for p in points)
    y1 = max(p[1] for p in points) if ylog else max(max(p[1] for p in points), 0.0)
    y0 = min(p[1] for p in points) if ylog else min(min(p[1] for p in points), 0.0)
    sx, sy = (x1 - x0) or 1.0, (y1 - y0) or 1.0
    lines = []
    for g in groups.values():
        g.sort()
        lines.append([((px - x0) / sx, (py - y0) / sy) for px, py in _bucket(g)])
    return Figure(lines=lines)


def _bucket(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Shape-preserving downsampling: the min and max of each of MAX_POINTS/2 buckets."""
    if len(points) <= MAX_POINTS:
        return points
    size = math.ceil(len(points) / (MAX_POINTS // 2))
    out = []
    for i in range(0, len(points), size):
        chunk = points[i:i + size]
        lo, hi = min(chunk, key=lambda p: p[1]), max(chunk, key=lambda p: p[1])
        out.extend(sorted({lo, hi}))
    return out


def _bars(rows, category, value, colour) -> Figure:
    keys: list[tuple[str, str]] = []
    values: dict[tuple[str, str], float] = {}
    for r in rows:
        v = _number(r.get(value))
        if v is None:
            continue
        key = (str(r.get(category)), str(r.get(colour, "")) if colour else "")
        if key not in values:
            keys.append(key)
        values[key] = v
    keys = keys[:MAX_BARS]
    if not keys:
        return Figure()
    top = max(max(values[k] for k in keys), 0.0) or 1.0
    series = list(dict.fromkeys(k[1] for k in keys))
    width = 1.0 / len(keys)
    bars = []
    for i, k in enumerate(keys):
        height = max(values[k], 0.0) / top
        bars.append((i * width + width * 0.12, (i + 1) * width - width * 0.12, height,
                     series.index(k[1]) % len(PALETTE)))
    return Figure(bars=bars)


# -- drawing ---------------------------------------------------------------------------------

@dataclass
class Frame:
    """Pixel size of an image and its plot area (margins leave room for the axes)."""
    width: int
    height: int
    margin: int

    def point(self, ux: float, uy: float) -> tuple[float, float]:
        w, h, m = self.width, self.height, self.margin
        return m + ux * (w - 2 * m), h - m - uy * (h - 2 * m)


def to_svg(fig: Figure, frame: Frame) -> str:
    w, h, m = frame.width, frame.height, frame.margin
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
             f'viewBox="0 0 {w} {h}"><rect width="{w}" height="{h}" fill="{BACKGROUND}"/>']
    for x0, x1, top, c in fig.bars:
        (px0, py), (px1, base) = frame.point(x0, top), frame.point(x1, 0)
        parts.append(f'<rect x="{px0:.1f}" y="{py:.1f}" width="{px1 - px0:.1f}" '
                     f'height="{base - py:.1f}" fill="{PALETTE[c]}"/>')
    for i, line in enumerate(fig.lines):
        pts = " ".join("%.1f,%.1f" % frame.point(ux, uy) for ux, uy in line)
        parts.append(f'<polyline points="{pts}" fill="none" stroke="{PALETTE[i % len(PALETTE)]}" '
                     'stroke-width="1.5" stroke-linejoin="round"/>')
    parts.append(f'<path d="M{m} {m / 2}V{h - m}H{w - m / 2}" fill="none" stroke="{AXIS}"/></svg>\n')
    return "".join(parts)


class Raster:
    """An RGB pixel buffer with the few drawing operations a preview needs."""

    def __init__(self, width: int, height: int, colour: str):
        self.width, self.height = width, height
        self.pixels = bytearray(_rgb(colour) * (width * height))

    def fill(self, x0: float, y0: float, x1: float, y1: float, colour: str) -> None:
        xa, xb = max(0, round(min(x0, x1))), min(self.width, round(max(x0, x1)))
        ya, yb = max(0, round(min(y0, y1))), min(self.height, round(max(y0, y1)))
        if xa >= xb:
            return
        row = _rgb(colour) * (xb - xa)
        for y in range(ya, yb):
            start = (y * self.width + xa) * 3
            self.pixels[start:start + len(row)] = row

    def line(self, a: tuple[float, float], b: tuple[float, float], colour: str, size: int) -> None:
        steps = max(1, math.ceil(max(abs(b[0] - a[0]), abs(b[1] - a[1]))))
        half = size / 2
        for i in range(steps + 1):
            t = i / steps
            x, y = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
            self.fill(x - half, y - half, x + half, y + half, colour)

    def png(self) -> bytes:
        raw = b"".join(b"\x00" + bytes(self.pixels[y * self.width * 3:(y + 1) * self.width * 3])
                       for y in range(self.height))

        def chunk(kind: bytes, body: bytes) -> bytes:
            return (struct.pack(">I", len(body)) + kind + body
                    + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))
        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)
        return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
                + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def _rgb(colour: str) -> bytes:
    return bytes.fromhex(colour.lstrip("#"))


def to_png(fig: Figure, frame: Frame) -> bytes:
    img = Raster(frame.width, frame.height, BACKGROUND)
    for x0, x1, top, c in fig.bars:
        (px0, py), (px1, base) = frame.point(x0, top), frame.point(x1, 0)
        img.fill(px0, py, px1, base, PALETTE[c])
    for i, line in enumerate(fig.lines):
        pts = [frame.point(ux, uy) for ux, uy in line]
        for a, b in zip(pts, pts[1:]):
            img.line(a, b, PALETTE[i % len(PALETTE)], 4)
    w, h, m = frame.width, frame.height, frame.margin
    img.fill(m - 1, m / 2, m + 2, h - m + 1, AXIS)
    img.fill(m - 1, h - m - 1, w - m / 2, h - m + 2, AXIS)
    return img.png()


THUMBNAIL = Frame(320, 168, 12)
CARD = Frame(1200, 630, 48)


def write_previews(site: Path) -> list[str]:
    """Draw preview.svg and preview.png for every post of previews.json; return their dirs."""
    manifest = site / "previews.json"
    try:
        posts = json.loads(manifest.read_text(encoding="utf-8"))["posts"]
    except (OSError, ValueError, KeyError) as err:
        raise SystemExit(f"{manifest}: cannot read the post list: {err}")
    done = []
    for post in posts:
        page_dir = site / post["dir"]
        page = page_dir / "index.html"
        if not page.is_file():
            raise SystemExit(f"{page}: missing, listed in {manifest}")
        html = page.read_text(encoding="utf-8")
        spec = first_chart_spec(html)
        fig = figure_of(spec, post["dir"], site) if spec else Figure()
        if fig.empty:
            fig = first_table_figure(html, post["dir"], site)
        _write(page_dir / "preview.svg", to_svg(fig, THUMBNAIL).encode())
        _write(page_dir / "preview.png", to_png(fig, CARD))
        done.append(post["dir"])
    return done


def _write(path: Path, body: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(body)
    tmp.replace(path)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m publish.previews SITE_DIR", file=sys.stderr)
        return 2
    done = write_previews(Path(argv[0]))
    print(f"previews: {len(done)} posts")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
