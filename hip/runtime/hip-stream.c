/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Streams and events. */

#include "hip-backend-private.h"

VhHipStream *
vh_hip_stream_new (VhHipDevice * device, GError ** error)
{
  gpointer handle = NULL;
  VhHipStream *stream;
  gint code;

  VH_HIP_PUSH_OR_RETURN (device, error, NULL);
  code = device->backend->stream_create (&handle);
  if (!vh_hip_device_call_done (device, code, "hipStreamCreate", error))
    return NULL;
  stream = g_new0 (VhHipStream, 1);
  stream->device = vh_hip_device_ref (device);
  stream->handle = handle;
  return stream;
}

void
vh_hip_stream_free (VhHipStream * stream)
{
  VhHipDevice *device;

  if (!stream)
    return;
  device = stream->device;
  if (vh_hip_device_push (device, NULL)) {
    device->backend->stream_destroy (stream->handle);
    vh_hip_device_pop (device);
  }
  vh_hip_device_unref (device);
  g_free (stream);
}

VhHipDevice *
vh_hip_stream_get_device (VhHipStream * stream)
{
  return stream->device;
}

gboolean
vh_hip_stream_synchronize (VhHipStream * stream, GError ** error)
{
  VhHipDevice *device = stream->device;
  gint code;

  VH_HIP_PUSH_OR_RETURN (device, error, FALSE);
  code = device->backend->stream_synchronize (stream->handle);
  if (!code && error)
    code = vh_hip_fault_code (VH_HIP_FAULT_SYNC);
  return vh_hip_device_call_done (device, code, "hipStreamSynchronize",
      error);
}

gboolean
vh_hip_stream_wait_event (VhHipStream * stream, VhHipEvent * event,
    GError ** error)
{
  VhHipDevice *device = stream->device;
  gint code;

  VH_HIP_PUSH_OR_RETURN (device, error, FALSE);
  code = device->backend->stream_wait_event (stream->handle, event->handle);
  return vh_hip_device_call_done (device, code, "hipStreamWaitEvent", error);
}

VhHipEvent *
vh_hip_event_new (VhHipDevice * device, gboolean timing, GError ** error)
{
  gpointer handle = NULL;
  VhHipEvent *event;
  gint code;

  VH_HIP_PUSH_OR_RETURN (device, error, NULL);
  code = device->backend->event_create (&handle, timing);
  if (!vh_hip_device_call_done (device, code, "hipEventCreate", error))
    return NULL;
  event = g_new0 (VhHipEvent, 1);
  event->device = vh_hip_device_ref (device);
  event->handle = handle;
  return event;
}

void
vh_hip_event_free (VhHipEvent * event)
{
  VhHipDevice *device;

  if (!event)
    return;
  device = event->device;
  if (vh_hip_device_push (device, NULL)) {
    device->backend->event_destroy (event->handle);
    vh_hip_device_pop (device);
  }
  vh_hip_device_unref (device);
  g_free (event);
}

gboolean
vh_hip_event_record (VhHipEvent * event, VhHipStream * stream,
    GError ** error)
{
  VhHipDevice *device = event->device;
  gint code;

  VH_HIP_PUSH_OR_RETURN (device, error, FALSE);
  code = device->backend->event_record (event->handle,
      stream ? stream->handle : NULL);
  return vh_hip_device_call_done (device, code, "hipEventRecord", error);
}

gboolean
vh_hip_event_synchronize (VhHipEvent * event, GError ** error)
{
  VhHipDevice *device = event->device;
  gint code;

  VH_HIP_PUSH_OR_RETURN (device, error, FALSE);
  code = device->backend->event_synchronize (event->handle);
  if (!code && error)
    code = vh_hip_fault_code (VH_HIP_FAULT_SYNC);
  return vh_hip_device_call_done (device, code, "hipEventSynchronize",
      error);
}

gboolean
vh_hip_event_query (VhHipEvent * event, GError ** error)
{
  VhHipDevice *device = event->device;
  gint code;

  VH_HIP_PUSH_OR_RETURN (device, error, FALSE);
  code = device->backend->event_query (event->handle);
  if (code == device->backend->not_ready_code) {
    vh_hip_device_pop (device);
    return FALSE;
  }
  return vh_hip_device_call_done (device, code, "hipEventQuery", error);
}

gboolean
vh_hip_event_elapsed_ms (VhHipEvent * start, VhHipEvent * end, gfloat * ms,
    GError ** error)
{
  VhHipDevice *device = start->device;
  gint code;

  VH_HIP_PUSH_OR_RETURN (device, error, FALSE);
  code = device->backend->event_elapsed (ms, start->handle, end->handle);
  return vh_hip_device_call_done (device, code, "hipEventElapsedTime",
      error);
}
