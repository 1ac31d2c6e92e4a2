"""docs/charts.md documents every shortcode, and every example in it builds.

Each `{{< ... >}}` in a fenced block of docs/charts.md is one example (a block with a closing
`{{< /name >}}` is one example as a whole). Its study is myrocks-cloud-cost unless a
`<!-- study: NAME -->` line precedes the block; a block after `<!-- syntax -->` is a pattern and
is skipped. All examples become the posts of one throwaway build (Hugo + the build-time SVG, without the
project's own posts)."""

from __future__ import annotations

import re

import pytest

from tests.kit.sitebuild import BASE_URL, ROOT, build

DOC = ROOT / "docs" / "charts.md"
DEFAULT_STUDY = "myrocks-cloud-cost"
BLOCK = re.compile(r"(?:<!-- (study: [a-z0-9-]+|syntax) -->\n)?^```[^\n]*\n(.*?)^```", re.S | re.M)
CALL = re.compile(r"\{\{<\s*(/?)([a-z]+)\b.*?>\}\}", re.S)


def examples() -> list[tuple[str, str]]:
    """(study, shortcode text) for every example of docs/charts.md, in page order."""
    out = []
    for m in BLOCK.finditer(DOC.read_text(encoding="utf-8")):
        tag, body = m.group(1) or "", m.group(2)
        if tag == "syntax" or "{{<" not in body:
            continue
        study = tag.removeprefix("study: ") or DEFAULT_STUDY
        if "{{< /" in body:
            out.append((study, body.strip()))
        else:
            out += [(study, c.group(0)) for c in CALL.finditer(body)]
    return out


EXAMPLES = examples()


def test_every_shortcode_has_an_example():
    names = {c.group(2) for _, text in EXAMPLES for c in CALL.finditer(text)}
    shortcodes = {p.stem for p in (ROOT / "layouts" / "_shortcodes").glob("*.html")}
    assert shortcodes - names == set(), (
        f"no example in docs/charts.md for {sorted(shortcodes - names)}"
    )
    kinds = {
        k for _, text in EXAMPLES for k in re.findall(r'kind="([a-z]+)"', text) if "chart" in text
    }
    chart_kinds = {p.stem for p in (ROOT / "layouts" / "_partials" / "chart-kinds").glob("*.html")}
    assert chart_kinds <= kinds, f"no example for chart kinds {sorted(chart_kinds - kinds)}"
    assert all((ROOT / "data" / study).is_dir() for study, _ in EXAMPLES)


def test_the_openings_name_every_shortcode_and_chart_kind():
    """docs/charts.md's opening says how many shortcodes there are and names each, and README's
    step on `index.md` shows each and every chart kind."""
    shortcodes = {p.stem for p in (ROOT / "layouts" / "_shortcodes").glob("*.html")}
    kinds = {p.stem for p in (ROOT / "layouts" / "_partials" / "chart-kinds").glob("*.html")}
    opening = (ROOT / "docs" / "charts.md").read_text().split("\n## ", 1)[0]
    words = [
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
    ]
    said = re.search(r"They use (\w+) shortcodes", opening)
    assert said and said.group(1) == words[len(shortcodes)], (
        said and said.group(1),
        len(shortcodes),
    )
    listed = opening.split("The shortcodes: ", 1)[1].split("\n\n", 1)[0]
    assert set(re.findall(r"`([a-z]+)`", listed)) == shortcodes | kinds
    step = (ROOT / "README.md").read_text().split(". In `index.md`, ", 1)[1].split("\n## ", 1)[0]
    assert {c for c in re.findall(r"\{\{< ([a-z]+)", step)} == shortcodes
    assert set(re.search(r'kind="([a-z|]+)"', step).group(1).split("|")) == kinds


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("docs-examples")
    for i, (study, text) in enumerate(EXAMPLES):
        post = tmp / "content" / "posts" / f"docs-example-{i:02d}"
        post.mkdir(parents=True)
        (post / "index.md").write_text(
            f'---\ntitle: "docs example {i}"\ndate: 2026-01-01\nstudy: {study}\nsummary: "An example of the charts\' documentation."\n---\n\n'
            f"{text}\n\nText.\n",  # first: an example of key results opens its post
            encoding="utf-8",
        )
    dest = tmp / "www" / "benchlog"
    build(
        dest, BASE_URL, extra=tmp, previews=False, own_content=False
    )  # raises with Hugo's errors if one fails
    return dest


@pytest.mark.parametrize(
    "i", range(len(EXAMPLES)), ids=[f"{i:02d}-{t[:40]}" for i, (_, t) in enumerate(EXAMPLES)]
)
def test_example_builds(site, i):
    """The example's page exists and its shortcodes rendered (no `{{<` left, a figure for a chart)."""
    html = (site / "posts" / f"docs-example-{i:02d}" / "index.html").read_text(encoding="utf-8")
    text = EXAMPLES[i][1]
    assert "{{&lt;" not in html and "{{<" not in html
    for m in re.finditer(r'\{\{< chart kind="([a-z]+)" id="([a-z0-9-]+)"', text):
        figure = re.search(
            rf'<figure class="chart" id="{m.group(2)}" data-kind="{m.group(1)}"', html
        )
        assert figure, m.group(0)
        if m.group(1) not in ("ratio", "plans"):  # drawn server-side; pending views get the SVG
            assert re.search(rf'id="{m.group(2)}-view"[^>]*><svg class="chart-svg', html), (
                f"no SVG for {m.group(2)}"
            )
