#!/usr/bin/env python3
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.

"""vmafhip_channel_feature_backend follows the element's fall-back to the
CPU. On the fake CUDA driver (kernels that load and do nothing), a channel
with backend auto runs its features on the GPU ("hip"); with a GPU fault
injected (a failed launch, or a sticky illegal address) the element warns
that scoring goes on on the CPU, the metric says "cpu" for every feature
the GPU ran, and vmafhip_channel_cpu_fallbacks_total counts the run (0
without a fault)."""

import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from monitor_helpers import SCRAPE_TIMEOUT  # noqa: E402

SOURCE = "videotestsrc num-buffers=40 ! video/x-raw,width=64,height=48"


def backends(monitor, tmp, fault):
    """{feature: backend} of the channel once it has ended, and the log."""
    env = dict(os.environ, VH_FAKE_CUDA_KERNELS="noop",
               VH_HIP_NVRTC=os.environ["VH_HIP_NVIDIA_RUNTIME"])
    env.pop("VH_FAKE_CUDA_FAIL", None)
    if fault:
        env["VH_FAKE_CUDA_FAIL"] = fault
    config = os.path.join(tmp, "monitor.conf")
    with open(config, "w") as f:
        f.write("[monitor]\nlisten = 127.0.0.1\nport = 0\nthreads = 1\n"
                f"backend = auto\n[channel g]\nreference = {SOURCE}\n"
                "distortion = videobalance saturation=0.5\n")
    log_path = os.path.join(tmp, "monitor.log")
    with open(log_path, "w") as log:
        proc = subprocess.Popen([monitor, "-c", config], env=env,
                                stdout=subprocess.PIPE, stderr=log,
                                stdin=subprocess.DEVNULL)
    try:
        url = proc.stdout.readline().decode().split()[-1]
        metrics = ""
        end = time.monotonic() + 60
        while time.monotonic() < end:
            with urllib.request.urlopen(url, timeout=SCRAPE_TIMEOUT) as r:
                metrics = r.read().decode()
            if 'state="ended"} 1' in metrics:
                break
            time.sleep(0.2)
        else:
            raise AssertionError("the channel did not end")
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    scored = re.search(r'^vmafhip_channel_frames_scored_total\{channel="g"\} '
                       r'(\S+)$', metrics, re.M)
    fallbacks = re.search(r'^vmafhip_channel_cpu_fallbacks_total'
                          r'\{channel="g"\} (\S+)$', metrics, re.M)
    found = dict(re.findall(r'^vmafhip_channel_feature_backend\{channel="g",'
                            r'feature="([^"]+)",backend="([^"]+)"\} 1$',
                            metrics, re.M))
    with open(log_path) as f:
        log = f.read()
    return (found, float(scored.group(1)) if scored else 0,
            float(fallbacks.group(1)) if fallbacks else -1, log)


def main():
    monitor = sys.argv[1]
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        clean, scored, fallbacks, log = backends(monitor, tmp, None)
        ok = clean and all(b == "hip" for b in clean.values()) and \
            scored == 40 and fallbacks == 0
        print(f"{'ok  ' if ok else 'FAIL'} no fault: {clean}, {scored:.0f} "
              f"frames, {fallbacks:.0f} fall-backs")
        failed += not ok
        for fault in ("launch:5", "illegal:5"):
            after, scored, fallbacks, log = backends(monitor, tmp, fault)
            warned = "Scoring goes on on the CPU" in log
            ok = warned and set(after) == set(clean) and \
                all(b == "cpu" for b in after.values()) and scored == 40 \
                and fallbacks == 1
            print(f"{'ok  ' if ok else 'FAIL'} {fault}: {after}, {scored:.0f}"
                  f" frames, {fallbacks:.0f} fall-backs, "
                  f"{'warned' if warned else 'no warning'}")
            if not ok:
                print(log[-3000:])
            failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
