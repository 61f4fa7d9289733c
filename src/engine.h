/* SPDX-License-Identifier: GPL-2.0-or-later */
/* engine.h - the one header the CLI and the UI include to drive the engine. */
#ifndef TT_ENGINE_H
#define TT_ENGINE_H

#include "stats/abstat.h"
#include "knobs/catalog.h"
#include "stats/hist.h"
#include "knobs/knob.h"
#include "knobs/knobs.h"
#include "knobs/txn.h"
#include "lab/lab.h"
#include "proto/msg.h"
#include "core/params.h"
#include "session/sample.h"
#include "capture/seghist.h"
#include "session/session.h"
#include "daemon/server.h"
#include "stats/stats.h"
#include "store/store.h"
#include "stats/sweep.h"
#include "stats/sweep-policy.h"
#include "core/util.h"

#endif
