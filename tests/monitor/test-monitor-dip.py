#!/usr/bin/env python3
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.

"""A 1-second dip seen by a real Prometheus scraping every 5 s.

The test makes a 10 s moving clip (25 fps) and a distorted copy whose
middle second is noise, and runs vmafhip-monitor on them as a file channel
played in real time (pace = realtime), scraped by Prometheus every 5 s, as
in production. The element scores the same files directly (gst-launch-1.0
-m) for its own per-frame values. Over Prometheus' HTTP API:
- the sliding minimum shows the dip: its lowest value over the run is
  within 1 VMAF of the element's lowest frame;
- the histogram's buckets and the frames below 40 count every damaged
  frame, exactly as the element's values do, and a histogram_quantile puts
  the 5th percentile in the dip and the median above it;
- the latest-frame gauge (what Prometheus had before) is printed beside,
  for comparison;
- with an element that reports low-score events (vmaf-event), exactly one
  low-score event is counted, its duration within one frame of the dip's
  second (skipped while the element has no low-score-threshold).
Skips (77) without prometheus or gst-launch-1.0.
"""

import importlib.util
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from monitor_helpers import element_has  # noqa: E402

SKIP = 77
W, H, FPS, SECONDS = 160, 90, 25, 10
DIP_FIRST, DIP_FRAMES = 112, 25          # frames 112..136: 4.48 s to 5.48 s
SCRAPE = "5s"

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "monitor_prometheus", os.path.join(here, "test-monitor-prometheus.py"))
mp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mp)


def make_clips(work):
    """A moving pattern, and a copy whose middle second is noise."""
    ref = os.path.join(work, "ref.yuv")
    dist = os.path.join(work, "dist.yuv")
    cmd = (f"gst-launch-1.0 -q videotestsrc pattern=smpte horizontal-speed=3 "
           f"num-buffers={FPS * SECONDS} ! video/x-raw,format=I420,"
           f"width={W},height={H},framerate={FPS}/1 ! filesink "
           f"location={ref}")
    subprocess.run(shlex.split(cmd), check=True, timeout=60)
    frame = W * H * 3 // 2
    with open(ref, "rb") as f:
        data = bytearray(f.read())
    if len(data) != frame * FPS * SECONDS:
        mp.fail(f"the reference has {len(data)} bytes")
    rng = random.Random(30)
    start = DIP_FIRST * frame
    data[start:start + DIP_FRAMES * frame] = rng.randbytes(DIP_FRAMES * frame)
    with open(dist, "wb") as f:
        f.write(data)
    return ref, dist


def source(path):
    return (f"filesrc location=\"{path}\" ! rawvideoparse width={W} "
            f"height={H} format=i420 framerate={FPS}/1")


def element_vmaf(ref, dist):
    """The element's per-frame VMAF, in frame order."""
    cmd = (f"gst-launch-1.0 -m {ref} ! c.ref_sink {dist} ! c.dist_sink "
           f"vmafhipcompare name=c backend=cpu frame-message=true ! fakesink")
    p = subprocess.run(shlex.split(cmd), capture_output=True, text=True,
                       timeout=min(120, mp.remaining()))
    frames = {}
    for line in p.stdout.splitlines():
        if "(element): vmaf, " in line:
            i = int(re.search(r"index=\(guint64\)(\d+)", line).group(1))
            frames[i] = float(re.search(r" vmaf=\(double\)([^,;]+)",
                                        line).group(1))
    if len(frames) != FPS * SECONDS:
        mp.fail(f"the element scored {len(frames)} frames: {p.stderr}")
    return [frames[i] for i in sorted(frames)]


def main():
    monitor = sys.argv[1]
    prometheus_bin = os.environ.get("PROMETHEUS") or \
        shutil.which("prometheus")
    if not prometheus_bin:
        mp.skip("prometheus is not installed (Debian package prometheus)")
    if not shutil.which("gst-launch-1.0"):
        mp.skip("gst-launch-1.0 is not installed")
    events = bool(element_has("low-score-threshold"))

    work = tempfile.mkdtemp(prefix="vmafhip-monitor-dip-")
    monitor_proc = prom = None
    monitor_log = os.path.join(work, "monitor.log")
    try:
        ref, dist = make_clips(work)
        vmaf = element_vmaf(source(ref), source(dist))
        lowest = min(vmaf)
        below40 = sum(1 for v in vmaf if v < 40)
        print(f"element: lowest frame {lowest:.3f}, {below40} frames below "
              f"40, clean frames from {min(vmaf[:DIP_FIRST]):.2f}")
        if below40 < DIP_FRAMES - 2:
            mp.fail("the damage is not heavy enough for the test")

        # Prometheus first, scraping the service's port before the service
        # is up: every second of the clip's play is then in its scrapes.
        port = mp.free_port()
        prom = mp.Prometheus(prometheus_bin, work, f"127.0.0.1:{port}",
                             SCRAPE)
        prom.start()
        print(f"prometheus scraping 127.0.0.1:{port} every {SCRAPE}")

        config = os.path.join(work, "monitor.conf")
        with open(config, "w") as f:
            f.write(f"[monitor]\nlisten = 127.0.0.1\nport = {port}\n"
                    "backend = cpu\nthreads = 2\npace = realtime\n"
                    "thresholds = 40,60\n"
                    + ("low-score-threshold = 40\nlow-score-min-frames = 5\n"
                       if events else "") +
                    f"[channel dip]\nreference = {source(ref)}\n"
                    f"distorted = {source(dist)}\n")
        with open(monitor_log, "w") as log:
            monitor_proc = subprocess.Popen(
                [monitor, "--config", config], stdout=subprocess.PIPE,
                stderr=log, stdin=subprocess.DEVNULL)
        url = mp.read_url(monitor_proc, min(30, mp.remaining()))
        print(f"service at {url}")

        # The clip plays in 10 s; its end reaches Prometheus at the next
        # scrape, with every frame counted.
        mp.wait_for("the channel's end in Prometheus", lambda: prom.value(
            'vmafhip_channel_state{channel="dip",state="ended"}') == 1,
            timeout=60, interval=1)
        scrapes = prom.value('count_over_time(vmafhip_channel_up'
                             '{channel="dip"}[5m])')
        print(f"{scrapes:.0f} scrapes of the channel")

        sel = 'channel="dip",metric="vmaf"'
        window_min = prom.value(
            f'min_over_time(vmafhip_channel_score_window_min{{{sel}}}[5m])')
        latest_min = prom.value(
            f'min_over_time(vmafhip_channel_score{{{sel}}}[5m])')
        print(f"lowest VMAF seen by Prometheus: sliding minimum "
              f"{window_min}, latest-frame gauge {latest_min}")
        if window_min is None or abs(window_min - lowest) > 1:
            mp.fail(f"the sliding minimum's lowest {window_min} is not "
                    f"within 1 of the element's {lowest}")

        for le in ("10", "20", "30", "40", "50", "60", "70", "80", "90",
                   "100", "+Inf"):
            got = prom.value(
                f'max_over_time(vmafhip_channel_score_histogram_bucket'
                f'{{{sel},le="{le}"}}[5m])')
            want = sum(1 for v in vmaf if le == "+Inf" or v <= float(le))
            if got != want:
                mp.fail(f"bucket le={le}: {got} frames in Prometheus, "
                        f"{want} by the element's values")
        got = prom.value(f'max_over_time(vmafhip_channel_frames_below_total'
                         f'{{{sel},threshold="40"}}[5m])')
        if got != below40:
            mp.fail(f"{got} frames below 40 in Prometheus, {below40} by the "
                    "element's values")
        quantiles = {}
        for q in (0.05, 0.5):
            quantiles[q] = prom.value(
                f'histogram_quantile({q}, sum by (le) (max_over_time('
                f'vmafhip_channel_score_histogram_bucket{{{sel}}}[5m])))')
        print(f"from the histogram: 5th percentile {quantiles[0.05]:.1f}, "
              f"median {quantiles[0.5]:.1f}; {got:.0f} frames below 40")
        if not quantiles[0.05] <= 40 or not quantiles[0.5] > 80:
            mp.fail(f"the histogram's percentiles miss the dip: {quantiles}")

        if events:
            count = prom.value('max_over_time(vmafhip_channel_events_total'
                               '{channel="dip",type="low-score"}[5m])')
            seconds = prom.value(
                'max_over_time(vmafhip_channel_event_seconds_total'
                '{channel="dip",type="low-score"}[5m])')
            dip = below40 / FPS
            print(f"low-score events: {count}, {seconds} s (the dip: "
                  f"{dip} s)")
            if count != 1:
                mp.fail(f"{count} low-score events, not 1")
            if seconds is None or abs(seconds - dip) > 1.0 / FPS + 1e-9:
                mp.fail(f"the low-score event lasted {seconds} s, not "
                        f"{dip} s within a frame")
        else:
            print("SKIP (part): the element has no low-score events yet")

        status = mp.stop(monitor_proc)
        monitor_proc = None
        if status != 0:
            mp.fail(f"the service exited with {status} on SIGTERM")
        print("PASS")
    except AssertionError as e:
        print(f"FAIL: {e}")
        print("--- service log ---\n" + mp.tail(monitor_log))
        if prom and prom.log:
            print("--- prometheus log ---\n" + mp.tail(prom.log.name))
        return 1
    finally:
        mp.stop(monitor_proc)
        if prom:
            mp.stop(prom.proc)
            prom.log.close()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
