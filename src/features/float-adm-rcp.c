/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The reciprocal estimate float_adm's decoupling divides by on x86
 * (rcpps), as a table, so that a GPU can divide as this processor does
 * (the estimate's last bits differ between processor makers). */

#include "float-adm-private.h"

#include <string.h>
#ifdef __SSE__
#include <xmmintrin.h>
#endif

#define MANTISSA_BITS 23

static guint32
float_bits (gfloat f)
{
  guint32 u;

  memcpy (&u, &f, sizeof (u));
  return u;
}

static gfloat
bits_float (guint32 u)
{
  gfloat f;

  memcpy (&f, &u, sizeof (f));
  return f;
}

guint32
vh_fadm_rcp_lookup (const guint32 * table, guint shift, guint32 x)
{
  const guint32 sign = x & 0x80000000u;
  const gint e = (x >> 23) & 0xff;
  guint32 entry;
  gint re;

  if (e == 0)                   /* zero or denormal: read as zero */
    return sign | 0x7f800000u;
  if (e == 255)                 /* infinity gives zero, NaN itself */
    return x & 0x7fffffu ? x : sign;
  /* The entry is the estimate of 1.mantissa; the exponent scales it. */
  entry = table[(x & 0x7fffffu) >> shift];
  re = (gint) ((entry >> 23) & 0xff) - (e - 127);
  if (re <= 0)                  /* tiny results are flushed */
    return sign;
  return sign | ((guint32) re << 23) | (entry & 0x7fffffu);
}

#ifdef __SSE__
static guint table_bits;

static gfloat
rcp (gfloat x)
{
  return _mm_cvtss_f32 (_mm_rcp_ss (_mm_set_ss (x)));
}

/* The estimate of every mantissa, checked to be the estimate of any
 * exponent and sign by lookup, then cut to the mantissa bits it reads. */
static gpointer
build_table (gpointer data)
{
  static const gint exponents[] = { -120, -100, -31, -1, 0, 1, 30, 100 };
  static const guint32 special[] = {
    0x00000000u, 0x80000000u, 0x00000001u, 0x807fffffu, 0x7f800000u,
    0xff800000u,
  };
  guint32 *full = g_new (guint32, 1u << MANTISSA_BITS);
  guint32 *table = NULL;
  gboolean ok = TRUE;
  guint bits, shift;

  (void) data;
  for (guint32 m = 0; m < (1u << MANTISSA_BITS); m++)
    full[m] = float_bits (rcp (bits_float (0x3f800000u | m)));
  for (guint32 m = 0; ok && m < (1u << MANTISSA_BITS); m += 61) {
    for (guint i = 0; ok && i < G_N_ELEMENTS (exponents); i++) {
      for (guint32 sign = 0; ok && sign < 2; sign++) {
        guint32 x = sign << 31 | (guint32) (127 + exponents[i]) << 23 | m;
        ok = float_bits (rcp (bits_float (x))) ==
            vh_fadm_rcp_lookup (full, 0, x);
      }
    }
  }
  for (guint i = 0; ok && i < G_N_ELEMENTS (special); i++)
    ok = float_bits (rcp (bits_float (special[i]))) ==
        vh_fadm_rcp_lookup (full, 0, special[i]);
  if (!ok) {
    g_free (full);
    return NULL;
  }

  /* The fewest leading mantissa bits that decide the estimate. */
  for (bits = 1; bits < MANTISSA_BITS; bits++) {
    gboolean decides = TRUE;
    shift = MANTISSA_BITS - bits;
    for (guint32 m = 0; decides && m < (1u << MANTISSA_BITS); m++)
      decides = full[m] == full[(m >> shift) << shift];
    if (decides)
      break;
  }
  shift = MANTISSA_BITS - bits;
  table = g_new (guint32, 1u << bits);
  for (guint32 i = 0; i < (1u << bits); i++)
    table[i] = full[i << shift];
  g_free (full);
  table_bits = bits;
  return table;
}
#endif

const guint32 *
vh_fadm_rcp_table (guint * mantissa_bits)
{
#ifdef __SSE__
  static GOnce once = G_ONCE_INIT;

  /* Built once and kept for the process. */
  g_once (&once, build_table, NULL);
  *mantissa_bits = table_bits;
  return once.retval;
#else
  (void) mantissa_bits;
  return NULL;
#endif
}
