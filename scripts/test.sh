#!/bin/sh
# Installs what vmafhip needs, builds it from scratch in ./build-test and
# runs every test: unit and parity tests (against libvmaf's golden scores;
# the full set when ../shared/golden is beside the checkout), then the
# CPU, element and HIP-memory tests again under valgrind on the small golden
# subset, the unit tests under ASan and UBSan and the fuzz targets for two
# minutes each. GPU tests skip (exit 77) where there is no GPU.
set -eu
cd "$(dirname "$0")/.."
./scripts/install-deps.sh

# Kernels must compile: for AMD with hipcc always, to PTX where nvcc is.
kernels="-Dhip_amd_kernels=enabled"
if command -v nvcc >/dev/null 2>&1; then
  kernels="$kernels -Dhip_nvidia_kernels=enabled"
fi
rm -rf build-test
meson setup build-test -Dtests=true $kernels >/dev/null
ninja -C build-test

status=0
meson test -C build-test --print-errorlogs --num-processes 2 || status=1
meson test -C build-test --print-errorlogs --num-processes 2 \
  --setup valgrind --suite unit || status=1
# The element and HIP-memory tests (fake GPU driver) and the monitor's
# statistics under valgrind too.
meson test -C build-test --print-errorlogs --num-processes 2 \
  --setup gstvalgrind gst-element gst-timing gst-flow gst-results gst-caps \
  gst-formats gst-home gst-inspect gst-scale gst-ladder gst-windows \
  gst-events gst-luma-stats gst-signatures gst-content-holdings \
  gst-hip-nogpu gst-hip-fake gst-hip-compare-fake \
  gst-hip-foreign-nogpu gst-hip-foreign-fake gst-two-devices-fake \
  gst-gpu-lost-fake monitor-stats || status=1
# The unit tests under ASan and UBSan, then every fuzz target for two
# minutes (scripts/fuzz.sh, in ./build-fuzz built with clang).
rm -rf build-fuzz
./scripts/fuzz.sh || status=1

# One summary line for every run above.
python3 - build-test/meson-logs/testlog.json \
  build-test/meson-logs/testlog-valgrind.json \
  build-test/meson-logs/testlog-gstvalgrind.json \
  build-fuzz/meson-logs/testlog-sanitize.json <<'PY'
import json, sys
passed = failed = skipped = 0
failures = []
for path in sys.argv[1:]:
    try:
        lines = open(path).read().splitlines()
    except OSError:
        continue
    for line in lines:
        test = json.loads(line)
        r = test.get("result")
        if r in ("OK", "EXPECTEDFAIL"):
            passed += 1
        elif r == "SKIP":
            skipped += 1
        else:
            failed += 1
            failures.append((path, test))
# A CI log may keep only its end: repeat each failure's name and the end
# of its output here, last.
for path, test in failures:
    name, result, log = test.get("name"), test.get("result"), path.split("/")[-1]
    print(f"FAILED: {name} ({result}) in {log}")
    out = (test.get("stdout") or "") + (test.get("stderr") or "")
    for text in out.splitlines()[-25:]:
        print(f"  | {text}")
print(f"{passed} passed, {failed} failed, {skipped} skipped")
PY
exit $status
