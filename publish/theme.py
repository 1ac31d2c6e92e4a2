"""The light theme's custom properties, read from assets/css/main.css: its one source.

The build draws every chart (publish/charts.py, with the kinds' own code) and every preview
(publish/previews.py) in the light theme's colours; main.css maps those to the page's custom
properties, so an inline drawing follows dark mode. Both read them here, from the stylesheet's
first `:root` rule, parsed with tinycss2 (pinned in pyproject.toml)."""

from __future__ import annotations

from pathlib import Path

import tinycss2

MAIN_CSS = Path(__file__).resolve().parent.parent / "assets" / "css" / "main.css"


def light_theme(css: str | None = None) -> dict[str, str]:
    """{"--bg": "#fdfdfc", "--fg": ..., "--font": ...}: the custom properties of the first
    top-level `:root` rule of `css` (main.css by default), values as written."""
    css = MAIN_CSS.read_text(encoding="utf-8") if css is None else css
    for rule in tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True):
        if rule.type == "qualified-rule" and tinycss2.serialize(rule.prelude).strip() == ":root":
            return {
                d.name: tinycss2.serialize(d.value).strip()
                for d in tinycss2.parse_blocks_contents(
                    rule.content, skip_comments=True, skip_whitespace=True
                )
                if d.type == "declaration" and d.name.startswith("--")
            }
    raise SystemExit(f"{MAIN_CSS}: no :root rule with the theme's custom properties")
