#!/usr/bin/env python3
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
"""The element's results file survives a kill of gst-launch-1.0.

A live pipeline (30 frames a second) is killed with SIGTERM, then with
SIGKILL, once the results file holds a few frames; the file left must be a
complete JSON log whose frames are 0..n-1, each with the values a run to the
end gives for it, and n must cover the frames scored until about the kill
(the file is rewritten every results-interval). A run to the end completes
the file with the pooled values of all its frames.
"""

import json
import os
import signal
import subprocess
import sys
import tempfile
import time

# Long enough (30 s live) that a loaded machine, whose file rewrites lag,
# still kills the run before its end.
FRAMES = 900
CAPS = 'video/x-raw,format=I420,width=160,height=120,framerate=30/1'
INTERVAL_MS = 200


def pipeline(out, live):
    src = 'videotestsrc is-live=%s pattern=ball num-buffers=%d ! %s' % (
        'true' if live else 'false', FRAMES, CAPS)
    return ('%s ! c.ref_sink %s ! videobalance brightness=0.1 ! c.dist_sink '
            'vmafhipcompare name=c features=psnr results-filename=%s '
            'results-interval=%d ! fakesink' % (src, src, out, INTERVAL_MS))


def launch(out, live):
    return subprocess.Popen(['gst-launch-1.0', '-q'] + pipeline(out, live).split(),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def load(path):
    with open(path) as f:
        return json.load(f)


def frames_in(path):
    try:
        return len(load(path)['frames'])
    except (OSError, ValueError, KeyError):
        return 0


def check_prefix(log, full, what):
    frames = log['frames']
    for i, frame in enumerate(frames):
        if frame['frameNum'] != i:
            sys.exit('%s: frame %d is numbered %d' % (what, i, frame['frameNum']))
        want = full['frames'][i]['metrics']
        if frame['metrics'] != want:
            sys.exit('%s: frame %d differs from the complete run: %s != %s'
                     % (what, i, frame['metrics'], want))
    # pooled over the frames in the file, as any log is
    if frames and 'vmaf' not in log.get('pooled_metrics', {}):
        sys.exit('%s: no pooled vmaf in %s' % (what, log.get('pooled_metrics')))


def main():
    tmp = tempfile.mkdtemp(prefix='vmafhip-kill-')
    full_path = os.path.join(tmp, 'full.json')
    p = launch(full_path, False)
    out = p.communicate(timeout=300)[0].decode(errors='replace')
    if p.returncode != 0:
        sys.exit('complete run failed: %s' % out)
    full = load(full_path)
    if len(full['frames']) != FRAMES:
        sys.exit('complete run: %d frames, expected %d'
                 % (len(full['frames']), FRAMES))
    check_prefix(full, full, 'complete run')

    for sig in (signal.SIGTERM, signal.SIGKILL):
        path = os.path.join(tmp, 'killed-%d.json' % sig)
        p = launch(path, True)
        deadline = time.monotonic() + 60
        while frames_in(path) < 20:
            if p.poll() is not None or time.monotonic() > deadline:
                p.kill()
                sys.exit('%s: the file did not fill while running (%d frames)'
                         ': %s' % (sig.name, frames_in(path),
                                   p.communicate()[0].decode(errors='replace')))
            time.sleep(0.05)
        time.sleep(1.0)
        p.send_signal(sig)
        p.communicate(timeout=60)
        # Killed outright: nothing ran after the signal.
        if p.returncode != -sig:
            sys.exit('%s: gst-launch-1.0 ended with %d' % (sig.name, p.returncode))
        log = load(path)
        n = len(log['frames'])
        # At least the frames seen before the last second: the file is
        # rewritten every interval, later under load (a rewrite waits 10x
        # as long as the last one took).
        if not 20 <= n < FRAMES:
            sys.exit('%s: %d frames in the file' % (sig.name, n))
        check_prefix(log, full, sig.name)
        print('%s halfway: valid log of %d frames' % (sig.name, n))
        leftovers = [f for f in os.listdir(tmp) if f.startswith('.')]
        for f in leftovers:
            os.unlink(os.path.join(tmp, f))

    for f in os.listdir(tmp):
        os.unlink(os.path.join(tmp, f))
    os.rmdir(tmp)


if __name__ == '__main__':
    main()
