"""`hugo server` never touches the published build in site/: `make serve` renders to
memory, a plain `hugo server` at the root writes into the development publishDir
(config/development/hugo.toml), and a production build still publishes into site/. The servers
run against a copy of the project's config with the tiny synthetic study (tests/kit/front_site.py)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from ingest.write.csvfiles import series_csv
from tests.kit.front_site import ROOT, STUDY, hugo_binary, write_site

MARKER = "<!-- the published build -->\n"


def hugo_config(*args: str) -> str:
    return subprocess.run(
        [hugo_binary(), "config", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout


def publish_dir(config_text: str) -> str:
    return re.search(r"^publishdir = '([^']*)'", config_text, re.M)[1]


def test_the_resolved_publish_dir_per_environment():
    assert publish_dir(hugo_config("--environment", "production")) == "site"
    assert publish_dir(hugo_config()) == "site"  # `hugo` builds for production
    dev = publish_dir(hugo_config("--environment", "development"))
    assert dev != "site" and not dev.startswith("site/")
    assert f"/{dev}/" in (ROOT / ".gitignore").read_text().split()


def serve_recipe() -> list[str]:
    """The command `make serve` runs (its last recipe line), with the real Hugo binary."""
    text = (ROOT / "Makefile").read_text()
    recipe = re.search(r"^serve:.*\n((?:\t.*\n)+)", text, re.M)[1].strip().splitlines()[-1]
    cmd = shlex.split(recipe.strip())
    assert cmd[0] == "$(HUGO)" and cmd[1] == "server"
    return [hugo_binary(), *cmd[1:]]


@pytest.fixture
def project(tmp_path):
    """A copy of the project's config (config.toml and config/) with the tiny study, and a
    published build in site/ that must survive."""
    site = write_site(tmp_path / "project")
    shutil.copytree(ROOT / "config", site / "config")
    (site / "site").mkdir()
    (site / "site" / "index.html").write_text(MARKER)
    return site


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_until_ready(cmd: list[str], cwd: Path) -> None:
    """Runs a Hugo server until it says it serves (its "Web Server is available" line), fetches
    the study's post and its series file, then stops it."""
    port = free_port()
    proc = subprocess.Popen(
        [*cmd, "--port", str(port), "--bind", "127.0.0.1"],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        said = []
        for line in proc.stdout:  # ends when the server exits
            said.append(line)
            if "Web Server is available at" in line:
                break
        else:
            pytest.fail(f"hugo server did not start:\n{''.join(said)}")
        base = f"http://127.0.0.1:{port}"
        page = fetch(f"{base}/posts/{STUDY}/").decode()
        series = fetch(f"{base}/data/{STUDY}/series/alpha-100.json")
        assert "livereload" in page and b'"alpha-100"' in series
    finally:
        proc.terminate()
        proc.communicate(timeout=30)


def fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=5) as res:
        return res.read()


def test_make_serve_renders_to_memory(project):
    cmd = serve_recipe()
    assert "--renderToMemory" in cmd
    serve_until_ready(cmd, project)
    assert (project / "site" / "index.html").read_text() == MARKER
    assert sorted(p.name for p in (project / "site").iterdir()) == ["index.html"]
    assert not (project / ".serve").exists()


def test_plain_hugo_server_writes_beside_the_published_build(project):
    serve_until_ready([hugo_binary(), "server"], project)
    assert sorted(p.name for p in (project / "site").iterdir()) == ["index.html"]
    assert (project / "site" / "index.html").read_text() == MARKER
    assert "livereload" in (project / ".serve" / "posts" / STUDY / "index.html").read_text()


def test_a_production_build_still_publishes_into_site(project):
    result = subprocess.run(
        [hugo_binary(), "--quiet"], cwd=project, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    post = (project / "site" / "posts" / STUDY / "index.html").read_text()
    assert "livereload" not in post
    # the series files are no mount in production (config/production/hugo.toml): make build's
    # next step links them in, the same bytes at the same paths
    series = project / "site" / "data" / STUDY / "series"
    assert not series.exists()
    result = subprocess.run(
        [sys.executable, "-m", "publish.series", "site"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 0, result.stderr
    json_file = project / "data" / STUDY / "series" / "alpha-100.json"
    assert (series / "alpha-100.json").read_bytes() == json_file.read_bytes()
    assert (series / "alpha-100.csv").read_text() == series_csv(json_file.read_text())
