"""One production-like build of the site per test session, shared by the site checks.

`built_site` builds the project (its config, layouts, assets, content and data) plus the
test-only fixture studies in tests/fixtures/site (a hostile-input study and a benign one),
mounted beside the project's own content and data, by the pipeline `make build` runs
(publish/pipeline.py: Hugo with the production config's mounts, the series files, the charts'
SVG, the posts' budgets and ids, the previews, Pagefind). The base URL is a GitHub project
page's, so the same build serves the deploy-path test. The site lands in `<tmp>/www/benchlog/`
so that a static server
(or lychee's --root-dir) rooted at `<tmp>/www` sees it at the project page's path.
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from publish.pipeline import STEPS, Build, publish

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "site"
BASE_URL = "https://example.github.io/benchlog/"
BASE_PATH = "/benchlog/"


@dataclass
class BuiltSite:
    www: Path  # web root of a local server
    site: Path  # the publish dir, www/benchlog
    base_url: str
    base_path: str

    def page(self, rel: str) -> str:
        return (self.site / rel).read_text(encoding="utf-8")


def build(
    dest: Path,
    base_url: str,
    extra: Path | None = None,
    previews: bool = True,
    own_content: bool = True,
) -> None:
    """Build the project into dest with `make build`'s pipeline, plus `extra`'s content/data.
    previews=False stops after the charts' SVG (no preview images, no search index);
    own_content=False leaves the project's own posts out (extra's content only)."""
    steps = STEPS if previews else ("hugo", "series", "charts", "checks")
    try:
        publish(build_job(dest, base_url, extra, own_content), steps)
    except SystemExit as err:  # the pipeline's error: Hugo's or a step's message
        raise AssertionError(f"python -m publish {dest} failed:\n{err}") from None


def generated_site(make: Callable[[Path], object], tmp: Path) -> Path:
    """A study generated into `tmp` by `make` (its content/ and data/), built alone without
    previews; the web root (`tmp/www`, the site under `benchlog/`)."""
    make(tmp)
    www = tmp / "www"
    build(www / "benchlog", BASE_URL, extra=tmp, previews=False, own_content=False)
    return www


def build_job(dest: Path, base_url: str, extra: Path | None, own_content: bool = True) -> Build:
    """The pipeline's job of `build` (its config dir for `extra`'s mounts written)."""
    config_dir = ROOT / "config"
    if extra is not None:
        # an environment's mounts replace every other config's, so the combined list goes in a
        # config dir of its own, in place of config/production/hugo.toml
        config_dir = dest.parent.parent / f"{dest.parent.name}-config"
        (config_dir / "production").mkdir(parents=True, exist_ok=True)
        (config_dir / "production" / "hugo.toml").write_text(
            extra_mounts(extra, own_content), encoding="utf-8"
        )
    data_dirs = [ROOT / "data"] + (
        [extra / "data"] if extra is not None and (extra / "data").is_dir() else []
    )
    return Build(
        site=dest,
        base_url=base_url,
        config_dir=config_dir if extra is not None else None,
        data_dirs=data_dirs,
        content_dirs=[ROOT / "content" / "posts"]
        + ([extra / "content" / "posts"] if extra else []),
        log=lambda line: None,
    )


def extra_mounts(extra: Path, own_content: bool = True) -> str:
    """A production config with the project's own production mounts (config/production/hugo.toml)
    plus the same mounts of `extra`'s content and data (kept out of hugo.Data as the project's;
    their series files are linked in after Hugo, as the project's)."""
    project = tomllib.loads(
        (ROOT / "config" / "production" / "hugo.toml").read_text(encoding="utf-8")
    )["module"]["mounts"]
    mounts = [
        dict(m, source=str(ROOT / m["source"]))
        for m in project
        if own_content or m["source"] != "content"
    ]
    mounts += [
        dict(m, source=str(extra / m["source"]))
        for m in project
        if m["source"] in ("content", "data") and (extra / m["source"]).is_dir()
    ]
    # The hostile study has raw HTML on purpose: Hugo omits it (and warns, which
    # --panicOnWarning would turn into a failed build for a real post).
    lines = ["ignoreLogs = ['warning-goldmark-raw-html']\n"]
    for m in mounts:
        lines.append(
            "[[module.mounts]]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in m.items())
        )
    return "\n".join(lines)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> BuiltSite:
    """This session's build; or, under `make check-site` (BENCHLOG_SITE, BENCHLOG_BASE_URL), a
    site built before, the very one a deploy uploads, checked by the tests marked `site`."""
    www = tmp_path_factory.mktemp("www")
    given = os.environ.get("BENCHLOG_SITE")
    if given:
        base_url = os.environ["BENCHLOG_BASE_URL"]
        base_path = urlsplit(base_url).path
        if not base_url.startswith(("http://", "https://")) or not base_path.endswith("/"):
            raise pytest.UsageError(f"BENCHLOG_BASE_URL={base_url}: an absolute URL ending in /")
        if base_path == "/":
            www = Path(given).resolve()
        else:
            (www / base_path.strip("/")).parent.mkdir(parents=True, exist_ok=True)
            (www / base_path.strip("/")).symlink_to(Path(given).resolve())
        return BuiltSite(
            www=www, site=www / base_path.strip("/"), base_url=base_url, base_path=base_path
        )
    site = www / BASE_PATH.strip("/")
    build(site, BASE_URL, extra=FIXTURE)
    return BuiltSite(www=www, site=site, base_url=BASE_URL, base_path=BASE_PATH)
