"""HTML size budget for every post (bytes of index.html in the session build), and the
ratio charts' JSON carrying their values once (a list per row, not an object per cell)."""
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# sysbench-regressions, the largest post, was 663 KB before the cuts in docs/performance.md
# and about 405 KB after; the budget leaves some room for more prose, not for duplication.
POST_BUDGET = 450_000


def test_every_post_is_within_the_html_budget(built_site):
    posts = sorted(p.name for p in (ROOT / "content" / "posts").iterdir() if p.is_dir())
    assert posts
    sizes = {p: len((built_site.site / "posts" / p / "index.html").read_bytes()) for p in posts}
    over = {p: s for p, s in sizes.items() if s >= POST_BUDGET}
    assert not over, over


def test_ratio_specs_carry_each_value_once(built_site):
    html = built_site.page("posts/sysbench-regressions/index.html")
    specs = [json.loads(s) for s in re.findall(r'<script type="application/json" id="[^"]+-spec">(.*?)</script>', html, re.S)]
    ratio = [s for s in specs if s.get("kind") == "ratio"]
    assert ratio
    for spec in ratio:
        assert "cells" not in spec
        assert list(spec["values"]) == spec["rows"] or set(spec["values"]) == set(spec["rows"])
        assert all(len(v) == len(spec["cols"]) for v in spec["values"].values())
