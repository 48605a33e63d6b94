/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The GPU twin of the resampler (src/scale.c): the same two passes over
 * the same integer filters (uploaded by hip-scale.c), in the same 64-bit
 * integer arithmetic, so its samples equal the CPU twin's bit for bit.
 * Horizontal first: every input row to an intermediate of output width;
 * then vertical. Any grid: threads stride over the plane. */

#if defined(__HIP__) && !defined(__HIPCC_RTC__) && !defined(VH_HIP_RTC)
#include <hip/hip_runtime.h>
#endif

typedef unsigned long long vh_u64;

/* One direction of one plane; must match ScaleFilter in hip-scale.c. */
struct vh_scale_filter
{
  const int *first;
  const short *coeff;
  unsigned int n_in;
  unsigned int n_out;
  unsigned int taps;
  /* vertical, 8-bit: rows from here on rounded once (VhScaleFilter) */
  unsigned int rounded_from;
};

/* The horizontal pass: @rows rows of @src (@step samples from one column
 * to the next) into @mid (@mid_pitch ints a row). */
template < typename T >
static __device__ void
scale_rows (const unsigned char *src, vh_u64 src_pitch, unsigned int step,
    unsigned int rows, struct vh_scale_filter f, unsigned int shift,
    int mid_max, int *mid, unsigned int mid_pitch)
{
  const int last = (int) f.n_in - 1;

  for (unsigned int y = blockIdx.y * blockDim.y + threadIdx.y; y < rows;
      y += gridDim.y * blockDim.y) {
    const T *row = (const T *) (src + y * src_pitch);
    for (unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
        x < f.n_out; x += gridDim.x * blockDim.x) {
      const short *c = f.coeff + (vh_u64) x * f.taps;
      long long sum = 0, v;
      for (unsigned int j = 0; j < f.taps; j++) {
        int at = f.first[x] + (int) j;
        at = at < 0 ? 0 : at > last ? last : at;
        sum += (long long) c[j] * (long long) row[(vh_u64) at * step];
      }
      v = sum >> shift;
      mid[(vh_u64) y * mid_pitch + x] = (int) (v < mid_max ? v : mid_max);
    }
  }
}

/* The vertical pass: @mid (@width ints used of each row) into @dst.
 * 8-bit samples as ffmpeg's x86 code makes them: each product's top 16
 * bits added to @bias, shifted right by 3 (vh_scale_8bit_bias()); from
 * row f.rounded_from on, as its C code does: the sum rounded once. */
template < typename T >
static __device__ void
scale_cols (const int *mid, unsigned int mid_pitch, unsigned int width,
    struct vh_scale_filter f, unsigned int shift, int out_max, int bias,
    unsigned char *dst, vh_u64 dst_pitch)
{
  const int last = (int) f.n_in - 1;

  for (unsigned int y = blockIdx.y * blockDim.y + threadIdx.y; y < f.n_out;
      y += gridDim.y * blockDim.y) {
    const short *c = f.coeff + (vh_u64) y * f.taps;
    const bool truncated = sizeof (T) == 1 && y < f.rounded_from;
    T *out = (T *) (dst + y * dst_pitch);
    for (unsigned int x = blockIdx.x * blockDim.x + threadIdx.x; x < width;
        x += gridDim.x * blockDim.x) {
      long long sum = 1LL << (shift - 1), v;
      int acc = bias;
      for (unsigned int j = 0; j < f.taps; j++) {
        int at = f.first[y] + (int) j;
        at = at < 0 ? 0 : at > last ? last : at;
        if (truncated)
          acc += (c[j] * mid[(vh_u64) at * mid_pitch + x]) >> 16;
        else
          sum += (long long) c[j] *
              (long long) mid[(vh_u64) at * mid_pitch + x];
      }
      v = truncated ? (long long) (acc >> 3) : sum >> shift;
      v = v < 0 ? 0 : v > out_max ? out_max : v;
      out[x] = (T) v;
    }
  }
}

extern "C" __global__ void
vh_scale_rows_u8 (const unsigned char *src, vh_u64 src_pitch,
    unsigned int step, unsigned int rows, struct vh_scale_filter f,
    unsigned int shift, int mid_max, int *mid, unsigned int mid_pitch)
{
  scale_rows < unsigned char >(src, src_pitch, step, rows, f, shift, mid_max,
      mid, mid_pitch);
}

extern "C" __global__ void
vh_scale_rows_u16 (const unsigned char *src, vh_u64 src_pitch,
    unsigned int step, unsigned int rows, struct vh_scale_filter f,
    unsigned int shift, int mid_max, int *mid, unsigned int mid_pitch)
{
  scale_rows < unsigned short >(src, src_pitch, step, rows, f, shift,
      mid_max, mid, mid_pitch);
}

extern "C" __global__ void
vh_scale_cols_u8 (const int *mid, unsigned int mid_pitch, unsigned int width,
    struct vh_scale_filter f, unsigned int shift, int out_max, int bias,
    unsigned char *dst, vh_u64 dst_pitch)
{
  scale_cols < unsigned char >(mid, mid_pitch, width, f, shift, out_max,
      bias, dst, dst_pitch);
}

extern "C" __global__ void
vh_scale_cols_u16 (const int *mid, unsigned int mid_pitch,
    unsigned int width, struct vh_scale_filter f, unsigned int shift,
    int out_max, int bias, unsigned char *dst, vh_u64 dst_pitch)
{
  scale_cols < unsigned short >(mid, mid_pitch, width, f, shift, out_max,
      bias, dst, dst_pitch);
}
