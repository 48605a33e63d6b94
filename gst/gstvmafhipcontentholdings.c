/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* What frames waiting for align=content's decisions hold. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvmafhipcontentholdings.h"

#include <unistd.h>

GST_DEBUG_CATEGORY_EXTERN (gst_vmaf_hip_compare_debug);
#define GST_CAT_DEFAULT gst_vmaf_hip_compare_debug

/* What waiting frames hold of one pool. */
typedef struct
{
  guint held;
  guint max;                    /* the pool's maximum, 0 for none */
} PoolHold;

struct _GstVmafHipContentHoldings
{
  GstElement *element;          /* not owned */
  /* GstBufferPool * -> PoolHold *, while any of its buffers is held: a
   * pool with buffers out keeps its configuration, and they keep it
   * alive, so its maximum is read once and the pointer stays valid */
  GHashTable *pools;
  gboolean said_copies;

  /* a window of frames before the first lock */
  guint64 reference_bytes;      /* the largest of the renditions' windows */
  guint64 distorted_bytes;      /* all distorted inputs' */
  guint n_counted;              /* inputs */
  gboolean said_memory;
};

GstVmafHipContentHoldings *
gst_vmaf_hip_content_holdings_new (GstElement * element)
{
  GstVmafHipContentHoldings *h = g_new0 (GstVmafHipContentHoldings, 1);

  h->element = element;
  h->pools = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  return h;
}

void
gst_vmaf_hip_content_holdings_free (GstVmafHipContentHoldings * h)
{
  if (!h)
    return;
  g_hash_table_unref (h->pools);
  g_free (h);
}

void
gst_vmaf_hip_content_holdings_reset (GstVmafHipContentHoldings * h)
{
  g_warn_if_fail (g_hash_table_size (h->pools) == 0);
  g_hash_table_remove_all (h->pools);
  h->said_copies = FALSE;
  h->reference_bytes = h->distorted_bytes = 0;
  h->n_counted = 0;
  h->said_memory = FALSE;
}

/* The most buffers @pool gives out, 0 for no maximum (a pool that grows,
 * as the element's own HIP pool, which it offers upstream). */
static guint
pool_max_buffers (GstBufferPool * pool)
{
  GstStructure *config = gst_buffer_pool_get_config (pool);
  guint max = 1;

  gst_buffer_pool_config_get_params (config, NULL, NULL, NULL, &max);
  gst_structure_free (config);
  return max;
}

GstBuffer *
gst_vmaf_hip_content_holdings_hold (GstVmafHipContentHoldings * h,
    GstBuffer * buffer, GstBuffer ** copy, GstBufferPool ** held_from)
{
  GstBufferPool *pool = buffer->pool;
  PoolHold *ph;

  *held_from = NULL;
  if (!pool)
    return gst_buffer_ref (buffer);
  ph = g_hash_table_lookup (h->pools, pool);
  if (!ph) {
    ph = g_new0 (PoolHold, 1);
    ph->max = pool_max_buffers (pool);
    g_hash_table_insert (h->pools, pool, ph);
  }
  if (ph->max != 0 && ph->held >= ph->max / 2) {
    /* on the device for a frame in HIP memory */
    if (!*copy)
      *copy = gst_buffer_copy_deep (buffer);
    if (*copy) {
      if (!h->said_copies)
        GST_INFO_OBJECT (h->element, "%u frames of %" GST_PTR_FORMAT
            " (at most %u buffers) wait for their alignment: the next ones "
            "wait as copies", ph->held, pool, ph->max);
      h->said_copies = TRUE;
      if (ph->held == 0)
        g_hash_table_remove (h->pools, pool);
      return gst_buffer_ref (*copy);
    }
    /* held all the same: its producer may stall, but no frame is lost */
    GST_WARNING_OBJECT (h->element, "a frame waiting for its alignment "
        "could not be copied: held, beyond half of %" GST_PTR_FORMAT, pool);
  }
  ph->held++;
  *held_from = pool;
  return gst_buffer_ref (buffer);
}

void
gst_vmaf_hip_content_holdings_give_back (GstVmafHipContentHoldings * h,
    GstBufferPool * held_from)
{
  PoolHold *ph;

  if (!held_from)
    return;
  ph = g_hash_table_lookup (h->pools, held_from);
  g_assert (ph != NULL && ph->held > 0);
  if (--ph->held == 0)
    g_hash_table_remove (h->pools, held_from);
}

/* This machine's memory in bytes, 0 when unknown. */
static guint64
physical_memory (void)
{
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
  glong pages = sysconf (_SC_PHYS_PAGES), page = sysconf (_SC_PAGESIZE);

  if (pages > 0 && page > 0)
    return (guint64) pages * (guint64) page;
#endif
  return 0;
}

gchar *
gst_vmaf_hip_content_holdings_count_window (GstVmafHipContentHoldings * h,
    gboolean reference, GstClockTime window, guint frames,
    const GstVideoInfo * info, guint64 * bytes)
{
  guint64 window_bytes = (guint64) frames * GST_VIDEO_INFO_SIZE (info);
  guint64 memory = physical_memory ();

  if (!reference)
    h->distorted_bytes += window_bytes;
  if (!reference || !h->reference_bytes)
    h->n_counted++;
  if (reference)
    h->reference_bytes = MAX (h->reference_bytes, window_bytes);
  *bytes = h->reference_bytes + h->distorted_bytes;
  if (h->said_memory || !memory || *bytes <= memory / 2)
    return NULL;
  h->said_memory = TRUE;
  return g_strdup_printf ("align-window=%.1f s holds up to %u frames of each "
      "input until the offset locks: %.1f GB for %u input%s, more than half "
      "of this machine's %.1f GB. Set align-window to how far apart the "
      "inputs can be", window / (gdouble) GST_SECOND, frames, *bytes / 1e9,
      h->n_counted, h->n_counted == 1 ? "" : "s", memory / 1e9);
}
