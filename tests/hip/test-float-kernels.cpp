/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The GPU kernels of the float_motion, float_vif, float_adm and psnr_hvs
 * twins (hip/features/kernels/float-*.hip, psnr-hvs.hip) run on the host
 * through kernel-emu.h, step by step against the CPU twins' functions,
 * launched as the twins launch them: float_motion's blur and sums of
 * absolute differences, the four resamplings of float-scale.hip (strided
 * sources, down and up), float_vif's decimation and per-scale sums at
 * several kernel scales, float_adm's wavelet bands and per-scale sums
 * (dividing by this processor's reciprocal estimate through the table the
 * twin uploads), psnr_hvs's plane sums at 8 to 12 bits, with interleaved
 * samples and planes with no block. Checks the kernels' indexing and
 * order of operations; the GPU's own rounding is the GPU test's
 * (hip-features-gpu). Needs no GPU. */

#include <math.h>
#include <string.h>

#include "kernel-emu.h"


#include "float-motion.hip"
#include "float-scale.hip"
#include "float-vif.hip"
#include "float-adm.hip"
#include "psnr-hvs.hip"

extern "C"
{
#include "features/float-conv.h"
#include "features/float-scale.h"
#include "features/float-vif-private.h"
#include "features/float-adm-private.h"
#include "features/psnr-hvs-private.h"
}

#include "vh-test.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

#include <vector>

static unsigned int
div_up (unsigned int a, unsigned int b)
{
  return (a + b - 1) / b;
}

static dim3
d3 (unsigned int x, unsigned int y)
{
  return {x, y, 1};
}

/* Largest |a - b| over @n values; fails above @tol (NaN equals NaN). */
static double
compare (const char *what, const float *a, const float *b, size_t n,
    double tol)
{
  double max_diff = 0;
  size_t bad = 0;

  for (size_t i = 0; i < n; i++) {
    double d = a[i] == b[i] || (isnan (a[i]) && isnan (b[i])) ? 0 :
        fabs ((double) a[i] - b[i]);
    if (isnan (d))
      d = INFINITY;
    if (d > tol)
      bad++;
    max_diff = MAX (max_diff, d);
  }
  VH_TEST_CHECK (!bad, "%s: %zu of %zu values differ, by up to %g", what,
      bad, n, max_diff);
  return max_diff;
}

/* A picture with structure (sine bands) and noise, on libvmaf's float
 * scale (integers minus 128). */
static std::vector<float>
make_plane (unsigned int w, unsigned int h, unsigned int stride, GRand * r,
    float gain)
{
  std::vector<float> v ((size_t) stride * h, 0.0f);

  for (unsigned int y = 0; y < h; y++)
    for (unsigned int x = 0; x < w; x++)
      v[(size_t) y * stride + x] = floorf (gain * (float) (60 *
              sin (x * 0.13) * cos (y * 0.07)) +
          (float) g_rand_int_range (r, -6, 7));
  return v;
}

/* ---- float_motion ------------------------------------------------------ */

/* A @w x @h plane of @bpc-bit samples, @step apart (interleaved chroma),
 * blurred into rows @stride floats apart. */
static void
test_motion (unsigned int w, unsigned int h, unsigned int stride,
    unsigned int bpc, unsigned int step, const float *f, unsigned int fw,
    GRand * r)
{
  const unsigned int bps = bpc > 8 ? 2 : 1;
  const size_t pitch = (size_t) w * step * bps;
  std::vector<unsigned char> src (pitch * h);
  std::vector<float> in ((size_t) stride * h, 0.0f), cpu (in), gpu (in);
  std::vector<float> tmp ((size_t) w * h), scratch (w + VH_FCONV_MAX_TAPS);
  std::vector<float> rows (h);
  struct vh_fmotion_blur_args a;
  float cpu_sum = 0.0f, gpu_sum;
  char what[96];

  for (unsigned int y = 0; y < h; y++)
    for (unsigned int x = 0; x < w * step; x++) {
      const unsigned int v = g_rand_int_range (r, 0, 1 << bpc);
      if (bps == 1)
        src[y * pitch + x] = (unsigned char) v;
      else
        ((guint16 *) (src.data () + y * pitch))[x] = (guint16) v;
    }
  /* As the CPU twin loads it: sample / 2^(bpc - 8) - 128. */
  for (unsigned int y = 0; y < h; y++)
    for (unsigned int x = 0; x < w; x++) {
      const unsigned int v = bps == 1 ? src[y * pitch + x * step] :
          ((const guint16 *) (src.data () + y * pitch))[x * step];
      in[(size_t) y * stride + x] = (float) v / (float) (1u << (bpc - 8)) +
          -128.0f;
    }
  vh_fconv_plane (f, fw, in.data (), stride, cpu.data (), stride, w, h,
      scratch.data ());

  memset (&a, 0, sizeof (a));
  a.src = src.data ();
  a.pitch = pitch;
  a.step = step;
  a.width = w;
  a.height = h;
  a.inv_scale = 1.0f / (float) (1u << (bpc - 8));
  a.tmp = tmp.data ();
  a.dst = gpu.data ();
  a.dst_stride = stride;
  a.fw = fw;
  memcpy (a.f, f, fw * sizeof (float));
  vh_emu_launch (d3 (div_up (w, 32), div_up (h, 8)), d3 (32, 8), [&] {
        if (bps == 1)
          vh_fmotion_vblur_u8 (a);
        else
          vh_fmotion_vblur_u16 (a);});
  vh_emu_launch (d3 (div_up (w, 32), div_up (h, 8)), d3 (32, 8), [&] {
        vh_fmotion_hblur (a);});
  snprintf (what, sizeof (what), "float_motion blur %ux%u %u-bit (step %u), "
      "%u taps", w, h, bpc, step, fw);
  compare (what, cpu.data (), gpu.data (), cpu.size (), 0);

  /* Each row's |a - b| left to right, then the rows in order. */
  for (unsigned int y = 0; y < h; y++) {
    float row = 0.0f;
    for (unsigned int x = 0; x < w; x++)
      row += fabsf (cpu[(size_t) y * stride + x] - in[(size_t) y * stride +
              x]);
    cpu_sum += row;
  }
  vh_emu_launch (d3 (div_up (h, 64), 1), d3 (64, 1), [&] {
        vh_fmotion_sad_rows (cpu.data (), in.data (), stride, w, h,
            rows.data ());});
  vh_emu_launch (d3 (1, 1), d3 (1, 1), [&] {
        vh_fmotion_sad_total (rows.data (), h, &gpu_sum);});
  snprintf (what, sizeof (what), "float_motion SAD %ux%u", w, h);
  compare (what, &cpu_sum, &gpu_sum, 1, 0);
}

/* ---- float-scale.hip --------------------------------------------------- */

static void
test_scale (unsigned int sw, unsigned int sh, unsigned int ss,
    unsigned int dw, unsigned int dh, GRand * r)
{
  std::vector<float> src = make_plane (sw, sh, ss, r, 1.5f);

  /* lanczos4's weights, as the float_vif twin uploads them. */
  std::vector<int> x0 (dw), y0 (dh);
  std::vector<float> wx ((size_t) dw * VH_FLOAT_SCALE_LANCZOS4_TAPS);
  std::vector<float> wy ((size_t) dh * VH_FLOAT_SCALE_LANCZOS4_TAPS);

  vh_float_scale_lanczos4_weights (sw, dw, x0.data (), wx.data ());
  vh_float_scale_lanczos4_weights (sh, dh, y0.data (), wy.data ());
  for (int m = VH_FLOAT_SCALE_NEAREST; m <= VH_FLOAT_SCALE_LANCZOS4; m++) {
    std::vector<float> cpu ((size_t) dw * dh), gpu ((size_t) dw * dh);
    char what[96];

    vh_float_scale ((VhFloatScaleMethod) m, src.data (), sw, sh, ss,
        cpu.data (), dw, dh, dw);
    vh_emu_launch (d3 (div_up (dw, 32), div_up (dh, 8)), d3 (32, 8), [&] {
          if (m == VH_FLOAT_SCALE_NEAREST)
            vh_fscale_nearest (src.data (), ss, sw, sh, gpu.data (), dw, dw,
                dh);
          else if (m == VH_FLOAT_SCALE_BILINEAR)
            vh_fscale_bilinear (src.data (), ss, sw, sh, gpu.data (), dw, dw,
                dh);
          else if (m == VH_FLOAT_SCALE_BICUBIC)
            vh_fscale_bicubic (src.data (), ss, sw, sh, gpu.data (), dw, dw,
                dh);
          else
            vh_fscale_lanczos4 (src.data (), ss, sw, sh, gpu.data (), dw, dw,
                dh, x0.data (), wx.data (), y0.data (), wy.data ());});
    snprintf (what, sizeof (what), "%s %ux%u (rows %u apart) to %ux%u",
        vh_float_scale_method_names[m], sw, sh, ss, dw, dh);
    compare (what, cpu.data (), gpu.data (), cpu.size (), 0);
  }
}

/* ---- float_vif --------------------------------------------------------- */

static void
test_vif (unsigned int w, unsigned int h, float kernel_scale, GRand * r)
{
  std::vector<float> planes[2] = {
    make_plane (w, h, w, r, 1.0f), make_plane (w, h, w, r, 0.8f)
  };
  const VhFvifParams params = { 2.0, 100.0f,
    (float) (powf (2.0f, 2.0f) / (255.0 * 255.0))
  };
  unsigned int cw = w, ch = h;
  VhFvifWork ws;

  vh_fvif_work_init (&ws, w);
  for (unsigned int scale = 0; scale < VH_FVIF_N_SCALES; scale++) {
    float f[VH_FCONV_MAX_TAPS], cpu[2], gpu[2];
    const unsigned int fw = vh_fvif_filter (scale, kernel_scale, f);
    struct vh_fvif_scale_args a;
    std::vector<float> stats[5], num, den, row_num, row_den;
    char what[96];

    if (scale > 0) {
      const unsigned int nw = cw / 2, nh = ch / 2;
      for (int p = 0; p < 2; p++) {
        std::vector<float> c ((size_t) nw * nh), g ((size_t) nw * nh);
        std::vector<float> tmp ((size_t) cw * nh);
        vh_fvif_decimate (&ws, f, fw, planes[p].data (), cw, cw, ch,
            c.data (), nw);
        vh_emu_launch (d3 (div_up (cw, 32), div_up (nh, 8)), d3 (32, 8), [&] {
              vh_fvif_vpass (planes[p].data (), cw, ch, f, fw, tmp.data ());});
        vh_emu_launch (d3 (div_up (nw, 32), div_up (nh, 8)), d3 (32, 8), [&] {
              vh_fvif_hpass_even (tmp.data (), cw, nh, f, fw, g.data ());});
        snprintf (what, sizeof (what), "float_vif %ux%u scale %u (kernel "
            "scale %g), picture %d", w, h, scale, kernel_scale, p);
        compare (what, c.data (), g.data (), c.size (), 0);
        planes[p] = c;
      }
      cw = nw;
      ch = nh;
    }
    vh_fvif_scale_sums (&ws, f, fw, planes[0].data (), planes[1].data (), cw,
        cw, ch, &params, &cpu[0], &cpu[1]);

    for (auto & s:stats)
      s.resize ((size_t) cw * ch);
    num.resize ((size_t) cw * ch);
    den.resize ((size_t) cw * ch);
    row_num.resize (ch);
    row_den.resize (ch);
    memset (&a, 0, sizeof (a));
    a.ref = planes[0].data ();
    a.dis = planes[1].data ();
    a.stride = cw;
    a.width = cw;
    a.height = ch;
    a.f = f;
    a.fw = fw;
    a.mu1 = stats[0].data ();
    a.mu2 = stats[1].data ();
    a.xx = stats[2].data ();
    a.yy = stats[3].data ();
    a.xy = stats[4].data ();
    a.num = num.data ();
    a.den = den.data ();
    a.row_num = row_num.data ();
    a.row_den = row_den.data ();
    a.sigma_nsq = params.sigma_nsq;
    a.gain_limit = params.gain_limit;
    a.sigma_max_inv = params.sigma_max_inv;
    vh_emu_launch (d3 (div_up (cw, 32), div_up (ch, 8)), d3 (32, 8), [&] {
          vh_fvif_moments (a);});
    vh_emu_launch (d3 (div_up (cw, 32), div_up (ch, 8)), d3 (32, 8), [&] {
          vh_fvif_stats (a);});
    vh_emu_launch (d3 (div_up (ch, 64), 1), d3 (64, 1), [&] {
          vh_fvif_rows (a);});
    vh_emu_launch (d3 (1, 1), d3 (1, 1), [&] {
          vh_fvif_total (a, gpu);});
    snprintf (what, sizeof (what), "float_vif %ux%u scale %u sums (kernel "
        "scale %g)", w, h, scale, kernel_scale);
    compare (what, cpu, gpu, 2, 0);
  }
  vh_fvif_work_clear (&ws);
}

/* ---- float_adm --------------------------------------------------------- */

static guint
adm_rcp_bits (void)
{
  guint bits = 0;

  return vh_fadm_rcp_table (&bits) ? bits : 0;
}

static void
test_adm (unsigned int w, unsigned int h, double p_norm, bool bypass_cm,
    double gain_limit, GRand * r)
{
  const std::vector<float> luma[2] = {
    make_plane (w, h, w, r, 1.0f), make_plane (w, h, w, r, 0.7f)
  };
  const unsigned int bw = (w + 1) / 2, bh = (h + 1) / 2;
  const size_t n = (size_t) bw * bh;
  const float rf[3] = { 0.8f, 0.8f, 0.5f };
  const VhFadmPool pool = { p_norm, 0.03125, bypass_cm };
  VhFadmPool aim_pool = pool;
  /* CPU bands: reference, distorted, restored, additive, two CSF sets. */
  std::vector<float> cpu[20];
  /* GPU bands per picture: a (two levels alternate), h, v, d. */
  std::vector<float> gpu[2][5], restored[3], additive[3];
  std::vector<float> terms (9 * n), rows (9 * bh), scratch (4 * w);
  const float *cur[2] = { luma[0].data (), luma[1].data () };
  size_t stride = w;
  unsigned int cw = w, ch = h;

  aim_pool.noise_weight = 0.0;
  for (auto & b:cpu)
    b.assign (n, 0.0f);
  for (auto & p:gpu)
    for (auto & b:p)
      b.assign (n, 0.0f);
  for (int t = 0; t < 3; t++) {
    restored[t].assign (n, 0.0f);
    additive[t].assign (n, 0.0f);
  }
  VhFadmBands ref = { cpu[0].data (), cpu[1].data (), cpu[2].data (),
    cpu[3].data ()
  };
  VhFadmBands dis = { cpu[4].data (), cpu[5].data (), cpu[6].data (),
    cpu[7].data ()
  };
  VhFadmBands rb = { NULL, cpu[8].data (), cpu[9].data (), cpu[10].data () };
  VhFadmBands ab = { NULL, cpu[11].data (), cpu[12].data (), cpu[13].data () };
  VhFadmBands csf_a = { NULL, cpu[14].data (), cpu[15].data (),
    cpu[16].data ()
  };
  VhFadmBands csf_f = { NULL, cpu[17].data (), cpu[18].data (),
    cpu[19].data ()
  };

  for (unsigned int scale = 0; scale < 4; scale++) {
    VhFadmRect fr, sr;
    struct vh_fadm_args a;
    guint rcp_bits = 0;
    float cpu_sums[3], gpu_sums[3], acc[9];
    char what[96];

    vh_fadm_dwt2 (cur[0], stride, cw, ch, &ref, bw, FALSE, scratch.data ());
    vh_fadm_dwt2 (cur[1], stride, cw, ch, &dis, bw, FALSE, scratch.data ());
    for (int p = 0; p < 2; p++) {
      const float *src = scale ? gpu[p][(scale - 1) % 2].data () :
          luma[p].data ();
      const vh_u64 ss = scale ? bw : w;
      const int iw = cw, ih = ch;
      vh_emu_launch (d3 (div_up ((cw + 1) / 2, 32), div_up ((ch + 1) / 2,
                  8)), d3 (32, 8), [&] {
            vh_fadm_dwt (src, ss, iw, ih, gpu[p][scale % 2].data (),
                gpu[p][3].data (), gpu[p][2].data (), gpu[p][4].data (), bw,
                0);});
    }
    cw = (cw + 1) / 2;
    ch = (ch + 1) / 2;
    cur[0] = ref.a;
    cur[1] = dis.a;
    stride = bw;
    for (int p = 0; p < 2; p++) {
      const VhFadmBands *b = p ? &dis : &ref;
      const float *cb[4] = { b->a, b->h, b->v, b->d };
      const int gb[4] = { (int) (scale % 2), 2, 3, 4 };
      for (int k = 0; k < 4; k++) {
        std::vector<float> x, y;
        for (unsigned int i = 0; i < ch; i++)
          for (unsigned int j = 0; j < cw; j++) {
            x.push_back (cb[k][(size_t) i * bw + j]);
            y.push_back (gpu[p][gb[k]][(size_t) i * bw + j]);
          }
        snprintf (what, sizeof (what), "float_adm %ux%u level %u picture "
            "%d band %d", w, h, scale, p, k);
        compare (what, x.data (), y.data (), x.size (), 0);
      }
    }

    /* The CPU twin's order: decouple, denominator, numerator, AIM. */
    vh_fadm_decouple (&ref, &dis, &rb, &ab, bw, cw, ch, gain_limit,
        scratch.data ());
    cpu_sums[1] = vh_fadm_den_scale (&ref, bw, cw, ch, rf, &pool,
        scratch.data ());
    vh_fadm_csf (&ab, &csf_a, &csf_f, bw, cw, ch, rf);
    cpu_sums[0] = vh_fadm_cm (&rb, &csf_f, &csf_a, bw, cw, ch, rf, &pool,
        scratch.data ());
    vh_fadm_csf (&rb, &csf_f, &csf_a, bw, cw, ch, rf);
    cpu_sums[2] = vh_fadm_cm (&ab, &csf_a, &csf_f, bw, cw, ch, rf, &aim_pool,
        scratch.data ());

    vh_fadm_filter_rect (cw, ch, &fr);
    vh_fadm_score_rect (cw, ch, &sr);
    memset (&a, 0, sizeof (a));
    a.oh = gpu[0][2].data ();
    a.ov = gpu[0][3].data ();
    a.od = gpu[0][4].data ();
    a.th = gpu[1][2].data ();
    a.tv = gpu[1][3].data ();
    a.td = gpu[1][4].data ();
    a.rh = restored[0].data ();
    a.rv = restored[1].data ();
    a.rd = restored[2].data ();
    a.ah = additive[0].data ();
    a.av = additive[1].data ();
    a.ad = additive[2].data ();
    a.terms = terms.data ();
    a.rows = rows.data ();
    a.stride = bw;
    a.width = cw;
    a.height = ch;
    a.fl = fr.left;
    a.ft = fr.top;
    a.fr = fr.right;
    a.fb = fr.bottom;
    a.sl = sr.left;
    a.st = sr.top;
    a.sr = sr.right;
    a.sb = sr.bottom;
    memcpy (a.rf, rf, sizeof (rf));
    a.cos_1deg_sq = vh_fadm_cos_1deg_sq ();
    a.gain_limit = gain_limit;
    a.p_norm = p_norm;
    a.bypass_cm = bypass_cm;
    a.rcp_table = vh_fadm_rcp_table (&rcp_bits);
    a.rcp_shift = 23 - rcp_bits;
    vh_emu_launch (d3 (div_up (fr.right - fr.left, 32),
            div_up (fr.bottom - fr.top, 8)), d3 (32, 8), [&] {
          vh_fadm_decouple_bands (a);});
    vh_emu_launch (d3 (div_up (sr.right - sr.left, 32),
            div_up (sr.bottom - sr.top, 8)), d3 (32, 8), [&] {
          vh_fadm_terms (a);});
    vh_emu_launch (d3 (div_up (sr.bottom - sr.top, 64), 9), d3 (64, 1), [&] {
          vh_fadm_rows (a);});
    vh_emu_launch (d3 (1, 1), d3 (32, 1), [&] {
          vh_fadm_total (a, acc);});
    gpu_sums[0] = vh_fadm_pool_bands (acc, sr.right - sr.left,
        sr.bottom - sr.top, &pool);
    gpu_sums[1] = vh_fadm_pool_bands (acc + 3, sr.right - sr.left,
        sr.bottom - sr.top, &pool);
    gpu_sums[2] = vh_fadm_pool_bands (acc + 6, sr.right - sr.left,
        sr.bottom - sr.top, &aim_pool);
    snprintf (what, sizeof (what), "float_adm %ux%u level %u sums (p %g%s)",
        w, h, scale, p_norm, bypass_cm ? ", no masking" : "");
    compare (what, cpu_sums, gpu_sums, 3, 0);
  }
}

/* ---- psnr_hvs ---------------------------------------------------------- */

static void
test_psnr_hvs (unsigned int w, unsigned int h, unsigned int bpc,
    unsigned int step, GRand * r)
{
  const unsigned int bps = bpc > 8 ? 2 : 1, max = (1u << bpc) - 1;
  /* Padded, and a whole number of samples as in any real picture. */
  const size_t pitch = (size_t) w * step * bps + 5 * bps;
  std::vector<unsigned char> ref (pitch * h), dis (pitch * h);
  const unsigned int n_across = w >= 8 ? (w - 8) / 7 + 1 : 0;
  const unsigned int n_down = h >= 8 ? (h - 8) / 7 + 1 : 0;
  const unsigned int n_blocks = n_across * n_down;
  VhPsnrHvsTables tables[3];
  std::vector<float> terms[3];
  struct vh_hvs_sum_args sa;
  float sums[3];
  double cpu[3], gpu[3];
  char what[96];

  for (unsigned int y = 0; y < h; y++)
    for (unsigned int x = 0; x < w * step; x++) {
      int v = (int) (max * (0.5 + 0.4 * sin (x * 0.2 + y * 0.05))) +
          g_rand_int_range (r, -4, 5);
      int d = v + g_rand_int_range (r, -15, 16);
      v = CLAMP (v, 0, (int) max);
      d = CLAMP (d, 0, (int) max);
      if (bps == 1) {
        ref[y * pitch + x] = (unsigned char) v;
        dis[y * pitch + x] = (unsigned char) d;
      } else {
        ((guint16 *) (ref.data () + y * pitch))[x] = (guint16) v;
        ((guint16 *) (dis.data () + y * pitch))[x] = (guint16) d;
      }
    }
  memset (&sa, 0, sizeof (sa));
  for (unsigned int p = 0; p < 3; p++) {
    const VhPsnrHvsPlane rp = { ref.data (), pitch, step };
    const VhPsnrHvsPlane dp = { dis.data (), pitch, step };
    struct vh_hvs_plane_args a;

    vh_psnr_hvs_tables_init (&tables[p], p);
    cpu[p] = vh_psnr_hvs_plane_c (&rp, &dp, w, h, bpc, &tables[p]);
    terms[p].assign ((size_t) (n_blocks + 1) * 64, 0.0f);
    a.ref = ref.data ();
    a.dis = dis.data ();
    a.ref_pitch = pitch;
    a.dis_pitch = pitch;
    a.ref_step = step;
    a.dis_step = step;
    a.n_across = n_across;
    a.n_down = n_down;
    a.csf = tables[p].csf;
    a.mask = tables[p].mask;
    a.terms = terms[p].data ();
    if (n_blocks)
      vh_emu_launch (d3 (div_up (n_across, 16), div_up (n_down, 4)),
          d3 (16, 4), [&] {
            if (bps == 1)
              vh_hvs_blocks_u8 (a);
            else
              vh_hvs_blocks_u16 (a);});
    sa.terms[p] = terms[p].data ();
    sa.n_blocks[p] = n_blocks;
  }
  vh_emu_launch (d3 (3, 1), d3 (VH_HVS_SUM_THREADS, 1), [&] {
        vh_hvs_sum (sa, sums);});
  for (unsigned int p = 0; p < 3; p++) {
    float c = (float) cpu[p], g;
    gpu[p] = vh_psnr_hvs_plane_score (sums[p], (int) (64 * n_blocks), bpc);
    g = (float) gpu[p];
    snprintf (what, sizeof (what), "psnr_hvs %ux%u %u-bit (step %u) plane "
        "%u", w, h, bpc, step, p);
    compare (what, &c, &g, 1, 0);
    VH_TEST_CHECK (cpu[p] == gpu[p] || (isnan (cpu[p]) && isnan (gpu[p])),
        "%s: CPU %.17g, kernels %.17g", what, cpu[p], gpu[p]);
  }
}

/* One generator for every case, in the order they are registered. */
static GRand *draws;

static const float blur5[5] = {
  0.054488685, 0.244201342, 0.402619947, 0.244201342, 0.054488685
};
static const float blur3[3] = { 0.166378498, 0.667243004, 0.166378498 };

static void
test_motion_cases (void)
{
  test_motion (67, 45, 67, 8, 1, blur5, 5, draws);
  test_motion (33, 22, 72, 10, 2, blur3, 3, draws);
  test_motion (3, 3, 3, 16, 1, blur5, 5, draws);
  test_motion (41, 29, 48, 12, 2, blur5, 5, draws);
  printf ("# float_motion: blur and SAD as the CPU twin\n");
}

static void
test_scale_cases (void)
{
  test_scale (67, 45, 67, 34, 23, draws);
  test_scale (33, 22, 40, 17, 11, draws);
  test_scale (97, 53, 97, 146, 80, draws);
  test_scale (97, 53, 97, 194, 106, draws);
  printf ("# float-scale: nearest, bilinear, bicubic, lanczos4 as the CPU\n");
}

static void
test_vif_cases (void)
{
  test_vif (97, 53, 1.0f, draws);
  test_vif (211, 119, 0.5f, draws);
  test_vif (130, 67, 3.0f, draws);
  test_vif (64, 64, 360.0f / 97.0f, draws);
  printf ("# float_vif: decimation and sums as the CPU twin\n");
}

static void
test_adm_cases (void)
{
  test_adm (97, 53, 3.0, false, 100.0, draws);
  test_adm (67, 45, 2.5, false, 1.2, draws);
  test_adm (130, 67, 3.0, true, 100.0, draws);
  test_adm (17, 17, 3.0, false, 100.0, draws);
  printf ("# float_adm: bands and sums as the CPU twin (reciprocal table of "
      "%u bits)\n", adm_rcp_bits ());
}

static void
test_psnr_hvs_cases (void)
{
  test_psnr_hvs (97, 53, 8, 1, draws);
  test_psnr_hvs (67, 45, 10, 1, draws);
  test_psnr_hvs (130, 67, 12, 2, draws);
  test_psnr_hvs (7, 9, 8, 1, draws);
  test_psnr_hvs (8, 8, 8, 1, draws);
  test_psnr_hvs (640, 360, 10, 1, draws);
  printf ("# psnr_hvs: plane sums as the CPU twin\n");
}

int
main (int argc, char **argv)
{
  gint ret;

  g_test_init (&argc, &argv, NULL);
  draws = g_rand_new_with_seed (11);
  g_test_add_func ("/float-kernels/motion", test_motion_cases);
  g_test_add_func ("/float-kernels/scale", test_scale_cases);
  g_test_add_func ("/float-kernels/vif", test_vif_cases);
  g_test_add_func ("/float-kernels/adm", test_adm_cases);
  g_test_add_func ("/float-kernels/psnr-hvs", test_psnr_hvs_cases);
  ret = g_test_run ();
  g_rand_free (draws);
  return ret;
}
