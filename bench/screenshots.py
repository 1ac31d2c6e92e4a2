"""Screenshots of a built page at desktop and phone width, light and dark, for looking at.

Usage: .venv/bin/python -m bench.screenshots <built site dir> <page path> [out dir] [figures]
Writes <out>/<name>-{desktop,phone}-{light,dark}.png (full page), with a fourth argument also
one PNG per figure, and prints any problems.
"""

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

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


if __name__ == "__main__":
    main(*sys.argv[1:])
