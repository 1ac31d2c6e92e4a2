"""Study modules: `ingest/derive/studies/<study_with_underscores>.py` with `build(ctx) -> list[dict]`
returning the study's derived tables (see docs/manifest.md, "The study-module hook")."""
