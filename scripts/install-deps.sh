#!/bin/sh
# Installs the Debian (bookworm) packages that vmafhip builds, runs and
# tests with (hipcc and the ROCm device libraries precompile the HIP kernels
# for AMD GPUs; no GPU is needed; libsoup serves vmafhip-monitor's /metrics
# and its test scrapes them with Prometheus; clang builds the libFuzzer
# targets; gst-plugins-bad, -ugly and libav are not needed, but installed
# as on a user's machine they prove that the tests load only the plugins
# they use). Run as root, or as a user with sudo.
set -eu

packages="
  build-essential meson ninja-build pkg-config
  libglib2.0-dev libglib2.0-dev-bin libjson-glib-dev
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  python3 python3-gi gir1.2-gstreamer-1.0 gir1.2-gst-plugins-base-1.0
  valgrind clang help2man python3-matplotlib zlib1g-dev
  libsoup-3.0-dev prometheus
  hipcc libamdhip64-dev rocm-device-libs
  gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly gstreamer1.0-libav
"

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
