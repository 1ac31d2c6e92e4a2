"""Command line: `python -m ingest --help`. Exit codes: 0 ok, 1 input error, 2 usage,
3 internal error, 130 interrupted (Ctrl-C), 143 terminated (SIGTERM)."""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, NoReturn, TextIO

if __name__ == "__main__":  # a signal while the modules load: one line, 128+N (nothing written yet)
    for _sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(_sig, lambda n, f: (print("interrupted", file=sys.stderr), os._exit(128 + n)))

from ingest import __version__
from ingest.join.stats import full_mean
from ingest.parse import all_parsers, by_name
from ingest.parse.member import HEAD, decode, parse_bytes
from ingest.problems import Problem, clean
from ingest.write import datadir
from ingest.write.datadir import dump

if TYPE_CHECKING:  # the ingest's own modules load when a command needs them (`_ingest`)
    from ingest.join.runs import Progress
    from ingest.pipeline import Ingested
    from ingest.write.report import Report

USAGE = """\
python -m ingest <study> | all [--dry-run] [--archives DIR[:DIR...]] [--studies DIR] [--data DIR] [--content DIR]
python -m ingest new <study> ARCHIVE [--origin URL] [--content DIR]
python -m ingest list-formats
python -m ingest detect FILE
python -m ingest parse FILE [--format NAME]"""

EPILOG = """\
commands:
  <study>        ingest content/posts/<study>/manifest.yaml into DATA/<study>/
  all            ingest every content/posts/*/manifest.yaml (a study whose inputs are absent:
                 skipped with a warning)
  new            write content/posts/<study>/manifest.yaml and index.md for ARCHIVE: sha256,
                 each member's format, proposed runs: rules, default tables and time series
  list-formats   the registered formats, in detection order
  detect FILE    the format of FILE and why
  parse FILE     parse FILE and print a YAML summary (format, intervals, rate_mean, summary_rate)

exit codes: 0 ok, 1 input error (file:line: reason on stderr), 2 usage error,
  3 internal error (please report), 130 interrupted (Ctrl-C), 143 terminated (SIGTERM)"""

EXIT_OK, EXIT_INPUT, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
EXIT_SIGNAL: dict[int, int] = {signal.SIGINT: 130, signal.SIGTERM: 143}  # 128 + the signal number
# a signal's handler as `signal.signal` takes and returns it
Handler = Callable[[int, FrameType | None], object] | int | signal.Handlers | None


class Interrupted(BaseException):
    """SIGINT or SIGTERM: unwinds like KeyboardInterrupt (the writer cleans up on the way)."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def _on_signal(signum: int, frame: FrameType | None) -> NoReturn:
    raise Interrupted(signum)


def _interrupted_line(outcome: datadir.Outcome) -> str:
    """One true line: which study was being written and whether it was switched in yet."""
    if outcome.target is None:
        return "interrupted"
    return f"interrupted; {outcome.target} {'replaced' if outcome.switched else 'unchanged'}"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m ingest",
        usage=USAGE,
        epilog=EPILOG,
        description="Read benchmark result archives into data/<study>/.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("command", help="<study>, all, list-formats, detect or parse")
    p.add_argument("file", nargs="?", help="FILE for detect and parse; <study> for new")
    p.add_argument("archive", nargs="?", help="ARCHIVE for new")
    p.add_argument("--origin", help="new: the archive's public URL")
    p.add_argument(
        "--archives",
        default="../shared/archives",
        help="folder of the archives, or several joined by ':', searched in order for each "
        "study (default: ../shared/archives)",
    )
    p.add_argument(
        "--studies",
        default="../shared/studies",
        help="directory of published-tables inputs, <studies>/<study>/<name> (default: ../shared/studies)",
    )
    p.add_argument("--data", default="data", help="output directory (default: data)")
    p.add_argument(
        "--content",
        default="content/posts",
        help="where the manifests live (default: content/posts)",
    )
    p.add_argument(
        "--dry-run", action="store_true", help="<study>/all: parse and report, write nothing"
    )
    p.add_argument("--format", default="auto", help="parse: format name instead of detection")
    p.add_argument("--version", action="version", version=f"ingest {__version__}")
    return p


def main(argv: list[str] | None = None, exiting: bool = False) -> int:
    return guarded(lambda outcome: _main(argv, outcome), exiting)


def guarded(run: Callable[[datadir.Outcome], int], exiting: bool = False) -> int:
    """`run(outcome)` with SIGINT and SIGTERM turned into one line and exit 130/143 (our
    handlers for the duration, restored after; `exiting`: ignored after, the process is about
    to exit with the code already decided, so a late signal neither kills it silently nor
    prints a traceback). `outcome` (datadir.Outcome): the study being written, told in that line."""
    outcome = datadir.Outcome()
    saved: dict[int, Handler] = {}
    try:
        for s in EXIT_SIGNAL:
            saved[s] = signal.signal(s, _on_signal)
    except ValueError:  # not the main thread: leave the handlers alone
        pass
    try:
        return run(outcome)
    except (Interrupted, KeyboardInterrupt) as e:
        for s in saved:  # a second Ctrl-C must not cut the line short
            signal.signal(s, signal.SIG_IGN)
        print(_interrupted_line(outcome), file=sys.stderr)
        return EXIT_SIGNAL[e.signum if isinstance(e, Interrupted) else signal.SIGINT]
    finally:
        for s, h in saved.items():
            signal.signal(s, signal.SIG_IGN if exiting else h)


def _main(argv: list[str] | None, outcome: datadir.Outcome) -> int:
    """Parse the command line and run the command: a `Problem` is one line and EXIT_INPUT,
    anything else one "internal error" line and EXIT_INTERNAL, never a traceback."""
    ap = _parser()
    args = ap.parse_args(argv)
    _check_args(ap, args)
    try:
        return _run(args, outcome)
    except Problem as e:
        print(clean(e, 2000), file=sys.stderr)
        return EXIT_INPUT
    except (
        Exception
    ) as e:  # the final guard, for what nobody foresaw; each known case has its message
        print(
            f"internal error, please report: {clean(f'{type(e).__name__}: {e}', 200)}",
            file=sys.stderr,
        )
        return EXIT_INTERNAL


def _check_args(ap: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """The arguments and options each command takes (argparse's usage error otherwise)."""
    cmd = args.command
    if cmd in ("detect", "parse") and not args.file:
        ap.error(f"{cmd} needs a FILE")
    if cmd == "new" and not args.archive:
        ap.error("new needs <study> and ARCHIVE")
    if cmd not in ("detect", "parse", "new") and args.file:
        ap.error(f"unexpected argument {args.file!r}")
    if cmd != "new" and (args.archive or args.origin):
        ap.error("ARCHIVE and --origin only apply to new")
    if args.dry_run and cmd in ("detect", "parse", "list-formats"):
        ap.error("--dry-run only applies to <study> and all")
    if args.format != "auto" and cmd != "parse":
        ap.error("--format only applies to parse")


def _run(args: argparse.Namespace, outcome: datadir.Outcome) -> int:
    """One command: list-formats, detect, parse, new, or the ingest of <study> or all."""
    cmd = args.command
    if cmd == "list-formats":
        for p in all_parsers():
            print(f"{p.name}\t{p.description}")
        return EXIT_OK
    if cmd == "detect":
        return _detect(args.file)
    if cmd == "parse":
        return _parse(args.file, args.format)
    if cmd == "new":
        return _new(args)
    return _ingest(cmd, args, outcome)


def _new(args: argparse.Namespace) -> int:
    """`new <study> ARCHIVE`: the first manifest and post, then the next two commands."""
    from ingest.scaffold import new, next_commands

    for path in new(args.file, args.archive, args.origin, args.content):
        print(f"wrote {path}")
    ingest_cmd, build_cmd = next_commands(args.file, Path(args.archive))
    print(f"next: {ingest_cmd}   (writes data/{args.file}/ and reports what each rule took)")
    print(f"then: {build_cmd}   (the site in site/; or make serve)")
    return EXIT_OK


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise Problem(path, None, f"cannot read ({e.strerror})") from None


def _detect(path: str) -> int:
    text = decode(_read(path), path)
    for p in all_parsers():
        reason = p.detect(text[:HEAD])
        if reason:
            print(f"{p.name}\t{reason}")
            return EXIT_OK
    raise Problem(
        path,
        1,
        "unknown format (no parser recognises this file; see `python -m ingest list-formats`)",
    )


def _parse(path: str, fmt: str) -> int:
    if fmt != "auto":
        try:
            by_name(fmt)
        except KeyError as e:
            print(f"python -m ingest: error: {e.args[0]}", file=sys.stderr)
            return EXIT_USAGE
    parsed = parse_bytes(_read(path), path, fmt)
    sessions: list[dict[str, object]] = []
    out: dict[str, object] = {"format": parsed.format, "file": path, "sessions": sessions}
    for s in parsed.sessions:
        values = s.series.get(s.metric, []) if s.metric else []
        d: dict[str, object] = {
            "line": s.line,
            "complete": s.complete,
            "metric": s.metric,
            "intervals": s.intervals,
        }
        if any(
            v is not None for v in values
        ):  # the run's mean, by the ingest's rule (ingest/join/stats.py)
            uneven = s.meta.get("intervals") == "uneven"
            d["rate_mean"] = full_mean(values, s.series["t"] if uneven else None)["mean"]
        if s.metric and s.summary.get(s.metric) is not None:
            d["summary_rate"] = s.summary[s.metric]
        sessions.append(d)
    # the top level describes the last complete session (or the last one)
    main = next(
        (d for d in reversed(sessions) if d["complete"]),
        sessions[-1] if sessions else {},
    )
    out["intervals"] = main.get("intervals", 0)
    for k in ("rate_mean", "summary_rate"):
        if k in main:
            out[k] = main[k]
    if parsed.tables:
        out["tables"] = [
            {"name": t.name, "columns": t.columns, "rows": len(t.rows)} for t in parsed.tables
        ]
    if parsed.settings:
        out["settings"] = len(parsed.settings)
    out["problems"] = [str(p) for p in parsed.problems]
    sys.stdout.write(dump(out))
    for p in parsed.problems:
        print(clean(p, 2000), file=sys.stderr)
    return EXIT_OK


def _ingest(cmd: str, args: argparse.Namespace, outcome: datadir.Outcome) -> int:
    """Every manifest is loaded and checked before any study is written; the data directory's
    lock is held for the whole command."""
    from ingest.pipeline import ingest
    from ingest.read.inputs import where
    from ingest.read.manifest import check_folder, check_unique, find_manifests, load, manifest_path
    from ingest.write.report import text as report_text
    from ingest.write.report import totals

    paths = find_manifests(args.content) if cmd == "all" else [manifest_path(cmd, args.content)]
    if not paths:
        raise Problem(args.content, None, "no */manifest.yaml found")
    manifests = [load(p) for p in paths]
    check_unique(manifests)
    for m in manifests:
        check_folder(m)
    first = Path(args.data) / manifests[0].study if cmd != "all" else Path(args.data)
    reports: list[Report] = []
    outcome.target, outcome.switched = str(first), False
    with contextlib.nullcontext() if args.dry_run else datadir.locked(args.data):
        for path, m in zip(paths, manifests):
            archives, why = where(m, args.archives, args.studies)
            if cmd == "all" and why:
                print(
                    f"warning: {clean(path)}: skipped, {clean(why, 2000)}", file=sys.stderr
                )  # one line each
                continue
            outcome.target, outcome.switched = str(Path(args.data) / m.study), False
            res = ingest(
                path,
                archives,
                args.studies,
                args.data,
                progress_bar(),
                args.dry_run,
                manifest=m,
                outcome=outcome,
            )
            _report(res, report_text)
            reports.append(res["report"])
    if cmd == "all" and reports:
        sys.stdout.write(totals(reports))  # each study's bytes in data/ (docs/manifest.md)
    return EXIT_OK


def _report(res: Ingested, report_text: Callable[[Report], str]) -> None:
    for p in res["problems"]:
        print(clean(p, 2000), file=sys.stderr)
    sys.stdout.write(
        report_text(res["report"])
    )  # what was done: runs, unmatched files, sizes, warnings
    if sys.stderr.isatty():
        print(
            f"{res['study']}: {res['runs']} runs, {len(res['written'])} file(s) written, "
            f"{len(res['removed'])} removed",
            file=sys.stderr,
        )


def progress_bar(stream: TextIO | None = None) -> Progress | None:
    """A progress callback drawing a one-line bar, or None when `stream` (default: the current
    sys.stderr) is not a TTY."""
    stream = stream or sys.stderr
    if not stream.isatty():
        return None

    def draw(i: int, n: int, what: str) -> None:
        width = 30
        done = int(width * i / n) if n else width
        stream.write(f"\r[{'#' * done}{'.' * (width - done)}] {i}/{n} {what[:40]:<40}")
        if i >= n:
            stream.write("\n")
        stream.flush()

    return draw


if __name__ == "__main__":
    sys.exit(main(exiting=True))
