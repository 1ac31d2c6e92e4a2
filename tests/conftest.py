"""Shared fixtures. `built_site`: one production-like site build per session (tests/sitebuild.py)."""
from sitebuild import built_site  # noqa: F401
