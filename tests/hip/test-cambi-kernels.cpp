/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* CAMBI's GPU kernels (hip/features/kernels/cambi.hip) run on the host
 * through kernel-emu.h, step by step against the CPU twin's functions
 * (src/features/cambi*.c), launched as hip-cambi.c launches them: the
 * 10-bit picture, the mask, each scale's mode-filtered picture and c
 * values (both c value kernels; built a second time with a slot limit of
 * 3, VH_CAMBI_MAX_SLOTS, so that the slot kernel's per-pixel fallback
 * runs) equal bit for bit, and each
 * scale's pooled mean equal to the CPU twin's. Banded pictures of 8 to 16
 * bits, odd sizes, resized, with and without noise, over the options that
 * change the kernels' work. Needs no GPU. */

#include "kernel-emu.h"

/* The kernels' dynamically sized shared memory. */
#define VH_CAMBI_DYNAMIC_SHARED extern
unsigned int vh_cambi_shared[16384];

#include "cambi.hip"

extern "C"
{
#include "features/cambi-private.h"
}

#include "vh-test.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>


/* Luma in bands of one to three 10-bit codes, @noisy adds scattered
 * values (and low bits above 10-bit). */
static void
fill_banded (VhPicture * pic, guint seed, bool noisy)
{
  const guint bpc = pic->info.bpc;
  GRand *rand = g_rand_new_with_seed (seed);

  for (guint y = 0; y < pic->height[0]; y++) {
    guint8 *row = (guint8 *) vh_picture_row (pic, 0, y);
    for (guint x = 0; x < pic->width[0]; x++) {
      guint band = (x + y / 2 + seed) / 12;
      guint v10 = 200 + band * (1 + (y / 40 + seed) % 3), v;
      if (g_rand_int_range (rand, 0, 50) == 0)
        v10 += 1;
      if (noisy && g_rand_int_range (rand, 0, 7) == 0)
        v10 += g_rand_int_range (rand, 0, 40);
      v10 = MIN (v10, 1023);
      v = bpc >= 10 ? v10 << (bpc - 10) : v10 >> 2;
      if (bpc > 10 && noisy)
        v |= g_rand_int_range (rand, 0, 1 << (bpc - 10));
      if (bpc > 8)
        ((guint16 *) row)[x] = (guint16) v;
      else
        row[x] = (guint8) v;
    }
  }
  g_rand_free (rand);
}

struct Case
{
  guint bpc, w, h;
  guint enc_w, enc_h, enc_bitdepth;     /* 0: the picture's */
  guint window;                 /* as scaled for the picture */
  bool speedup;
  gdouble topk;
  guint max_log_contrast;
  gdouble tvi, vis_lum;
  VhCambiEotf eotf;
  bool noisy;
};

static void
dim (dim3 * d, guint x, guint y)
{
  d->x = x;
  d->y = y;
  d->z = 1;
}

static guint
div_up (guint a, guint b)
{
  return (a + b - 1) / b;
}

static bool
same_u16 (const char *what, const guint16 * gpu, gsize gpu_pitch,
    const guint16 * cpu, gsize cpu_pitch, guint w, guint h)
{
  for (guint i = 0; i < h; i++)
    for (guint j = 0; j < w; j++)
      if (gpu[i * gpu_pitch + j] != cpu[i * cpu_pitch + j]) {
        VH_TEST_CHECK (FALSE, "%s at (%u, %u): kernel %u, CPU %u", what, j,
            i, gpu[i * gpu_pitch + j], cpu[i * cpu_pitch + j]);
        return false;
      }
  return true;
}

static void
run_case (const Case & k, guint seed)
{
  VhPictureInfo info;
  vh_picture_info_init (&info, VH_PIX_FMT_YUV400, k.bpc, k.w, k.h, NULL);
  VhPicture *pic = vh_picture_new (&info);
  const guint ew = k.enc_w ? k.enc_w : k.w, eh = k.enc_h ? k.enc_h : k.h;
  const guint enc_bitdepth = k.enc_bitdepth ? k.enc_bitdepth : k.bpc;
  const bool resize = ew != k.w || eh != k.h;
  const gsize stride = (ew + 31) & ~31u;
  VhCambiContrast c;
  VhCambiPlanes p;
  GError *error = NULL;
  std::vector<guint16> image (ew * eh), scaled[2];
  std::vector<guint8> mask (ew * eh), scratch (vh_cambi_mask_scratch_size (ew));
  std::vector<guint32> pos (ew + eh);
  std::vector<gfloat> cpu_values (ew * eh), gpu_values (ew * eh);
  std::vector<guint16> work, mode_rows (3 * ew);
  guint32 offset[VH_CAMBI_NUM_SCALES], n[VH_CAMBI_NUM_SCALES],
      kk[VH_CAMBI_NUM_SCALES];
  gdouble cpu_mean[VH_CAMBI_NUM_SCALES];
  std::vector<gfloat> all_values;
  guint w = ew, h = eh, prev_w = ew;
  unsigned int range_max = 0;
  dim3 grid, block;

  fill_banded (pic, seed, k.noisy);
  vh_cambi_contrast_init (&c, k.max_log_contrast, k.tvi, k.vis_lum, k.eotf);
  p.image = g_new0 (guint16, stride * eh);
  p.mask = g_new0 (guint8, stride * eh);
  p.stride = stride;
  work.resize (vh_cambi_c_values_work_size (&c, ew, k.window));
  scaled[0].resize (ew * eh);
  scaled[1].resize (ew * eh);

  /* 10 bit and the mask. */
  if (!vh_cambi_load_luma (pic, &p, ew, eh, &error))
    g_error ("load: %s", error->message);
  if (enc_bitdepth < 10)
    vh_cambi_anti_dither (&p, ew, eh);
  vh_cambi_spatial_mask (&p, ew, eh, scratch.data ());
  vh_cambi_nearest_positions (k.w, ew, pos.data ());
  vh_cambi_nearest_positions (k.h, eh, pos.data () + ew);
  vh_cambi_load_args load = {
    (const unsigned char *) pic->data[0], pic->stride[0],
    resize ? pos.data () : NULL, resize ? pos.data () + ew : NULL,
    image.data (), ew, ew, eh, k.bpc, enc_bitdepth < 10, k.w, k.h, 0,
    &range_max
  };
  dim (&grid, div_up (ew, 32), div_up (eh, 8));
  dim (&block, 32, 8);
  vh_emu_launch (grid, block, [&] { vh_cambi_load (load); });
  if (!same_u16 ("10-bit picture", image.data (), ew, p.image, stride, ew,
          eh))
    goto out;
  if (k.bpc == 10 || k.bpc == 12) {
    dim (&grid, MIN (div_up (k.w, 256), 4u), k.h);
    dim (&block, 256, 1);
    vh_emu_launch (grid, block, [&] { vh_cambi_range (load); });
    if (range_max >= (1u << k.bpc) || range_max < (1u << (k.bpc - 3)))
      VH_TEST_CHECK (FALSE, "largest sample %u at %u bits", range_max,
          k.bpc);
  }
  {
    vh_cambi_mask_args m = { image.data (), mask.data (), ew, ew, eh,
      (guint8) vh_cambi_flat_threshold (ew, eh)
    };
    dim (&grid, div_up (ew, 32), div_up (eh, 8));
    dim (&block, 32, 8);
    vh_emu_launch (grid, block, [&] { vh_cambi_mask (m); });
    for (guint i = 0; i < eh * ew; i++)
      if (mask[i] != p.mask[(i / ew) * stride + i % ew]) {
        VH_TEST_CHECK (FALSE, "mask at (%u, %u)", i % ew, i / ew);
        goto out;
      }
  }

  /* Each scale. */
  for (guint s = 0, off = 0; s < VH_CAMBI_NUM_SCALES; s++) {
    const bool decimate = s > 0 || k.speedup;
    if (decimate) {
      w = (w + 1) >> 1;
      h = (h + 1) >> 1;
      vh_cambi_decimate (&p, w, h);
    }
    vh_cambi_mode_filter (&p, w, h, mode_rows.data ());
    vh_cambi_c_values (&p, &c, w, h, k.window, work.data (),
        cpu_values.data ());
    vh_cambi_mode_args mode = {
      s == 0 ? image.data () : scaled[(s - 1) & 1].data (),
      scaled[s & 1].data (), s == 0 ? ew : prev_w, decimate ? 2u : 1u, w, h
    };
    dim (&grid, div_up (w, 32), div_up (h, 8));
    dim (&block, 32, 8);
    vh_emu_launch (grid, block, [&] { vh_cambi_mode (mode); });
    if (!same_u16 ("mode filter", scaled[s & 1].data (), w, p.image, stride,
            w, h))
      goto out;

    vh_cambi_c_values_args cv = {
      scaled[s & 1].data (), mask.data (), c.steps,
      vh_cambi_reciprocals (), gpu_values.data (), (unsigned int) ew,
      s + (k.speedup ? 1u : 0u), w, h, k.window / 2, c.band_base,
      c.band_size, c.num_diffs, {0}
    };
    memcpy (cv.weight, c.weight, sizeof (cv.weight));
    for (int kernel = 0; kernel < 2; kernel++) {
      const char *names[] = { "per-pixel", "slots" };
      if (kernel > 0 && c.num_diffs > VH_CAMBI_SLOT_DIFFS)
        break;
      memset (gpu_values.data (), 0xff, sizeof (gfloat) * w * h);
      if (kernel == 0) {
        dim (&grid, div_up (w, 16), div_up (h, 16));
        dim (&block, 16, 16);
        vh_emu_launch (grid, block, [&] { vh_cambi_c_values_tile (cv); });
      } else {
        dim (&grid, div_up (w, 32), div_up (h, 32));
        dim (&block, 32, 8);
        vh_emu_launch (grid, block, [&] { vh_cambi_c_values_slots (cv); });
      }
      for (guint i = 0; i < w * h; i++)
        if (memcmp (&gpu_values[i], &cpu_values[i], sizeof (gfloat))) {
          VH_TEST_CHECK (FALSE, "c value of scale %u at (%u, %u), %s "
              "kernel: %.9g, CPU %.9g", s, i % w, i / w, names[kernel],
              gpu_values[i], cpu_values[i]);
          goto out;
        }
    }
    offset[s] = off;
    n[s] = w * h;
    kk[s] = vh_cambi_topk_count (w * h, k.topk);
    all_values.resize (off + ((w * h + 3) & ~3u));
    memcpy (all_values.data () + off, gpu_values.data (),
        sizeof (gfloat) * w * h);
    cpu_mean[s] = vh_cambi_topk_mean (cpu_values.data (), w * h, k.topk);
    off += (w * h + 3) & ~3u;
    prev_w = w;
  }

  /* Pooling, all scales at once. */
  {
    std::vector<unsigned int> hist (VH_CAMBI_NUM_SCALES *
        VH_CAMBI_HIST_STRIDE);
    vh_cambi_select_state state[VH_CAMBI_NUM_SCALES];
    vh_cambi_scale_result result[VH_CAMBI_NUM_SCALES];
    vh_cambi_pool_args pool;

    memset (state, 0, sizeof (state));
    memset (result, 0, sizeof (result));
    memset (&pool, 0, sizeof (pool));
    pool.values = all_values.data ();
    memcpy (pool.offset, offset, sizeof (offset));
    memcpy (pool.n, n, sizeof (n));
    memcpy (pool.k, kk, sizeof (kk));
    pool.hist = hist.data ();
    pool.state = state;
    pool.result = result;
    /* A few blocks, so that their partial sums meet. */
    dim (&grid, MIN (div_up (n[0], 4096), 5u), VH_CAMBI_NUM_SCALES);
    dim (&block, 256, 1);
    for (pool.pass = 0; pool.pass < 3; pool.pass++) {
      vh_emu_launch (grid, block, [&] { vh_cambi_hist (pool); });
      dim3 one = { 1, VH_CAMBI_NUM_SCALES, 1 };
      vh_emu_launch (one, block, [&] { vh_cambi_select (pool); });
    }
    vh_emu_launch (grid, block, [&] { vh_cambi_sum (pool); });
    for (guint s = 0; s < VH_CAMBI_NUM_SCALES; s++) {
      union
      {
        guint32 u;
        gfloat f;
      } t;
      t.u = result[s].t_bits;
      gdouble mean = vh_cambi_topk_finish (result[s].sum_hi,
          result[s].sum_lo, result[s].above, t.f, kk[s]);
      if (result[s].error || mean != cpu_mean[s])
        VH_TEST_CHECK (FALSE, "pooled scale %u: kernels %.17g (error %u), "
            "CPU %.17g", s, mean, result[s].error, cpu_mean[s]);
    }
  }
  printf ("# %u-bit %ux%u scored at %ux%u (depth %u), window %u%s, topk %g, "
      "contrast %u, tvi %g, vis_lum %g, eotf %d%s: pooled %.6f %.6f %.6f "
      "%.6f %.6f\n", k.bpc, k.w, k.h, ew, eh, enc_bitdepth, k.window,
      k.speedup ? " (speedup)" : "", k.topk, c.num_diffs, k.tvi, k.vis_lum,
      k.eotf, k.noisy ? ", noisy" : "", cpu_mean[0], cpu_mean[1],
      cpu_mean[2], cpu_mean[3], cpu_mean[4]);
out:
  g_free (p.image);
  g_free (p.mask);
  vh_picture_unref (pic);
}

static const Case cases[] = {
  {8, 301, 217, 0, 0, 0, 17, false, 0.6, 2, 0.019, 0, VH_CAMBI_EOTF_BT1886,
      false},
  {10, 229, 151, 0, 0, 0, 9, false, 0.6, 2, 0.019, 0, VH_CAMBI_EOTF_BT1886,
      true},
  {12, 217, 223, 0, 0, 0, 33, false, 0.2, 4, 0.012, 0, VH_CAMBI_EOTF_PQ,
      false},
  {16, 250, 97, 0, 0, 0, 65, false, 1.0, 5, 0.019, 0, VH_CAMBI_EOTF_BT1886,
      true},
  {10, 400, 300, 320, 240, 8, 17, false, 0.6, 2, 0.019, 1,
      VH_CAMBI_EOTF_BT1886, false},
  {8, 640, 360, 0, 0, 0, 33, true, 0.6, 2, 0.019, 1, VH_CAMBI_EOTF_BT1886,
      false},
  {10, 300, 220, 0, 0, 0, 11, false, 0.0001, 0, 0.019, 300,
      VH_CAMBI_EOTF_BT1886, true},
  {10, 333, 250, 0, 0, 0, 65, false, 0.6, 2, 0.019, 0,
      VH_CAMBI_EOTF_BT1886, true},
  {12, 257, 219, 0, 0, 0, 17, false, 0.6, 1, 0.019, 0,
      VH_CAMBI_EOTF_BT1886, true},
  {16, 220, 230, 0, 0, 0, 21, false, 0.6, 3, 0.5, 10, VH_CAMBI_EOTF_PQ,
      true},
};

/* One case of the table; its number (from 1) seeds its pictures. */
static void
test_case (gconstpointer data)
{
  const Case *k = (const Case *) data;

  run_case (*k, (guint) (k - cases) + 1);
}

int
main (int argc, char **argv)
{
  /* Under valgrind, every third case: the same code on other sizes and
   * options, 20 times slower there; every case runs natively and under
   * ASan. */
  guint step = g_getenv ("VH_TEST_FEWER_CASES") ? 3 : 1;

  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i += step) {
    g_autofree gchar *path = g_strdup_printf ("/cambi-kernels/%u", i + 1);
    g_test_add_data_func (path, &cases[i], test_case);
  }
  return g_test_run ();
}
