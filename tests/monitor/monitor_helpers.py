# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.

"""What the monitor's tests share: reading /metrics, finding a sample,
and asking the element for a property (a feature it may not have yet)."""

import re
import subprocess
import urllib.request

# What a scrape may take: Prometheus' default scrape_timeout. The service
# starts and stops channels on the thread that answers scrapes, so a
# scrape during a channel's start waits for it.
SCRAPE_TIMEOUT = 10


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
