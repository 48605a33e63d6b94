#!/bin/bash
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
#
# align=content on two live feeds of one moving source, the distorted one
# 1.3 s behind (a queue) with timestamps of its own, for as long as asked
# (default 60 s, the issue's length; the suite runs 10 s): every frame
# after the lock must be scored against its own, and a still source must
# never lock. It is the suite's test (tests/gst/test-vmafhip-align.c,
# /vmafhipcompare/align/live) run longer.
#
#   bench/align-live.sh [--build DIR] [--seconds S]
#
# Prints the test's line: frames scored of those sent, and the offset.

set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build="$here/build"
seconds=60
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$(cd "$2" && pwd); shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    *) echo "usage: $0 [--build DIR] [--seconds S]" >&2; exit 2 ;;
  esac
done

test_exe="$build/tests/gst/test-gst-align"
if [ ! -x "$test_exe" ]; then
  echo "$0: $test_exe is missing (configure with -Dtests=true)" >&2
  exit 1
fi
gst_dir="$build/tests/gst"
VH_ALIGN_LIVE_SECONDS=$seconds \
  GST_PLUGIN_PATH_1_0="$build/gst" \
  GST_PLUGIN_SYSTEM_PATH_1_0="$gst_dir/system-plugins" \
  GST_REGISTRY_1_0="$gst_dir/registry.bin" \
  GST_REGISTRY_FORK=no \
  "$test_exe" -p /vmafhipcompare/align/live --verbose
