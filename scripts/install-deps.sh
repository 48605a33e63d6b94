#!/bin/sh
# Installs the Debian (bookworm) packages vmafhip needs. Run as root, or as
# a user with sudo.
#
#   install-deps.sh --runtime   what building and running need: the
#                               compiler, GLib, json-glib, GStreamer with
#                               its base, good, ugly and libav plugins (so
#                               decodebin reads H.264 MP4, MKV, TS, VP9)
#   install-deps.sh             all of that, plus what the tests and the
#                               GPU kernels' precompilation need: valgrind
#                               and clang (sanitizers, libFuzzer), gdb (the
#                               threads of a test that hangs), libsoup
#                               and Prometheus (vmafhip-monitor and its
#                               test), hipcc and the ROCm device libraries
#                               (AMD kernels, no GPU needed), help2man,
#                               matplotlib (vmafhip-plot), the bad plugins
#                               (the tests must not depend on which
#                               plugins a machine has)
set -eu

runtime="
  build-essential meson ninja-build pkg-config
  libglib2.0-dev libglib2.0-dev-bin libjson-glib-dev
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  gstreamer1.0-plugins-ugly gstreamer1.0-libav
"
testing="
  python3 python3-gi gir1.2-gstreamer-1.0 gir1.2-gst-plugins-base-1.0
  valgrind gdb clang help2man python3-matplotlib zlib1g-dev
  libsoup-3.0-dev prometheus python3-yaml gstreamer1.0-plugins-bad
  hipcc libamdhip64-dev rocm-device-libs
"

case "${1:-}" in
  --runtime) packages=$runtime ;;
  "") packages="$runtime $testing" ;;
  *) echo "usage: $0 [--runtime]" >&2; exit 2 ;;
esac

if [ "$(id -u)" -eq 0 ]; then
  as_root=""
else
  as_root="sudo"
fi

missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
    missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "installing:$missing"
  $as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq \
    --no-install-recommends $missing >/dev/null
fi
