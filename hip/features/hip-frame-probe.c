/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Frame probes on the GPU: see hip-frame-probe.h. */

#include "hip-frame-probe.h"
#include "errors.h"
#include "align.h"

#include <string.h>

extern const VhHipKernelSource vh_hip_kernel_frame_probe;

/* Must match the kernel's VH_PROBE_THREADS and its structures. */
#define PROBE_THREADS 256
/* Enough blocks of samples to fill a GPU (480 x 270 samples at most). */
#define PROBE_MAX_SAMPLE_BLOCKS 128

typedef struct
{
  gconstpointer data;
  guint64 pitch;
  guint32 step;
  guint32 width;
  guint32 height;
  guint32 row_step;             /* signatures: every row_step-th row */
} ProbePlane;

typedef struct
{
  guint32 x0;
  guint32 y0;
  guint32 step_x;
  guint32 step_y;
  guint32 per_row;
  guint32 rows;
} ProbeGrid;

G_STATIC_ASSERT (sizeof (ProbePlane) == 32);
G_STATIC_ASSERT (sizeof (ProbeGrid) == 24);

/* The largest results: a signature's block sums, or three sums for each
 * block of samples. */
#define SLOT_BYTES (MAX (VH_HIP_PROBE_CELLS, 3 * PROBE_MAX_SAMPLE_BLOCKS) * \
    sizeof (guint64))
#define SIGNATURE_BYTES (VH_HIP_PROBE_CELLS * sizeof (guint64))

/* The kernels write their few results straight into page-locked host
 * memory, which the device addresses by the same pointer (CUDA's unified
 * addressing; HIP maps hipHostMalloc's memory for every GPU): no copy to
 * queue behind the copies of the scoring already in flight, whose copy
 * engine would make the probe wait for that scoring to finish. */
typedef struct
{
  guint64 *results;             /* page-locked, written by the device */
  VhHipEvent *done;
} Slot;

struct _VhHipFrameProbe
{
  VhHipDevice *device;
  VhHipStream *stream;
  VhHipFunction *signature[2];  /* 8 bits, more */
  VhHipFunction *samples[2];
  GQueue free_slots;            /* Slot * */
  GPtrArray *all_slots;
  /* Two sample buffers: the previous frame's, and the next one's. */
  guint16 *d_samples[2];
  gsize samples_capacity;       /* samples each */
  guint last;                   /* d_samples[last] holds the previous */
  gboolean have_last;
  VhHipProbeGrid last_grid;
};

typedef enum
{
  TICKET_SIGNATURE,
  TICKET_SAMPLES,
} TicketKind;

struct _VhHipProbeTicket
{
  VhHipFrameProbe *probe;
  Slot *slot;
  VhPicture *pic;
  TicketKind kind;
  gboolean has_diff;
  guint n_blocks;               /* of samples, each with its three sums */
};

static void
slot_free (gpointer data, gpointer user_data)
{
  VhHipDevice *device = user_data;
  Slot *slot = data;

  if (slot->results)
    vh_hip_host_free (device, slot->results);
  if (slot->done)
    vh_hip_event_free (slot->done);
  g_free (slot);
}

static Slot *
slot_take (VhHipFrameProbe * probe, GError ** error)
{
  Slot *slot = g_queue_pop_head (&probe->free_slots);

  if (slot)
    return slot;
  slot = g_new0 (Slot, 1);
  if (!vh_hip_host_alloc (probe->device, SLOT_BYTES,
          (gpointer *) & slot->results, error) ||
      !(slot->done = vh_hip_event_new (probe->device, FALSE, error))) {
    slot_free (slot, probe->device);
    return NULL;
  }
  g_ptr_array_add (probe->all_slots, slot);
  return slot;
}

VhHipFrameProbe *
vh_hip_frame_probe_new (VhHipDevice * device, GError ** error)
{
  static const gchar *names[2][2] = {
    {"vh_probe_signature_u8", "vh_probe_signature_u16"},
    {"vh_probe_samples_u8", "vh_probe_samples_u16"},
  };
  VhHipFrameProbe *probe = g_new0 (VhHipFrameProbe, 1);
  VhHipModule *module;

  probe->device = vh_hip_device_ref (device);
  g_queue_init (&probe->free_slots);
  probe->all_slots = g_ptr_array_new ();
  probe->stream = vh_hip_stream_new (device, error);
  if (!probe->stream)
    goto fail;
  module = vh_hip_module_get (device, &vh_hip_kernel_frame_probe, error);
  if (!module)
    goto fail;
  for (guint k = 0; k < 2; k++) {
    for (guint w = 0; w < 2; w++) {
      VhHipFunction *f = vh_hip_module_get_function (module, names[k][w],
          error);

      if (!f)
        goto fail;
      if (k == 0)
        probe->signature[w] = f;
      else
        probe->samples[w] = f;
    }
  }
  return probe;

fail:
  g_prefix_error (error, "frame probe: ");
  vh_hip_frame_probe_free (probe);
  return NULL;
}

static void
free_samples (VhHipFrameProbe * probe)
{
  for (guint i = 0; i < 2; i++) {
    if (probe->d_samples[i])
      vh_hip_free (probe->device, probe->d_samples[i]);
    probe->d_samples[i] = NULL;
  }
  probe->samples_capacity = 0;
  probe->have_last = FALSE;
}

void
vh_hip_frame_probe_free (VhHipFrameProbe * probe)
{
  if (!probe)
    return;
  if (probe->stream) {
    vh_hip_stream_synchronize (probe->stream, NULL);
    vh_hip_stream_free (probe->stream);
  }
  free_samples (probe);
  g_warn_if_fail (probe->all_slots->len == probe->free_slots.length);
  g_ptr_array_foreach (probe->all_slots, slot_free, probe->device);
  g_ptr_array_unref (probe->all_slots);
  g_queue_clear (&probe->free_slots);
  vh_hip_device_unref (probe->device);
  g_free (probe);
}

/* The picture's luma as the kernels read it, after its upload. */
static gboolean
begin (VhHipFrameProbe * probe, const VhPicture * pic, ProbePlane * plane,
    GError ** error)
{
  if (pic->mem_type != VH_MEMORY_HIP_DEVICE || !pic->data[0]) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "frame probe: the picture is not in device memory");
    return FALSE;
  }
  if (pic->info.bpc < 8 || pic->info.bpc > 16) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "frame probe: %u-bit samples (8 to 16 bits are read)",
        pic->info.bpc);
    return FALSE;
  }
  memset (plane, 0, sizeof (*plane));
  plane->data = pic->data[0];
  plane->pitch = pic->stride[0];
  plane->step = MAX (pic->step[0], 1);
  plane->width = pic->width[0];
  plane->height = pic->height[0];
  plane->row_step = vh_align_signature_row_step (pic->height[0]);
  return !pic->ready ||
      vh_hip_stream_wait_event (probe->stream, pic->ready, error);
}

/* Records the slot's event after the launch that writes its results. */
static VhHipProbeTicket *
finish (VhHipFrameProbe * probe, Slot * slot, VhPicture * pic,
    TicketKind kind, GError ** error)
{
  VhHipProbeTicket *t;

  if (!vh_hip_event_record (slot->done, probe->stream, error)) {
    /* nothing reads the slot until it is queued again behind this */
    g_queue_push_tail (&probe->free_slots, slot);
    return NULL;
  }
  t = g_new0 (VhHipProbeTicket, 1);
  t->probe = probe;
  t->slot = slot;
  t->pic = vh_picture_ref (pic);
  t->kind = kind;
  return t;
}

VhHipProbeTicket *
vh_hip_frame_probe_signature (VhHipFrameProbe * probe, VhPicture * pic,
    GError ** error)
{
  const guint grid[3] = { VH_HIP_PROBE_GRID_W, VH_HIP_PROBE_GRID_H, 1 };
  const guint block[3] = { PROBE_THREADS, 1, 1 };
  ProbePlane plane;
  Slot *slot;
  gpointer out;
  gpointer args[] = { &plane, &out };

  if (!begin (probe, pic, &plane, error))
    return NULL;
  if (plane.width < VH_HIP_PROBE_GRID_W ||
      plane.height < VH_HIP_PROBE_GRID_H) {
    g_set_error (error, VH_ERROR, VH_ERROR_TOO_SMALL,
        "frames of %ux%u are too small to align by content "
        "(at least %ux%u)", plane.width, plane.height, VH_HIP_PROBE_GRID_W,
        VH_HIP_PROBE_GRID_H);
    return NULL;
  }
  slot = slot_take (probe, error);
  if (!slot)
    return NULL;
  out = slot->results;
  if (!vh_hip_launch (probe->signature[pic->info.bpc > 8], probe->stream,
          grid, block, 0, args, error)) {
    g_queue_push_tail (&probe->free_slots, slot);
    return NULL;
  }
  return finish (probe, slot, pic, TICKET_SIGNATURE, error);
}

static gboolean
grid_equal (const VhHipProbeGrid * a, const VhHipProbeGrid * b)
{
  return a->x0 == b->x0 && a->y0 == b->y0 && a->step_x == b->step_x &&
      a->step_y == b->step_y && a->per_row == b->per_row &&
      a->rows == b->rows;
}

/* Room for @n samples in both buffers (a larger frame than before drops
 * the previous samples). */
static gboolean
ensure_samples (VhHipFrameProbe * probe, gsize n, GError ** error)
{
  if (n <= probe->samples_capacity)
    return TRUE;
  /* the buffers may still be read by queued work */
  if (!vh_hip_stream_synchronize (probe->stream, error))
    return FALSE;
  free_samples (probe);
  for (guint i = 0; i < 2; i++) {
    if (!vh_hip_malloc (probe->device, n * sizeof (guint16),
            (gpointer *) & probe->d_samples[i], error)) {
      free_samples (probe);
      return FALSE;
    }
  }
  probe->samples_capacity = n;
  return TRUE;
}

VhHipProbeTicket *
vh_hip_frame_probe_samples (VhHipFrameProbe * probe, VhPicture * pic,
    const VhHipProbeGrid * grid, gboolean diff, GError ** error)
{
  const guint block[3] = { PROBE_THREADS, 1, 1 };
  guint64 n = (guint64) grid->per_row * grid->rows;
  guint grid_dims[3] = { 1, 1, 1 };
  ProbePlane plane;
  ProbeGrid g;
  Slot *slot;
  gpointer out, cur, prev = NULL;
  gpointer args[] = { &plane, &g, &cur, &prev, &out };
  VhHipProbeTicket *t;
  gboolean has_diff;

  if (!begin (probe, pic, &plane, error))
    return NULL;
  if (n == 0 || grid->step_x == 0 || grid->step_y == 0 ||
      grid->x0 + (guint64) (grid->per_row - 1) * grid->step_x >= plane.width
      || grid->y0 + (guint64) (grid->rows - 1) * grid->step_y >=
      plane.height) {
    g_set_error (error, VH_ERROR, VH_ERROR_INVALID_ARGUMENT,
        "frame probe: a sample grid of %ux%u outside a %ux%u picture",
        grid->per_row, grid->rows, plane.width, plane.height);
    return NULL;
  }
  if (!ensure_samples (probe, n, error))
    return NULL;
  slot = slot_take (probe, error);
  if (!slot)
    return NULL;
  has_diff = diff && probe->have_last && grid_equal (grid, &probe->last_grid);
  g.x0 = grid->x0;
  g.y0 = grid->y0;
  g.step_x = grid->step_x;
  g.step_y = grid->step_y;
  g.per_row = grid->per_row;
  g.rows = grid->rows;
  out = slot->results;
  cur = probe->d_samples[!probe->last];
  if (has_diff)
    prev = probe->d_samples[probe->last];
  grid_dims[0] = (guint) MIN ((n + PROBE_THREADS - 1) / PROBE_THREADS,
      PROBE_MAX_SAMPLE_BLOCKS);
  if (!vh_hip_launch (probe->samples[pic->info.bpc > 8], probe->stream,
          grid_dims, block, 0, args, error)) {
    g_queue_push_tail (&probe->free_slots, slot);
    /* the next buffer may be half written: no differences with it */
    probe->have_last = FALSE;
    return NULL;
  }
  probe->last = !probe->last;
  probe->have_last = TRUE;
  probe->last_grid = *grid;
  t = finish (probe, slot, pic, TICKET_SAMPLES, error);
  if (t) {
    t->has_diff = has_diff;
    t->n_blocks = grid_dims[0];
  }
  return t;
}

void
vh_hip_frame_probe_forget_samples (VhHipFrameProbe * probe)
{
  probe->have_last = FALSE;
}

gboolean
vh_hip_probe_ticket_ready (VhHipProbeTicket * ticket)
{
  return vh_hip_event_query (ticket->slot->done, NULL);
}

/* Waits for the ticket's results, copies @bytes of them to @out (if not
 * NULL) and frees it. */
static gboolean
collect (VhHipProbeTicket * t, gpointer out, gsize bytes, GError ** error)
{
  gboolean ok = vh_hip_event_synchronize (t->slot->done, error);

  if (ok && out)
    memcpy (out, t->slot->results, bytes);
  g_queue_push_tail (&t->probe->free_slots, t->slot);
  vh_picture_unref (t->pic);
  g_free (t);
  return ok;
}

gboolean
vh_hip_probe_ticket_collect_signature (VhHipProbeTicket * ticket,
    guint64 sums[VH_HIP_PROBE_CELLS], GError ** error)
{
  g_return_val_if_fail (ticket->kind == TICKET_SIGNATURE, FALSE);
  return collect (ticket, sums, SIGNATURE_BYTES, error);
}

gboolean
vh_hip_probe_ticket_collect_samples (VhHipProbeTicket * ticket,
    VhHipProbeSamples * samples, GError ** error)
{
  guint64 s[3 * PROBE_MAX_SAMPLE_BLOCKS], total[3] = { 0, 0, 0 };
  gboolean has_diff = ticket->has_diff;
  guint n_blocks = ticket->n_blocks;

  g_return_val_if_fail (ticket->kind == TICKET_SAMPLES, FALSE);
  if (!collect (ticket, s, 3 * sizeof (guint64) * n_blocks, error))
    return FALSE;
  for (guint b = 0; b < n_blocks; b++)
    for (guint k = 0; k < 3; k++)
      total[k] += s[3 * b + k];
  samples->sum = total[0];
  samples->sum_sq = total[1];
  samples->sum_abs_diff = has_diff ? total[2] : 0;
  samples->has_diff = has_diff;
  return TRUE;
}

void
vh_hip_probe_ticket_discard (VhHipProbeTicket * ticket)
{
  if (ticket)
    collect (ticket, NULL, 0, NULL);
}
