"""Publishing steps that run after Hugo: chart previews (previews.py)."""
