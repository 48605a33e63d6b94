/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Runs HIP kernel source on the host, for tests without a GPU: the
 * blocks of a launch one after another, the threads of a block as fibers
 * (ucontext) that take turns at each __syncthreads, so shared memory
 * (static storage) sees the phases a GPU would. Atomics are plain
 * operations (one host thread). Only the dialect our kernels use is here;
 * a kernel's dynamically sized shared array is declared through a macro of
 * its own (e.g. VH_CAMBI_DYNAMIC_SHARED) that the test defines as extern. */

#ifndef __VH_KERNEL_EMU_H__
#define __VH_KERNEL_EMU_H__

#include <string.h>
#include <ucontext.h>

#include <functional>
#include <vector>

struct dim3
{
  unsigned int x, y, z;
};

static dim3 threadIdx, blockIdx, blockDim, gridDim;

#define __global__
#define __device__
#define __forceinline__ inline
#define __shared__ static
#define __constant__ static

/* The bit casts the float kernels use. */
static inline unsigned int
__float_as_uint (float f)
{
  unsigned int u;
  memcpy (&u, &f, sizeof (u));
  return u;
}

static inline float
__uint_as_float (unsigned int u)
{
  float f;
  memcpy (&f, &u, sizeof (f));
  return f;
}

static inline float
__int_as_float (int i)
{
  float f;
  memcpy (&f, &i, sizeof (f));
  return f;
}

static inline unsigned int
atomicAdd (unsigned int *p, unsigned int v)
{
  unsigned int old = *p;
  *p += v;
  return old;
}

static inline unsigned long long
atomicAdd (unsigned long long *p, unsigned long long v)
{
  unsigned long long old = *p;
  *p += v;
  return old;
}

static inline unsigned int
atomicMax (unsigned int *p, unsigned int v)
{
  unsigned int old = *p;
  *p = v > old ? v : old;
  return old;
}

static inline unsigned int
atomicOr (unsigned int *p, unsigned int v)
{
  unsigned int old = *p;
  *p |= v;
  return old;
}

static inline int
__ffs (unsigned int x)
{
  return __builtin_ffs ((int) x);
}

static inline int
__popc (unsigned int x)
{
  return __builtin_popcount (x);
}

struct VhEmuFiber
{
  ucontext_t context;
  bool done;
  std::vector<char> stack;
};

static ucontext_t vh_emu_scheduler;
static std::vector<VhEmuFiber> vh_emu_fibers;
static unsigned int vh_emu_current;
static const std::function<void ()> *vh_emu_kernel;

static inline void
__syncthreads ()
{
  swapcontext (&vh_emu_fibers[vh_emu_current].context, &vh_emu_scheduler);
}

static void
vh_emu_fiber_main ()
{
  (*vh_emu_kernel) ();
  vh_emu_fibers[vh_emu_current].done = true;
}

/* Runs @kernel (a call of the kernel with its arguments) over @grid. */
static void
vh_emu_launch (dim3 grid, dim3 block, const std::function<void ()> &kernel)
{
  const unsigned int n = block.x * block.y * block.z;

  gridDim = grid;
  blockDim = block;
  vh_emu_kernel = &kernel;
  vh_emu_fibers.resize (n);
  for (unsigned int bz = 0; bz < grid.z; bz++)
    for (unsigned int by = 0; by < grid.y; by++)
      for (unsigned int bx = 0; bx < grid.x; bx++) {
        bool running = true;

        blockIdx = {bx, by, bz};
        for (VhEmuFiber &f : vh_emu_fibers) {
          f.stack.resize (128 * 1024);
          f.done = false;
          getcontext (&f.context);
          f.context.uc_stack.ss_sp = f.stack.data ();
          f.context.uc_stack.ss_size = f.stack.size ();
          f.context.uc_link = &vh_emu_scheduler;
          makecontext (&f.context, vh_emu_fiber_main, 0);
        }
        /* Every thread up to its next barrier (or its end), in turn. */
        while (running) {
          running = false;
          for (unsigned int i = 0; i < n; i++) {
            if (vh_emu_fibers[i].done)
              continue;
            vh_emu_current = i;
            threadIdx = {i % block.x, (i / block.x) % block.y,
                i / (block.x * block.y)};
            swapcontext (&vh_emu_scheduler, &vh_emu_fibers[i].context);
            running = true;
          }
        }
      }
}

#endif /* __VH_KERNEL_EMU_H__ */
