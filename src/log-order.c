/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* libvmaf's log order (see log-order.h): how late, relative to the frame
 * they belong to, libvmaf 3.2 writes the values of its extractors. */

#include "log-order.h"

#include <string.h>

#define AT_END G_MAXUINT

static const struct
{
  const gchar *extractor;
  const gchar *output;
  guint delay;                  /* frames, or AT_END */
} delays[] = {
  /* Pooled from the stored SADs when the stream ends. */
  {"motion", "integer_motion2", AT_END},
  {"motion", "integer_motion3", AT_END},
  /* Frame i's motion3 is known once frame i + 1 is read. */
  {"float_motion", "motion3", 1},
};

/* Extractors libvmaf flags as temporal: run on the calling thread. */
static const gchar *const temporal[] = {
  "psnr", "float_motion", "speed_temporal",
};

void
vh_log_key_init (VhLogKey * key, const gchar * extractor,
    const gchar * base_name, guint index, guint slot, guint seq,
    gboolean pooled, gboolean flushing)
{
  guint64 frame = index;
  gboolean first = FALSE;

  /* libvmaf flushes once every frame's values are in (its pool drained). */
  if (flushing)
    frame = G_MAXUINT32;

  for (guint i = 0; i < G_N_ELEMENTS (delays); i++) {
    if (!flushing && !strcmp (delays[i].extractor, extractor) &&
        !strcmp (delays[i].output, base_name)) {
      frame = delays[i].delay == AT_END ? G_MAXUINT32 :
          frame + delays[i].delay;
      break;
    }
  }
  for (guint i = 0; pooled && i < G_N_ELEMENTS (temporal); i++)
    first |= !strcmp (temporal[i], extractor);
  /* With the pool, the calling thread usually runs ahead of the workers:
   * its frame i + 1 comes before the workers' frame i. */
  key->phase = pooled ? 2 * frame + (first ? 0 : 3) : frame;
  key->slot = slot;
  key->seq = seq;
}

gint
vh_log_key_compare (const VhLogKey * a, const VhLogKey * b)
{
  if (a->phase != b->phase)
    return a->phase < b->phase ? -1 : 1;
  if (a->slot != b->slot)
    return a->slot < b->slot ? -1 : 1;
  if (a->seq != b->seq)
    return a->seq < b->seq ? -1 : 1;
  return 0;
}
