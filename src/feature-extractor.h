/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#ifndef __VH_FEATURE_EXTRACTOR_H__
#define __VH_FEATURE_EXTRACTOR_H__

#include <glib.h>

#include "feature-collector.h"
#include "options.h"
#include "picture.h"

G_BEGIN_DECLS

typedef enum
{
  VH_BACKEND_CPU = 1 << 0,
  VH_BACKEND_HIP = 1 << 1,
} VhBackend;

typedef enum
{
  /* Needs the frames in order, one instance per stream: never run in
   * parallel across frames, and may emit values late (on a later frame or
   * in flush). */
  VH_EXTRACTOR_FLAG_TEMPORAL = 1 << 0,
  /* @extract reads the luma plane only, whatever its options: when every
   * extractor that reads device memory says so, frames go to the device
   * without their chroma (a third less to stage and copy for 4:2:0); when
   * every extractor says so (vh_context_reads_chroma()), the chroma need
   * not even be read from the file. Set it only on code that never
   * touches planes 1 and 2 (tests/test-luma-only.c runs every flagged
   * CPU extractor on pictures whose chroma is absent). */
  VH_EXTRACTOR_FLAG_LUMA_ONLY = 1 << 1,
} VhExtractorFlags;

/* Instruction sets an extractor may be kept from using, with libvmaf's
 * --cpumask bits (a set bit forbids; other bits mean nothing here). The
 * hand-vectorised paths give the same numbers as the portable ones, except
 * SpEED's covariance sums, which follow libvmaf's order for each level. */
typedef enum
{
  VH_CPU_FLAG_AVX2 = 1 << 3,    /* and every SIMD path: the portable code */
  VH_CPU_FLAG_AVX512 = 1 << 4,
} VhCpuFlags;

/* A mask that leaves only the portable code. */
#define VH_CPU_MASK_PORTABLE (VH_CPU_FLAG_AVX2 | VH_CPU_FLAG_AVX512)

typedef struct _VhFeatureExtractor VhFeatureExtractor;
typedef struct _VhFeatureExtractorClass VhFeatureExtractorClass;

/**
 * VhFeatureExtractorClass:
 * @name: extractor name as libvmaf spells it ("vif", "adm", "motion",
 *   "psnr", "float_ssim", ...); what --feature and model files ask for
 * @provides: NULL-terminated output names with default options
 * @options: NULL-name-terminated option specs, may be NULL
 * @backend: where it runs (one flag per registration)
 * @mem_type: which picture memory @extract takes
 * @min_width, @min_height: the smallest luma size it accepts
 * @priv_size: bytes of zeroed private state allocated per instance
 * @lookahead: frames after frame i that must be extracted before frame i's
 *   values are final; 0 for most (the most any option setting needs)
 * @history: temporal classes: how many frames before frame i its values
 *   depend on, where a sequence starts included: an instance fed frames
 *   from frame i - @history on gives frame i's values exactly, whatever
 *   came before. What lets a CPU twin take over from a GPU twin that
 *   failed mid-stream (context.c); 0: only from the start of the sequence
 * @init: set up for pictures of @info
 * @extract: score one (reference, distorted) pair, frame @index; append
 *   values with vh_feature_extractor_append()
 * @flush: end of stream; temporal extractors emit what they held back
 * @close: free what @init allocated (not the private block itself)
 * @is_temporal: optional, see vh_feature_extractor_is_temporal()
 */
struct _VhFeatureExtractorClass
{
  const gchar *name;
  const gchar *const *provides;
  const VhOptionSpec *options;
  VhBackend backend;
  VhMemoryType mem_type;
  VhExtractorFlags flags;
  guint min_width;
  guint min_height;
  gsize priv_size;
  guint lookahead;
  guint history;

  gboolean (*init) (VhFeatureExtractor * fex, const VhPictureInfo * info,
      GError ** error);
  gboolean (*extract) (VhFeatureExtractor * fex, const VhPicture * ref,
      const VhPicture * dist, guint index, VhFeatureCollector * fc,
      GError ** error);
  gboolean (*flush) (VhFeatureExtractor * fex, VhFeatureCollector * fc,
      GError ** error);
  void (*close) (VhFeatureExtractor * fex);
  /* Optional: TRUE when this instance's options make it temporal although
   * the class is not (psnr's stream aggregate needs every frame). */
  gboolean (*is_temporal) (const VhFeatureExtractor * fex);
  /* Optional, for a twin that cannot do every setting of its CPU twin's
   * options yet: NULL when this instance's options can run here, else why
   * not (a static string); the context then runs the CPU twin instead. */
  const gchar *(*unsupported) (const VhFeatureExtractor * fex);
};

struct _VhFeatureExtractor
{
  const VhFeatureExtractorClass *klass;
  VhOptionValues options;
  gchar *suffix;                /* libvmaf name suffix from non-default options */
  VhPictureInfo info;
  gpointer priv;
  gboolean initialized;
  /* GPU extractors: the device to run on (a VhHipDevice*, not owned), set
   * by the context before init; NULL for CPU extractors. */
  gpointer device;
  /* VhCpuFlags its kernels may not use, read at init (the context's
   * cpu_mask); 0: whatever the CPU has. */
  guint cpu_mask;
  /* Log order (log-order.h), set by the context: the extractor's place
   * in registration order (G_MAXUINT: none), whether logs follow
   * libvmaf's thread-pool order, and the writes of the current call
   * (log_flushing: that call is the flush). */
  guint log_slot;
  gboolean log_pooled;
  guint log_seq;
  gboolean log_flushing;
  /* While a CPU twin takes over from a GPU twin that failed (context.c):
   * values of frames below @replay_from, and values the collector holds
   * already, are dropped instead of written twice. */
  gboolean replaying;
  guint replay_from;
};

/* Creates an instance with default options. */
VhFeatureExtractor *vh_feature_extractor_new      (const VhFeatureExtractorClass * klass);

gboolean     vh_feature_extractor_set_option      (VhFeatureExtractor * fex,
                                                   const gchar * name,
                                                   const gchar * value,
                                                   GError ** error);

/* Copies @src's options into a fresh, uninitialised instance. */
VhFeatureExtractor *vh_feature_extractor_clone    (const VhFeatureExtractor * src);

/* The same, of @klass, a twin of @src's class with the same options (the
 * CPU twin of a HIP class); NULL when their options differ. */
VhFeatureExtractor *vh_feature_extractor_clone_as (const VhFeatureExtractor * src,
                                                   const VhFeatureExtractorClass * klass);

/* Checks the size against the class minimum, then calls init. */
gboolean     vh_feature_extractor_init            (VhFeatureExtractor * fex,
                                                   const VhPictureInfo * info,
                                                   GError ** error);

gboolean     vh_feature_extractor_extract         (VhFeatureExtractor * fex,
                                                   const VhPicture * ref,
                                                   const VhPicture * dist,
                                                   guint index,
                                                   VhFeatureCollector * fc,
                                                   GError ** error);

gboolean     vh_feature_extractor_flush           (VhFeatureExtractor * fex,
                                                   VhFeatureCollector * fc,
                                                   GError ** error);

/* Whether the instance runs on the temporal lane (frames in order, one
 * instance, flushed at the end): the class flag, or options that need it. */
gboolean     vh_feature_extractor_is_temporal     (const VhFeatureExtractor * fex);

/* Fails unless both pictures' luma has the stream's size and depth (for
 * extractors that read the luma only). */
gboolean     vh_feature_extractor_check_luma      (const VhFeatureExtractor * fex,
                                                   const VhPicture * ref,
                                                   const VhPicture * dist,
                                                   guint index,
                                                   GError ** error);

/* Closes (if initialised) and frees. */
void         vh_feature_extractor_free            (VhFeatureExtractor * fex);

gdouble      vh_feature_extractor_get_option      (const VhFeatureExtractor * fex,
                                                   const gchar * name);

/* Whether option @name was given rather than left at its default. */
gboolean     vh_feature_extractor_option_is_set   (const VhFeatureExtractor * fex,
                                                   const gchar * name);

/* Text of a string option (NULL when unset), name of a choice option. */
const gchar *vh_feature_extractor_get_string_option (const VhFeatureExtractor * fex,
                                                   const gchar * name);

/* Appends @base_name + the option suffix: what every extractor calls. */
gboolean     vh_feature_extractor_append          (VhFeatureExtractor * fex,
                                                   VhFeatureCollector * fc,
                                                   const gchar * base_name,
                                                   guint index,
                                                   gdouble value,
                                                   GError ** error);

/* Appends @name as it is, without the option suffix (outputs libvmaf
 * never renames: float_adm's "adm", cambi's "cambi_source"). */
gboolean     vh_feature_extractor_append_unsuffixed (VhFeatureExtractor * fex,
                                                   VhFeatureCollector * fc,
                                                   const gchar * name,
                                                   guint index,
                                                   gdouble value,
                                                   GError ** error);

/* The full output name of @base_name for this instance (caller frees). */
gchar       *vh_feature_extractor_output_name     (const VhFeatureExtractor * fex,
                                                   const gchar * base_name);

/* Among the built-in CPU classes (extractor-set.c; a context looks in
 * its own VhExtractorSet): lookup by extractor name ("vif") or by a
 * provided output name ("integer_vif_scale0"), restricted to @backends. */
const VhFeatureExtractorClass *vh_feature_extractor_find (const gchar * name,
                                                   VhBackend backends);

/* "adm, float_ms_ssim, ..." for error messages (caller frees). */
gchar       *vh_feature_extractor_list_names      (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VhFeatureExtractor, vh_feature_extractor_free)

G_END_DECLS

#endif /* __VH_FEATURE_EXTRACTOR_H__ */
