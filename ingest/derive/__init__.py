"""Step 4, derive: the study's tables from its runs, query runs and files. `study.py` walks
the table sources in order (`SOURCES`), each with one interface, `build(ctx)` over the one
`StudyContext` (`context.py`): the manifest's `tables:` (`declared.py`), `query_tables:`
(`query_tables.py`), `file_tables:` (`file_tables.py`), the study module's (`studies/<study>.py`,
the hook), the defaults (`defaults.py`, `query_defaults.py`), the counters (`counters.py`) and
the reproduction check (`reproduction.py`); each table checked (`checks.py`), with the summaries
the posts show (`summaries.py`). `tables.py` is what tables are built with.

A new table source is one module: `parse(...)` of its manifest section, if it has one, called
by ingest/read/manifest.py's `load` (its record in ingest/read/sections.py), and
`build(ctx) -> list[dict]`, listed in `study.SOURCES` with its role."""
