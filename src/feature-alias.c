/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#include "feature-alias.h"

#include <string.h>

/* Internal name prefix + stem + "_score"; the alias is prefix tag + stem. */
typedef struct
{
  const gchar *prefix;
  const gchar *alias_prefix;
  const gchar *const *stems;
} AliasFamily;

static const gchar *const float_stems[] = {
  "adm2", "aim", "adm3", "adm_scale0", "adm_scale1", "adm_scale2",
  "adm_scale3", "motion", "motion2", "motion3", "vif_scale0", "vif_scale1",
  "vif_scale2", "vif_scale3", NULL
};

static const gchar *const integer_stems[] = {
  "adm2", "aim", "adm3", "motion", "motion2", "motion3", "vif_scale0",
  "vif_scale1", "vif_scale2", "vif_scale3", NULL
};

static const gchar *const cambi_stems[] = { "cambi", NULL };

static const gchar *const speed_chroma_stems[] = {
  "speed_chroma_u", "speed_chroma_v", "speed_chroma_uv", NULL
};

static const gchar *const speed_temporal_stems[] = { "speed_temporal", NULL };

static const AliasFamily families[] = {
  {"VMAF_feature_", "", float_stems},
  {"VMAF_integer_feature_", "integer_", integer_stems},
  {"Cambi_feature_", "", cambi_stems},
  {"Speed_chroma_feature_", "", speed_chroma_stems},
  {"Speed_temporal_feature_", "", speed_temporal_stems},
};

#define SCORE_SUFFIX "_score"

static GHashTable *
alias_table (void)
{
  static gsize once;
  static GHashTable *table;

  if (g_once_init_enter (&once)) {
    GHashTable *t = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
        g_free);
    for (guint f = 0; f < G_N_ELEMENTS (families); f++) {
      const AliasFamily *fam = &families[f];
      for (guint s = 0; fam->stems[s]; s++) {
        g_hash_table_insert (t, g_strconcat (fam->prefix, fam->stems[s],
                SCORE_SUFFIX, NULL), g_strconcat (fam->alias_prefix,
                fam->stems[s], NULL));
      }
    }
    table = t;
    g_once_init_leave (&once, 1);
  }
  return table;
}

const gchar *
vh_feature_name_alias (const gchar * name)
{
  const gchar *alias = g_hash_table_lookup (alias_table (), name);

  return alias ? alias : name;
}
