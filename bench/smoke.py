"""What the benches' `--smoke` modes share: one round over tiny input, seconds long, so that
tests/bench/ runs every bench in the suite and a bench that no longer runs fails a test.

A smoke run checks that a bench still works (its code, its inputs, the project's commands
it drives); its figures mean nothing. The tiny site is the fixture studies'
(tests/fixtures/site: a benign and a hostile study, two posts) built by `make build`'s
pipeline without the project's own posts."""

from __future__ import annotations

import argparse
from pathlib import Path

from publish.pipeline import STEPS, Build, publish

HELP = "one round over tiny input, to check the bench runs (its figures mean nothing)"


def add_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--smoke", action="store_true", help=HELP)


def tiny_job(dest: Path, base_url: str = "/") -> Build:
    """The pipeline's job of the fixture studies' site into `dest` (tests/kit/sitebuild.py)."""
    from tests.kit.sitebuild import FIXTURE, build_job

    return build_job(dest, base_url, FIXTURE, own_content=False)


def tiny_site(dest: Path, full: bool = True, base_url: str = "/") -> Path:
    """The fixture studies' site built into `dest` (full: with previews and the search index;
    else up to the charts' drawings)."""
    publish(tiny_job(dest, base_url), STEPS if full else ("hugo", "series", "charts"))
    return dest


def site_or_tiny(site: str | None, smoke: bool, tmp: str) -> Path:
    """The site a browser bench was given, or with `smoke` and none the tiny one built in
    `tmp`; neither is a usage error."""
    if site:
        return Path(site)
    if not smoke:
        raise SystemExit("give the built site's directory (or --smoke)")
    return tiny_site(Path(tmp) / "www" / "site")
