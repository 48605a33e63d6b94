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
#include <string.h>

G_BEGIN_DECLS

/* TRUE when VH_DISABLE_SIMD is set (and not "0"): the extractors then
 * take their portable kernels, which give the same numbers. Read when an
 * instance is set up, so that a test may compare both in one process. */
static inline gboolean
vh_simd_disabled (void)
{
  const gchar *v = g_getenv ("VH_DISABLE_SIMD");

  return v && *v && strcmp (v, "0") != 0;
}

/* TRUE when AVX2 kernels may run: the CPU has AVX2 and SIMD is not
 * disabled. */
static inline gboolean
vh_simd_use_avx2 (void)
{
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  return !vh_simd_disabled () && __builtin_cpu_supports ("avx2");
#else
  return FALSE;
#endif
}

/* TRUE when AVX-512 kernels may run: the CPU has libvmaf's AVX-512 level
 * (F, CD, BW, DQ, VL), SIMD is not disabled and VH_DISABLE_AVX512 (what
 * --cpumask sets for libvmaf's AVX-512 bit) is not set. */
static inline gboolean
vh_simd_use_avx512 (void)
{
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  const gchar *v = g_getenv ("VH_DISABLE_AVX512");

  if (vh_simd_disabled () || (v && *v && strcmp (v, "0") != 0))
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
