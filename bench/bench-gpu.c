/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The engine's throughput, in-process, frames already in memory:
 * vmaf_v0.6.1 at 1920x1080 and 3840x2160 (--sizes), in one run:
 *
 *  - HIP, frames already in HIP device memory;
 *  - HIP, frames in system memory (the engine uploads each one);
 *  - CPU, on every core (--threads N for N);
 *
 * then vmaf_v1.0.16_3d0h (vmaf_v1.0.16_3d0h_2160 at 2160p) and
 * vmaf_float_v0.6.1 from HIP memory and on the CPU, then each HIP twin alone (frames in HIP memory), as
 * milliseconds per frame, and cambi with the options of the vmaf_v1.0.16
 * models. Frames are made by scaling up the in-tree golden clip (8-bit
 * 321x241, tests/data/golden), so nothing outside the tree is needed. Every
 * submission wraps the samples in a new picture, so the system-memory runs
 * upload every frame (a picture keeps its device copy).
 *
 * With --no-gpu only the CPU runs, and no GPU is needed: e.g. the CPU's
 * scaling, --no-gpu --sizes 324,1080 --threads 1, then --threads 2.
 *
 * Usage: bench-gpu [--frames N] [--cpu-frames N] [--threads N]
 *                  [--golden DIR] [--sizes 1080,2160] [--no-cpu | --no-gpu]
 * Exits 77 without a usable GPU, unless --no-gpu. */

#include "context.h"
#include "hip-features.h"
#include "hip-picture.h"
#include "model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SRC_W 321
#define SRC_H 241
#define N_SRC 8                 /* distinct frames per side */

typedef struct
{
  VhPicture *host[N_SRC][2];    /* [frame][ref, dist] */
  VhPicture *dev[N_SRC][2];
} Frames;

typedef enum
{
  MODE_HIP_DEVICE,
  MODE_HIP_SYSTEM,
  MODE_CPU,
} Mode;

static guint n_frames_hip = 0;  /* 0: by size */
static guint n_frames_cpu = 0;
static guint n_threads = 0;
static gchar *golden_dir = NULL;
static gchar *sizes = NULL;
static gboolean no_cpu = FALSE;
static gboolean no_gpu = FALSE;
/* Options of the one feature run() scores, NULL for its defaults. */
static const gchar *const *feature_options = NULL;

static GOptionEntry entries[] = {
  {"frames", 0, 0, G_OPTION_ARG_INT, &n_frames_hip,
      "frames per GPU run (default 1500 at 1080p, 600 at 2160p)", "N"},
  {"cpu-frames", 0, 0, G_OPTION_ARG_INT, &n_frames_cpu,
      "frames per CPU run (default 240 at 1080p, 64 at 2160p)", "N"},
  {"threads", 0, 0, G_OPTION_ARG_INT, &n_threads,
      "engine threads (default: one per core)", "N"},
  {"golden", 0, 0, G_OPTION_ARG_FILENAME, &golden_dir,
      "directory with d_321x241_8bit_ref.yuv and _x264.yuv", "DIR"},
  {"sizes", 0, 0, G_OPTION_ARG_STRING, &sizes,
      "heights to run, comma-separated (default 1080,2160)", "LIST"},
  {"no-cpu", 0, 0, G_OPTION_ARG_NONE, &no_cpu, "skip the CPU runs", NULL},
  {"no-gpu", 0, 0, G_OPTION_ARG_NONE, &no_gpu,
      "skip the GPU runs (no GPU needed)", NULL},
  {NULL}
};

/* Reads frames 0 .. N_SRC-1 of a 321x241 8-bit 4:2:0 file. */
static gboolean
read_source (const gchar * path, guint8 * planes[N_SRC][3], GError ** error)
{
  const gsize cw = (SRC_W + 1) / 2, ch = (SRC_H + 1) / 2;
  const gsize frame = (gsize) SRC_W * SRC_H + 2 * cw * ch;
  gchar *data;
  gsize len;

  if (!g_file_get_contents (path, &data, &len, error))
    return FALSE;
  if (len < frame * N_SRC) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
        "%s: fewer than %u frames", path, N_SRC);
    g_free (data);
    return FALSE;
  }
  for (guint f = 0; f < N_SRC; f++) {
    const guint8 *base = (const guint8 *) data + f * frame;
    planes[f][0] = g_memdup2 (base, (gsize) SRC_W * SRC_H);
    planes[f][1] = g_memdup2 (base + (gsize) SRC_W * SRC_H, cw * ch);
    planes[f][2] = g_memdup2 (base + (gsize) SRC_W * SRC_H + cw * ch,
        cw * ch);
  }
  g_free (data);
  return TRUE;
}

/* Nearest-neighbour scaling of one source frame to @info. */
static VhPicture *
scale_up (const VhPictureInfo * info, guint8 * src[3])
{
  VhPicture *pic = vh_picture_new (info);

  for (guint p = 0; p < pic->n_planes; p++) {
    const guint sw = p ? (SRC_W + 1) / 2 : SRC_W;
    const guint sh = p ? (SRC_H + 1) / 2 : SRC_H;
    for (guint y = 0; y < pic->height[p]; y++) {
      const guint8 *srow = src[p] + (gsize) (y * sh / pic->height[p]) * sw;
      guint8 *d = vh_picture_row (pic, p, y);
      for (guint x = 0; x < pic->width[p]; x++)
        d[x] = srow[x * sw / pic->width[p]];
    }
  }
  return pic;
}

/* A new picture sharing @pic's samples (and holding @pic). */
static VhPicture *
rewrap (VhPicture * pic)
{
  return vh_picture_new_wrapped (&pic->info, pic->data, pic->stride,
      pic->step, pic->mem_type, vh_picture_ref (pic),
      (GDestroyNotify) vh_picture_unref);
}

static const gchar *
mode_name (Mode mode)
{
  switch (mode) {
    case MODE_HIP_DEVICE:
      return "HIP, frames in HIP memory";
    case MODE_HIP_SYSTEM:
      return "HIP, frames in system memory";
    case MODE_CPU:
      return "CPU";
  }
  return "?";
}

typedef struct
{
  gdouble fps;
  gdouble mean;                 /* of the first model, or of @feature, over
                                 * the first n_mean frames */
  gchar *dispatch;
} Result;

/* Scores @n frames (after a warm-up context of a few frames, which loads
 * the kernels) and returns the throughput. @feature: one feature instead of
 * the model (NULL: vmaf_v0.6.1). */
static Result
run_model (Frames * fr, Mode mode, VhPictureTransfer * transfer, guint n,
    guint n_mean, const gchar * model, const gchar * feature)
{
  Result res = { 0, 0, NULL };
  VhContextConfig cfg = { 0 };
  const VhPictureInfo *info = &fr->host[0][0]->info;

  cfg.n_threads = n_threads;
  cfg.backends = mode == MODE_CPU ? VH_BACKEND_CPU :
      VH_BACKEND_HIP | VH_BACKEND_CPU;
  cfg.transfer = mode == MODE_CPU ? NULL : transfer;
  cfg.extractors = vh_hip_extractor_set ();

  for (guint pass = 0; pass < 2; pass++) {
    const guint count = pass == 0 ? MIN (n, 24) : n;
    VhContext *ctx = vh_context_new (&cfg);
    GError *error = NULL;
    gint64 t0;
    gdouble secs, sum = 0;
    const gchar *name;
    VhFeatureCollector *fc;

    if (feature) {
      if (!vh_context_add_feature (ctx, feature, feature_options, &error))
        g_error ("%s: %s", feature, error->message);
    } else if (!vh_context_add_model (ctx, vh_model_new_builtin
            (model ? model : "vmaf_v0.6.1", NULL, &error), &error)) {
      g_error ("model: %s", error->message);
    }
    if (!vh_context_start (ctx, info, &error))
      g_error ("start: %s", error->message);
    t0 = g_get_monotonic_time ();
    for (guint i = 0; i < count; i++) {
      VhPicture *const *pair = mode == MODE_HIP_DEVICE ?
          fr->dev[i % N_SRC] : fr->host[i % N_SRC];
      g_autoptr (VhPicture) ref = rewrap (pair[0]);
      g_autoptr (VhPicture) dist = rewrap (pair[1]);
      if (!vh_context_submit (ctx, ref, dist, NULL, &error))
        g_error ("submit: %s", error->message);
    }
    if (!vh_context_finish (ctx, &error))
      g_error ("finish: %s", error->message);
    secs = (g_get_monotonic_time () - t0) / 1e6;

    fc = vh_context_get_collector (ctx);
    if (feature) {
      g_autoptr (GPtrArray) names = vh_context_output_names (ctx);
      name = names->len ? g_ptr_array_index (names, 0) : NULL;
      name = name ? g_intern_string (name) : NULL;
    } else {
      name = vh_model_get_name (vh_context_get_model (ctx, 0));
    }
    n_mean = MIN (n_mean, count);
    for (guint i = 0; name && i < n_mean; i++) {
      gdouble v = 0;
      vh_feature_collector_get (fc, name, i, &v);
      sum += v;
    }
    if (pass == 1) {
      res.fps = count / secs;
      res.mean = sum / n_mean;
      res.dispatch = vh_context_describe_dispatch (ctx);
    }
    vh_context_free (ctx);
  }
  return res;
}

static Result
run (Frames * fr, Mode mode, VhPictureTransfer * transfer, guint n,
    guint n_mean, const gchar * feature)
{
  return run_model (fr, mode, transfer, n, n_mean, NULL, feature);
}

static void
free_frames (Frames * fr)
{
  for (guint f = 0; f < N_SRC; f++) {
    for (guint s = 0; s < 2; s++) {
      g_clear_pointer (&fr->host[f][s], vh_picture_unref);
      g_clear_pointer (&fr->dev[f][s], vh_picture_unref);
    }
  }
}

int
main (int argc, char **argv)
{
  g_autoptr (GOptionContext) octx = g_option_context_new (NULL);
  g_autoptr (GError) error = NULL;
  guint8 *src[2][N_SRC][3];
  g_auto (GStrv) heights = NULL;
  VhHipDevice *device = NULL;
  VhPictureTransfer *transfer = NULL;
  VhContextConfig selected = { 0 };
  gchar *path;

  g_option_context_add_main_entries (octx, entries, NULL);
  if (!g_option_context_parse (octx, &argc, &argv, &error)) {
    g_printerr ("%s\n", error->message);
    return 2;
  }
  if (no_cpu && no_gpu) {
    g_printerr ("--no-cpu and --no-gpu leave nothing to run\n");
    return 2;
  }
  if (!n_threads)
    n_threads = g_get_num_processors ();
  if (!golden_dir)
    golden_dir = g_file_test ("tests/data/golden/yuv", G_FILE_TEST_IS_DIR) ?
        g_strdup ("tests/data/golden/yuv") :
        g_strdup (VH_SOURCE_ROOT "/tests/data/golden/yuv");
  heights = g_strsplit (sizes ? sizes : "1080,2160", ",", -1);

  if (!no_gpu) {
    if (!vh_hip_select_backend (VH_BACKEND_CHOICE_HIP,
            VH_HIP_VENDOR_UNKNOWN, 0, &selected, NULL, &error)) {
      g_print ("SKIP: %s\n", error->message);
      return 77;
    }
    transfer = selected.transfer;
    device = vh_picture_transfer_get_device (transfer);
  }

  for (guint s = 0; s < 2; s++) {
    path = g_build_filename (golden_dir, s ? "d_321x241_8bit_x264.yuv" :
        "d_321x241_8bit_ref.yuv", NULL);
    if (!read_source (path, src[s], &error)) {
      g_printerr ("%s\n", error->message);
      return 1;
    }
    g_free (path);
  }

  if (device) {
    const VhHipDeviceInfo *dinfo = vh_hip_device_get_info (device);
    g_print ("vmaf_v0.6.1 throughput on %s (%s, %u SMs/CUs); engine "
        "threads: %u; CPU runs on %u threads\n", dinfo->name, dinfo->arch,
        dinfo->multiprocessors, n_threads, n_threads);
  } else {
    g_print ("vmaf_v0.6.1 throughput on the CPU, %u threads\n", n_threads);
  }
  g_print ("%-10s %14s %14s %14s   mean VMAF of the first CPU frames "
      "(dev / sys / cpu)\n", "size",
      "HIP (HIP mem)", "HIP (sys mem)", "CPU");

  for (guint h = 0; heights[h]; h++) {
    const guint height = atoi (heights[h]);
    const guint width = height == 2160 ? 3840 : height == 1080 ? 1920 :
        (height * 16 / 9 + 1) & ~1u;
    const gboolean big = height > 1080;
    const guint nh = n_frames_hip ? n_frames_hip : big ? 600 : 1500;
    const guint nc = n_frames_cpu ? n_frames_cpu : big ? 64 : 240;
    VhPictureInfo info;
    Frames fr = { 0 };
    Result r[3] = { {0} };

    vh_picture_info_init (&info, VH_PIX_FMT_YUV420, 8, width, height, NULL);
    for (guint f = 0; f < N_SRC; f++) {
      for (guint s = 0; s < 2; s++) {
        fr.host[f][s] = scale_up (&info, src[s][f]);
        if (!device)
          continue;
        fr.dev[f][s] = vh_hip_picture_upload (device, fr.host[f][s], &error);
        if (!fr.dev[f][s])
          g_error ("upload: %s", error->message);
      }
    }
    /* Means over the same frames, so that they must agree. */
    if (device) {
      r[0] = run (&fr, MODE_HIP_DEVICE, transfer, nh, nc, NULL);
      r[1] = run (&fr, MODE_HIP_SYSTEM, transfer, nh, nc, NULL);
    }
    if (!no_cpu)
      r[2] = run (&fr, MODE_CPU, NULL, nc, nc, NULL);
    g_print ("%ux%-5u %14.1f %14.1f %14.1f   %.4f / %.4f / %.4f\n", width,
        height, r[0].fps, r[1].fps, r[2].fps, r[0].mean, r[1].mean,
        r[2].mean);
    if (r[0].dispatch)
      g_print ("  %s: %s\n", mode_name (MODE_HIP_DEVICE), r[0].dispatch);
    if (r[2].dispatch)
      g_print ("  %s: %s\n", mode_name (MODE_CPU), r[2].dispatch);

    /* The newest model (CAMBI, SpEED, ADM, motion), and the float one
     * (float_vif, float_adm, float_motion). */
    for (guint k = 0; k < 2; k++) {
      const gchar *model = k ? "vmaf_float_v0.6.1" :
          big ? "vmaf_v1.0.16_3d0h_2160" : "vmaf_v1.0.16_3d0h";
      Result m[2] = { {0} };
      if (device)
        m[0] = run_model (&fr, MODE_HIP_DEVICE, transfer, nh, nc, model,
            NULL);
      if (!no_cpu)
        m[1] = run_model (&fr, MODE_CPU, NULL, nc, nc, model, NULL);
      g_print ("  %s: %.1f fps HIP (HIP mem), %.1f fps CPU; mean %.4f / "
          "%.4f\n", model, m[0].fps, m[1].fps, m[0].mean, m[1].mean);
      if (m[0].dispatch)
        g_print ("    %s: %s\n", mode_name (MODE_HIP_DEVICE), m[0].dispatch);
      g_free (m[0].dispatch);
      g_free (m[1].dispatch);
    }

    {
      /* SSIMULACRA 2 alone (issue 33's targets from HIP memory: 1,000 fps
       * at 1080p, 250 at 2160p), and on the CPU (few frames: slow). */
      const guint target = height == 1080 ? 1000 : height == 2160 ? 250 : 0;
      Result t[2] = { {0} };

      if (device)
        t[0] = run (&fr, MODE_HIP_DEVICE, transfer, MIN (nh, 600), 1,
            "ssimulacra2");
      if (!no_cpu)
        t[1] = run (&fr, MODE_CPU, NULL, MIN (nc, 16), 1, "ssimulacra2");
      g_print ("  ssimulacra2 alone: %.1f fps HIP (HIP mem; %.3f ms/frame",
          t[0].fps, t[0].fps > 0 ? 1000.0 / t[0].fps : 0.0);
      if (target)
        g_print ("; target %u fps: %s", target,
            t[0].fps >= target ? "met" : "not met");
      g_print ("), %.2f fps CPU; mean %.4f / %.4f\n", t[1].fps, t[0].mean,
          t[1].mean);
      g_free (t[0].dispatch);
      g_free (t[1].dispatch);
    }

    if (!device) {
      for (guint i = 0; i < 3; i++)
        g_free (r[i].dispatch);
      free_frames (&fr);
      continue;
    }
    /* Each HIP twin alone, from HIP memory. */
    g_print ("  each HIP twin alone (HIP memory), ms per frame:");
    {
      const VhFeatureExtractorClass *const *twins =
          vh_hip_features_list (NULL);
      for (guint i = 0; twins[i]; i++) {
        Result t;
        if (width < twins[i]->min_width || height < twins[i]->min_height)
          continue;
        t = run (&fr, MODE_HIP_DEVICE, transfer, MIN (nh, 600), 1,
            twins[i]->name);
        g_print (" %s %.3f", twins[i]->name, 1000.0 / t.fps);
        g_free (t.dispatch);
      }
    }
    g_print ("\n");
    {
      /* cambi as the vmaf_v1.0.16 models run it. */
      static const gchar *const v1016[] = { "cambi_high_res_speedup", "1080",
        "cambi_vis_lum_threshold", "0.06", "cambi_max_val", "17", NULL
      };
      Result t;
      feature_options = v1016;
      t = run (&fr, MODE_HIP_DEVICE, transfer, MIN (nh, 600), 1, "cambi");
      feature_options = NULL;
      g_print ("  cambi with vmaf_v1.0.16's options (HIP memory): %.3f ms "
          "per frame, %.1f fps\n", 1000.0 / t.fps, t.fps);
      g_free (t.dispatch);
    }
    {
      /* speed_chroma as vmaf_v1.0.16_3d0h (_2160: prescaled) runs it. */
      static const gchar *const v1016[] = { "speed_nn_floor", "0.1",
        "speed_sigma_nn", "0.19", "speed_weight_var_mode", "5",
        "speed_max_val", "45.0", NULL
      };
      static const gchar *const v1016_2160[] = { "speed_nn_floor", "0.1",
        "speed_sigma_nn", "0.19", "speed_weight_var_mode", "5",
        "speed_max_val", "45.0", "speed_prescale", "0.5",
        "speed_prescale_method", "bilinear", NULL
      };
      Result t;
      feature_options = big ? v1016_2160 : v1016;
      t = run (&fr, MODE_HIP_DEVICE, transfer, MIN (nh, 600), 1,
          "speed_chroma");
      feature_options = NULL;
      g_print ("  speed_chroma with %s's options (HIP memory): %.3f ms per "
          "frame, %.1f fps\n", big ? "vmaf_v1.0.16_3d0h_2160" :
          "vmaf_v1.0.16_3d0h", 1000.0 / t.fps, t.fps);
      g_free (t.dispatch);
    }
    for (guint i = 0; i < 3; i++)
      g_free (r[i].dispatch);
    free_frames (&fr);
  }

  for (guint s = 0; s < 2; s++)
    for (guint f = 0; f < N_SRC; f++)
      for (guint p = 0; p < 3; p++)
        g_free (src[s][f][p]);
  if (transfer)
    vh_picture_transfer_unref (transfer);
  return 0;
}
