#!/bin/bash
# On the GPU machine, with Debian's GStreamer 1.28 unpacked into ROOT
# (scripts/gst128-run.sh --unpack DEBDIR ROOT): GStreamer 1.28's own HIP
# memory (hipupload) into vmafhipcompare, against vmafhipupload and system
# memory, for docs/performance.md.
#
#   bench/gst128-hip-memory.sh ROOT [BUILD] [FRAMES] [ROUNDS]
#
# 1. the test (build/tests/gst-hip/test-gst-gsthip-memory): values equal
#    to system memory, every frame read by device address; then the same
#    under compute-sanitizer memcheck when it is on PATH;
# 2. FRAMES (default 600) distinct 1080p pairs, PLAYING to EOS, ROUNDS
#    (default 3) rounds: hipupload, vmafhipupload and system memory into
#    the element (backend=hip, vmaf_v0.6.1), frames per second each, and
#    whether each run's results file equals the system-memory run's.
set -eu

root=$1
build=${2:-build}
frames=${3:-600}
rounds=${4:-3}
here=$(cd "$(dirname "$0")/.." && pwd)
run="$here/scripts/gst128-run.sh"
export VH_PLUGIN_DIR="$build/gst"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== test-gst-gsthip-memory"
VH_TEST_FRAMES=120 "$run" "$root" "$build/tests/gst-hip/test-gst-gsthip-memory"
if command -v compute-sanitizer > /dev/null; then
  echo "== the same under compute-sanitizer memcheck"
  VH_TEST_FRAMES=30 "$run" "$root" "$(command -v compute-sanitizer)" \
    --tool memcheck --leak-check full --error-exitcode 9 \
    "$build/tests/gst-hip/test-gst-gsthip-memory"
fi

caps=video/x-raw,format=I420,width=1920,height=1080
hipcaps='video/x-raw(memory:HIPMemory),format=I420,width=1920,height=1080'
pipeline () {
  local upload=$1 out=$2
  echo "videotestsrc num-buffers=$frames pattern=smpte ! $caps $upload !" \
    "c.ref_sink videotestsrc num-buffers=$frames pattern=ball ! $caps" \
    "$upload ! c.dist_sink vmafhipcompare name=c backend=hip" \
    "results-filename=$out ! fakesink"
}

for r in $(seq "$rounds"); do
  for what in system hipupload vmafhipupload; do
    case $what in
      system) upload= ;;
      hipupload) upload="! hipupload ! $hipcaps" ;;
      vmafhipupload) upload="! vmafhipupload ! $hipcaps" ;;
    esac
    out="$tmp/$what.json"
    start=$(date +%s.%N)
    # shellcheck disable=SC2046
    "$run" "$root" gst-launch-1.0 -q $(pipeline "$upload" "$out")
    end=$(date +%s.%N)
    same=$(python3 - "$tmp/system.json" "$out" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
print('values equal' if a['frames'] == b['frames'] else 'VALUES DIFFER')
PY
)
    # whole process: start-up included, alike for the three
    printf 'round %s %-14s %7.1f fps  %s\n' "$r" "$what" \
      "$(echo "$frames / ($end - $start)" | bc -l)" "$same"
  done
done
