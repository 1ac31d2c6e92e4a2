"""Publishing: `python -m publish SITE` builds the site (publish/pipeline.py: Hugo, then
series.py, charts.py with chart_svgs.js, previews.py, Pagefind); theme.py reads the light
theme's colours the drawings use."""
