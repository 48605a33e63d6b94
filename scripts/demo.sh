#!/bin/sh
# The main job: installs what vmafhip needs, builds it, and scores a
# distorted clip against its reference with VMAF (vmaf_v0.6.1), printing
# the pooled score and writing a libvmaf-style JSON log.
set -eu
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh >/dev/null

clips=tests/data/golden/yuv
echo "== vmafhip-score: 321x241 x264 clip against its reference =="
./build/src/cli/vmafhip-score -q \
  -r $clips/d_321x241_8bit_ref.yuv -d $clips/d_321x241_8bit_x264.yuv \
  -w 321 -h 241 -p 420 -b 8 --threads 2 \
  --feature psnr --json -o build/demo-vmaf.json
echo "per-frame log: build/demo-vmaf.json"
