#!/bin/sh
# Builds vmafhip with clang under ASan and UBSan (./build-fuzz, with the
# libFuzzer targets of tests/fuzz), runs the unit tests there, then fuzzes
# each target for FUZZ_SECONDS (default 120) from the seeds in
# tests/fuzz/corpus (and models/ for model files), as many targets at
# once as there are cores (FUZZ_JOBS). Prints the executions
# of each target; any crash, sanitizer report, leak or timeout fails, and
# the input that caused it is left as build-fuzz/crash-<target>-*.
set -eu
cd "$(dirname "$0")/.."
secs=${FUZZ_SECONDS:-120}

if [ ! -d build-fuzz ]; then
  CC=clang meson setup build-fuzz -Dfuzzing=true -Dtests=true \
    -Db_sanitize=address,undefined -Db_lundef=false \
    -Dhip_amd_kernels=disabled -Dhip_nvidia_kernels=disabled >/dev/null
fi
ninja -C build-fuzz

status=0
# The unit tests, less those that load a GPU stand-in (*-fake*, *-nodevice*,
# hip-rtc-*): the stand-ins carry the kernel emulator, C++ built by g++
# with GCC's ASan runtime, which cannot load beside clang's. They run
# natively and under valgrind.
tests=$(meson test -C build-fuzz --list --suite unit 2>/dev/null |
  sed -n 's#^vmafhip:unit / ##p' | grep -v -e fake -e nodevice -e '^hip-rtc')
# shellcheck disable=SC2086
meson test -C build-fuzz --print-errorlogs --num-processes 2 \
  --setup sanitize $tests || status=1

export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=detect_leaks=1:intercept_tls_get_addr=0

# fuzz_target T: fuzzes one target for $secs; its verdict goes to
# build-fuzz/fuzz-T.result, its log to build-fuzz/fuzz-T.log.
fuzz_target () {
  t=$1
  work=$(mktemp -d)
  seeds=tests/fuzz/corpus/$t
  max_len=65536
  if [ "$t" = model ]; then
    # the built-in models and the hand-made cases beside the others
    seeds="models tests/fuzz/corpus/model"
    max_len=524288
  fi
  log=build-fuzz/fuzz-$t.log
  # New inputs go to the first (scratch) directory, never to the seeds.
  if build-fuzz/tests/fuzz/fuzz-$t -max_total_time="$secs" \
      -max_len=$max_len -rss_limit_mb=2048 -timeout=20 \
      -artifact_prefix=build-fuzz/crash-$t- "$work" $seeds >"$log" 2>&1; then
    echo "fuzz-$t: $(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" |
      sed 's/Done //; s/ second/ s/'), no finding" > build-fuzz/fuzz-$t.result
  else
    echo "fuzz-$t: FAILED (log: $log)" > build-fuzz/fuzz-$t.result
  fi
  rm -rf "$work"
}

# Each fuzzer runs on one core: as many at once as there are cores
# (FUZZ_JOBS to choose), so the time is spent fuzzing, not waiting.
targets="model options y4m raw"
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
rm -f build-fuzz/fuzz-*.result
running=0
for t in $targets; do
  fuzz_target "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait
    running=0
  fi
done
wait
for t in $targets; do
  cat build-fuzz/fuzz-$t.result
  if grep -q FAILED build-fuzz/fuzz-$t.result; then
    tail -n 30 build-fuzz/fuzz-$t.log
    status=1
  fi
done
exit $status
