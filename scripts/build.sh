#!/bin/sh
# Configures (once, with any meson options given) and builds vmafhip in
# ./build.
set -eu
cd "$(dirname "$0")/.."
[ -f build/build.ninja ] || meson setup build "$@" >/dev/null
ninja -C build
