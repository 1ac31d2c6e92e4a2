"""Shared fixtures. `built_site`: one production-like site build per session (tests/kit/sitebuild.py);
`cloud_ingest`: the myrocks-cloud-cost study ingested once from the real archive;
`browser`: one Debian Chromium (Playwright) for the whole session. Every test that uses
`browser` (itself or through a fixture) is marked `browser`, so `pytest -m "not browser"` leaves
them out."""

from __future__ import annotations

import pytest

from tests.kit.golden import ROOT, SHARED
from tests.kit.sitebuild import built_site  # noqa: F401


@pytest.fixture(scope="session")
def cloud_ingest(tmp_path_factory):
    """The myrocks-cloud-cost study ingested once from the real archive, read in place:
    {"data": <data dir>, "result": ingest() result}."""
    from ingest.pipeline import ingest

    data = tmp_path_factory.mktemp("cloud") / "data"
    result = ingest(
        ROOT / "content/posts/myrocks-cloud-cost/manifest.yaml",
        SHARED / "archives",
        SHARED / "studies",
        data,
    )
    return {"data": data, "result": result}


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for every browser test (tests/kit/browser_kit.py launches it)."""
    from playwright.sync_api import sync_playwright

    from tests.kit.browser_kit import launch

    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


def pytest_collection_modifyitems(items):
    for item in items:
        if "browser" in item.fixturenames:
            item.add_marker(pytest.mark.browser)
