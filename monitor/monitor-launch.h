/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The launch line of a channel (monitor_channel_describe and
 * monitor_channel_build, declared in monitor-channel.h, live in
 * monitor-launch.c), and what an element of it reads, for messages that
 * name the input. */

#ifndef __MONITOR_LAUNCH_H__
#define __MONITOR_LAUNCH_H__

#include <gst/gst.h>

#include "monitor-channel.h"

G_BEGIN_DECLS

/* What @element reads, when it says: its URI (uridecodebin, filesrc and
 * other URI sources) or its location. Newly allocated, or NULL. */
gchar          *monitor_launch_element_input   (GstElement * element);

G_END_DECLS

#endif /* __MONITOR_LAUNCH_H__ */
