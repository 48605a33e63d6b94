/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#ifndef __VH_BACKEND_CHOICE_H__
#define __VH_BACKEND_CHOICE_H__

#include <glib.h>

#include "feature-extractor.h"

G_BEGIN_DECLS

/**
 * VhBackendChoice:
 * @VH_BACKEND_CHOICE_AUTO: the GPU if one is usable, else the CPU; a GPU
 *   that fails while scoring hands its features over to the CPU
 * @VH_BACKEND_CHOICE_CPU: the CPU only (the GPU is not even opened)
 * @VH_BACKEND_CHOICE_HIP: the GPU, or an error (never a silent CPU run)
 *
 * Where the user asks features to run: the CLI's --backend, the element's
 * backend property (whose GEnum has these values), the monitor's backend
 * key. Features without a GPU twin run on the CPU whatever the choice.
 */
typedef enum
{
  VH_BACKEND_CHOICE_AUTO = 0,
  VH_BACKEND_CHOICE_CPU,
  VH_BACKEND_CHOICE_HIP,
} VhBackendChoice;

/* "auto", "cpu", "hip" (case-insensitive); FALSE for anything else. */
gboolean     vh_backend_choice_from_string (const gchar * str,
                                          VhBackendChoice * choice);

const gchar *vh_backend_choice_to_string (VhBackendChoice choice);

/* "--backend 'gpu': expected auto, cpu or hip": @what names the setting. */
void         vh_backend_choice_set_parse_error (GError ** error,
                                          const gchar * what,
                                          const gchar * str);

/* Whether @choice opens the GPU at all. */
gboolean     vh_backend_choice_wants_gpu (VhBackendChoice choice);

/**
 * vh_backend_choice_resolve:
 * @choice: what the user asked for
 * @gpu_error: NULL when a GPU is usable (opened, runs our kernels), else
 *   why not (ignored for VH_BACKEND_CHOICE_CPU)
 * @backends: (out): for VhContextConfig.backends
 * @gpu_fallback: (out): for VhContextConfig.gpu_fallback
 * @reason: (out) (optional): with auto going to the CPU, one line saying
 *   why (caller frees); NULL otherwise
 *
 * What @choice means given whether a GPU is usable: cpu, or auto without
 * a GPU, the CPU; auto or hip with one, HIP and CPU (each feature on its
 * twin, the others on the CPU), auto with the CPU taking over when the GPU
 * fails; hip without one: FALSE, @error VH_ERROR_BACKEND "backend hip:
 * <why>".
 */
gboolean     vh_backend_choice_resolve   (VhBackendChoice choice,
                                          const GError * gpu_error,
                                          VhBackend * backends,
                                          gboolean * gpu_fallback,
                                          gchar ** reason, GError ** error);

G_END_DECLS

#endif /* __VH_BACKEND_CHOICE_H__ */
