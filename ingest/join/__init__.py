"""Step 3, join: the runs the manifest's rules take, with their labels, window statistics and
series (`runs.py`, `stats.py`); the query runs and their sar reports (`queries.py`,
`query_sar.py`); the vmstat, iostat, sar and server-status samples linked to each run's clock
(`linked.py`, `osmetrics.py`), each column named once (`columns.py`). What it makes are typed
records (`records.py`: a run, a query run, a run's linked metrics), which derive builds from and
the write step turns into runs.yaml."""
