"""Step 1, read: the manifest loaded and validated before any input is opened
(`manifest.py`; what it holds: `records.py`, its sections' records `sections.py`), the inputs
found and their sha256 checked (`inputs.py`), archive members read into memory within the bomb
limits (`archive.py`)."""
