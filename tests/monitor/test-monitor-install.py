#!/usr/bin/env python3
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.

"""The monitor's install, staged with meson install --destdir: the
examples are under share/vmafhip/monitor, the systemd template unit runs
the installed binary (not a fixed /usr/local/bin) on the configuration the
install put in sysconfdir/vmafhip (the example), and a second install keeps
an edited configuration. Usage: BUILD_ROOT SOURCE_ROOT BINDIR DATADIR
(the last two absolute)."""

import filecmp
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

SKIP = 77


def main():
    build, source, bindir, datadir = sys.argv[1:5]
    meson = shutil.which("meson")
    if not meson:
        print("SKIP: meson is not on PATH")
        return SKIP
    examples = os.path.join(source, "monitor", "examples")
    failed = 0

    def check(ok, what):
        nonlocal failed
        print(f"{'ok  ' if ok else 'FAIL'} {what}")
        failed += not ok

    with tempfile.TemporaryDirectory() as destdir:
        def install():
            p = subprocess.run([meson, "install", "-C", build, "--destdir",
                                destdir, "--no-rebuild", "--quiet"],
                               capture_output=True, text=True, timeout=120)
            if p.returncode != 0:
                raise SystemExit(f"FAIL: meson install: {p.stdout}{p.stderr}")

        def staged(path):
            return destdir + path

        install()
        units = [os.path.join(d, f) for d, _, fs in os.walk(destdir)
                 for f in fs if f == "vmafhip-monitor@.service"]
        check(len(units) == 1 and os.path.dirname(units[0]).endswith(
            "/lib/systemd/system"), f"one unit, in lib/systemd/system: "
            f"{[u[len(destdir):] for u in units]}")
        if not units:
            return 1
        with open(units[0]) as f:
            unit = f.read()
        check("@" not in unit.replace("monitor@", ""),
              "every @VARIABLE@ of the unit substituted")
        execs = [l.split("=", 1)[1] for l in unit.splitlines()
                 if l.startswith("ExecStart=")]
        check(len(execs) == 1, f"one ExecStart: {execs}")
        argv = shlex.split(execs[0].replace("%i", "0"))
        binary = argv[0]
        check(binary == os.path.join(bindir, "vmafhip-monitor"),
              f"ExecStart runs the installed binary: {binary}")
        check(os.access(staged(binary), os.X_OK),
              "the binary is installed there")
        p = subprocess.run([staged(binary), "--version"], capture_output=True,
                           text=True, timeout=30)
        check(p.returncode == 0 and p.stdout.startswith("vmafhip-monitor "),
              f"it runs: {p.stdout.strip()}")
        config = argv[argv.index("--config") + 1] if "--config" in argv \
            else None
        check(config is not None and os.path.isabs(config),
              f"ExecStart names a configuration: {config}")
        if config:
            check(os.path.isfile(staged(config)) and
                  filecmp.cmp(staged(config),
                              os.path.join(examples, "monitor.conf"),
                              shallow=False),
                  "the example is installed as that configuration")
        for name in ("monitor.conf", "prometheus.yml", "vmafhip-alerts.yml",
                     "vmafhip-rules.yml", "grafana-dashboard.json"):
            path = staged(os.path.join(datadir, "vmafhip", "monitor", name))
            check(os.path.isfile(path) and filecmp.cmp(
                path, os.path.join(examples, name), shallow=False),
                f"share/vmafhip/monitor/{name}")

        # An operator's configuration survives the next install.
        if config and os.path.isfile(staged(config)):
            with open(staged(config), "a") as f:
                f.write("# edited\n")
            install()
            with open(staged(config)) as f:
                check(f.read().endswith("# edited\n"),
                      "a second install keeps the edited configuration")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
