#!/bin/sh
# The main job: installs what vmafhip needs, builds it, and runs a real
# GStreamer pipeline in which vmafhipcompare compares a distorted stream
# (an x264 encode) with its reference, printing VMAF and PSNR-Y per frame as
# the bus messages arrive, then the pooled scores; it also writes libvmaf's
# JSON log. backend=auto uses a GPU through HIP where one is usable.
set -eu
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh >/dev/null

clips=tests/data/golden/yuv
export GST_PLUGIN_PATH="$PWD/build/gst"
# Raw files pack odd-width rows tightly; GStreamer's default I420 layout pads
# rows to 4 bytes, so the planes are described explicitly.
parse="rawvideoparse width=321 height=241 format=i420 framerate=25/1 \
  plane-strides=<321,161,161> plane-offsets=<0,77361,96842> frame-size=116323"
./build/examples/print-scores --pipeline "\
  filesrc location=$clips/d_321x241_8bit_ref.yuv ! $parse ! c.ref_sink \
  filesrc location=$clips/d_321x241_8bit_x264.yuv ! $parse ! c.dist_sink \
  vmafhipcompare name=c features=psnr results-filename=build/demo-vmaf.json \
  ! fakesink"
echo "per-frame log in libvmaf's JSON layout: build/demo-vmaf.json"
