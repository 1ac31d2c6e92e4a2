"""The lazy parser registry: MODULES agrees with what the format modules register, and a
format named or detected early loads only the modules it needs."""

import re
import subprocess
import sys
from pathlib import Path

from ingest import parse as parsers

ROOT = Path(__file__).resolve().parents[3]


def test_modules_list_every_registered_parser_at_its_place():
    listed = [(m, n) for m, names in parsers.MODULES.items() for n in names]
    got = [(type(p).__module__.rpartition(".")[2], p.name) for p in parsers.all_parsers()]
    assert got == listed
    assert set(parsers._registered) == {n for _, n in listed}


def test_every_module_that_registers_a_parser_is_listed():
    registering = {
        p.stem
        for p in (ROOT / "ingest/parse").glob("*.py")
        if re.search(r"^(@register|register\()", p.read_text(), re.M)
    }
    assert registering == set(parsers.MODULES)


def test_named_and_early_detected_formats_load_only_their_modules():
    code = (
        "import sys\nfrom ingest.parse import by_name, detect\n"
        "by_name('mycnf')\n"
        "assert detect('[ 1s ] thds: 4 eps: 1.00 lat (ms,95%): 2.00\\n')[0].name == 'sysbench1'\n"
        "print(' '.join(m.rpartition('.')[2] for m in sys.modules if m.startswith('ingest.parse.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    assert set(out.split()) & set(parsers.MODULES) == {"mycnf", "sysbench1"}


def test_unknown_format_names_the_known_ones_in_detection_order():
    try:
        parsers.by_name("nope")
    except KeyError as e:
        assert e.args[0].endswith(
            "(known: " + ", ".join(p.name for p in parsers.all_parsers()) + ")"
        )
    else:
        raise AssertionError("no KeyError")


def test_every_monitor_format_is_a_key_linked_may_name():
    """A parser's `linked_as` is how a monitor format plugs into `linked:` and the scaffold's
    proposal: it must be one of the keys the manifest accepts, and the four monitors have one."""
    from ingest.parse import all_parsers
    from ingest.read.records import MONITOR_KINDS

    kinds = {p.name: p.linked_as for p in all_parsers() if p.linked_as}
    assert set(kinds.values()) <= set(MONITOR_KINDS)
    assert {"vmstat", "iostat", "sar", "global-status", "mysqladmin-status"} <= set(kinds)
