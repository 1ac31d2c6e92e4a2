"""Subprocess driver of the fault-injection tests: `python tests/fault_driver.py ROOT STUDY
TREE` writes the files of directory TREE as ROOT/STUDY the way the command line does (its signal handlers, its one-line
report, its exit codes); INGEST_FAULT in the environment picks the step and the fault."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ingest import __main__ as cli  # noqa: E402
from ingest import writer  # noqa: E402
from ingest.problems import Problem  # noqa: E402


def tree(top: Path) -> dict[str, bytes]:
    """{relpath: bytes} of every file under `top`."""
    return {
        p.relative_to(top).as_posix(): p.read_bytes() for p in sorted(top.rglob("*")) if p.is_file()
    }


def run(root: str, study: str, spec: str) -> int:
    files = tree(Path(spec))
    try:
        writer.write_study(root, study, files)
    except Problem as e:
        print(e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(cli.guarded(lambda: run(*sys.argv[1:4]), exiting=True))
