"""The build's post checks on hostile Markdown: a front matter of 2,000 nested lists was a
RecursionError (the build's internal error), and lazy `start.*?end` regexes rescanned the body
from every unclosed `{{<`, `<!--` or `](` (20,000 `{{<`: 44 s). Now the depth is a problem at
its line and the prose is read in one pass. Slow cases run in a thread joined with a bound
far above their time, so a regression fails instead of hanging the suite."""

from __future__ import annotations

import threading

import pytest

from publish import checks, post_source, prose


def within(seconds: float, fn, *args):
    got: list = []
    worker = threading.Thread(target=lambda: got.append(fn(*args)), daemon=True)
    worker.start()
    worker.join(seconds)
    assert got, f"{fn.__name__} still running after {seconds} s"
    return got[0]


def post(tmp_path, front: str, body: str = "Text.\n"):
    path = tmp_path / "p" / "index.md"
    path.parent.mkdir(exist_ok=True)
    path.write_text(f"---\ntitle: x\nsummary: y\n{front}---\n{body}")
    return path


@pytest.mark.parametrize("style", ["flow", "block"])
def test_a_deeply_nested_front_matter_is_a_problem_at_its_line(tmp_path, style):
    n = 2000
    names = (
        "names: " + "[" * n + "]" * n + "\n"
        if style == "flow"
        else "names:\n" + "".join("  " * i + "- \n" for i in range(n))
    )
    path = post(tmp_path, names)
    with pytest.raises(post_source.Unreadable) as e:
        post_source.read(path, [])
    line = 4 if style == "flow" else 4 + post_source.MAX_DEPTH
    assert str(e.value) == (
        f"{path}:{line}: the front matter nests more than {post_source.MAX_DEPTH} levels: "
        "flatten it (a post's front matter has a few)"
    )
    page = tmp_path / "index.html"
    page.write_text("<html><body><article><p>Text.</p></article></body></html>")
    assert str(e.value) in checks.check_post(page, path, [])


def test_a_front_matter_of_ordinary_depth_reads():
    assert post_source._too_deep("a: [[1, [2]], {b: [c]}]\n") is None


@pytest.mark.parametrize(
    "body",
    [
        "{{< " * 40_000,
        "<!--" * 40_000,
        "](" * 40_000,
        "```" * 20_000,
        ("[" * 10_000 + "\n") * 20,
        "".join("  " * i + "- x\n" for i in range(2_000)),
    ],
    ids=["shortcode", "comment", "link", "fence", "brackets", "nested-lists"],
)
def test_the_prose_of_a_hostile_body_is_read_in_one_pass(tmp_path, body):
    source = post_source.read(post(tmp_path, "", body), [])
    assert within(30, prose.typed_numbers, source) == []
    assert len(within(30, prose.prose, body)) == len(body)  # every offset kept


def test_the_one_pass_blanks_what_the_regexes_did():
    body = 'A {{< value table="t" caption="Cap 5" >}} [x](http://a/1) <!-- 7 --> `8` ```9```'
    kept = prose.prose(body)
    assert kept.split() == ["A", "Cap", "5", "[x]"] and len(kept) == len(body)
    assert kept.index("Cap 5") == body.index("Cap 5") and kept.index("[x]") == body.index("[x]")
