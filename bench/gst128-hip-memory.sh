#!/bin/bash
# On the GPU machine, with Debian's GStreamer 1.28 unpacked into ROOT
# (scripts/gst128-run.sh --unpack DEBDIR ROOT): GStreamer 1.28's own HIP
# memory (hipupload) into vmafhipcompare, against vmafhipupload and system
# memory, for docs/performance.md.
#
#   [RUNS="..."] [SOURCE=raw|videotestsrc] \
#     bench/gst128-hip-memory.sh ROOT [BUILD] [FRAMES] [ROUNDS]
#
# 1. the test (build/tests/gst-hip/test-gst-gsthip-memory): values equal
#    to system memory, every frame read by device address; then the same
#    under compute-sanitizer memcheck when it is on PATH (left out when
#    RUNS is set);
# 2. FRAMES (default 600) distinct 1080p pairs, PLAYING to EOS, ROUNDS
#    (default 3) rounds of each run in RUNS (default all below, system
#    first): the whole process's frames per second, whether the results
#    file equals the system-memory run's, and the element's "input cost"
#    line (GST_DEBUG=vmafhipcompare:4): its start-up (start-to-first-pair),
#    its rate from the first pair to the last, how busy its aggregating
#    thread was, and the milliseconds each way of reading a frame took
#    (gsthip-early: 1.28's HIP memory made ready on its pad's thread, its
#    upload there; gsthip-map, gsthip-sync: when scored; own-hip; host),
#    and each pair and its submission. Each round ends with the ratio
#    hipupload / vmafhipupload of the element's rates (and of the
#    -queue runs').
#      system               the frames in system memory
#      hipupload            ! hipupload ! (1.28's HIP memory)
#      hipupload-queue      the same with a queue before each sink pad
#      vmafhipupload        ! vmafhipupload ! (vmafhip's HIP memory)
#      vmafhipupload-queue  the same with a queue before each sink pad
#    and without the element, each branch into a fakesink: source (the
#    sources alone), hipupload-alone, vmafhipupload-alone. 1.28's
#    hipupload alone only copies into its page-locked staging: the copy to
#    the device waits for the first mapping for the device (the
#    element's), so its rate alone is no uploader's.
#    The sources (SOURCE): raw (default), two raw I420 files of FRAMES
#    frames written once at the start (videotestsrc's smpte and ball) and
#    read back from the page cache (filesrc, a frame per read, and
#    rawvideoparse), faster than the element scores; videotestsrc, the
#    patterns made while the pipeline runs (two of them make about 65
#    pairs a second on the H200's host, slower than the element: every
#    run then goes at the sources' pace).
#    The whole-process rate includes start-up (1.28's hip plugin and the
#    CUDA runtime load for hipupload only); the element's line does not.
set -eu

root=$1
build=${2:-build}
frames=${3:-600}
rounds=${4:-3}
source=${SOURCE:-raw}
here=$(cd "$(dirname "$0")/.." && pwd)
run="$here/scripts/gst128-run.sh"
export VH_PLUGIN_DIR="$build/gst"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ -z "${RUNS:-}" ]; then
  echo "== test-gst-gsthip-memory"
  VH_TEST_FRAMES=120 "$run" "$root" \
    "$build/tests/gst-hip/test-gst-gsthip-memory"
  if command -v compute-sanitizer > /dev/null; then
    echo "== the same under compute-sanitizer memcheck"
    # the sanitizer runs on the system's loader and follows the test into
    # the 1.28 loader that gst128-run.sh starts
    VH_TEST_FRAMES=30 compute-sanitizer --tool memcheck --leak-check full \
      --error-exitcode 9 --target-processes all \
      "$run" "$root" "$build/tests/gst-hip/test-gst-gsthip-memory" ||
      echo "compute-sanitizer: exit status $?"
  fi
fi

runs=${RUNS:-system hipupload hipupload-queue vmafhipupload
vmafhipupload-queue source hipupload-alone vmafhipupload-alone}
width=1920
height=1080
caps=video/x-raw,format=I420,width=$width,height=$height,framerate=25/1
hipcaps="video/x-raw(memory:HIPMemory),format=I420,width=$width,height=$height"
frame_size=$((width * height * 3 / 2))

case $source in
  raw)
    echo "== $frames frames of each raw clip into $tmp"
    for pattern in smpte ball; do
      "$run" "$root" gst-launch-1.0 -q videotestsrc num-buffers="$frames" \
        pattern=$pattern ! "$caps" ! filesink location="$tmp/$pattern.yuv"
    done
    ;;
  videotestsrc) ;;
  *) echo "SOURCE: raw or videotestsrc, not $source" >&2; exit 2 ;;
esac

# One input's source: a raw clip read back, or the pattern made now.
input () {
  local pattern=$1

  if [ "$source" = raw ]; then
    echo "filesrc location=$tmp/$pattern.yuv blocksize=$frame_size !" \
      "rawvideoparse format=i420 width=$width height=$height" \
      "framerate=25/1 ! $caps"
  else
    echo "videotestsrc num-buffers=$frames pattern=$pattern ! $caps"
  fi
}

# The two branches into the element, or each into a fakesink.
pipeline () {
  local upload=$1 out=$2 alone=$3 ref=c.ref_sink dist=c.dist_sink

  if [ -n "$alone" ]; then
    ref=fakesink dist=fakesink
  fi
  echo "$(input smpte) $upload ! $ref $(input ball) $upload ! $dist"
  if [ -z "$alone" ]; then
    echo "vmafhipcompare name=c backend=hip results-filename=$out ! fakesink"
  fi
}

# The element's rate of run $1 this round ("" when it has no line).
declare -A rate
ratio () {
  local a=${rate[$1]:-} b=${rate[$2]:-}

  if [ -n "$a" ] && [ -n "$b" ]; then
    printf '  ratio %s / %s: %s\n' "$1" "$2" \
      "$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", a / b }')"
  fi
}

for r in $(seq "$rounds"); do
  rate=()
  for what in $runs; do
    alone=
    case $what in
      system) upload= ;;
      hipupload) upload="! hipupload ! $hipcaps" ;;
      hipupload-queue) upload="! hipupload ! $hipcaps ! queue" ;;
      vmafhipupload) upload="! vmafhipupload ! $hipcaps" ;;
      vmafhipupload-queue) upload="! vmafhipupload ! $hipcaps ! queue" ;;
      source) upload='' alone=1 ;;
      hipupload-alone) upload="! hipupload ! $hipcaps" alone=1 ;;
      vmafhipupload-alone) upload="! vmafhipupload ! $hipcaps" alone=1 ;;
      *) echo "unknown run: $what" >&2; exit 2 ;;
    esac
    out="$tmp/$what.json"
    log="$tmp/$what.log"
    start=$(date +%s.%N)
    # shellcheck disable=SC2046
    if ! GST_DEBUG=vmafhipcompare:4 GST_DEBUG_NO_COLOR=1 \
      "$run" "$root" gst-launch-1.0 -q $(pipeline "$upload" "$out" "$alone") \
      2> "$log"; then
      tail -20 "$log"
      exit 1
    fi
    end=$(date +%s.%N)
    same=
    if [ -z "$alone" ] && [ -e "$tmp/system.json" ]; then
      same=$(python3 -c '
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
print("values equal" if a["frames"] == b["frames"] else "VALUES DIFFER")
' "$tmp/system.json" "$out")
    fi
    printf 'round %s %-20s %7.1f fps  %s\n' "$r" "$what" \
      "$(awk -v n="$frames" -v a="$start" -v b="$end" \
        'BEGIN { print n / (b - a) }')" "$same"
    # the element's own account, and what went wrong
    grep -o 'input cost: .*' "$log" | sed 's/^/    /' || true
    grep -E ' (WARN|ERROR) ' "$log" | head -5 | sed 's/^/    /' || true
    rate[$what]=$(grep -o 'input cost: .* rate=[0-9.]*' "$log" |
      sed 's/.*rate=//' | tail -1)
  done
  ratio hipupload vmafhipupload
  ratio hipupload-queue vmafhipupload-queue
done
