#!/usr/bin/env python3
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.

"""vmafhip-monitor's configuration: bad files fail at once with a message
that names the file, group and key; --check builds every channel's pipeline
without running it."""

import os
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from monitor_helpers import channel_value, scrape  # noqa: E402

SOURCE = "videotestsrc num-buffers=1"
GOOD = ("[monitor]\nport = 0\n[channel a]\nreference = %s\ndistorted = %s\n"
        % (SOURCE, SOURCE))

# (configuration, exit status, text the error must hold)
CASES = [
    (GOOD.replace("[channel a]", "[channel a]\nmodle = x"), 2,
     "[channel a] modle: unknown key"),
    (GOOD.replace("port = 0", "port = 0\nreference = x"), 2,
     "[monitor] reference: unknown key"),
    (GOOD + "backend = gpu\n", 2, "backend: must be auto, cpu or hip"),
    (GOOD + "device = first\n", 2, "device: \"first\" is not a whole number"),
    (GOOD + "restart-delay = -1\n", 2, "restart-delay: \"-1\" is not a number"),
    (GOOD + "restart-delay = 10\nrestart-delay-max = 5\n", 2,
     "restart-delay-max: less than restart-delay"),
    (GOOD + "restart-on-eos = maybe\n", 2, "restart-on-eos: not true or false"),
    (GOOD + "pace = fast\n", 2, "[channel a] pace: must be none or realtime"),
    (GOOD + "histogram-buckets = 10,30,20\n", 2,
     "histogram-buckets: 20 is not above the bound before it"),
    (GOOD + "histogram-buckets =\n", 2, "histogram-buckets: no bound"),
    (GOOD + "thresholds = 40,sixty\n", 2,
     "thresholds: \"sixty\" is not a number"),
    (GOOD + "thresholds = 40,nan\n", 2, "thresholds: \"nan\" is not a number"),
    (GOOD + "histogram-metrics = vmaf,,psnr_y\n", 2,
     "histogram-metrics: an empty or unusable name"),
    (GOOD + "min-window = 0\n", 2,
     "min-window: \"0\" is not a number of seconds from 0.1"),
    (GOOD + "low-score-threshold = -5\n", 2,
     "low-score-threshold: \"-5\" is not a score from 0 to 1000"),
    (GOOD + "low-score-threshold = nan\n", 2,
     "low-score-threshold: \"nan\" is not a score from 0 to 1000"),
    # The element's black and freeze limits: 8-bit luma, 0 to 256.
    (GOOD + "black-threshold = nan\n", 2,
     "black-threshold: \"nan\" is not a luma level (8-bit code values) "
     "from 0 to 256"),
    (GOOD + "black-spread = -1\n", 2,
     "black-spread: \"-1\" is not a luma level (8-bit code values) from 0 "
     "to 256"),
    (GOOD + "freeze-threshold = 300\n", 2,
     "freeze-threshold: \"300\" is not a luma level (8-bit code values) "
     "from 0 to 256"),
    (GOOD.replace("port = 0", "port = 0\nfreeze-threshold = inf"), 2,
     "[monitor] freeze-threshold: \"inf\" is not a luma level"),
    (GOOD + "black-threshold = dark\n", 2,
     "black-threshold: \"dark\" is not a luma level"),
    (GOOD + "align = frames\n", 2, "align: must be timestamps or content"),
    (GOOD + "align-window = 700\n", 2, "align-window: more than 600 seconds"),
    (GOOD + "low-score-min-frames = 0\n", 2,
     "low-score-min-frames: \"0\" is not a whole number from 1"),
    ("[channel b]\nreference = %s\n" % SOURCE, 2, "distorted: missing"),
    (GOOD + "[channel  a ]\nreference = x\ndistorted = y\n", 2,
     "another channel has the same name"),
    ("[monitor]\nport = 70000\n", 2, "port: \"70000\" is not a whole number"),
    ("[monitor]\nport = 0\n", 2, "no [channel NAME] group"),
    ("[chanel a]\nreference = x\n", 2, "unknown group"),
    ("not a key file\n", 2, "monitor.conf"),
    (GOOD.replace("distorted = " + SOURCE, "distorted = nosuchelement"), 1,
     "no element \"nosuchelement\""),
    (GOOD + "distortion = videobalance\n", 2,
     "distortion: give either distorted or distortion"),
    (GOOD.replace("distorted = " + SOURCE, "distortion = nosuchelement"), 1,
     "no element \"nosuchelement\""),
    (GOOD.replace("port = 0", "port = 0\ndistortion = videobalance"), 2,
     "[monitor] distortion: unknown key"),
    # What the service could not serve.
    (GOOD + "restart-delay = 0\n", 2,
     "restart-delay: \"0\" is not a number of seconds from 0.1"),
    (GOOD.replace("port = 0", "port = 0\nrestart-delay-max = 0"), 2,
     "[monitor] restart-delay-max: \"0\" is not a number of seconds from 0.1"),
    (GOOD + "[channel b]\nreference = x\ndistorted = y\n[channel a]\n"
     "model = vmaf_4k_v0.6.1\n", 2,
     "line 9: [channel a] is given a second time (first on line 3)"),
    (GOOD + "model = vmaf_v0.6.1\nmodel = vmaf_4k_v0.6.1\n", 2,
     "line 7: [channel a] model: given a second time (first on line 6)"),
    (GOOD.replace("[channel a]", "[channel a\udcff]"), 2,
     "the channel name is not valid UTF-8"),
    (GOOD.replace("port = 0", "port = 0\nlisten = localhost"), 2,
     "[monitor] listen: not an IP address"),
    # 192.0.2.1 is documentation's own address: not this host's.
    (GOOD.replace("port = 0", "port = 0\nlisten = 192.0.2.1"), 1,
     "cannot listen on 192.0.2.1 port 0"),
    (GOOD.replace("reference = " + SOURCE,
                  "reference = file:///nonexistent/ref.mp4"), 1,
     "channel a: cannot open /nonexistent/ref.mp4"),
    (GOOD.replace("port = 0", "port = 0\nmax-connections = 5000"), 2,
     "[monitor] max-connections: \"5000\" is not a whole number from 0 to "
     "4096"),
    (GOOD + "max-connections = 8\n", 2, "[channel a] max-connections: "
     "unknown key"),
    # The element's own verdict on its settings, on test frames.
    (GOOD + "model = nosuchmodel\n", 1,
     "channel a: the element refuses the scoring settings: Invalid scoring "
     "settings: model 'nosuchmodel'"),
    (GOOD + "features = psnr,nosuchfeature\n", 1,
     "unknown feature 'nosuchfeature'"),
    (GOOD.replace("distorted = " + SOURCE, "distorted = filesrc "
                  "location=/nonexistent/dist.yuv ! rawvideoparse"), 1,
     "channel a: cannot open /nonexistent/dist.yuv"),
]


def run(monitor, args):
    return subprocess.run([monitor] + args, capture_output=True, text=True,
                          timeout=60)


def check_running(monitor, tmp):
    """A running service: SIGHUP with the same file keeps the channel, and
    a channel whose file is missing says which file in its error."""
    path = os.path.join(tmp, "running.conf")
    missing = os.path.join(tmp, "not-there.y4m")
    with open(path, "w") as f:
        f.write("[monitor]\nlisten = 127.0.0.1\nport = 0\nbackend = cpu\n"
                "restart-delay = 0.5\n[channel late]\n"
                f"reference = file://{missing}\ndistortion = videobalance\n")
    log_path = os.path.join(tmp, "running.log")
    with open(log_path, "w") as log:
        proc = subprocess.Popen([monitor, "-c", path], stdout=subprocess.PIPE,
                                stderr=log, stdin=subprocess.DEVNULL)
    try:
        line = proc.stdout.readline()
        if not line.startswith(b"vmafhip-monitor: serving"):
            print(f"FAIL the service did not start: {line!r}")
            return False
        proc.send_signal(signal.SIGHUP)
        text = ""
        for _ in range(50):         # at most 10 s
            time.sleep(0.2)
            with open(log_path) as f:
                text = f.read()
            if "1 channels unchanged" in text and missing in text:
                break
        alive = proc.poll() is None
        ok = alive and "1 channels unchanged, 0 restarted" in text
        print("%s SIGHUP: %s" % ("ok  " if ok else "FAIL",
                                 "still running" if alive else
                                 f"exit {proc.returncode}"))
        errors = [l for l in text.splitlines() if "could not start" in l or
                  "error from" in l]
        named = bool(errors) and all(missing in l for l in errors)
        print("%s the error names the file: %s" %
              ("ok  " if named else "FAIL", errors[:1]))
        return ok and named
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


LIVE = ("videotestsrc is-live=true ! "
        "video/x-raw,width=64,height=48,framerate=25/1")


def check_reload(monitor, tmp):
    """SIGHUP reloads: an unchanged channel goes on (its counters too), a
    changed one restarts with its new settings, a removed one goes, a new
    one comes; a file that does not load changes nothing."""
    path = os.path.join(tmp, "reload.conf")

    def write(channels):
        with open(path, "w") as f:
            # A run that scores nothing for 3 s is restarted: a live run
            # that starts while others run sometimes never scores (about 1
            # in 10 here after a reload; the element's, reported), and the
            # service's own watchdog is what brings it back.
            f.write("[monitor]\nlisten = 127.0.0.1\nport = 0\n"
                    "backend = cpu\nthreads = 1\nstall-timeout = 3\n")
            for name, extra in channels:
                f.write(f"[channel {name}]\nreference = {LIVE}\n"
                        f"distortion = videobalance\n{extra}")

    write([("keep", ""), ("change", ""), ("drop", "")])
    log_path = os.path.join(tmp, "reload.log")
    with open(log_path, "w") as log:
        proc = subprocess.Popen([monitor, "-c", path], stdout=subprocess.PIPE,
                                stderr=log, stdin=subprocess.DEVNULL)
    failures = []

    def wait(what, check, timeout=20):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            metrics = scrape(url)
            if check(metrics):
                return metrics
            time.sleep(0.2)
        failures.append(what)
        print(f"FAIL reload: {what}")
        return scrape(url)

    try:
        url = proc.stdout.readline().decode().split()[-1]
        before = wait("every channel scores", lambda m: all(
            (channel_value(m, "vmafhip_channel_frames_scored_total", c) or 0) > 0
            for c in ("keep", "change", "drop")))
        kept_before = channel_value(before, "vmafhip_channel_frames_scored_total",
                            "keep")
        write([("keep", ""), ("new", ""), ("change", "features = psnr\n")])
        proc.send_signal(signal.SIGHUP)
        after = wait("the new channel scores and the changed one has psnr",
                     lambda m: (channel_value(m, "vmafhip_channel_frames_scored_"
                                      "total", "new") or 0) > 0 and
                     'channel="change",metric="psnr_y"' in m)
        if 'channel="drop"' in after:
            failures.append("the removed channel is still there")
        kept_after = channel_value(after, "vmafhip_channel_frames_scored_total",
                           "keep")
        if not kept_after or kept_after < kept_before:
            failures.append(f"the unchanged channel started again: "
                            f"{kept_before} -> {kept_after} frames")
        order = re.findall(r'^vmafhip_channel_up\{channel="([^"]+)"\}',
                           after, re.M)
        if order != ["keep", "new", "change"]:
            failures.append(f"channels not in the file's order: {order}")

        # A broken file: nothing changes, the service goes on.
        with open(path, "a") as f:
            f.write("restart-delay = 0\n")
        proc.send_signal(signal.SIGHUP)
        time.sleep(1)
        with open(log_path) as f:
            log = f.read()
        still = scrape(url)
        if proc.poll() is not None or "configuration not reloaded" not in log\
                or re.findall(r'^vmafhip_channel_up\{channel="([^"]+)"\}',
                              still, re.M) != order:
            failures.append("a broken file changed the running service")
        if "1 channels unchanged, 1 restarted with new settings, 1 added, " \
                "1 removed" not in log:
            failures.append("the reload's summary line is missing")
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    if proc.returncode != 0:
        failures.append(f"exit {proc.returncode} on SIGTERM")
    with open(log_path) as f:
        stalls = f.read().count("no frame scored")
    print(f"     runs restarted by the stall watchdog: {stalls}")
    print("%s SIGHUP reloads: %s" % ("FAIL" if failures else "ok  ",
                                     "; ".join(failures) or "kept, "
                                     "restarted, added, removed"))
    if failures:
        with open(log_path) as f:
            print(f.read()[-3000:])
    return not failures


def main():
    monitor = sys.argv[1]
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "monitor.conf")
        for text, status, expected in CASES:
            with open(path, "wb") as f:
                f.write(text.encode("utf-8", "surrogateescape"))
            p = run(monitor, ["--check", "--config", path])
            ok = p.returncode == status and expected in p.stderr
            print("%s %-45s exit %d: %s" % ("ok  " if ok else "FAIL",
                                            expected, p.returncode,
                                            p.stderr.strip()[:200]))
            failed += not ok

        with open(path, "w") as f:
            f.write(GOOD + "model = vmaf_v0.6.1neg\nfeatures = psnr\n")
        p = run(monitor, ["--check", "-c", path])
        ok = p.returncode == 0 and "channel a: videotestsrc" in p.stdout and \
            "vmafhipcompare name=compare model=\"vmaf_v0.6.1neg\" " \
            "features=\"psnr\" backend=auto threads=0 subsample=1 " \
            "device-id=0" in p.stdout
        print("%s --check on a good file: %s" % ("ok  " if ok else "FAIL",
                                                 p.stdout.strip()))
        failed += not ok

        # The element's black and freeze settings on its launch line, in
        # its units (nanoseconds for durations), defaults from [monitor];
        # the element has them all when it has black-threshold.
        with open(path, "w") as f:
            f.write(GOOD.replace("port = 0", "port = 0\nblack-threshold = 16"
                                 "\nfreeze-threshold = 0.5") +
                    "black-spread = 4.25\nblack-min-duration = 1.5\n"
                    "freeze-min-duration = 3\n")
        p = run(monitor, ["--check", "-c", path])
        settings = (" black-threshold=16 black-spread=4.25 "
                    "black-min-duration=1500000000 freeze-threshold=0.5 "
                    "freeze-min-duration=3000000000 ")
        has = subprocess.run(["gst-inspect-1.0", "vmafhipcompare"],
                             capture_output=True, text=True,
                             timeout=60).stdout.count("black-threshold") > 0
        ok = p.returncode == 0 and (settings in p.stdout) == has
        print("%s --check with black and freeze settings: %s" %
              ("ok  " if ok else "FAIL", p.stdout.strip()))
        failed += not ok

        # distortion: the reference itself, split by a tee.
        with open(path, "w") as f:
            f.write(GOOD.replace("distorted = " + SOURCE,
                                 "distortion = videobalance"))
        p = run(monitor, ["--check", "-c", path])
        ok = p.returncode == 0 and "tee name=feed" in p.stdout and \
            "videobalance ! compare.dist_sink" in p.stdout
        print("%s --check with a distortion: %s" % ("ok  " if ok else "FAIL",
                                                    p.stdout.strip()))
        failed += not ok

        p = run(monitor, ["--config", os.path.join(tmp, "missing.conf")])
        ok = p.returncode == 2 and "missing.conf" in p.stderr
        print("%s a missing file: %s" % ("ok  " if ok else "FAIL",
                                         p.stderr.strip()))
        failed += not ok

        p = run(monitor, ["--port", "65536", "-c", path])
        ok = p.returncode == 2 and "is not a port" in p.stderr
        print("%s --port 65536: %s" % ("ok  " if ok else "FAIL",
                                       p.stderr.strip()))
        failed += not ok

        failed += not check_running(monitor, tmp)
        failed += not check_reload(monitor, tmp)

        p = run(monitor, ["--help"])
        ok = p.returncode == 0 and "[channel NAME]" in p.stdout and \
            "restart-delay-max" in p.stdout
        print("%s --help describes the configuration" %
              ("ok  " if ok else "FAIL"))
        failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
