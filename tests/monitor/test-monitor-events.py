#!/usr/bin/env python3
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.

"""The element's black and freeze events, counted by vmafhip-monitor.

A 12 s moving clip, and a distorted copy with 2 s of black (from 2 s) and
3 s of one frozen frame (from 7 s): the damaged channel counts exactly one
black and one freeze event on its distorted input, lasting 2 s and 3 s
within one frame, and none on its reference; a clean channel (the clip
against itself) counts none. Skips (77) while the element has no black and
freeze detection (black-min-duration, freeze-min-duration).
"""

import os
import re
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from monitor_helpers import (  # noqa: E402
    element_has, scrape_until_ended, start_service, stop_service)

SKIP = 77
W, H, FPS, SECONDS = 160, 90, 25, 12
BLACK = (2 * FPS, 2 * FPS)          # first frame, frames
FROZEN = (7 * FPS, 3 * FPS)


def make_clips(work):
    ref = os.path.join(work, "ref.yuv")
    dist = os.path.join(work, "dist.yuv")
    cmd = (f"gst-launch-1.0 -q videotestsrc pattern=smpte horizontal-speed=3 "
           f"num-buffers={FPS * SECONDS} ! video/x-raw,format=I420,"
           f"width={W},height={H},framerate={FPS}/1 ! filesink "
           f"location={ref}")
    subprocess.run(shlex.split(cmd), check=True, timeout=60)
    size = W * H * 3 // 2
    with open(ref, "rb") as f:
        data = bytearray(f.read())
    black = bytes([16]) * (W * H) + bytes([128]) * (W * H // 2)
    for i in range(BLACK[0], BLACK[0] + BLACK[1]):
        data[i * size:(i + 1) * size] = black
    still = data[FROZEN[0] * size:(FROZEN[0] + 1) * size]
    for i in range(FROZEN[0], FROZEN[0] + FROZEN[1]):
        data[i * size:(i + 1) * size] = still
    with open(dist, "wb") as f:
        f.write(data)
    return ref, dist


def source(path):
    return (f"filesrc location=\"{path}\" ! rawvideoparse width={W} "
            f"height={H} format=i420 framerate={FPS}/1")


def events(metrics, name, channel):
    return {(m.group(1), m.group(2)): float(m.group(3)) for m in re.finditer(
        r'^%s\{channel="%s",type="([^"]+)",input="([^"]+)",pad="[^"]*"\} '
        r'(\S+)$' %
        (name, channel), metrics, re.M)}


def main():
    monitor = sys.argv[1]
    if not (element_has("black-min-duration") and
            element_has("freeze-min-duration")):
        print("SKIP: the element has no black and freeze detection yet")
        return SKIP
    failures = []
    with tempfile.TemporaryDirectory() as work:
        ref, dist = make_clips(work)
        path = os.path.join(work, "monitor.conf")
        with open(path, "w") as f:
            f.write("[monitor]\nlisten = 127.0.0.1\nport = 0\nbackend = cpu\n"
                    "threads = 2\nblack-min-duration = 1\n"
                    "freeze-min-duration = 1\n"
                    f"[channel damaged]\nreference = {source(ref)}\n"
                    f"distorted = {source(dist)}\n"
                    f"[channel clean]\nreference = {source(ref)}\n"
                    f"distorted = {source(ref)}\n")
        log_path = os.path.join(work, "monitor.log")
        proc, url = start_service(monitor, path, log_path)
        try:
            m, ended = scrape_until_ended(url, ["damaged", "clean"], 90,
                                          pause=0.5)
            if not ended:
                failures.append("the channels did not end")
        finally:
            stop_service(proc)
        with open(log_path) as f:
            log = f.read()

    counts = events(m, "vmafhip_channel_events_total", "damaged")
    seconds = events(m, "vmafhip_channel_event_seconds_total", "damaged")
    print(f"damaged: {counts}; seconds {seconds}")
    for kind, (first, frames) in (("black", BLACK), ("freeze", FROZEN)):
        got = counts.get((kind, "distorted"))
        if got != 1:
            failures.append(f"{got} {kind} events on the distorted input, "
                            "not 1")
        lasted = seconds.get((kind, "distorted"))
        if lasted is None or abs(lasted - frames / FPS) > 1 / FPS + 1e-9:
            failures.append(f"the {kind} event lasted {lasted} s, not "
                            f"{frames / FPS} s within a frame")
        if counts.get((kind, "reference")):
            failures.append(f"a {kind} event on the (normal) reference")
    clean = events(m, "vmafhip_channel_events_total", "clean")
    if any(clean.values()):
        failures.append(f"events on normal content: {clean}")
    if "channel damaged: black on distorted ended" not in log:
        failures.append("the log does not say when the black ended")
    for f in failures:
        print(f"FAIL {f}")
    if failures:
        print(log[-2000:])
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
