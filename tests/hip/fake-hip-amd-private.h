/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What the fake AMD HIP runtime's files share (fake-hip-amd.c: devices,
 * memory, copies, streams and events; fake-hip-amd-module.c: code
 * objects, modules, launches and hiprtc). Nothing here is exported: the
 * library's symbols are the runtime's entry points (EXPORT). */

#ifndef __VH_FAKE_HIP_AMD_PRIVATE_H__
#define __VH_FAKE_HIP_AMD_PRIVATE_H__

#include "fake-gpu.h"

#include <stdio.h>
#include <string.h>

#define HIP_ERROR_NO_BINARY_FOR_GPU 209
#define HIP_ERROR_INVALID_HANDLE 400
#define HIP_ERROR_NOT_SUPPORTED 801

#define MAX_BLOCK_THREADS 1024
#define MAX_DYNAMIC_LDS 65536

typedef struct
{
  gint kind;                    /* KIND_STREAM */
  gint device;
} FakeStream;

typedef struct
{
  gint kind;                    /* KIND_EVENT */
  gint device;
  gboolean timing;
  gboolean pending;
} FakeEvent;

enum
{ KIND_STREAM = 1, KIND_EVENT, KIND_MODULE, KIND_FUNCTION };

typedef struct
{
  gint kind;                    /* KIND_MODULE */
  gint device;
  GHashTable *functions;        /* name -> FakeFunction */
} FakeModule;

typedef struct
{
  gint kind;                    /* KIND_FUNCTION */
  FakeModule *module;
  gchar *name;
} FakeFunction;

#define EXPORT FAKE_EXPORT

/* Live streams, events and modules (fake-hip-amd.c). */
void         handle_add               (gpointer h);
/* Whether @h is a live handle of @kind (each starts with its kind). */
gboolean     handle_alive             (gconstpointer h, gint kind);
gboolean     handle_remove            (gpointer h);
/* The device work on @stream runs on: its own, or the current one for the
 * null stream. -2 for a stream that is not alive. */
gint         stream_device            (FakeStream * stream);
/* VH_FAKE_HIP_ARCH, and its wavefront's width. */
const gchar *arch_name                (void);
gint         wavefront_size           (void);

#endif /* __VH_FAKE_HIP_AMD_PRIVATE_H__ */
