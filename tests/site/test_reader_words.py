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
# the versions view's table of extremes still has its English headings (CHANGELOG, Unreleased)
NOT_YET = {"layouts/_partials/chart-parts/versions-extremes-table.html"}


def words(text: str) -> list[str]:
    text = re.sub(r"\{\{-?\s*/\*.*?\*/\s*-?\}\}", "", text, flags=re.S)
    text = re.sub(r"\{\{.*?\}\}", "", text, flags=re.S)
    text = re.sub(r"&[a-z]+;|<[^>]*>", "", text)
    return [w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in NAMES]


@pytest.mark.parametrize("layout", LAYOUTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_layout_holds_words(layout):
    if str(layout.relative_to(ROOT)) in NOT_YET:
        pytest.skip("not yet in i18n")
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
