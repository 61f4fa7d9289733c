/* SPDX-License-Identifier: GPL-2.0-or-later */
/* engine.h - the one header the CLI and the UI include to drive the engine. */
/*
 * What it includes is the engine's public face; the rest (flows, sampler,
 * capture internals, the server end, netlink and SQLite plumbing, wire
 * framing) is the engine's own.  tests/integration/boundaries.sh keeps it
 * so.  Still here for the front ends' use until the result document and
 * the CSV writer move into the engine (issue 26 §1, §3): proto/proto.h
 * for json_string_lossy(), proto/msg.h for params/result/sample JSON and
 * the knob messages of `knobs --remote`, proto/auth.h for the key file.
 */
#ifndef TT_ENGINE_H
#define TT_ENGINE_H

#include "capture/pcapread.h"
#include "capture/pktparse.h"
#include "capture/seghist.h"
#include "core/csv.h"
#include "core/params.h"
#include "core/units.h"
#include "core/util.h"
#include "knobs/catalog.h"
#include "knobs/knob.h"
#include "knobs/knobs-remote.h"
#include "knobs/knobs.h"
#include "knobs/txn.h"
#include "lab/lab.h"
#include "plan/plan.h"
#include "plan/series.h"
#include "proto/auth.h"
#include "proto/msg.h"
#include "proto/netserver.h"
#include "proto/proto.h"
#include "sample/sample.h"
#include "session/iterate.h"
#include "session/options.h"
#include "session/result-doc.h"
#include "session/selector.h"
#include "session/session.h"
#include "session/sweep-cols.h"
#include "session/target.h"
#include "session/why.h"
#include "session/why-change.h"
#include "stats/abstat.h"
#include "stats/hist.h"
#include "stats/stats.h"
#include "stats/sweep.h"
#include "stats/sweep-args.h"
#include "stats/sweep-policy.h"
#include "stats/sweep-preset.h"
#include "stats/verdict.h"
#include "store/store-save.h"
#include "store/store-why.h"
#include "store/store.h"

#endif
