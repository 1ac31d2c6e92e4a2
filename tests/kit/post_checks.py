"""The checks every post of the site passes, run on one scaffolded post: its numbers are data's
as rendered, its byline and key results open it, its date is known to the precision given, its
tables are documented, and its data/ is what a fresh ingest writes (tests/site/
test_posts_numbers.py, test_post_trust.py and tests/ingest/test_studies_ingest.py run the same
functions on every post)."""

from pathlib import Path

from ingest.pipeline import build_files
from ingest.read.manifest import load
from tests.kit import fastyaml
from tests.kit.post_numbers import check_prose_values, check_table_cells, parse_post
from tests.kit.post_trust import check_byline_and_key_results, check_date
from tests.kit.study_docs import check_docs_tables


def check_post_as_every_post(study: str, built, tmp: Path, posts: Path):
    """Run the every-post checks on `posts/<study>/`, built into `built` from `tmp/data`, and
    return the fresh ingest's result (from `tmp/archives`) for the caller's own checks."""
    data, text = tmp / "data", (posts / study / "index.md").read_text()
    front = fastyaml.load(text.split("---\n", 2)[1])
    parsed = parse_post(built, study, data)
    check_table_cells(study, parsed, built, data)
    check_prose_values(study, text, parsed, data)
    html = built.page(f"posts/{study}/index.html")
    check_byline_and_key_results(study, html, front["original"])
    check_date(study, front, built)
    check_docs_tables(study, data, posts)
    fresh = build_files(load(posts / study / "manifest.yaml"), tmp / "archives", tmp)
    assert fresh.files == {
        p.relative_to(data / study).as_posix(): p.read_bytes()
        for p in (data / study).rglob("*")
        if p.is_file()
    }
    return fresh
