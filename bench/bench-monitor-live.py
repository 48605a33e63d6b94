#!/usr/bin/env python3
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
"""Many live channels in one vmafhip-monitor on one GPU, scraped like
Prometheus would: does it keep up, without dropping a frame, with flat
memory?

Starts vmafhip-monitor with --channels live channels (default 16 of
1920x1080 at 30 fps): each compares a live videotestsrc with a distorted
copy of itself (--distortion, a launch-line fragment, the channel's
`distortion` key: one feed split by a tee), backend hip on --device. With
--independent-sources the distorted input is a second live source drawing
the same pattern (two feeds that start at different moments: the first
frame of the one that starts earlier has no partner). Every --interval seconds (default 5) for --seconds (default 300)
it fetches /metrics itself (no Prometheus needed) and samples the service's
resident memory and CPU time (/proc) and the GPU's load and memory
(nvidia-smi or rocm-smi, when present). Prints one line per sample and a
summary: frames scored per channel against real time, frames dropped and
unpaired, restarts, memory at start and end and its slope over the second
half of the run, CPU load (in cores), GPU load; writes samples.csv and
summary.json to --out. Exits 1 when a frame was dropped or unpaired, a
channel restarted or stalled, or memory grew by more than --max-growth MB
over the second half.

Usage (from the source tree, after a build in ./build):
  bench/bench-monitor-live.py [--build-dir build] [--channels 16]
      [--seconds 300] [--interval 5] [--width 1920] [--height 1080]
      [--fps 30] [--backend hip] [--device 0] [--threads 0]
      [--latency MS] [--distortion FRAGMENT] [--out DIR]
"""

import argparse
import csv
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$')
LABEL = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')


def parse_metrics(text):
    """[(name, {labels}, value)] of a text exposition."""
    out = []
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = SAMPLE.match(line)
        if m:
            labels = dict(LABEL.findall(m.group(3) or ""))
            out.append((m.group(1), labels, float(m.group(4))))
    return out


def per_channel(samples, name, **match):
    """{channel: summed value} of metric @name whose labels match."""
    out = {}
    for n, labels, v in samples:
        if n == name and all(labels.get(k) == w for k, w in match.items()):
            out[labels["channel"]] = out.get(labels["channel"], 0) + v
    return out


def proc_sample(pid):
    """(resident MiB, CPU seconds user + system) of @pid."""
    rss = 0.0
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1]) / 1024
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return rss, (int(fields[11]) + int(fields[12])) / ticks


def gpu_sample(device):
    """(GPU load %, GPU memory used MiB), None where no tool tells."""
    if shutil.which("nvidia-smi"):
        try:
            out = subprocess.run(
                ["nvidia-smi", "-i", str(device),
                 "--query-gpu=utilization.gpu,memory.used",
                 "--format=csv,noheader,nounits"],
                capture_output=True, text=True, timeout=10).stdout
            load, mem = out.strip().split(",")[:2]
            return float(load), float(mem)
        except (OSError, ValueError, subprocess.SubprocessError):
            pass
    if shutil.which("rocm-smi"):
        try:
            out = subprocess.run(
                ["rocm-smi", "-d", str(device), "--showuse", "--showmemuse",
                 "--showmeminfo", "vram", "--json"],
                capture_output=True, text=True, timeout=10).stdout
            card = next(iter(json.loads(out).values()))
            load = float(card.get("GPU use (%)", "nan"))
            used = card.get("VRAM Total Used Memory (B)")
            return load, float(used) / 2**20 if used else None
        except (OSError, ValueError, StopIteration, subprocess.SubprocessError):
            pass
    return None, None


def slope(xs, ys):
    """Least-squares slope of ys over xs."""
    n = len(xs)
    if n < 2:
        return 0.0
    mx, my = sum(xs) / n, sum(ys) / n
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / den if den else 0


def find_build_dir(arg):
    if arg:
        return arg
    here = os.path.dirname(os.path.abspath(__file__))
    for d in (os.getcwd(), os.path.join(here, "..", "build")):
        if os.path.exists(os.path.join(d, "monitor", "vmafhip-monitor")):
            return d
    sys.exit("no build directory with monitor/vmafhip-monitor: give "
             "--build-dir")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir")
    ap.add_argument("--channels", type=int, default=16)
    ap.add_argument("--seconds", type=float, default=300)
    ap.add_argument("--interval", type=float, default=5)
    ap.add_argument("--width", type=int, default=1920)
    ap.add_argument("--height", type=int, default=1080)
    ap.add_argument("--fps", type=int, default=30)
    ap.add_argument("--backend", default="hip")
    ap.add_argument("--device", type=int, default=0)
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--latency", type=int, default=0,
                    help="milliseconds the element waits for a late input")
    ap.add_argument("--model", default="vmaf_v0.6.1")
    ap.add_argument("--features", default="")
    ap.add_argument("--distortion",
                    default="videobalance contrast=0.9 brightness=0.03 "
                    "saturation=0.8")
    ap.add_argument("--independent-sources", action="store_true",
                    help="a second live source for the distorted input "
                    "instead of a tee")
    ap.add_argument("--max-growth", type=float, default=32.0,
                    help="MiB of resident memory growth allowed over the "
                    "second half")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="a [monitor] key for every channel (repeatable): "
                    "e.g. --set histogram-metrics= for no statistics, or "
                    "--set window-frames=30 --set low-score-threshold=40 "
                    "for the element's windows and events")
    ap.add_argument("--out", default="monitor-live-results")
    args = ap.parse_args()
    for kv in args.set:
        if "=" not in kv:
            ap.error(f"--set {kv}: not KEY=VALUE")

    build = find_build_dir(args.build_dir)
    monitor = os.path.join(build, "monitor", "vmafhip-monitor")
    os.makedirs(args.out, exist_ok=True)
    caps = (f"video/x-raw,format=I420,width={args.width},"
            f"height={args.height},framerate={args.fps}/1")
    work = tempfile.mkdtemp(prefix="vmafhip-monitor-bench-")
    config = os.path.join(work, "monitor.conf")
    with open(config, "w") as f:
        f.write(f"[monitor]\nlisten = 127.0.0.1\nport = 0\n"
                f"backend = {args.backend}\ndevice = {args.device}\n"
                f"threads = {args.threads}\nmodel = {args.model}\n"
                f"features = {args.features}\n"
                f"latency = {args.latency}\n"
                "stall-timeout = 10\n")
        for kv in args.set:
            key, value = kv.split("=", 1)
            f.write(f"{key.strip()} = {value.strip()}\n")
        for i in range(args.channels):
            src = (f"videotestsrc is-live=true pattern=smpte "
                   f"horizontal-speed={1 + i % 4} ! {caps}")
            f.write(f"[channel ch{i:02d}]\nreference = {src}\n")
            if args.independent_sources:
                f.write(f"distorted = {src} ! {args.distortion} ! {caps}\n")
            else:
                f.write(f"distortion = {args.distortion} ! {caps}\n")

    env = dict(os.environ)
    env.setdefault("GST_PLUGIN_PATH_1_0", os.path.join(build, "gst"))
    log_path = os.path.join(args.out, "monitor.log")
    log = open(log_path, "w")
    proc = subprocess.Popen([monitor, "--config", config], env=env,
                            stdout=subprocess.PIPE, stderr=log)
    rows = []
    try:
        line = proc.stdout.readline().decode()
        if "serving" not in line:
            sys.exit(f"vmafhip-monitor did not start: {line!r}; see "
                     f"{log_path}")
        url = line.split()[-1]
        print(f"{args.channels} channels of {args.width}x{args.height}@"
              f"{args.fps}, backend {args.backend}, device {args.device}; "
              f"scraping {url} every {args.interval:g} s for "
              f"{args.seconds:g} s")
        print(f"{'t(s)':>6} {'up':>3} {'fps/ch':>7} {'dropped':>7} "
              f"{'unpaired':>8} {'restarts':>8} {'RSS MiB':>8} "
              f"{'CPU cores':>9} {'GPU %':>6} {'GPU MiB':>8} {'VMAF':>6}")
        t0 = time.monotonic()
        prev_t, prev_cpu, prev_scored = t0, proc_sample(proc.pid)[1], 0
        next_t = t0 + args.interval
        while True:
            time.sleep(max(0, next_t - time.monotonic()))
            now = time.monotonic()
            if proc.poll() is not None:
                sys.exit(f"vmafhip-monitor exited ({proc.returncode}); see "
                         f"{log_path}")
            with urllib.request.urlopen(url, timeout=args.interval) as r:
                samples = parse_metrics(r.read().decode())
            rss, cpu = proc_sample(proc.pid)
            gload, gmem = gpu_sample(args.device)
            scored = per_channel(samples, "vmafhip_channel_frames_scored_total")
            dropped = sum(per_channel(
                samples, "vmafhip_channel_frames_dropped_total").values())
            unpaired = sum(per_channel(
                samples, "vmafhip_channel_frames_unpaired_total").values())
            restarts = sum(per_channel(
                samples, "vmafhip_channel_restarts_total").values())
            up = sum(per_channel(samples, "vmafhip_channel_up").values())
            vmaf = per_channel(samples, "vmafhip_channel_score", metric="vmaf")
            total = sum(scored.values())
            row = {
                "t": round(now - t0, 3), "up": up,
                "fps_per_channel": (total - prev_scored) / (now - prev_t) /
                max(1, args.channels),
                "scored": total, "dropped": dropped, "unpaired": unpaired,
                "restarts": restarts, "rss_mib": rss,
                "cpu_cores": (cpu - prev_cpu) / (now - prev_t),
                "gpu_load": gload, "gpu_mem_mib": gmem,
                "vmaf_mean_latest": (sum(vmaf.values()) / len(vmaf)
                                     if vmaf else None),
            }
            rows.append(row)
            print(f"{row['t']:6.0f} {up:3.0f} {row['fps_per_channel']:7.2f} "
                  f"{dropped:7.0f} {unpaired:8.0f} {restarts:8.0f} "
                  f"{rss:8.1f} {row['cpu_cores']:9.2f} "
                  f"{gload if gload is not None else float('nan'):6.1f} "
                  f"{gmem if gmem is not None else float('nan'):8.0f} "
                  f"{row['vmaf_mean_latest'] or float('nan'):6.2f}",
                  flush=True)
            prev_t, prev_cpu, prev_scored = now, cpu, total
            next_t += args.interval
            if now - t0 >= args.seconds:
                break
        backends = sorted({(lab.get("feature"), lab.get("backend"))
                           for n, lab, v in samples
                           if n == "vmafhip_channel_feature_backend"})
        gpus = [v for n, lab, v in samples if n == "vmafhip_monitor_gpus"]
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        log.close()
        shutil.rmtree(work, ignore_errors=True)

    with open(os.path.join(args.out, "samples.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    half = [r for r in rows if r["t"] >= rows[-1]["t"] / 2]
    growth = slope([r["t"] for r in half], [r["rss_mib"] for r in half]) * \
        (half[-1]["t"] - half[0]["t"]) if len(half) > 1 else 0.0
    elapsed = rows[-1]["t"]
    expected = args.fps * elapsed
    per_ch = {c: v for c, v in sorted(scored.items())}
    loads = [r["gpu_load"] for r in rows if r["gpu_load"] is not None]
    summary = {
        "channels": args.channels, "width": args.width,
        "height": args.height, "fps": args.fps, "backend": args.backend,
        "device": args.device, "seconds": elapsed,
        "frames_scored_per_channel": per_ch,
        "frames_expected_per_channel": expected,
        "frames_dropped": rows[-1]["dropped"],
        "frames_unpaired": rows[-1]["unpaired"],
        "restarts": rows[-1]["restarts"],
        "rss_mib_first": rows[0]["rss_mib"], "rss_mib_last": rows[-1]["rss_mib"],
        "rss_mib_max": max(r["rss_mib"] for r in rows),
        "rss_growth_mib_second_half": growth,
        "cpu_cores_mean": sum(r["cpu_cores"] for r in rows[1:]) /
        max(1, len(rows) - 1),
        "gpu_load_mean": sum(loads) / len(loads) if loads else None,
        "gpu_load_max": max(loads) if loads else None,
        "gpu_mem_mib_last": rows[-1]["gpu_mem_mib"],
        "gpus_shared": gpus[0] if gpus else None,
        "feature_backends": [f"{f}: {b}" for f, b in backends],
    }
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=2)

    slow = {c: v for c, v in per_ch.items() if v < 0.95 * expected}
    problems = []
    if summary["frames_dropped"]:
        problems.append(f"{summary['frames_dropped']:.0f} frames dropped")
    if summary["frames_unpaired"]:
        problems.append(f"{summary['frames_unpaired']:.0f} frames unpaired")
    if summary["restarts"]:
        problems.append(f"{summary['restarts']:.0f} restarts")
    if slow:
        problems.append(f"{len(slow)} channels behind real time")
    if growth > args.max_growth:
        problems.append(f"memory grew {growth:.1f} MiB over the second half")
    print()
    print(f"frames scored per channel: min {min(per_ch.values()):.0f}, "
          f"max {max(per_ch.values()):.0f} (real time: {expected:.0f})")
    print(f"dropped {summary['frames_dropped']:.0f}, unpaired "
          f"{summary['frames_unpaired']:.0f}, restarts "
          f"{summary['restarts']:.0f}")
    print(f"RSS {summary['rss_mib_first']:.1f} -> "
          f"{summary['rss_mib_last']:.1f} MiB (max "
          f"{summary['rss_mib_max']:.1f}; {growth:+.1f} MiB over the second "
          f"half)")
    print(f"CPU {summary['cpu_cores_mean']:.2f} cores on average; GPU load "
          f"{summary['gpu_load_mean'] if loads else 'n/a'} % mean, "
          f"{summary['gpu_load_max'] if loads else 'n/a'} % max; "
          f"GPUs shared: {summary['gpus_shared']}")
    print("features: " + ", ".join(summary["feature_backends"]))
    print(("FAIL: " + "; ".join(problems)) if problems else
          "PASS: no frame dropped, every channel in real time, memory flat")
    print(f"samples and summary in {args.out}/")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
