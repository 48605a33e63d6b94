/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_HIP_SELF_TEST_H__
#define __VH_HIP_SELF_TEST_H__

#include "hip-features.h"

G_BEGIN_DECLS

/*
 * The self-test (vmafhip-score --self-test, the element's self-test
 * property): every HIP twin scores built-in frames on one device and is
 * compared with its CPU twin, value for value, so that a user of a GPU
 * no one here has run can tell in one command whether it works.
 */

typedef enum
{
  VH_HIP_SELF_TEST_PASS,
  VH_HIP_SELF_TEST_FAIL,
  VH_HIP_SELF_TEST_SKIP,
} VhHipSelfTestVerdict;

typedef struct
{
  const gchar *twin;            /* the class name ("vif"), static */
  VhHipSelfTestVerdict verdict;
  gdouble max_diff;             /* largest |GPU - CPU| over every value */
  gchar *detail;                /* FAIL: the first value out of bounds or
                                 * the error; SKIP: why; NULL on PASS */
} VhHipSelfTestResult;

typedef struct
{
  gchar *device_line;           /* device, vendor, arch, runtime, kernels */
  GArray *results;              /* VhHipSelfTestResult, the twin table's
                                 * order */
  guint n_failed;
} VhHipSelfTest;

/**
 * vh_hip_self_test_run:
 * @transfer: the device's transfer (vh_hip_select_backend() or
 *   vh_hip_use_device() made it)
 * @twins: (nullable): class names to test; NULL: every twin
 *
 * Scores the built-in clips (vh_hip_self_test_clips()) with each twin on
 * the device and with its CPU twin, and compares every value of every
 * frame within vh_hip_self_test_tolerance(). A twin that errors on the
 * GPU fails; one whose options or every clip keep it off the GPU is
 * skipped with the reason. NULL with @error only for an unknown name in
 * @twins.
 */
VhHipSelfTest *vh_hip_self_test_run      (VhPictureTransfer * transfer,
                                          const gchar * const *twins,
                                          GError ** error);

void         vh_hip_self_test_free       (VhHipSelfTest * test);

/* "PASS vif (max |diff| 0)", "FAIL adm (...)", "SKIP cambi (...)". */
gchar       *vh_hip_self_test_result_line (const VhHipSelfTestResult * r);

/* The class names of the twins that failed, NULL-terminated (free with
 * g_strfreev). */
gchar      **vh_hip_self_test_failed     (const VhHipSelfTest * test);

/* The largest |GPU - CPU| accepted for @feature's output at CPU value
 * @cpu_value: 0 for the twins that keep the CPU's arithmetic; 1e-6 for
 * those that call the GPU's pow, sin, log2 and the like (ciede,
 * speed_chroma, speed_temporal); 1e-4 relative for float_psnr,
 * float_ssim and float_ms_ssim. */
gdouble      vh_hip_self_test_tolerance  (const gchar * feature,
                                          gdouble cpu_value);

/* One built-in clip: frames generated in code. */
typedef struct
{
  gchar *label;                 /* "321x243 4:2:0 8-bit" */
  GPtrArray *refs;              /* VhPicture, host memory */
  GPtrArray *dists;
} VhHipSelfTestClip;

/* The built-in clips: odd sizes, 8 and 10 bits, 4:2:0 and 4:4:4, a
 * moving pattern with noise and bands (for cambi), 3 frames or more. */
GPtrArray   *vh_hip_self_test_clips      (void);

void         vh_hip_self_test_clip_free  (VhHipSelfTestClip * clip);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VhHipSelfTest, vh_hip_self_test_free)

G_END_DECLS

#endif /* __VH_HIP_SELF_TEST_H__ */
