"""`python -m publish SITE [--base-url URL]`: the whole build of the site into SITE (Hugo, the
series files, the charts' drawings, the previews, the search index; publish/pipeline.py).

    .venv/bin/python -m publish site --base-url https://example.org/benchlog/
    .venv/bin/python -m publish site --steps hugo,series,charts   # the first steps only
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from publish.pipeline import STEPS, Build, publish


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m publish",
        description="Builds the site into SITE: Hugo, the series files, the charts' drawings, "
        "the previews, the search index (publish/pipeline.py).",
    )
    parser.add_argument("site", type=Path, help="the publish dir (Hugo's destination)")
    parser.add_argument("--base-url", default="/", help="the site's base URL (default /)")
    parser.add_argument("--steps", default=",".join(STEPS), help=f"of {','.join(STEPS)}")
    parser.add_argument("--config-dir", type=Path, help="a Hugo config dir in place of config/")
    parser.add_argument(
        "--data", type=Path, action="append", help="a data dir whose series files are published"
    )
    parser.add_argument("--timings", type=Path, help="write each step's timing here (JSON)")
    args = parser.parse_args(argv)
    build = Build(site=args.site, base_url=args.base_url, config_dir=args.config_dir)
    if args.data:
        build.data_dirs = args.data
    timings = publish(build, tuple(s for s in args.steps.split(",") if s))
    if args.timings:
        args.timings.write_text(json.dumps(timings, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
