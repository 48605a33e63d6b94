#!/usr/bin/env python3
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
"""GPU faults, injected through the fake CUDA driver (fake-cuda.c), or the
fake AMD HIP runtime (fake-hip-amd.c) with VH_TEST_VENDOR=amd.

Each case runs vmafhip-score, or a pipeline with vmafhipcompare (through
tests/gst-hip/run-pipeline.c, gst-launch-1.0 without its race: an error
posted before gst-launch's main loop runs is lost and the rest of the
pipeline waits for ever, which a stream failing as it starts hit under
load), in a process of its own (the driver counts calls per process) with one fault:
a device allocation, a kernel launch or a synchronisation failing at its
Nth call, an illegal address (which stays, as on a GPU), or too little
device memory for several streams at once. The driver's exit check is on:
memory left allocated fails the run with status 86.

- backend hip: an error naming the device, the call and (where scoring
  failed) the frame and feature; the run ends within its time limit; the
  results file holds the frames scored before it, as said.
- backend auto: a warning that the GPU failed and scoring went on on the
  CPU; every frame is in the results file, and the dispatch says so. So
  too after an illegal address, which leaves the device unusable for good
  (the element's frames in its HIP memory are read from their host copy,
  and its pool offered upstream gives way to system memory).
  Kernels of the fake driver run nothing, so frames the GPU scored hold
  meaningless values: from the frame that failed on (plus the frames other
  workers had in hand), every frame equals the CPU run exactly.

The same faults come from the HIP layer itself with VH_HIP_FAULT
(hip/runtime/hip-fault.c: alloc, launch, sync), on the fake driver here and
on a real GPU with VH_TEST_MODE=gpu (exit 77 without one). There kernels
run, so every frame equals the CPU run; with VH_COMPUTE_SANITIZER naming
compute-sanitizer, each run goes through its memcheck with leak check.

Environment: VH_SCORE (vmafhip-score), VH_RUN_PIPELINE (run-pipeline;
without it gst-launch-1.0, and element cases skip without that),
VH_FAKE_CUDA (the driver), VH_FAKE_HIP_AMD (the AMD runtime),
VH_TEST_VENDOR (nvidia or amd), GST_PLUGIN_PATH_1_0 (the plugin).
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

GPU_MODE = os.environ.get('VH_TEST_MODE') == 'gpu'
AMD = os.environ.get('VH_TEST_VENDOR') == 'amd'
FAKE_LABEL = 'fake AMD HIP runtime' if AMD else 'fake CUDA driver'
DEVICE = 'device 0 (' if GPU_MODE else 'device 0 (vmafhip fake device 0)'
FRAMES = 24
# frames another worker or lane may have had in hand when the GPU failed
IN_HAND = 12
TIME_LIMIT = 120

failures = []


def fail(case, what, out=''):
    failures.append('%s: %s\n%s' % (case, what, out[-3000:]))


def report(case):
    failed = any(f.startswith(case + ': ') for f in failures)
    print('FAILED:' if failed else 'ok:', case)


def fake_env(fault=None, memory=None, hip_fault=None):
    env = dict(os.environ)
    env.pop('VH_HIP_FAULT', None)
    if hip_fault:
        env['VH_HIP_FAULT'] = hip_fault
    if GPU_MODE:
        return env
    if AMD:
        env.update({
            'VH_HIP_AMD_RUNTIME': os.environ['VH_FAKE_HIP_AMD'],
            'VH_HIP_HIPRTC': os.environ['VH_FAKE_HIP_AMD'],
            'VH_HIP_NVIDIA_RUNTIME': 'libvh-missing-cuda.so',
        })
    else:
        env.update({
            'VH_HIP_AMD_RUNTIME': 'libvh-missing-amd.so',
            'VH_HIP_NVIDIA_RUNTIME': os.environ['VH_FAKE_CUDA'],
            'VH_HIP_NVRTC': os.environ['VH_FAKE_CUDA'],
        })
    env.update({
        'VH_FAKE_CUDA_KERNELS': 'noop',
        'VH_FAKE_CUDA_EXIT_CHECK': '1',
    })
    env.pop('VH_FAKE_CUDA_FAIL', None)
    env.pop('VH_FAKE_CUDA_MEMORY', None)
    if fault:
        env['VH_FAKE_CUDA_FAIL'] = fault
    if memory:
        env['VH_FAKE_CUDA_MEMORY'] = str(memory)
    return env


def run(case, argv, env):
    sanitizer = os.environ.get('VH_COMPUTE_SANITIZER')
    if GPU_MODE and sanitizer:
        argv = [sanitizer, '--tool', 'memcheck', '--leak-check', 'full',
                '--error-exitcode', '86', '--print-limit', '20'] + argv
    try:
        p = subprocess.run(argv, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=TIME_LIMIT)
    except subprocess.TimeoutExpired:
        fail(case, 'still running after %d s (a hang)' % TIME_LIMIT)
        return None, ''
    out = p.stdout.decode(errors='replace')
    if p.returncode == 86 or 'alive at exit' in out:
        fail(case, 'GPU memory left allocated at exit (or a sanitizer '
             'error)', out)
    m = re.search(FAKE_LABEL + r': (\d+) faults injected', out)
    if 'VH_HIP_FAULT: ' not in out and (not m or int(m.group(1)) == 0):
        fail(case, 'no fault was injected', out)
    return p.returncode, out


def write_y4m(path, n, w=64, h=64, seed=1):
    """Textured frames that move, so that every feature has work."""
    frame = w * h * 3 // 2
    with open(path, 'wb') as f:
        f.write(b'YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C420jpeg\n' % (w, h))
        for i in range(n):
            f.write(b'FRAME\n')
            f.write(bytes(((x * 7 + (x // w) * 3 + i * 5 + seed * 11)
                           ^ (x * 13 >> 3)) & 0xff for x in range(frame)))


def load(path):
    with open(path) as f:
        return json.load(f)


def refused(out):
    """Calls the fake driver refused once the context was lost."""
    m = re.search(r'(\d+) calls refused after the context was lost', out)
    return int(m.group(1)) if m else 0


def first_frame(out):
    """The frame the GPU failed on, 0 when it failed at start."""
    m = re.search(r'GPU failed \((?:frame (\d+))?', out)
    return int(m.group(1)) if m and m.group(1) else 0


def check_fallback(case, log, cpu, n, out):
    frames = log['frames']
    if len(frames) != n:
        fail(case, '%d frames in the results file, %d in' % (len(frames), n),
             out)
        return
    if 'then cpu (the GPU failed)' not in log.get('dispatch', ''):
        fail(case, 'the dispatch does not say: %s' % log.get('dispatch'))
    # A GPU's kernels run: its frames equal the CPU's too.
    start = 0 if GPU_MODE else min(first_frame(out) + IN_HAND, n)
    for i, (a, b) in enumerate(zip(frames, cpu['frames'])):
        if sorted(a['metrics']) != sorted(b['metrics']):
            fail(case, 'frame %d lacks values: %s' % (i, sorted(a['metrics'])))
            return
        if i >= start and a['metrics'] != b['metrics']:
            fail(case, 'frame %d differs from the CPU run: %s != %s'
                 % (i, a['metrics'], b['metrics']), out)
            return


def check_hip_error(case, rc, out, op, results):
    if rc == 0:
        fail(case, 'backend hip ended with status 0', out)
        return
    if DEVICE not in out or op not in out:
        fail(case, 'the error names neither the device nor %s' % op, out)
    m = re.search(r'scores of the (\d+) frames', out)
    if m and os.path.exists(results):
        n = len(load(results)['frames'])
        if n != int(m.group(1)):
            fail(case, 'the message says %s frames, the file holds %d'
                 % (m.group(1), n), out)


# Faults: (name, VH_FAKE_CUDA_FAIL, VH_HIP_FAULT, the call named in a
# hip error)
FAULTS = [
    ('alloc at start', 'alloc:1', None, 'hipMalloc'),
    ('alloc mid-stream', 'alloc:20', None, 'hipMalloc'),
    ('launch', 'launch:60', None, 'hipModuleLaunchKernel'),
    ('sync', 'sync:60', None, 'Synchronize'),
    ('illegal address', 'illegal:60', None,
     'hipErrorIllegalAddress' if AMD else 'CUDA_ERROR_ILLEGAL_ADDRESS'),
    ('HIP layer: alloc', None, 'alloc:20', 'hipMalloc'),
    ('HIP layer: launch', None, 'launch:60', 'hipModuleLaunchKernel'),
    ('HIP layer: sync', None, 'sync:60', 'Synchronize'),
]
if GPU_MODE:
    FAULTS = [f for f in FAULTS if f[1] is None]
# The HIP layer's hook is compiled in test builds only (-Dfault_injection).
if os.environ.get('VH_HIP_FAULT_BUILT') != '1':
    print('HIP layer faults skipped: built without -Dfault_injection=true')
    FAULTS = [f for f in FAULTS if f[2] is None]
    if GPU_MODE:
        print('SKIP: no fault to inject on a GPU')
        sys.exit(77)


def cli_cases(tmp):
    score = os.environ['VH_SCORE']
    ref = os.path.join(tmp, 'ref.y4m')
    dist = os.path.join(tmp, 'dist.y4m')
    write_y4m(ref, FRAMES, 96, 96, seed=1)
    write_y4m(dist, FRAMES, 96, 96, seed=2)
    cpu_log = os.path.join(tmp, 'cpu.json')
    # Three temporal twins beside the model's per-frame ones: each must go
    # on on the CPU with the state of a CPU run.
    base = [score, '-r', ref, '-d', dist, '--feature', 'psnr', '--feature',
            'float_motion', '--feature', 'speed_temporal', '--json']
    p = subprocess.run(base + ['-o', cpu_log, '--backend', 'cpu', '-q'],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        sys.exit('CPU run failed: %s' % p.stdout.decode(errors='replace'))
    cpu = load(cpu_log)

    cases = [(n, f, h, None, op) for n, f, h, op in FAULTS]
    lost_calls = {}
    if not GPU_MODE:
        cases.append(('memory', None, None, 400_000, 'hipMalloc'))
    else:
        p = subprocess.run(base + ['-o', cpu_log + '.gpu', '--backend',
                                   'hip', '-q'],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        out = p.stdout.decode(errors='replace')
        if p.returncode != 0 and 'no usable GPU' in out:
            print('SKIP:', out)
            sys.exit(77)
        if p.returncode != 0:
            sys.exit('GPU run without a fault failed: %s' % out)
    for threads in ('1', '2'):
        for name, fault, hip_fault, memory, op in cases:
            for backend in ('hip', 'auto'):
                case = 'cli --backend %s --threads %s, %s' % (backend,
                                                              threads, name)
                log = os.path.join(tmp, 'cli.json')
                if os.path.exists(log):
                    os.unlink(log)
                rc, out = run(case, base + ['-o', log, '--threads', threads,
                                            '--backend', backend],
                              fake_env(fault, memory, hip_fault))
                if rc is None:
                    continue
                if backend == 'hip':
                    check_hip_error(case, rc, out, op, log)
                elif rc != 0:
                    fail(case, 'backend auto failed', out)
                elif 'warning: the GPU failed' not in out or DEVICE not in out:
                    fail(case, 'no warning naming the device', out)
                else:
                    check_fallback(case, load(log), cpu, FRAMES, out)
                    if fault and fault.startswith('illegal'):
                        lost_calls[threads] = refused(out)
                report(case)
    # After a lost device nothing more goes to it: four times the frames,
    # no more calls refused (those come from the work in flight).
    if GPU_MODE:
        return
    long_ref = os.path.join(tmp, 'ref-long.y4m')
    long_dist = os.path.join(tmp, 'dist-long.y4m')
    write_y4m(long_ref, 4 * FRAMES, 96, 96, seed=1)
    write_y4m(long_dist, 4 * FRAMES, 96, 96, seed=2)
    for threads, short in lost_calls.items():
        case = 'cli --backend auto --threads %s, illegal address, %d ' \
            'frames' % (threads, 4 * FRAMES)
        argv = [a if a not in (ref, dist) else
                (long_ref if a == ref else long_dist) for a in base]
        log = os.path.join(tmp, 'cli-long.json')
        rc, out = run(case, argv + ['-o', log, '--threads', threads,
                                    '--backend', 'auto'],
                      fake_env('illegal:60'))
        if rc is None:
            continue
        if rc != 0 or len(load(log)['frames']) != 4 * FRAMES:
            fail(case, 'backend auto did not finish every frame', out)
        elif refused(out) > short + 32:
            fail(case, '%d calls on the lost device, %d with %d frames: it '
                 'is still used' % (refused(out), short, FRAMES), out)
        report(case)


def pipeline(results, backend, n_frames, name='c'):
    src = ('videotestsrc pattern=ball num-buffers=%d ! video/x-raw,'
           'format=I420,width=64,height=64,framerate=30/1' % n_frames)
    return ('%s ! %s.ref_sink %s ! videobalance brightness=0.1 ! %s.dist_sink '
            'vmafhipcompare name=%s features=psnr backend=%s '
            'results-filename=%s ! fakesink' % (src, name, src, name, name,
                                                backend, results)).split()


def element_cases(tmp):
    launch = os.environ.get('VH_RUN_PIPELINE') or \
        shutil.which('gst-launch-1.0')
    if not launch:
        print('element cases skipped: no run-pipeline or gst-launch-1.0')
        return
    n = 30
    cpu_log = os.path.join(tmp, 'cpu-element.json')
    p = subprocess.run([launch, '-q'] + pipeline(cpu_log, 'cpu', n),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        sys.exit('CPU pipeline failed: %s' % p.stdout.decode(errors='replace'))
    cpu = load(cpu_log)
    log = os.path.join(tmp, 'element.json')
    for name, fault, hip_fault, op in FAULTS:
        kind = fault or hip_fault
        for backend in ('hip', 'auto'):
            case = 'element backend=%s, %s' % (backend, name)
            if os.path.exists(log):
                os.unlink(log)
            rc, out = run(case, [launch] + pipeline(log, backend, n),
                          fake_env(fault, None, hip_fault))
            if rc is None:
                continue
            if kind.startswith('alloc') and rc == 0 and \
                    'GPU failed' not in out:
                # the frame pool's allocation: system memory instead
                if len(load(log)['frames']) != n:
                    fail(case, 'the pool did not do without device memory',
                         out)
            elif backend == 'hip':
                if 'ERROR: from element /GstPipeline:pipeline0/' \
                   'GstVmafHipCompare:c' not in out:
                    fail(case, 'no error from the element', out)
                check_hip_error(case, rc, out, op, log)
            elif rc != 0:
                fail(case, 'backend auto failed', out)
            elif 'WARNING: from element /GstPipeline:pipeline0/' \
                 'GstVmafHipCompare:c' not in out or DEVICE not in out:
                fail(case, 'no warning naming the device', out)
            else:
                log_data = load(log)
                if 'Scoring goes on on the CPU' in out:
                    check_fallback(case, log_data, cpu, n, out)
                # nothing more to a lost device: no call per frame
                if kind.startswith('illegal') and \
                        refused(out) >= n - first_frame(out):
                    fail(case, '%d calls on the lost device for %d frames '
                         'after it' % (refused(out), n - first_frame(out)),
                         out)
                elif len(log_data['frames']) != n:
                    fail(case, 'frames missing', out)
            report(case)

    # Three streams in one process and device memory for about one: the
    # others start on the CPU (auto) or fail naming the device (hip).
    for backend in () if GPU_MODE else ('hip', 'auto'):
        case = 'element backend=%s, 3 streams, little memory' % backend
        logs = [os.path.join(tmp, 'stream%d.json' % i) for i in range(3)]
        argv = [launch]
        for i in range(3):
            argv += pipeline(logs[i], backend, n, name='c%d' % i)
        for f in logs:
            if os.path.exists(f):
                os.unlink(f)
        rc, out = run(case, argv, fake_env(memory=1_000_000))
        if rc is None:
            continue
        if backend == 'hip':
            check_hip_error(case, rc, out, 'hipMalloc', '')
        elif rc != 0 or 'GPU failed' not in out:
            fail(case, 'backend auto did not go on on the CPU', out)
        else:
            for f in logs:
                if len(load(f)['frames']) != n:
                    fail(case, '%s: frames missing' % f, out)
        report(case)


def main():
    tmp = tempfile.mkdtemp(prefix='vmafhip-faults-')
    try:
        cli_cases(tmp)
        element_cases(tmp)
    finally:
        shutil.rmtree(tmp)
    if failures:
        sys.exit('\n'.join(failures))


if __name__ == '__main__':
    main()
