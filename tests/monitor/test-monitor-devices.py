#!/usr/bin/env python3
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.

"""Channels on one GPU share one device: run on the fake CUDA driver (two
devices), three channels with backend auto, two on device 0 and one on
device 1, open exactly two devices, and /metrics says so. (The fake driver
has no kernels, so the features themselves fall back to the CPU.) Also:
100 scrapes leave no descriptor open."""

import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from monitor_helpers import SCRAPE_TIMEOUT  # noqa: E402

SOURCE = "videotestsrc num-buffers=20 ! video/x-raw,width=64,height=48"


def main():
    monitor = sys.argv[1]
    env = dict(os.environ, GST_DEBUG="vmafhipcontext:4", GST_DEBUG_NO_COLOR="1",
               VH_FAKE_CUDA_DEVICES="2")
    with tempfile.TemporaryDirectory() as tmp:
        config = os.path.join(tmp, "monitor.conf")
        with open(config, "w") as f:
            f.write("[monitor]\nport = 0\nthreads = 1\nbackend = auto\n")
            for name, device in (("a", 0), ("b", 0), ("c", 1)):
                f.write(f"[channel {name}]\nreference = {SOURCE}\n"
                        f"distorted = {SOURCE}\ndevice = {device}\n")
        log_path = os.path.join(tmp, "monitor.log")
        with open(log_path, "w") as log:
            proc = subprocess.Popen([monitor, "-c", config], env=env,
                                    stdout=subprocess.PIPE, stderr=log)
        try:
            line = proc.stdout.readline().decode()
            url = line.split()[-1]
            metrics = ""
            end = time.monotonic() + 60
            while time.monotonic() < end:
                with urllib.request.urlopen(url, timeout=SCRAPE_TIMEOUT) as r:
                    metrics = r.read().decode()
                if len(re.findall(r'state="ended"} 1', metrics)) == 3:
                    break
                time.sleep(0.2)
            # Scrapes leave no connection behind (one descriptor each would
            # exhaust the process within hours).
            fds = os.path.join("/proc", str(proc.pid), "fd")
            before = len(os.listdir(fds)) if os.path.isdir(fds) else 0
            for _ in range(100):
                with urllib.request.urlopen(url, timeout=SCRAPE_TIMEOUT) as r:
                    r.read()
            time.sleep(0.5)
            after = len(os.listdir(fds)) if os.path.isdir(fds) else 0
        finally:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        with open(log_path) as f:
            log = f.read()

    failed = []
    opened = re.findall(r"opened <GstVmafHipDevice", log)
    shared = sorted(re.findall(r"GPU (\d+) is shared", log))
    print(f"devices opened: {len(opened)}; shared: {shared}")
    if len(opened) != 2:
        failed.append(f"{len(opened)} devices opened, not 2")
    if shared != ["0", "1"]:
        failed.append(f"shared devices {shared}, not 0 and 1")
    if "vmafhip_monitor_gpus 2\n" not in metrics:
        failed.append("/metrics does not count 2 GPUs")
    if len(re.findall(r'state="ended"} 1', metrics)) != 3:
        failed.append("not every channel ended")
    print(f"descriptors before and after 100 scrapes: {before}, {after}")
    if after > before + 2:
        failed.append(f"100 scrapes left {after - before} descriptors open")
    if proc.returncode != 0:
        failed.append(f"exit status {proc.returncode} on SIGTERM")
    for f in failed:
        print("FAIL:", f)
    if failed:
        print(log[-3000:])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
