"""The LinkBench 2017 archive (../shared/archives, read in place): every file of our formats is
detected and parsed, and the parses agree with the tools' own figures and with each other."""

import re
import statistics
import tarfile

import pytest

from ingest.join import osmetrics, stats
from ingest.parse import by_name, detect
from tests.kit.golden import SHARED, check_cut

ARCHIVE = SHARED / "archives" / "mdcallag-linkbench-2017-inno5717-2m.tar.gz"
HOURS = range(1, 25)


@pytest.fixture(scope="module")
def files():
    """name -> text of every file in the archive."""
    with tarfile.open(ARCHIVE) as tar:
        return {
            m.name.rsplit("/", 1)[1]: tar.extractfile(m).read().decode() for m in tar if m.isfile()
        }


@pytest.fixture(scope="module")
def parse(files):
    cache = {}

    def parse_one(name, fmt=None):
        if name not in cache:
            parser = by_name(fmt) if fmt else detect(files[name][:65536], name)[0]
            cache[name] = parser.parse(files[name], name)
        return cache[name]

    return parse_one


EXPECTED = [
    (r"^[lr]\.o\.", "linkbench"),
    (r"^[lr]\.r\.", "linkbench-summary"),
    (r"\.sz\.", "db-size"),
    (r"\.vm\.", "vmstat"),
    (r"\.io\.", "iostat"),
]


def test_every_file_of_our_formats_is_detected_and_parses(files, parse):
    seen = set()
    for name in files:
        fmt = next((f for pattern, f in EXPECTED if re.search(pattern, name)), None)
        if fmt is None:
            continue
        assert detect(files[name][:65536], name)[0].name == fmt, name
        parsed = parse(name)
        # the wrapper's and the JVM's lines (no record among them) are named, nothing else
        other = [p for p in map(str, parsed.problems) if " skipped, not read as " not in p]
        assert other == [], name
        seen.add(fmt)
    assert seen == {f for _, f in EXPECTED}
    assert {f"r.r.in.L{h}.P1" for h in HOURS} <= set(files)


def test_load_phase(files, parse):
    load = parse("l.o.in").sessions
    assert [s.meta["phase"] for s in load] == ["load"]
    s = load[0]
    t, rates = s.series["t"], s.series["links/s"]
    assert all(a < b for a, b in zip(t, t[1:]))
    assert s.intervals == len(re.findall(r"id1s loaded", files["l.o.in"]))
    # the interval rates integrate back to the links loaded, as the tool counted them
    steps = [b - a for a, b in zip([0.0] + t, t)]
    assert sum(r * d for r, d in zip(rates, steps)) == pytest.approx(s.summary["links"], rel=1e-3)
    assert statistics.mean(rates) == pytest.approx(s.summary["links/s"], rel=0.05)
    assert t[-1] == pytest.approx(s.summary["time_s"], abs=0.5)


@pytest.mark.parametrize("name", ["l.o.in", "r.o.in.L1.P1"])
def test_uneven_intervals_mean_is_operations_over_elapsed_time(parse, name):
    """LinkBench's intervals differ in length: the run's mean rate is weighted by them, so it is
    the operations over the elapsed time (as the tool's summary), not the mean of the rates."""
    s = parse(name).sessions[0]
    assert s.meta["intervals"] == "uneven"
    metric = s.metric
    t, rates = s.series["t"], s.series[metric]
    count = sum(r * d for r, d in zip(rates, stats.interval_lengths(t)))
    weighted = stats.window_stats(t, rates, 0, t[-1], weighted=True)["mean"]
    assert weighted == pytest.approx(count / t[-1], rel=1e-6)
    assert stats.full_mean(rates, t)["mean"] == weighted
    assert weighted == pytest.approx(s.summary[metric], rel=2e-3)  # the tool rounds its figure
    if (
        name == "l.o.in"
    ):  # the load's intervals are very uneven (0.7 to 12 s): the plain mean is off
        assert abs(statistics.mean(rates) - s.summary[metric]) > 10 * abs(
            weighted - s.summary[metric]
        )


@pytest.mark.parametrize("hour", [1, 24])
def test_request_phase(files, parse, hour):
    name = f"r.o.in.L{hour}.P1"
    parsed = parse(name)
    s = parsed.sessions[0]
    t, rates = s.series["t"], s.series["requests/s"]
    requester_lines = re.findall(r"Requester #0 (\d+)/\d+ requests done", files[name])
    assert s.intervals == len(requester_lines)  # one interval per report after the warm-up
    assert all(a < b for a, b in zip(t, t[1:]))
    assert s.meta["interval_s"] == pytest.approx(10, abs=0.5)
    steps = [b - a for a, b in zip([0.0] + t, t)]
    assert sum(r * d for r, d in zip(rates, steps)) == pytest.approx(
        int(requester_lines[-1]), rel=1e-4
    )
    assert statistics.mean(rates) == pytest.approx(s.summary["requests/s"], rel=0.01)
    ops = {r["op"]: r for r in next(t for t in parsed.tables if t.name == "op-latency").rows}
    assert sum(r["count"] for r in ops.values()) == s.summary["requests"]
    intervals = next(t for t in parsed.tables if t.name == "op-intervals").rows
    for op in {r["op"] for r in intervals} & set(ops):
        assert max(r["total_ops"] for r in intervals if r["op"] == op) == ops[op]["count"], op


@pytest.mark.parametrize("hour", HOURS)
def test_hourly_summary(parse, hour):
    summary = parse(f"r.r.in.L{hour}.P1")
    s = summary.sessions[0]
    assert s.intervals == 0 and s.metric == "requests/s"
    assert s.summary["requests/s"] == pytest.approx(
        s.summary["requests"] / s.summary["time_s"], abs=2
    )
    io, vm = (next(t.rows[0] for t in summary.tables if t.name == n) for n in ("iostat", "vmstat"))
    assert io["ips"] == s.summary["requests/s"]
    assert io["wkb/q"] == pytest.approx(io["wkb/s"] / io["ips"], rel=1e-3)
    assert vm["cs/q"] == pytest.approx(vm["cs/s"] / io["ips"], rel=1e-3)
    assert vm["cpu/q"] == pytest.approx(vm["cpu/s"] / io["ips"], rel=1e-2)


@pytest.mark.parametrize("hour", [1, 24])
def test_hourly_summary_agrees_with_the_log(parse, hour):
    log, summary = parse(f"r.o.in.L{hour}.P1"), parse(f"r.r.in.L{hour}.P1")
    assert summary.sessions[0].summary == log.sessions[0].summary
    log_ops = {r["op"]: r for r in next(t for t in log.tables if t.name == "op-latency").rows}
    for row in next(t for t in summary.tables if t.name == "op-latency").rows:
        assert row == log_ops[row["op"]]


def test_database_size_chain(parse):
    """Each hour starts from the size the previous one ended with (load, then hours 1-24)."""

    def sizes(name):
        rows = parse(name).tables[0].rows
        return [r["size"] for r in rows if r["path"] == rows[0]["path"]]

    names = ["l.sz.in"] + [f"r.sz.in.L{h}.P1" for h in HOURS]
    for prev, cur in zip(names, names[1:]):
        assert sizes(cur)[0] == sizes(prev)[1], cur


def test_vmstat(files, parse):
    text = files["r.vm.in.L1.P1"]
    s = parse("r.vm.in.L1.P1").sessions[0]
    assert len(re.findall(r"^\s*r\s+b\s+swpd", text, re.M)) > 1  # the header repeats mid-file
    assert s.intervals == len(re.findall(r"^\s*\d+\s+\d+\s", text, re.M)) - 1
    for row in zip(*(s.series[c] for c in ("us", "sy", "id", "wa", "st"))):
        assert 98 <= sum(row) <= 102


def test_iostat(files, parse):
    text = files["r.io.in.L1.P1"]
    sessions = parse("r.io.in.L1.P1").sessions
    reports = text.count("avg-cpu:")
    assert [s.meta["device"] for s in sessions] == [None] + list(
        dict.fromkeys(re.findall(r"^(?!Linux )(\S+)\s+\d", text, re.M))
    )
    assert all(s.intervals == reports - 1 for s in sessions)
    assert sessions[0].meta["cpus"] == int(re.search(r"\((\d+) CPU\)", text)[1])
    cpu = sessions[0].series
    for row in zip(*(cpu[c] for c in ("%user", "%nice", "%system", "%iowait", "%steal", "%idle"))):
        assert sum(row) == pytest.approx(100, abs=0.1)


def test_hw_efficiency_agrees_with_the_wrappers_own(parse):
    """The wrapper's per-query figures (r.r: all samples, its own ips) against ours (since-boot
    sample dropped, the run's window, the interval mean rate): close, not equal."""
    run = parse("r.o.in.L1.P1").sessions[0]
    summary = parse("r.r.in.L1.P1")
    io, vm = (next(t.rows[0] for t in summary.tables if t.name == n) for n in ("iostat", "vmstat"))
    warmup = 60  # the monitors started with the client, 60 s before the measured run
    eff = osmetrics.hw_efficiency(
        run.series,
        "requests/s",
        0,
        run.series["t"][-1],
        os_interval_s=5,
        offset_s=-warmup,
        vmstat=parse("r.vm.in.L1.P1").sessions[0],
        iostat=parse("r.io.in.L1.P1").sessions,
        devices=["nvme0n1"],
    )
    assert eff["cores"] == 4 and eff["n_vmstat"] == eff["n_iostat"] > 700
    assert eff["cs_per_op"] == pytest.approx(vm["cs/q"], rel=0.02)
    assert eff["kb_written_per_op"] == pytest.approx(io["wkb/q"], rel=0.02)
    assert eff["cpu_s_per_op"] == pytest.approx(vm["cpu/q"] * eff["cores"] / 100, rel=0.02)


@pytest.mark.parametrize(
    "name", ["l.o.in", "r.o.in.L24.P1", "r.r.in.L7.P1", "r.vm.in.L1.P1", "r.io.in.L1.P1"]
)
def test_real_file_cut_short(files, parse, name):
    """Real files cut at a few places (mid-line and at a line end): complete records only."""
    text, full = files[name], parse(name)
    parser = detect(text[:65536], name)[0]
    for fraction in (0.13, 0.5, 0.87):
        at = int(len(text) * fraction)
        line_end = text.index("\n", at) + 1
        for prefix in (text[:at], text[:line_end]):
            check_cut(parser, prefix, name, full, f"{name} cut after {len(prefix)} chars")
