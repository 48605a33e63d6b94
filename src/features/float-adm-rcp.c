/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The reciprocal estimate float_adm's decoupling divides by: the reference
 * processor's rcpss (float-adm-rcp-reference.c), looked up, or rcpss itself
 * where this processor's estimates are the same. */

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
static gfloat
rcp (gfloat x)
{
  return _mm_cvtss_f32 (_mm_rcp_ss (_mm_set_ss (x)));
}

/* Whether rcpss gives the reference estimate of every mantissa, and of
 * every exponent, sign and special value tried, as the lookup does. */
static gpointer
check_native (gpointer data)
{
  static const gint exponents[] = { -120, -100, -31, -1, 0, 1, 30, 100 };
  static const guint32 special[] = {
    0x00000000u, 0x80000000u, 0x00000001u, 0x807fffffu, 0x7f800000u,
    0xff800000u,
  };
  const guint shift = MANTISSA_BITS - VH_FADM_RCP_REFERENCE_BITS;
  gboolean ok = TRUE;

  (void) data;
  for (guint32 m = 0; ok && m < (1u << MANTISSA_BITS); m++)
    ok = float_bits (rcp (bits_float (0x3f800000u | m))) ==
        vh_fadm_rcp_reference[m >> shift];
  for (guint32 m = 0; ok && m < (1u << MANTISSA_BITS); m += 61) {
    for (guint i = 0; ok && i < G_N_ELEMENTS (exponents); i++) {
      for (guint32 sign = 0; ok && sign < 2; sign++) {
        guint32 x = sign << 31 | (guint32) (127 + exponents[i]) << 23 | m;
        ok = float_bits (rcp (bits_float (x))) ==
            vh_fadm_rcp_lookup (vh_fadm_rcp_reference, shift, x);
      }
    }
  }
  for (guint i = 0; ok && i < G_N_ELEMENTS (special); i++)
    ok = float_bits (rcp (bits_float (special[i]))) ==
        vh_fadm_rcp_lookup (vh_fadm_rcp_reference, shift, special[i]);
  return GINT_TO_POINTER (ok);
}
#endif

static gint native_allowed = TRUE;

gboolean
vh_fadm_rcp_native (void)
{
#ifdef __SSE__
  static GOnce once = G_ONCE_INIT;

  if (!g_atomic_int_get (&native_allowed))
    return FALSE;
  g_once (&once, check_native, NULL);
  return GPOINTER_TO_INT (once.retval);
#else
  return FALSE;
#endif
}

void
vh_fadm_rcp_set_native_allowed (gboolean allowed)
{
  g_atomic_int_set (&native_allowed, allowed);
}

const guint32 *
vh_fadm_rcp_table (guint * mantissa_bits)
{
  *mantissa_bits = VH_FADM_RCP_REFERENCE_BITS;
  return vh_fadm_rcp_reference;
}
