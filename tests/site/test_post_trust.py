"""Each study post opens with its key results (on the first screen of a desktop
and of a phone, each linking to the figure that shows it), names its original exactly as the
study's FACTS "Origin" does (title, link, authors, publisher, date; the dated archive page
where the exact URL is not confirmed) and shows dates at the precision known everywhere. Uses
the session's site build and Chromium. (Where each figure's numbers come from, the inputs'
notes and origins, the key results' place and numbers: make build's rules, publish/post_rules.py,
tests/site/test_post_rules.py.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from tests.kit.browser_kit import serve
from tests.kit.post_trust import (
    check_byline_and_key_results,
    check_date,
    check_key_refs_visible,
    check_key_results_on_screen,
)

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "studies"
STUDIES = sorted(
    p.parent.name
    for p in (ROOT / "content" / "posts").glob("*/index.md")
    if (ROOT / "data" / p.parent.name / "study.yaml").exists()
)


def front(study) -> dict:
    return yaml.safe_load(
        (ROOT / "content" / "posts" / study / "index.md").read_text().split("---\n", 2)[1]
    )


def origin_section(study) -> str:
    facts = (SHARED / study / "FACTS.md").read_text()
    return facts.split("## Origin", 1)[1].split("\n## ", 1)[0]


def described_by_shared(study) -> bool:
    """Whether ../shared speaks of the study: a FACTS of its own, or an input among its
    archives. A study of an author's own archive has nothing there to check its byline by."""
    if (SHARED / study / "FACTS.md").exists():
        return True
    manifest = ROOT / "content" / "posts" / study / "manifest.yaml"
    inputs = (yaml.safe_load(manifest.read_text()) or {}).get("inputs") if manifest.exists() else []
    return any((SHARED.parent / "archives" / i["name"]).exists() for i in inputs or [])


def origin_text(study) -> str:
    """What ../shared says of the study's original, whitespace folded: its FACTS "Origin", or,
    for an archive without a FACTS of its own, the files the byline's `described_in` names
    (paths under ../shared: the README's archives table, a FACTS naming the repository's
    author). A post with neither fails: no byline goes unchecked."""
    if (SHARED / study / "FACTS.md").exists():
        return re.sub(r"\s+", " ", origin_section(study))
    named = front(study)["original"].get("described_in") or []
    assert named, f"{study}: no ../shared/studies/{study}/FACTS.md and no original.described_in"
    texts = []
    for rel in named:
        path = (SHARED.parent / rel).resolve()
        assert path.is_file() and SHARED.parent.resolve() in path.parents, (study, rel)
        texts.append(path.read_text())
    return re.sub(r"\s+", " ", " ".join(texts))


def archive_addresses(text) -> set[str]:
    """The GitHub addresses of the result folders a text names as "github.com/<owner>/<repo> @
    <commit>, `<path>/`" (the shared README's archives table): a byline may link one of these,
    every part of it taken from the text."""
    found = re.findall(r"github\.com/([\w.-]+/[\w.-]+) @ ([0-9a-f]{7,40}),? `([^`]+)`", text)
    return {
        f"https://github.com/{repo}/tree/{commit}/{path.strip('/')}" for repo, commit, path in found
    }


def first_run_day(study) -> str | None:
    """The day the study's first run began (data/<study>/runs.yaml `start`), if any run has one."""
    runs_file = ROOT / "data" / study / "runs.yaml"
    if not runs_file.exists():
        return None
    starts = [
        str(r["start"]) for r in yaml.safe_load(runs_file.read_text())["runs"] if r.get("start")
    ]
    return min(starts)[:10] if starts else None


@pytest.mark.parametrize("study", STUDIES)
def test_byline_is_the_origin_in_facts(study):
    """Title, authors, publisher, date and link are those ../shared gives (FACTS "Origin", or
    what `described_in` names); a link FACTS does not confirm is its dated archive page, said
    so; a result folder's link is its repository, commit and path as the text names them; a
    date the text does not give is the day the archive's first run began; every credit link is
    in FACTS too."""
    if not described_by_shared(study):
        pytest.skip(f"{study}: an archive of its author's own, not in ../shared: no FACTS to check")
    o = front(study)["original"]
    origin = origin_text(study)
    # the original's title as FACTS quotes it, or a result folder as FACTS names its path
    named = re.search(r"`[^`]*/" + re.escape(o["title"]) + r"/?`", origin)
    assert f'"{o["title"]}"' in origin or named, (study, o["title"])
    assert o["url"] in origin or o["url"] in archive_addresses(origin), (study, o["url"])
    for author in o["authors"]:
        assert author in origin, (study, author)
    assert o["publisher"].split(" (")[0] in origin, (study, o["publisher"])
    assert str(o["date"]) in origin or str(o["date"]) == first_run_day(study), (study, o["date"])
    # a result folder's address is confirmed by the text naming its repository, commit and path
    folder = o["url"] in archive_addresses(origin)
    not_confirmed = "exact URL is not confirmed" in origin and not folder
    assert (o.get("url_is") == "archive") == not_confirmed, study
    facts = SHARED / study / "FACTS.md"
    whole = re.sub(r"\s+", " ", facts.read_text()) if facts.exists() else origin
    for credit in front(study).get("credits") or []:
        if credit.get("url"):
            assert credit["url"] in origin or credit["url"] in whole, credit


def test_the_byline_check_catches_an_invented_slug():
    """Negative control: the made-up cloud slug of the old post is not in FACTS."""
    origin = origin_text("myrocks-cloud-cost")
    assert "https://www.percona.com/blog/2018/08/01/myrocks-and-innodb-in-the-cloud/" not in origin


def test_the_archive_address_check_takes_only_what_the_text_names():
    """Negative control: an archive's address is its repository, commit and folder as the text
    gives them; another commit, a branch or a parent folder is not accepted."""
    text = "| `a.tar.gz` | github.com/someone/results @ 0123abc, `runs/run-7/` | a run |"
    assert archive_addresses(text) == {"https://github.com/someone/results/tree/0123abc/runs/run-7"}
    for wrong in ("tree/master/runs/run-7", "tree/0123abd/runs/run-7", "tree/0123abc/runs"):
        assert f"https://github.com/someone/results/{wrong}" not in archive_addresses(text)


@pytest.mark.parametrize("study", STUDIES)
def test_byline_and_key_results_open_the_post(study, built_site):
    check_byline_and_key_results(
        study, built_site.page(f"posts/{study}/index.html"), front(study)["original"]
    )


def test_the_byline_check_catches_a_missing_origin_note(built_site):
    """Negative control: a byline without a url must say the origin is not given."""
    html = built_site.page("posts/myrocks-cloud-cost/index.html")
    o = {k: v for k, v in front("myrocks-cloud-cost")["original"].items() if k != "url"}
    with pytest.raises(AssertionError):
        check_byline_and_key_results("myrocks-cloud-cost", html, o)


@pytest.mark.parametrize("study", STUDIES)
def test_dates_at_the_precision_known(study, built_site):
    check_date(study, front(study), built_site)


@pytest.fixture(scope="module")
def site_url(built_site):
    server, base = serve(built_site.www)
    yield f"{base}{built_site.base_path}"
    server.shutdown()


@pytest.mark.parametrize("viewport", [(1280, 900), (375, 812)], ids=["desktop", "phone"])
def test_key_results_are_on_the_first_screen(browser, site_url, viewport):
    """The last key result's box ends within the viewport's height, for every post, and the
    page does not scroll sideways."""
    width, height = viewport
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    try:
        for study in STUDIES:
            check_key_results_on_screen(page, f"{site_url}posts/{study}/", viewport)
    finally:
        context.close()


def test_each_key_result_leads_to_something_visible(browser, site_url):
    """A key result's link lands on a figure the reader sees: the target is not in a
    closed <details>, and it shows a drawn chart or a table with rows (a lazy table whose rows
    come only when opened, or a collapsed one, shows nothing: make build refuses such a ref,
    post/checks.html). Follows each link as a reader does, at phone width."""
    context = browser.new_context(viewport={"width": 375, "height": 812})
    page = context.new_page()
    try:
        for study in STUDIES:
            check_key_refs_visible(page, f"{site_url}posts/{study}/")
    finally:
        context.close()


def test_icp_counters_leave_room_for_the_values_on_a_phone(browser, site_url):
    """At 375 px the pinned Counter column of the ICP status counters breaks its
    names at underscores instead of taking most of the box, and the Unit column (a count on
    every row but one, whose unit goes with its name) is not shown."""
    context = browser.new_context(viewport={"width": 375, "height": 812})
    page = context.new_page()
    try:
        page.goto(f"{site_url}posts/index-condition-pushdown/")
        box, first, heads = page.evaluate("""() => {
            const t = document.querySelector('#status-counters table');
            const th = [...t.querySelectorAll('thead th')];
            return [t.parentElement.getBoundingClientRect().width, th[0].getBoundingClientRect().width,
                    th.map(h => h.getAttribute('data-key'))];
        }""")
        assert "unit" not in heads, heads
        assert first <= 0.4 * box, (first, box)
    finally:
        context.close()
