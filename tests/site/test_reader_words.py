"""Every reader-facing word of the site is i18n/en.toml's: outside template actions, comments,
tags and entities, no layout holds a word, and every key a layout names exists."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYOUTS = sorted(p for p in (ROOT / "layouts").rglob("*") if p.is_file())
I18N = tomllib.loads((ROOT / "i18n" / "en.toml").read_text(encoding="utf-8"))
# names, not words: a file type, a hash's name, the feed's generator
NAMES = {"csv", "sha", "Hugo"}


def words(text: str) -> list[str]:
    text = re.sub(r"\{\{-?\s*/\*.*?\*/\s*-?\}\}", "", text, flags=re.S)
    text = re.sub(r"\{\{.*?\}\}", "", text, flags=re.S)
    text = re.sub(r"&[a-z]+;|<[^>]*>", "", text)
    return [w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in NAMES]


@pytest.mark.parametrize("layout", LAYOUTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_layout_holds_words(layout):
    assert not words(layout.read_text(encoding="utf-8"))


def test_the_check_sees_words():
    assert words('<p>{{ i18n "x" }} Pick {{ .id }}.csv &lt; <a title="t">see it</a></p>') == [
        "Pick",
        "see",
        "it",
    ]


def test_every_key_a_layout_names_exists():
    named = {k for p in LAYOUTS for k in re.findall(r'\bi18n "([a-z0-9_-]+)"', p.read_text())}
    assert len(named) > 100
    assert sorted(named - I18N.keys()) == []


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
