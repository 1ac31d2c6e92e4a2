"""`python -m ingest new`: a study the project has never seen, from an archive written here
(sysbench 1.x logs with our own numbers, labels in the file names, a .tar.gz), goes to a
published post with no hand edit: scaffold -> ingest -> Hugo build -> the post has the time
series of the runs and a table of every run, and passes, as it is, the checks `make test` runs
on every post (numbers from data/, byline and key results, sources, dates, documented tables,
fresh ingest), with and without --origin. Plus the rule proposal and the Hugo archetype."""

from __future__ import annotations

import html
import json
import re
import subprocess

import pytest

from ingest.__main__ import main
from ingest.scaffold.names import propose
from publish.pipeline import HUGO
from tests.kit import fastyaml
from tests.kit.golden import ROOT
from tests.kit.post_checks import check_post_as_every_post
from tests.kit.sitebuild import BASE_PATH, BASE_URL, BuiltSite, build
from tests.kit.sysbench_gen import sysbench_log, tar_gz

ENGINES = {"innodb": 400.0, "rocksdb": 650.0}
IOPS = (1000, 3000)
VOLUME = (100, 400)
STUDIES = ("volume-study", "bare-study")


def rules(names, threads=None, stated=()):
    return [(p.regex, p.groups) for p in propose(names, threads or {}, list(stated))]


def test_rules_name_the_parts_of_names_that_vary_for_what_they_are():
    assert rules(["res_iops1000.txt", "res_iops3000.txt"]) == [
        (r"res_iops(?P<iops>[0-9]+)\.txt", [("iops", True, False)])
    ]
    assert rules(["a/innodb_5000iops_bp54GB.log", "a/rocksdb_5000iops_bp27GB.log"]) == [
        (
            r"a/(?P<engine>[A-Za-z]+)_5000iops_bp(?P<bp_gb>[0-9]+)GB\.log",
            [("engine", False, False), ("bp_gb", True, False)],
        )
    ]
    assert rules(["v5.6.1.log", "v8.0.22.log"])[0][0] == r"v(?P<version>[0-9]+(?:\.[0-9]+)+)\.log"
    # a server with its version (mysql-5-6-4), thread counts, sizes, storage types
    regex, groups = rules(["mysql-5-6-4/16thr_io1.log", "mysql-8-0-22/32thr_gp2.log"])[0]
    assert [g for g, _, _ in groups] == ["version", "threads", "storage"], regex
    regex, groups = rules(["tpcc_redo2GB_w1000.log", "tpcc_redo16GB_w2000.log"])[0]
    assert [(g, n) for g, n, _ in groups] == [("redo_gb", True), ("warehouses", True)], regex
    # folders whose names differ in shape vary as a whole, named by what their values are
    regex, groups = rules(
        [
            "mariadb-10.4.8/latin1_swedish_ci/8thr.log",
            "mysql-5.7.27/utf8mb4_unicode_520_ci/8thr.log",
        ]
    )[0]
    assert [g for g, _, _ in groups] == ["version", "collation"], regex
    # a time stamp that differs in every run is no label: a template field
    regex, groups = rules(["r_20200301-1530_innodb.log", "r_20200302-0910_rocksdb.log"])[0]
    assert groups == [("_started", False, True), ("engine", False, False)], regex
    # a number beside no word, when it is each run's thread count (as its log says)
    assert rules(["a/8.log", "a/16.log"], {"a/8.log": {8}, "a/16.log": {16}})[0][1] == [
        ("threads", True, False)
    ]


def test_labels_are_the_parts_a_reader_would_choose():
    """A version is the whole version, its build suffix part of it (a custom build is not the
    plain release); an OS release stays one word; one rule takes all of them."""
    names = [
        f"{os_}/{family}/{version}/Tier{tier}G_RW_{t}th.sysbench.txt"
        for os_ in ("ubu2204", "ubu2404")
        for family, version in (
            ("mysql", "8.0.36"),
            ("mysql", "8.0.36-custom"),
            ("mariadb", "10.11.6"),
            ("percona", "8.0.36-28"),
        )
        for tier in (2, 32)
        for t in (1, 16)
    ]
    (prop,) = propose(names, {}, [])
    assert [g for g, _, _ in prop.groups] == ["os", "server", "version", "tier_gb", "threads"]
    values = {re.fullmatch(prop.regex, n)["version"] for n in names}
    assert values == {"8.0.36", "8.0.36-custom", "10.11.6", "8.0.36-28"}
    assert {re.fullmatch(prop.regex, n)["os"] for n in names} == {"ubu2204", "ubu2404"}
    # a number named by the word before it, not `n`, unless the word says nothing of it
    assert rules(["a/wps=1000.log", "a/wps=2000.log"])[0][1] == [("wps", True, False)]
    assert rules(["a/node-1.log", "a/node-3.log"])[0][1] == [("node", True, False)]
    assert rules(["res_1.log", "res_2.log"])[0][1] == [("n", True, False)]
    # versions of one shape, with a build number: still whole
    (prop,) = propose(["ps/8.0.36-28/a.log", "ps/8.4.0-1/a.log"], {}, [])
    assert prop.groups == [("version", False, False)]
    assert re.fullmatch(prop.regex, "ps/8.4.0-1/a.log")["version"] == "8.4.0-1"


def test_names_of_several_shapes_get_a_rule_each_labelled_by_what_they_share():
    """Files named in several ways (as one author's runs grow): a rule per shape of name, each
    named token by token, and the words a rule's names share that say what they are become
    its constant labels; a shape of a single file is labelled by its words alone."""
    names = [
        "res_8thr_innodb_io1_1000iops.txt",
        "res_16thr_innodb_io1_3000iops.txt",
        "res_innodb_1000iops_bp9GB.txt",
        "res_rocksdb_1000iops_bp9GB.txt",
        "res_tokudb_32thr_gp2.txt",
    ]
    got = [(p.regex, [g for g, _, _ in p.groups], p.constants) for p in propose(names, {}, [])]
    assert got == [
        (
            r"res_(?P<threads>[0-9]+)thr_innodb_io1_(?P<iops>[0-9]+)iops\.txt",
            ["threads", "iops"],
            {"engine": "innodb", "storage": "io1"},
        ),
        (
            r"res_(?P<engine>[A-Za-z]+)_1000iops_bp9GB\.txt",
            ["engine"],
            {"iops": "1000", "bp_gb": "9"},
        ),
        (
            r"res_tokudb_32thr_gp2\.txt",
            [],
            {"engine": "tokudb", "threads": "32", "storage": "gp2"},
        ),
    ]
    # one shape of name: no constant labels (a word every run shares tells no run apart)
    assert all(not p.constants for p in propose(names[:2], {}, []))


def test_only_rules_that_give_their_runs_the_same_labels_get_a_set_label(tmp_path):
    """Two shapes of name whose words tell their runs apart in none of the labels (`_direct`
    is no word a label is named for): those two rules get `set`, the others none."""
    arc = tmp_path / "a.tar.gz"
    tar_gz(
        arc,
        {
            "r_innodb_t8.log": sysbench_log(400, threads=8),
            "r_innodb_t16.log": sysbench_log(500, threads=16),
            "r_rocksdb_2000iops.log": sysbench_log(600, threads=8),
            "r_rocksdb_2000iops_direct.log": sysbench_log(700, threads=8),
        },
    )
    assert main(["new", "s-study", str(arc), "--content", str(tmp_path / "c")]) == 0
    man = fastyaml.load((tmp_path / "c" / "s-study" / "manifest.yaml").read_text())
    sets = [r.get("labels", {}).get("set") for r in man["runs"]]
    assert sets == [None, "s2", "s3"] and "set" in man["labels"], man["runs"]


def test_a_layout_stated_in_a_desc_names_the_labels():
    names = ["a-b/x_y/8t.log", "c/z/16t.log"]
    assert rules(names, stated=[("DESC", "<server>/<collation>/<threads>t.log")]) == [
        (
            r"(?P<server>[^/]+?)/(?P<collation>[^/]+?)/(?P<threads>[0-9]+)t\.log",
            [("server", False, False), ("collation", False, False), ("threads", True, False)],
        )
    ]


@pytest.fixture(scope="module")
def post(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("new")
    logs = {
        f"sb_{e}_iops{i}_vol{v}gb.log": sysbench_log(rate + i / 50 + v / 10, seconds=40, threads=16)
        for e, rate in ENGINES.items()
        for i in IOPS
        for v in VOLUME
    }
    logs["sb_innodb_iops9000_vol100gb.log"] = ""  # an empty file named like a run
    logs["run_all.sh"] = (
        "#!/bin/sh\nfor e in innodb rocksdb; do sysbench oltp_read_write run; done\n"
    )
    (tmp / "archives").mkdir()
    tar_gz(tmp / "archives" / "volumes-2026.tar.gz", logs, top="volumes-2026")
    posts, archive = tmp / "content" / "posts", str(tmp / "archives" / "volumes-2026.tar.gz")
    origin = ["--origin", "https://example.org/volumes"]
    assert main(["new", "volume-study", archive, *origin, "--content", str(posts)]) == 0
    # the same archive without --origin: the post must say so, never link to a made-up address
    assert main(["new", "bare-study", archive, "--content", str(posts)]) == 0
    for study in STUDIES:
        where = ["--archives", str(tmp / "archives"), "--data", str(tmp / "data")]
        assert main([study, "--content", str(posts), *where]) == 0
    site = tmp / "www" / "benchlog"
    build(site, BASE_URL, extra=tmp, previews=False, own_content=False)  # its posts alone
    return {
        "tmp": tmp,
        "dir": posts / "volume-study",
        "html": (site / "posts" / "volume-study" / "index.html").read_text(),
        "site": site,
        "built": BuiltSite(tmp / "www", site, BASE_URL, BASE_PATH),
    }


def test_scaffold_writes_a_manifest_and_a_post(post):
    man = fastyaml.load((post["dir"] / "manifest.yaml").read_text())
    assert man["labels"] == ["engine", "iops", "vol_gb"] and man["label_types"] == {
        "iops": "int",
        "vol_gb": "int",
    }
    assert man["label_names"] == {"engine": "Engine", "iops": "IOPS", "vol_gb": "Vol GB"}
    assert man["display"] == {"engine": {"innodb": "InnoDB", "rocksdb": "MyRocks"}}
    assert len(man["runs"]) == 1 and "(?P<iops>[0-9]+)" in man["runs"][0]["regex"]
    assert man["inputs"][0]["origin"] == "https://example.org/volumes"
    import hashlib

    with open(post["tmp"] / "archives" / "volumes-2026.tar.gz", "rb") as f:
        assert man["inputs"][0]["sha256"] == hashlib.sha256(f.read()).hexdigest()
    assert man["window"] == {"start": 4, "end": 40} and man["interval_s"] == 1
    text = (post["dir"] / "manifest.yaml").read_text()
    assert (
        "#   run_all.sh: unknown format" in text and "#   sb_innodb_iops9000_vol100gb.log: " in text
    )
    # the empty file named like a run is left out by name
    assert "(?!(?:.*/)?(?:sb_innodb_iops9000_vol100gb\\.log)$)" in man["runs"][0]["regex"]
    # the hints name the optional sections, as the manifest takes them
    assert (
        "# label_names: add `label_names: {<label>: <heading>}`" in text
        and "# base: add `base:" in text
    )
    # key results compare across the label that varies most, from a declared table
    assert man["tables"][0]["id"] == "mean-by-engine" and man["tables"][0]["rows"] == ["engine"]
    front = fastyaml.load((post["dir"] / "index.md").read_text().split("---")[1])
    taxonomies = re.findall(
        r'^\w+ = "(\w+)"$',
        (ROOT / "config.toml").read_text().split("[taxonomies]")[1].split("[")[0],
        re.M,
    )
    assert set(taxonomies) <= set(front) and front["study"] == "volume-study"
    assert front["engines"] == ["InnoDB", "MyRocks"] and front["title"] == "Volume study"
    # the archive's members carry no time (tar's 0): no date, and a note asks for one
    assert (
        "date" not in front and "add `date: YYYY-MM-DD`" in (post["dir"] / "index.md").read_text()
    )


def test_new_says_what_to_run_next(post, capsys, tmp_path):
    """`new` prints the exact ingest command (the archive's folder as ARCHIVES) and make build;
    the manifest's header gives the same ingest command."""
    archive = post["tmp"] / "archives" / "volumes-2026.tar.gz"
    assert main(["new", "next-study", str(archive), "--content", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    command = f"make ingest STUDY=next-study ARCHIVES={archive.parent}"
    assert out[-2].startswith(f"next: {command}   (") and out[-1].startswith("then: make build   (")
    assert (
        f"# `{command}` reports what each rule took."
        in (tmp_path / "next-study" / "manifest.yaml").read_text()
    )


def test_an_archive_of_summary_tables_is_drafted_as_file_tables(tmp_path):
    """An archive with no run but summary tables (an insert benchmark's results file): a
    `file_tables:` entry per kind of table, its pattern taking each name, the parts that vary
    named only where the names say what they are (`wps=`), else `partN`; the post's key results
    from the smallest table, shown open. It ingests as drafted."""
    rows = "ips.av\tcpu\tengine\n1200\t41.5\tinno5717\n1100\t40.2\tmyrocks\n"
    summary = "\n\n".join(
        [f"{n}m rows, wps={w} / load\n{rows}" for n in (10, 50) for w in (100, 1000)]
        + ["10m rows / scan\nsecs\tengine\n12\tinno5717\n9\tmyrocks\n"]
    )
    (tmp_path / "archives").mkdir()
    arc = tar_gz(
        tmp_path / "archives" / "sums.tar.gz", {"bench.txt": summary, "my.cnf": "[mysqld]\nx=1\n"}
    )
    posts = tmp_path / "c"
    assert main(["new", "sum-study", str(arc), "--content", str(posts)]) == 0
    man = fastyaml.load((posts / "sum-study" / "manifest.yaml").read_text())
    assert man["files"] == [{"glob": "bench.txt", "format": "summary-table"}]
    load, scan = man["file_tables"]
    assert load["table"] == r"(?P<part1>[0-9]+)m\ rows,\ wps=(?P<wps>[0-9]+)\ /\ load"
    assert scan["table"] == r"10m\ rows\ /\ scan" and "labels" not in scan
    body = (posts / "sum-study" / "index.md").read_text()
    assert body.count('{{< keyresult ref="scan" >}}') == 3  # the smallest table: secs
    assert '{{< table id="scan" source="published" >}}' in body
    assert (
        main(
            [
                "sum-study",
                "--content",
                str(posts),
                "--archives",
                str(arc.parent),
                "--data",
                str(tmp_path / "d"),
            ]
        )
        == 0
    )
    t = fastyaml.load((tmp_path / "d" / "sum-study" / "tables" / "load.yaml").read_text())
    assert [(r["part1"], r["wps"], r["engine"]) for r in t["rows"]][:3] == [
        ("10", "100", "inno5717"),
        ("10", "100", "myrocks"),
        ("10", "1000", "inno5717"),
    ]


def test_an_archive_with_no_run_and_no_number_to_draft_is_told_why(tmp_path, capsys):
    """Tables whose numbers have no name to say them by (columns `1`, `2`): no draft, exit 1, the
    file and its tables named, and `file_tables:` to declare them."""
    summary = (
        "## Scan\n\n| 1 | 2 | engine |\n|---|---|---|\n| 12 | 3 | inno5717 |\n| 9 | 4 | myrocks |\n"
    )
    arc = tar_gz(tmp_path / "sums.tar.gz", {"scan.md": summary})
    assert main(["new", "sum-study", str(arc), "--content", str(tmp_path / "c")]) == 1
    err = capsys.readouterr().err
    assert "scan.md holds 1 markdown-tables table(s)" in err and "file_tables:" in err, err
    assert "Traceback" not in err and not (tmp_path / "c").exists()


def test_scaffold_never_overwrites(post, capsys):
    code = main(
        [
            "new",
            "volume-study",
            str(post["tmp"] / "archives" / "volumes-2026.tar.gz"),
            "--content",
            str(post["dir"].parent),
        ]
    )
    assert code == 1 and "already exists" in capsys.readouterr().err


def test_the_post_has_the_time_series_and_every_run(post):
    runs = fastyaml.load((post["tmp"] / "data" / "volume-study" / "runs.yaml").read_text())["runs"]
    assert len(runs) == 8 and all(r["window"]["n"] == 36 for r in runs)
    page = post["html"]
    assert '<figure class="chart" id="over-time" data-kind="timeseries"' in page
    for r in runs:
        assert (post["site"] / "data" / "volume-study" / "series" / f"{r['id']}.json").is_file()
        assert f"data/volume-study/series/{r['id']}.csv" in page  # the file list; the spec
    assert '"series":"/benchlog/data/volume-study/series/"' in page  # names their folder once
    table = page.split('id="runs-table"')[1].split("</table>")[0]
    rows = re.findall(r"<tr><td>([^<]+)</td>.*?</tr>", table, re.S)
    assert sorted(rows) == sorted(r["id"] for r in runs)
    for r in runs:
        row = re.search(rf"<tr><td>{re.escape(r['id'])}</td>(.*?)</tr>", table, re.S)[1]
        assert f">{r['window']['mean']:.2f}</td>" in row
    assert "volumes-2026.tar.gz" in html.unescape(page) and "https://example.org/volumes" in page


@pytest.mark.parametrize("study", STUDIES)
def test_the_scaffolded_post_passes_the_checks_of_every_post(post, study):
    """The post exactly as `new` + the ingest leave it builds (make build's rules: no digit typed
    into the prose, every figure's source, key results first ...) and passes the very functions
    tests/site/test_posts_numbers.py, test_post_trust.py and test_studies_ingest.py run on every
    post: its numbers come from data/ as rendered, it opens with the byline and key results,
    its date is known to the day, its tables are documented, its data is a fresh ingest."""
    check_post_as_every_post(study, post["built"], post["tmp"], post["dir"].parent)


def test_the_byline_says_whether_the_origin_is_given(post):
    with_origin = fastyaml.load((post["dir"] / "index.md").read_text().split("---\n", 2)[1])[
        "original"
    ]
    assert with_origin == {"title": "volumes-2026.tar.gz", "url": "https://example.org/volumes"}
    bare = post["built"].page("posts/bare-study/index.html")
    assert (
        "(its origin is not given)" in bare
        and 'class="original" href' not in bare.split("</header>")[0]
    )


@pytest.mark.parametrize("viewport", [(1280, 900), (375, 812)], ids=["desktop", "phone"])
def test_the_scaffolded_key_results_are_on_the_first_screen(post, browser, viewport):
    from tests.kit.browser_kit import serve
    from tests.kit.post_trust import check_key_results_on_screen

    server, base = serve(post["built"].www)
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    try:
        for study in STUDIES:
            check_key_results_on_screen(
                context.new_page(), f"{base}{BASE_PATH}posts/{study}/", viewport
            )
    finally:
        context.close()
        server.shutdown()


def test_hugo_new_content_uses_the_posts_archetype(tmp_path):
    import shutil

    # a copy of the project's config and archetypes, so that nothing is written into content/
    shutil.copy(ROOT / "config.toml", tmp_path / "config.toml")
    shutil.copytree(ROOT / "archetypes", tmp_path / "archetypes")
    (tmp_path / "content").mkdir()
    out = subprocess.run(
        [str(HUGO), "new", "content", "posts/fresh-study/index.md", "--source", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    assert not (ROOT / "content" / "posts" / "fresh-study").exists()
    text = (tmp_path / "content" / "posts" / "fresh-study" / "index.md").read_text()
    front = fastyaml.load(text.split("---")[1])
    assert front["title"] == "Fresh study" and front["study"] == "fresh-study"
    for key in ("tags", "engines", "versions", "benchmarks", "storage", "date", "summary"):
        assert key in front
    assert front["original"] == {"title": "Still to be named"}  # no url: the byline says so
    # the scaffold's post body: key results, time series, default tables, provenance
    for code in (
        "{{< keyresults >}}",
        '{{< chart kind="timeseries" id="over-time" source="derived"',
        '{{< table id="runs" source="derived" >}}',
        '{{< table id="jitter" source="derived" collapsed="true" >}}',
        "{{< provenance >}}",
    ):
        assert code in text
    assert (
        len(re.findall(r"\{\{< keyresult ref=", text)) == 3
        and len(re.findall(r"\{\{< value ", text)) == 8
    )


def test_threads_becomes_a_label_when_thread_counts_vary(tmp_path):
    """Runs at different thread counts get a `threads` label even when their names differ
    otherwise; not when every run has the same count, nor when a number in the names is it."""

    def labels(logs):
        arc = tmp_path / f"a{len(list(tmp_path.iterdir()))}.tar.gz"
        tar_gz(arc, logs)
        out = tmp_path / f"c{len(list(tmp_path.iterdir()))}"
        assert main(["new", "t-study", str(arc), "--content", str(out)]) == 0
        return fastyaml.load((out / "t-study" / "manifest.yaml").read_text())["labels"]

    assert labels(
        {
            "r_innodb.log": sysbench_log(400, threads=8),
            "r_rocksdb.log": sysbench_log(600, threads=16),
        }
    ) == ["engine", "threads"]
    assert labels(
        {
            "r_innodb.log": sysbench_log(400, threads=8),
            "r_rocksdb.log": sysbench_log(600, threads=8),
        }
    ) == ["engine"]
    assert labels(
        {
            "r_innodb_t8.log": sysbench_log(400, threads=8),
            "r_innodb_t16.log": sysbench_log(600, threads=16),
        }
    ) == ["threads"]  # t8, t16: the number beside `t` is the thread count


def test_a_monitor_named_by_a_time_stamp_is_linked_through_a_template_field(tmp_path):
    """Runs `res_<stamp>_<engine>.log` with `vm_<stamp>.txt` beside them: the stamp is no label
    (the engines tell the runs apart) but a template field, `_started`, which the proposed
    `linked:` uses; the ingest joins each run to its own vmstat. Before, a linked template
    could name labels only (one study needed 8 near-copies of a rule)."""
    from tests.kit.archive_gen import vmstat_text

    logs = {}
    for i, (stamp, engine) in enumerate(
        [("20200301-1530", "innodb"), ("20200302-0910", "rocksdb")]
    ):
        logs[f"res_{stamp}_{engine}.log"] = sysbench_log(400 + 100 * i, seconds=30)
        logs[f"vm_{stamp}.txt"] = vmstat_text(30, seed=i, busy=40 + 20 * i)
    tar_gz(tmp_path / "m.tar.gz", logs)
    posts = tmp_path / "posts"
    assert main(["new", "m", str(tmp_path / "m.tar.gz"), "--content", str(posts)]) == 0
    man = fastyaml.load((posts / "m" / "manifest.yaml").read_text())
    assert man["labels"] == ["engine"] and "(?P<_started>" in man["runs"][0]["regex"]
    assert man["runs"][0]["linked"]["vmstat"] == "vm_{_started}.txt"
    assert (
        main(
            [
                "m",
                "--content",
                str(posts),
                "--archives",
                str(tmp_path),
                "--data",
                str(tmp_path / "data"),
            ]
        )
        == 0
    )
    runs = fastyaml.load((tmp_path / "data" / "m" / "runs.yaml").read_text())["runs"]
    assert [r["id"] for r in runs] == ["innodb", "rocksdb"]
    assert [r["labels"] for r in runs] == [{"engine": "innodb"}, {"engine": "rocksdb"}]
    us = [
        json.loads((tmp_path / "data" / "m" / "series" / f"{r['id']}.linked.json").read_text())[
            "vm.us"
        ]
        for r in runs
    ]
    assert sum(us[0]) / len(us[0]) < sum(us[1]) / len(us[1])  # each run its own monitor


def test_a_sar_report_beside_each_run_is_proposed_as_linked(tmp_path):
    """A folder per run with its sysbench log and `sar -u -P ALL` report: the draft links the
    report (`linked: {sar: ...}`, read by a `files:` rule of format sar), with sar's CPU panels
    and the CPU per operation, and the ingest puts each run's whole-machine %user on its clock."""
    from tests.kit.archive_gen import sar_text

    members = {}
    for engine, busy in (("innodb", 30), ("rocksdb", 50)):
        members[f"{engine}/sysbench.log"] = sysbench_log(500, seconds=30)
        members[f"{engine}/sar.txt"] = sar_text(30, busy=busy)
    tar_gz(tmp_path / "s.tar.gz", members)
    posts = tmp_path / "posts"
    assert main(["new", "s", str(tmp_path / "s.tar.gz"), "--content", str(posts)]) == 0
    man = fastyaml.load((posts / "s" / "manifest.yaml").read_text())
    linked = man["runs"][0]["linked"]
    assert linked["sar"] == "{engine}/sar.txt" and linked["interval_s"] == 1
    assert linked["panels"] == ["sar.%user", "sar.%iowait", "cpu_per_op"]
    assert {"glob": "*/sar.txt", "format": "sar"} in man["files"]
    data = ["--archives", str(tmp_path), "--data", str(tmp_path / "data")]
    assert main(["s", "--content", str(posts), *data]) == 0
    for run in fastyaml.load((tmp_path / "data" / "s" / "runs.yaml").read_text())["runs"]:
        series = json.loads(
            (tmp_path / "data" / "s" / "series" / f"{run['id']}.linked.json").read_text()
        )
        busy = 30 if run["labels"]["engine"] == "innodb" else 50
        assert series["sar.%user"] == pytest.approx([busy + i / 10 for i in range(1, 31)])
        assert all(v is not None for v in series["cpu_per_op"])


def test_monitors_named_as_their_run_are_linked_with_their_offset_from_the_data(tmp_path):
    """`Tier<N>G_RW_<T>th.<tool>.txt`: vmstat and iostat named as each run but for the tool,
    each started 0-25 s before its run (a number of its own) and stopped with it: the draft
    links both with `offset_s: run-end`, leaves out the empty monitors by name, and the ingest
    puts every run's last sample at its end, with no problem but the run missing its iostat."""
    from tests.kit.tiers_gen import tiers

    arc, _ = tiers(tmp_path, seconds=20, threads=(1, 64))
    posts = tmp_path / "posts"
    assert main(["new", "t", str(arc), "--content", str(posts)]) == 0
    man = fastyaml.load((posts / "t" / "manifest.yaml").read_text())
    (rule,) = man["runs"]
    linked = rule["linked"]
    assert linked["vmstat"] == "{os}/{server}/{version}/Tier{tier_gb}G_RW_{threads}th.vmstat.txt"
    assert linked["iostat"] == linked["vmstat"].replace("vmstat", "iostat")
    assert linked["offset_s"] == "run-end" and linked["interval_s"] == 1
    assert {f["format"] for f in man["files"]} == {"vmstat", "iostat"}
    where = ["--archives", str(tmp_path), "--data", str(tmp_path / "data")]
    assert main(["t", "--content", str(posts), *where]) == 0
    runs = fastyaml.load((tmp_path / "data" / "t" / "runs.yaml").read_text())["runs"]
    with_monitors = [r for r in runs if r.get("linked")]
    assert len(with_monitors) == len(runs) - 1  # the run whose monitors are empty
    offsets = {r["linked"]["offset_s"] for r in with_monitors}
    assert len(offsets) > 5 and all(-25 <= o <= 0 for o in offsets)
    study = fastyaml.load((tmp_path / "data" / "t" / "study.yaml").read_text())
    problems = [str(p) for p in study.get("problems", [])]
    assert [p for p in problems if "ends at" in p] == []
    missing = "no ubu2204/mysql/8.0.36/Tier2G_RW_64th.iostat.txt in the input (missing or empty)"
    assert [p for p in problems if missing in p], problems
    # the rest: each empty monitor file the draft's `incomplete: skip` passed over, by name
    others = [p for p in problems if missing not in p]
    assert others and all(p.endswith("empty file; skipped (incomplete: skip)") for p in others)


def test_rules_linking_alike_declare_it_once(tmp_path):
    """Runs of two shapes of name (two rules), each with a vmstat in its folder: what the rules
    share is said once, in the top-level `linked:`, each rule keeping its own template."""
    from tests.kit.archive_gen import vmstat_text

    logs = {}
    folders = [
        "res_8thr_innodb_io1",
        "res_16thr_innodb_io1",
        "res_innodb_bp9GB",
        "res_rocksdb_bp9GB",
    ]
    for i, folder in enumerate(folders):
        logs[f"{folder}/run.log"] = sysbench_log(400 + 100 * i, seconds=30)
        logs[f"{folder}/vmstat.log"] = vmstat_text(30, seed=i)
    tar_gz(tmp_path / "m.tar.gz", logs)
    posts = tmp_path / "posts"
    assert main(["new", "m", str(tmp_path / "m.tar.gz"), "--content", str(posts)]) == 0
    man = fastyaml.load((posts / "m" / "manifest.yaml").read_text())
    assert len(man["runs"]) == 2
    assert man["linked"] == {"interval_s": 1, "panels": ["vm.us", "vm.wa", "vm.cs"]}
    assert [set(r["linked"]) for r in man["runs"]] == [{"vmstat"}, {"vmstat"}]
    where = ["--archives", str(tmp_path), "--data", str(tmp_path / "data")]
    assert main(["m", "--content", str(posts), *where]) == 0
    runs = fastyaml.load((tmp_path / "data" / "m" / "runs.yaml").read_text())["runs"]
    assert all(r["linked"]["panels"] == ["vm.us", "vm.wa", "vm.cs"] for r in runs)


def test_a_comparison_of_many_values_draws_a_spread_of_them():
    """Past PICKED runs, the charts take the compared runs only, spread over the compared
    values (the first and the last kept), and the time series draws first only runs it has."""
    from ingest.scaffold import post

    doc = {"labels": ["engine", "threads"], "label_types": {"threads": "int"}, "runs": [{}]}
    labels = [{"engine": e, "threads": str(t)} for e in ("innodb", "rocksdb") for t in range(1, 41)]
    p = post.plan(doc, labels, {"sysbench1"})
    assert p.label == "threads" and len(p.compared) == post.PICKED
    assert p.compared[0] == "innodb-1" and p.compared[-1] == "innodb-40"
    assert p.show and set(p.show) <= set(p.compared)
    few = post.plan(doc, labels[:10], {"sysbench1"})
    assert few.compared == [f"innodb-{t}" for t in range(1, 11)] and post._picked(few) == ""


def test_the_offset_is_judged_on_every_monitor_however_few_its_files(tmp_path):
    """40 runs, each with a dstat and a vmstat that started 3 s before it, and two runs with an
    iostat that started 12 s before: the draft reads some of each format, sees that the
    monitors do not start together and says `offset_s: run-end`; the ingest then places each
    monitor by its own samples, and none ends away from its run's end."""
    from datetime import datetime, timedelta
    from random import Random

    from tests.kit import versions_gen as gen

    seconds, began = 20, datetime(2026, 3, 13, 5, 30)
    logs = {}
    for i in range(40):
        folder, rnd = f"run{i}", Random(i)
        logs[f"{folder}/sysbench.txt"] = sysbench_log(300 + 10 * i, seconds=seconds)
        logs[f"{folder}/dstat.txt"] = gen.dstat(began - timedelta(seconds=3), seconds + 4, rnd)
        logs[f"{folder}/vmstat.txt"] = gen.vmstat(seconds + 3, rnd)
        if i in (20, 21):
            logs[f"{folder}/iostat.txt"] = gen.iostat(began, seconds + 12, rnd)
    tar_gz(tmp_path / "m.tar.gz", logs)
    posts = tmp_path / "posts"
    assert main(["new", "m", str(tmp_path / "m.tar.gz"), "--content", str(posts)]) == 0
    man = fastyaml.load((posts / "m" / "manifest.yaml").read_text())
    linked = man.get("linked") or man["runs"][0]["linked"]
    assert {"dstat", "vmstat", "iostat"} <= set(linked) and linked["offset_s"] == "run-end"
    where = ["--archives", str(tmp_path), "--data", str(tmp_path / "data")]
    assert main(["m", "--content", str(posts), *where]) == 0
    runs = fastyaml.load((tmp_path / "data" / "m" / "runs.yaml").read_text())["runs"]
    offsets = {r["id"]: r["linked"]["offsets_s"] for r in runs}
    assert {tuple(sorted(o.items())) for o in offsets.values()} == {
        (("dstat", -3), ("vmstat", -3)),
        (("dstat", -3), ("iostat", -12), ("vmstat", -3)),
    }
    study = fastyaml.load((tmp_path / "data" / "m" / "study.yaml").read_text())
    assert [p for p in study.get("problems", []) if "ends at" in str(p)] == []


def test_zero_padded_run_names_keep_their_monitors(tmp_path):
    """Runs `run00` ... `run11`, each folder with a vmstat: `07` is a name's text, not the number
    7, so the label is text and the `linked:` template names `run07/vmstat.txt`, not `run7`
    (before, every run lost its monitor)."""
    from random import Random

    from tests.kit import versions_gen as gen

    logs = {}
    for i in range(12):
        logs[f"run{i:02d}/sysbench.txt"] = sysbench_log(300 + 10 * i, seconds=20)
        logs[f"run{i:02d}/vmstat.txt"] = gen.vmstat(20, Random(i))
    tar_gz(tmp_path / "m.tar.gz", logs)
    posts = tmp_path / "posts"
    assert main(["new", "m", str(tmp_path / "m.tar.gz"), "--content", str(posts)]) == 0
    man = fastyaml.load((posts / "m" / "manifest.yaml").read_text())
    assert "int" not in (man.get("label_types") or {}).values()
    where = ["--archives", str(tmp_path), "--data", str(tmp_path / "data")]
    assert main(["m", "--content", str(posts), *where]) == 0
    runs = fastyaml.load((tmp_path / "data" / "m" / "runs.yaml").read_text())["runs"]
    assert len(runs) == 12
    assert all(
        (tmp_path / "data" / "m" / "series" / f"{r['id']}.linked.json").exists() for r in runs
    )
