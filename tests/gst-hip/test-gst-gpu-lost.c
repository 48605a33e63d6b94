/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* A GPU lost for good under vmafhipcompare backend=auto: the fake driver's
 * illegal address (VH_FAKE_CUDA_FAIL=illegal:N, set by meson) makes every
 * later call on the device fail, as a real context does. The element goes
 * over to the CPU and finishes the stream: every frame scored (those in
 * the element's HIP memory from their host copy), values equal to a CPU
 * run from the frames the GPU had in hand on (the fake's kernels compute
 * nothing before), the pool offered upstream no longer HIP memory, and
 * the change said where an application reads it: the warning's details
 * (backend "cpu", dispatch) and the stats property's dispatch. A later
 * run on the dead device scores every frame on the CPU. Nothing is left
 * allocated. One fault per process: the CPU run comes first. */

#include <gst/gst.h>

#include "fake-cuda-counters.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_FRAMES 60
/* frames other workers or the temporal lane may have had in hand */
#define IN_HAND 12

#define LAUNCH \
  "videotestsrc pattern=ball num-buffers=%d ! video/x-raw,format=I420," \
  "width=64,height=64,framerate=30/1 ! c.ref_sink " \
  "videotestsrc pattern=ball num-buffers=%d ! video/x-raw,format=I420," \
  "width=64,height=64,framerate=30/1 ! videobalance brightness=0.1 ! " \
  "c.dist_sink vmafhipcompare name=c features=psnr backend=%s ! fakesink"

typedef struct
{
  GPtrArray *frames;            /* "vmaf" structures */
  GPtrArray *hip_buffers;       /* per ref_sink buffer: HIP memory or not */
  gchar *warning;
  GstStructure *details;
  gchar *stats_dispatch;        /* at end of stream */
} Run;

static GstPadProbeReturn
note_memory (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstMemory *mem = gst_buffer_peek_memory (buf, 0);
  GPtrArray *hip = data;

  g_ptr_array_add (hip, GINT_TO_POINTER (mem->allocator &&
          g_strcmp0 (mem->allocator->mem_type, "VmafHipMemory") == 0));
  return GST_PAD_PROBE_OK;
}

/* The device and page-locked memory of the pipeline are freed, those of
 * frames lost with the device too. (The kernel modules loaded stay with
 * the process, and the context with them: the driver's exit check,
 * VH_FAKE_CUDA_EXIT_CHECK, sees the rest.) */
static void
assert_memory_freed (const gchar * what)
{
  VhFakeCudaCounters c;

  if (!vh_fake_cuda_counters (&c))
    return;                     /* not loaded yet: the CPU run */
  if (c.n_allocations != 0 || c.n_lost != 0)
    g_error ("%s: %u allocations left, %u lost with their context", what,
        c.n_allocations, c.n_lost);
}

static void
run (const gchar * backend, Run * r)
{
  g_autofree gchar *launch = g_strdup_printf (LAUNCH, N_FRAMES, N_FRAMES,
      backend);
  GstElement *p = gst_parse_launch (launch, NULL);
  GstElement *c = gst_bin_get_by_name (GST_BIN (p), "c");
  GstPad *ref = gst_element_get_static_pad (c, "ref_sink");
  GstBus *bus = gst_element_get_bus (p);
  gboolean done = FALSE;

  memset (r, 0, sizeof (*r));
  r->frames = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_structure_free);
  r->hip_buffers = g_ptr_array_new ();
  gst_pad_add_probe (ref, GST_PAD_PROBE_TYPE_BUFFER, note_memory,
      r->hip_buffers, NULL);
  gst_element_set_state (p, GST_STATE_PLAYING);
  while (!done) {
    GstMessage *m = gst_bus_timed_pop (bus, 120 * GST_SECOND);
    GError *err = NULL;
    const GstStructure *details = NULL;

    if (!m)
      g_error ("timeout: %s", launch);
    switch (GST_MESSAGE_TYPE (m)) {
      case GST_MESSAGE_ELEMENT:
        if (gst_message_has_name (m, "vmaf"))
          g_ptr_array_add (r->frames,
              gst_structure_copy (gst_message_get_structure (m)));
        break;
      case GST_MESSAGE_WARNING:
        /* The fall-back, once; before it, the element may have seen the
         * fault first in an upload (that frame then read on the CPU). */
        gst_message_parse_warning (m, &err, NULL);
        gst_message_parse_warning_details (m, &details);
        g_assert_true (GST_MESSAGE_SRC (m) == GST_OBJECT (c));
        if (strstr (err->message, "Scoring goes on on the CPU")) {
          g_assert_null (r->warning);
          r->warning = g_strdup (err->message);
          r->details = details ? gst_structure_copy (details) : NULL;
        } else if (!strstr (err->message, "upload to the GPU failed")) {
          g_error ("unexpected warning: %s", err->message);
        }
        g_error_free (err);
        break;
      case GST_MESSAGE_ERROR:
        gst_message_parse_error (m, &err, NULL);
        g_error ("%s: %s", launch, err->message);
        break;
      case GST_MESSAGE_EOS:{
        GstStructure *stats = NULL;

        g_object_get (c, "stats", &stats, NULL);
        g_assert_nonnull (stats);
        r->stats_dispatch = g_strdup (gst_structure_get_string (stats,
                "dispatch"));
        gst_structure_free (stats);
        done = TRUE;
        break;
      }
      default:
        break;
    }
    gst_message_unref (m);
  }
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (ref);
  gst_object_unref (c);
  gst_object_unref (p);
  assert_memory_freed (launch);
}

static void
run_clear (Run * r)
{
  g_ptr_array_unref (r->frames);
  g_ptr_array_unref (r->hip_buffers);
  g_free (r->warning);
  if (r->details)
    gst_structure_free (r->details);
  g_free (r->stats_dispatch);
}

/* The frame the GPU failed on, as the warning names it. */
static guint
failed_frame (const gchar * warning)
{
  const gchar *at = strstr (warning, "(frame ");

  g_assert_nonnull (at);
  return (guint) atoi (at + strlen ("(frame "));
}

static void
test_gpu_lost_for_good (void)
{
  Run cpu, lost, again;
  guint from, n_values = 0, n_hip_late = 0;
  const gchar *dispatch;

  run ("cpu", &cpu);
  g_assert_null (cpu.warning);
  g_assert_cmpuint (cpu.frames->len, ==, N_FRAMES);

  run ("auto", &lost);
  /* the GPU failed, and it was said with the new dispatch */
  g_assert_nonnull (lost.warning);
  g_assert_nonnull (strstr (lost.warning, "Scoring goes on on the CPU"));
  g_assert_nonnull (strstr (lost.warning,
          g_strcmp0 (g_getenv ("VH_TEST_VENDOR"), "amd") == 0 ?
          "hipErrorIllegalAddress" : "CUDA_ERROR_ILLEGAL_ADDRESS"));
  g_assert_nonnull (lost.details);
  g_assert_cmpstr (gst_structure_get_string (lost.details, "backend"), ==,
      "cpu");
  dispatch = gst_structure_get_string (lost.details, "dispatch");
  g_assert_nonnull (dispatch);
  g_assert_nonnull (strstr (dispatch, "adm: hip, then cpu (the GPU failed)"));
  g_assert_nonnull (gst_structure_get_string (lost.details, "reason"));
  g_assert_cmpstr (lost.stats_dispatch, ==, dispatch);

  /* every frame, in order; equal to the CPU run from the frames in hand
   * on */
  g_assert_cmpuint (lost.frames->len, ==, N_FRAMES);
  from = failed_frame (lost.warning) + IN_HAND;
  g_assert_cmpuint (from, <, N_FRAMES - 20);
  for (guint i = 0; i < N_FRAMES; i++) {
    GstStructure *a = g_ptr_array_index (lost.frames, i);
    GstStructure *b = g_ptr_array_index (cpu.frames, i);
    guint64 index;

    g_assert_true (gst_structure_get_uint64 (a, "index", &index));
    g_assert_cmpuint (index, ==, i);
    for (gint f = 0; i >= from && f < gst_structure_n_fields (b); f++) {
      const gchar *name = gst_structure_nth_field_name (b, f);
      gdouble va, vb;

      if (!gst_structure_get_double (b, name, &vb))
        continue;
      g_assert_true (gst_structure_get_double (a, name, &va));
      if (va != vb)
        g_error ("frame %u, %s: %.17g after the GPU was lost, %.17g on the "
            "CPU", i, name, va, vb);
      n_values++;
    }
  }
  g_assert_cmpuint (n_values, >, (N_FRAMES - from) * 5);

  /* The element's HIP pool fed the reference at first; upstream then
   * reallocated in system memory (a few frames already queued may still
   * be HIP memory). */
  g_assert_cmpuint (lost.hip_buffers->len, ==, N_FRAMES);
  g_assert_true (g_ptr_array_index (lost.hip_buffers, 0));
  for (guint i = N_FRAMES - 20; i < N_FRAMES; i++)
    n_hip_late += GPOINTER_TO_INT (g_ptr_array_index (lost.hip_buffers, i));
  g_assert_cmpuint (n_hip_late, ==, 0);
  g_test_message ("GPU lost at frame %u: %u frames, %u values equal to the "
      "CPU run", failed_frame (lost.warning), lost.frames->len, n_values);

  /* A new run on the dead device scores on the CPU from the start. */
  run ("auto", &again);
  g_assert_cmpuint (again.frames->len, ==, N_FRAMES);
  for (guint i = 0; i < N_FRAMES; i++) {
    GstStructure *a = g_ptr_array_index (again.frames, i);
    GstStructure *b = g_ptr_array_index (cpu.frames, i);

    for (gint f = 0; f < gst_structure_n_fields (b); f++) {
      const gchar *name = gst_structure_nth_field_name (b, f);
      gdouble va, vb;

      if (!gst_structure_get_double (b, name, &vb))
        continue;
      g_assert_true (gst_structure_get_double (a, name, &va));
      if (va != vb)
        g_error ("next run, frame %u, %s: %.17g, %.17g on the CPU", i, name,
            va, vb);
    }
  }

  run_clear (&cpu);
  run_clear (&lost);
  run_clear (&again);
}

int
main (int argc, char **argv)
{
  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  if (!g_getenv ("VH_FAKE_CUDA_FAIL")) {
    printf ("SKIP: needs the fake driver's VH_FAKE_CUDA_FAIL\n");
    return 77;
  }
  g_test_add_func ("/gpu-lost/for-good", test_gpu_lost_for_good);
  return g_test_run ();
}
