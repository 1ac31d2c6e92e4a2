"""The window-statistics rows of the time series charts (ingest/derive/window_stats.py): one row
per run with its window's statistics, headings as i18n keys the site defines, the CSV with the
same columns; and the layouts that were English-only now take their words from i18n."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
import yaml

from ingest.derive.window_stats import window_stats
from ingest.write.csvfiles import table_csv

ROOT = Path(__file__).resolve().parents[3]
I18N = tomllib.loads((ROOT / "i18n" / "en.toml").read_text(encoding="utf-8"))


def test_one_row_per_run_its_window_and_headings_as_keys():
    runs = [
        {
            "id": "a",
            "name": "A run",
            "window": {
                "mean": 10.5,
                "p1": 9,
                "p5": 9.5,
                "p50": 10,
                "p95": 12,
                "p99": 13,
                "cv": 0.05,
                "n": 3,
            },
        },
        {"id": "b", "window": None},
    ]
    t = window_stats(runs)
    assert [c["key"] for c in t["columns"]] == [
        "run", "name", "mean", "p1", "p5", "p50", "p95", "p99", "cv",
    ]  # fmt: skip
    assert all(c["i18n"] in I18N for c in t["columns"])
    assert t["rows"][0] == {"run": "a", "name": "A run", "mean": 10.5, "p1": 9, "p5": 9.5,
                            "p50": 10, "p95": 12, "p99": 13, "cv": 0.05}  # fmt: skip
    # a run without statistics: missing cells, never 0; its id stands for its name
    assert t["rows"][1]["name"] == "b" and t["rows"][1]["mean"] is None
    assert table_csv(t).splitlines()[0] == "run,name,mean,p1,p5,p50,p95,p99,cv"


STUDIES = sorted(p.parent.name for p in (ROOT / "data").glob("*/window-stats.yaml"))


@pytest.mark.parametrize("study", STUDIES)
def test_the_studies_rows_are_their_runs_windows(study):
    data = ROOT / "data" / study
    runs = yaml.safe_load((data / "runs.yaml").read_text(encoding="utf-8"))["runs"]
    t = yaml.safe_load((data / "window-stats.yaml").read_text(encoding="utf-8"))
    assert t == window_stats(runs)
    assert (data / "window-stats.csv").read_text(encoding="utf-8") == table_csv(t)


def test_some_study_has_them():
    assert len(STUDIES) >= 2


VERSIONS_VIEW = [
    "layouts/_partials/chart-kinds/versions.html",
    *sorted(
        str(p.relative_to(ROOT))
        for p in (ROOT / "layouts/_partials/chart-parts").glob("versions-*.html")
    ),
]


@pytest.mark.parametrize(
    "layout",
    [
        "layouts/compare.html",
        "layouts/404.html",
        "layouts/_partials/chart-parts/frame.html",
        *VERSIONS_VIEW,
    ],
)
def test_reader_words_come_from_i18n(layout):
    """Outside template actions, comments and tags, these layouts hold no words."""
    text = (ROOT / layout).read_text(encoding="utf-8")
    text = re.sub(r"\{\{-?\s*/\*.*?\*/\s*-?\}\}", "", text, flags=re.S)
    text = re.sub(r"\{\{.*?\}\}", "", text, flags=re.S)
    words = re.findall(r"[A-Za-z]{2,}", re.sub(r"<[^>]*>", "", text))
    assert not words, words


def js_strings(code: str) -> list[str]:
    """The string literals of a script, its comments left out: a template literal without its
    `${...}` parts, whose own literals follow it."""
    out, i = [], 0
    while i < len(code):
        c = code[i]
        if code.startswith("//", i):
            end = code.find("\n", i)
            i = len(code) if end < 0 else end
        elif code.startswith("/*", i):
            i = code.index("*/", i) + 2
        elif c in "'\"`":
            j, text, inner, depth = i + 1, "", "", 0
            while code[j] != c or depth:
                if depth:
                    depth += {"{": 1, "}": -1}.get(code[j], 0)
                    inner += code[j] if depth else " "
                elif code[j] == "\\":
                    j += 1
                elif c == "`" and code.startswith("${", j):
                    depth, j = 1, j + 1
                else:
                    text += code[j]
                j += 1
            out += [text, *js_strings(inner)]
            i = j + 1
        else:
            i += 1
    return out


# a reader's words in a literal: two words with a space between, or a capitalised word
WORDS = re.compile(r"[A-Za-z]+ +[A-Za-z]+|\b[A-Z][a-z]+\b")


def test_js_strings_finds_the_literals_not_the_comments():
    code = "// 'Not this'\nconst a = 'one y scale', b = `${x} of ${y}`; /* \"Nor this\" */ f(\"datum.x === 'a'\");"
    assert js_strings(code) == ["one y scale", " of ", "datum.x === 'a'"]
    assert js_strings("`${a ? 'Gain' : `${b}x`} y`") == [" y", "Gain", "x"]
    assert [s for s in js_strings(code) if WORDS.search(s)] == ["one y scale"]


def test_the_versions_script_takes_its_words_from_the_page():
    """The versions chart's script (controls, tooltips, the table of extremes it redraws) holds
    no reader words of its own: they come with the spec (`words`, from i18n)."""
    code = (ROOT / "assets/js/versions.js").read_text(encoding="utf-8")
    strings = js_strings(code)
    assert "facet" in strings  # the literals were found
    assert [s for s in strings if WORDS.search(s)] == []
