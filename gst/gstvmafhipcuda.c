/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvmafhipcuda.h"
#include "errors.h"

#include <dlfcn.h>
#include <string.h>

/* gst-cuda's names, stable since 1.22 (its headers need CUDA's own, which
 * a build here need not have). */
#define CUDA_MEMORY_TYPE_NAME "gst.cuda.memory"
#define CUDA_CONTEXT_TYPE "gst.cuda.context"
#define CUDA_LIBRARY "libgstcuda-1.0.so.0"
/* GST_MAP_CUDA: the mapping gives the device address. */
#define MAP_CUDA (GST_MAP_FLAG_LAST << 1)

/* The public head of gst-cuda's GstCudaMemory. */
typedef struct
{
  GstMemory mem;
  GstObject *context;           /* GstCudaContext */
} CudaMemoryHead;

typedef struct
{
  GstObject *(*context_new_wrapped) (gpointer cu_context, gint cu_device);
  GstContext *(*context_new_cuda_context) (GstObject * cuda_context);
  gpointer (*context_get_handle) (GstObject * cuda_context);
  void (*memory_sync) (GstMemory * mem);        /* 1.24 and later */
  gchar *error;                 /* why it did not load */
} CudaApi;

static CudaApi *
cuda_api (void)
{
  static CudaApi api;
  static gsize done;

  if (g_once_init_enter (&done)) {
    gpointer lib = dlopen (CUDA_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    gboolean (*load_library) (void) = NULL;

    if (lib) {
      load_library = dlsym (lib, "gst_cuda_load_library");
      api.context_new_wrapped = dlsym (lib, "gst_cuda_context_new_wrapped");
      api.context_new_cuda_context = dlsym (lib,
          "gst_context_new_cuda_context");
      api.context_get_handle = dlsym (lib, "gst_cuda_context_get_handle");
      api.memory_sync = dlsym (lib, "gst_cuda_memory_sync");
    }
    if (!lib)
      api.error = g_strdup_printf ("%s (gst-cuda) does not load: %s",
          CUDA_LIBRARY, dlerror ());
    else if (!load_library || !api.context_new_wrapped ||
        !api.context_new_cuda_context || !api.context_get_handle)
      api.error = g_strdup_printf ("%s lacks the functions of gst-cuda 1.22",
          CUDA_LIBRARY);
    /* gst-cuda calls the driver through a table its users fill first (its
     * plugin does so as it loads): a context made before that aborted the
     * process when no CUDA element had been loaded yet */
    else if (!load_library ())
      api.error = g_strdup_printf ("%s cannot load the CUDA driver",
          CUDA_LIBRARY);
    g_once_init_leave (&done, 1);
  }
  return &api;
}

gboolean
gst_vmaf_hip_cuda_caps (const GstCaps * caps)
{
  for (guint i = 0; caps && i < gst_caps_get_size (caps); i++) {
    GstCapsFeatures *f = gst_caps_get_features (caps, i);
    if (f && gst_caps_features_contains (f, GST_VMAF_HIP_CUDA_FEATURE))
      return TRUE;
  }
  return FALSE;
}

gboolean
gst_vmaf_hip_cuda_usable (GstVmafHipDevice * device, GError ** error)
{
  CudaApi *api;

  if (!device) {
    g_set_error (error, VH_ERROR, VH_ERROR_BACKEND,
        "frames in CUDA memory are read by the GPU features only, and this "
        "element has no GPU (backend=cpu, or none usable): put cudadownload "
        "before it");
    return FALSE;
  }
  if (gst_vmaf_hip_device_get_vendor (device) != GST_VMAF_HIP_VENDOR_NVIDIA) {
    g_set_error (error, VH_ERROR, VH_ERROR_BACKEND,
        "frames in CUDA memory need the element on an NVIDIA GPU, and it "
        "runs on an AMD GPU: put cudadownload before it");
    return FALSE;
  }
  api = cuda_api ();
  if (api->error) {
    g_set_error (error, VH_ERROR, VH_ERROR_BACKEND,
        "frames in CUDA memory cannot be read: %s", api->error);
    return FALSE;
  }
  return TRUE;
}

/* gst-cuda's context object for @device's CUDA context, made once. */
static GstObject *
device_cuda_context (GstVmafHipDevice * device)
{
  static GMutex lock;
  static GHashTable *contexts;  /* CUcontext -> GstCudaContext */
  VhHipDevice *handle = gst_vmaf_hip_device_get_handle (device);
  gpointer cu = vh_hip_device_get_native_context (handle);
  GstObject *ctx;

  if (!cu || !gst_vmaf_hip_cuda_usable (device, NULL))
    return NULL;
  g_mutex_lock (&lock);
  if (!contexts)
    contexts = g_hash_table_new (NULL, NULL);
  ctx = g_hash_table_lookup (contexts, cu);
  if (!ctx) {
    /* CUdevice values are the devices' ordinals. */
    ctx = cuda_api ()->context_new_wrapped (cu,
        (gint) vh_hip_device_get_index (handle));
    if (ctx)
      g_hash_table_insert (contexts, cu, ctx);
  }
  g_mutex_unlock (&lock);
  return ctx;
}

/* gst-cuda's context for @device as a GstContext, or NULL. */
static GstContext *
device_gst_context (GstVmafHipDevice * device)
{
  GstObject *ctx = device_cuda_context (device);

  return ctx ? cuda_api ()->context_new_cuda_context (ctx) : NULL;
}

void
gst_vmaf_hip_cuda_post_context (GstElement * element,
    GstVmafHipDevice * device)
{
  GstContext *context;

  /* none for an AMD GPU, or without gst-cuda */
  if (!device || !(context = device_gst_context (device)))
    return;
  GST_DEBUG_OBJECT (element, "posting the CUDA context of our device");
  gst_element_post_message (element,
      gst_message_new_have_context (GST_OBJECT (element), context));
}

gboolean
gst_vmaf_hip_cuda_handle_context_query (GstElement * element,
    GstQuery * query, GstVmafHipDevice * device)
{
  const gchar *type = NULL;
  GstContext *context;

  if (GST_QUERY_TYPE (query) != GST_QUERY_CONTEXT ||
      !gst_query_parse_context_type (query, &type) ||
      g_strcmp0 (type, CUDA_CONTEXT_TYPE) != 0 || !device)
    return FALSE;
  context = device_gst_context (device);
  if (!context)
    return FALSE;
  GST_DEBUG_OBJECT (element, "offering the CUDA context of our device");
  gst_query_set_context (query, context);
  gst_context_unref (context);
  return TRUE;
}

gboolean
gst_vmaf_hip_cuda_buffer_is_ours (GstBuffer * buffer,
    GstVmafHipDevice * device, GError ** error)
{
  GstMemory *mem;
  CudaMemoryHead *head;
  gpointer ours, theirs;

  if (gst_buffer_n_memory (buffer) != 1)
    return FALSE;
  mem = gst_buffer_peek_memory (buffer, 0);
  if (!mem->allocator ||
      g_strcmp0 (mem->allocator->mem_type, CUDA_MEMORY_TYPE_NAME) != 0)
    return FALSE;
  if (!gst_vmaf_hip_cuda_usable (device, error))
    return FALSE;
  head = (CudaMemoryHead *) mem;
  ours = vh_hip_device_get_native_context (gst_vmaf_hip_device_get_handle
      (device));
  theirs = head->context ? cuda_api ()->context_get_handle (head->context) :
      NULL;
  if (!ours || ours != theirs) {
    g_set_error (error, VH_ERROR, VH_ERROR_BACKEND,
        "a frame in CUDA memory of another CUDA context than the element's "
        "GPU (another GPU, or its producer made its own context before the "
        "element could offer one): put cudadownload before the element, or "
        "give both the same device");
    return FALSE;
  }
  return TRUE;
}

GstMapFlags
gst_vmaf_hip_cuda_map_flags (void)
{
  return GST_MAP_READ | MAP_CUDA;
}

void
gst_vmaf_hip_cuda_buffer_sync (GstBuffer * buffer)
{
  CudaApi *api = cuda_api ();

  if (!api->memory_sync)
    return;
  for (guint i = 0; i < gst_buffer_n_memory (buffer); i++)
    api->memory_sync (gst_buffer_peek_memory (buffer, i));
}
