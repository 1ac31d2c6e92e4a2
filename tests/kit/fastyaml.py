"""YAML for the tests' reading of data/ and fixtures: libyaml's safe loader, the safe loader's
rules (the same documents, the same Python values) several times faster than PyYAML's
pure-Python one. The ingest's thousand-run tables take seconds to read with the latter."""

from __future__ import annotations

import yaml

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load(stream):
    """`yaml.safe_load(stream)`, by libyaml when PyYAML was built with it."""
    return yaml.load(stream, Loader=LOADER)
