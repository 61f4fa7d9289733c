/* SPDX-License-Identifier: GPL-2.0-or-later */
/* store-why.h - what moved between two stored runs. */
#ifndef TT_STORE_WHY_H
#define TT_STORE_WHY_H

#include "session/why-change.h"
#include "store/store.h"

/*
 * why_change() for two stored runs: their documents, confidence
 * half-widths and the standard error of their tick rates, as runs diff,
 * sweeps, A/B, the report and the dashboard use it.
 */
void store_why_change(const struct store_run *a, const struct store_run *b,
		      struct why_change *out);

#endif
