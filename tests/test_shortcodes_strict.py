"""Strict shortcodes: table, value and provenance reject unknown or positional parameters and
values they cannot use, with errorf and the position (file:line:col), instead of building a
page that silently ignores them. (Chart shortcodes: docs/charts.md, their own tests.)"""
from __future__ import annotations

import pytest

from sitebuild import build

POSTS = {   # post -> (its shortcode line, the message expected)
    "strict-colr": ('{{< table id="avg-tps" colr="red" >}}',
                    'table: unknown parameter "colr" (allowed: id, caption, collapsed, source, hide, lazy)'),
    "strict-collapsed": ('{{< table id="avg-tps" collapsed="yes" >}}', 'table: collapsed must be "true" or "false"'),
    "strict-value": ('{{< value table="ratio" col="ratio" agg="max" cols="x" >}}',
                     'value: unknown parameter "cols" (allowed: table, col, where, agg, over, overcol, digits, kind)'),
    "strict-digits": ('{{< value table="ratio" col="ratio" agg="max" digits="abc" >}}',
                      'value: digits must be a whole number, not "abc"'),
    "strict-provenance": ('{{< provenance extra="1" >}}', 'provenance: unknown parameter "extra" (it takes none)'),
    "strict-positional": ('{{< table "avg-tps" >}}', "table: positional parameters are not accepted"),
}


@pytest.fixture(scope="module")
def errors(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("strict")
    for name, (code, _) in POSTS.items():
        post = tmp / "content" / "posts" / name
        post.mkdir(parents=True)
        (post / "index.md").write_text(f'---\ntitle: "{name}"\ndate: 2026-01-01\nstudy: myrocks-cloud-cost\n---\n\n'
                                       f"Text.\n\n{code}\n")
    with pytest.raises(AssertionError) as e:
        build(tmp / "www" / "benchlog", "https://example.github.io/benchlog/", extra=tmp)
    return str(e.value)


@pytest.mark.parametrize("post", POSTS)
def test_bad_parameters_fail_the_build_with_the_position(errors, post):
    message = POSTS[post][1]
    assert message in errors
    line = next(x for x in errors.splitlines() if message in x)
    assert f"posts/{post}/index.md:9:1" in line     # the shortcode's own position


def test_only_the_bad_posts_fail(errors):
    """The project's own posts (with their valid parameters) build: every error is a strict-* post's."""
    lines = [x for x in errors.splitlines() if x.startswith("ERROR") and "error building site" not in x]
    assert len(lines) >= len(POSTS)
    assert all("/posts/strict-" in x for x in lines), [x for x in lines if "/posts/strict-" not in x][:3]
