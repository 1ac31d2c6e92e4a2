"""Chart previews: the publish pipeline's `previews` step (publish/pipeline.py), after `charts`.

For every post listed in SITE/previews.json (written by layouts/home.previews.json) this
takes the SVG the build drew of the post's preview chart (`<post>/<chart id>.svg`, the same
drawing the page shows at first paint; the charts step says which charts of each page it
drew, in page order): the chart named by the post's front matter `preview:` (a chart id of the
post; the build fails when the post has no such chart), else its first chart, fits it onto the
light theme's background (publish/theme.py) and rasterises it with
resvg (the `resvg-py` binding, pinned in pyproject.toml) into `preview.png` (1200x630) beside
the page: the Open Graph / Twitter card and feed image. (The home and list cards show no
thumbnail since 2026-11-25: a chart at card size could not be read.)

The chart SVG comes from Vega's renderer, which escapes every text; the post title of a
preview without a chart is escaped here. A post without a chart gets a neutral card with its
title, so its links resolve.

A preview rasterised by an earlier build from the same SVG is not rasterised again: the PNGs
are kept in .cache/previews/ (gitignored; PREVIEW_CACHE=DIR elsewhere, PREVIEW_CACHE=off for
none) by the sha256 of the framed SVG and the resvg-py version, and a build keeps only the
entries it used.
"""

from __future__ import annotations

import json
import os
import re
from html import escape
from importlib.metadata import version
from pathlib import Path

import resvg_py

from publish.filecache import ROOT, FileCache, write_whole

FONT = "DejaVu Sans, Liberation Sans, sans-serif"
CARD = (1200, 630)
MARGIN = 0.04  # of the width, on every side


# the root element of Vega's SVG of a chart (its size) and its body
_ROOT = re.compile(
    r'^\s*<svg\b[^>]*\bwidth="([\d.]+)"[^>]*\bheight="([\d.]+)"[^>]*>(.*)</svg>\s*$', re.S
)


def preview_chart_svg(page_dir: Path, charts: list[str], chart_id: str = "") -> str | None:
    """The SVG of the chart `chart_id` (the post's `preview:`), else of the first chart drawn
    (`charts`: the ids the charts step drew on the page, in page order), else None."""
    if chart_id and chart_id not in charts:
        raise SystemExit(
            f"{page_dir / 'index.html'}: preview: {chart_id!r} is not a chart of the post "
            f"(its charts: {', '.join(charts) or 'none'})"
        )
    chosen = chart_id or (charts[0] if charts else "")
    return (page_dir / f"{chosen}.svg").read_text(encoding="utf-8") if chosen else None


def framed(chart_svg: str | None, size: tuple[int, int], title: str, theme: dict) -> str:
    """An SVG of `size` with the chart scaled to fit (centred) on the theme's background, or
    the title in its foreground when no chart."""
    width, height = size
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">',
        f'<rect width="{width}" height="{height}" fill="{theme["--bg"]}"/>',
    ]
    m = _ROOT.match(chart_svg or "")
    if m:
        cw, ch, body = float(m.group(1)), float(m.group(2)), m.group(3)
        pad = round(width * MARGIN)
        out.append(
            f'<svg x="{pad}" y="{pad}" width="{width - 2 * pad}" height="{height - 2 * pad}" '
            f'viewBox="0 0 {cw:g} {ch:g}" preserveAspectRatio="xMidYMid meet">{body}</svg>'
        )
    else:
        out.append(
            f'<text x="{width / 2:g}" y="{height / 2:g}" text-anchor="middle" font-family="{FONT}" '
            f'font-size="{height // 12}" fill="{theme["--fg"]}">{escape(title[:60])}</text>'
        )
    out.append("</svg>")
    return "".join(out)


def rasterise(svg: str) -> bytes:
    """PNG bytes of an SVG (resvg, anti-aliased, system fonts)."""
    return bytes(resvg_py.svg_to_bytes(svg_string=svg, sans_serif_family="DejaVu Sans"))


class PngCache(FileCache):
    """PNGs of earlier builds (see the module's doc); `root` None: rasterise every time."""

    def __init__(self, root: Path | None):
        # salted with the rasteriser's version: another one draws anew
        super().__init__(root, f"resvg-py {version('resvg-py')}\0", ".png")

    def png(self, svg: str) -> bytes:
        return self.get(svg.encode(), lambda: rasterise(svg))


def write_previews(
    site: Path, charts: dict[str, list[str]], theme: dict, cache: PngCache | None = None
) -> list[str]:
    """Write preview.png for every post of previews.json; return their dirs. `charts`: post
    dir (as previews.json gives it) -> the ids of the charts drawn on it."""
    cache = cache or PngCache(None)
    manifest = site / "previews.json"
    try:
        posts = json.loads(manifest.read_text(encoding="utf-8"))["posts"]
    except (OSError, ValueError, KeyError) as err:
        raise SystemExit(f"{manifest}: cannot read the post list: {err}") from None
    done = []
    for post in posts:
        page_dir = site / post["dir"]
        if not (page_dir / "index.html").is_file():
            raise SystemExit(f"{page_dir / 'index.html'}: missing, listed in {manifest}")
        chart = preview_chart_svg(
            page_dir, charts.get(post["dir"], []), str(post.get("chart") or "")
        )
        title = str(post.get("title", ""))
        write_whole(page_dir / "preview.png", cache.png(framed(chart, CARD, title, theme)))
        done.append(post["dir"])
    return done


def run(site: Path, charts: dict[str, list[str]], theme: dict) -> str:
    """The pipeline's step: the previews of every post, the cache where PREVIEW_CACHE says
    (.cache/previews by default; `off`: none), pruned to what this build used; its log line."""
    where = os.environ.get("PREVIEW_CACHE", str(ROOT / ".cache" / "previews"))
    cache = PngCache(None if where == "off" else Path(where))
    done = write_previews(site, charts, theme, cache)
    cache.prune()
    return f"previews: {len(done)} posts" + (
        f", {cache.hits} of {len(done)} images from the cache" if cache.root else ""
    )
