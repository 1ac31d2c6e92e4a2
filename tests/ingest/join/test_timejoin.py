"""Joining OS samples to a run by their time stamps: vmstat -t and iostat -t
times against the run's own start (LinkBench `meta.start`), zones matched or reported, gaps,
repeated and backward time stamps reported with file:line, never shifted or stretched.
Our own fixtures: tests/fixtures/vmstat/stamped-gap.txt (vmstat -t 5, CEST, one sample lost),
iostat/stamped-us.txt (en_US 12-hour clock across noon), iostat/iso-zone.txt
(S_TIME_FORMAT=ISO, +0200) and linkbench/noon.log (warm-up ends at 12:00:00.000)."""

from __future__ import annotations

import pytest

from ingest.join.linked import Clock, Monitors, check_steps, linked_series, stamps, zone_shift
from ingest.parse import by_name
from tests.kit.golden import FIXTURES

RUN = (
    by_name("linkbench")
    .parse((FIXTURES / "linkbench" / "noon.log").read_text(), "noon.log")
    .sessions[0]
)
VM_TEXT = (FIXTURES / "vmstat" / "stamped-gap.txt").read_text()


def vmstat(text=VM_TEXT):
    return by_name("vmstat").parse(text, "vm.txt").sessions[0]


def iostat(name):
    return by_name("iostat").parse((FIXTURES / "iostat" / name).read_text(), name).sessions


def join(vmstat=None, iostat=None, run_start=RUN.meta["start"], **clock):
    """The linked series of noon.log's run and these monitors, placed as `clock` says."""
    out, problems, how = linked_series(
        RUN.series["t"],
        RUN.series["requests/s"],
        Clock(interval_s=5, run_start=run_start, **clock),
        Monitors(vmstat=vmstat, iostat=iostat),
    )
    return out, [str(p) for p in problems], how


def test_the_run_start_is_its_t0_as_printed():
    assert RUN.meta["start"] == "2019-06-12T12:00:00.000"  # the later requester's warm-up end
    assert RUN.series["t"][0] == 10.04  # its first round, 10.04 s after


def test_vmstat_samples_sit_at_their_own_time_minus_the_run_start_and_the_gap_is_reported():
    out, problems, how = join(vmstat=("vm.txt", vmstat()))
    assert how == {"vmstat": "timestamps"}
    # 12:00:02 ... 12:00:32, then 12:00:42 (12:00:37 was never printed) ... 12:01:02
    assert out["t"] == [2, 7, 12, 17, 22, 27, 32, 42, 47, 52, 57, 62]
    assert out["vm.us"] == vmstat().series["us"]  # nothing moved, nothing filled in
    assert problems == [
        "vm.txt:11: vmstat: gap: 10 s since the previous sample (median 5 s, tolerance 2.5 s); "
        "kept at its time"
    ]


def test_align_offset_is_obeyed_and_the_gap_still_reported():
    out, problems, how = join(vmstat=("vm.txt", vmstat()), align="offset", offset_s=-3)
    assert how == {"vmstat": "offset"}
    assert out["t"] == [
        2,
        7,
        12,
        17,
        22,
        27,
        32,
        37,
        42,
        47,
        52,
        57,
    ]  # sample i at -3 + 5 i: the gap closes up
    assert problems[0].startswith("vm.txt:11: vmstat: gap: 10 s")


def test_iostat_12_hour_clock_across_noon():
    out, problems, how = join(iostat=("io.txt", iostat("stamped-us.txt")))
    assert how == {"iostat": "timestamps"}
    assert out["t"] == [
        1,
        6,
        11,
        16,
        21,
        26,
        31,
        36,
        41,
        46,
        51,
        56,
        61,
    ]  # 12:00:01 PM is noon, not midnight
    assert problems == []


def test_a_declared_run_zone_converts_a_fixed_offset_and_rejects_an_unmatchable_name():
    out, problems, how = join(iostat=("io.txt", iostat("iso-zone.txt")), zone="UTC")
    assert how == {"iostat": "timestamps"}
    assert out["t"] == [1, 6, 11]  # 14:00:01+0200 is 12:00:01 UTC
    assert problems == [
        "io.txt:24: iostat: its last sample ends at 11 s of the run (its time stamp), but the run ends "
        "at 60.04 s (-49.04 s, tolerance 10 s): did the monitor run for the whole run? The samples are "
        "kept at their own times, not shifted or stretched"
    ]  # 3 samples for a 60 s run
    out, problems, how = join(vmstat=("vm.txt", vmstat()), zone="UTC")
    assert how == {"vmstat": "offset"}  # CEST is a name, not an offset: never guessed
    assert out["t"][:3] == [5, 10, 15]
    assert (
        "vm.txt:4: vmstat: its time zone CEST cannot be matched with the run's declared zone UTC: "
        "placed by offset_s and interval_s instead" in problems
    )
    assert zone_shift("CEST", "cest") == 0 and zone_shift("+0200", "-05:00") == -7 * 3600
    assert zone_shift(None, "UTC") == 0 and zone_shift("IST", "+05:30") is None


def test_without_a_run_start_the_offset_is_used_and_align_timestamps_says_so():
    out, problems, how = join(vmstat=("vm.txt", vmstat()), run_start=None)
    assert how == {"vmstat": "offset"} and out["t"][0] == 5
    assert problems == [
        "vm.txt:11: vmstat: gap: 10 s since the previous sample (median 5 s, tolerance 2.5 s); "
        "kept at its time"
    ]
    _, problems, _ = join(vmstat=("vm.txt", vmstat()), run_start=None, align="timestamps")
    assert (
        "vm.txt:4: vmstat: align: timestamps, but the run's log has no start time: placed by offset_s and "
        "interval_s instead" in problems
    )
    plain = (
        by_name("vmstat")
        .parse((FIXTURES / "vmstat" / "repeat.txt").read_text(), "repeat.txt")
        .sessions[0]
    )
    _, problems, how = join(vmstat=("repeat.txt", plain), align="timestamps")
    assert how == {"vmstat": "offset"}
    assert any("align: timestamps, but vmstat printed no time stamps" in p for p in problems)


def _lines():
    return VM_TEXT.splitlines(keepends=True)


def test_a_repeated_sample_and_a_backward_time_are_reported_at_their_lines():
    lines = _lines()
    dup = "".join(lines[:6] + [lines[5]] + lines[6:])  # line 6 (12:00:12) printed twice: new line 7
    out, problems, _ = join(vmstat=("vm.txt", vmstat(dup)))
    assert (
        "vm.txt:7: vmstat: time stamp 2019-06-12 12:00:12 repeated (a duplicate sample?)"
        in problems
    )
    assert (
        out["t"].count(12) == 1 and len(vmstat(dup).series["t"]) == 13
    )  # kept, not dropped (one t, two rows)
    swapped = "".join(lines[:5] + [lines[6], lines[5]] + lines[7:])  # 12:00:17 before 12:00:12
    _, problems, _ = join(vmstat=("vm.txt", vmstat(swapped)))
    assert "vm.txt:7: vmstat: time goes back 5 s, to 2019-06-12 12:00:12" in problems


def test_steps_against_the_declared_interval():
    s = vmstat()
    problems = [str(p) for p in check_steps("vm.txt", "vmstat", stamps(s), s.sample_lines, 10, 2.5)]
    assert (
        problems[-1]
        == "vm.txt:5: vmstat: the time stamps are 5 s apart (median), but interval_s is 10 s "
        "(tolerance 2.5 s)"
    )
    assert (
        check_steps("vm.txt", "vmstat", stamps(s), s.sample_lines, 5, 6) == []
    )  # a wider tolerance: no gap


def test_iostat_stamps_that_cannot_be_read_are_reported_and_none_kept():
    text = (FIXTURES / "iostat" / "stamped-us.txt").read_text()
    day_first = text.replace("06/12/2019 12:00:11 PM", "13/06/2019 12:00:11 PM")
    parsed = by_name("iostat").parse(day_first, "io.txt")
    assert "time" not in parsed.sessions[0].series
    assert [str(p) for p in parsed.problems] == [
        "io.txt:24: time stamp not read (time data '13/06/2019 12:00:11 PM' does not match format "
        "'%m/%d/%Y %I:%M:%S %p'; set S_TIME_FORMAT=ISO): no time stamps are kept for this file"
    ]
    one_missing = text.replace("06/12/2019 12:00:11 PM\n", "")
    parsed = by_name("iostat").parse(one_missing, "io.txt")
    assert "time" not in parsed.sessions[1].series
    assert "report without the time stamp line the others have" in str(parsed.problems[0])


def test_a_vmstat_zone_change_is_reported():
    lines = _lines()
    text = "".join(lines[:8] + [lines[1].replace("CEST", " CET")] + lines[8:])
    parsed = by_name("vmstat").parse(text, "vm.txt")
    assert [str(p) for p in parsed.problems] == [
        "vm.txt:9: time zone changes from CEST to CET (DST or TZ changed?): the time stamps are kept as printed"
    ]


# -- through the ingest: a small study of our own fixtures ---------------------------------------
import io
import json
import tarfile

import yaml

from ingest.pipeline import ingest
from ingest.problems import Problem
from ingest.read.archive import sha256_file
from ingest.read.manifest import load

MEMBERS = {
    "r.o.noon": ("linkbench", "noon.log"),
    "r.vm.noon": ("vmstat", "stamped-gap.txt"),
    "r.io.noon": ("iostat", "stamped-us.txt"),
}


def study(
    tmp_path,
    linked="{vmstat: r.vm.noon, iostat: r.io.noon, interval_s: 5}",
    extra_members=None,
    extra="",
):
    (tmp_path / "archives").mkdir(exist_ok=True)
    arc = tmp_path / "archives" / "noon.tar.gz"
    members = {name: (FIXTURES / d / f).read_bytes() for name, (d, f) in MEMBERS.items()}
    members.update(extra_members or {})
    with tarfile.open(arc, "w:gz") as tf:
        for name, data in members.items():
            info = tarfile.TarInfo(f"noon/{name}")
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    man = tmp_path / "content" / "noon" / "manifest.yaml"
    man.parent.mkdir(parents=True, exist_ok=True)
    man.write_text(f"""\
study: noon
title: A LinkBench hour at noon
inputs:
  - {{name: noon.tar.gz, kind: archive, sha256: {sha256_file(arc)}, origin: https://example.org/noon}}
interval_s: 10
metric: requests/s
window: {{start: 0, end: 60}}
labels: [phase]
runs:
  - regex: 'r\\.o\\.noon'
    format: linkbench
    labels: {{phase: request}}
    id: noon
    linked: {linked}
files:
  - {{glob: r.vm.noon, format: vmstat}}
  - {{glob: r.io.noon, format: iostat}}
{extra}""")
    return man


def test_ingest_joins_by_time_stamps_and_says_how(tmp_path):
    man = study(tmp_path)
    res = ingest(man, tmp_path / "archives", tmp_path / "studies", tmp_path / "data")
    data = tmp_path / "data" / "noon"
    run = yaml.safe_load((data / "runs.yaml").read_text())["runs"][0]
    assert run["start"] == "2019-06-12T12:00:00.000"
    assert run["linked"]["align"] == {"vmstat": "timestamps", "iostat": "timestamps"}
    doc = json.loads((data / "series" / "noon.linked.json").read_text())
    # vmstat at 2, 7, ... (12:00:37 lost), iostat at 1, 6, ...: one row per distinct time
    vm_t = [t for t, v in zip(doc["t"], doc["vm.us"]) if v is not None]
    io_t = [t for t, v in zip(doc["t"], doc["io.nvme0n1.w/s"]) if v is not None]
    assert vm_t == [2, 7, 12, 17, 22, 27, 32, 42, 47, 52, 57, 62]
    assert io_t == [1, 6, 11, 16, 21, 26, 31, 36, 41, 46, 51, 56, 61]
    assert [str(p) for p in res["problems"] if "r.vm.noon" in str(p) or "r.io.noon" in str(p)] == [
        "r.vm.noon:11: run noon: vmstat: gap: 10 s since the previous sample (median 5 s, "
        "tolerance 2.5 s); kept at its time"
    ]


def test_align_offset_in_the_manifest_wins(tmp_path):
    man = study(tmp_path, linked="{vmstat: r.vm.noon, interval_s: 5, offset_s: -3, align: offset}")
    ingest(man, tmp_path / "archives", tmp_path / "studies", tmp_path / "data")
    run = yaml.safe_load((tmp_path / "data" / "noon" / "runs.yaml").read_text())["runs"][0]
    assert run["linked"]["align"] == {"vmstat": "offset"}
    doc = json.loads((tmp_path / "data" / "noon" / "series" / "noon.linked.json").read_text())
    assert doc["t"] == [2, 7, 12, 17, 22, 27, 32, 37, 42, 47, 52, 57]


@pytest.mark.parametrize(
    "linked, reason",
    [
        (
            "{vmstat: r.vm.noon, interval_s: 5, align: stretch}",
            "runs[0].linked: `align` must be one of auto, timestamps, offset",
        ),
        (
            "{vmstat: r.vm.noon, interval_s: 5, zone: 'Europe Paris'}",
            "runs[0].linked: `zone` must be a zone name",
        ),
        (
            "{vmstat: r.vm.noon, interval_s: 5, zone: +10:00}",
            "or an offset like '+02:00' (quoted)",
        ),  # YAML 1.1: 600
        (
            "{vmstat: r.vm.noon, interval_s: 5, step_tolerance_s: 0}",
            "`step_tolerance_s` must be a finite positive number",
        ),
    ],
)
def test_alignment_keys_are_validated_with_their_line(tmp_path, linked, reason):
    man = study(tmp_path, linked=linked)
    with pytest.raises(Problem) as err:
        load(man)
    assert str(err.value).startswith(f"{man}:") and reason in str(err.value)


# -- server-status snapshots with `date` lines (tests/fixtures/global-status/periodic.txt) --------
STATUS_TEXT = (FIXTURES / "global-status" / "periodic.txt").read_text()


def status(text=STATUS_TEXT):
    return by_name("global-status").parse(text, "st.txt")


def test_status_snapshots_join_by_their_date_lines():
    s = status().sessions[0]
    assert s.meta["start"] == "2026-03-02T10:00:00" and s.meta["zone"] == "UTC"
    out, problems, how = linked_series(
        [10, 20, 30, 40],
        [5, 5, 5, 5],
        Clock(interval_s=10, run_start="2026-03-02T09:59:55.000"),
        Monitors(status=("st.txt", s)),
    )
    assert how == {"status": "timestamps"}
    assert out["t"] == [x + 5 for x in s.series["t"]]  # the first snapshot is 5 s into the run
    # the run log at +01:00 local, the snapshots in UTC: 10:00:00 UTC is 11:00:00 there, 3605 s in
    out, _, _ = linked_series(
        [10, 20],
        [5, 5],
        Clock(interval_s=10, zone="+01:00", run_start="2026-03-02T09:59:55.000"),
        Monitors(status=("st.txt", s)),
    )
    assert out["t"][0] == 3600 + 5 + s.series["t"][0]
    out, problems, how = linked_series(
        [10, 20],
        [5, 5],
        Clock(interval_s=10, zone="CET", run_start="2026-03-02T09:59:55.000"),
        Monitors(status=("st.txt", s)),
    )
    assert how["status"] == "offset" and out["t"] == s.series["t"]
    assert any(
        "its time zone UTC cannot be matched with the run's declared zone CET" in str(p)
        for p in problems
    )


def test_date_lines_with_any_zone_name_are_read_as_printed():
    """`date` prints the host's zone name; it was read only when it was the ingesting
    machine's own zone (strptime's %Z). Now any name is kept as printed, never looked up."""
    cest = STATUS_TEXT.replace(" UTC 2026", " CEST 2026")
    s = status(cest).sessions[0]
    assert s.meta["zone"] == "CEST" and s.series["t"] == status().sessions[0].series["t"]
    one_changed = STATUS_TEXT.replace("10:00:20 UTC", "10:00:20 CEST")
    parsed = status(one_changed)
    assert [str(p) for p in parsed.problems if "zone" in str(p)] == [
        f"st.txt:{parsed.tables[2].line}: this snapshot's time zone changes from UTC to CEST: "
        "the time stamps are kept as printed"
    ]
