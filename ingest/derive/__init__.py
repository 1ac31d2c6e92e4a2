"""Step 4, derive: the study's tables from its runs, query runs and files, in the order
`study.py` walks them: the manifest's `tables:` (`declared.py`), `query_tables:`
(`query_tables.py`), `file_tables:` (`file_tables.py`), the study module's
(`studies/<study>.py`, the hook), the defaults (`defaults.py`), the counters (`counters.py`)
and the reproduction check (`reproduction.py`); each checked (`checks.py`), with the
summaries the posts show (`summaries.py`). `tables.py` is what tables are built with."""
