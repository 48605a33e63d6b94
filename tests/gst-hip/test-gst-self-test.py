#!/usr/bin/env python3
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
"""vmafhipcompare self-test=true through gst-launch-1.0 -m, on a GPU
stand-in whose kernels run nothing (VH_FAKE_CUDA_KERNELS=noop), so that
every GPU twin gives values unlike its CPU twin's:

- a "vmaf-self-test" element message with passed=false, the device line
  and one result line per twin, every one a FAIL naming its twin;
- a warning naming the failed features, which then run on the CPU (the
  results file's dispatch says psnr: cpu) and score every frame;
- with self-test=false (the default), no such message and psnr on the GPU;
- with backend=cpu, a message saying there was no GPU to test, passed.
The stand-in's exit check is on: memory left allocated exits 86.

Environment: as test-gpu-faults.py (GST_PLUGIN_PATH_1_0 and the rest, the
stand-in's through meson); skipped without gst-launch-1.0.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

FRAMES = 4
failures = []


def check(cond, what, out=''):
    if not cond:
        failures.append(what)
        print('not ok:', what)
        if out:
            print(out[-4000:])


def launch(results, extra):
    src = ('videotestsrc num-buffers=%d pattern=ball ! '
           'video/x-raw,format=I420,width=96,height=72' % FRAMES)
    cmd = ('%s ! c.ref_sink %s ! videobalance brightness=0.1 ! c.dist_sink '
           'vmafhipcompare name=c features=psnr results-filename=%s %s ! '
           'fakesink' % (src, src, results, extra)).split()
    proc = subprocess.run([shutil.which('gst-launch-1.0'), '-m'] + cmd,
                          capture_output=True, text=True, timeout=300)
    out = proc.stdout + proc.stderr
    print('$ ...vmafhipcompare', extra, '->', proc.returncode)
    return proc.returncode, out


def self_test_message(out):
    m = re.search(r'vmaf-self-test, (.*)', out)
    # the serialisation escapes spaces and punctuation
    return m.group(1).replace('\\', '') if m else None


def dispatch(results):
    with open(results) as f:
        log = json.load(f)
    return log.get('dispatch', ''), len(log.get('frames', []))


def main():
    if not shutil.which('gst-launch-1.0'):
        print('skipped: no gst-launch-1.0')
        sys.exit(77)
    tmp = tempfile.mkdtemp(prefix='vh-gst-self-test-')
    results = os.path.join(tmp, 'r.json')

    rc, out = launch(results, 'backend=hip self-test=true')
    msg = self_test_message(out)
    check(rc == 0, 'self-test=true: the pipeline runs (%d)' % rc, out)
    check(msg is not None, 'a vmaf-self-test message', out)
    if msg:
        check('passed=(boolean)false' in msg, 'it failed (kernels run '
              'nothing)', msg)
        check('device=(string)"device 0:' in msg, 'it names the device', msg)
        check(re.search(r'FAIL psnr \(', msg) is not None,
              'a FAIL line for psnr', msg)
        check(re.search(r'failed=\(string\)"[^"]*\bpsnr\b', msg) is not None,
              'failed lists psnr', msg)
    check('GPU self-test failed for' in out, 'a warning names the failures',
          out)
    if os.path.exists(results):
        where, n = dispatch(results)
        check('psnr: cpu' in where, 'psnr fell back to the CPU: ' + where)
        check(n == FRAMES, 'every frame scored (%d)' % n)

    os.unlink(results) if os.path.exists(results) else None
    rc, out = launch(results, 'backend=hip')
    check(rc == 0 and self_test_message(out) is None,
          'self-test=false: no self-test message', out)
    if os.path.exists(results):
        where, _ = dispatch(results)
        check('psnr: hip' in where, 'without it psnr runs on the GPU: ' +
              where)

    rc, out = launch(results, 'backend=cpu self-test=true')
    msg = self_test_message(out) or ''
    check(rc == 0 and 'passed=(boolean)true' in msg and
          'none: backend=cpu' in msg, 'backend=cpu: nothing to test, said',
          out)

    shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print('%d check(s) failed' % len(failures))
        sys.exit(1)
    print('all checks passed')


main()
