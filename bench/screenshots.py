"""Screenshots of a built page at desktop and phone width, light and dark, for looking at.

Usage: .venv/bin/python -m bench.screenshots <built site dir> <page path> [out dir] [figures]
       .venv/bin/python -m bench.screenshots --smoke   # a post of the fixture studies' site
Writes <out>/<name>-{desktop,phone}-{light,dark}.png (full page), with a fourth argument also
one PNG per figure, and prints any problems.
"""

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from bench import smoke  # noqa: E402
from tests.kit.browser_kit import launch, open_page, serve, wait_for_charts  # noqa: E402


def main(site, path, out="bench/out/screens", figures=""):
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    server, base = serve(site)
    name = path.strip("/").replace("/", "-") or "home"
    with sync_playwright() as p:
        browser = launch(p)
        for label, viewport in (
            ("desktop", {"width": 1280, "height": 900}),
            ("phone", {"width": 375, "height": 800}),
        ):
            for scheme in ("light", "dark"):
                problems = []
                page = open_page(
                    browser,
                    base + path,
                    problems,
                    viewport=viewport,
                    color_scheme=scheme,
                    device_scale_factor=1,
                )
                states = wait_for_charts(page)
                page.wait_for_timeout(300)
                file = out / f"{name}-{label}-{scheme}.png"
                page.screenshot(path=str(file), full_page=True)
                print(file, states, problems or "")
                if figures:  # one picture per figure, to look at details
                    for fig in page.query_selector_all("figure[id]"):
                        fid = fig.get_attribute("id")
                        fig.screenshot(path=str(out / f"{name}-{label}-{scheme}-{fid}.png"))
                page.context.close()
        browser.close()
    server.shutdown()


def smoke_run() -> None:
    """The four screenshots of a post of the tiny site, into a temporary dir (bench/smoke.py)."""
    with tempfile.TemporaryDirectory() as tmp:
        site = smoke.site_or_tiny(None, True, tmp)
        main(site, "/posts/fixture-study/", str(Path(tmp) / "screens"))
        shots = sorted((Path(tmp) / "screens").glob("*.png"))
        if len(shots) != 4 or not all(p.stat().st_size for p in shots):
            raise SystemExit(f"expected 4 screenshots, got {[p.name for p in shots]}")


if __name__ == "__main__":
    smoke_run() if sys.argv[1:] == ["--smoke"] else main(*sys.argv[1:])
