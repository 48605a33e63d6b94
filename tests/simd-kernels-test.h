/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What the SIMD kernel tests (test-simd-kernels*.c) share. */

#ifndef __VH_SIMD_KERNELS_TEST_H__
#define __VH_SIMD_KERNELS_TEST_H__

#include "integer-vif-private.h"
#include "adm-private.h"
#include "integer-motion-private.h"

G_BEGIN_DECLS

/* VH_TEST_FEWER_CASES (valgrind): a few of the repeated cases. */
gboolean     fewer_cases              (void);

gsize        round_up                 (gsize v, gsize m);

/* Widths around the 16- and 32-column blocks, and the smallest. */
extern const guint test_widths[17];

typedef enum
{
  FILL_RANDOM,
  FILL_MAX,
  FILL_ZERO,
  FILL_EXTREMES,                /* 0 or max at random */
  FILL_SPARSE,                  /* 0 or random at random */
  N_FILLS
} Fill;

/* A sample in [0, @max] as @fill draws it. */
guint32      sample                   (GRand * rand, Fill fill, guint32 max);

/* Fills whose distorted samples may move away from the reference ones. */
gboolean     fill_varies              (Fill fill);

/* Stops the test when the @size bytes at @a and @b differ. */
void         assert_mem_equal         (gconstpointer a, gconstpointer b,
                                       gsize size, const gchar * what,
                                       const gchar * part);

/* test-simd-kernels-vif.c, test-simd-kernels-adm.c,
 * test-simd-kernels-ssimu2.c */
void         test_vif_passes          (void);
void         test_vif_stats_random_streams (void);
void         test_adm_kernels         (void);
void         test_ssimu2_steps        (void);
void         test_ssimu2_frames       (void);

G_END_DECLS

#endif /* __VH_SIMD_KERNELS_TEST_H__ */
