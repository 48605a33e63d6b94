/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvmafhipstats.h"
#include "pool.h"

typedef struct
{
  gchar *name;
  VhPoolAccumulator acc;
} Pool;

struct _GstVmafHipStats
{
  GPtrArray *pools;             /* Pool*, in first-seen order */
  GHashTable *by_name;          /* name -> Pool* */
};

static void
pool_free (Pool * p)
{
  g_free (p->name);
  g_free (p);
}

GstVmafHipStats *
gst_vmaf_hip_stats_new (void)
{
  GstVmafHipStats *stats = g_new0 (GstVmafHipStats, 1);

  stats->pools = g_ptr_array_new_with_free_func ((GDestroyNotify) pool_free);
  stats->by_name = g_hash_table_new (g_str_hash, g_str_equal);
  return stats;
}

void
gst_vmaf_hip_stats_free (GstVmafHipStats * stats)
{
  if (!stats)
    return;
  g_hash_table_unref (stats->by_name);
  g_ptr_array_unref (stats->pools);
  g_free (stats);
}

void
gst_vmaf_hip_stats_add (GstVmafHipStats * stats, const gchar * name,
    gdouble value)
{
  Pool *p = g_hash_table_lookup (stats->by_name, name);

  if (!p) {
    p = g_new0 (Pool, 1);
    p->name = g_strdup (name);
    g_ptr_array_add (stats->pools, p);
    g_hash_table_insert (stats->by_name, p->name, p);
  }
  vh_pool_accumulator_add (&p->acc, value);
}

static gdouble
pool_value (const Pool * p, GstVmafHipPoolMethod method)
{
  /* The GEnum's values are the engine's (gstvmafhipenums.h). */
  return vh_pool_accumulator_get (&p->acc, (VhPoolMethod) method);
}

gboolean
gst_vmaf_hip_stats_get (GstVmafHipStats * stats, const gchar * name,
    GstVmafHipPoolMethod method, gdouble * value)
{
  Pool *p = g_hash_table_lookup (stats->by_name, name);

  if (!p || p->acc.n == 0)
    return FALSE;
  *value = pool_value (p, method);
  return TRUE;
}

guint
gst_vmaf_hip_stats_n_names (GstVmafHipStats * stats)
{
  return stats->pools->len;
}

const gchar *
gst_vmaf_hip_stats_name (GstVmafHipStats * stats, guint i)
{
  Pool *p = g_ptr_array_index (stats->pools, i);

  return p->name;
}

GstStructure *
gst_vmaf_hip_stats_to_structure (GstVmafHipStats * stats, const gchar * name)
{
  Pool *p = g_hash_table_lookup (stats->by_name, name);

  if (!p || p->acc.n == 0)
    return NULL;
  return gst_structure_new ("pooled",
      "frames", G_TYPE_UINT64, p->acc.n,
      "mean", G_TYPE_DOUBLE, pool_value (p, GST_VMAF_HIP_POOL_MEAN),
      "harmonic-mean", G_TYPE_DOUBLE,
      pool_value (p, GST_VMAF_HIP_POOL_HARMONIC_MEAN),
      "min", G_TYPE_DOUBLE, pool_value (p, GST_VMAF_HIP_POOL_MIN),
      "max", G_TYPE_DOUBLE, pool_value (p, GST_VMAF_HIP_POOL_MAX), NULL);
}
