#!/usr/bin/env python3
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.

"""The example Grafana dashboard, alert rules and recording rules ask only
for what vmafhip-monitor exports.

The dashboard's JSON parses, its panels have unique ids, a place on the
grid, the dashboard's Prometheus data source and at least one query; every
metric name in a query of the dashboard, the alert rules and the recording
rules is a family the running service serves at /metrics (a histogram's
_bucket, _sum and _count included) or a recording rule's; the queries are
valid PromQL (promtool check rules, with Grafana's variables given values;
that part skips without promtool). The panels the docs name (score,
histogram heatmap, events, lag) are there."""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import urllib.request

import yaml

SOURCE = ("videotestsrc num-buffers=5 ! "
          "video/x-raw,width=64,height=48,framerate=25/1")
NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")


def exported_families(monitor, tmp):
    """Every metric name /metrics serves (with a histogram's series)."""
    path = os.path.join(tmp, "monitor.conf")
    with open(path, "w") as f:
        f.write("[monitor]\nlisten = 127.0.0.1\nport = 0\nbackend = cpu\n"
                f"[channel a]\nreference = {SOURCE}\n"
                "distortion = videobalance\n")
    proc = subprocess.Popen([monitor, "-c", path], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL,
                            stdin=subprocess.DEVNULL)
    try:
        url = proc.stdout.readline().decode().split()[-1]
        with urllib.request.urlopen(url, timeout=10) as r:
            text = r.read().decode()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(15)
    names = set()
    for name, kind in re.findall(r"^# TYPE (\S+) (\S+)$", text, re.M):
        names.add(name)
        if kind == "histogram":
            names.update(name + s for s in ("_bucket", "_sum", "_count"))
    return names


def metric_names(expr):
    """Names in a PromQL expression that are vmafhip's metrics or recorded
    series (functions, labels and keywords are not vmafhip_...)."""
    expr = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)   # label values
    return {n for n in NAME.findall(expr)
            if n.startswith("vmafhip_") or ":vmafhip_" in n}


def grafana_to_promql(expr):
    return (expr.replace("$__rate_interval", "1m").replace("$__range", "1h")
            .replace("$__interval", "1m").replace("$channel", ".*"))


def main():
    monitor, source_root = sys.argv[1], sys.argv[2]
    examples = os.path.join(source_root, "monitor", "examples")
    failures = []

    with open(os.path.join(examples, "grafana-dashboard.json")) as f:
        dash = json.load(f)
    with open(os.path.join(examples, "vmafhip-alerts.yml")) as f:
        alerts = yaml.safe_load(f)
    with open(os.path.join(examples, "vmafhip-rules.yml")) as f:
        rules = yaml.safe_load(f)

    variables = {v["name"]: v for v in dash["templating"]["list"]}
    if variables.get("datasource", {}).get("query") != "prometheus":
        failures.append("no Prometheus data source variable")
    if "channel" not in variables:
        failures.append("no channel variable")

    queries = []                # (where, expr)
    ids = set()
    for p in dash["panels"]:
        where = f"panel {p.get('id')} \"{p.get('title')}\""
        if p.get("id") in ids:
            failures.append(f"{where}: its id is taken")
        ids.add(p.get("id"))
        grid = p.get("gridPos", {})
        if not all(isinstance(grid.get(k), int) for k in "xywh") or \
                grid["x"] + grid["w"] > 24:
            failures.append(f"{where}: no place on the 24-column grid")
        if p.get("datasource", {}).get("uid") != "${datasource}":
            failures.append(f"{where}: not on the dashboard's data source")
        targets = [t for t in p.get("targets", []) if t.get("expr")]
        if not targets:
            failures.append(f"{where}: no query")
        for t in targets:
            queries.append((where, t["expr"]))
    kinds = {p["type"] for p in dash["panels"]}
    if "heatmap" not in kinds:
        failures.append("no heatmap panel")
    joined = " ".join(e for _, e in queries)
    for needed in ("vmafhip_channel_score{", "vmafhip_channel_score_window_min",
                   "vmafhip_channel_score_histogram_bucket",
                   "vmafhip_channel_events_total",
                   "vmafhip_channel_lag_seconds"):
        if needed not in joined:
            failures.append(f"no panel shows {needed}")

    recorded = set()
    for group in rules["groups"]:
        for r in group["rules"]:
            recorded.add(r["record"])
            queries.append((f"recording rule {r['record']}", r["expr"]))
    for group in alerts["groups"]:
        for r in group["rules"]:
            queries.append((f"alert {r['alert']}", r["expr"]))

    with tempfile.TemporaryDirectory() as tmp:
        exported = exported_families(monitor, tmp)
        known = exported | recorded
        checked = 0
        for where, expr in queries:
            for name in metric_names(expr):
                checked += 1
                if name not in known:
                    failures.append(f"{where}: {name} is not exported")
        print(f"{len(queries)} queries, {checked} metric names checked "
              f"against {len(exported)} exported names and {len(recorded)} "
              "recording rules")

        promtool = shutil.which("promtool")
        if promtool:
            path = os.path.join(tmp, "dashboard-rules.yml")
            with open(path, "w") as f:
                yaml.safe_dump({"groups": [{"name": "dashboard", "rules": [
                    {"record": f"dashboard_query_{i}",
                     "expr": grafana_to_promql(e)}
                    for i, (_, e) in enumerate(queries)
                    if not e.startswith("up{")]}]}, f)
            p = subprocess.run([promtool, "check", "rules", path],
                               capture_output=True, text=True, timeout=60)
            if p.returncode != 0:
                failures.append(f"a query is not valid PromQL: "
                                f"{p.stdout}{p.stderr}")
            else:
                print("every query parses (promtool check rules)")
        else:
            print("promtool not installed: the PromQL itself is not parsed")

    for f in failures:
        print(f"FAIL {f}")
    if not failures:
        print("PASS")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
