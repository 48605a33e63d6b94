/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __VH_HIP_FEATURES_H__
#define __VH_HIP_FEATURES_H__

#include "vhhip.h"
#include "backend-choice.h"
#include "context.h"
#include "extractor-set.h"
#include "feature-extractor.h"
#include "picture-transfer.h"

G_BEGIN_DECLS

/*
 * The HIP twins of the CPU feature extractors (hip/features/): same name,
 * same output names, same options, backend VH_BACKEND_HIP. The engine
 * (src/) never links this layer: the CLI, the element, the tests and the
 * benchmarks hand a context vh_hip_extractor_set() (VhContextConfig's
 * extractors), which then prefers a twin wherever the context's backends
 * allow HIP.
 */

/* One row of the twin table (hip-twins.c): the CPU class a twin stands in
 * for, the twin, and the kernel modules its init loads. */
typedef struct
{
  const gchar *cpu_name;
  const VhFeatureExtractorClass *klass;
  const VhHipKernelSource *modules[3];
} VhHipTwin;

/* Every twin, ended by a row of NULLs. */
extern const VhHipTwin vh_hip_twins[];

/* The built-in CPU classes and every HIP twin, made once and shared (no
 * reference to drop): for VhContextConfig.extractors. */
VhExtractorSet *vh_hip_extractor_set     (void);

/* The built-in CPU classes and the HIP twins but those named in @twins
 * (CPU class names): those features run on their CPU twin. A new set
 * (unref it). */
VhExtractorSet *vh_hip_extractor_set_without (const gchar * const *twins);

/* The HIP twin classes, NULL-terminated (the table's, in its order). */
const VhFeatureExtractorClass *const *vh_hip_features_list (guint * n);

/* ---- choosing where features run ------------------------------------ */

/**
 * vh_hip_select_backend:
 * @choice: what the user asked for
 * @vendor: VH_HIP_VENDOR_UNKNOWN picks automatically
 * @index: device index of that vendor
 * @config: (inout): its backends, transfer, gpu_fallback and extractors
 *   are set; the transfer is the device's own (a reference the caller
 *   drops), or NULL for the CPU
 * @reason: (out) (optional): with auto going to the CPU, one line saying
 *   why (caller frees); NULL otherwise
 *
 * The one call that the CLI, the tests and the benchmarks use: opens the
 * device unless @choice is cpu, checks that it runs our kernels, makes a
 * transfer for it (its own plane pool, for one scoring context or several
 * on that device), and resolves @choice with vh_backend_choice_resolve()
 * (hip without a usable GPU: FALSE, @error VH_ERROR_BACKEND saying why).
 */
gboolean     vh_hip_select_backend       (VhBackendChoice choice,
                                          VhHipVendor vendor, guint index,
                                          VhContextConfig * config,
                                          gchar ** reason, GError ** error);

/* The second half of vh_hip_select_backend(), for callers that got the
 * device elsewhere (the element shares one with its neighbours): checks
 * that the device runs our kernels (loads one module: a driver that cannot
 * is no usable GPU), then sets @backends (HIP | CPU) and @transfer (a new
 * transfer for @device). FALSE with @error when the device cannot run
 * kernels: the caller resolves its choice with that error
 * (vh_backend_choice_resolve()) and hands contexts vh_hip_extractor_set(). */
gboolean     vh_hip_use_device           (VhHipDevice * device,
                                          VhBackend * backends,
                                          VhPictureTransfer ** transfer,
                                          GError ** error);

/* Loads the kernel modules of @classes (HIP twins, as
 * vh_context_get_classes() lists them) on @device now, as their init would
 * on the first frame: a live pipeline does it before its clock runs. */
gboolean     vh_hip_features_preload     (VhHipDevice * device,
                                          GPtrArray * classes,
                                          GError ** error);

G_END_DECLS

#endif /* __VH_HIP_FEATURES_H__ */
