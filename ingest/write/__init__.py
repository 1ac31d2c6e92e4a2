"""Step 5, write: the study built in memory (`built.py`) laid out as `data/<study>/` (the runs'
series files, `seriesfiles.py`; every CSV the site serves, `csvfiles.py` with `csvsafe.py`;
numbers printed one way, `numbers.py`) and swapped in whole, atomically, under the data
directory's lock (`datadir.py`); then the report (`report.py`)."""
