"""Lighthouse over the built site, served locally the way GitHub Pages serves a project page.

    .venv/bin/python -m bench.lighthouse [--no-build] [--mobile] [PAGE ...]
    .venv/bin/python -m bench.lighthouse --smoke    # the home page of the fixture studies' site

Serves site/ from a temporary web root at /benchlog/ with a static server that compresses text
with gzip as GitHub Pages does (an uncompressed response would overstate the transfer time of the
mobile preset's simulated slow 4G), builds the
site for that address (`make build BASEURL=http://127.0.0.1:<port>/benchlog/`, so canonical and
card URLs are absolute as on Pages), and runs Lighthouse (npm, pinned in
bench/lighthouse/package.json and its lock, installed there by `npm install` on first use: the site's
own node_modules do not carry it) with the system's Chromium ($CHROMIUM, else `chromium` on
PATH, tests/kit/browser_kit.py) on each page: the home page, every post, a term page, a
taxonomy page, the search page (with a query) and the 404 page. Prints one row per page with
the scores (desktop preset unless --mobile) and the targets: accessibility and
best practices 100, performance 95 or better. Reports land in bench/out/lighthouse/.
Exit status 1 if a page misses a target. Results are recorded in docs/lighthouse.md.
`--smoke` (tests/bench/): Lighthouse installed from the npm cache only (`--offline`:
no registry), the fixture studies' site (bench/smoke.py) built for the served address and
one page audited; its scores are printed, not held to the targets.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import io
import json
import os
import subprocess
import sys
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
from bench import smoke  # noqa: E402
from tests.kit.browser_kit import chromium  # noqa: E402

LIGHTHOUSE_DIR = ROOT / "bench" / "lighthouse"
LIGHTHOUSE = LIGHTHOUSE_DIR / "node_modules" / ".bin" / "lighthouse"
BASE_PATH = "/benchlog/"
OUT = ROOT / "bench" / "out" / "lighthouse"
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
TARGETS = {"performance": 95, "accessibility": 100, "best-practices": 100}
CHROME_FLAGS = (
    "--headless=new --no-sandbox --disable-gpu --disable-background-networking "
    "--disable-component-update --disable-sync --no-first-run"
)


class _PagesLike(SimpleHTTPRequestHandler):
    """A static server that answers like GitHub Pages for what Lighthouse weighs: text (HTML,
    CSS, JavaScript, JSON, SVG, CSV) gzip-compressed when the client accepts it."""

    COMPRESSED = (
        "text/",
        "application/javascript",
        "application/json",
        "image/svg+xml",
        "application/xml",
        "application/rss+xml",
    )

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir() and self.path.split("?")[0].endswith("/"):
            path = path / "index.html"
        ctype = self.guess_type(str(path))
        if (
            "gzip" not in self.headers.get("Accept-Encoding", "")
            or not path.is_file()
            or not ctype.startswith(self.COMPRESSED)
        ):
            return super().send_head()
        body = gzip.compress(path.read_bytes(), compresslevel=6)
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return io.BytesIO(body)

    def log_message(self, *args):
        pass


def default_pages(site: Path) -> list[str]:
    previews = json.loads((site / "previews.json").read_text())["posts"]
    pages = ["", *[p["dir"] for p in previews]]
    engines = sorted(p.parent.name for p in (site / "engines").glob("*/index.html"))
    pages += [f"engines/{engines[0]}/", "engines/", "search/?q=innodb", "404.html"]
    return pages


def serve(site: Path) -> tuple[ThreadingHTTPServer, str, tempfile.TemporaryDirectory]:
    """Serve site/ at /benchlog/ (a symlink in a temporary web root)."""
    www = tempfile.TemporaryDirectory()
    (Path(www.name) / BASE_PATH.strip("/")).symlink_to(site.resolve())
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_PagesLike, directory=www.name))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_port}{BASE_PATH}", www


def lighthouse(url: str, name: str, mobile: bool) -> dict[str, int]:
    report = OUT / f"{name}.json"
    cmd = [
        str(LIGHTHOUSE),
        url,
        "--quiet",
        "--output=json",
        f"--output-path={report}",
        f"--only-categories={','.join(CATEGORIES)}",
        f"--chrome-flags={CHROME_FLAGS}",
    ]
    if not mobile:
        cmd.append("--preset=desktop")
    env = {**os.environ, "CHROME_PATH": chromium()}
    subprocess.run(cmd, check=True, env=env, cwd=ROOT)
    data = json.loads(report.read_text())
    scores = {c: round(data["categories"][c]["score"] * 100) for c in CATEGORIES}
    failed = [
        a
        for a in data["audits"].values()
        if a.get("score") is not None and a["score"] < 1 and a.get("scoreDisplayMode") == "binary"
    ]
    scores["failing audits"] = ", ".join(sorted(a["id"] for a in failed)) or "-"
    return scores


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", nargs="*", help="paths under the site, e.g. posts/x/")
    parser.add_argument("--no-build", action="store_true", help="use the existing site/")
    parser.add_argument("--mobile", action="store_true", help="Lighthouse's mobile defaults")
    smoke.add_flag(parser)
    args = parser.parse_args()
    tiny = tempfile.TemporaryDirectory()
    site = Path(tiny.name) / "www" / "site" if args.smoke else ROOT / "site"
    if not LIGHTHOUSE.exists():
        # `npm install --no-save` from the lock, not `npm ci`: Lighthouse's trace engine asks
        # for two packages at `latest`, and npm ci refuses any lock once `latest` has moved on
        subprocess.run(
            ["npm", "install", "--no-save", "--no-audit", "--no-fund", "--loglevel=error"]
            + (["--offline"] if args.smoke else []),
            check=True,
            cwd=LIGHTHOUSE_DIR,
        )
    OUT.mkdir(parents=True, exist_ok=True)
    site.mkdir(parents=True, exist_ok=True)
    httpd, base, www = serve(site)
    if args.smoke:
        smoke.tiny_site(site, base_url=base)
        args.pages = [""]
    elif not args.no_build:
        subprocess.run(
            ["make", "build", f"BASEURL={base}"], check=True, cwd=ROOT, stdout=subprocess.DEVNULL
        )
    missed = 0
    try:
        mode = "mobile" if args.mobile else "desktop"
        print(f"| page ({mode}) | " + " | ".join(CATEGORIES) + " | failing audits |")
        print("|---" * (len(CATEGORIES) + 2) + "|")
        for page in args.pages or default_pages(site):
            name = (page.strip("/").replace("/", "_").replace("?", "_") or "home") + f"-{mode}"
            scores = lighthouse(base + page, name, args.mobile)
            low = [c for c, t in TARGETS.items() if scores[c] < t]
            missed += bool(low)
            print(
                f"| /{page} | "
                + " | ".join(str(scores[c]) for c in CATEGORIES)
                + f" | {scores['failing audits']}{'  MISSES ' + ','.join(low) if low else ''} |",
                flush=True,
            )
    finally:
        httpd.shutdown()
        www.cleanup()
        tiny.cleanup()
    return 1 if missed and not args.mobile and not args.smoke else 0


if __name__ == "__main__":
    sys.exit(main())
