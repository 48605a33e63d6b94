#!/bin/bash
# Runs the GPU tests of a build directory on a machine that has a GPU but no
# meson (the device machine), each under compute-sanitizer memcheck, and
# prints a summary.
#
# Here, after building:     scripts/gpu-tests.sh --list BUILDDIR
#   saves the tests (from `meson introspect --tests`) into
#   BUILDDIR/gpu-tests.list, with paths relative to the source tree.
# Optionally:                scripts/gpu-tests.sh --pack BUILDDIR DEST [FILE...]
#   copies what the GPU tests need (their executables, the build's shared
#   libraries, and each FILE of the build, e.g. bench/bench-gpu) into DEST
#   inside the tree (an ignored directory such as .gpu/NAME), stripped, with
#   its own gpu-tests.list: a build small enough to carry to the device.
# There, in the source tree: scripts/gpu-tests.sh BUILDDIR [options]
#   --suite S        run the tests of suite S (default: gpu); "all" for every
#                    test in the list
#   --filter REGEX   only tests whose name matches
#   --no-sanitizer   run the tests plainly
#   --out DIR        one log per test there (default: BUILDDIR/gpu-test-logs)
# Exit status: 0 when no test failed (skips, exit 77, are not failures).
#
# Each test gets the environment meson would give it; LD_LIBRARY_PATH and
# PATH are prepended to the caller's (a runtime bundle's libraries stay
# visible), and a GStreamer system plugin path that does not exist there is
# replaced by the caller's GST_PLUGIN_SYSTEM_PATH.
set -u

list_tests () {
  local build=$1 src
  src=$(cd "$(dirname "$0")/.." && pwd)
  build=$(cd "$build" && pwd)
  meson introspect --tests "$build" | python3 -c '
import json, shlex, sys
src = sys.argv[1]
def rel(s):
    return s.replace(src, "@ROOT@")
for t in json.load(sys.stdin):
    suites = ",".join(s.split(":")[-1] for s in t["suite"])
    env = " ".join(shlex.quote("%s=%s" % (k, rel(v))) for k, v in sorted(t["env"].items()))
    cmd = " ".join(shlex.quote(rel(c)) for c in t["cmd"])
    print("\t".join([t["name"], suites, str(t.get("timeout") or 300), env, cmd]))
' "$src" > "$build/gpu-tests.list" || exit 1
  echo "$(wc -l < "$build/gpu-tests.list") tests listed in $build/gpu-tests.list"
}

pack_tests () {
  local build=$1 dest=$2 src brel drel f
  shift 2
  src=$(cd "$(dirname "$0")/.." && pwd)
  build=$(cd "$build" && pwd)
  list_tests "$build" > /dev/null || return 1
  mkdir -p "$dest"
  dest=$(cd "$dest" && pwd)
  brel=${build#"$src"/}
  drel=${dest#"$src"/}
  {
    awk -F'\t' '$2 ~ /(^|,)gpu(,|$)/ { split($5, c, " "); print c[1] }' \
      "$build/gpu-tests.list" | sed "s#^'\\{0,1\\}@ROOT@/$brel/##; s#'\$##"
    # programs a GPU test names in its environment (VH_SCORE=..., ...)
    awk -F'\t' '$2 ~ /(^|,)gpu(,|$)/ { print $4 }' "$build/gpu-tests.list" |
      tr ' ' '\n' | sed -n "s#^[A-Z_0-9]*='\\{0,1\\}@ROOT@/$brel/\\([^']*\\)'\\{0,1\\}\$#\\1#p"
    (cd "$build" && find . -name '*.so' -not -path './meson-*' | sed 's#^\./##')
    for f in "$@"; do echo "$f"; done
  } | sort -u | while read -r f; do
    [ -f "$build/$f" ] || continue
    mkdir -p "$dest/$(dirname "$f")"
    cp "$build/$f" "$dest/$f"
    strip --strip-unneeded "$dest/$f" 2>/dev/null || true
  done
  sed "s#@ROOT@/$brel/#@ROOT@/$drel/#g" "$build/gpu-tests.list" \
    > "$dest/gpu-tests.list"
  echo "packed into $dest: $(du -sh "$dest" | cut -f1)"
}

if [ "${1:-}" = "--pack" ]; then
  [ $# -ge 3 ] || { echo "usage: $0 --pack BUILDDIR DEST [FILE...]" >&2; exit 2; }
  shift
  pack_tests "$@"
  exit $?
fi

if [ "${1:-}" = "--list" ]; then
  [ $# -eq 2 ] || { echo "usage: $0 --list BUILDDIR" >&2; exit 2; }
  list_tests "$2"
  exit $?
fi

[ $# -ge 1 ] || { sed -n '2,20p' "$0" >&2; exit 2; }
build=$1
shift
suite=gpu
filter=
sanitizer=1
out=
while [ $# -gt 0 ]; do
  case $1 in
    --suite) suite=$2; shift ;;
    --filter) filter=$2; shift ;;
    --no-sanitizer) sanitizer=0 ;;
    --out) out=$2; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

root=$(cd "$(dirname "$0")/.." && pwd)
list=$build/gpu-tests.list
[ -f "$list" ] || { echo "$list missing: run '$0 --list $build' where meson is" >&2; exit 2; }
out=${out:-$build/gpu-test-logs}
mkdir -p "$out"

cs=
if [ $sanitizer = 1 ]; then
  cs=$(command -v compute-sanitizer || true)
  for c in /usr/local/cuda/bin/compute-sanitizer /opt/cuda/bin/compute-sanitizer; do
    [ -n "$cs" ] || { [ -x "$c" ] && cs=$c; }
  done
  [ -n "$cs" ] || echo "compute-sanitizer not found: running without it"
fi

pass=0 fail=0 skip=0 clean=0 dirty=0
summary=
while IFS=$'\t' read -r name suites timeout envs cmd; do
  [ "$suite" = all ] || [[ ",$suites," == *",$suite,"* ]] || continue
  [ -z "$filter" ] || [[ $name =~ $filter ]] || continue
  envs=${envs//@ROOT@/$root}
  cmd=${cmd//@ROOT@/$root}
  log=$out/$name.log
  start=$(date +%s%N)
  (
    # From the tree root, where tests find the in-tree golden subset.
    cd "$root" || exit 1
    # A test names its plugin directory in GST_PLUGIN_PATH_1_0 (empty for
    # those that register the elements they link); a caller's
    # GST_PLUGIN_PATH would load the plugin file besides, and its copies of
    # the types clash with the test's ("cannot register existing type").
    unset GST_PLUGIN_PATH
    eval "set -- $envs"
    for kv in "$@"; do
      k=${kv%%=*} v=${kv#*=}
      case $k in
        LD_LIBRARY_PATH|PATH) v="$v${!k:+:${!k}}" ;;
        GST_PLUGIN_SYSTEM_PATH_1_0)
          [ -d "$v" ] || v=${GST_PLUGIN_SYSTEM_PATH:-$v} ;;
      esac
      export "$k=$v"
    done
    eval "set -- $cmd"
    # An interpreter recorded by absolute path on the build machine (a
    # script test's python3) is taken from this machine's PATH.
    if [ ! -x "$1" ] && command -v "${1##*/}" > /dev/null; then
      first=$(command -v "${1##*/}")
      shift
      set -- "$first" "$@"
    fi
    if [ -n "$cs" ]; then
      # Leaks of device memory at exit count too; 86 marks sanitizer errors.
      exec timeout $((timeout * 4)) "$cs" --tool memcheck --leak-check full \
        --error-exitcode 86 --print-limit 20 "$@"
    else
      exec timeout "$timeout" "$@"
    fi
  ) < /dev/null > "$log" 2>&1
  rc=$?
  # compute-sanitizer answers 255 for a program that exits before its
  # first GPU call: a test that skips (77) at once, such as one needing a
  # plugin this runtime lacks. Its own status is then the one to report.
  if [ -n "$cs" ] && [ $rc -eq 255 ] &&
    grep -q "terminated before first instrumented API call" "$log" &&
    grep -q -i "^skip" "$log"; then
    rc=77
  fi
  ms=$((($(date +%s%N) - start) / 1000000))
  san=
  if [ -n "$cs" ]; then
    if grep -q "ERROR SUMMARY: 0 errors" "$log"; then
      san=" memcheck clean"; clean=$((clean + 1))
    elif grep -q "ERROR SUMMARY:" "$log"; then
      san=" memcheck: $(grep "ERROR SUMMARY:" "$log" | tail -1 | sed 's/.*ERROR SUMMARY: //')"
      dirty=$((dirty + 1))
    fi
  fi
  case $rc in
    0) verdict=PASS; pass=$((pass + 1)) ;;
    77) verdict=SKIP; skip=$((skip + 1)) ;;
    124) verdict="FAIL (timeout)"; fail=$((fail + 1)) ;;
    86) verdict="FAIL (sanitizer)"; fail=$((fail + 1)) ;;
    *) verdict="FAIL (exit $rc)"; fail=$((fail + 1)) ;;
  esac
  line=$(printf '%-28s %-18s %4d.%01ds%s' "$name" "$verdict" $((ms / 1000)) \
      $((ms % 1000 / 100)) "$san")
  echo "$line"
  summary+="$line"$'\n'
  if [ $rc -ne 0 ] && [ $rc -ne 77 ]; then
    tail -n 25 "$log" | sed 's/^/    | /'
  fi
done < "$list"

echo "== GPU tests: $pass passed, $fail failed, $skip skipped${cs:+; memcheck clean in $clean, errors in $dirty} (logs in $out)"
[ $fail -eq 0 ]
