#!/bin/sh
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
#
# examples/live-encoder.sh ends with the element's summary and exit status
# 0 after a short live run, and fails (non-zero, saying so) when the
# pipeline cannot run. Skips (77) without VP8 (gst-plugins-good).
#   test-live-encoder.sh SCRIPT
set -u
script=$1
if ! gst-inspect-1.0 vp8enc >/dev/null 2>&1; then
  echo "SKIP: no vp8enc"
  exit 77
fi
out=$("$script" 2 2>&1)
status=$?
if [ $status -ne 0 ] || ! echo "$out" | grep -q "^summary: [0-9]* frames scored"; then
  echo "FAIL: a 2-second run ended with status $status and:" >&2
  echo "$out" | tail -n 5 >&2
  exit 1
fi
echo "$out" | tail -n 1
out=$(ENCODER="no-such-encoder" "$script" 2 2>&1)
status=$?
if [ $status -eq 0 ] || ! echo "$out" | grep -q "the pipeline failed"; then
  echo "FAIL: a broken pipeline ended with status $status and:" >&2
  echo "$out" | tail -n 5 >&2
  exit 1
fi
echo "broken pipeline: status $status"
