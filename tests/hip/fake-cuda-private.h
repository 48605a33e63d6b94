/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What the fake CUDA driver's files (fake-cuda.c: state, faults and
 * bookkeeping, and the counters tests read; fake-cuda-memory.c: devices,
 * contexts, memory and copies; fake-cuda-launch.c: streams, events,
 * modules, launches and nvrtc) share. Nothing here is exported: the
 * library's symbols are the driver's entry points (EXPORT) and the
 * vh_fake_cuda_* counters. */

#ifndef __VH_FAKE_CUDA_PRIVATE_H__
#define __VH_FAKE_CUDA_PRIVATE_H__

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <execinfo.h>

#define CUDA_SUCCESS 0
#define CUDA_ERROR_INVALID_VALUE 1
#define CUDA_ERROR_OUT_OF_MEMORY 2
#define CUDA_ERROR_NO_DEVICE 100
#define CUDA_ERROR_INVALID_DEVICE 101
#define CUDA_ERROR_INVALID_IMAGE 200
#define CUDA_ERROR_INVALID_CONTEXT 201
#define CUDA_ERROR_NOT_READY 600
#define CUDA_ERROR_ILLEGAL_ADDRESS 700
#define CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES 701
#define CUDA_ERROR_LAUNCH_FAILED 719

#define MAX_DEVICES 16

/* Far from anything malloc returns, and non-canonical once added. */
#define DEVICE_OFFSET (G_GUINT64_CONSTANT (1) << 62)

typedef guint64 CUdeviceptr;

typedef struct
{
  gsize srcXInBytes, srcY;
  gint srcMemoryType;
  gconstpointer srcHost;
  CUdeviceptr srcDevice;
  gpointer srcArray;
  gsize srcPitch;
  gsize dstXInBytes, dstY;
  gint dstMemoryType;
  gpointer dstHost;
  CUdeviceptr dstDevice;
  gpointer dstArray;
  gsize dstPitch;
  gsize WidthInBytes, Height;
} FakeMemcpy2D;

typedef struct
{
  guint8 *base;
  gsize size;
  gboolean device;
  gint ctx;                     /* device of the current context, or -1 */
} Allocation;

typedef enum
{
  FAULT_ALLOC,
  FAULT_LAUNCH,
  FAULT_SYNC,
  FAULT_ILLEGAL,
  N_FAULT_KINDS
} FaultKind;

#define EXPORT __attribute__ ((visibility ("default")))

/* The driver's state, under lock (fake-cuda.c). */
extern GMutex lock;
extern GList *allocations;
extern gint n_devices;
extern __thread gint ctx_depth;
extern __thread gint ctx_stack[64];
extern gint primary_refs[MAX_DEVICES];
extern guint n_lost;
extern guint n_foreign;
extern guint device_allocs[MAX_DEVICES];
extern guint n_host_allocs_made;
extern guint n_device_allocs_made;
extern guint n_host_waits;
extern guint n_device_waits;
extern guint n_uploads;
extern guint n_module_loads;
extern gsize device_copied[MAX_DEVICES];
extern gsize device_bytes;
extern guint n_faults;
extern gint sticky_error;
extern guint n_refused;

/* Faults and limits (VH_FAKE_CUDA_FAIL, VH_FAKE_CUDA_MEMORY), lost
 * contexts, devices, allocations and device addresses (fake-cuda.c). */
gboolean fault_now (FaultKind kind);
gint sticky (void);
/* Every call on a lost context fails with its error. */
#define RETURN_IF_LOST() \
  G_STMT_START { \
    gint lost_error = sticky (); \
    if (lost_error) \
      return lost_error; \
  } G_STMT_END
gint sync_result (void);
gboolean device_alloc_ok (gsize size);
gint devices (void);
gint current_device (void);
Allocation *find_allocation (const guint8 * p, gsize len, gboolean device);
gpointer alloc (gsize size, gboolean device);
gint release (gpointer p, gboolean device);
guint8 *to_host (CUdeviceptr p);
CUdeviceptr to_device (gpointer p);
gboolean device_region_ok (const guint8 * p, gsize pitch, gsize width,
    gsize height);
/* VH_FAKE_CUDA_KERNELS=noop (fake-cuda-launch.c). */
gboolean noop_kernels (void);

#endif /* __VH_FAKE_CUDA_PRIVATE_H__ */
