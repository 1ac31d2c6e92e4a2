"""Time from opening a search link (`/search/?q=TERM`) to its first result with every filter group
listed, on two built sites side by side (a baseline and a candidate), in Debian's Chromium.

Usage: .venv/bin/python -m bench.search_bench <baseline site> <candidate site> [TERM] [ROUNDS]
       .venv/bin/python -m bench.search_bench --smoke   # one round, this site against itself
Both sites are served from this machine; the rounds alternate between them, each in a fresh
browser context (no cache). Prints the medians in ms and the candidate/baseline ratio. The
number of filter groups expected is read from the candidate's pages (`data-pagefind-filter`).
Results are recorded in docs/performance.md ("Search").
"""

import re
import statistics
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from publish.pipeline import Build, publish  # noqa: E402
from tests.kit.browser_kit import launch, serve  # noqa: E402

# resolves with the time since navigation once a result and `groups` filter groups are shown;
# fails after a minute (a page that never shows them would otherwise hang the bench)
SHOWN = """(groups) => new Promise((done, fail) => {
  setTimeout(() => fail(new Error(`no result with ${groups} filter groups in 60 s`)), 60000);
  const check = () => {
    const result = document.querySelector('.pagefind-ui__result-link');
    const shown = document.querySelectorAll('.pagefind-ui__filter-name').length;
    if (result && shown >= groups) done(performance.now()); else requestAnimationFrame(check);
  };
  check();
})"""


def filter_groups(site: Path) -> int:
    """How many filter names the site's pages declare."""
    names = set()
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        names.update(re.findall(r'data-pagefind-filter="([^":]+):', text))
    return len(names)


def main(baseline, candidate, term="innodb", rounds="10"):
    sites = {"baseline": Path(baseline), "candidate": Path(candidate)}
    groups = filter_groups(sites["candidate"])
    servers = {name: serve(site) for name, site in sites.items()}
    times = {name: [] for name in sites}
    with sync_playwright() as p:
        browser = launch(p)
        for _ in range(int(rounds)):
            for name, (_, base) in servers.items():
                context = browser.new_context()
                page = context.new_page()
                page.goto(f"{base}/search/?q={term}")
                times[name].append(page.evaluate(SHOWN, groups))
                context.close()
        browser.close()
    for server, _ in servers.values():
        server.shutdown()
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, values in times.items():
        print(f"{name}: median {medians[name]:.0f} ms ({', '.join(f'{v:.0f}' for v in values)})")
    print(f"candidate / baseline: {medians['candidate'] / medians['baseline']:.2f}x")


if __name__ == "__main__":
    if sys.argv[1:] == ["--smoke"]:  # one round; the project's pages and search index only
        with tempfile.TemporaryDirectory() as tmp:
            site = Path(tmp) / "site"
            publish(Build(site=site, log=lambda line: None), ("hugo", "pagefind"))
            main(site, site, "innodb", "1")
    else:
        main(*sys.argv[1:])
