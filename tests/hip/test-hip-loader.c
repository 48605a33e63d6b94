/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The loader without a GPU. The runtime a process loads is fixed for its
 * life, so meson runs this program once per situation, named by
 * VH_TEST_MODE:
 *   missing   no runtime library exists
 *   nodevice  the (fake) NVIDIA driver loads but has no device
 *   nokfd     AMD's runtime by its usual names, but no AMD GPU driver
 *   fake      the fake NVIDIA driver with one device (tests/hip/fake-cuda.c)
 *   system    whatever this machine has: a usable GPU or a clear reason
 * With VH_TEST_VENDOR=amd, 'nodevice' and 'fake' are the same on the fake
 * AMD HIP runtime (tests/hip/fake-hip-amd.c), and
 *   rtc       every kernel module compiled at run time by the system's
 *             hiprtc for the fake AMD device's architecture (one the build
 *             does not precompile), the code object loaded by the fake
 *             runtime only if it is for that architecture; skipped (77)
 *             without a hiprtc. */

#include "vhhip.h"
#include "hip-plane-sse.h"

#include <dlfcn.h>
#include <string.h>

static const gchar *
mode (void)
{
  const gchar *m = g_getenv ("VH_TEST_MODE");
  return m ? m : "system";
}

static gboolean
amd (void)
{
  return g_strcmp0 (g_getenv ("VH_TEST_VENDOR"), "amd") == 0;
}

/* The vendor of the fake runtime this run loads. */
static VhHipVendor
fake_vendor (void)
{
  return amd ()? VH_HIP_VENDOR_AMD : VH_HIP_VENDOR_NVIDIA;
}

static VhHipVendor
other_vendor (void)
{
  return amd ()? VH_HIP_VENDOR_NVIDIA : VH_HIP_VENDOR_AMD;
}

static void
test_vendor_strings (void)
{
  VhHipVendor v;

  g_assert_true (vh_hip_vendor_from_string ("AMD", &v));
  g_assert_cmpint (v, ==, VH_HIP_VENDOR_AMD);
  g_assert_true (vh_hip_vendor_from_string ("nvidia", &v));
  g_assert_cmpint (v, ==, VH_HIP_VENDOR_NVIDIA);
  g_assert_true (vh_hip_vendor_from_string ("auto", &v));
  g_assert_cmpint (v, ==, VH_HIP_VENDOR_UNKNOWN);
  g_assert_false (vh_hip_vendor_from_string ("intel", &v));
  g_assert_false (vh_hip_vendor_from_string (NULL, &v));
  g_assert_cmpstr (vh_hip_vendor_to_string (VH_HIP_VENDOR_NVIDIA), ==,
      "nvidia");
}

static void
test_missing (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GError) again = NULL;
  g_autoptr (GError) nv = NULL;
  guint count = 7;

  g_assert_cmpint (vh_hip_load (VH_HIP_VENDOR_UNKNOWN, &error), ==,
      VH_HIP_VENDOR_UNKNOWN);
  g_assert_error (error, VH_HIP_ERROR, VH_HIP_ERROR_NO_RUNTIME);
  /* says what was tried, for each vendor */
  g_assert_nonnull (strstr (error->message, "no GPU runtime found"));
  g_assert_nonnull (strstr (error->message, "AMD"));
  g_assert_nonnull (strstr (error->message, "libvh-missing-amd.so"));
  g_assert_nonnull (strstr (error->message, "NVIDIA"));
  g_assert_nonnull (strstr (error->message, "libvh-missing-cuda.so"));

  /* same answer the second time, and from every entry point */
  g_assert_null (vh_hip_device_open (VH_HIP_VENDOR_UNKNOWN, 0, &again));
  g_assert_error (again, VH_HIP_ERROR, VH_HIP_ERROR_NO_RUNTIME);
  g_assert_null (vh_hip_device_open (VH_HIP_VENDOR_NVIDIA, 0, &nv));
  g_assert_error (nv, VH_HIP_ERROR, VH_HIP_ERROR_NO_RUNTIME);
  g_assert_nonnull (strstr (nv->message, "NVIDIA driver not found"));
  g_assert_false (vh_hip_get_device_count (VH_HIP_VENDOR_AMD, &count, NULL));
  g_assert_cmpuint (count, ==, 0);
  g_assert_null (vh_hip_runtime_describe (VH_HIP_VENDOR_AMD));
  g_assert_null (vh_hip_runtime_describe (VH_HIP_VENDOR_NVIDIA));
}

static void
test_nodevice (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GError) open_error = NULL;

  g_assert_cmpint (vh_hip_load (VH_HIP_VENDOR_UNKNOWN, &error), ==,
      VH_HIP_VENDOR_UNKNOWN);
  g_assert_error (error, VH_HIP_ERROR, VH_HIP_ERROR_NO_DEVICE);
  g_assert_nonnull (strstr (error->message, amd ()? "hipInit failed" :
          "cuInit failed"));
  g_assert_null (vh_hip_device_open (fake_vendor (), 0, &open_error));
  g_assert_error (open_error, VH_HIP_ERROR, VH_HIP_ERROR_NO_DEVICE);
}

/* Without the kernel's interface to AMD GPUs, the AMD runtime is not even
 * loaded: it could find nothing, and is slow to load. */
static void
test_no_kfd (void)
{
  static const gchar *const amd[] = { "libamdhip64.so.7",
    "libamdhip64.so.6", "libamdhip64.so.5", NULL
  };
  g_autoptr (GError) error = NULL;
  g_autoptr (GError) amd_error = NULL;

  g_assert_cmpint (vh_hip_load (VH_HIP_VENDOR_UNKNOWN, &error), ==,
      VH_HIP_VENDOR_UNKNOWN);
  g_assert_error (error, VH_HIP_ERROR, VH_HIP_ERROR_NO_DEVICE);
  g_assert_nonnull (strstr (error->message, "no usable GPU"));
  g_assert_nonnull (strstr (error->message, g_getenv ("VH_HIP_AMD_KFD")));
  g_assert_nonnull (strstr (error->message, "AMD HIP runtime not loaded"));
  g_assert_nonnull (strstr (error->message, "NVIDIA driver not found"));
  g_assert_null (vh_hip_device_open (VH_HIP_VENDOR_AMD, 0, &amd_error));
  g_assert_error (amd_error, VH_HIP_ERROR, VH_HIP_ERROR_NO_DEVICE);
  for (guint i = 0; amd[i]; i++)
    g_assert_null (dlopen (amd[i], RTLD_LAZY | RTLD_NOLOAD));
}

static gpointer
fake_symbol (const gchar * name)
{
  gpointer lib = dlopen (g_getenv (amd ()? "VH_HIP_AMD_RUNTIME" :
          "VH_HIP_NVIDIA_RUNTIME"), RTLD_NOW);
  g_assert_nonnull (lib);
  return dlsym (lib, name);
}

static void
test_fake_devices (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (VhHipDevice) device = NULL;
  const VhHipDeviceInfo *info;
  guint count = 0;

  g_assert_cmpint (vh_hip_load (VH_HIP_VENDOR_UNKNOWN, &error), ==,
      fake_vendor ());
  g_assert_no_error (error);
  g_assert_nonnull (strstr (vh_hip_runtime_describe (fake_vendor ()),
          amd ()? "AMD HIP runtime 6.2" : "NVIDIA CUDA driver 99.0"));
  g_assert_true (vh_hip_get_device_count (fake_vendor (), &count, &error));
  g_assert_cmpuint (count, ==, 1);

  device = vh_hip_device_open (VH_HIP_VENDOR_UNKNOWN, 0, &error);
  g_assert_no_error (error);
  info = vh_hip_device_get_info (device);
  g_assert_cmpstr (info->name, ==, "vmafhip fake device 0");
  g_assert_cmpint (info->vendor, ==, fake_vendor ());
  if (amd ()) {
    /* "gfx90a:sramecc+:xnack-": the base name selects the code object */
    g_assert_cmpstr (info->arch, ==, "gfx90a");
    g_assert_cmpuint (info->pitch_alignment, ==, 256);
    g_assert_cmpuint (info->warp_size, ==, 64);
    g_assert_cmpuint (info->multiprocessors, ==, 6);
    g_assert_cmpuint (info->max_threads_per_block, ==, 1024);
    g_assert_cmpuint (info->total_memory, ==, 1 << 30);
  } else {
    g_assert_cmpstr (info->arch, ==, "sm_90");
    g_assert_cmpuint (info->pitch_alignment, ==, 32);
    g_assert_cmpuint (info->warp_size, ==, 32);
    g_assert_cmpuint (info->multiprocessors, ==, 4);
  }

  g_assert_null (vh_hip_device_open (fake_vendor (), 1, &error));
  g_assert_error (error, VH_HIP_ERROR, VH_HIP_ERROR_INVALID_DEVICE);
  g_assert_nonnull (strstr (error->message, "device index 1 is out of range"));
  g_assert_nonnull (strstr (error->message, "has 1 device (0 to 0)"));
  g_clear_error (&error);

  /* the other vendor is not there: asking for it says so */
  g_assert_null (vh_hip_device_open (other_vendor (), 0, &error));
  g_assert_error (error, VH_HIP_ERROR, VH_HIP_ERROR_NO_RUNTIME);
}

/* The AMD device's architecture from either layout of hipDeviceProp_t
 * (ROCm 6's, ROCm 5's), and the wavefront from the attribute: wave32 on
 * RDNA. */
static void
test_fake_amd_arch (void)
{
  static const struct
  {
    const gchar *props, *arch, *want;
    guint warp;
  } cases[] = {
    {NULL, "gfx1100", "gfx1100", 32},
    {"old", "gfx90a:sramecc+:xnack-", "gfx90a", 64},
    {"old", "gfx1036", "gfx1036", 32},
    {NULL, "gfx942:sramecc+:xnack+", "gfx942", 64},
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    g_autoptr (GError) error = NULL;
    g_autoptr (VhHipDevice) device = NULL;
    const VhHipDeviceInfo *info;

    if (cases[i].props)
      g_setenv ("VH_FAKE_HIP_PROPS", cases[i].props, TRUE);
    else
      g_unsetenv ("VH_FAKE_HIP_PROPS");
    g_setenv ("VH_FAKE_HIP_ARCH", cases[i].arch, TRUE);
    device = vh_hip_device_open (VH_HIP_VENDOR_AMD, 0, &error);
    g_assert_no_error (error);
    info = vh_hip_device_get_info (device);
    g_assert_cmpstr (info->arch, ==, cases[i].want);
    g_assert_cmpuint (info->warp_size, ==, cases[i].warp);
  }
  g_unsetenv ("VH_FAKE_HIP_PROPS");
  g_unsetenv ("VH_FAKE_HIP_ARCH");
}

/* Odd widths, pitches and heights through every kind of copy. */
static void
test_fake_memory (void)
{
  guint (*n_allocations) (void) = fake_symbol ("vh_fake_cuda_n_allocations");
  gint (*depth) (void) = fake_symbol ("vh_fake_cuda_context_depth");
  g_autoptr (VhHipDevice) device = vh_hip_device_open (fake_vendor (), 0,
      NULL);
  g_autoptr (VhHipStream) stream = vh_hip_stream_new (device, NULL);
  static const gsize sizes[][2] = { {1, 1}, {3, 5}, {641, 479}, {383, 2},
  {385, 3}
  };
  GError *error = NULL;
  guint before = n_allocations ();

  g_assert_nonnull (stream);
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++) {
    gsize w = sizes[s][0], h = sizes[s][1], spitch = w + 7;
    g_autofree guint8 *src = g_malloc (spitch * h);
    g_autofree guint8 *back = g_malloc0 (w * h);
    gpointer dev = NULL, dev2 = NULL, pinned = NULL;
    gsize pitch = 0;

    for (gsize i = 0; i < spitch * h; i++)
      src[i] = (guint8) g_random_int ();
    g_assert_true (vh_hip_malloc_pitch (device, w, h, &dev, &pitch, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (pitch, >=, w);
    g_assert_true (vh_hip_malloc (device, w * h, &dev2, &error));
    g_assert_true (vh_hip_host_alloc (device, w * h, &pinned, &error));
    g_assert_true (vh_hip_memcpy_2d_async (stream,
            VH_HIP_COPY_HOST_TO_DEVICE, dev, pitch, src, spitch, w, h,
            &error));
    g_assert_true (vh_hip_memcpy_2d_async (stream,
            VH_HIP_COPY_DEVICE_TO_DEVICE, dev2, w, dev, pitch, w, h, &error));
    g_assert_true (vh_hip_memcpy_2d_async (stream,
            VH_HIP_COPY_DEVICE_TO_HOST, pinned, w, dev2, w, w, h, &error));
    g_assert_true (vh_hip_stream_synchronize (stream, &error));
    g_assert_no_error (error);
    for (gsize y = 0; y < h; y++)
      g_assert_cmpmem ((guint8 *) pinned + y * w, w, src + y * spitch, w);

    /* a copy that runs past the allocation is refused, not done */
    g_assert_false (vh_hip_memcpy_2d (device, VH_HIP_COPY_HOST_TO_DEVICE,
            dev2, w, src, spitch, w, h + 1, &error));
    g_assert_error (error, VH_HIP_ERROR, VH_HIP_ERROR_CALL);
    g_assert_nonnull (strstr (error->message, "hipMemcpy2DAsync failed"));
    g_clear_error (&error);
    /* width over a pitch is caught before the runtime sees it */
    g_assert_false (vh_hip_memcpy_2d (device, VH_HIP_COPY_HOST_TO_DEVICE,
            dev, pitch, src, spitch, pitch + 1, 1, &error));
    g_assert_error (error, VH_HIP_ERROR, VH_HIP_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);

    /* memset of an inner rectangle leaves the rest alone */
    if (w > 2 && h > 2) {
      g_assert_true (vh_hip_memset_2d_async (stream,
              (guint8 *) dev + pitch + 1, pitch, 0x3c, w - 2, h - 2,
              &error));
      g_assert_true (vh_hip_memcpy_2d (device, VH_HIP_COPY_DEVICE_TO_HOST,
              back, w, dev, pitch, w, h, &error));
      g_assert_no_error (error);
      for (gsize y = 0; y < h; y++)
        for (gsize x = 0; x < w; x++) {
          gboolean inner = y >= 1 && y < h - 1 && x >= 1 && x < w - 1;
          g_assert_cmpuint (back[y * w + x], ==,
              inner ? 0x3c : src[y * spitch + x]);
        }
    }
    vh_hip_free (device, dev);
    vh_hip_free (device, dev2);
    vh_hip_host_free (device, pinned);
  }
  g_assert_cmpuint (n_allocations (), ==, before);
  g_assert_cmpint (depth (), ==, 0);
}

static void
test_fake_events (void)
{
  g_autoptr (VhHipDevice) device = vh_hip_device_open (fake_vendor (), 0,
      NULL);
  g_autoptr (VhHipStream) stream = vh_hip_stream_new (device, NULL);
  g_autoptr (VhHipEvent) a = vh_hip_event_new (device, TRUE, NULL);
  g_autoptr (VhHipEvent) b = vh_hip_event_new (device, TRUE, NULL);
  GError *error = NULL;
  gfloat ms = 0;

  g_assert_true (vh_hip_event_record (a, stream, &error));
  g_assert_true (vh_hip_event_record (b, stream, &error));
  g_assert_true (vh_hip_stream_wait_event (stream, b, &error));
  g_assert_true (vh_hip_event_synchronize (b, &error));
  g_assert_true (vh_hip_event_query (b, &error));
  g_assert_true (vh_hip_event_elapsed_ms (a, b, &ms, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (ms, ==, 1.0f);
}

/* The fake driver runs no kernel: getting the module fails with a message
 * that names the module and both attempts, and nothing crashes. */
static void
test_fake_kernel_unavailable (void)
{
  g_autoptr (VhHipDevice) device = vh_hip_device_open (fake_vendor (), 0,
      NULL);
  g_autoptr (VhHipStream) stream = vh_hip_stream_new (device, NULL);
  g_autoptr (GError) error = NULL;
  gpointer a = NULL, sse = NULL;

  g_assert_true (vh_hip_malloc (device, 64, &a, NULL));
  g_assert_true (vh_hip_malloc (device, 8, &sse, NULL));
  g_assert_false (vh_hip_plane_sse_async (stream, a, 8, a, 8, 8, 8, 1, 1,
          sse, &error));
  g_assert_error (error, VH_HIP_ERROR, VH_HIP_ERROR_COMPILE);
  g_assert_nonnull (strstr (error->message, "plane-sse"));
  g_test_message ("%s", error->message);
  g_clear_error (&error);
  g_assert_false (vh_hip_plane_sse_async (stream, a, 8, a, 8, 8, 8, 1, 3,
          sse, &error));
  g_assert_error (error, VH_HIP_ERROR, VH_HIP_ERROR_INVALID_ARGUMENT);
  vh_hip_free (device, a);
  vh_hip_free (device, sse);
}

extern const VhHipKernelSource vh_hip_kernel_adm, vh_hip_kernel_ansnr,
    vh_hip_kernel_cambi, vh_hip_kernel_ciede, vh_hip_kernel_float_adm,
    vh_hip_kernel_float_motion, vh_hip_kernel_float_scale,
    vh_hip_kernel_float_vif, vh_hip_kernel_moment, vh_hip_kernel_motion,
    vh_hip_kernel_psnr, vh_hip_kernel_psnr_hvs, vh_hip_kernel_speed_filter,
    vh_hip_kernel_speed_solve, vh_hip_kernel_ssim,
    vh_hip_kernel_ssim_decimate, vh_hip_kernel_vif;

static void
test_rtc_every_module (void)
{
  const VhHipKernelSource *const modules[] = { &vh_hip_kernel_adm,
    &vh_hip_kernel_ansnr, &vh_hip_kernel_cambi, &vh_hip_kernel_ciede,
    &vh_hip_kernel_float_adm, &vh_hip_kernel_float_motion,
    &vh_hip_kernel_float_scale, &vh_hip_kernel_float_vif,
    &vh_hip_kernel_moment, &vh_hip_kernel_motion, &vh_hip_kernel_psnr,
    &vh_hip_kernel_psnr_hvs, &vh_hip_kernel_speed_filter,
    &vh_hip_kernel_speed_solve, &vh_hip_kernel_ssim,
    &vh_hip_kernel_ssim_decimate, &vh_hip_kernel_vif
  };
  g_autoptr (GError) error = NULL;
  g_autoptr (VhHipDevice) device = vh_hip_device_open (VH_HIP_VENDOR_AMD, 0,
      &error);
  const gchar *arch;

  g_assert_no_error (error);
  arch = vh_hip_device_get_info (device)->arch;
  for (guint i = 0; i < G_N_ELEMENTS (modules); i++) {
    gint64 t0 = g_get_monotonic_time ();
    VhHipModule *module = vh_hip_module_get (device, modules[i], &error);

    if (!module && i == 0 && strstr (error->message, "was not found")) {
      g_test_skip (error->message);
      return;
    }
    g_assert_no_error (error);
    g_assert_nonnull (strstr (vh_hip_module_describe (module),
            "run-time compiled (hiprtc"));
    g_assert_nonnull (strstr (vh_hip_module_describe (module), arch));
    g_test_message ("%s: %s in %.1f s", modules[i]->name,
        vh_hip_module_describe (module),
        (g_get_monotonic_time () - t0) / 1e6);
  }
}

static void
test_system (void)
{
  g_autoptr (GError) error = NULL;
  VhHipVendor v = vh_hip_load (VH_HIP_VENDOR_UNKNOWN, &error);

  if (v == VH_HIP_VENDOR_UNKNOWN) {
    g_assert_true (g_error_matches (error, VH_HIP_ERROR,
            VH_HIP_ERROR_NO_RUNTIME) ||
        g_error_matches (error, VH_HIP_ERROR, VH_HIP_ERROR_NO_DEVICE));
    g_assert_cmpuint (strlen (error->message), >, 20);
    g_test_message ("no GPU here: %s", error->message);
  } else {
    g_autoptr (VhHipDevice) device = vh_hip_device_open (v, 0, &error);
    g_assert_no_error (error);
    g_test_message ("%s: %s (%s)", vh_hip_runtime_describe (v),
        vh_hip_device_get_info (device)->name,
        vh_hip_device_get_info (device)->arch);
  }
}

/* The staging copy equals memcpy() for every alignment, size (below and
 * above where it starts to stream) and row layout. */
static void
test_staging_copy (void)
{
  const gsize sizes[] = { 0, 1, 15, 63, 64, 65, 4096, 64 * 1024 - 1,
    64 * 1024, 64 * 1024 + 17, 300 * 1024 + 3
  };
  gsize max = 300 * 1024 + 3 + 64;
  guint8 *src = g_malloc (max), *dst = g_malloc (max + 64);
  guint8 *want = g_malloc (max + 64);

  for (gsize i = 0; i < max; i++)
    src[i] = (guint8) (i * 131 + 7);
  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++) {
    for (guint s_off = 0; s_off < 3; s_off++) {
      for (guint d_off = 0; d_off < 20; d_off += 7) {
        memset (dst, 0xa5, max + 64);
        memset (want, 0xa5, max + 64);
        memcpy (want + d_off, src + s_off, sizes[k]);
        vh_hip_copy_to_staging (dst + d_off, src + s_off, sizes[k]);
        g_assert_cmpmem (dst, max + 64, want, max + 64);
      }
    }
  }
  /* rows: 1921 bytes of 1088 rows (streams), 200 of 3 (does not), with
   * pitches that differ on both sides */
  {
    const gsize width[] = { 1921, 200 }, rows[] = { 1088, 3 };
    for (guint k = 0; k < 2; k++) {
      gsize sp = width[k] + 5, dp = width[k] + 3;
      guint8 *s2 = g_malloc (sp * rows[k]), *d2 = g_malloc0 (dp * rows[k]);
      guint8 *w2 = g_malloc0 (dp * rows[k]);

      for (gsize i = 0; i < sp * rows[k]; i++)
        s2[i] = (guint8) (i * 17 + 1);
      for (gsize y = 0; y < rows[k]; y++)
        memcpy (w2 + y * dp, s2 + y * sp, width[k]);
      vh_hip_copy_to_staging_2d (d2, dp, s2, sp, width[k], rows[k]);
      g_assert_cmpmem (d2, dp * rows[k], w2, dp * rows[k]);
      g_free (s2);
      g_free (d2);
      g_free (w2);
    }
  }
  g_free (src);
  g_free (dst);
  g_free (want);
}

int
main (int argc, char **argv)
{
  const gchar *m;

  g_test_init (&argc, &argv, NULL);
  m = mode ();
  g_test_add_func ("/hip/loader/vendor-strings", test_vendor_strings);
  g_test_add_func ("/hip/loader/staging-copy", test_staging_copy);
  if (g_str_equal (m, "missing")) {
    g_test_add_func ("/hip/loader/missing", test_missing);
  } else if (g_str_equal (m, "nodevice")) {
    g_test_add_func ("/hip/loader/no-device", test_nodevice);
  } else if (g_str_equal (m, "nokfd")) {
    g_test_add_func ("/hip/loader/no-amd-driver", test_no_kfd);
  } else if (g_str_equal (m, "fake")) {
    g_test_add_func ("/hip/loader/fake/devices", test_fake_devices);
    g_test_add_func ("/hip/loader/fake/memory", test_fake_memory);
    g_test_add_func ("/hip/loader/fake/events", test_fake_events);
    g_test_add_func ("/hip/loader/fake/kernel-unavailable",
        test_fake_kernel_unavailable);
    if (amd ())
      g_test_add_func ("/hip/loader/fake/amd-arch", test_fake_amd_arch);
  } else if (g_str_equal (m, "rtc")) {
    g_test_add_func ("/hip/loader/rtc/every-module", test_rtc_every_module);
  } else {
    g_test_add_func ("/hip/loader/system", test_system);
  }
  return g_test_run ();
}
