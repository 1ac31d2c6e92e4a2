"""The scaffold with hostile or odd inputs. Nothing it is given (an origin, a
study name, member names) can add a key to the front matter or the manifest: every file is
written with the YAML emitter; the origin is an http(s) URL without control characters; what it
writes, the ingest takes; it never crashes (exit 3) and never writes outside content/. And the
build fails when two pages claim one URL (an `aliases:` entry taking another post's URL)."""

from __future__ import annotations

import os
import stat
import threading

import pytest
import yaml

from ingest.__main__ import main
from tests.kit.sysbench_gen import sysbench_log, tar_gz


def new(tmp_path, study, archive, *extra) -> int:
    return main(["new", study, str(archive), "--content", str(tmp_path / "posts"), *extra])


@pytest.fixture
def archive(tmp_path):
    logs = {f"r_{e}.log": sysbench_log(400 + i * 100, seconds=20) for i, e in enumerate("abc")}
    return tar_gz(tmp_path / "a.tar.gz", logs)


@pytest.mark.parametrize(
    "origin",
    [
        'https://x.org/"\naliases: ["/posts/victim/"]\n',
        "https://x.org/\ndraft: true",
        "https://x.org/a\x08b",
        "javascript:alert(1)",
        "file:///etc/passwd",
        "https://",
        "https://x.org/a b",
    ],
    ids=["alias", "draft", "backspace", "javascript", "file", "no-host", "space"],
)
def test_an_origin_that_is_no_http_url_is_refused(tmp_path, archive, capsys, origin):
    """Before, a quote and a newline in --origin added `aliases:` (the new post took over
    another's URL, and Hugo built with rc 0), `draft: true`, or a backspace in the link."""
    assert new(tmp_path, "s", archive, "--origin", origin) == 1
    err = capsys.readouterr().err
    assert "--origin: " in err and "is not an http(s) URL" in err and "\n" not in err.rstrip("\n")
    assert not (tmp_path / "posts").exists()


def test_what_is_written_is_yaml_the_text_cannot_escape(tmp_path, capsys):
    """Member names with quotes, `#`, `: ` and a line separator land in comments and values,
    cleaned; the front matter and the manifest parse to exactly the keys the scaffold writes."""
    odd = "r'x: y #z\\draft: true"
    logs = {f"{odd}_{e}.log": sysbench_log(400, seconds=20) for e in ("innodb", "rocksdb")}
    arc = tar_gz(tmp_path / "q'uote #x: y.tar.gz", logs)
    bad = tar_gz(tmp_path / "q\u2028x.tar.gz", logs)  # a line break to YAML 1.1
    assert new(tmp_path, "odd", bad) == 1 and "rename the archive" in capsys.readouterr().err
    assert new(tmp_path, "odd", arc, "--origin", "https://x.org/a?b=c&d='e'#f") == 0
    post = tmp_path / "posts" / "odd"
    man = yaml.safe_load((post / "manifest.yaml").read_text())
    front = yaml.safe_load((post / "index.md").read_text().split("---\n", 2)[1])
    assert set(front) <= {
        *("title", "summary", "study", "tags", "engines", "versions", "benchmarks", "storage"),
        *("names", "original", "date"),
    }
    assert "draft" not in front and "aliases" not in front and "draft" not in man
    assert front["original"] == {"title": arc.name, "url": "https://x.org/a?b=c&d='e'#f"}
    assert man["inputs"][0]["name"] == arc.name
    assert main(["odd", "--content", str(tmp_path / "posts"), "--archives", str(tmp_path),
                 "--data", str(tmp_path / "data")]) == 0  # fmt: skip


def test_unicode_digits_in_member_names(tmp_path, capsys):
    """`r²x.log` (a superscript two: a digit to str.isdigit, not to a regex's [0-9]) crashed the
    scaffold with AttributeError; now it is a literal part of the rule, and the ingest takes it."""
    logs = {
        n: sysbench_log(400 + i, seconds=20)
        for i, n in enumerate(["r²x.log", "r³x.log", "r٣x.log"])
    }
    arc = tar_gz(tmp_path / "u.tar.gz", logs)
    assert new(tmp_path, "u", arc) == 0, capsys.readouterr().err
    assert main(["u", "--content", str(tmp_path / "posts"), "--archives", str(tmp_path),
                 "--data", str(tmp_path / "data")]) == 0  # fmt: skip
    runs = yaml.safe_load((tmp_path / "data" / "u" / "runs.yaml").read_text())["runs"]
    assert len(runs) == 3


def test_eight_hundred_interrupted_runs_give_a_rule_the_ingest_takes(tmp_path, capsys):
    """Before: one name per interrupted file in the rule's regex, a 10,000+ character rule the
    ingest refused. Now the rule skips them (`incomplete: skip`), each a warning."""
    logs = {
        f"run_{i:04d}_t{8 * (1 + i % 3)}.log": sysbench_log(400, seconds=12, complete=False)
        for i in range(800)
    }
    logs |= {
        f"run_{i:04d}_t{8 * (1 + i % 3)}.log": sysbench_log(400 + i, seconds=12)
        for i in range(800, 806)
    }
    arc = tar_gz(tmp_path / "i.tar.gz", logs)
    assert new(tmp_path, "i", arc) == 0, capsys.readouterr().err
    man = yaml.safe_load((tmp_path / "posts" / "i" / "manifest.yaml").read_text())
    assert all(len(r["regex"]) < 500 for r in man["runs"])
    assert main(["i", "--content", str(tmp_path / "posts"), "--archives", str(tmp_path),
                 "--data", str(tmp_path / "data")]) == 0  # fmt: skip
    assert len(yaml.safe_load((tmp_path / "data" / "i" / "runs.yaml").read_text())["runs"]) == 6
    assert capsys.readouterr().err.count("skipped (incomplete: skip)") == 800


@pytest.mark.parametrize(
    "study",
    ["x" * 300, "a_b", "a.b", "", "a\n", "Ab"],
    ids=["300", "underscore", "dot", "empty", "newline", "upper"],
)
def test_a_study_name_that_cannot_be_a_folder_and_url_is_refused(tmp_path, archive, capsys, study):
    assert new(tmp_path, study, archive) == 1
    assert "the study name must be a slug" in capsys.readouterr().err
    assert not (tmp_path / "posts").exists()


def test_a_read_only_content_folder_is_an_input_error(tmp_path, archive, capsys):
    posts = tmp_path / "posts"
    posts.mkdir()
    posts.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        if os.access(posts, os.W_OK):
            pytest.skip("running as a user who may write anywhere (root)")
        assert new(tmp_path, "ro", archive) == 1
        assert "cannot write" in capsys.readouterr().err
    finally:
        posts.chmod(stat.S_IRWXU)


def test_a_read_only_content_folder_is_an_input_error_even_for_root(
    tmp_path, archive, capsys, monkeypatch
):
    """Root writes anywhere: the OS error is simulated where the scaffold creates its files."""
    import ingest.scaffold as scaffold

    def refuse(path, text):
        raise OSError(30, "Read-only file system", str(path))

    monkeypatch.setattr(scaffold, "_create", refuse)
    assert new(tmp_path, "ro", archive) == 1
    err = capsys.readouterr().err
    assert "cannot write (Read-only file system)" in err and "internal error" not in err


def test_a_fifo_as_the_archive_is_refused_at_once(tmp_path, capsys):
    """Before, reading a FIFO hung the scaffold."""
    fifo = tmp_path / "a.tar.gz"
    os.mkfifo(fifo)
    done = []
    worker = threading.Thread(target=lambda: done.append(new(tmp_path, "f", fifo)), daemon=True)
    worker.start()
    worker.join(30)
    assert done == [1], "the scaffold waited on a FIFO"
    assert "not a directory or a regular file" in capsys.readouterr().err


def test_a_dangling_index_symlink_is_never_followed(tmp_path, archive, capsys):
    """A dangling content/posts/<study>/index.md symlink pointing out of content/: before, the
    scaffold wrote through it."""
    post = tmp_path / "posts" / "s"
    post.mkdir(parents=True)
    outside = tmp_path / "outside.md"
    (post / "index.md").symlink_to(outside)
    assert new(tmp_path, "s", archive) == 1
    assert "already exists" in capsys.readouterr().err
    assert not outside.exists() and not (post / "manifest.yaml").exists()


def test_a_symlinked_post_folder_is_never_written(tmp_path, archive):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "posts").mkdir()
    (tmp_path / "posts" / "s").symlink_to(elsewhere)
    assert new(tmp_path, "s", archive) == 1
    assert not list(elsewhere.iterdir())


def test_the_build_fails_when_two_pages_claim_one_url(tmp_path):
    """An `aliases:` entry naming another post's URL: Hugo built with rc 0 and the redirect took
    the other post's place. Now the build names the page and the URL."""
    from tests.kit.sitebuild import build

    posts = tmp_path / "content" / "posts"
    for name, extra in (("victim", ""), ("taker", 'aliases: ["/posts/victim/"]\n')):
        (posts / name).mkdir(parents=True)
        (posts / name / "index.md").write_text(
            f"---\ntitle: {name}\ndate: 2026-01-01\n{extra}---\n\nText.\n"
        )
    with pytest.raises(AssertionError) as e:
        build(tmp_path / "www" / "benchlog", "https://example.github.io/benchlog/", extra=tmp_path,
              previews=False, own_content=False)  # fmt: skip
    assert (
        'content/posts/taker/index.md: alias "/posts/victim/" is the URL of content/posts/victim/index.md'
        in str(e.value)
    )


def test_a_table_name_in_the_draft_prose_is_text_never_a_shortcode(tmp_path, capsys):
    """A summary-table archive whose table is named `load {{< provenance >}} *a*`: the
    draft's key results pasted it into the prose, where Hugo rendered 4 provenance blocks.
    Now the name is escaped: the body's shortcodes are only those the scaffold writes."""
    import re

    rows = "ips.av\tcpu\tengine\n1200\t41.5\tinno5717\n1100\t40.2\tmyrocks\n"
    text = f"10m rows / load\n{rows}\n\nload {{{{< provenance >}}}} *a*\nsecs\tengine\n12\tinno\n"
    arc = tar_gz(tmp_path / "t.tar.gz", {"bench.txt": text, "my.cnf": "[mysqld]\nx=1\n"})
    assert new(tmp_path, "sums", arc) == 0, capsys.readouterr().err
    body = (tmp_path / "posts" / "sums" / "index.md").read_text().split("\n---\n", 1)[1]
    assert body.count("{{< provenance >}}") == 1
    assert "&#123;&#123;&lt; provenance &gt;&#125;&#125; \\*a\\*" in body
    names = re.findall(r"\{\{< /?(\w+)", body)
    assert set(names) <= {"keyresults", "keyresult", "value", "table", "provenance"}, names


def test_a_layout_of_placeholders_side_by_side_drafts_in_bounded_time(tmp_path, capsys):
    """A DESC stating `<p0><p1>...<p9>-end.log`: its pattern backtracks on a name it misses,
    which Python's `re` tried for minutes, both when the layout was checked against the runs
    and when the rule was checked against the other members. Both now go through the
    budgeted path; the draft ends (the test's bound is far above its time)."""
    layout = "".join(f"<p{i}>" for i in range(10)) + "-end.log"
    logs = {f"{'x' * 12}{e}-end.log": sysbench_log(400 + i, seconds=20) for i, e in enumerate("ab")}
    logs["DESC"] = f"Layout: {layout}\n"
    logs[f"{'x' * 32}-enX.log"] = "not a run\n"  # minutes for Python's re
    arc = tar_gz(tmp_path / "l.tar.gz", logs)
    done: list[int] = []
    worker = threading.Thread(target=lambda: done.append(new(tmp_path, "lay", arc)), daemon=True)
    worker.start()
    worker.join(60)
    assert done == [0], capsys.readouterr().err
