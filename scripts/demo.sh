#!/bin/sh
# The main job: installs what building and running vmafhip need (nothing
# for the tests), builds it, and compares an encoded file with its source
# through decodebin, printing VMAF and PSNR-Y per frame and the pooled
# scores (vmafhip-print), with libvmaf's JSON log beside.
#
#   scripts/demo.sh                   makes a 5 s 720p source (lossless
#                                     H.264 in MKV) and an x264 encode of
#                                     it at 1 Mbit/s (MP4), then compares
#   scripts/demo.sh REF DIST [OPTS]   compares two files of your own (any
#                                     container and codec decodebin reads);
#                                     OPTS go to vmafhip-print (see --help)
#
# backend=auto scores on a GPU through HIP where one is usable.
set -eu
cd "$(dirname "$0")/.."
./scripts/install-deps.sh --runtime
# GPU kernels are compiled at run time where a GPU is used, not ahead for
# every architecture (minutes on two cores where hipcc or nvcc is found).
./scripts/build.sh -Dhip_amd_kernels=disabled -Dhip_nvidia_kernels=disabled \
  >/dev/null
export GST_PLUGIN_PATH="$PWD/build/gst"

if [ $# -ge 2 ]; then
  ref=$1 dist=$2
  shift 2
else
  ref=build/demo-source.mkv dist=build/demo-x264.mp4
  if [ ! -s "$ref" ] || [ ! -s "$dist" ]; then
    echo "making $ref and $dist ..."
    # The source is kept losslessly (x264 at quantizer 0); its queue holds
    # as many frames as the encoder's look-ahead needs.
    gst-launch-1.0 -q videotestsrc num-buffers=150 pattern=zone-plate \
        kx2=20 ky2=20 kt=1 ! \
      video/x-raw,format=I420,width=1280,height=720,framerate=30/1 ! \
      tee name=t \
      t. ! queue max-size-time=0 max-size-buffers=0 max-size-bytes=0 ! \
        x264enc pass=quant quantizer=0 speed-preset=ultrafast ! \
        matroskamux ! filesink location="$ref" \
      t. ! queue max-size-time=0 max-size-buffers=0 max-size-bytes=0 ! \
        x264enc bitrate=1000 speed-preset=faster ! mp4mux ! \
        filesink location="$dist"
  fi
fi

echo "comparing $dist with $ref:"
./build/tools/vmafhip-print -o build/demo-vmaf.json "$@" "$ref" "$dist"
echo "per-frame log in libvmaf's JSON layout: build/demo-vmaf.json"
