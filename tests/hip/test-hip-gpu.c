/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The HIP layer on a real GPU: memory round trips at odd sizes and pitches,
 * events, and the plane-sse kernel from both its precompiled and its
 * run-time compiled code. Skips (77) where there is no GPU. */

#include "hip-test-gpu.h"
#include "hip-plane-sse.h"

#include <string.h>

static VhHipDevice *device;

static const guint sizes[][2] = {
  {1, 1}, {3, 5}, {641, 479}, {1921, 1081}, {4097, 3}, {7, 4099},
};

static void
test_memory_round_trip (void)
{
  g_autoptr (VhHipStream) stream = vh_hip_stream_new (device, NULL);
  GError *error = NULL;

  g_assert_nonnull (stream);
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++) {
    gsize w = sizes[s][0], h = sizes[s][1];
    gsize spitch = w + 3, mid_pitch = w + 5, out_pitch = w + 1;
    g_autofree guint8 *src = g_malloc (spitch * h);
    gpointer dev = NULL, mid = NULL, pinned = NULL;
    gsize pitch = 0;

    for (gsize i = 0; i < spitch * h; i++)
      src[i] = (guint8) g_random_int ();
    g_assert_true (vh_hip_malloc_pitch (device, w, h, &dev, &pitch, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (pitch, >=, w);
    g_assert_true (vh_hip_malloc (device, mid_pitch * h, &mid, &error));
    g_assert_true (vh_hip_host_alloc (device, out_pitch * h, &pinned,
            &error));
    memset (pinned, 0, out_pitch * h);

    /* pageable -> pitched device -> odd-pitched device -> pinned */
    g_assert_true (vh_hip_memcpy_2d_async (stream,
            VH_HIP_COPY_HOST_TO_DEVICE, dev, pitch, src, spitch, w, h,
            &error));
    g_assert_true (vh_hip_memcpy_2d_async (stream,
            VH_HIP_COPY_DEVICE_TO_DEVICE, mid, mid_pitch, dev, pitch, w, h,
            &error));
    g_assert_true (vh_hip_memcpy_2d_async (stream,
            VH_HIP_COPY_DEVICE_TO_HOST, pinned, out_pitch, mid, mid_pitch, w,
            h, &error));
    g_assert_true (vh_hip_stream_synchronize (stream, &error));
    g_assert_no_error (error);
    for (gsize y = 0; y < h; y++)
      g_assert_cmpmem ((guint8 *) pinned + y * out_pitch, w,
          src + y * spitch, w);

    /* memset an inner rectangle; the border keeps its bytes */
    if (w > 2 && h > 2) {
      g_assert_true (vh_hip_memset_2d_async (stream,
              (guint8 *) dev + pitch + 1, pitch, 0x5a, w - 2, h - 2,
              &error));
      g_assert_true (vh_hip_memcpy_2d_async (stream,
              VH_HIP_COPY_DEVICE_TO_HOST, pinned, out_pitch, dev, pitch, w,
              h, &error));
      g_assert_true (vh_hip_stream_synchronize (stream, &error));
      g_assert_no_error (error);
      for (gsize y = 0; y < h; y++)
        for (gsize x = 0; x < w; x++) {
          gboolean inner = y >= 1 && y < h - 1 && x >= 1 && x < w - 1;
          g_assert_cmpuint (((guint8 *) pinned)[y * out_pitch + x], ==,
              inner ? 0x5a : src[y * spitch + x]);
        }
    }
    vh_hip_free (device, dev);
    vh_hip_free (device, mid);
    vh_hip_host_free (device, pinned);
  }
}

static void
test_events (void)
{
  g_autoptr (VhHipStream) stream = vh_hip_stream_new (device, NULL);
  g_autoptr (VhHipEvent) a = vh_hip_event_new (device, TRUE, NULL);
  g_autoptr (VhHipEvent) b = vh_hip_event_new (device, TRUE, NULL);
  gsize size = 64 << 20;
  gpointer dev = NULL;
  GError *error = NULL;
  gfloat ms = -1;

  g_assert_true (vh_hip_malloc (device, size, &dev, &error));
  g_assert_true (vh_hip_event_record (a, stream, &error));
  g_assert_true (vh_hip_memset_2d_async (stream, dev, size, 1, size, 1,
          &error));
  g_assert_true (vh_hip_event_record (b, stream, &error));
  g_assert_true (vh_hip_event_synchronize (b, &error));
  g_assert_true (vh_hip_event_query (b, &error));
  g_assert_true (vh_hip_event_elapsed_ms (a, b, &ms, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (ms, >, 0.0f);
  g_test_message ("memset of 64 MiB: %.3f ms", ms);
  vh_hip_free (device, dev);
}

static guint64
cpu_sse (const guint8 * a, gsize ap, const guint8 * b, gsize bp, guint w,
    guint h, guint step, guint bps)
{
  guint64 sum = 0;

  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++) {
      gint64 va, vb, d;
      if (bps == 1) {
        va = a[y * ap + x * step];
        vb = b[y * bp + x * step];
      } else {
        va = ((const guint16 *) (a + y * ap))[x * step];
        vb = ((const guint16 *) (b + y * bp))[x * step];
      }
      d = va - vb;
      sum += d * d;
    }
  return sum;
}

/* NVIDIA: the machine code built for the device's architecture when the
 * build has it, else the PTX; VH_HIP_CODE=ptx takes the PTX. */
static void
check_nvidia_code (VhHipModule * module)
{
  const VhHipKernelSource *src = &vh_hip_kernel_plane_sse;
  const gchar *arch = vh_hip_device_get_info (device)->arch;
  g_autofree gchar *expected = NULL;
  GError *error = NULL;
  VhHipModule *ptx;

  for (guint i = 0; i < src->n_cubins; i++) {
    if (!strcmp (src->cubins[i].arch, arch))
      expected = g_strdup_printf ("precompiled %s machine code", arch);
  }
  if (!expected && src->ptx)
    expected = g_strdup ("precompiled PTX");
  if (expected)
    g_assert_cmpstr (vh_hip_module_describe (module), ==, expected);
  if (!src->ptx)
    return;
  g_setenv ("VH_HIP_CODE", "ptx", TRUE);
  ptx = vh_hip_module_get (device, src, &error);
  g_unsetenv ("VH_HIP_CODE");
  g_assert_no_error (error);
  g_assert_cmpstr (vh_hip_module_describe (ptx), ==, "precompiled PTX");
}

static void
check_sse (gboolean force_rtc)
{
  g_autoptr (VhHipStream) stream = vh_hip_stream_new (device, NULL);
  GError *error = NULL;
  VhHipModule *module;

  g_setenv ("VH_HIP_FORCE_RTC", force_rtc ? "1" : "0", TRUE);
  module = vh_hip_module_get (device, &vh_hip_kernel_plane_sse, &error);
  g_assert_no_error (error);
  printf ("# plane-sse module: %s\n", vh_hip_module_describe (module));
  if (force_rtc)
    g_assert_true (g_str_has_prefix (vh_hip_module_describe (module),
            "run-time compiled"));
  else if (vh_hip_device_get_vendor (device) == VH_HIP_VENDOR_NVIDIA)
    check_nvidia_code (module);

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++) {
    for (guint bps = 1; bps <= 2; bps++) {
      for (guint step = 1; step <= 2; step++) {
        guint w = sizes[s][0], h = sizes[s][1];
        gsize row = (gsize) w * step * bps, hpitch = row + 2;
        g_autofree guint8 *a = g_malloc (hpitch * h);
        g_autofree guint8 *b = g_malloc (hpitch * h);
        gpointer da = NULL, db = NULL, dsse = NULL;
        gsize pa = 0, pb = 0;
        guint64 got = 0, want;

        for (gsize i = 0; i < hpitch * h; i++) {
          a[i] = (guint8) g_random_int ();
          /* mostly close to a, sometimes far: large squares too */
          b[i] = g_random_int_range (0, 8) ? a[i] + g_random_int_range (-3,
              4) : (guint8) g_random_int ();
        }
        want = cpu_sse (a, hpitch, b, hpitch, w, h, step, bps);
        g_assert_true (vh_hip_malloc_pitch (device, row, h, &da, &pa,
                &error));
        g_assert_true (vh_hip_malloc_pitch (device, row, h, &db, &pb,
                &error));
        g_assert_true (vh_hip_malloc (device, 8, &dsse, &error));
        g_assert_true (vh_hip_memcpy_2d_async (stream,
                VH_HIP_COPY_HOST_TO_DEVICE, da, pa, a, hpitch, row, h,
                &error));
        g_assert_true (vh_hip_memcpy_2d_async (stream,
                VH_HIP_COPY_HOST_TO_DEVICE, db, pb, b, hpitch, row, h,
                &error));
        g_assert_true (vh_hip_memset_2d_async (stream, dsse, 8, 0, 8, 1,
                &error));
        g_assert_true (vh_hip_plane_sse_async (stream, da, pa, db, pb, w, h,
                step, bps, dsse, &error));
        g_assert_no_error (error);
        g_assert_true (vh_hip_memcpy_2d_async (stream,
                VH_HIP_COPY_DEVICE_TO_HOST, &got, 8, dsse, 8, 8, 1, &error));
        g_assert_true (vh_hip_stream_synchronize (stream, &error));
        g_assert_no_error (error);
        g_assert_cmpuint (got, ==, want);
        vh_hip_free (device, da);
        vh_hip_free (device, db);
        vh_hip_free (device, dsse);
      }
    }
  }
}

static void
test_sse_precompiled (void)
{
  check_sse (FALSE);
}

static void
test_sse_rtc (void)
{
  check_sse (TRUE);
}

int
main (int argc, char **argv)
{
  gint ret;

  g_test_init (&argc, &argv, NULL);
  device = vh_hip_test_open_gpu_or_skip ();
  g_test_add_func ("/hip/gpu/memory-round-trip", test_memory_round_trip);
  g_test_add_func ("/hip/gpu/events", test_events);
  g_test_add_func ("/hip/gpu/plane-sse/precompiled", test_sse_precompiled);
  g_test_add_func ("/hip/gpu/plane-sse/run-time-compiled", test_sse_rtc);
  ret = g_test_run ();
  vh_hip_device_unref (device);
  return ret;
}
