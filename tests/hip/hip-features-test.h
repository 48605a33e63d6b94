/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What the HIP twin tests (test-hip-features*.c, hip-features-clips.c)
 * share. */

#ifndef __VH_HIP_FEATURES_TEST_H__
#define __VH_HIP_FEATURES_TEST_H__

#include "context.h"
#include "golden.h"
#include "hip-features.h"
#include "hip-picture.h"
#include "vh-test.h"

G_BEGIN_DECLS

/* The GPU's transfer and device, in gpu mode (else NULL). */
extern VhPictureTransfer *transfer;
extern VhHipDevice *device;

/* Reference and distorted pictures of one clip, named for messages. */
typedef struct
{
  gchar *label;
  GPtrArray *refs;
  GPtrArray *dists;
} Clip;

Clip        *clip_new                 (const gchar * label);
void         clip_free                (Clip * c);

/* The golden pairs up to 720p (10 frames each) and the synthetic clips. */
GPtrArray   *make_clips               (void);

/* Frame @t of synthetic clip @seed; @dist adds distortion. */
void         fill_picture             (VhPicture * pic, guint seed, guint t,
                                       gboolean dist);

/* A new picture with @pic's samples and no device copy yet. */
VhPicture   *rewrap                   (VhPicture * pic);

/* @clip scored with @feature (@opts) on @backends; NULL with @error when
 * the feature refuses it. */
VhContext   *score                    (const Clip * clip,
                                       const gchar * feature,
                                       const gchar * const *opts,
                                       VhBackend backends, guint n_threads,
                                       GError ** error);

/* The name whose tolerance applies to @feature run with @opts. */
const gchar *tolerance_key            (const gchar * feature,
                                       const gchar * const *opts);

/* Every value of every frame of @hip against @cpu within @feature's
 * tolerance (NULL: a model's); the largest difference. */
gdouble      compare_runs             (const gchar * what, VhContext * cpu,
                                       VhContext * hip,
                                       const gchar * feature);

/* test-hip-features-twins.c */
void         hip_features_add_gpu_cases (void);

/* VH_TEST_MODE=emulated: the GPU is a stand-in running the kernels'
 * source on the host (VH_FAKE_CUDA_KERNELS=emulate). */
gboolean     hip_features_emulated    (void);

G_END_DECLS

#endif /* __VH_HIP_FEATURES_TEST_H__ */
