# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.

"""What the monitor's tests share: running the service, reading
/metrics, finding a sample, and asking the element for a property (a
feature it may not have yet)."""

import re
import signal
import subprocess
import time
import urllib.request

# What a scrape may take: Prometheus' default scrape_timeout.
SCRAPE_TIMEOUT = 10


def start_service(monitor, config, log_path, env=None):
    """vmafhip-monitor on @config, its standard error in @log_path: the
    process and its /metrics URL (None when it did not start)."""
    with open(log_path, "w") as log:
        proc = subprocess.Popen([monitor, "-c", config], env=env,
                                stdout=subprocess.PIPE, stderr=log,
                                stdin=subprocess.DEVNULL)
    line = proc.stdout.readline().decode()
    if not line.startswith("vmafhip-monitor: serving"):
        return proc, None
    return proc, line.split()[-1]


def stop_service(proc, timeout=15):
    """SIGTERM, and the exit status (None when it had to be killed)."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    try:
        return proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return None


def scrape_until_ended(url, channels, seconds, pause=0.2):
    """Scrapes until every channel of @channels has ended, for at most
    @seconds: the last metrics, and whether they all ended."""
    end = time.monotonic() + seconds
    metrics = ""
    while time.monotonic() < end:
        metrics = scrape(url)
        if all(f'vmafhip_channel_state{{channel="{c}",state="ended"}} 1'
               in metrics for c in channels):
            return metrics, True
        time.sleep(pause)
    return metrics, False


def scrape(url, timeout=SCRAPE_TIMEOUT):
    """The text of @url (the monitor's /metrics)."""
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.read().decode()


def channel_value(metrics, name, channel, labels=""):
    """The value of @name{channel="@channel"@labels}, or None."""
    m = re.search(r'^%s\{channel="%s"%s\} (\S+)$' % (
        re.escape(name), re.escape(channel), re.escape(labels)),
        metrics, re.M)
    return float(m.group(1)) if m else None


def samples(metrics, name):
    """{label string: value} of every sample of @name."""
    return {m.group(1): float(m.group(2)) for m in re.finditer(
        r'^%s\{([^}]*)\} (\S+)$' % re.escape(name), metrics, re.M)}


def element_has(prop):
    """Whether vmafhipcompare has the property @prop."""
    p = subprocess.run(["gst-inspect-1.0", "vmafhipcompare"],
                       capture_output=True, text=True, timeout=60)
    return re.search(r"^\s+%s\s*:" % re.escape(prop), p.stdout, re.M)
