/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#ifndef __VH_TEST_LIBVMAF_REFERENCE_H__
#define __VH_TEST_LIBVMAF_REFERENCE_H__

#include <glib.h>

G_BEGIN_DECLS

/* Small libvmaf logs kept under tests/data: "feature" says what libvmaf was
 * asked for ("motion=motion_max_val=18:..."), "frames" holds its per-frame
 * values. Runs that extractor with those options over golden pair @pair
 * (all frames of the log, then flush), checks that it outputs exactly the
 * logged feature names and every value within @tolerance, and returns the
 * largest absolute difference; negative when the pair is not available.
 * @cpu_mask: the extractor's VhCpuFlags mask (VH_CPU_MASK_PORTABLE for the
 * portable code). */
gdouble      vh_libvmaf_reference_check (const gchar * data_file,
                                         const gchar * pair,
                                         gdouble tolerance,
                                         guint cpu_mask);

G_END_DECLS

#endif
