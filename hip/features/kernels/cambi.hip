/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* CAMBI, equal to src/features/cambi*.c: integer steps with the CPU twin's
 * integer arithmetic, one float product per c value as the CPU twin
 * rounds it, and exact fixed-point pooling sums (cambi-private.h).
 *
 *  1. vh_cambi_load: luma to 10 bit (nearest-neighbour resize through the
 *     host's position tables), with the anti-dithering average fused in
 *     (it reads original values only). vh_cambi_range: the largest sample
 *     of a 10- or 12-bit picture, for the CPU twin's range error.
 *  2. vh_cambi_mask: flat pixels (equal to their right and lower
 *     neighbours), counted in a 7x7 box from a shared-memory tile.
 *  3. vh_cambi_mode, per scale: 2:1 decimation of the previous scale (or
 *     none) fused with the 3x3 separable mode filter, out of place.
 *  4. C values per scale, from the block's window-padded tile of
 *     histogram rows (value - band base of masked pixels in the band) in
 *     shared memory: vh_cambi_c_values_slots (up to 4 contrasts, the
 *     default) counts by running box sums per value present (few in a
 *     tile); vh_cambi_c_values_tile (any contrast) looks at every pixel of
 *     each window.
 *  5. Pooling of all scales at once (grid y = scale): the k-th largest c
 *     value by a three-level radix select on its bits (positive floats
 *     order as their bits do), vh_cambi_hist + vh_cambi_select for bits
 *     31..16, 15..8 and 7..0, then vh_cambi_sum: the fixed-point sum of
 *     the values above it and their count. */

#if defined(__HIP__) && !defined(__HIPCC_RTC__) && !defined(VH_HIP_RTC)
#include <hip/hip_runtime.h>
#endif

#if defined(__CUDACC__)
#define FMUL(a, b) __fmul_rn ((a), (b))
#else
#if defined(__clang__)          /* not in the host emulation (tests/hip) */
#pragma clang fp contract(off)
#endif
#define FMUL(a, b) ((a) * (b))
#endif

typedef unsigned long long vh_u64;

/* The host emulation of these kernels (tests/hip) declares it its way. */
#ifndef VH_CAMBI_DYNAMIC_SHARED
#define VH_CAMBI_DYNAMIC_SHARED extern __shared__
#endif

#define VH_CAMBI_NONE 0xffffu
#define VH_CAMBI_SCALES 5
#define VH_CAMBI_TILE 16
#define VH_CAMBI_THREADS 256
#define VH_CAMBI_UNIT_BITS 36
/* Bits 31..16 of positive c values, [2^-13, 2^14), lie in
 * [VH_CAMBI_KEY_BASE, VH_CAMBI_KEY_BASE + VH_CAMBI_TOP_BINS). */
#define VH_CAMBI_KEY_BASE (114u << 7)
#define VH_CAMBI_TOP_BINS 4096
#define VH_CAMBI_LOW_BINS 256

/* Must match CambiLoadArgs in hip-cambi.c. */
struct vh_cambi_load_args
{
  const unsigned char *src;
  vh_u64 src_pitch;
  const unsigned int *cols;     /* NULL: no resize */
  const unsigned int *rows;
  unsigned short *out;
  unsigned int out_pitch;       /* samples */
  unsigned int w;
  unsigned int h;
  unsigned int bpc;
  unsigned int anti_dither;
  unsigned int in_w;            /* vh_cambi_range: the input size */
  unsigned int in_h;
  unsigned int pad;
  unsigned int *range_max;
};

static __device__ __forceinline__ unsigned int
cambi_sample (const vh_cambi_load_args & a, unsigned int i, unsigned int j)
{
  const unsigned int y = a.rows ? a.rows[i] : i;
  const unsigned int x = a.cols ? a.cols[j] : j;
  const unsigned char *row = a.src + (vh_u64) y * a.src_pitch;

  if (a.bpc == 8)
    return (unsigned int) row[x] << 2;
  const unsigned int shift = a.bpc - 10;
  const unsigned int round = shift ? 1u << (shift - 1) : 0;
  return ((unsigned int) ((const unsigned short *) row)[x] + round) >> shift;
}

extern "C" __global__ void
vh_cambi_load (vh_cambi_load_args a)
{
  const unsigned int j = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned int i = blockIdx.y * blockDim.y + threadIdx.y;

  if (j >= a.w || i >= a.h)
    return;
  unsigned int v = cambi_sample (a, i, j);
  if (a.anti_dither) {
    const bool right = j + 1 < a.w, below = i + 1 < a.h;
    if (right && below)
      v = (v + cambi_sample (a, i, j + 1) + cambi_sample (a, i + 1, j) +
          cambi_sample (a, i + 1, j + 1)) >> 2;
    else if (below)
      v = (v + cambi_sample (a, i + 1, j)) >> 1;
    else if (right)
      v = (v + cambi_sample (a, i, j + 1)) >> 1;
  }
  a.out[(vh_u64) i * a.out_pitch + j] = (unsigned short) v;
}

/* The largest sample of the whole input picture (16-bit samples). */
extern "C" __global__ void
vh_cambi_range (vh_cambi_load_args a)
{
  __shared__ unsigned int top[VH_CAMBI_THREADS];
  const unsigned int tid = threadIdx.x;
  const unsigned int i = blockIdx.y;
  const unsigned short *row =
      (const unsigned short *) (a.src + (vh_u64) i * a.src_pitch);
  unsigned int m = 0;

  for (unsigned int j = blockIdx.x * VH_CAMBI_THREADS + tid; j < a.in_w;
      j += gridDim.x * VH_CAMBI_THREADS)
    m = row[j] > m ? row[j] : m;
  top[tid] = m;
  __syncthreads ();
  for (unsigned int s = VH_CAMBI_THREADS / 2; s > 0; s >>= 1) {
    if (tid < s && top[tid + s] > top[tid])
      top[tid] = top[tid + s];
    __syncthreads ();
  }
  if (tid == 0 && top[0] > 0)
    atomicMax (a.range_max, top[0]);
}

/* Must match CambiMaskArgs in hip-cambi.c. */
struct vh_cambi_mask_args
{
  const unsigned short *image;
  unsigned char *mask;
  unsigned int pitch;           /* samples, both planes */
  unsigned int w;
  unsigned int h;
  unsigned int threshold;
};

#define VH_CAMBI_MASK_BX 32
#define VH_CAMBI_MASK_BY 8
#define VH_CAMBI_BOX_HALF 3

/* Equal to the right and lower neighbours; missing ones count as equal. */
static __device__ __forceinline__ unsigned char
cambi_flat (const vh_cambi_mask_args & a, int y, int x)
{
  const unsigned short *p = a.image + (vh_u64) y * a.pitch + x;
  bool f = true;

  if (x + 1 < (int) a.w)
    f = p[0] == p[1];
  if (y + 1 < (int) a.h)
    f = f && p[0] == p[a.pitch];
  return f;
}

extern "C" __global__ void
vh_cambi_mask (vh_cambi_mask_args a)
{
  const int side_x = VH_CAMBI_MASK_BX + 2 * VH_CAMBI_BOX_HALF;
  const int side_y = VH_CAMBI_MASK_BY + 2 * VH_CAMBI_BOX_HALF;
  __shared__ unsigned char flat[side_y][side_x];
  const int tid = threadIdx.y * VH_CAMBI_MASK_BX + threadIdx.x;
  const int x0 = blockIdx.x * VH_CAMBI_MASK_BX - VH_CAMBI_BOX_HALF;
  const int y0 = blockIdx.y * VH_CAMBI_MASK_BY - VH_CAMBI_BOX_HALF;

  for (int k = tid; k < side_x * side_y; k += VH_CAMBI_MASK_BX *
      VH_CAMBI_MASK_BY) {
    const int y = y0 + k / side_x, x = x0 + k % side_x;
    flat[k / side_x][k % side_x] = y >= 0 && y < (int) a.h && x >= 0 &&
        x < (int) a.w ? cambi_flat (a, y, x) : 0;
  }
  __syncthreads ();

  const unsigned int x = blockIdx.x * VH_CAMBI_MASK_BX + threadIdx.x;
  const unsigned int y = blockIdx.y * VH_CAMBI_MASK_BY + threadIdx.y;
  if (x >= a.w || y >= a.h)
    return;
  unsigned int box = 0;
  for (int dy = 0; dy <= 2 * VH_CAMBI_BOX_HALF; dy++)
    for (int dx = 0; dx <= 2 * VH_CAMBI_BOX_HALF; dx++)
      box += flat[threadIdx.y + dy][threadIdx.x + dx];
  a.mask[(vh_u64) y * a.pitch + x] = box > a.threshold;
}

/* Must match CambiModeArgs in hip-cambi.c. */
struct vh_cambi_mode_args
{
  const unsigned short *src;
  unsigned short *out;
  unsigned int src_pitch;       /* samples */
  unsigned int step;            /* 2: decimate the source first */
  unsigned int w;               /* the output's size and pitch */
  unsigned int h;
};

/* The most frequent of three, or the smallest when all differ. */
static __device__ __forceinline__ unsigned int
cambi_mode3 (unsigned int a, unsigned int b, unsigned int c)
{
  if (a == b || a == c)
    return a;
  if (b == c)
    return b;
  const unsigned int m = a < b ? a : b;
  return m < c ? m : c;
}

/* The decimated picture's sample, then one row of the horizontal pass
 * (the first and last columns keep theirs). */
static __device__ __forceinline__ unsigned int
cambi_decimated (const vh_cambi_mode_args & a, unsigned int i, unsigned int j)
{
  return a.src[(vh_u64) (i * a.step) * a.src_pitch + j * a.step];
}

static __device__ __forceinline__ unsigned int
cambi_mode_row (const vh_cambi_mode_args & a, unsigned int i, unsigned int j)
{
  if (j == 0 || j + 1 >= a.w)
    return cambi_decimated (a, i, j);
  return cambi_mode3 (cambi_decimated (a, i, j - 1), cambi_decimated (a, i,
          j), cambi_decimated (a, i, j + 1));
}

extern "C" __global__ void
vh_cambi_mode (vh_cambi_mode_args a)
{
  const unsigned int j = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned int i = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned int v;

  if (j >= a.w || i >= a.h)
    return;
  /* The first and last rows keep their values, unfiltered. */
  if (i == 0 || i + 1 >= a.h)
    v = cambi_decimated (a, i, j);
  else
    v = cambi_mode3 (cambi_mode_row (a, i - 1, j), cambi_mode_row (a, i, j),
        cambi_mode_row (a, i + 1, j));
  a.out[(vh_u64) i * a.w + j] = (unsigned short) v;
}

/* Must match CambiCValuesArgs in hip-cambi.c. */
struct vh_cambi_c_values_args
{
  const unsigned short *image;  /* this scale, pitch w */
  const unsigned char *mask;    /* full size */
  const unsigned int *steps;    /* per histogram row: visible steps */
  const float *recip;
  float *out;                   /* pitch w */
  unsigned int mask_pitch;
  unsigned int mask_shift;      /* this scale's pixel (y, x) is mask's
                                 * (y << shift, x << shift) */
  unsigned int w;
  unsigned int h;
  unsigned int pad;             /* window / 2 */
  unsigned int band_base;
  unsigned int band_size;
  unsigned int num_diffs;
  int weight[32];
};

/* The c value of a pixel of histogram row @row from the window's counts
 * of rows row - num_diffs .. row + num_diffs (count[d * stride]), as
 * pixel_c_value() in the CPU twin. */
static __device__ __forceinline__ float
cambi_c_value (const vh_cambi_c_values_args & a, unsigned int row,
    const unsigned short *count, unsigned int stride)
{
  const int nd = (int) a.num_diffs;
  const unsigned int steps = a.steps[row];
  const int p0 = count[nd * stride];
  float best = 0.0f;

  for (int d = 0; d < nd; d++) {
    if (!(steps & (1u << d)))
      continue;
    const int p1 = row + d + 1 < a.band_size ? count[(nd + d + 1) * stride] :
        0;
    const int p2 = (int) row > d ? count[(nd - d - 1) * stride] : 0;
    const int pm = p1 > p2 ? p1 : p2;
    const float c = FMUL ((float) (a.weight[d] * p0 * pm), a.recip[pm + p0]);
    best = c > best ? c : best;
  }
  return best;
}

/* The histogram row of a pixel: its value minus the band's base when it
 * is masked and in the band, else VH_CAMBI_NONE. */
static __device__ __forceinline__ unsigned int
cambi_level (const vh_cambi_c_values_args & a, int y, int x)
{
  if (y < 0 || y >= (int) a.h || x < 0 || x >= (int) a.w ||
      !a.mask[(vh_u64) ((unsigned int) y << a.mask_shift) * a.mask_pitch +
          ((unsigned int) x << a.mask_shift)])
    return VH_CAMBI_NONE;
  /* 16-bit wrap as in the CPU twin: values below the band become large
   * and are left out with those above it. */
  const unsigned int r = (unsigned short) (a.image[(vh_u64) y * a.w + x] -
      a.band_base);
  return r < a.band_size ? r : VH_CAMBI_NONE;
}

/* Counts, for the pixel of row @row whose window's rows start at @l
 * (row pitch @side), its masked neighbours of rows within num_diffs: one
 * look at every pixel of the window. */
static __device__ __forceinline__ void
cambi_count_window (const unsigned short *l, int side, int pad, int nd,
    unsigned int row, unsigned short *count, unsigned int stride)
{
  const unsigned int span = 2 * nd;

  for (unsigned int d = 0; d <= span; d++)
    count[d * stride] = 0;
  for (int dy = 0; dy <= 2 * pad; dy++, l += side) {
    for (int dx = 0; dx <= 2 * pad; dx++) {
      const unsigned int d = (unsigned int) ((int) l[dx] - (int) row + nd);
      if (d <= span)
        count[d * stride]++;
    }
  }
}

/* Any contrast (num_diffs up to 32). Dynamic shared memory: the tile's
 * histogram rows, (16 + 2 pad)^2, then 2 * num_diffs + 1 counters of 16
 * bits per thread. */
extern "C" __global__ void
vh_cambi_c_values_tile (vh_cambi_c_values_args a)
{
  VH_CAMBI_DYNAMIC_SHARED unsigned int vh_cambi_shared[];
  const int pad = (int) a.pad, nd = (int) a.num_diffs;
  const int side = VH_CAMBI_TILE + 2 * pad;
  unsigned short *levels = (unsigned short *) vh_cambi_shared;
  unsigned short *counters = levels + ((side * side + 1) & ~1);
  const int tid = threadIdx.y * VH_CAMBI_TILE + threadIdx.x;
  const int x0 = blockIdx.x * VH_CAMBI_TILE - pad;
  const int y0 = blockIdx.y * VH_CAMBI_TILE - pad;

  for (int k = tid; k < side * side; k += VH_CAMBI_THREADS)
    levels[k] = (unsigned short) cambi_level (a, y0 + k / side, x0 + k % side);
  __syncthreads ();

  const unsigned int x = blockIdx.x * VH_CAMBI_TILE + threadIdx.x;
  const unsigned int y = blockIdx.y * VH_CAMBI_TILE + threadIdx.y;
  if (x >= a.w || y >= a.h)
    return;
  const unsigned int row = levels[(threadIdx.y + pad) * side + threadIdx.x +
      pad];
  float best = 0.0f;
  if (row != VH_CAMBI_NONE) {
    cambi_count_window (levels + threadIdx.y * side + threadIdx.x, side, pad,
        nd, row, counters + tid, VH_CAMBI_THREADS);
    best = cambi_c_value (a, row, counters + tid, VH_CAMBI_THREADS);
  }
  a.out[(vh_u64) y * a.w + x] = best;
}

#define VH_CAMBI_STILE 32
#define VH_CAMBI_SLOT_DIFFS 4
/* Per pixel: the count of its own value, then per contrast d + 1 the
 * larger count of value +- (d + 1), as pixel_c_value() takes them. */
#define VH_CAMBI_SLOT_COUNTS (1 + VH_CAMBI_SLOT_DIFFS)
#define VH_CAMBI_SLOT_GROUP 4   /* slots counted at once, a byte each */
#define VH_CAMBI_NO_SLOT 0xfffeu        /* no histogram row, nor NONE */
#ifndef VH_CAMBI_MAX_SLOTS      /* a test lowers it */
#define VH_CAMBI_MAX_SLOTS 256
#endif
#define VH_CAMBI_BAND_WORDS 34  /* bits for 1024 + 32 + 1 rows */

/* Marks @level in the bitmap @bits. */
static __device__ __forceinline__ void
cambi_mark (unsigned int *bits, unsigned int level)
{
  atomicOr (&bits[level >> 5], 1u << (level & 31));
}

/* The pixel of histogram row @row has @count pixels of row @level in its
 * window: kept as its own count, or folded into the larger of the two at
 * that distance (the order of the slots does not matter). */
static __device__ __forceinline__ void
cambi_keep_count (unsigned short *counts, unsigned int row,
    unsigned int level, unsigned int count, int nd)
{
  const int dist = (int) level - (int) row;
  const int away = dist < 0 ? -dist : dist;

  if (away > nd)
    return;
  if (away == 0)
    counts[0] = (unsigned short) count;
  else if (count > counts[away])
    counts[away] = (unsigned short) count;
}

/* As cambi_c_value(), from kept counts. */
static __device__ __forceinline__ float
cambi_c_value_kept (const vh_cambi_c_values_args & a, unsigned int row,
    const unsigned short *counts)
{
  const unsigned int steps = a.steps[row];
  const int p0 = counts[0];
  float best = 0.0f;

  for (int d = 0; d < (int) a.num_diffs; d++) {
    if (!(steps & (1u << d)))
      continue;
    const int pm = counts[d + 1];
    const float c = FMUL ((float) (a.weight[d] * p0 * pm), a.recip[pm + p0]);
    best = c > best ? c : best;
  }
  return best;
}

/* num_diffs up to 4, 32x32 pixels per block of 32x8 threads. The window
 * counts a pixel needs are those of the few values near its own, and a
 * tile holds few distinct values: per value that occurs in the
 * window-padded tile within num_diffs of a value of the tile itself
 * ("slots"), box counts over the tile by running sums, down the columns
 * (four slots at once, a byte each) then along the rows (two 16-bit lanes
 * a word), each pixel keeping the counts of the values near its own. A
 * tile with more such values than pay (a slot costs about as much as
 * looking at window^2 / 16 pixels; VH_CAMBI_MAX_SLOTS at most) counts each
 * window pixel by pixel instead. Dynamic shared memory: the histogram rows
 * of the padded tile, (32 + 2 pad)^2 16-bit, then the column sums, 32 rows
 * of 32 + 2 pad words (33 + 2 pad apart), or the per-pixel path's
 * counters (2 num_diffs + 1 of 16 bits per thread), whichever is larger. */
extern "C" __global__ void
vh_cambi_c_values_slots (vh_cambi_c_values_args a)
{
  VH_CAMBI_DYNAMIC_SHARED unsigned int vh_cambi_shared[];
  __shared__ unsigned int region_bits[VH_CAMBI_BAND_WORDS];
  __shared__ unsigned int tile_bits[VH_CAMBI_BAND_WORDS];
  __shared__ unsigned short slots[VH_CAMBI_MAX_SLOTS + VH_CAMBI_SLOT_GROUP];
  __shared__ unsigned int word_start[VH_CAMBI_BAND_WORDS + 1];
  __shared__ unsigned int n_slots;
  __shared__ unsigned short counts[VH_CAMBI_STILE * VH_CAMBI_STILE *
      VH_CAMBI_SLOT_COUNTS];
  const int pad = (int) a.pad, nd = (int) a.num_diffs;
  const int side = VH_CAMBI_STILE + 2 * pad;
  unsigned short *levels = (unsigned short *) vh_cambi_shared;
  unsigned int *colsum = vh_cambi_shared + (side * side + 1) / 2;
  const int tid = threadIdx.y * VH_CAMBI_STILE + threadIdx.x;
  const int x0 = blockIdx.x * VH_CAMBI_STILE - pad;
  const int y0 = blockIdx.y * VH_CAMBI_STILE - pad;

  for (int k = tid; k < VH_CAMBI_BAND_WORDS; k += VH_CAMBI_THREADS) {
    region_bits[k] = 0;
    tile_bits[k] = 0;
  }
  for (int k = tid; k < VH_CAMBI_STILE * VH_CAMBI_STILE *
      VH_CAMBI_SLOT_COUNTS; k += VH_CAMBI_THREADS)
    counts[k] = 0;
  __syncthreads ();
  for (int k = tid; k < side * side; k += VH_CAMBI_THREADS) {
    const int ry = k / side, rx = k % side;
    const unsigned int level = cambi_level (a, y0 + ry, x0 + rx);
    levels[k] = (unsigned short) level;
    if (level == VH_CAMBI_NONE)
      continue;
    cambi_mark (region_bits, level);
    if (ry >= pad && ry < pad + VH_CAMBI_STILE && rx >= pad &&
        rx < pad + VH_CAMBI_STILE)
      cambi_mark (tile_bits, level);
  }
  __syncthreads ();
  /* The padded tile's values within num_diffs of one of the tile's: one
   * thread per bitmap word, then their places in the slot list. */
  unsigned int mine = 0;
  if (tid < VH_CAMBI_BAND_WORDS) {
    const unsigned int cur = tile_bits[tid];
    const unsigned int lower = tid > 0 ? tile_bits[tid - 1] : 0;
    const unsigned int upper = tid + 1 < VH_CAMBI_BAND_WORDS ?
        tile_bits[tid + 1] : 0;
    unsigned int near = cur;
    for (int d = 1; d <= nd; d++)
      near |= cur << d | lower >> (32 - d) | cur >> d | upper << (32 - d);
    mine = region_bits[tid] & near;
    word_start[tid + 1] = __popc (mine);
  }
  __syncthreads ();
  if (tid == 0) {
    word_start[0] = 0;
    for (int w = 0; w < VH_CAMBI_BAND_WORDS; w++)
      word_start[w + 1] += word_start[w];
    n_slots = word_start[VH_CAMBI_BAND_WORDS];
  }
  __syncthreads ();
  const unsigned int ns = n_slots;
  if (tid < VH_CAMBI_BAND_WORDS) {
    for (unsigned int n = word_start[tid]; mine && n < VH_CAMBI_MAX_SLOTS;
        n++) {
      slots[n] = (unsigned short) (tid * 32 + __ffs (mine) - 1);
      mine &= mine - 1;
    }
  }
  /* The last group's empty places. */
  if (tid < VH_CAMBI_SLOT_GROUP && ns + tid < VH_CAMBI_MAX_SLOTS +
      VH_CAMBI_SLOT_GROUP)
    slots[ns + tid] = VH_CAMBI_NO_SLOT;
  __syncthreads ();

  const unsigned int window_area = (2 * pad + 1) * (2 * pad + 1);
  const unsigned int worth = window_area / 16 > 8 ? window_area / 16 : 8;
  if (ns <= (worth < VH_CAMBI_MAX_SLOTS ? worth : VH_CAMBI_MAX_SLOTS)) {
    /* Columns split into segments of output rows, as many as fit. */
    int parts = 8;
    while (parts > 1 && side * parts > VH_CAMBI_THREADS)
      parts >>= 1;
    const int seg = VH_CAMBI_STILE / parts;
    for (unsigned int g = 0; g < ns; g += VH_CAMBI_SLOT_GROUP) {
      const unsigned int s0 = slots[g], s1 = slots[g + 1];
      const unsigned int s2 = slots[g + 2], s3 = slots[g + 3];
      if (tid < side * parts) {
        const int c = tid % side, r0 = (tid / side) * seg;
        const unsigned short *col = levels + c;
        unsigned int run = 0;
#define VH_CAMBI_HITS(l) ((unsigned int) ((l) == s0) | \
    (unsigned int) ((l) == s1) << 8 | (unsigned int) ((l) == s2) << 16 | \
    (unsigned int) ((l) == s3) << 24)
        for (int k = 0; k < 2 * pad; k++)
          run += VH_CAMBI_HITS (col[(r0 + k) * side]);
        for (int r = r0; r < r0 + seg; r++) {
          run += VH_CAMBI_HITS (col[(r + 2 * pad) * side]);
          colsum[r * (side + 1) + c] = run;
          run -= VH_CAMBI_HITS (col[r * side]);
        }
#undef VH_CAMBI_HITS
      }
      __syncthreads ();
      {
        /* 32 rows of 8 runs of 4 pixels; slots 0 and 2 in the 16-bit
         * halves of one sum, 1 and 3 in the other. */
        const int r = tid >> 3, xs = (tid & 7) * 4;
        /* Rows side + 1 words apart: the 4 rows a warp reads fall in
         * different banks. */
        const unsigned int *cs = colsum + r * (side + 1);
        const unsigned short *own = levels + (r + pad) * side + pad;
        unsigned int even = 0, odd = 0;
        for (int k = 0; k < 2 * pad; k++) {
          even += cs[xs + k] & 0x00ff00ffu;
          odd += cs[xs + k] >> 8 & 0x00ff00ffu;
        }
        for (int x = xs; x < xs + 4; x++) {
          const unsigned int row = own[x];
          even += cs[x + 2 * pad] & 0x00ff00ffu;
          odd += cs[x + 2 * pad] >> 8 & 0x00ff00ffu;
          if (row != VH_CAMBI_NONE) {
            unsigned short *kept = counts + (r * VH_CAMBI_STILE + x) *
                VH_CAMBI_SLOT_COUNTS;
            cambi_keep_count (kept, row, s0, even & 0xffff, nd);
            cambi_keep_count (kept, row, s1, odd & 0xffff, nd);
            cambi_keep_count (kept, row, s2, even >> 16, nd);
            cambi_keep_count (kept, row, s3, odd >> 16, nd);
          }
          even -= cs[x] & 0x00ff00ffu;
          odd -= cs[x] >> 8 & 0x00ff00ffu;
        }
      }
      __syncthreads ();
    }
  } else {
    /* Per thread, 2 num_diffs + 1 counters in the column sums' place. */
    unsigned short *scratch = (unsigned short *) colsum + tid;
    for (int q = 0; q < VH_CAMBI_STILE / 8; q++) {
      const int r = threadIdx.y + 8 * q, x = threadIdx.x;
      const unsigned int row = levels[(r + pad) * side + x + pad];
      if (row == VH_CAMBI_NONE)
        continue;
      unsigned short *kept = counts + (r * VH_CAMBI_STILE + x) *
          VH_CAMBI_SLOT_COUNTS;
      cambi_count_window (levels + r * side + x, side, pad, nd, row, scratch,
          VH_CAMBI_THREADS);
      kept[0] = scratch[nd * VH_CAMBI_THREADS];
      for (int d = 1; d <= nd; d++) {
        const unsigned int up = scratch[(nd + d) * VH_CAMBI_THREADS];
        const unsigned int down = scratch[(nd - d) * VH_CAMBI_THREADS];
        kept[d] = (unsigned short) (up > down ? up : down);
      }
    }
  }

  for (int q = 0; q < VH_CAMBI_STILE / 8; q++) {
    const int r = threadIdx.y + 8 * q, x = threadIdx.x;
    const unsigned int gx = blockIdx.x * VH_CAMBI_STILE + x;
    const unsigned int gy = blockIdx.y * VH_CAMBI_STILE + r;
    if (gx >= a.w || gy >= a.h)
      continue;
    const unsigned int row = levels[(r + pad) * side + x + pad];
    a.out[(vh_u64) gy * a.w + gx] = row == VH_CAMBI_NONE ? 0.0f :
        cambi_c_value_kept (a, row, counts + (r * VH_CAMBI_STILE + x) *
        VH_CAMBI_SLOT_COUNTS);
  }
}

/* Pooling state of one scale; zeroed before each picture. */
struct vh_cambi_select_state
{
  unsigned int done;            /* the k-th largest is known */
  unsigned int prefix;          /* its bits found so far */
  unsigned int remaining;       /* its rank among values with that prefix */
  unsigned int error;           /* a c value outside the pooling range */
  unsigned int t_bits;
  unsigned int pad[3];
};

/* One scale's pooled sums, as hip-cambi.c reads them (32 bytes). */
struct vh_cambi_scale_result
{
  vh_u64 sum_hi;
  vh_u64 sum_lo;
  vh_u64 above;
  unsigned int t_bits;
  unsigned int error;
};

/* Must match CambiPoolArgs in hip-cambi.c. */
struct vh_cambi_pool_args
{
  const float *values;
  unsigned int offset[VH_CAMBI_SCALES];
  unsigned int n[VH_CAMBI_SCALES];
  unsigned int k[VH_CAMBI_SCALES];
  unsigned int pass;            /* 0, 1, 2: bits 31..16, 15..8, 7..0 */
  unsigned int *hist;           /* per scale: 4096 + 256 + 256 bins */
  vh_cambi_select_state *state;
  vh_cambi_scale_result *result;
};

#define VH_CAMBI_HIST_STRIDE (VH_CAMBI_TOP_BINS + 2 * VH_CAMBI_LOW_BINS)

static __device__ __forceinline__ unsigned int *
cambi_hist (const vh_cambi_pool_args & a, unsigned int scale)
{
  unsigned int *h = a.hist + scale * VH_CAMBI_HIST_STRIDE;
  return a.pass == 0 ? h : h + VH_CAMBI_TOP_BINS +
      (a.pass - 1) * VH_CAMBI_LOW_BINS;
}

/* Grid (blocks, 5 scales), 256 threads: this pass's histogram of the
 * values whose higher bits match the prefix found so far. */
extern "C" __global__ void
vh_cambi_hist (vh_cambi_pool_args a)
{
  __shared__ unsigned int bins[VH_CAMBI_TOP_BINS];
  const unsigned int scale = blockIdx.y;
  vh_cambi_select_state *st = a.state + scale;
  const unsigned int n_bins = a.pass == 0 ? VH_CAMBI_TOP_BINS :
      VH_CAMBI_LOW_BINS;
  const unsigned int *v =
      (const unsigned int *) (a.values + a.offset[scale]);
  const unsigned int n = a.n[scale];

  if (st->done)
    return;
  for (unsigned int b = threadIdx.x; b < n_bins; b += VH_CAMBI_THREADS)
    bins[b] = 0;
  __syncthreads ();
  for (unsigned int i = blockIdx.x * VH_CAMBI_THREADS + threadIdx.x; i < n;
      i += gridDim.x * VH_CAMBI_THREADS) {
    const unsigned int bits = v[i];
    if (bits == 0)
      continue;
    if (a.pass == 0) {
      const unsigned int b = (bits >> 16) - VH_CAMBI_KEY_BASE;
      if (b < VH_CAMBI_TOP_BINS)
        atomicAdd (&bins[b], 1u);
      else
        st->error = 1;
    } else if (a.pass == 1) {
      if (bits >> 16 == st->prefix)
        atomicAdd (&bins[(bits >> 8) & 0xff], 1u);
    } else if (bits >> 8 == st->prefix) {
      atomicAdd (&bins[bits & 0xff], 1u);
    }
  }
  __syncthreads ();
  unsigned int *out = cambi_hist (a, scale);
  for (unsigned int b = threadIdx.x; b < n_bins; b += VH_CAMBI_THREADS) {
    if (bins[b])
      atomicAdd (&out[b], bins[b]);
  }
}

/* Grid (1, 5 scales), 256 threads: the bin holding the k-th largest, from
 * the top; each thread owns a run of bins, the runs' totals are scanned
 * from the top and the thread whose run crosses the rank walks it. */
extern "C" __global__ void
vh_cambi_select (vh_cambi_pool_args a)
{
  __shared__ unsigned int scan[VH_CAMBI_THREADS];
  __shared__ unsigned int total;
  const unsigned int scale = blockIdx.y;
  const unsigned int tid = threadIdx.x;
  vh_cambi_select_state *st = a.state + scale;
  const unsigned int n_bins = a.pass == 0 ? VH_CAMBI_TOP_BINS :
      VH_CAMBI_LOW_BINS;
  const unsigned int run = n_bins / VH_CAMBI_THREADS;
  const unsigned int *h = cambi_hist (a, scale);
  const unsigned int top = n_bins - tid * run;  /* bins [top - run, top) */
  unsigned int mine = 0;

  if (st->done)
    return;
  /* Read before the barriers: the thread that finds the bin rewrites it. */
  const unsigned int rank = a.pass == 0 ? a.k[scale] : st->remaining;
  for (unsigned int b = top - run; b < top; b++)
    mine += h[b];
  scan[tid] = mine;
  __syncthreads ();
  for (unsigned int s = 1; s < VH_CAMBI_THREADS; s <<= 1) {
    const unsigned int add = tid >= s ? scan[tid - s] : 0;
    __syncthreads ();
    scan[tid] += add;
    __syncthreads ();
  }
  if (tid == VH_CAMBI_THREADS - 1)
    total = scan[tid];
  __syncthreads ();

  if (a.pass == 0 && total <= rank) {
    /* No more positive values than k: the k-th largest is 0. */
    if (tid == 0) {
      st->done = 1;
      st->t_bits = 0;
    }
    return;
  }
  unsigned int before = scan[tid] - mine;
  if (before >= rank || scan[tid] < rank)
    return;
  for (unsigned int b = top; b-- > top - run;) {
    if (before + h[b] >= rank) {
      st->remaining = rank - before;
      if (a.pass == 0) {
        st->prefix = VH_CAMBI_KEY_BASE + b;
      } else if (a.pass == 1) {
        st->prefix = (st->prefix << 8) | b;
      } else {
        st->t_bits = (st->prefix << 8) | b;
        st->done = 1;
      }
      return;
    }
    before += h[b];
  }
}

/* Grid (blocks, 5 scales), 256 threads: the values above the k-th largest
 * in units of 2^-36, summed as two 64-bit halves, and their count. */
extern "C" __global__ void
vh_cambi_sum (vh_cambi_pool_args a)
{
  __shared__ vh_u64 part[3][VH_CAMBI_THREADS];
  const unsigned int scale = blockIdx.y;
  const unsigned int tid = threadIdx.x;
  const vh_cambi_select_state *st = a.state + scale;
  vh_cambi_scale_result *res = a.result + scale;
  const unsigned int t = st->t_bits;
  const unsigned int *v =
      (const unsigned int *) (a.values + a.offset[scale]);
  const unsigned int n = a.n[scale];
  vh_u64 hi = 0, lo = 0, above = 0;

  for (unsigned int i = blockIdx.x * VH_CAMBI_THREADS + tid; i < n;
      i += gridDim.x * VH_CAMBI_THREADS) {
    const unsigned int bits = v[i];
    if (bits <= t)
      continue;
    /* As vh_cambi_units(): mantissa times 2^(exponent - 150 + 36). */
    const int shift = (int) (bits >> 23) - (150 - VH_CAMBI_UNIT_BITS);
    const vh_u64 mantissa = (bits & 0x7fffffu) | 0x800000u;
    const vh_u64 units = shift >= 0 ? mantissa << shift : mantissa >> -shift;
    hi += units >> 32;
    lo += units & 0xffffffffu;
    above++;
  }
  part[0][tid] = hi;
  part[1][tid] = lo;
  part[2][tid] = above;
  __syncthreads ();
  for (unsigned int s = VH_CAMBI_THREADS / 2; s > 0; s >>= 1) {
    if (tid < s) {
      part[0][tid] += part[0][tid + s];
      part[1][tid] += part[1][tid + s];
      part[2][tid] += part[2][tid + s];
    }
    __syncthreads ();
  }
  if (tid == 0) {
    if (part[2][0]) {
      atomicAdd (&res->sum_hi, part[0][0]);
      atomicAdd (&res->sum_lo, part[1][0]);
      atomicAdd (&res->above, part[2][0]);
    }
    if (blockIdx.x == 0) {
      res->t_bits = t;
      res->error = st->error;
    }
  }
}
