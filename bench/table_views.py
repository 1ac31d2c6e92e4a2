"""How many table views of the built posts are readable, at 1280 and 375 px.

Usage: .venv/bin/python -m bench.table_views <built site dir> [-v]
       .venv/bin/python -m bench.table_views --smoke   # the fixture studies' site
Serves the site, opens every post at both widths in Debian's Chromium, draws its charts, opens
every details element and applies tests/kit/table_views.py to every table. Prints per post and
width the readable / total counts and whether the page scrolls sideways; -v lists every
unreadable table with the reason. Results are recorded in docs/charts.md ("Tables").
"""

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from bench import smoke  # noqa: E402
from tests.kit.browser_kit import launch, open_page, serve, wait_for_charts  # noqa: E402
from tests.kit.table_views import measure, problems  # noqa: E402

WIDTHS = (1280, 375)


def main(site, verbose=""):
    site = Path(site)
    posts = sorted(p.parent.name for p in site.glob("posts/*/index.html"))
    server, base = serve(site)
    readable = total = 0
    with sync_playwright() as p:
        browser = launch(p)
        for post in posts:
            for width in WIDTHS:
                errors = []
                page = open_page(
                    browser,
                    f"{base}/posts/{post}/",
                    errors,
                    viewport={"width": width, "height": 900},
                )
                wait_for_charts(page)
                result = measure(page)
                views = [v for v in result["tables"] if not v["hidden"]]
                bad = [(v, problems(v)) for v in views if problems(v)]
                ok = len(views) - len(bad) if not result["sideways"] else 0
                readable += ok
                total += len(views)
                print(
                    f"{post:28} {width:5} readable {ok:3}/{len(views):3}"
                    f"{'  PAGE SCROLLS SIDEWAYS ' + str(result['pageWidth']) if result['sideways'] else ''}"
                )
                if verbose:
                    for v, why in bad:
                        print(f"    #{v['i']} {v['id'] or '-'}: {'; '.join(why)}")
                page.context.close()
        browser.close()
    server.shutdown()
    print(f"readable table views: {readable} of {total}")


if __name__ == "__main__":
    if sys.argv[1:] == ["--smoke"]:
        with tempfile.TemporaryDirectory() as tmp:
            main(smoke.site_or_tiny(None, True, tmp))
    else:
        main(*sys.argv[1:])
