/* vmafhip
 * Copyright (C) 2026 vmafhip developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The model test's cases in test-model-golden.c, registered by
 * test-model.c. */

#ifndef __VH_MODEL_TEST_H__
#define __VH_MODEL_TEST_H__

#include <glib.h>

G_BEGIN_DECLS

void         test_exact               (void);
void         test_golden              (void);
void         test_golden_no_clip      (void);

G_END_DECLS

#endif /* __VH_MODEL_TEST_H__ */
