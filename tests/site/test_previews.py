"""publish/previews.py: previews rasterised (resvg) from the build's SVG of the post's preview chart
(front matter `preview:`, else the first chart the charts step drew), on the light theme's
background (publish/theme.py, read from main.css)."""

from __future__ import annotations

import json
import struct

import pytest
import resvg_py

from publish import previews
from publish.theme import light_theme

THEME = light_theme()

CHART = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200" viewBox="0 0 400 200">'
    '<rect x="0" y="0" width="200" height="200" fill="#0072B2"/>'
    '<rect x="200" y="0" width="200" height="200" fill="#D55E00"/></svg>'
)


def png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", png[16:24])


def write_site(tmp_path, html: str, files: dict[str, str] | None = None, title="P", chart=None):
    post = tmp_path / "posts" / "p"
    post.mkdir(parents=True)
    (post / "index.html").write_text(html)
    for name, body in (files or {}).items():
        (post / name).write_text(body)
    entry = {"dir": "posts/p/", "title": title, **({"chart": chart} if chart is not None else {})}
    (tmp_path / "previews.json").write_text(json.dumps({"posts": [entry]}))
    return post


def pixel(png: bytes, x: int, y: int) -> tuple[int, int, int]:
    """One pixel of a PNG, read back by rendering it into an SVG of one pixel (resvg again)."""
    import base64

    href = "data:image/png;base64," + base64.b64encode(png).decode()
    w, h = png_size(png)
    probe = (
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="1" height="1">'
        f'<image x="{-x}" y="{-y}" width="{w}" height="{h}" xlink:href="{href}"/></svg>'
    )
    out = bytes(resvg_py.svg_to_bytes(svg_string=probe))
    import zlib

    idat = out.index(b"IDAT")
    raw = zlib.decompress(out[idat + 4 : idat + 4 + struct.unpack(">I", out[idat - 4 : idat])[0]])
    return tuple(raw[1:4])


def test_previews_are_the_first_chart_with_an_svg_fitted_and_centred(tmp_path):
    html = (
        '<figure class="chart" id="no-svg" data-kind="timeseries"></figure>'
        '<figure class="chart" id="first" data-kind="bars"></figure>'
        '<figure class="chart" id="second" data-kind="bars"></figure>'
    )
    other = CHART.replace("#0072B2", "#009E73").replace("#D55E00", "#009E73")
    post = write_site(tmp_path, html, {"first.svg": CHART, "second.svg": other})
    # the charts step drew "first" and "second" ("no-svg" is a kind without a drawing)
    drawn = {"posts/p/": ["first", "second"]}
    assert previews.write_previews(tmp_path, drawn, THEME) == ["posts/p/"]
    card = (post / "preview.png").read_bytes()
    assert png_size(card) == (1200, 630) and not (post / "preview-thumb.png").exists()
    # 400x200 fitted into 1200x630 less a 48 px margin: 1104 x 552, centred; blue left, orange right
    assert pixel(card, 400, 315) == (0x00, 0x72, 0xB2)
    assert pixel(card, 800, 315) == (0xD5, 0x5E, 0x00)
    assert pixel(card, 10, 10) == (0xFD, 0xFD, 0xFC)  # the light background around it


def test_a_post_without_chart_gets_a_card_with_its_escaped_title(tmp_path):
    post = write_site(tmp_path, "<p>text</p>", title="</text><script>alert(1)</script>")
    svg = previews.framed(None, previews.CARD, "</text><script>alert(1)</script>", THEME)
    assert "<script>" not in svg and "&lt;/text&gt;&lt;script&gt;" in svg
    previews.write_previews(tmp_path, {}, THEME)
    assert png_size((post / "preview.png").read_bytes()) == (1200, 630)


def test_a_listed_post_without_its_page_is_an_error(tmp_path):
    (tmp_path / "previews.json").write_text(json.dumps({"posts": [{"dir": "posts/gone/"}]}))
    with pytest.raises(SystemExit, match="posts/gone/index.html: missing"):
        previews.write_previews(tmp_path, {}, THEME)


GREEN = CHART.replace("#0072B2", "#009E73").replace("#D55E00", "#009E73")
TWO = (
    '<figure class="chart" id="first" data-kind="ratio"></figure>'
    '<figure class="chart" id="second" data-kind="bars"></figure>'
)
DRAWN = {"posts/p/": ["first", "second"]}


@pytest.mark.parametrize("chart", ["", None])
def test_without_a_preview_chart_the_first_is_drawn(tmp_path, chart):
    post = write_site(tmp_path, TWO, {"first.svg": CHART, "second.svg": GREEN}, chart=chart)
    previews.write_previews(tmp_path, DRAWN, THEME)
    assert pixel((post / "preview.png").read_bytes(), 400, 315) == (0x00, 0x72, 0xB2)


def test_the_posts_preview_chart_is_drawn_when_named(tmp_path):
    """previews.json's `chart` (the post's front matter `preview:`) picks the chart drawn; on the
    code before, the first chart was drawn whatever the post said."""
    post = write_site(tmp_path, TWO, {"first.svg": CHART, "second.svg": GREEN}, chart="second")
    previews.write_previews(tmp_path, DRAWN, THEME)
    png = (post / "preview.png").read_bytes()
    w, h = png_size(png)
    assert pixel(png, w // 3, h // 2) == (0x00, 0x9E, 0x73)


def test_a_preview_that_is_no_chart_of_the_post_fails(tmp_path):
    write_site(tmp_path, TWO, {"first.svg": CHART, "second.svg": GREEN}, chart="third")
    with pytest.raises(
        SystemExit, match="preview: 'third' is not a chart of the post .its charts: first, second"
    ):
        previews.write_previews(tmp_path, DRAWN, THEME)


def test_the_build_lists_each_posts_preview_chart(built_site):
    """The sysbench-regressions post names a short heat-table as its preview (its first chart is
    a 1,215 px tall one, unreadable at 640x336); previews.json carries it, other posts none."""
    listed = {
        p["dir"]: p for p in json.loads((built_site.site / "previews.json").read_text())["posts"]
    }
    assert listed["posts/sysbench-regressions/"]["chart"] == "cpu-ratio-write-heavy"
    assert listed["posts/myrocks-cloud-cost/"]["chart"] == ""


def test_a_preview_from_the_cache_is_the_same_png_and_a_changed_chart_is_rasterised_again(
    tmp_path, monkeypatch
):
    html = '<figure class="chart" id="first" data-kind="bars"></figure>'
    site = tmp_path / "site"
    post = write_site(site, html, {"first.svg": CHART})
    store = tmp_path / "cache"
    drawn = {"posts/p/": ["first"]}
    previews.write_previews(site, drawn, THEME, previews.PngCache(store))
    cold = {name: (post / name).read_bytes() for name in ("preview.png",)}
    assert len(list(store.glob("*.png"))) == 1
    calls = []
    monkeypatch.setattr(previews, "rasterise", lambda svg: calls.append(svg) or b"drawn again")
    warm = previews.PngCache(store)
    previews.write_previews(site, drawn, THEME, warm)
    assert warm.hits == 1 and calls == []
    assert {name: (post / name).read_bytes() for name in cold} == cold
    # the chart changes: the image is rasterised again, and the old entry goes at the prune
    (post / "first.svg").write_text(CHART.replace("#0072B2", "#009E73"))
    changed = previews.PngCache(store)
    previews.write_previews(site, drawn, THEME, changed)
    changed.prune()
    assert changed.hits == 0 and len(calls) == 1
    assert (post / "preview.png").read_bytes() == b"drawn again"
    assert sorted(p.name for p in store.iterdir()) == sorted(changed.used)


def test_the_step_keeps_its_previews_where_PREVIEW_CACHE_says_or_nowhere(tmp_path, monkeypatch):
    site = tmp_path / "site"
    write_site(
        site, '<figure class="chart" id="first" data-kind="bars"></figure>', {"first.svg": CHART}
    )
    drawn = {"posts/p/": ["first"]}
    monkeypatch.setenv("PREVIEW_CACHE", str(tmp_path / "store"))
    assert previews.run(site, drawn, THEME) == "previews: 1 posts, 0 of 1 images from the cache"
    assert previews.run(site, drawn, THEME) == "previews: 1 posts, 1 of 1 images from the cache"
    monkeypatch.setenv("PREVIEW_CACHE", "off")
    assert previews.run(site, drawn, THEME) == "previews: 1 posts"
