"""The rules every post follows are `make build`'s (publish/checks.py, docs/publishing.md "What
the build checks"): a small site of posts, each breaking one rule, fails its build with that
post's `file:line` and what to do, and a post that keeps them all (a heading naming the
versions its runs carry) passes. Then each rule on its own, on planted text (fast, no build)."""

from __future__ import annotations

import re

import pytest

from publish import post_rules, post_source, prose
from tests.kit.sitebuild import BASE_URL, ROOT, build

STUDY = """\
schema: 1
study: {study}
title: Versions
ingest_version: 0.1.0
inputs:
  - {{name: versions.tar.gz, kind: archive, sha256: "00", origin: "{origin}"{note}}}
interval_s: 1
metric: tps
window: {{start: 1, end: 4}}
labels: [server, version]
display:
  server: {{mysql-5-7-44: MySQL 5.7.44, mysql-8-0-36: MySQL 8.0.36}}
markers: []
tables: [tps, big]
problems: []
"""
RUNS = """\
runs:
  - {id: a, name: A, labels: {server: mysql-5-7-44, version: "5.7"}, published: true}
  - {id: b, name: B, labels: {server: mysql-8-0-36, version: "8.0"}, published: true}
"""
TPS = """\
id: tps
title: Mean TPS by version
columns:
  - {key: version, label: Version, kind: label}
  - {key: tps, label: Mean TPS, kind: number, digits: 1}
rows:
  - {version: "5.7", tps: 1234.5}
  - {version: "8.0", tps: 1100.25}
"""
KEYRESULTS = """\
{{< keyresults >}}
{{< keyresult ref="tps" >}}The fastest ran {{< value table="tps" col="tps" agg="max" >}} a second.{{< /keyresult >}}
{{< keyresult ref="tps" >}}The slowest ran {{< value table="tps" col="tps" agg="min" >}}.{{< /keyresult >}}
{{< keyresult ref="tps" >}}That was {{< value table="tps" col="tps" agg="min" show="version" >}}.{{< /keyresult >}}
{{< /keyresults >}}
"""
FRONT = 'title: "{name}"\ndate: 2019-06-12\nsummary: "What the versions did."\nstudy: {study}\n'
GOOD = KEYRESULTS + (
    "\n## Each server against MySQL 5.7 and 8.0\n\n"
    "MySQL 8.0.36 and mysql-5-7-44 ran the same test.\n\n"
    '{{< table id="tps" source="derived" caption="Mean TPS of MySQL 5.7 and 8.0" >}}\n'
)
# post -> (front matter lines added, body, a text on the line the problem names, what it says)
POSTS = {
    "rules-good": ("", GOOD, None, None),
    "rules-typed": (
        "",
        GOOD + "\nIt ran 1,234 transactions a second.\n",
        "1,234 transactions",
        "'1,234' is typed",
    ),
    "rules-caption": (
        "",
        GOOD.replace('caption="Mean TPS of', 'caption="4.78x faster: mean TPS of'),
        "4.78x faster",
        "'4.78' is typed",
    ),
    "rules-credits": (
        'credits: [{text: "Thanks for 12 runs."}]\n',
        GOOD,
        "Thanks for 12",
        "'12' is typed",
    ),
    "rules-unused-name": (
        'names: ["MySQL 9.9"]\n',
        GOOD,
        "MySQL 9.9",
        "names: 'MySQL 9.9' is not in the prose",
    ),
    "rules-wildcard": (
        'setup_figures: ["with 3"]\n',
        GOOD + "\nEach ran with 3 clients.\n",
        '["with 3"]',
        "'with 3' names no unit or thing",
    ),
    "rules-jargon": (
        "",
        GOOD + "\nThe spread over the manifest's window.\n",
        "manifest's window",
        "'the manifest' is the project's word",
    ),
    "rules-keyresults-late": (
        "",
        "Some words first.\n\n" + GOOD,
        "{{< keyresults >}}",
        "the key results open the post",
    ),
    "rules-keyresult-number": (
        "",
        GOOD.replace(
            'That was {{< value table="tps" col="tps" agg="min" show="version" >}}.',
            "That was the slowest.",
        ),
        "That was the slowest",
        "this key result quotes no number",
    ),
    "rules-original": (
        "original: {authors: [A. Author]}\n",
        GOOD,
        "original:",
        "original: has no title",
    ),
    "rules-date": (
        'original: {title: "Versions", date: "2019-07"}\n',
        GOOD,
        "date: 2019-06-12",
        "date: 2019-06-12 does not start with original.date '2019-07'",
    ),
    "rules-source": (
        "",
        GOOD.replace(' source="derived"', ""),
        '{{< table id="tps"',
        "table 'tps' does not say where its numbers come from",
    ),
    "rules-budget": (
        "",
        GOOD + '\n{{< table id="big" source="derived" >}}\n',
        '{{< table id="big"',
        "table `big` (5,000 rows): ",
    ),
}
CLAIMS = (
    "study: claims-study\ninputs:\n  - name: versions.tar.gz\n"
    '    origin: "The original\'s post of 2019-07"\n'
    '    note: "Every figure here is published."\n'
)


def write_study(data, study: str, origin: str, note: str = "") -> None:
    """A study's data/ as the ingest writes it: two runs of MySQL 5.7 and 8.0, a table of their
    mean TPS, and a table of 5,000 rows."""
    (data / "tables").mkdir(parents=True)
    (data / "study.yaml").write_text(STUDY.format(study=study, origin=origin, note=note))
    (data / "runs.yaml").write_text(RUNS)
    (data / "tables" / "tps.yaml").write_text(TPS)
    (data / "tables" / "tps.csv").write_text("version,tps\n5.7,1234.5\n8.0,1100.25\n")
    rows = "".join(f"  - {{run: r{i}, tps: {i}.5}}\n" for i in range(5000))
    (data / "tables" / "big.yaml").write_text(
        "id: big\ntitle: Every run\ncolumns:\n  - {key: run, label: Run, kind: label}\n"
        f"  - {{key: tps, label: TPS, kind: number, digits: 1}}\nrows:\n{rows}"
    )
    (data / "tables" / "big.csv").write_text("run,tps\n")


@pytest.fixture(scope="module")
def failed(tmp_path_factory) -> dict:
    """The build of those posts: its error (every problem, one line each), and the line each
    post's problem is expected at."""
    tmp = tmp_path_factory.mktemp("rules")
    write_study(tmp / "data" / "versions-study", "versions-study", "https://example.org/versions")
    note = ', note: "Every figure here is published."'
    write_study(
        tmp / "data" / "claims-study", "claims-study", "The original's post of 2019-07", note
    )
    posts = tmp / "content" / "posts"
    expected = {}
    claims = ('original: {title: "Versions", date: "2019-06"}\n', GOOD, None, None)
    for name, (front, body, marker, _) in {**POSTS, "rules-claims": claims}.items():
        study = "claims-study" if name == "rules-claims" else "versions-study"
        text = f"---\n{FRONT.format(name=name, study=study)}{front}---\n\n{body}"
        (posts / name).mkdir(parents=True)
        (posts / name / "index.md").write_text(text)
        if marker:
            expected[name] = next(n for n, x in enumerate(text.splitlines(), 1) if marker in x)
    (posts / "rules-claims" / "manifest.yaml").write_text(CLAIMS)
    with pytest.raises(AssertionError) as err:
        build(tmp / "www" / "benchlog", BASE_URL, extra=tmp, previews=False, own_content=False)
    return {"error": str(err.value), "lines": expected}


def lines_of(failed: dict, post: str) -> list[str]:
    return [x for x in failed["error"].splitlines() if f"/posts/{post}/" in x]


@pytest.mark.parametrize("post", [p for p in POSTS if POSTS[p][2]])
def test_the_build_fails_at_the_line_that_breaks_the_rule(failed, post):
    says, line = POSTS[post][3], failed["lines"][post]
    found = lines_of(failed, post)
    at = [x for x in found if f"/posts/{post}/index.md:{line}: " in x and says in x]
    assert at, found
    # what to do is said (a sentence after the reason), and nothing else of the post is reported
    assert len(at[0].split(": ", 1)[1]) > len(says) + 40
    if post != "rules-budget":
        assert len(found) == 1, found


def test_a_post_that_keeps_every_rule_passes(failed):
    """ "Each server against MySQL 5.7 and 8.0": versions the runs carry are names; so are the
    labels' values and display names ("mysql-5-7-44", "MySQL 8.0.36")."""
    assert "/posts/rules-good/" not in failed["error"]
    assert "python -m publish" in failed["error"].splitlines()[0]  # the pipeline's failure


def test_the_inputs_notes_and_origins_are_the_manifests_lines(failed):
    found = lines_of(failed, "rules-claims")
    assert any(
        "/posts/rules-claims/manifest.yaml:5: " in x and "'Every figure here is published'" in x
        for x in found
    ), found
    assert any(
        "/posts/rules-claims/manifest.yaml:4: " in x and "dates the original 2019-07" in x
        for x in found
    ), found
    assert len(found) == 2, found


def read(tmp_path, text: str, data=None) -> post_source.Source:
    path = tmp_path / "post" / "index.md"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)
    return post_source.read(path, [data.parent] if data else [])


def line_no(problem: str) -> int:
    return int(problem.split(": ", 1)[0].rsplit(":", 1)[1])


CLOUD = (ROOT / "content" / "posts" / "myrocks-cloud-cost" / "index.md").read_text()


def test_a_planted_typed_number_is_caught(tmp_path):
    """Each place a reader reads: the body, a key result, a caption, the summary; a number in a
    listed phrase passes, the same number alone does not; a listed phrase that names no unit is
    a wildcard."""
    assert prose.typed_numbers(read(tmp_path, CLOUD)) == []

    def typed(old: str, new: str) -> list[str]:
        return prose.typed_numbers(read(tmp_path, CLOUD.replace(old, new, 1)))

    found = typed("## Throughput\n", "## Throughput\n\nMyRocks is 4.78x faster on gp2.\n")
    line = CLOUD.splitlines().index("## Throughput") + 3
    assert len(found) == 1 and line_no(found[0]) == line and "'4.78'" in found[0]
    assert len(typed("{{< /keyresult >}}", " (about 2.5 times)\n{{< /keyresult >}}")) == 1
    assert typed("## Throughput\n", "## Throughput\n\n54 GB\n") == []
    assert len(typed("## Throughput\n", "## Throughput\n\n54 rows\n")) == 1
    assert len(typed('caption="', 'caption="4.78x faster. ')) == 1
    summary = typed('summary: "', 'summary: "4.78x faster. ')
    assert len(summary) == 1 and line_no(summary[0]) == 4
    wild = typed("setup_figures: [", 'setup_figures: ["with 3", ')
    assert any("names no unit or thing" in f for f in wild)


def test_versions_of_the_runs_are_names_and_a_typed_figure_is_not(tmp_path):
    data = tmp_path / "data" / "v"
    (data / "tables").mkdir(parents=True)
    (data / "study.yaml").write_text(
        "display:\n  version: {mysql-8-0-21: MySQL 8.0.21}\n  bp: {27: 27 GB}\n"
    )
    (data / "runs.yaml").write_text(
        'runs:\n  - {labels: {version: mysql-8-0-21, server: "5.7", threads: 64, tier: ubu2204}}\n'
    )
    names, versions = prose.run_names(data)
    assert sorted(names) == ["27 GB", "MySQL 8.0.21", "mysql-8-0-21", "ubu2204"]
    assert versions == {"8.0", "8.0.21", "5.7"}  # "64" (a number label) is no name
    text = "---\ntitle: x\nstudy: v\n---\n\n## MySQL 5.7 and 8.0 on ubu2204 at 27 GB\n\n{}\n"
    assert prose.typed_numbers(read(tmp_path, text.format("Both of them."), data)) == []
    for typed in ("It ran 1,234 TPS.", "At 64 threads.", "MySQL 8.4 was not run."):
        found = prose.typed_numbers(read(tmp_path, text.format(typed), data))
        assert len(found) == 1 and line_no(found[0]) == 8, (typed, found)


def test_the_jargon_check_catches_each_kind():
    for text in (
        "as the manifest declares; docs/manifest.md, Linked metrics",
        "computed by the ingest (version 0.1.0)",
        "the wrapper kept them for the first hour only",
        "Avg TPS over 24 values: lowest 132.67 (IOPS tier 5000)",
        "the window mean is the ingest's (data/<study>/runs.yaml)",
        "computed from their per-interval lines (by benchlog 0.1.0)",
        "published-tables.md (published-tables), from a blog",
    ):
        assert prose.jargon_in(text), text
    assert not prose.jargon_in("The original ran the benchmark for an hour; the data set is 91 GB.")


# one text per pattern of prose.JARGON, in its order
JARGON_TEXTS = [
    "see docs/charts.md",
    "listed in Runs.YAML",
    "under data/<study>",
    "The manifest names it",
    "made by the ingest",
    "then ingested",
    "the benchmark wrapper's log",
    "a wrapper's log",
    "tps over 24 values: lowest 1",
    "one study module each",
    "a Shortcode",
    "in its front matter",
    "by benchlog v0.1",
    "a tarball (archive)",
]


@pytest.mark.parametrize("pattern,text", list(zip(prose.JARGON, JARGON_TEXTS, strict=True)))
def test_each_jargon_pattern_is_found_where_it_alone_finds_it(pattern, text):
    """ANY_JARGON (the patterns joined, those at a word boundary behind one `\\b`) finds the
    same words at the same places as each pattern on its own."""
    alone = [(m.start(), m.group()) for m in re.finditer(pattern, f"{text}. {text}", re.I)]
    joined = [(m.start(), m.group()) for m in prose.ANY_JARGON.finditer(f"{text}. {text}")]
    assert alone and joined == alone


def test_prose_keeps_each_word_at_its_line():
    body = '\n{{< table id="x"\n caption="A 1" >}}\n```\n2\n```\n<!-- 3 -->\n1. four `5`\n[a](6)\n'
    kept = prose.prose(body)
    assert len(kept) == len(body) and kept.count("\n") == body.count("\n")
    assert re.findall(r"\d", kept) == ["1"] and kept.index("1") == body.index("A 1") + 2


def test_key_results_byline_and_sources_on_their_own(tmp_path):
    text = "---\ntitle: x\ndate: 2018-08-01\noriginal: {title: O, date: '2018-08'}\n---\n\n"
    ok = read(tmp_path, text + KEYRESULTS)
    assert post_rules.key_results(ok) == [] and post_rules.byline(ok) == []
    assert post_rules.byline(read(tmp_path, text.replace("'2018-08'", "'2018-09'")))
    assert post_rules.byline(read(tmp_path, text.replace("title: O, ", "")))
    figures = [
        ("table", "t", "<caption>x</caption>"),
        ("bars", "c", '<span class="source source-derived">'),
    ]
    assert [i for i, _ in post_rules.sources(figures)] == ["t"]


def test_the_projects_word_is_found_where_it_was_written(tmp_path):
    """A word the page shows is reported at the line that wrote it: the post's prose (across a
    line break), else its manifest (a table's title), never a comment; else the page's data."""
    source = read(
        tmp_path,
        "---\ntitle: x\n# the ingest, a comment\n---\n\n<!-- the manifest -->\nOver the\n"
        "manifest's window.\n",
    )
    (tmp_path / "post" / "manifest.yaml").write_text(
        "study: x  # the ingest\ntables:\n  - title: As the ingest computed it\n"
    )
    source = post_source.read(source.path, [])
    page = tmp_path / "index.html"
    page.write_text(
        "<p>Over the manifest’s window.</p><caption>As the ingest computed it</caption>"
        "<td>a shortcode</td><script>ingest</script>"
    )
    found = [p.split(": ", 1)[0] for p in prose.jargon(source, [page])]
    assert found == [
        f"{source.path}:7",
        f"{source.manifest}:3",
        f"{source.path} (the page's text, from data/post/)",
    ], found
