#!/usr/bin/env python3
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.

"""A live channel that falls behind real time shows it in /metrics.

Two live channels at 25 fps: "slow", whose source is held 60 ms a frame
(as a CPU too small for the channel would), falls half a second further
behind every second; "fast" keeps up. After 7 s, vmafhip_channel_lag_seconds
of slow is over 1.5 s and growing, fast's a fraction of a second; with an
element that warns past its lag-warning (2 s by default), slow's warning
is counted once in vmafhip_channel_lag_warnings_total and fast has none.
"""

import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from monitor_helpers import (  # noqa: E402
    channel_value, element_has, scrape, start_service, stop_service)

LIVE = ("videotestsrc is-live=true pattern=ball ! "
        "video/x-raw,width=64,height=48,framerate=25/1")


def main():
    monitor = sys.argv[1]
    warns = bool(element_has("lag-warning"))
    failures = []
    with tempfile.TemporaryDirectory() as work:
        path = os.path.join(work, "monitor.conf")
        with open(path, "w") as f:
            f.write("[monitor]\nlisten = 127.0.0.1\nport = 0\nbackend = cpu\n"
                    "threads = 1\nmodel =\nfeatures = psnr\n"
                    f"[channel slow]\nreference = {LIVE} ! "
                    "identity sleep-time=60000\n"
                    "distortion = videobalance brightness=0.05\n"
                    f"[channel fast]\nreference = {LIVE}\n"
                    "distortion = videobalance brightness=0.05\n")
        log_path = os.path.join(work, "monitor.log")
        proc, url = start_service(monitor, path, log_path)
        try:
            time.sleep(5)
            early = scrape(url)
            time.sleep(2)
            m = scrape(url)
        finally:
            stop_service(proc)
        with open(log_path) as f:
            log = f.read()

    slow_early = channel_value(early, "vmafhip_channel_lag_seconds", "slow")
    slow = channel_value(m, "vmafhip_channel_lag_seconds", "slow")
    fast = channel_value(m, "vmafhip_channel_lag_seconds", "fast")
    print(f"lag: slow {slow_early} s at 5 s, {slow} s at 7 s; fast {fast} s")
    if slow is None or slow < 1.5 or slow_early is None or slow <= slow_early:
        failures.append(f"the slow channel's lag ({slow_early}, {slow}) does "
                        "not show it falling behind")
    if fast is None or not 0 <= fast < 0.5:
        failures.append(f"the fast channel's lag is {fast}")
    warnings = {c: channel_value(m, "vmafhip_channel_lag_warnings_total", c)
                for c in ("slow", "fast")}
    print(f"lag warnings: {warnings}")
    if warns and warnings != {"slow": 1, "fast": 0}:
        failures.append(f"lag warnings {warnings}, not 1 for slow and 0 for "
                        "fast")
    elif not warns:
        print("SKIP (part): the element does not warn about lag yet")
    for f in failures:
        print(f"FAIL {f}")
    if failures:
        print(log[-2000:])
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
