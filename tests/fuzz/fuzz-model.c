/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* libFuzzer target: model files. Any bytes must give a model or an error,
 * never a crash, a sanitizer report, a hang or a huge allocation. */

#include "model.h"

#include <stdint.h>

int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  GError *error = NULL;
  VhModel *model = vh_model_new_from_data ((const gchar *) data, size,
      "fuzz", NULL, &error);

  if (model) {
    /* What a context reads from it. */
    for (guint i = 0; i < vh_model_n_features (model); i++) {
      (void) vh_model_feature_extractor (model, i);
      (void) vh_model_feature_output_name (model, i);
    }
    vh_model_free (model);
  } else {
    g_assert (error != NULL);
    g_error_free (error);
  }
  return 0;
}
