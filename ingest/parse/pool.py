"""Many members parsed at once on every CPU: `parse_many`, `parse_bytes` over a list, each
result (a `Parsed`, or the `Problem` it raised) in the list's order.

A study of many large logs (the cloud study: 36 logs, 17 MB) spends half its ingest parsing
them, one after the other, on one core. With enough bytes to share, the members are parsed by
this process and forked workers (one process per CPU), which get the bytes from the parent's
memory (fork) and send each `Parsed` back pickled; the parent takes the results in order. The
parse is a function of the bytes, so the results, and data/, are the same as one process's."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor

from ingest.parse import Parsed
from ingest.parse.member import parse_bytes
from ingest.problems import Problem

# Below this, a second process costs more (its start, the pickled results) than it saves
MIN_BYTES = 4 * 1024 * 1024
MIN_MEMBERS = 4

Item = tuple[bytes, str, str, str | None]  # parse_bytes' (data, file, fmt, mode)
_ITEMS: list[Item] = []  # the parent's list, read by the forked workers


def workers(items: list[Item]) -> int:
    """Processes for `items`: one per CPU this process may use (INGEST_WORKERS overrides), or
    1 when they are too few or too small to share."""
    wanted = os.environ.get("INGEST_WORKERS")
    cpus = int(wanted) if wanted else len(os.sched_getaffinity(0))
    if len(items) < MIN_MEMBERS or sum(len(i[0]) for i in items) < MIN_BYTES:
        return 1
    if threading.active_count() > 1:  # a fork copies another thread's held locks, never freed
        return 1
    return max(1, min(cpus, len(items)))


def parse_many(items: list[Item]) -> Iterator[Parsed | Problem]:
    """`parse_bytes` of each item, in order; a Problem it raises is the item's result. With
    n processes, this one parses every n-th item itself (no result of its own to pickle) and
    a pool of n - 1 forked workers the others."""
    n = workers(items)
    if n == 1 or "fork" not in multiprocessing.get_all_start_methods():
        yield from map(_parse, items)
        return
    global _ITEMS
    _ITEMS = items
    # an executor rather than multiprocessing.Pool: a worker that dies (the OOM killer) is an
    # error here (BrokenProcessPool), where the Pool would wait for its result forever
    pool = ProcessPoolExecutor(n - 1, multiprocessing.get_context("fork"), _quiet)
    done = False
    try:
        theirs = pool.map(_parse_at, [i for i in range(len(items)) if i % n])
        for i, item in enumerate(items):
            yield next(theirs) if i % n else _parse(item)
        done = True
    finally:
        # joined when all came back, so no thread of it is left when the next study forks
        pool.shutdown(wait=done, cancel_futures=True)
        _ITEMS = []


def _quiet() -> None:
    """A worker leaves Ctrl-C to this process, which reports it once, and ends quietly on
    SIGTERM: it would otherwise run the command line's handlers it inherits and print a
    traceback per worker."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _parse(item: Item) -> Parsed | Problem:
    try:
        return parse_bytes(*item)
    except Problem as e:
        return e


def _parse_at(index: int) -> Parsed | Problem:
    return _parse(_ITEMS[index])
