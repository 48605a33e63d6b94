/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */
#ifndef __VH_CLI_SELF_TEST_H__
#define __VH_CLI_SELF_TEST_H__

#include "cli-options.h"

G_BEGIN_DECLS

/* The exit status when there is no GPU to test (the "skipped" of
 * automake and meson). */
#define VH_CLI_SELF_TEST_NO_GPU 77

/* Runs --self-test as @s asks (--device, --feature, --backend); returns
 * the exit status: 0 every twin passed (or was skipped), 1 one failed,
 * 2 a bad option, VH_CLI_SELF_TEST_NO_GPU no usable GPU. */
gint         vh_cli_self_test            (const VhCliSettings * s);

G_END_DECLS

#endif /* __VH_CLI_SELF_TEST_H__ */
