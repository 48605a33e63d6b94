/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
/* The buffers the src pad passes on. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvmafhipoutput.h"
#include "gstvmafhippicture.h"

/* One memory of the input, mapped for as long as the output shows it. */
typedef struct
{
  GstBuffer *input;             /* owned: keeps @memory */
  GstMemory *memory;
  GstMapInfo map;
} MappedInput;

static void
mapped_input_free (gpointer data)
{
  MappedInput *m = data;

  gst_memory_unmap (m->memory, &m->map);
  gst_buffer_unref (m->input);
  g_free (m);
}

GstBuffer *
gst_vmaf_hip_output_buffer (GstBuffer * input)
{
  guint n = gst_buffer_n_memory (input);
  GstBuffer *out;

  if (!input->pool || !gst_vmaf_hip_buffer_is_system_memory (input))
    return gst_buffer_copy (input);
  out = gst_buffer_new ();
  for (guint i = 0; i < n; i++) {
    MappedInput *m = g_new0 (MappedInput, 1);

    m->memory = gst_buffer_peek_memory (input, i);
    if (!gst_memory_map (m->memory, &m->map, GST_MAP_READ)) {
      g_free (m);
      gst_buffer_unref (out);
      return gst_buffer_copy (input);
    }
    m->input = gst_buffer_ref (input);
    gst_buffer_append_memory (out,
        gst_memory_new_wrapped (GST_MEMORY_FLAG_READONLY, m->map.data,
            m->map.size, 0, m->map.size, m, mapped_input_free));
  }
  /* flags, timestamps and metas (the video meta's plane layout holds: the
   * memories have the input's sizes) */
  gst_buffer_copy_into (out, input, GST_BUFFER_COPY_METADATA, 0, -1);
  return out;
}
