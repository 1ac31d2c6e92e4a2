"""Step 5, write: `data/<study>/` laid out (the runs' series files, `seriesfiles.py`; every CSV
the site serves, `csvfiles.py` with `csvsafe.py`; numbers printed one way, `numbers.py`) and
swapped in whole, atomically, under the data directory's lock (`datadir.py`); then the report
(`report.py`)."""
