#!/usr/bin/env python3
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.

"""vmafhip-monitor facing a hostile network (loopback only).

The service runs under a descriptor limit of 64 with two live channels,
one of which ends and is restarted every second or so. The test opens
four times more connections than descriptors, each sending half a request
header and then nothing, and keeps them open. Meanwhile:
- a normal scrape answers within 2 s, every time;
- both channels keep scoring frames, and the restarted one keeps coming
  back (its restarts after its ends and its frames go on rising);
- the service does not spin (its CPU time stays low) nor flood its log;
- a connection that never finishes its request is closed by the service;
- only / and /metrics exist: /metricsX and /metrics/ are 404.
Twice: with the service's own connection limit, and with max-connections
above the descriptor limit, so that accepting fails for want of
descriptors (one warning, no spin, serving goes on).
"""

import os
import re
import resource
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time

NOFILE = 64
ATTACKERS = 4 * NOFILE
SCRAPE_LIMIT_S = 2.0
DEADLINE = time.monotonic() + 200


def fail(why):
    raise AssertionError(why)


def remaining():
    left = DEADLINE - time.monotonic()
    if left <= 0:
        fail("the test ran out of time")
    return left


def low_nofile():
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (NOFILE, hard))


def read_port(proc, timeout):
    end = time.monotonic() + timeout
    line = b""
    while time.monotonic() < end:
        ready, _, _ = select.select([proc.stdout], [], [], 0.2)
        if ready:
            line = proc.stdout.readline()
            m = re.match(rb"vmafhip-monitor: serving http://127\.0\.0\.1:"
                         rb"(\d+)/metrics", line)
            if m:
                return int(m.group(1))
            if not line:
                break
        if proc.poll() is not None:
            break
    fail(f"the service did not start (exit {proc.poll()}, said {line!r})")


def get(port, path, timeout=SCRAPE_LIMIT_S):
    """(status, body, seconds) of one GET, the whole answer within
    @timeout."""
    start = time.monotonic()
    data = b""
    try:
        with socket.create_connection(("127.0.0.1", port),
                                      timeout=timeout) as s:
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: monitor\r\n\r\n"
                      .encode())
            while True:
                left = timeout - (time.monotonic() - start)
                if left <= 0:
                    fail(f"GET {path} took more than {timeout} s")
                s.settimeout(left)
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
    except OSError as e:
        fail(f"GET {path}: {e} after {time.monotonic() - start:.2f} s")
    head, _, body = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1]) if head else 0
    return status, body.decode("utf-8", "replace"), time.monotonic() - start


def sample(body, name, channel, extra=""):
    m = re.search(r'^%s\{channel="%s"%s[^}]*\} (\S+)$' %
                  (re.escape(name), re.escape(channel), extra), body, re.M)
    return float(m.group(1)) if m else None


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def half_open(port, n):
    """@n connections that each send half a request header, kept open."""
    held = []
    end = time.monotonic() + min(20, remaining())
    for _ in range(n):
        if time.monotonic() > end:
            break
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=0.5)
            s.sendall(b"GET /metrics HTTP/1.1\r\nHost: mon")
            held.append(s)
        except OSError:
            pass                # refused or timed out: still an attempt
    return held


def closed_by_peer(s, timeout):
    s.settimeout(timeout)
    try:
        return s.recv(1) == b""
    except socket.timeout:
        return False
    except OSError:
        return True             # reset: closed too


def attack(monitor, tmp, max_connections):
    """One service under attack; returns None, or why it failed."""
    held = []
    proc = None
    config = os.path.join(tmp, "monitor.conf")
    live = ("videotestsrc is-live=true pattern=ball ! "
            "video/x-raw,width=64,height=48,framerate=25/1")
    ending = live.replace("is-live=true", "is-live=true num-buffers=12")
    with open(config, "w") as f:
        f.write("[monitor]\nlisten = 127.0.0.1\nport = 0\n"
                "backend = cpu\nthreads = 1\n")
        if max_connections:
            f.write(f"max-connections = {max_connections}\n")
        f.write("[channel steady]\n"
                f"reference = {live}\n"
                "distortion = videobalance saturation=0.5\n"
                "[channel restarting]\n"
                f"reference = {ending}\n"
                "distortion = videobalance brightness=0.1\n"
                "restart-on-eos = true\n"
                "restart-delay = 0.2\nrestart-delay-max = 0.4\n")
    log_path = os.path.join(tmp, "monitor.log")
    try:
        with open(log_path, "w") as log:
            proc = subprocess.Popen([monitor, "--config", config],
                                    stdout=subprocess.PIPE, stderr=log,
                                    stdin=subprocess.DEVNULL,
                                    preexec_fn=low_nofile)
        port = read_port(proc, min(30, remaining()))

        # Exact paths.
        for path, want in (("/metrics", 200), ("/", 200),
                           ("/metricsX", 404), ("/metrics/", 404),
                           ("/metrics/x", 404), ("/x", 404)):
            status = get(port, path)[0]
            print(f"{'ok  ' if status == want else 'FAIL'} GET {path}: "
                  f"{status}")
            if status != want:
                fail(f"GET {path} answered {status}, not {want}")

        # Both channels score before the attack.
        end = time.monotonic() + min(30, remaining())
        while True:
            body = get(port, "/metrics")[1]
            before = {ch: sample(body, "vmafhip_channel_frames_scored_"
                                 "total", ch) or 0
                      for ch in ("steady", "restarting")}
            restarts_before = sample(body, "vmafhip_channel_eos_restarts_"
                                     "total", "restarting") or 0
            if min(before.values()) > 0 and restarts_before >= 1:
                break
            if time.monotonic() > end:
                fail(f"the channels did not start scoring: {before}")
            time.sleep(0.2)

        cpu_start, t_start = cpu_seconds(proc.pid), time.monotonic()
        held = half_open(port, ATTACKERS)
        print(f"{len(held)} of {ATTACKERS} half-open connections made "
              f"(descriptor limit {NOFILE})")
        if len(held) <= NOFILE:
            fail("fewer half-open connections than descriptors: the "
                 "test proves nothing")

        # Scrapes keep answering, channels keep scoring.
        worst = 0.0
        for i in range(8):
            status, body, took = get(port, "/metrics")
            worst = max(worst, took)
            if status != 200 or "vmafhip_channel_up" not in body:
                fail(f"scrape {i} answered {status}")
            time.sleep(0.5)
        after = {ch: sample(body, "vmafhip_channel_frames_scored_total",
                            ch) or 0 for ch in before}
        restarts_after = sample(body, "vmafhip_channel_eos_restarts_total",
                                "restarting") or 0
        print(f"scrapes under attack: slowest {worst:.3f} s; frames "
              f"{before} -> {after}; restarts {restarts_before:.0f} -> "
              f"{restarts_after:.0f}")
        for ch in before:
            if not after[ch] > before[ch]:
                fail(f"channel {ch} stopped scoring under attack")
        if not restarts_after > restarts_before:
            fail("the restarting channel stopped coming back")
        if sample(body, "vmafhip_channel_up", "steady") != 1:
            fail("the steady channel is not up")

        # A half-open connection is closed by the service (at the
        # latest after its request timeout).
        still_open = [s for s in held if not closed_by_peer(s, 0)]
        if still_open and not closed_by_peer(still_open[-1], 8):
            fail("a connection that never finished its request is "
                 "still open after 8 s")

        busy = cpu_seconds(proc.pid) - cpu_start
        wall = time.monotonic() - t_start
        print(f"service CPU under attack: {busy:.2f} s in {wall:.1f} s")
        if busy > 0.5 * wall:
            fail(f"the service spins: {busy:.2f} s of CPU in "
                 f"{wall:.1f} s")
    except AssertionError as e:
        with open(log_path) as f:
            return f"{e}\n--- service log ---\n{f.read()[-4000:]}"
    finally:
        for s in held:
            s.close()
        if proc and proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    with open(log_path) as f:
        lines = f.read().splitlines()
    warnings = [l for l in lines if "cannot accept" in l]
    print(f"log: {len(lines)} lines, {len(warnings)} about accepting")
    if len(warnings) > 2:
        return "the log is flooded:\n" + "\n".join(warnings[:10])
    if max_connections and not warnings:
        return "the descriptors never ran out: the test proves nothing"
    if proc.returncode != 0:
        return f"exit {proc.returncode} on SIGTERM"
    return None


def main():
    monitor = sys.argv[1]
    # The service's own connection limit (a quarter of the descriptors),
    # then one above the descriptors: accepting fails for want of them.
    for max_connections in (None, 4 * NOFILE):
        print(f"--- max-connections {max_connections or 'automatic'}")
        with tempfile.TemporaryDirectory() as tmp:
            why = attack(monitor, tmp, max_connections)
        if why:
            print(f"FAIL: {why}")
            return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
