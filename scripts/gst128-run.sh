#!/bin/bash
# Runs a program with GStreamer 1.28 unpacked from Debian's packages (sid)
# on a Debian 12 machine, without installing anything: for the tests of
# GStreamer 1.28's own HIP memory (docs/hip.md, "GStreamer 1.28's HIP
# memory") on the GPU machine.
#
#   scripts/gst128-run.sh --unpack DEBDIR ROOT
#       unpacks every .deb of DEBDIR into ROOT (dpkg-deb -x), and makes
#       ROOT/vh-plugins: the few GStreamer plugins the tests use
#       (coreelements, videotestsrc, videoconvertscale, videofilter, app,
#       rawparse, hip, nvcodec), so that plugins whose libraries are not
#       there are never scanned.
#   scripts/gst128-run.sh ROOT PROGRAM [ARGS...]
#       runs PROGRAM (a name in ROOT/usr/bin such as gst-launch-1.0, or a
#       path such as build/tests/gst-hip/test-gst-gsthip-memory) with
#       ROOT's dynamic loader and libraries first, ROOT/vh-plugins as the
#       system plugins, vmafhip's plugin from $VH_PLUGIN_DIR (default
#       build/gst) and a registry of its own in ROOT. The packages need a
#       newer C library than Debian 12's, hence ROOT's loader; the
#       registry is scanned in process (GST_REGISTRY_FORK=no), since the
#       plugin scanner would start with the system's loader. Where
#       compute-sanitizer runs the program, give it as
#       "compute-sanitizer --tool memcheck PROGRAM": the loader then runs
#       compute-sanitizer, which starts PROGRAM with ROOT's libraries
#       through LD_LIBRARY_PATH.
set -eu

plugins='coreelements videotestsrc videoconvertscale videofilter app rawparse hip
nvcodec'

if [ "${1:-}" = --unpack ]; then
  debs=$2 root=$3
  mkdir -p "$root/vh-plugins"
  for d in "$debs"/*.deb; do dpkg-deb -x "$d" "$root"; done
  for p in $plugins; do
    f="usr/lib/x86_64-linux-gnu/gstreamer-1.0/libgst$p.so"
    # relative, so that ROOT may be given relative and moved elsewhere
    [ -e "$root/$f" ] && ln -sf "../$f" "$root/vh-plugins/"
  done
  exit 0
fi

if [ $# -lt 2 ]; then
  sed -n '2,26p' "$0" >&2
  exit 2
fi
root=$(cd "$1" && pwd)
shift
lib="$root/usr/lib/x86_64-linux-gnu"
program=$1
shift
if [ -x "$root/usr/bin/$program" ]; then
  program="$root/usr/bin/$program"
elif ! [ -e "$program" ]; then
  program=$(command -v "$program")
fi
export GST_PLUGIN_SYSTEM_PATH_1_0="$root/vh-plugins"
export GST_PLUGIN_PATH_1_0="${VH_PLUGIN_DIR:-build/gst}"
export GST_REGISTRY_1_0="$root/registry-$(uname -m).bin"
export GST_REGISTRY_FORK=no
# ROOT's libraries before the system's, the system's for the rest (the GPU
# runtime, libGL, ...).
export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
exec "$lib/ld-linux-x86-64.so.2" --library-path "$LD_LIBRARY_PATH:/lib/x86_64-linux-gnu" "$program" "$@"
