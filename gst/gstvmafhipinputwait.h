/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_VMAF_HIP_INPUT_WAIT_H__
#define __GST_VMAF_HIP_INPUT_WAIT_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/**
 * GstVmafHipInputWait:
 *
 * A deadline on a thread of its own: once armed, @expired is called once,
 * on that thread, when the timeout has passed, unless the wait stopped
 * before. The element arms it at the first frame or caps on any sink pad,
 * so that a sink pad left unlinked, or whose branch failed before its
 * caps, ends in an error instead of a pipeline that waits for ever.
 */
typedef struct _GstVmafHipInputWait GstVmafHipInputWait;

typedef void (*GstVmafHipInputWaitFunc) (gpointer data, GstClockTime waited);

GstVmafHipInputWait *gst_vmaf_hip_input_wait_new (GstVmafHipInputWaitFunc expired,
                                                  gpointer data);

void         gst_vmaf_hip_input_wait_free   (GstVmafHipInputWait * wait);

/* A new run with @timeout (0: never expires). Not armed yet. */
void         gst_vmaf_hip_input_wait_start  (GstVmafHipInputWait * wait,
                                             GstClockTime timeout);

/* The countdown starts, if it has not already. Any thread, cheap. */
void         gst_vmaf_hip_input_wait_arm    (GstVmafHipInputWait * wait);

/* The run is over: the thread ends (joined) and @expired is not called
 * any more. */
void         gst_vmaf_hip_input_wait_stop   (GstVmafHipInputWait * wait);

/* The error for a sink pad the element would wait on for ever: unlinked,
 * or linked to a branch that sent no caps; since @ended's EOS, or after
 * @waited. */
void         gst_vmaf_hip_input_wait_say_silent (GstElement * element,
                                             GstPad * pad,
                                             gboolean reference,
                                             GstPad * ended,
                                             GstClockTime waited);

G_END_DECLS

#endif /* __GST_VMAF_HIP_INPUT_WAIT_H__ */
