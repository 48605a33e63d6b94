/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#ifndef __VH_FAKE_GPU_H__
#define __VH_FAKE_GPU_H__

/* What the two GPU stand-ins (fake-cuda.c for the CUDA driver,
 * fake-hip-amd.c for AMD's HIP runtime) share: "device" memory at
 * addresses the CPU cannot use, bounds-checked regions, devices and the
 * calling thread's current one, injected faults, the counters tests read
 * (exported as vh_fake_cuda_* by both, so the tests read either the same
 * way) and the leak check at exit. Both read the same VH_FAKE_CUDA_*
 * variables (fake-cuda.c describes them). The error codes are CUDA's,
 * which HIP's equal for every code used here. */

#include <glib.h>

#define FAKE_SUCCESS 0
#define FAKE_ERROR_INVALID_VALUE 1
#define FAKE_ERROR_OUT_OF_MEMORY 2
#define FAKE_ERROR_NO_DEVICE 100
#define FAKE_ERROR_INVALID_DEVICE 101
#define FAKE_ERROR_INVALID_IMAGE 200
#define FAKE_ERROR_INVALID_CONTEXT 201
#define FAKE_ERROR_NOT_FOUND 500
#define FAKE_ERROR_NOT_READY 600
#define FAKE_ERROR_ILLEGAL_ADDRESS 700
#define FAKE_ERROR_LAUNCH_OUT_OF_RESOURCES 701
#define FAKE_ERROR_LAUNCH_FAILED 719

#define FAKE_MAX_DEVICES 16

#define FAKE_EXPORT __attribute__ ((visibility ("default")))

typedef enum
{
  FAKE_FAULT_ALLOC,
  FAKE_FAULT_LAUNCH,
  FAKE_FAULT_SYNC,
  FAKE_FAULT_ILLEGAL,
  FAKE_N_FAULT_KINDS
} FakeFaultKind;

/* What each stand-in calls itself in its messages on stderr. */
extern const gchar fake_gpu_label[];

gint         fake_gpu_devices           (void);

/* The calling thread's current device, or -1. */
gint         fake_gpu_current           (void);
void         fake_gpu_set_current       (gint dev);

gboolean     fake_gpu_fault_now         (FakeFaultKind kind);
/* The error of a lost device (sticky, as a real context's), or 0;
 * counts the call as refused. */
gint         fake_gpu_sticky            (void);
/* Every call that works on a lost device fails with its error (frees and
 * destructions still work, so that the exit check sees what was left). */
#define FAKE_GPU_RETURN_IF_LOST() \
  G_STMT_START { \
    gint lost_error = fake_gpu_sticky (); \
    if (lost_error) \
      return lost_error; \
  } G_STMT_END
gint         fake_gpu_sync_result       (void);
gboolean     fake_gpu_device_alloc_ok   (gsize size);

/* Host memory behind a new allocation (device memory is reached through
 * fake_gpu_to_device's address); counted in the current device. */
gpointer     fake_gpu_alloc             (gsize size, gboolean device);
gint         fake_gpu_release           (gpointer p, gboolean device);
guint8 *     fake_gpu_to_host           (guint64 device_address);
guint64      fake_gpu_to_device         (gpointer host);

/* Whether the 2D region lies in one device allocation (counted foreign
 * when that is not the current device's). */
gboolean     fake_gpu_device_region_ok  (const guint8 * p, gsize pitch,
                                         gsize width, gsize height);

/* Whether a host region lies in one page-locked allocation. */
gboolean     fake_gpu_host_region_pinned (const guint8 * p, gsize pitch,
                                          gsize width, gsize height);

/* Allocations of @dev's still alive become lost (its context went);
 * returns how many. */
guint        fake_gpu_lose_device       (gint dev);

gboolean     fake_gpu_noop_kernels      (void);

/* VH_FAKE_CUDA_KERNELS=emulate (read once): kernels run their source on
 * the host (kernel-emu.h, *-kernels-emu.cpp), device memory is host
 * memory the CPU may touch only inside fake_gpu_device_begin/end. */
gboolean     fake_gpu_emulating         (void);

/* Whether modules load: noop or emulated kernels. */
gboolean     fake_gpu_kernels_load      (void);
void         fake_gpu_device_begin      (void);
void         fake_gpu_device_end        (void);

/* Emulating: whether a kernel of that name has an emulation; runs one
 * (FALSE: none). TRUE without running anything otherwise. */
gboolean     fake_gpu_kernel_known      (const gchar * name);
gboolean     fake_gpu_launch            (const gchar * name,
                                         const guint grid[3],
                                         const guint block[3],
                                         gpointer * args);
gboolean     fake_gpu_dma_mode          (void);

void         fake_gpu_log_launch        (const gchar * name,
                                         const guint block[3],
                                         guint shared);
void         fake_gpu_count_upload      (void);
void         fake_gpu_count_copied      (gsize bytes);
void         fake_gpu_count_host_wait   (void);
void         fake_gpu_count_device_wait (void);
void         fake_gpu_count_module_load (void);
void         fake_gpu_count_lost        (guint n);

/* Defined by each stand-in: handles (streams, events) still alive, which
 * the exit check reports as leaks with the memory. */
guint        fake_gpu_vendor_leaks      (void);

#endif /* __VH_FAKE_GPU_H__ */
