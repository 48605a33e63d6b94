#!/usr/bin/env python3
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.

"""Checks that every AMD code object the build made fits every launch the
host makes, on every precompiled target: a launch ROCm would refuse on the
user's machine (more work-items than the kernel was built for, more LDS
than a work-group has, registers that do not let the work-group's waves
reside on one compute unit) fails here instead.

The launches are the host code's own: vmafhip-score runs every feature on
the small golden pairs on the fake AMD HIP runtime (fake-hip-amd.c, kernels
that run nothing), once per wavefront size among the targets, and the
runtime logs each distinct (kernel, block, dynamic LDS) it is asked to
launch (VH_FAKE_CUDA_LAUNCH_LOG). The resources are the code objects'
metadata (the AMDGPU note's MessagePack: .vgpr_count, .agpr_count,
.sgpr_count, .group_segment_fixed_size, .private_segment_fixed_size,
.max_flat_workgroup_size, .wavefront_size), read from the clang offload
bundles hipcc --genco writes, without LLVM tools.

Limits per target (AMD's ISA manuals): at most 1024 work-items and the
kernel's .max_flat_workgroup_size; 64 KiB of LDS per work-group (static
plus dynamic); the work-group's waves spread over the CU's SIMDs (4 on
GCN/CDNA, 2 on RDNA in CU mode), each SIMD's register file holding their
VGPRs (per lane: 256 on gfx906/gfx908, with 256 more AGPRs on gfx908; 512
VGPRs and AGPRs together on gfx90a/gfx940; 1024 on RDNA 2 and gfx1102/3,
1536 on gfx1100/1) and, on GCN/CDNA, their SGPRs (800 per SIMD); the
wavefront size the host expects (64 on GCN/CDNA, 32 on RDNA). Scratch
(private segment) is reported, not limited.

--extra-launches FILE adds launch lines (same format) to the host's, and
--expect-failure makes the run pass only when every one of those is
refused (the test that the check catches an oversized launch)."""

import argparse
import glob
import os
import struct
import subprocess
import sys
import tempfile

LDS_BYTES = 65536
MAX_WORK_ITEMS = 1024


# ---- MessagePack (the subset code object metadata uses) ----------------

def unpack(buf, i=0):
    b = buf[i]
    i += 1
    if b <= 0x7f:
        return b, i
    if b >= 0xe0:
        return b - 0x100, i
    if 0x80 <= b <= 0x8f:
        return unpack_map(buf, i, b & 0x0f)
    if 0x90 <= b <= 0x9f:
        return unpack_array(buf, i, b & 0x0f)
    if 0xa0 <= b <= 0xbf:
        n = b & 0x1f
        return buf[i:i + n].decode(), i + n
    if b == 0xc0:
        return None, i
    if b in (0xc2, 0xc3):
        return b == 0xc3, i
    sized = {0xc4: 1, 0xc5: 2, 0xc6: 4, 0xd9: 1, 0xda: 2, 0xdb: 4}
    if b in sized:
        w = sized[b]
        n = int.from_bytes(buf[i:i + w], 'big')
        i += w
        data = bytes(buf[i:i + n])
        return (data if b <= 0xc6 else data.decode()), i + n
    fixed = {0xcc: ('>B', 1), 0xcd: ('>H', 2), 0xce: ('>I', 4),
             0xcf: ('>Q', 8), 0xd0: ('>b', 1), 0xd1: ('>h', 2),
             0xd2: ('>i', 4), 0xd3: ('>q', 8), 0xca: ('>f', 4),
             0xcb: ('>d', 8)}
    if b in fixed:
        fmt, w = fixed[b]
        return struct.unpack(fmt, buf[i:i + w])[0], i + w
    if b in (0xdc, 0xdd):
        w = 2 if b == 0xdc else 4
        return unpack_array(buf, i + w, int.from_bytes(buf[i:i + w], 'big'))
    if b in (0xde, 0xdf):
        w = 2 if b == 0xde else 4
        return unpack_map(buf, i + w, int.from_bytes(buf[i:i + w], 'big'))
    raise ValueError('MessagePack type 0x%02x not supported' % b)


def unpack_array(buf, i, n):
    out = []
    for _ in range(n):
        v, i = unpack(buf, i)
        out.append(v)
    return out, i


def unpack_map(buf, i, n):
    out = {}
    for _ in range(n):
        k, i = unpack(buf, i)
        v, i = unpack(buf, i)
        out[k] = v
    return out, i


# ---- code objects -------------------------------------------------------

BUNDLE_MAGIC = b'__CLANG_OFFLOAD_BUNDLE__'
NT_AMDGPU_METADATA = 32


def code_objects(data):
    """(triple, ELF bytes) of each device entry of a clang offload bundle,
    or the file itself when it is a bare ELF."""
    if data[:4] == b'\x7fELF':
        return [('', data)]
    if not data.startswith(BUNDLE_MAGIC):
        raise ValueError('neither a code object nor an offload bundle')
    pos = len(BUNDLE_MAGIC)
    (n,) = struct.unpack_from('<Q', data, pos)
    pos += 8
    out = []
    for _ in range(n):
        offset, size, tsize = struct.unpack_from('<QQQ', data, pos)
        pos += 24
        triple = data[pos:pos + tsize].decode()
        pos += tsize
        if 'amdgcn' in triple and size:
            out.append((triple, data[offset:offset + size]))
    return out


def metadata(elf):
    """The AMDGPU metadata note of a 64-bit little-endian ELF."""
    if elf[4] != 2 or elf[5] != 1:
        raise ValueError('not a 64-bit little-endian ELF')
    shoff, = struct.unpack_from('<Q', elf, 0x28)
    shentsize, shnum = struct.unpack_from('<HH', elf, 0x3a)
    for s in range(shnum):
        base = shoff + s * shentsize
        sh_type, = struct.unpack_from('<I', elf, base + 4)
        if sh_type != 7:        # SHT_NOTE
            continue
        off, size = struct.unpack_from('<QQ', elf, base + 0x18)
        pos = off
        while pos + 12 <= off + size:
            namesz, descsz, ntype = struct.unpack_from('<III', elf, pos)
            pos += 12
            name = elf[pos:pos + namesz].rstrip(b'\0')
            pos += (namesz + 3) & ~3
            desc = elf[pos:pos + descsz]
            pos += (descsz + 3) & ~3
            if name == b'AMDGPU' and ntype == NT_AMDGPU_METADATA:
                return unpack(desc)[0]
    raise ValueError('no AMDGPU metadata note')


# ---- limits -------------------------------------------------------------

def target_limits(arch):
    """SIMDs per CU, VGPRs and AGPRs per lane of a SIMD (agprs 0: one file
    for both), VGPR granule, SGPRs per SIMD (0: not a limit), wave size."""
    n = arch[3:]
    if n.startswith('9'):
        if n in ('90a', '940', '941', '942'):
            return dict(simds=4, vgprs=512, agprs=0, granule=8, sgprs=800,
                        wave=64)
        return dict(simds=4, vgprs=256, agprs=256 if n == '908' else None,
                    granule=4, sgprs=800, wave=64)
    if n.startswith('10') or n.startswith('11'):
        vgprs = 1536 if n in ('1100', '1101') else 1024
        return dict(simds=2, vgprs=vgprs, agprs=None, granule=8, sgprs=0,
                    wave=32)
    raise ValueError('no limits known for %s' % arch)


def round_up(v, g):
    return (v + g - 1) // g * g


def check_launch(arch, lim, k, launch):
    """What is wrong with @launch of kernel metadata @k on @arch (a list of
    reasons; empty when it fits)."""
    name, bx, by, bz, shared = launch
    items = bx * by * bz
    wave = k.get('.wavefront_size', 64)
    why = []
    if items > MAX_WORK_ITEMS or items > k.get('.max_flat_workgroup_size',
                                               MAX_WORK_ITEMS):
        why.append('%d work-items, the kernel is built for %d at most'
                   % (items, k.get('.max_flat_workgroup_size',
                                   MAX_WORK_ITEMS)))
    lds = k.get('.group_segment_fixed_size', 0) + shared
    if lds > LDS_BYTES:
        why.append('%d bytes of LDS (%d static + %d dynamic), a work-group '
                   'has %d' % (lds, k.get('.group_segment_fixed_size', 0),
                               shared, LDS_BYTES))
    if wave != lim['wave']:
        why.append('wavefront of %d, the target runs %d' % (wave,
                                                           lim['wave']))
    waves_per_simd = -(-(-(-items // wave)) // lim['simds'])
    vgprs = k.get('.vgpr_count', 0)
    agprs = k.get('.agpr_count', 0)
    if lim['agprs'] == 0:
        # one file: VGPRs then AGPRs, each block aligned to 4
        vgprs = round_up(vgprs, 4) + agprs
        agprs = 0
    need = round_up(vgprs, lim['granule']) * waves_per_simd
    if need > lim['vgprs']:
        why.append('%d waves per SIMD of %d VGPRs need %d, a SIMD has %d'
                   % (waves_per_simd, vgprs, need, lim['vgprs']))
    if lim['agprs'] and round_up(agprs, lim['granule']) * waves_per_simd > \
            lim['agprs']:
        why.append('%d waves per SIMD of %d AGPRs, a SIMD has %d'
                   % (waves_per_simd, agprs, lim['agprs']))
    sgprs = k.get('.sgpr_count', 0)
    if lim['sgprs'] and round_up(sgprs, 16) * waves_per_simd > lim['sgprs']:
        why.append('%d waves per SIMD of %d SGPRs, a SIMD has %d'
                   % (waves_per_simd, sgprs, lim['sgprs']))
    return why


# ---- the host's launches -------------------------------------------------

FEATURES = ['psnr', 'float_psnr', 'motion', 'float_motion', 'vif',
            'float_vif', 'adm', 'float_adm', 'float_ssim', 'float_ms_ssim',
            'float_moment', 'float_ansnr', 'ciede', 'cambi', 'psnr_hvs',
            'speed_chroma', 'speed_temporal', 'ssimulacra2',
            # options that launch other kernels
            'cambi=full_ref=true:src_width=400:src_height=300',
            'cambi=enc_width=1280:enc_height=720'] + [
            'float_vif=vif_prescale=1.5:vif_prescale_method=' + m
            for m in ('nearest', 'bilinear', 'bicubic', 'lanczos4')]


# Kernels only the element launches (vmafhip-score runs none of them), at
# the fixed shapes of their host code: the frame probes
# (hip/features/hip-frame-probe.c, VH_PROBE_THREADS work-items a block, no
# dynamic LDS).
ELEMENT_LAUNCHES = {(name, 256, 1, 1, 0) for name in (
    'vh_probe_signature_u8', 'vh_probe_signature_u16',
    'vh_probe_samples_u8', 'vh_probe_samples_u16')}


def golden_pairs(golden):
    with open(os.path.join(golden, 'pairs.tsv')) as f:
        rows = [line.rstrip('\n').split('\t') for line in f]
    head = rows[0]
    for r in rows[1:]:
        if len(r) >= len(head) - 1:
            yield dict(zip(head, r))


def collect_launches(args, arch, log):
    env = dict(os.environ)
    env.update({
        'VH_HIP_AMD_RUNTIME': args.fake,
        'VH_HIP_HIPRTC': args.fake,
        'VH_HIP_NVIDIA_RUNTIME': 'libvh-missing-cuda.so',
        'VH_FAKE_CUDA_KERNELS': 'noop',
        'VH_FAKE_HIP_ARCH': arch,
        'VH_FAKE_CUDA_LAUNCH_LOG': log,
    })
    ran = 0
    for pair in golden_pairs(args.golden):
        yuv = os.path.join(args.golden, 'yuv')
        base = [args.score, '-r', os.path.join(yuv, pair['ref']),
                '-d', os.path.join(yuv, pair['dist']),
                '-w', pair['width'], '-h', pair['height'], '-p', '420',
                '-b', pair['bitdepth'], '--frame_cnt', '3', '-q',
                '--backend', 'hip', '--json', '-o', os.devnull]
        # one feature a run: a feature that refuses the size (SpEED's,
        # cambi's minimums) leaves the others alone
        for feature in FEATURES:
            p = subprocess.run(base + ['-n', '--feature', feature], env=env,
                               stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT)
            ran += p.returncode == 0
        p = subprocess.run(base + ['-m', 'version=vmaf_v1.0.16_3d0h'],
                           env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT)
        ran += p.returncode == 0
    if ran == 0:
        sys.exit('no vmafhip-score run succeeded on the fake AMD runtime')


def read_launches(path):
    out = set()
    if not os.path.exists(path):
        return out
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 5:
                out.add((parts[0],) + tuple(int(x) for x in parts[1:]))
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument('--kernels-dir', required=True,
                   help='where the build wrote MODULE-ARCH.hsaco')
    p.add_argument('--targets', required=True, help='gfx906,gfx90a,...')
    p.add_argument('--score', required=True, help='vmafhip-score')
    p.add_argument('--fake', required=True, help='the fake AMD runtime')
    p.add_argument('--golden', required=True, help='golden pairs directory')
    p.add_argument('--extra-launches', help='launch lines to add')
    p.add_argument('--expect-failure', action='store_true',
                   help='pass only if every extra launch is refused')
    p.add_argument('--verbose', action='store_true')
    args = p.parse_args()

    targets = [t for t in args.targets.split(',') if t]
    kernels = {}                # arch -> name -> metadata
    for arch in targets:
        kernels[arch] = {}
        files = sorted(glob.glob(os.path.join(args.kernels_dir,
                                              '*-%s.hsaco' % arch)))
        if not files:
            sys.exit('no code object for %s in %s' % (arch,
                                                      args.kernels_dir))
        for path in files:
            with open(path, 'rb') as f:
                data = f.read()
            for triple, elf in code_objects(data):
                if triple and not triple.endswith(arch) and \
                        ('-' + arch + ':') not in triple + ':':
                    continue
                for k in metadata(elf).get('amdhsa.kernels', []):
                    kernels[arch][k['.name']] = dict(k, module=path)

    extra = read_launches(args.extra_launches) if args.extra_launches \
        else set()
    launches = {}               # wave size -> launches
    with tempfile.TemporaryDirectory(prefix='vmafhip-resources-') as tmp:
        for arch in targets:
            wave = target_limits(arch)['wave']
            if wave in launches:
                continue
            log = os.path.join(tmp, 'launches-%d.tsv' % wave)
            collect_launches(args, arch, log)
            launches[wave] = read_launches(log) | ELEMENT_LAUNCHES
            print('# %d launch shapes of %d kernels on a wave%d target (%s)'
                  % (len(launches[wave]),
                     len({x[0] for x in launches[wave]}), wave, arch))

    failures = []
    refused_extra = set()
    for arch in targets:
        lim = target_limits(arch)
        worst = {}
        for launch in sorted(launches[lim['wave']] | extra):
            k = kernels[arch].get(launch[0])
            if k is None:
                why = ['no code object for %s has this kernel' % arch]
            else:
                why = check_launch(arch, lim, k, launch)
                items = launch[1] * launch[2] * launch[3]
                w = worst.get(launch[0], (0, 0))
                worst[launch[0]] = (max(w[0], items), max(w[1], launch[4]))
            for reason in why:
                failures.append('%s: %s block %dx%dx%d, %d bytes of dynamic '
                                'LDS: %s' % ((arch,) + launch + (reason,)))
            if why and launch in extra:
                refused_extra.add(launch)
        print('# %s (wave%d): %d kernels' % (arch, lim['wave'],
                                            len(kernels[arch])))
        for name in sorted(kernels[arch]):
            k = kernels[arch][name]
            if not args.verbose and name not in worst:
                continue
            w = worst.get(name)
            print('#   %-28s vgpr %3d agpr %3d sgpr %3d lds %5d scratch %4d '
                  'max %4d wave%d%s' % (
                      name, k.get('.vgpr_count', 0), k.get('.agpr_count', 0),
                      k.get('.sgpr_count', 0),
                      k.get('.group_segment_fixed_size', 0),
                      k.get('.private_segment_fixed_size', 0),
                      k.get('.max_flat_workgroup_size', 0),
                      k.get('.wavefront_size', 0),
                      ', launched with up to %d work-items and %d bytes of '
                      'dynamic LDS' % w if w else ', not launched'))
        unused = [n for n in kernels[arch] if n not in worst]
        if unused:
            print('#   not launched by the host here: %s'
                  % ', '.join(sorted(unused)))

    for f in failures:
        print('FAIL', f)
    if args.expect_failure:
        missed = extra - refused_extra
        for launch in sorted(missed):
            print('FAIL: the oversized launch %s %dx%dx%d (%d bytes of LDS) '
                  'was not refused' % launch)
        host = [f for f in failures if not any(
            f.split(': ', 1)[1].startswith('%s block %dx%dx%d, %d bytes' % e)
            for e in extra)]
        for f in host:
            print('FAIL (a launch of the host):', f)
        return 1 if missed or host or not extra else 0
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
