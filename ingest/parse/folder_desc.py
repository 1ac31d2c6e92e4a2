"""A plain-text `DESC` (or README) beside a benchmark's result folders, saying what each
folder is. Lines of the form

    mysql-5-6-10-bp16: MySQL 5.6.10, InnoDB, 16 GB buffer pool

(a folder name without spaces, a colon, a description) give table `folders`
(`folder, description, line`); every other non-blank line is free text, kept in table `text`
(`line, text`), e.g. the DBT3 MyISAM archive's `DESC`, which names versions but no folder.
A manifest's `label_files:` (docs/manifest.md, "Query runs") turns `folders` into labels and
display names. Detected only when at least one line names a folder (a name with a `-`, `_` or
digit) and the file is short prose (no tab, no `[section]` or `#` line, no line longer than
200 characters).
"""

from __future__ import annotations

import re

from ingest.parse import register
from ingest.parse._text import Lines
from ingest.parse.base import Parsed, Parser, Table
from ingest.read.fields import DISPLAY_BAD

# Matched against a stripped line, so the description needs no lazy `.*?` before `\s*$` (that
# was quadratic in a run of spaces: 60,000 spaces took 34 s).
ENTRY = re.compile(r"^(?P<folder>[A-Za-z0-9][\w.+-]*):\s+(?P<description>\S.*)$")
MAX_LINE = 200
MAX_LINES = 200


def _folder_like(name: str) -> bool:
    return bool(re.search(r"[-_\d]", name))


@register
class FolderDesc(Parser):
    name = "folder-desc"
    description = "A plain-text DESC/README naming what each result folder is (folder: description)"

    def detect(self, head: str) -> str | None:
        rows = [l for l in head.splitlines() if l.strip()]
        if (
            0 < len(rows) <= MAX_LINES
            and not any("\t" in l or len(l) > MAX_LINE or l.startswith(("[", "#")) for l in rows)
            and any((m := ENTRY.match(l)) and _folder_like(m["folder"]) for l in rows)
        ):
            return "short prose with folder: description lines"
        return None

    def parse(self, text: str, file: str) -> Parsed:
        lines = Lines(text, file)
        folders = Table(name="folders", columns=["folder", "description", "line"], rows=[])
        prose = Table(name="text", columns=["line", "text"], rows=[])
        for n, line in lines:
            if not line.strip():
                continue
            m = ENTRY.match(line.strip())
            if m and _folder_like(m["folder"]):
                if bad := DISPLAY_BAD.search(line):
                    raise lines.error(
                        n,
                        f"folder description holds U+{ord(bad.group()):04X} (a control, line "
                        "separator or bidi character): it would reach pages and terminals",
                    )
                if any(r["folder"] == m["folder"] for r in folders.rows):
                    raise lines.error(n, f"folder {m['folder']!r} is described twice")
                folders.rows.append(
                    {"folder": m["folder"], "description": m["description"], "line": n}
                )
            else:
                prose.rows.append({"line": n, "text": line.strip()})
        tables = [t for t in (folders, prose) if t.rows]
        return Parsed(format=self.name, file=file, tables=tables, problems=lines.problems)
