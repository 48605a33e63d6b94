#!/usr/bin/env python3
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
"""vmafhip-score --self-test against a GPU stand-in that runs the kernels'
source (VH_FAKE_CUDA_KERNELS=emulate), or on a GPU (VH_TEST_MODE=gpu).

- Every twin named in VH_TEST_TWINS (all of them on a GPU) passes, with a
  largest difference of 0 where the twin is exact; the first line names
  the device, its vendor and architecture, the runtime and how the kernels
  were loaded; the exit status is 0.
- In a fault-injection build (VH_HIP_FAULT_BUILT=1), a twin broken on
  purpose (VH_HIP_SELF_TEST_BREAK) fails by name with the frame and
  values, the others still pass, and the exit status is 1.
- Without a device: exit 77 and a message saying why; a twin that does not
  exist and --backend cpu: exit 2.
The stand-in's exit check is on: memory left allocated exits 86.

Environment: VH_SCORE (vmafhip-score), VH_TEST_VENDOR (nvidia or amd),
VH_TEST_TWINS (comma-separated), VH_HIP_FAULT_BUILT.
"""

import os
import re
import subprocess
import sys

SCORE = os.environ['VH_SCORE']
GPU_MODE = os.environ.get('VH_TEST_MODE') == 'gpu'
VENDOR = os.environ.get('VH_TEST_VENDOR', 'nvidia')
TWINS = [t for t in os.environ.get('VH_TEST_TWINS', '').split(',') if t]
EXACT = {'psnr', 'motion', 'adm', 'vif', 'cambi', 'psnr_hvs', 'float_motion',
         'float_vif', 'float_adm', 'float_moment', 'float_ansnr'}

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print('not ok:', what)


def self_test(extra_env=None, args=(), twins=None):
    env = dict(os.environ)
    env.update(extra_env or {})
    feature_args = []
    for t in TWINS if twins is None else twins:
        feature_args += ['--feature', t]
    proc = subprocess.run([SCORE, '--self-test'] + feature_args + list(args),
                          env=env, capture_output=True, text=True,
                          timeout=900)
    print('$ vmafhip-score --self-test', ' '.join(feature_args + list(args)),
          '->', proc.returncode)
    print(proc.stdout + proc.stderr)
    return proc


def verdicts(out):
    return {m.group(2): (m.group(1), m.group(3)) for m in
            re.finditer(r'^(PASS|FAIL|SKIP) (\w+) \((.*)\)$', out, re.M)}


def check_header(out):
    first = out.splitlines()[0] if out else ''
    check(re.match(r'device 0: .+ \((amd|nvidia), (gfx|sm_)\w+, ', first),
          'first line names the device, vendor and arch: ' + first)
    check('runtime: ' in first and 'kernels: ' in first,
          'first line says the runtime and how kernels were loaded')
    if not GPU_MODE:
        check(('(%s, ' % VENDOR) in first, 'the vendor is ' + VENDOR)
        # precompiled where the build had nvcc or hipcc, else compiled
        # at run time by the stand-in's compiler
        check(re.search(r'kernels: (precompiled|run-time compiled)', first),
              'the way the stand-in\'s kernels were loaded: ' + first)


def test_all_pass():
    proc = self_test()
    if GPU_MODE and proc.returncode == 77:
        print('# no GPU: skipped')
        sys.exit(77)
    check(proc.returncode == 0, 'every twin passes (exit %d)'
          % proc.returncode)
    check_header(proc.stdout)
    v = verdicts(proc.stdout)
    for t in TWINS:
        check(t in v and v[t][0] == 'PASS', '%s passes: %s' % (t, v.get(t)))
        if t in EXACT and t in v:
            check(v[t][1] == 'max |diff| 0', '%s is exact: %s' % (t, v[t][1]))
    if not TWINS:
        check(len(v) >= 17, 'a line for every twin (%d)' % len(v))
    check(proc.stdout.rstrip().endswith('PASSED: 0 of %d GPU features failed'
                                        % len(v)), 'a last line of totals')


def test_broken_twin():
    if os.environ.get('VH_HIP_FAULT_BUILT') != '1':
        print('# no fault injection in this build: broken twin not tested')
        return
    broken = 'motion' if not TWINS or 'motion' in TWINS else TWINS[0]
    # the broken twin and one other, which must still pass
    others = [t for t in TWINS or ['adm'] if t != broken][:1]
    proc = self_test({'VH_HIP_SELF_TEST_BREAK': broken},
                     twins=[broken] + others)
    check(proc.returncode == 1, 'a broken twin fails the run (exit %d)'
          % proc.returncode)
    v = verdicts(proc.stdout)
    check(v.get(broken, ('',))[0] == 'FAIL', broken + ' fails by name')
    check(re.search(r'frame \d+: \S+ \S+ on the CPU vs \S+ on the GPU',
                    v.get(broken, ('', ''))[1]) is not None,
          'the failure names the frame and both values')
    for t, (verdict, _) in v.items():
        if t != broken:
            check(verdict == 'PASS', '%s still passes (%s)' % (t, verdict))
    check('FAILED: 1 of' in proc.stdout, 'the totals say one failed')


def test_refusals():
    if GPU_MODE:
        return
    proc = self_test({'VH_FAKE_CUDA_DEVICES': '0'}, twins=[])
    check(proc.returncode == 77, 'no device: exit 77 (%d)' % proc.returncode)
    check('no GPU to test' in proc.stderr, 'no device: said why')
    proc = self_test(args=('--feature', 'no_such_twin'), twins=[])
    check(proc.returncode == 2 and 'no_such_twin' in proc.stderr,
          'an unknown twin is refused by name')
    proc = self_test(args=('--backend', 'cpu'), twins=[])
    check(proc.returncode == 2 and '--backend cpu' in proc.stderr,
          '--backend cpu is refused')


test_all_pass()
test_broken_twin()
test_refusals()
if failures:
    print('%d check(s) failed' % len(failures))
    sys.exit(1)
print('all checks passed')
