#!/usr/bin/env python3
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
"""Throughput of the vmafhipcompare element against vmafhip-score.

Makes a reference clip (videotestsrc) and a distorted one (JPEG round
trip), then scores the same frames, with the same model and thread count:

  vmafhip-score -r ref.yuv -d dist.yuv -w W -h H -p 420 -b 8 --threads T
  gst-launch-1.0 filesrc ! rawvideoparse ! c.ref_sink
                 filesrc ! rawvideoparse ! c.dist_sink
                 vmafhipcompare name=c threads=T frame-message=true|false
                 ! fakesink

Each command runs --runs times, interleaved, after one warm-up run. The
best (shortest) wall time counts, which is the least disturbed by other
load on the machine; the median and the CPU time (user + system) are
printed too. Prints frames per second and the element's loss against the
CLI.

Usage: bench-element.py [--build-dir DIR] [--width 1280] [--height 720]
                        [--frames 240] [--threads 2] [--runs 3]
The build directory defaults to the current directory when it holds
gst/libgstvmafhip.so, else to "build" in the source tree.
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

SOURCE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def find_build_dir(arg):
    if arg:
        return os.path.abspath(arg)
    if os.path.exists(os.path.join('gst', 'libgstvmafhip.so')):
        return os.getcwd()
    return os.path.join(SOURCE_ROOT, 'build')


def run(cmd, env):
    """Wall time and CPU time (user + system) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit('command failed: %s\n%s%s' % (' '.join(cmd), proc.stdout,
                                                proc.stderr))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime -
                                                before.ru_stime)
    return elapsed, cpu


def make_clips(tmp, args, env):
    ref = os.path.join(tmp, 'ref.yuv')
    dist = os.path.join(tmp, 'dist.yuv')
    caps = 'video/x-raw,format=I420,width=%d,height=%d,framerate=30/1' % (
        args.width, args.height)
    run(['gst-launch-1.0', '-q', 'videotestsrc', 'num-buffers=%d' %
         args.frames, 'pattern=ball', 'motion=sweep', '!', caps, '!', 'tee',
         'name=t', 't.', '!', 'queue', '!', 'filesink', 'location=' + ref,
         't.', '!', 'queue', '!', 'jpegenc', 'quality=50', '!', 'jpegdec',
         '!', 'filesink', 'location=' + dist], env)
    return ref, dist


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--build-dir')
    ap.add_argument('--width', type=int, default=1280)
    ap.add_argument('--height', type=int, default=720)
    ap.add_argument('--frames', type=int, default=240)
    ap.add_argument('--threads', type=int, default=2)
    ap.add_argument('--runs', type=int, default=3)
    args = ap.parse_args()

    build = find_build_dir(args.build_dir)
    cli = os.path.join(build, 'src', 'cli', 'vmafhip-score')
    if not os.path.exists(cli) or not os.path.exists(
            os.path.join(build, 'gst', 'libgstvmafhip.so')):
        sys.exit('no vmafhip-score or plugin in %s (use --build-dir)' % build)

    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ)
        env['GST_PLUGIN_PATH_1_0'] = os.path.join(build, 'gst')
        env['GST_REGISTRY_1_0'] = os.path.join(tmp, 'registry.bin')
        ref, dist = make_clips(tmp, args, env)

        w, h = args.width, args.height
        cli_cmd = [cli, '-r', ref, '-d', dist, '-w', str(w), '-h', str(h),
                   '-p', '420', '-b', '8', '--threads', str(args.threads),
                   '-q']

        def element_cmd(messages):
            # Whole frames per read, as the CLI reads them.
            frame = w * h + 2 * ((w + 1) // 2) * ((h + 1) // 2)
            blocks = 'blocksize=%d' % frame
            src = ['rawvideoparse', 'width=%d' % w, 'height=%d' % h,
                   'format=i420', 'framerate=30/1']
            return (['gst-launch-1.0', '-q', 'filesrc', 'location=' + ref,
                     blocks, '!'] + src + ['!', 'c.ref_sink', 'filesrc',
                                           'location=' + dist, blocks, '!'] +
                    src +
                    ['!', 'c.dist_sink', 'vmafhipcompare', 'name=c',
                     'threads=%d' % args.threads,
                     'frame-message=%s' % ('true' if messages else 'false'),
                     '!', 'fakesink'])

        cases = [('vmafhip-score (CLI)', cli_cmd),
                 ('vmafhipcompare, frame messages on', element_cmd(True)),
                 ('vmafhipcompare, frame messages off', element_cmd(False))]
        times = {}
        for name, cmd in cases:
            run(cmd, env)       # warm-up: page cache, registry
        for _ in range(args.runs):
            for name, cmd in cases:
                times.setdefault(name, []).append(run(cmd, env))

    print('%d frames of %dx%d 8-bit 4:2:0, vmaf_v0.6.1, %d threads, '
          '%d runs each' % (args.frames, w, h, args.threads, args.runs))
    print('  %-36s %8s %8s %8s %8s %9s' % ('', 'best s', 'fps', 'vs CLI',
                                           'median s', 'CPU s'))
    best = {name: min(t for t, _ in times[name]) for name, _ in cases}
    base = best[cases[0][0]]
    for name, _ in cases:
        print('  %-36s %8.2f %8.1f %7.1f%% %8.2f %9.2f' % (
            name, best[name], args.frames / best[name],
            100.0 * base / best[name],
            statistics.median(t for t, _ in times[name]),
            statistics.median(c for _, c in times[name])))
    loss = 100.0 * (1 - base / best[cases[1][0]])
    print('element (messages on) loses %.1f%% against the CLI' % loss)
    return 0


if __name__ == '__main__':
    sys.exit(main())
