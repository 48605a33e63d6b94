#!/usr/bin/env python3
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
"""Where a pipeline's CPU time goes, thread by thread.

    bench/bench-threads.py [--interval S] -- COMMAND [ARG ...]

Runs COMMAND (a gst-launch-1.0 pipeline, vmafhip-score, ...) and reads the
CPU time of each of its threads from /proc while it runs. At the end it
prints the CPU seconds per thread name, threads of the same name with
their numbers taken out counted together (the streaming threads of 16
sources, the workers of 16 elements), with how many threads each line
holds, the whole process's CPU and its wall time. A thread's last reading
counts, so a thread that ends between two readings loses at most one
interval of its time (lower --interval for short runs). Linux only."""

import argparse
import collections
import os
import re
import subprocess
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")


def thread_times(pid):
    """{tid: (name, cpu seconds)} of the process's threads now."""
    out = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        # the name sits in parentheses and may hold spaces
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        utime, stime = int(fields[11]), int(fields[12])
        out[tid] = (name, (utime + stime) / TICK)
    return out


def group_name(name):
    return re.sub(r"\d+", "N", name)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--interval", type=float, default=0.02,
                        help="seconds between readings (default 0.02)")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command given")

    start = time.monotonic()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    last = {}
    while proc.poll() is None:
        last.update(thread_times(proc.pid))
        time.sleep(args.interval)
    wall = time.monotonic() - start
    usage = os.wait4(proc.pid, 0)[2] if proc.returncode is None else None
    rc = proc.returncode
    ru = os.times()
    whole = ru.children_user + ru.children_system
    if usage:
        whole = usage.ru_utime + usage.ru_stime

    groups = collections.defaultdict(lambda: [0, 0.0])
    for name, cpu in last.values():
        g = groups[group_name(name)]
        g[0] += 1
        g[1] += cpu
    print(f"{'threads':>7} {'cpu s':>8}  name (digits as N)")
    for name, (n, cpu) in sorted(groups.items(), key=lambda kv: -kv[1][1]):
        print(f"{n:7d} {cpu:8.3f}  {name}")
    seen = sum(cpu for _, cpu in last.values())
    print(f"whole process: {whole:.3f} s cpu ({seen:.3f} s seen in threads), "
          f"{wall:.3f} s wall, exit status {rc}")
    return 0 if rc == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
