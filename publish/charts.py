"""The charts' build-time drawings: every `figure.chart` of every built page drawn as SVG and
put into the page (the pipeline's `charts` step, after Hugo and the series files).

Each page is read with one HTML parser (`ChartPage`, on the standard library's html.parser):
its figures (`<figure class="chart" id=... data-kind=...>`), each one's spec (the JSON of
`<script type="application/json" id="<id>-spec">`) and the place of its empty view
(`<div class="chart-view pending" id="<id>-view"></div>`, layouts/_partials/chart-parts/
frame.html). The drawing is Node's: publish/chart_svgs.js gets the site's charts (all of them,
or on a site with many a share per process, one process per CPU: `draw`) with the kinds' own
code, Vega, Vega-Lite and SVGO, and its cache of earlier drawings, and returns, per chart, the
desktop SVG as Vega wrote it and the inline form (desktop and phone width). Here each desktop
SVG is written as `<page dir>/<id>.svg` (the previews' source) and each inline form is put in
place of its empty view, at the offsets the parser gave; nothing else of the page changes.
The pages' text is escaped by Vega's renderer; chart_svgs.js refuses markup that could run.
Colours are the light theme's (publish/theme.py)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DRAWER = ROOT / "publish" / "chart_svgs.js"
# V8's young generation capped at 16 MB a half (Node 24 sizes it from the machine's memory):
# the drawing makes ~0.1 GB of short-lived garbage per chart (Vega's scenegraphs, SVGO's trees)
# and its live heap stays under ~0.1 GB; with the default the process peaked at 0.6 GB with 24
# extra cloud-size studies, with 16 MB at ~0.4 GB for the same CPU (docs/performance.md)
NODE_FLAGS = ["--max-semi-space-size=16"]
# Charts per drawer process: each process pays ~0.4 s of CPU to load Vega, Vega-Lite and SVGO,
# so a second one runs only when there are enough charts to share (a cold +24 site has ~180)
CHARTS_PER_WORKER = 24


def node_binary() -> str:
    """The project's Node: .node/ when `make` installed the .nvmrc version there, else `node`."""
    own = ROOT / ".node" / "node_modules" / ".bin" / "node"
    return str(own) if own.exists() else shutil.which("node") or "node"


@dataclass
class Chart:
    id: str
    kind: str
    spec: str | None = None  # the spec script's text (JSON)
    view: tuple[int, int] | None = None  # offsets of the empty view element in the page


@dataclass
class ChartPage:
    """A built page's charts, in page order, read with html.parser."""

    path: Path
    html: str
    charts: list[Chart] = field(default_factory=list)

    @classmethod
    def read(cls, path: Path) -> ChartPage:
        page = cls(path, path.read_text(encoding="utf-8"))
        _Figures(page).feed(page.html)
        return page

    def place(self, inline: dict[str, str]) -> str:
        """The page with each chart's inline drawing (by id) in place of its empty view."""
        out, at = [], 0
        for chart in self.charts:
            if chart.id not in inline:
                continue
            if chart.view is None:
                raise SystemExit(f"{self.path}: chart {chart.id}: no empty view to draw into")
            start, end = chart.view
            out += [self.html[at:start], f'<div class="chart-view" id="{chart.id}-view">']
            out += [inline[chart.id], "</div>"]
            at = end
        return "".join(out) + self.html[at:]


class _Figures(HTMLParser):
    def __init__(self, page: ChartPage):
        super().__init__(convert_charrefs=False)
        self.page = page
        self.by_id: dict[str, Chart] = {}
        self.line_starts = [0]
        for line in page.html.splitlines(keepends=True):
            self.line_starts.append(self.line_starts[-1] + len(line))
        self.spec: tuple[Chart, int] | None = None  # the spec script being read, its start
        self.view: tuple[Chart, int] | None = None  # the empty view being read, its start

    def position(self) -> int:
        line, column = self.getpos()
        return self.line_starts[line - 1] + column

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        ident = a.get("id") or ""
        if tag == "figure" and "chart" in classes:
            chart = Chart(ident, a.get("data-kind") or "")
            self.page.charts.append(chart)
            self.by_id[ident] = chart
        elif tag == "script" and a.get("type") == "application/json" and ident.endswith("-spec"):
            chart = self.by_id.get(ident.removesuffix("-spec"))
            if chart is not None:
                self.spec = (chart, self.position() + len(self.get_starttag_text()))
        elif tag == "div" and classes == ["chart-view", "pending"] and ident.endswith("-view"):
            chart = self.by_id.get(ident.removesuffix("-view"))
            if chart is not None:
                self.view = (chart, self.position())

    def handle_endtag(self, tag):
        if tag == "script" and self.spec is not None:
            chart, start = self.spec
            chart.spec = self.page.html[start : self.position()]
            self.spec = None
        elif tag == "div" and self.view is not None:
            chart, start = self.view
            end = self.page.html.index(">", self.position()) + 1
            if self.page.html[start:end].count("<") == 2:  # <div ...></div>: empty, as Hugo left it
                chart.view = (start, end)
            self.view = None


def chart_pages(site: Path) -> list[ChartPage]:
    """The built pages that have a chart, in path order."""
    found = []
    for path in sorted(site.rglob("index.html")):
        if '<figure class="chart"' in path.read_text(encoding="utf-8"):
            page = ChartPage.read(path)
            if page.charts:
                found.append(page)
    return found


def drawer_jobs(pages: list[ChartPage]) -> list[dict]:
    """The drawer's `charts` input: one {page, id, kind, spec} per chart, in page order."""
    jobs = []
    for page in pages:
        for chart in page.charts:
            if chart.spec is None:
                raise SystemExit(f"{page.path}: chart {chart.id}: no spec")
            jobs.append(
                {"page": str(page.path), "id": chart.id, "kind": chart.kind, "spec": chart.spec}
            )
    return jobs


def drawer_command(site: Path, node_flags: tuple[str, ...] = ()) -> list[str]:
    """The command of the drawer over `site` (its input on stdin, see _drawer)."""
    return [node_binary(), *NODE_FLAGS, *node_flags, str(DRAWER), str(site)]


def workers(n_charts: int) -> int:
    """How many drawer processes to run side by side: one per CPU this process may use
    (CHART_WORKERS overrides), at most one per CHARTS_PER_WORKER charts."""
    wanted = os.environ.get("CHART_WORKERS")
    cpus = int(wanted) if wanted else len(os.sched_getaffinity(0))
    return max(1, min(cpus, n_charts // CHARTS_PER_WORKER))


def draw(
    site: Path, theme: dict[str, str], n_workers: int | None = None
) -> tuple[dict[Path, list[str]], str]:
    """Draws every chart of the built site into its page and `<id>.svg` beside it; returns,
    per page directory, the ids of the charts drawn, in page order (the previews' choice), and
    a line for the log. The charts are shared among `n_workers` drawer processes (default:
    `workers`); a chart's drawing does not depend on which process drew it or what it drew
    before (chart_svgs.js resets Vega's ids per drawing), so the bytes are the same."""
    pages = chart_pages(site)
    jobs = drawer_jobs(pages)
    result = _drawers(site, theme, jobs, n_workers or workers(len(jobs)))
    drawings = iter(result["drawings"])
    drawn: dict[Path, list[str]] = {}
    for page in pages:
        inline = {}
        for chart in page.charts:
            drawing = next(drawings)
            if drawing["svg"] is None:  # a kind with no initial view
                continue
            (page.path.parent / f"{chart.id}.svg").write_text(drawing["svg"], encoding="utf-8")
            if drawing["inline"] is not None:
                inline[chart.id] = drawing["inline"]
            drawn.setdefault(page.path.parent, []).append(chart.id)
        if inline:
            page.path.write_text(page.place(inline), encoding="utf-8")
    count = sum(len(ids) for ids in drawn.values())
    return drawn, f"charts: {count} charts on {len(drawn)} pages{result['note']}"


def _drawers(site: Path, theme: dict[str, str], jobs: list[dict], n: int) -> dict:
    """The drawer run as `n` processes at once, each over every n-th job (the copies of one
    kind of post spread evenly); their drawings put back in job order, as one drawer's."""
    n = max(1, min(n, len(jobs)))  # no process without a chart (one when there is none)
    shares = [jobs[i::n] for i in range(n)]
    with ThreadPoolExecutor(n) as pool:  # a thread feeds and reads each process
        results = list(pool.map(lambda share: _drawer(site, theme, share), shares))
    drawings: list[dict] = [{}] * len(jobs)
    for i, result in enumerate(results):
        drawings[i::n] = result["drawings"]
    hits = [r["hits"] for r in results if r["hits"] is not None]
    return {"drawings": drawings, "note": f", {sum(hits)} from the cache" if hits else ""}


def _drawer(site: Path, theme: dict[str, str], jobs: list[dict]) -> dict:
    """publish/chart_svgs.js over `jobs` (stdin JSON): {drawings: one {svg, inline} per job,
    hits: how many came from its cache, null without one} (stdout)."""
    done = subprocess.run(
        drawer_command(site),
        input=json.dumps({"theme": theme, "charts": jobs}),
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    if done.returncode:
        raise SystemExit(done.stderr.strip() or f"{DRAWER} failed ({done.returncode})")
    return json.loads(done.stdout)
