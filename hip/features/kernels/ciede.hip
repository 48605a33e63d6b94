/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* CIEDE2000 per pixel and the sum of the differences, in the CPU twin's
 * order (src/features/ciede-color.c, ciede-chroma.c):
 *
 *  1. vh_ciede_diff, one thread per pixel: the luma-grid Y, Cb, Cr of both
 *     pictures (chroma fetched where libvmaf's upsampler fetches it, from a
 *     per-column map made by the CPU twin's code), both to CIELAB, and the
 *     difference as a float (0 where the pixels are equal, which adds
 *     nothing to the CPU twin's sum either); written column-major so that
 *     step 2 reads it coalesced.
 *  2. vh_ciede_rows, one thread per row: the row's sum in double, left to
 *     right.
 *  3. vh_ciede_total, one thread: the rows' sums, top to bottom.
 *
 * Every step has the C code's types: float results of double expressions
 * where C promotes, single precision where both operands are floats, and
 * no contraction into fused multiply-adds. Squares of floats are exact
 * double products, as glibc's pow (x, 2) returns them. The transcendental
 * functions (pow, atan2, sin, cos, exp) come from the GPU's library, within
 * a few units in the last place of glibc's: those differences rarely
 * survive the rounding to float, and bound the twin's score within 1e-6
 * of the CPU twin's. */

#if defined(__HIP__) && !defined(__HIPCC_RTC__) && !defined(VH_HIP_RTC)
#include <hip/hip_runtime.h>
#endif

#if defined(__CUDACC__)
#define FMUL(a, b) __fmul_rn ((a), (b))
#define FADD(a, b) __fadd_rn ((a), (b))
#define FSUB(a, b) __fadd_rn ((a), -(b))
#define FDIV(a, b) __fdiv_rn ((a), (b))
#define DMUL(a, b) __dmul_rn ((a), (b))
#define DADD(a, b) __dadd_rn ((a), (b))
#define DSUB(a, b) __dadd_rn ((a), -(b))
#define DDIV(a, b) __ddiv_rn ((a), (b))
#else
#pragma clang fp contract(off)
#define FMUL(a, b) ((a) * (b))
#define FADD(a, b) ((a) + (b))
#define FSUB(a, b) ((a) - (b))
#define FDIV(a, b) ((a) / (b))
#define DMUL(a, b) ((double) (a) * (double) (b))
#define DADD(a, b) ((double) (a) + (double) (b))
#define DSUB(a, b) ((double) (a) - (double) (b))
#define DDIV(a, b) ((double) (a) / (double) (b))
#endif

#define VH_CIEDE_PI 3.14159265358979323846
/* 25^7, exact in double; rounded to float as the compiler folds powf. */
#define VH_CIEDE_25_7 6103515625.0

typedef unsigned long long vh_u64;

/* Must match the layout in hip-ciede.c. */
struct vh_ciede_pic
{
  const unsigned char *data[3];
  vh_u64 pitch[3];
  unsigned int step[3];
  unsigned int pad;
};

struct vh_ciede_args
{
  struct vh_ciede_pic pic[2];   /* reference, distorted */
  const unsigned int *row_carry;        /* per luma column */
  const unsigned int *col;
  const unsigned int *col_pad;
  unsigned int width;
  unsigned int height;
  unsigned int chroma_h;
  unsigned int full;            /* 4:4:4 */
  unsigned int bpc;
  unsigned int pad;
  float *diff;                  /* width * height, column-major */
  double *row_sum;              /* height */
};

struct vh_ciede_lab
{
  float l, a, b;
};

static __device__ __forceinline__ float
ciede_sample (const struct vh_ciede_pic &p, unsigned int plane, bool hbd,
    unsigned int x, unsigned int y)
{
  const unsigned char *row = p.data[plane] + (vh_u64) y * p.pitch[plane];
  const vh_u64 i = (vh_u64) x * p.step[plane];

  return hbd ? (float) ((const unsigned short *) row)[i] : (float) row[i];
}

/* ciede_chroma_at(): rows past the plane's end read on into the next one,
 * past the last one 0. */
static __device__ __forceinline__ float
ciede_chroma_at (const struct vh_ciede_args &a, const struct vh_ciede_pic &p,
    unsigned int plane, bool hbd, unsigned int x, unsigned int y)
{
  if (y >= a.chroma_h) {
    if (plane == 2 || y - a.chroma_h >= a.chroma_h)
      return 0;
    plane = 2;
    y -= a.chroma_h;
  }
  return ciede_sample (p, plane, hbd, x, y);
}

static __device__ void
ciede_load (const struct vh_ciede_args &a, const struct vh_ciede_pic &p,
    bool hbd, unsigned int x, unsigned int y, float *yuv)
{
  yuv[0] = ciede_sample (p, 0, hbd, x, y);
  for (unsigned int plane = 1; plane < 3; plane++) {
    if (a.full)
      yuv[plane] = ciede_sample (p, plane, hbd, x, y);
    else
      yuv[plane] = a.col_pad[x] ? 0 : ciede_chroma_at (a, p, plane, hbd,
          a.col[x], y / 2 + a.row_carry[x]);
  }
}

static __device__ double
ciede_linearise (double c)
{
  if (c > 10. / 255.)
    return pow (DMUL (DADD (c, 0.055), (1.0 / 1.055)), 2.4);
  return DMUL (c, (1.0 / 12.92));
}

static __device__ float
ciede_lab_f (double t)
{
  if (t > 216.0 / 24389.0)
    return (float) pow (t, 1.0 / 3.0);
  return (float) DMUL (DADD (DMUL ((24389.0 / 27.0), t), 16.0),
      (1.0 / 116.0));
}

static __device__ struct vh_ciede_lab
ciede_to_lab (double y, double u, double v, unsigned int bpc)
{
  const double scale = (double) (1 << (bpc - 8));
  /* Doubles holding float values, as in the C code. */
  double r, g, b, lx, ly, lz;
  struct vh_ciede_lab lab;

  y = DMUL (DSUB (y, DMUL (16., scale)), DDIV (1., DMUL (219., scale)));
  u = DMUL (DSUB (u, DMUL (128., scale)), DDIV (1., DMUL (224., scale)));
  v = DMUL (DSUB (v, DMUL (128., scale)), DDIV (1., DMUL (224., scale)));

  r = ciede_linearise (DADD (y, DMUL (1.28033, v)));
  g = ciede_linearise (DSUB (DSUB (y, DMUL (0.21482, u)),
          DMUL (0.38059, v)));
  b = ciede_linearise (DADD (y, DMUL (2.12798, u)));

  lx = ciede_lab_f (DMUL (DADD (DADD (DMUL (r, 0.4124564390896921),
                  DMUL (g, 0.357576077643909)),
              DMUL (b, 0.18043748326639894)), (1.0 / 0.95047)));
  ly = ciede_lab_f (DADD (DADD (DMUL (r, 0.21267285140562248),
              DMUL (g, 0.715152155287818)), DMUL (b, 0.07217499330655958)));
  lz = ciede_lab_f (DMUL (DADD (DADD (DMUL (r, 0.019333895582329317),
                  DMUL (g, 0.119192025881303)),
              DMUL (b, 0.9503040785363677)), (1.0 / 1.08883)));

  lab.l = (float) DSUB (DMUL (116.0, ly), 16.0);
  lab.a = (float) DMUL (500.0, DSUB (lx, ly));
  lab.b = (float) DMUL (200.0, DSUB (ly, lz));
  return lab;
}

static __device__ float
ciede_hue (float b, float a)
{
  float h;

  if ((b == 0.0f) && (a == 0.0f))
    return 0.0f;
  h = (float) atan2 ((double) b, (double) a);
  if (h < 0.0f)
    h = (float) DADD ((double) h, 2. * VH_CIEDE_PI);
  return h;
}

static __device__ float
ciede_hue_delta (float c1, float c2, float h1, float h2)
{
  if ((c1 == 0.0f) || (c2 == 0.0f))
    return 0.0f;
  if ((double) fabsf (FSUB (h1, h2)) <= VH_CIEDE_PI)
    return FSUB (h2, h1);
  if (h2 <= h1)
    return (float) DADD ((double) FSUB (h2, h1), 2. * VH_CIEDE_PI);
  return (float) DSUB ((double) FSUB (h2, h1), 2. * VH_CIEDE_PI);
}

static __device__ float
ciede_hue_mean (float h1, float h2)
{
  return fabs ((double) FSUB (h1, h2)) > VH_CIEDE_PI ?
      (float) DDIV (DADD ((double) FADD (h1, h2), 2.0 * VH_CIEDE_PI), 2.0) :
      (float) DDIV ((double) FADD (h1, h2), 2.0);
}

static __device__ float
ciede_hue_weight (float hm)
{
  const double h = hm;
  double t = DSUB (1.0, DMUL (0.17, cos (DSUB (h, VH_CIEDE_PI / 6.0))));

  t = DADD (t, DMUL (0.24, cos (DMUL (2.0, h))));
  t = DADD (t, DMUL (0.32, cos (DADD (DMUL (3.0, h), VH_CIEDE_PI / 30.0))));
  t = DSUB (t, DMUL (0.20, cos (DSUB (DMUL (4.0, h),
                  7.0 * VH_CIEDE_PI / 20.0))));
  return (float) t;
}

static __device__ float
ciede_to_degrees (float radians)
{
  return (float) DMUL ((double) radians, (180.0 / VH_CIEDE_PI));
}

static __device__ float
ciede_to_radians (float degrees)
{
  return (float) DMUL ((double) degrees, (VH_CIEDE_PI / 180.0));
}

/* powf (x, 7), rounded once from double. */
static __device__ float
ciede_powf7 (float x)
{
  return (float) pow ((double) x, 7.0);
}

static __device__ float
ciede_rotation (float c_mean, float hm)
{
  const float d = (float) DMUL (DSUB ((double) ciede_to_degrees (hm), 275.0),
      (1.0 / 25.0));
  const float c_mean7 = ciede_powf7 (c_mean);
  const float q = FDIV (c_mean7, FADD (c_mean7, (float) VH_CIEDE_25_7));
  const float e = (float) DMUL (60.0, exp ((double) (-FMUL (d, d))));

  return (float) DMUL (DMUL (-2.0, sqrt ((double) q)),
      sin ((double) ciede_to_radians (e)));
}

static __device__ float
ciede2000 (struct vh_ciede_lab p, struct vh_ciede_lab q)
{
  const float k_l = 0.65f, k_c = 1.0f, k_h = 4.0f;
  const float dl = FSUB (q.l, p.l);
  const float l_mean = FDIV (FADD (p.l, q.l), 2.0f);
  const float c1 = (float) sqrt (DADD (DMUL (p.a, p.a), DMUL (p.b, p.b)));
  const float c2 = (float) sqrt (DADD (DMUL (q.a, q.a), DMUL (q.b, q.b)));
  const float c_mean = FDIV (FADD (c1, c2), 2.0f);
  const double c_mean7 = pow ((double) c_mean, 7.0);
  const double g = DSUB (1.0, sqrt (DDIV (c_mean7, DADD (c_mean7,
                  VH_CIEDE_25_7))));
  const float a1 = (float) DADD ((double) p.a,
      DMUL ((double) FDIV (p.a, 2.0f), g));
  const float a2 = (float) DADD ((double) q.a,
      DMUL ((double) FDIV (q.a, 2.0f), g));
  const float cp1 = (float) sqrt (DADD (DMUL (a1, a1), DMUL (p.b, p.b)));
  const float cp2 = (float) sqrt (DADD (DMUL (a2, a2), DMUL (q.b, q.b)));
  const float cp_mean = FDIV (FADD (cp1, cp2), 2.0f);
  const float dc = FSUB (cp2, cp1);
  const float lm = FSUB (l_mean, 50.0f);
  const double lm2 = DMUL (lm, lm);
  const float s_l = (float) DADD (1., DDIV (DMUL (0.015, lm2),
          sqrt (DADD (20.0, lm2))));
  const float s_c = (float) DADD (1., DMUL (0.045, (double) cp_mean));
  const float h1 = ciede_hue (p.b, a1);
  const float h2 = ciede_hue (q.b, a2);
  const float dh = ciede_hue_delta (c1, c2, h1, h2);
  const float d_hue = (float) DMUL (DMUL (2.0,
          sqrt ((double) FMUL (cp1, cp2))), sin (DDIV ((double) dh, 2.0)));
  const float h_mean = ciede_hue_mean (h1, h2);
  const float t = ciede_hue_weight (h_mean);
  const float s_h = (float) DADD (1.0, DMUL (DMUL (0.015, (double) cp_mean),
          (double) t));
  const float r_t = ciede_rotation (cp_mean, h_mean);
  const float lightness = FDIV (dl, FMUL (k_l, s_l));
  const float chroma = FDIV (dc, FMUL (k_c, s_c));
  const float hue = FDIV (d_hue, FMUL (k_h, s_h));

  return (float) sqrt (DADD (DADD (DADD (DMUL (lightness, lightness),
                  DMUL (chroma, chroma)), DMUL (hue, hue)),
          (double) FMUL (FMUL (r_t, chroma), hue)));
}

extern "C" __global__ void
vh_ciede_diff (struct vh_ciede_args a)
{
  const unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
  const bool hbd = a.bpc > 8;
  float r[3], d[3], de = 0;

  if (x >= a.width || y >= a.height)
    return;
  ciede_load (a, a.pic[0], hbd, x, y, r);
  ciede_load (a, a.pic[1], hbd, x, y, d);
  if (r[0] != d[0] || r[1] != d[1] || r[2] != d[2])
    de = ciede2000 (ciede_to_lab (r[0], r[1], r[2], a.bpc),
        ciede_to_lab (d[0], d[1], d[2], a.bpc));
  a.diff[(vh_u64) x * a.height + y] = de;
}

extern "C" __global__ void
vh_ciede_rows (struct vh_ciede_args a)
{
  const unsigned int y = blockIdx.x * blockDim.x + threadIdx.x;
  double s = 0;

  if (y >= a.height)
    return;
  for (unsigned int x = 0; x < a.width; x++)
    s = DADD (s, (double) a.diff[(vh_u64) x * a.height + y]);
  a.row_sum[y] = s;
}

/* One block of one thread; @out: the frame's slot, the sum. */
extern "C" __global__ void
vh_ciede_total (struct vh_ciede_args a, double *out)
{
  double s = 0;

  if (threadIdx.x != 0)
    return;
  for (unsigned int y = 0; y < a.height; y++)
    s = DADD (s, a.row_sum[y]);
  out[0] = s;
}
