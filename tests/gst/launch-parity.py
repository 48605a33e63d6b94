#!/usr/bin/env python3
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
"""Golden parity through gst-launch-1.0.

For every pair of the golden set, runs

  gst-launch-1.0 filesrc ! rawvideoparse ! c.ref_sink \
                 filesrc ! rawvideoparse ! c.dist_sink \
                 vmafhipcompare name=c features=psnr results-filename=... ! fakesink

and checks that every per-frame value of libvmaf's log
(scores/<pair>/vmaf_v0.6.1+psnr.json) is in the results file within 1e-4,
and the pooled VMAF too. GStreamer has no planar 16-bit 4:2:0 format, so
16-bit pairs are first rewritten as P016_LE (interleaved chroma, lossless).

Usage: launch-parity.py [GOLDEN_DIR]   (default: $VH_GOLDEN_DIR, else
../shared/golden beside the source tree, else tests/data/golden)
"""

import json
import os
import subprocess
import sys
import tempfile

TOLERANCE = 1e-4
SOURCE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def golden_dir():
    if len(sys.argv) > 1:
        return sys.argv[1]
    env = os.environ.get('VH_GOLDEN_DIR')
    if env and os.path.isdir(env):
        return env
    shared = os.path.join(SOURCE_ROOT, '..', 'shared', 'golden')
    if os.path.exists(os.path.join(shared, 'pairs.tsv')):
        return shared
    return os.path.join(SOURCE_ROOT, 'tests', 'data', 'golden')


def read_pairs(gdir):
    pairs = []
    with open(os.path.join(gdir, 'pairs.tsv')) as f:
        next(f)
        for line in f:
            cols = line.rstrip('\n').split('\t')
            if len(cols) < 7:
                continue
            pairs.append(dict(name=cols[0],
                              ref=os.path.join(gdir, 'yuv', cols[1]),
                              dist=os.path.join(gdir, 'yuv', cols[2]),
                              width=int(cols[3]), height=int(cols[4]),
                              bpc=int(cols[5]), frames=int(cols[6])))
    return pairs


def to_p016(src, dst, w, h):
    """Planar 16-bit 4:2:0 to P016_LE (Y plane, then U/V interleaved)."""
    cw, ch = (w + 1) // 2, (h + 1) // 2
    ysize, csize = w * h * 2, cw * ch * 2
    with open(src, 'rb') as fi, open(dst, 'wb') as fo:
        while True:
            y = fi.read(ysize)
            u = fi.read(csize)
            v = fi.read(csize)
            if len(v) < csize:
                break
            out = bytearray(ysize + 2 * csize)
            out[:ysize] = y
            uv = memoryview(out)[ysize:]
            for i in range(cw * ch):
                uv[4 * i:4 * i + 2] = u[2 * i:2 * i + 2]
                uv[4 * i + 2:4 * i + 4] = v[2 * i:2 * i + 2]
            fo.write(out)


def raw_source(path, pair, p016):
    w, h, bpc = pair['width'], pair['height'], pair['bpc']
    bps = 1 if bpc == 8 else 2
    cw, ch = (w + 1) // 2, (h + 1) // 2
    ysize = w * h * bps
    if p016:
        fmt = 'p016-le'
        strides = '<%d,%d>' % (w * 2, cw * 4)
        offsets = '<0,%d>' % ysize
        size = ysize + cw * ch * 4
    else:
        fmt = {8: 'i420', 10: 'i420-10le', 12: 'i420-12le'}[bpc]
        csize = cw * ch * bps
        strides = '<%d,%d,%d>' % (w * bps, cw * bps, cw * bps)
        offsets = '<0,%d,%d>' % (ysize, ysize + csize)
        size = ysize + 2 * csize
    return ['filesrc', 'location=' + path, '!', 'rawvideoparse',
            'width=%d' % w, 'height=%d' % h, 'format=' + fmt,
            'framerate=25/1', 'plane-strides=' + strides,
            'plane-offsets=' + offsets, 'frame-size=%d' % size]


def check_pair(pair, gdir, tmp):
    log = os.path.join(gdir, 'scores', pair['name'], 'vmaf_v0.6.1+psnr.json')
    if not os.path.exists(log):
        return 'no golden log', 0.0
    ref, dist = pair['ref'], pair['dist']
    p016 = pair['bpc'] == 16
    if p016:
        ref2 = os.path.join(tmp, pair['name'] + '-ref.p016')
        dist2 = os.path.join(tmp, pair['name'] + '-dist.p016')
        to_p016(ref, ref2, pair['width'], pair['height'])
        to_p016(dist, dist2, pair['width'], pair['height'])
        ref, dist = ref2, dist2
    results = os.path.join(tmp, pair['name'] + '.json')
    cmd = (['gst-launch-1.0', '-q'] + raw_source(ref, pair, p016) +
           ['!', 'c.ref_sink'] + raw_source(dist, pair, p016) +
           ['!', 'c.dist_sink', 'vmafhipcompare', 'name=c', 'features=psnr',
            'frame-message=false', 'results-filename=' + results, '!',
            'fakesink'])
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        return 'gst-launch-1.0 failed: ' + proc.stdout + proc.stderr, 0.0
    with open(log) as f:
        golden = json.load(f)
    with open(results) as f:
        ours = json.load(f)
    if len(ours['frames']) != len(golden['frames']):
        return '%d frames, libvmaf has %d' % (len(ours['frames']),
                                              len(golden['frames'])), 0.0
    worst = 0.0
    for fo, fg in zip(ours['frames'], golden['frames']):
        if fo['frameNum'] != fg['frameNum']:
            return 'frame numbers differ', 0.0
        for name, value in fg['metrics'].items():
            if name not in fo['metrics']:
                return 'frame %d lacks %s' % (fg['frameNum'], name), 0.0
            diff = abs(fo['metrics'][name] - value)
            worst = max(worst, diff)
            if diff > TOLERANCE:
                return 'frame %d %s: %.6f, libvmaf %.6f' % (
                    fg['frameNum'], name, fo['metrics'][name], value), diff
    for method, value in golden['pooled_metrics']['vmaf'].items():
        diff = abs(ours['pooled_metrics']['vmaf'][method] - value)
        worst = max(worst, diff)
        if diff > TOLERANCE:
            return 'pooled vmaf %s: %.6f, libvmaf %.6f' % (
                method, ours['pooled_metrics']['vmaf'][method], value), diff
    return None, worst


def main():
    gdir = golden_dir()
    pairs = read_pairs(gdir)
    if not pairs:
        print('no golden pairs in', gdir)
        return 77
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for pair in pairs:
            err, worst = check_pair(pair, gdir, tmp)
            status = 'FAIL ' + err if err else 'ok'
            print('%-40s %3d frames  max diff %.2e  %s' % (
                pair['name'], pair['frames'], worst, status))
            failed += err is not None
    print('%d of %d pairs within %g' % (len(pairs) - failed, len(pairs),
                                        TOLERANCE))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
