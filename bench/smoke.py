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


def tiny_job(dest: Path) -> Build:
    """The pipeline's job of the fixture studies' site into `dest` (tests/kit/sitebuild.py)."""
    from tests.kit.sitebuild import FIXTURE, build_job

    return build_job(dest, "/", FIXTURE, own_content=False)


def tiny_site(dest: Path, full: bool = True) -> Path:
    """The fixture studies' site built into `dest` (full: with previews and the search index;
    else up to the charts' drawings)."""
    publish(tiny_job(dest), STEPS if full else ("hugo", "series", "charts"))
    return dest
