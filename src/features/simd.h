/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_SIMD_H__
#define __VH_SIMD_H__

#include <glib.h>

#include "feature-extractor.h"

G_BEGIN_DECLS

/* @cpu_mask: VhCpuFlags an extractor may not use (its cpu_mask, which the
 * context sets from its settings); read when an instance is set up, so
 * that a test may compare the portable and SIMD paths in one process. */

/* TRUE when @cpu_mask forbids SIMD: the extractors then take their
 * portable kernels, which give the same numbers. */
static inline gboolean
vh_simd_disabled (guint cpu_mask)
{
  return (cpu_mask & VH_CPU_FLAG_AVX2) != 0;
}

/* TRUE when AVX2 kernels may run: the CPU has AVX2 and @cpu_mask does not
 * forbid it. */
static inline gboolean
vh_simd_use_avx2 (guint cpu_mask)
{
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  return !vh_simd_disabled (cpu_mask) && __builtin_cpu_supports ("avx2");
#else
  return FALSE;
#endif
}

/* TRUE when AVX-512 kernels may run: the CPU has libvmaf's AVX-512 level
 * (F, CD, BW, DQ, VL) and @cpu_mask forbids neither SIMD nor AVX-512. */
static inline gboolean
vh_simd_use_avx512 (guint cpu_mask)
{
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  if (vh_simd_disabled (cpu_mask) || (cpu_mask & VH_CPU_FLAG_AVX512))
    return FALSE;
  return __builtin_cpu_supports ("avx512f") &&
      __builtin_cpu_supports ("avx512cd") &&
      __builtin_cpu_supports ("avx512bw") &&
      __builtin_cpu_supports ("avx512dq") &&
      __builtin_cpu_supports ("avx512vl");
#else
  return FALSE;
#endif
}

G_END_DECLS

#endif /* __VH_SIMD_H__ */
