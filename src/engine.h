/* SPDX-License-Identifier: GPL-2.0-or-later */
/* engine.h - the one header the CLI and the UI include to drive the engine. */
#ifndef TT_ENGINE_H
#define TT_ENGINE_H

#include "abstat.h"
#include "catalog.h"
#include "hist.h"
#include "knob.h"
#include "knobs.h"
#include "lab.h"
#include "msg.h"
#include "params.h"
#include "sample.h"
#include "seghist.h"
#include "session.h"
#include "server.h"
#include "stats.h"
#include "store.h"
#include "sweep.h"
#include "util.h"

#endif
