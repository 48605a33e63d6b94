#!/usr/bin/env python3
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.

"""vmafhip-monitor scraped by a real Prometheus server (loopback only).

The service runs three channels from files: a clean one (the reference
against itself), a distorted one (a golden pair), and one whose reference
file does not exist yet. Prometheus scrapes the service every second. Over
Prometheus' HTTP API the test checks that
- the distorted channel's pooled VMAF (and PSNR) equal what the element's
  vmaf-summary gives for the same files (through gst-launch-1.0), and libvmaf's
  golden score within 1e-4; the clean channel scores higher;
- the failing channel is restarted with back-off and its restarts are
  counted; once its file appears it recovers and scores every frame;
- the service stops cleanly on SIGTERM.
Skips (77) without the prometheus binary or gst-launch-1.0.
"""

import argparse
import json
import os
import re
import select
import shutil
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

SKIP = 77
PAIR = "golden_src01_q160x90_8bit_48f"
DEADLINE = time.monotonic() + 240


def skip(why):
    print(f"SKIP: {why}")
    sys.exit(SKIP)


def fail(why):
    raise AssertionError(why)


def remaining():
    left = DEADLINE - time.monotonic()
    if left <= 0:
        fail("the test ran out of time")
    return left


def wait_for(what, check, timeout=60.0, interval=0.25):
    """Polls check() until it returns something true; fails after timeout."""
    end = time.monotonic() + min(timeout, remaining())
    last = None
    while time.monotonic() < end:
        try:
            last = check()
        except (OSError, ValueError, KeyError) as e:
            last = e
        else:
            if last:
                return last
        time.sleep(interval)
    fail(f"timed out waiting for {what} (last: {last!r})")


def golden_dir(source_root):
    env = os.environ.get("VH_GOLDEN_DIR")
    if env and os.path.isdir(env):
        return env
    shared = os.path.join(source_root, "..", "shared", "golden")
    if os.path.exists(os.path.join(shared, "pairs.tsv")):
        return shared
    return os.path.join(source_root, "tests", "data", "golden")


def golden_pair(gdir, name):
    with open(os.path.join(gdir, "pairs.tsv")) as f:
        for line in f.read().splitlines()[1:]:
            cols = line.split("\t")
            if cols[0] == name:
                return {
                    "ref": os.path.join(gdir, "yuv", cols[1]),
                    "dist": os.path.join(gdir, "yuv", cols[2]),
                    "width": int(cols[3]), "height": int(cols[4]),
                    "frames": int(cols[6]),
                    "scores": os.path.join(gdir, "scores", name),
                }
    skip(f"golden pair {name} not found in {gdir}")


def raw_source(path, pair):
    return (f"filesrc location=\"{path}\" ! rawvideoparse "
            f"width={pair['width']} height={pair['height']} format=i420 "
            f"framerate=25/1")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def element_summary(ref, dist, features):
    """The vmaf-summary line of vmafhipcompare for two sources, through
    gst-launch-1.0 -m (GStreamer prints doubles exactly)."""
    cmd = (f"gst-launch-1.0 -m {ref} ! c.ref_sink {dist} ! c.dist_sink "
           f"vmafhipcompare name=c features={features} frame-message=false "
           f"! fakesink")
    proc = subprocess.run(shlex.split(cmd), capture_output=True, text=True,
                          timeout=min(120, remaining()))
    if proc.returncode != 0:
        fail(f"gst-launch-1.0 failed: {proc.stdout[-2000:]}{proc.stderr}")
    for line in proc.stdout.splitlines():
        if "(element): vmaf-summary," in line:
            return line
    fail("no vmaf-summary from the element")


def pooled(summary, name, field):
    """@field of the pooled structure @name in a printed vmaf-summary."""
    m = re.search(r"[ ,]%s=\(structure\)\"((?:[^\"\\]|\\.)*)\"" %
                  re.escape(name), summary)
    if not m:
        fail(f"the vmaf-summary has no {name}")
    inner = re.sub(r"\\(.)", r"\1", m.group(1))
    m = re.search(r"[ ,]%s=\(double\)([^,;]+)" % re.escape(field), inner)
    if not m:
        fail(f"the vmaf-summary's {name} has no {field}")
    return float(m.group(1))


class Prometheus:
    def __init__(self, binary, workdir, target, interval="1s"):
        self.binary = binary
        self.workdir = workdir
        self.target = target
        self.interval = interval
        self.proc = None
        self.log = None

    def start(self):
        config = os.path.join(self.workdir, "prometheus.yml")
        with open(config, "w") as f:
            f.write("global:\n"
                    f"  scrape_interval: {self.interval}\n"
                    "  scrape_timeout: 1s\n"
                    f"  evaluation_interval: {self.interval}\n"
                    "scrape_configs:\n"
                    "  - job_name: vmafhip\n"
                    "    static_configs:\n"
                    f"      - targets: ['{self.target}']\n")
        # A port taken between choosing and binding: try another.
        for _ in range(3):
            self.port = free_port()
            self.log = open(os.path.join(self.workdir, "prometheus.log"), "w")
            self.proc = subprocess.Popen(
                [self.binary, f"--config.file={config}",
                 f"--storage.tsdb.path={os.path.join(self.workdir, 'tsdb')}",
                 f"--web.listen-address=127.0.0.1:{self.port}",
                 "--log.level=warn"],
                stdout=self.log, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL)
            end = time.monotonic() + min(60, remaining())
            while time.monotonic() < end and self.proc.poll() is None:
                try:
                    with urllib.request.urlopen(
                            f"http://127.0.0.1:{self.port}/-/ready",
                            timeout=2) as r:
                        if r.status == 200:
                            return
                except OSError:
                    pass
                time.sleep(0.2)
            stop(self.proc)
        fail("prometheus did not start: " + tail(self.log.name))

    def query(self, promql):
        """Instant query: {label tuple: float} of the result vector."""
        url = (f"http://127.0.0.1:{self.port}/api/v1/query?" +
               urllib.parse.urlencode({"query": promql}))
        with urllib.request.urlopen(url, timeout=5) as r:
            body = json.load(r)
        if body.get("status") != "success":
            fail(f"query {promql} failed: {body}")
        return [(res["metric"], float(res["value"][1]))
                for res in body["data"]["result"]]

    def value(self, promql):
        """The single value of a query, or None when it has no result."""
        result = self.query(promql)
        if len(result) > 1:
            fail(f"{promql} gave {len(result)} series")
        return result[0][1] if result else None


def tail(path, n=40):
    try:
        with open(path) as f:
            return "".join(f.readlines()[-n:])
    except OSError:
        return ""


def stop(proc, timeout=15):
    """SIGTERM, then SIGKILL; returns the exit status."""
    if proc is None:
        return None
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return proc.returncode


def read_url(proc, timeout):
    """The /metrics URL the service prints when it starts."""
    end = time.monotonic() + timeout
    line = b""
    while time.monotonic() < end:
        ready, _, _ = select.select([proc.stdout], [], [], 0.2)
        if ready:
            line = proc.stdout.readline()
            if line.startswith(b"vmafhip-monitor: serving "):
                return line.split()[-1].decode()
            if not line:
                break
        if proc.poll() is not None:
            break
    fail(f"the service did not start (exit {proc.poll()}, said {line!r})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--monitor", required=True)
    ap.add_argument("--source-root", required=True)
    args = ap.parse_args()

    prometheus_bin = os.environ.get("PROMETHEUS") or shutil.which("prometheus")
    if not prometheus_bin:
        skip("prometheus is not installed (Debian package prometheus)")
    if not shutil.which("gst-launch-1.0"):
        skip("gst-launch-1.0 is not installed")

    pair = golden_pair(golden_dir(args.source_root), PAIR)
    work = tempfile.mkdtemp(prefix="vmafhip-monitor-test-")
    monitor = prom = None
    monitor_log = os.path.join(work, "monitor.log")
    try:
        late_ref = os.path.join(work, "late-ref.yuv")
        config = os.path.join(work, "monitor.conf")
        ref, dist = raw_source(pair["ref"], pair), raw_source(pair["dist"], pair)
        with open(config, "w") as f:
            f.write("[monitor]\n"
                    "listen = 127.0.0.1\n"
                    "port = 0\n"
                    "threads = 2\n"
                    "backend = cpu\n"
                    "restart-delay = 0.2\n"
                    "restart-delay-max = 1\n"
                    "[channel clean]\n"
                    f"reference = {ref}\n"
                    f"distorted = {ref}\n"
                    "[channel distorted]\n"
                    f"reference = {ref}\n"
                    f"distorted = {dist}\n"
                    "features = psnr\n"
                    "[channel flaky]\n"
                    f"reference = {raw_source(late_ref, pair)}\n"
                    f"distorted = {dist}\n")

        with open(monitor_log, "w") as log:
            monitor = subprocess.Popen([args.monitor, "--config", config],
                                       stdout=subprocess.PIPE, stderr=log,
                                       stdin=subprocess.DEVNULL)
        url = read_url(monitor, min(30, remaining()))
        target = urllib.parse.urlsplit(url).netloc
        print(f"service at {url}")

        prom = Prometheus(prometheus_bin, work, target)
        prom.start()
        print(f"prometheus at 127.0.0.1:{prom.port}")

        # Prometheus reaches the service.
        wait_for("a successful scrape",
                 lambda: prom.value('up{job="vmafhip"}') == 1)

        # The failing channel is restarted (back-off 0.2, 0.4, 0.8 s...).
        restarts = wait_for(
            "two restarts of the failing channel",
            lambda: (prom.value('vmafhip_channel_restarts_total'
                                '{channel="flaky"}') or 0) >= 2 and
            prom.value('vmafhip_channel_restarts_total{channel="flaky"}'))
        print(f"flaky: {restarts:.0f} restarts seen by Prometheus")
        if prom.value('vmafhip_channel_frames_scored_total'
                      '{channel="flaky"}') != 0:
            fail("the failing channel scored frames")
        # Its source appears (whole, by a rename): the next restart succeeds.
        shutil.copyfile(pair["ref"], late_ref + ".part")
        os.rename(late_ref + ".part", late_ref)

        for ch in ("clean", "distorted", "flaky"):
            wait_for(f"channel {ch} to end",
                     lambda: prom.value(f'vmafhip_channel_state{{channel='
                                        f'"{ch}",state="ended"}}') == 1)
            scored = prom.value(
                f'vmafhip_channel_frames_scored_total{{channel="{ch}"}}')
            if scored != pair["frames"]:
                fail(f"{ch}: {scored} frames scored, not {pair['frames']}")
        for ch in ("clean", "distorted"):
            if prom.value(f'vmafhip_channel_restarts_total'
                          f'{{channel="{ch}"}}') != 0:
                fail(f"{ch} was restarted")
        final_restarts = prom.value(
            'vmafhip_channel_restarts_total{channel="flaky"}')
        if final_restarts < restarts:
            fail("the restart counter went down")
        unscored = prom.value(
            'sum(vmafhip_channel_frames_unpaired_total) + '
            'sum(vmafhip_channel_frames_dropped_total)')
        if unscored != 0:
            fail(f"{unscored} frames unpaired or dropped")

        # The same VMAF as the element's vmaf-summary, through PromQL.
        summary = element_summary(ref, dist, "psnr")
        checked = 0
        for metric in ("vmaf", "psnr_y"):
            for pool, field in (("mean", "mean"),
                                ("harmonic_mean", "harmonic-mean"),
                                ("min", "min"), ("max", "max")):
                got = prom.value(
                    f'vmafhip_channel_score_pooled{{channel="distorted",'
                    f'metric="{metric}",pool="{pool}"}}')
                want = pooled(summary, metric, field)
                print(f"distorted {metric} {pool}: prometheus {got!r} "
                      f"element {want!r}")
                if got != want:
                    fail(f"{metric} {pool}: Prometheus has {got!r}, the "
                         f"element's vmaf-summary {want!r}")
                checked += 1
        flaky_vmaf = prom.value('vmafhip_channel_score_pooled{channel='
                                '"flaky",metric="vmaf",pool="mean"}')
        if flaky_vmaf != pooled(summary, "vmaf", "mean"):
            fail(f"the recovered channel's VMAF {flaky_vmaf!r} differs")

        # And libvmaf's own score for the pair, at its printed precision.
        with open(os.path.join(pair["scores"], "vmaf_v0.6.1+psnr.json")) as f:
            libvmaf = json.load(f)["pooled_metrics"]["vmaf"]["mean"]
        got = prom.value('vmafhip_channel_score_pooled{channel="distorted",'
                         'metric="vmaf",pool="mean"}')
        print(f"libvmaf mean {libvmaf}, through Prometheus {got}")
        if abs(got - libvmaf) > 1e-4:
            fail(f"VMAF {got} is not libvmaf's {libvmaf}")

        # A PromQL comparison across channels: clean beats distorted.
        result = prom.query('vmafhip_channel_score_pooled{metric="vmaf",'
                            'pool="mean",channel=~"clean|distorted"}')
        by_channel = {m["channel"]: v for m, v in result}
        if not by_channel.get("clean", 0) > by_channel.get("distorted", 100):
            fail(f"clean should score above distorted: {by_channel}")
        # Where the features ran.
        if prom.value('count(vmafhip_channel_feature_backend{'
                      'channel="distorted",backend="cpu"})') is None:
            fail("no feature dispatch exported")
        print(f"checked {checked} pooled values; restarts {final_restarts:.0f}")

        status = stop(monitor)
        monitor = None
        if status != 0:
            fail(f"the service exited with {status} on SIGTERM")
        with open(monitor_log) as f:
            log = f.read()
        for expected in ("channel flaky: could not start", "restart in",
                         "channel flaky: restarting (restart 1)"):
            if expected not in log:
                fail(f"the log lacks \"{expected}\"")
        print("PASS")
    except AssertionError as e:
        print(f"FAIL: {e}")
        print("--- service log ---\n" + tail(monitor_log))
        if prom and prom.log:
            print("--- prometheus log ---\n" + tail(prom.log.name))
        return 1
    finally:
        stop(monitor)
        if prom:
            stop(prom.proc)
            prom.log.close()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
