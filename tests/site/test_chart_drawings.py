"""What the build-time chart pictures (publish/chart_svgs.js, after SVGO) draw, read from the
session build's SVG and checked against data/ (honest pictures): an estimate is
hollow and dashed and named in the legend, log axes tick at the sizes that were run, an hour
axis counts whole hours, and a line breaks where the data has a gap. Both pictures of each
figure (desktop `wide`, phone `narrow`) are checked."""

from __future__ import annotations

import json
import re

import pytest
import yaml

from tests.kit.golden import ROOT

DATA = ROOT / "data"
SVG = re.compile(r'<svg class="chart-svg (wide|narrow)".*?</svg>', re.S)
TEXT = re.compile(r"<text[^>]*>([^<]*)</text>")


def pictures(built, post, figure_id):
    """{'wide': svg, 'narrow': svg} of one figure of a built post."""
    html = (built.site / "posts" / post / "index.html").read_text(encoding="utf-8")
    start = html.index(f'<figure class="chart" id="{figure_id}"')
    figure = html[start : html.index("</figure>", start)]
    found = {m[1]: m[0] for m in SVG.finditer(figure)}
    assert set(found) == {"wide", "narrow"}, f"{post}#{figure_id}: {sorted(found)}"
    return found


def table(study, tid):
    return yaml.safe_load((DATA / study / "tables" / f"{tid}.yaml").read_text())


def label(t, key):
    return next(c["label"] for c in t["columns"] if c["key"] == key)


def axis_labels(svg, title):
    """The tick labels drawn just before an axis title (Vega draws an axis's labels, then its title)."""
    texts = TEXT.findall(svg)
    end = texts.index(title)
    start = end
    while start > 0 and re.fullmatch(r"[\d,.]+", texts[start - 1]):
        start -= 1
    return texts[start:end]


def rect_centre(d):
    """Centre of an SVGO rectangle path `M<x> <y>h<w>v<h>...Z` (or `V<bottom>`)."""
    m = re.match(r"M([\d.]+) ([\d.]+)h([\d.]+)([vV])([\d.]+)", d)
    x, y, w, v = float(m[1]), float(m[2]), float(m[3]), float(m[5])
    h = v if m[4] == "v" else v - y
    return x + w / 2, y + h / 2


def category_labels(svg, names):
    """{name: (x, y)} of the axis labels naming `names` (a wrapped label's lines joined)."""
    out = {}
    for m in re.finditer(r'<text[^>]*transform="translate\(([\d.]+) ([\d.]+)\)">(.*?)</text>', svg):
        text = " ".join(re.findall(r"<tspan[^>]*>([^<]*)</tspan>", m[3])) or m[3]
        if text in names:
            out[text] = float(m[1]), float(m[2])
    return out


@pytest.mark.parametrize(
    "tid, key, figure",
    [
        ("device-tps", "device", "device-bars"),
        ("relative-throughput", "server", "relative-throughput-bars"),
    ],
)
def test_an_estimate_is_drawn_hollow_and_dashed(built_site, tid, key, figure):
    """mysql8-optane's charts with a `basis`: the bar of each row whose basis is `estimate` is
    nearly transparent with a dashed outline, the others solid (with three kinds of figure as
    with two); the legend names the estimate."""
    t = table("mysql8-optane", tid)
    basis = {r[key]: r["basis"] for r in t["rows"]}
    assert "estimate" in basis.values() and "published" in basis.values()
    for width, svg in pictures(built_site, "mysql8-optane", figure).items():
        ticks = category_labels(svg, basis)
        assert set(ticks) == set(basis), (width, ticks)
        along = (
            0 if len({y for _, y in ticks.values()}) == 1 else 1
        )  # bars upright, or lying (phone)
        bars = re.findall(
            r'<path (fill-opacity="([.\d]+)" )?stroke-dasharray="([\d,]+)" d="(M[^"]+Z)"/>', svg
        )
        drawn = {}
        for _, opacity, dash, d in bars:
            centre = rect_centre(d)[along]
            device = min(ticks, key=lambda k: abs(ticks[k][along] - centre))
            if abs(ticks[device][along] - centre) < 20:
                drawn[device] = (float(opacity) if opacity else 1.0, dash)
        assert set(drawn) == set(basis), (width, drawn)
        for device, (opacity, dash) in drawn.items():
            if basis[device] == "estimate":
                assert opacity <= 0.2 and dash != "1,0", (width, device, opacity, dash)
            else:
                assert opacity == 1.0 and dash == "1,0", (width, device, opacity, dash)
        assert "estimate" in TEXT.findall(svg), width


@pytest.mark.parametrize(
    "figure", ["ips-av-vs-redo", "ips-99-vs-redo", "wkb-vs-redo", "cpu-vs-redo"]
)
def test_log_axes_tick_at_the_sizes_run(built_site, figure):
    """innodb-redo-log-size: the log-scale redo axis (the sizes the author's text gives) is
    labelled with exactly the sizes run."""
    t = table("innodb-redo-log-size", "by-redo")
    sizes = [f"{v:,}" for v in sorted({r["stated_gb"] for r in t["rows"]})]
    for width, svg in pictures(built_site, "innodb-redo-log-size", figure).items():
        assert axis_labels(svg, label(t, "stated_gb")) == sizes, width


@pytest.mark.parametrize("figure", ["hourly-qps", "hourly-size"])
def test_an_hour_axis_counts_whole_hours(built_site, figure):
    """linkbench-hourly-2017: the hour axis shows whole hours inside the data's range, never 0.0, 0.5 ..."""
    t = table("linkbench-hourly-2017", "hourly")
    hours = [r["hour"] for r in t["rows"]]
    for width, svg in pictures(built_site, "linkbench-hourly-2017", figure).items():
        ticks = axis_labels(svg, label(t, "hour"))
        assert len(ticks) >= 4, (width, ticks)
        assert all(re.fullmatch(r"\d+", x) and min(hours) <= int(x) <= max(hours) for x in ticks), (
            width,
            ticks,
        )


def subpaths(d):
    return len(re.findall(r"[Mm]", d))


def test_a_line_breaks_where_the_data_has_a_gap(built_site):
    """linkbench-hourly-2017's load rate: the run's line (top panel and zoom strip) has one piece more
    than the series has gaps, a gap being a step over 4x the median step (assets/js/series.js
    `gapOf`, the rule of the live chart)."""
    doc = json.loads((DATA / "linkbench-hourly-2017" / "series" / "load.json").read_text())
    t = doc["t"]
    steps = sorted(b - a for a, b in zip(t, t[1:]))
    median = steps[len(steps) // 2]
    gaps = sum(1 for a, b in zip(t, t[1:]) if b - a > 4 * median)
    assert gaps >= 1  # the real archive has one (85-100 s): the check below can fail
    for width, svg in pictures(built_site, "linkbench-hourly-2017", "load-rate").items():
        lines = [
            d
            for attrs, d in re.findall(r'<path ([^>]*stroke-width[^>]*) d="([^"]+)"', svg)
            if 'stroke="#d9dce1"' not in attrs and len(d) > 200
        ]
        assert len(lines) == 2, (width, len(lines))  # the plot and the zoom strip
        assert [subpaths(d) for d in lines] == [gaps + 1] * 2, width


def dots(svg):
    """Centres of the dot marks (SVGO circles `M<x> <y>a<r> <r> 0 1 1 ...`, several per path
    joined with relative `m`), as (colour, x, y); x is the circle's rightmost point."""
    out = []
    for fill, d in re.findall(r'<path fill="(#[0-9A-Fa-f]{6})" d="(M[^"]*a[^"]*)" opacity', svg):
        x = y = 0.0
        for i, m in enumerate(re.finditer(r"([Mm])(-?[\d.]+)[ ,]?(-?[\d.]+)a([\d.]+)", d)):
            dx, dy = float(m[2]), float(m[3])
            x, y = (dx, dy) if m[1] == "M" else (x + dx, y + dy)
            out.append((fill, x, y, float(m[4])))
    return out


def test_no_dot_hides_another(built_site):
    """index-condition-pushdown's counters chart: one dot per charted row (the flagged typo left
    out), and no two dots overlap, so MySQL 5.6's cannot hide behind MariaDB's."""
    t = table("index-condition-pushdown", "counters-changed")
    charted = [r for r in t["rows"] if r.get("flag") is None and r.get("ratio") is not None]
    for width, svg in pictures(
        built_site, "index-condition-pushdown", "counters-changed-bars"
    ).items():
        marks = [m for m in dots(svg) if m[3] < 5]  # the legend's symbols are drawn larger
        assert len(marks) == len(charted), (width, len(marks))
        for i, (_, x1, y1, r) in enumerate(marks):
            for _, x2, y2, _ in marks[i + 1 :]:
                assert (x1 - x2) ** 2 + (y1 - y2) ** 2 >= (2 * r) ** 2, (width, (x1, y1), (x2, y2))


def test_the_metrics_picture_shades_the_window_in_every_panel(built_site):
    """The build-time picture of a metrics chart draws the window in every panel (the live
    chart's `win` selection, from the same spec), not only in the first."""
    runs = yaml.safe_load((ROOT / "data" / "linkbench-hourly-2017" / "runs.yaml").read_text())[
        "runs"
    ]
    panels = 1 + len(next(r for r in runs if r["id"] == "load")["linked"]["panels"])
    for width, svg in pictures(built_site, "linkbench-hourly-2017", "load-metrics").items():
        shades = re.findall(
            r'<path fill="(#[0-9a-fA-F]{6})" fill-opacity="[.\d]+" stroke="\1" stroke-opacity="[.\d]+" d="M0 0h[\d.]+v[\d.]+H0Z"',
            svg,
        )
        assert len(shades) == panels, (width, len(shades))


SINGLE_COLOUR = [
    ("mysql8-optane", "relative-throughput-bars"),
    ("mysql8-optane", "device-bars"),
    ("linkbench-hourly-2017", "hourly-qps"),
    ("linkbench-hourly-2017", "hourly-size"),
]


@pytest.mark.parametrize("post,figure", SINGLE_COLOUR)
def test_a_chart_of_one_colour_draws_in_the_palettes_first(built_site, post, figure):
    """A bar or line chart without a colour field draws its marks in the site palette's first
    colour (assets/js/palette.json's first, theme.js PALETTE[0], set as the bar/line/point colour of the shared chart config),
    not Vega's default #4c78a8 (which the 8 charts here used before). The same config draws
    the live chart and the previews, which come from this SVG."""
    first = json.loads((ROOT / "assets/js/palette.json").read_text())[0]
    for variant, svg in pictures(built_site, post, figure).items():
        assert "#4c78a8" not in svg.lower(), (post, figure, variant)
        assert re.search(rf'(fill|stroke)="{first}"', svg, re.I), (post, figure, variant)
    assert "#4c78a8" not in (built_site.site / "posts" / post / f"{figure}.svg").read_text().lower()


@pytest.mark.parametrize(
    "post, figure", [("myrocks-cloud-cost", "avg-tps-bars"), ("linkbench-cached", "db-size-dots")]
)
def test_panel_labels_on_top_name_their_column_at_phone_width(built_site, post, figure):
    """The panel labels go above the panels as '<column heading>: <value>' (e.g. 'Cache GB: 27'),
    wrapped to the plot: never the bare value (Vega-Lite's header expression once swallowed
    the lookup of the wrapped lines)."""
    html = (built_site.site / "posts" / post / "index.html").read_text(encoding="utf-8")
    spec = json.loads(
        re.search(
            rf'<script type="application/json" id="{figure}-spec">(.*?)</script>', html, re.S
        )[1]
    )
    field = spec["facet"]  # the template's inputs to the spec (assets/js/xyspec.js)
    title = {c["key"]: c["label"] for c in spec["columns"]}[field]
    values = sorted({str(r[field]) for r in spec["rows"]})
    narrow = pictures(built_site, post, figure)["narrow"]
    texts = [
        " ".join(re.findall(r"<tspan[^>]*>([^<]*)</tspan>", m) or [m])
        for m in re.findall(r"<text[^>]*>(.*?)</text>", narrow)
    ]
    assert [v for v in values if f"{title}: {v}" not in texts] == []
    assert not set(values) & set(texts)


SPEC = re.compile(r'<script type="application/json" id="([^"]+)-spec">(.*?)</script>', re.S)


def colour_channels(spec):
    """(field, {value: colour}) of the colour channel of a bars/line chart, from the inputs its
    template writes for the spec (assets/js/xyspec.js)."""
    color = spec.get("color") if "xType" in spec else None
    if color:
        yield color["field"], dict(zip(color["domain"], color["range"]))


@pytest.mark.parametrize(
    "post", sorted(p.name for p in (ROOT / "content/posts").iterdir() if p.is_dir())
)
def test_one_colour_per_label_value_across_a_post(built_site, post):
    """Every chart of a post draws a label value (a server, an engine) in one colour: the
    ingest's index of it (study.yaml `colors`) in the site palette; two values of a label
    never share one."""
    palette = json.loads((ROOT / "assets/js/palette.json").read_text())
    study = yaml.safe_load((DATA / post / "study.yaml").read_text())
    display = study.get("display") or {}
    html = (built_site.site / "posts" / post / "index.html").read_text(encoding="utf-8")
    seen: dict[tuple[str, str], str] = {}
    for figure, text in SPEC.findall(html):
        for field, colours in colour_channels(json.loads(text)):
            indices = study["colors"].get(field, {})
            names = display.get(field, {})
            for value, colour in colours.items():
                assert seen.setdefault((field, value), colour) == colour, (figure, field, value)
                # the raw values shown as `value` (a display name), and their colours
                raws = [k for k in indices if str(names.get(k, k)) == value]
                allowed = {palette[indices[k] % len(palette)] for k in raws}
                assert not raws or colour in allowed, (figure, field, value, colour, allowed)
            assert len(set(colours.values())) == len(colours), (figure, field, colours)
