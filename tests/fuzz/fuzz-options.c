/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* libFuzzer target: option strings. The input is a --model spec, or (when
 * it starts with '=') a feature spec NAME[=key=value[:key=value]] as the
 * CLI and the element take them. */

#include "context.h"
#include "model-spec.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

static void
fuzz_feature (const gchar * spec)
{
  VhContext *ctx = vh_context_new (NULL);
  gchar **name_opts = g_strsplit (spec, "=", 2);
  GPtrArray *kv = g_ptr_array_new_with_free_func (g_free);

  if (name_opts[0] && name_opts[1]) {
    gchar **pairs = g_strsplit (name_opts[1], ":", -1);
    for (guint i = 0; pairs[i]; i++) {
      gchar **pair = g_strsplit (pairs[i], "=", 2);
      if (pair[0] && pair[1]) {
        g_ptr_array_add (kv, g_strdup (pair[0]));
        g_ptr_array_add (kv, g_strdup (pair[1]));
      }
      g_strfreev (pair);
    }
    g_strfreev (pairs);
  }
  g_ptr_array_add (kv, NULL);
  if (vh_context_add_feature (ctx, name_opts[0],
          (const gchar * const *) kv->pdata, NULL))
    (void) vh_context_check_outputs (ctx, NULL);
  g_ptr_array_unref (kv);
  g_strfreev (name_opts);
  vh_context_free (ctx);
}

static void
fuzz_model_spec (const gchar * text)
{
  const VhModelConfig defaults = { "vmaf", FALSE, FALSE };
  VhModelSpec spec;
  VhModel *model;

  if (!vh_model_spec_parse (&spec, text, &defaults, NULL))
    return;
  /* Built-in models only: a path= must not read the fuzzer's disk. */
  if (!spec.path && (model = vh_model_spec_load (&spec, NULL)))
    vh_model_free (model);
  vh_model_spec_clear (&spec);
}

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  gchar *text = g_strndup ((const gchar *) data, size);

  if (text[0] == '=')
    fuzz_feature (text + 1);
  else
    fuzz_model_spec (text);
  g_free (text);
  return 0;
}
