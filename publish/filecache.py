"""Files a build step made before, kept between builds in .cache/<name>/ (gitignored): an entry
is named by the sha256 of a salt (what else the file depends on: the maker's code or version)
and of the source it was made from, so it is used only for the same input and the same maker.
The previews' PNGs (publish/previews.py) and the series' CSVs (publish/series.py) use it; the
chart drawings have their own in Node (publish/chart_svgs.js). `<VAR>=DIR` keeps a step's
entries elsewhere, `<VAR>=off` keeps none (the benches' cold builds)."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class FileCache:
    """Made files by the sha256 of `salt` and their source; `root` None: make every time."""

    def __init__(self, root: Path | None, salt: str, suffix: str):
        self.root = root
        self.salt = salt.encode()
        self.suffix = suffix
        self.used: set[str] = set()
        self.hits = 0
        if root is not None:
            root.mkdir(parents=True, exist_ok=True)

    @classmethod
    def from_env(cls, var: str, name: str, salt: str, suffix: str) -> FileCache:
        """The cache where the environment's `var` says, else .cache/`name`."""
        where = os.environ.get(var, str(ROOT / ".cache" / name))
        return cls(None if where == "off" else Path(where), salt, suffix)

    def get(self, source: bytes, make: Callable[[], bytes]) -> bytes:
        """The file made from `source`: the cached one, else `make()` (then kept)."""
        if self.root is None:
            return make()
        path = self.root / f"{hashlib.sha256(self.salt + source).hexdigest()}{self.suffix}"
        self.used.add(path.name)
        try:
            body = path.read_bytes()
            self.hits += 1
        except OSError:
            body = make()
            write_whole(path, body)
        return body

    def prune(self) -> None:
        """Remove the entries this build did not use (made from inputs since changed)."""
        if self.root is not None:
            for path in self.root.glob(f"*{self.suffix}"):
                if path.name not in self.used:
                    path.unlink(missing_ok=True)


def write_whole(path: Path, body: bytes) -> None:
    """Writes `body` to `path` whole or not at all (a temp file renamed), also for parallel builds."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(body)
    tmp.replace(path)
