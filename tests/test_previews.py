"""publish/previews.py: the chart previews drawn after Hugo (home thumbnails, og:image)."""
from __future__ import annotations

import json
import struct
import zlib

import pytest

from publish import previews

OKABE_BLUE = bytes.fromhex("0072B2")


def page_with(spec: dict, extra: str = "") -> str:
    return (f'<main><script type="application/json">{{"not": "a chart"}}</script>'
            f'<script type="application/json">{json.dumps(spec)}</script>{extra}</main>')


def png_pixels(png: bytes) -> tuple[int, int, bytes]:
    """Decode the simple PNGs previews writes (RGB, 8 bit, filter 0) back to pixels."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    idat = png.index(b"IDAT")
    raw = zlib.decompress(png[idat + 4: idat + 4 + struct.unpack(">I", png[idat - 4: idat])[0]])
    rows = [raw[y * (width * 3 + 1) + 1:(y + 1) * (width * 3 + 1)] for y in range(height)]
    return width, height, b"".join(rows)


def write_site(tmp_path, html: str, files: dict[str, str] | None = None):
    post = tmp_path / "posts" / "p"
    post.mkdir(parents=True)
    (post / "index.html").write_text(html)
    for name, body in (files or {}).items():
        (post / name).write_text(body)
    (tmp_path / "previews.json").write_text(json.dumps({"posts": [{"dir": "posts/p/", "title": "P"}]}))
    return post


def test_line_chart_of_a_layered_spec_with_data_from_a_csv_file(tmp_path):
    spec = {"$schema": "https://vega.github.io/schema/vega-lite/v6.json",
            "data": {"url": "series.csv"},
            "layer": [{"mark": "rule", "encoding": {}},
                      {"mark": {"type": "line"}, "encoding": {
                          "x": {"field": "t", "type": "quantitative"},
                          "y": {"field": "tps", "type": "quantitative"},
                          "color": {"field": "run", "type": "nominal"}}}]}
    rows = "t,tps,run\n" + "".join(f"{t},{100 + t % 7},a\n{t},{50 + t % 5},b\n" for t in range(2000))
    post = write_site(tmp_path, page_with(spec), {"series.csv": rows})
    assert previews.write_previews(tmp_path) == ["posts/p/"]
    fig = previews.figure_of(spec, "posts/p/", tmp_path)
    assert len(fig.lines) == 2 and all(len(line) <= previews.MAX_POINTS for line in fig.lines)
    width, height, pixels = png_pixels((post / "preview.png").read_bytes())
    assert (width, height) == (1200, 630) and OKABE_BLUE in pixels
    svg = (post / "preview.svg").read_text()
    assert svg.count("<polyline") == 2 and 'width="320"' in svg


def test_bars_of_inline_values_keep_a_missing_value_out(tmp_path):
    spec = {"data": {"values": [{"engine": "a", "tps": 10}, {"engine": "b", "tps": None},
                                {"engine": "c", "tps": 20}]},
            "mark": "bar", "encoding": {"x": {"field": "engine"}, "y": {"field": "tps"}}}
    fig = previews.figure_of(spec, "posts/p/", tmp_path)
    assert [round(b[2], 2) for b in fig.bars] == [0.5, 1.0]  # b is missing, not a zero bar


def test_a_post_without_chart_gets_bars_of_its_first_table(tmp_path):
    html = '<p>text</p><a href="/posts/p/first.csv" download>first.csv</a><a href="second.csv">x</a>'
    post = write_site(tmp_path, html, {"first.csv": "server,dir,mb\nx,read,3\nx,write,1\ny,read,2\n",
                                       "second.csv": "a,b\n1,2\n"})
    previews.write_previews(tmp_path)
    svg = (post / "preview.svg").read_text()
    assert svg.count("<rect") == 1 + 3  # background + one bar per row
    assert "#E69F00" in svg  # the repeating "dir" column colours the bars


@pytest.mark.parametrize("url", ["../../../etc/passwd", "/etc/passwd", "https://example.com/x.csv"])
def test_data_urls_never_leave_the_site(tmp_path, url):
    spec = {"data": {"url": url}, "mark": "line",
            "encoding": {"x": {"field": "t"}, "y": {"field": "v"}}}
    post = write_site(tmp_path, page_with(spec))
    assert previews.figure_of(spec, "posts/p/", tmp_path).empty
    previews.write_previews(tmp_path)  # still draws a neutral preview, so links resolve
    assert (post / "preview.png").is_file()


def test_a_listed_post_without_its_page_is_an_error(tmp_path):
    (tmp_path / "previews.json").write_text(json.dumps({"posts": [{"dir": "posts/gone/"}]}))
    with pytest.raises(SystemExit, match="posts/gone/index.html: missing"):
        previews.write_previews(tmp_path)


def test_a_faceted_log_x_line_chart_draws_its_first_panel(tmp_path):
    values = [{"cell": c, "gb": gb, "ips": ips * k, "v": v}
              for c, k in (("first", 1), ("second", 10)) for v in ("a", "b")
              for gb, ips in ((4, 10), (8, 20), (16, 30), (32, 40))]
    spec = {"data": {"values": values}, "facet": {"row": {"field": "cell"}},
            "spec": {"mark": {"type": "line"}, "encoding": {
                "x": {"field": "gb", "type": "quantitative", "scale": {"type": "log"}},
                "y": {"field": "ips", "type": "quantitative"}, "color": {"field": "v"}}}}
    fig = previews.figure_of(spec, "posts/p/", tmp_path)
    assert len(fig.lines) == 2
    xs = [round(x, 3) for x, _ in fig.lines[0]]
    assert xs == [0.0, 0.333, 0.667, 1.0]  # 4, 8, 16, 32 evenly spaced on a log axis
    assert max(y for line in fig.lines for _, y in line) == 1.0  # the first panel's own scale
