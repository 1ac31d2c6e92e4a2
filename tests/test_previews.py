"""publish/previews.py: previews rasterised (resvg) from the build's SVG of the first chart."""
from __future__ import annotations

import json
import struct

import pytest
import resvg_py

from publish import previews

CHART = ('<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200" viewBox="0 0 400 200">'
         '<rect x="0" y="0" width="200" height="200" fill="#0072B2"/>'
         '<rect x="200" y="0" width="200" height="200" fill="#D55E00"/></svg>')


def png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", png[16:24])


def write_site(tmp_path, html: str, files: dict[str, str] | None = None, title="P"):
    post = tmp_path / "posts" / "p"
    post.mkdir(parents=True)
    (post / "index.html").write_text(html)
    for name, body in (files or {}).items():
        (post / name).write_text(body)
    (tmp_path / "previews.json").write_text(json.dumps({"posts": [{"dir": "posts/p/", "title": title}]}))
    return post


def pixel(png: bytes, x: int, y: int) -> tuple[int, int, int]:
    """One pixel of a PNG, read back by rendering it into an SVG of one pixel (resvg again)."""
    import base64
    href = "data:image/png;base64," + base64.b64encode(png).decode()
    w, h = png_size(png)
    probe = (f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="1" height="1">'
             f'<image x="{-x}" y="{-y}" width="{w}" height="{h}" xlink:href="{href}"/></svg>')
    out = bytes(resvg_py.svg_to_bytes(svg_string=probe))
    import zlib
    idat = out.index(b"IDAT")
    raw = zlib.decompress(out[idat + 4: idat + 4 + struct.unpack(">I", out[idat - 4: idat])[0]])
    return tuple(raw[1:4])


def test_previews_are_the_first_chart_with_an_svg_fitted_and_centred(tmp_path):
    html = ('<figure class="chart" id="no-svg" data-kind="timeseries"></figure>'
            '<figure class="chart" id="first" data-kind="bars"></figure>'
            '<figure class="chart" id="second" data-kind="bars"></figure>')
    other = CHART.replace("#0072B2", "#009E73").replace("#D55E00", "#009E73")
    post = write_site(tmp_path, html, {"first.svg": CHART, "second.svg": other})
    assert previews.write_previews(tmp_path) == ["posts/p/"]
    card = (post / "preview.png").read_bytes()
    thumb = (post / "preview-thumb.png").read_bytes()
    assert png_size(card) == (1200, 630) and png_size(thumb) == (640, 336)
    # 400x200 fitted into 1200x630 less a 48 px margin: 1104 x 552, centred; blue left, orange right
    assert pixel(card, 400, 315) == (0x00, 0x72, 0xB2)
    assert pixel(card, 800, 315) == (0xD5, 0x5E, 0x00)
    assert pixel(card, 10, 10) == (0xfd, 0xfd, 0xfc)  # the light background around it


def test_a_post_without_chart_gets_a_card_with_its_escaped_title(tmp_path):
    post = write_site(tmp_path, "<p>text</p>", title='</text><script>alert(1)</script>')
    svg = previews.framed(None, previews.CARD, '</text><script>alert(1)</script>')
    assert "<script>" not in svg and "&lt;/text&gt;&lt;script&gt;" in svg
    previews.write_previews(tmp_path)
    assert png_size((post / "preview.png").read_bytes()) == (1200, 630)


def test_a_listed_post_without_its_page_is_an_error(tmp_path):
    (tmp_path / "previews.json").write_text(json.dumps({"posts": [{"dir": "posts/gone/"}]}))
    with pytest.raises(SystemExit, match="posts/gone/index.html: missing"):
        previews.write_previews(tmp_path)
