/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Filling page-locked staging memory that only the GPU's copy engine
 * reads. Ordinary stores read each destination line into the cache before
 * writing it, and leave it there: a third of the memory traffic of a
 * frame-sized copy is wasted, and what it evicts is what the other
 * threads (sources, other elements) were working on. Streaming stores
 * write around the cache. */

#include "vhhip.h"

#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <emmintrin.h>
#define HAVE_STREAMING_STORES 1
#endif

/* Below this, the cache is the better place for the bytes anyway. */
#define STREAMING_MIN_BYTES (64 * 1024)

#ifdef HAVE_STREAMING_STORES
static void
stream_copy (guint8 * d, const guint8 * s, gsize n)
{
  /* streaming stores need 16-byte aligned destinations */
  gsize head = MIN ((16 - ((guintptr) d & 15)) & 15, n);

  memcpy (d, s, head);
  d += head;
  s += head;
  n -= head;
  for (; n >= 64; n -= 64, d += 64, s += 64) {
    __m128i a = _mm_loadu_si128 ((const __m128i *) s);
    __m128i b = _mm_loadu_si128 ((const __m128i *) (s + 16));
    __m128i c = _mm_loadu_si128 ((const __m128i *) (s + 32));
    __m128i e = _mm_loadu_si128 ((const __m128i *) (s + 48));
    _mm_stream_si128 ((__m128i *) d, a);
    _mm_stream_si128 ((__m128i *) (d + 16), b);
    _mm_stream_si128 ((__m128i *) (d + 32), c);
    _mm_stream_si128 ((__m128i *) (d + 48), e);
  }
  memcpy (d, s, n);
}
#endif

void
vh_hip_copy_to_staging_2d (gpointer dst, gsize dst_pitch, gconstpointer src,
    gsize src_pitch, gsize width, gsize rows)
{
  guint8 *d = dst;
  const guint8 *s = src;

#ifdef HAVE_STREAMING_STORES
  if (width * rows >= STREAMING_MIN_BYTES) {
    if (dst_pitch == width && src_pitch == width)
      stream_copy (d, s, width * rows);
    else
      for (gsize y = 0; y < rows; y++)
        stream_copy (d + y * dst_pitch, s + y * src_pitch, width);
    /* the stores are seen before the copy that reads them is queued */
    _mm_sfence ();
    return;
  }
#endif
  if (dst_pitch == width && src_pitch == width)
    memcpy (d, s, width * rows);
  else
    for (gsize y = 0; y < rows; y++)
      memcpy (d + y * dst_pitch, s + y * src_pitch, width);
}

void
vh_hip_copy_to_staging (gpointer dst, gconstpointer src, gsize n)
{
  vh_hip_copy_to_staging_2d (dst, n, src, n, n, 1);
}
