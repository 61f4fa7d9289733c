/* SPDX-License-Identifier: GPL-2.0-or-later */
/* model.h - the dashboard's runs: per-tick series and key figures, from engine snapshots. */
#ifndef TT_MODEL_H
#define TT_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"

/* Ticks kept per run (1 h at 100 ms); older ones are dropped, oldest first. */
#define MODEL_MAX_TICKS 36000u
/* Runs kept in one dashboard session; the oldest non-baseline goes first. */
#define MODEL_MAX_RUNS 64u
/* Result documents kept for "what moved" (docs/why.md); beyond them the
 * oldest is dropped, and read back from the history when needed again. */
#define MODEL_MAX_DOCS 8u

enum { END_L, END_R, END_N };		/* local, remote */

/* One tick of both ends; NAN or -1 where an end said nothing. */
struct model_tick {
	double t;			/* seconds since the run started */
	double rate;			/* trans/s (RR) or Mbit/s (streams), local end */
	double p50_us, p99_us;		/* RR: latency of the tick; NAN otherwise */
	int32_t sndbuf[END_N], rcvbuf[END_N];	/* first flow's SO_SNDBUF/RCVBUF; -1 n/a */
	int32_t outq[END_N], inq[END_N];	/* -1 n/a */
	double cwnd[END_N];		/* segments; NAN n/a */
	double cpu[END_N];		/* busy % of all CPUs of that end; NAN n/a */
	double irq[END_N], net_rx[END_N];	/* per second, all CPUs; NAN n/a */
};

enum model_state {
	MS_STARTING,			/* started, no tick yet */
	MS_RUNNING,
	MS_DONE,			/* ended cleanly */
	MS_STOPPED,			/* stopped by the user: figures up to then */
	MS_FAILED,			/* failed: failure says why */
};

struct model_run {
	unsigned id;			/* 1, 2, ... in this dashboard session; 0 for history */
	struct test_params p;
	char target[160];
	enum model_state state;
	double started;			/* wall clock */
	struct model_tick *ticks;	/* nticks of them, oldest first */
	unsigned nticks, tick_cap;	
	uint64_t dropped_ticks;		/* dropped beyond MODEL_MAX_TICKS */

	/* The newest per-tick figures that do not make a series. */
	struct irq_sample irq[END_N];	/* per-CPU rates */
	char irq_dev[END_N][32];
	struct cpu_sample cpu[END_N];
	struct seg_capture *cap[END_N];	/* newest capture snapshot; NULL none */
	char cap_note[END_N][ERR_MAX];	/* why an end has no capture */
	int32_t sndbuf_init[END_N], rcvbuf_init[END_N];
	double elapsed;			/* seconds so far, or of the run */

	/* When it ended. */
	bool has_result;
	struct session_result res;	/* owned; knob snapshots of both ends */
	double rate;			/* final: trans/s or Mbit/s */
	double rate_ci;			/* its confidence half-width when stored iterated (-i); NAN */
	double p50_us, p99_us;		/* NAN for streams */
	double lcpu, rcpu;		/* busy %, NAN n/a */
	double lsd, rsd;		/* service demand, < 0 n/a */
	char failure[ERR_MAX];
	bool baseline;
	int64_t db_id;			/* its id in the run history; 0 not stored */
	char point[64];			/* its point in a sweep or A/B ("size=4345", "a"); "" */
	bool history;			/* loaded from the history, not run here */
	/* The knobs that differ from the previous run (both ends), as
	 * "gro: on -> off (remote)", "; " between them; "" none or first. */
	char changes[512];

	/* What limits it (docs/why.md): live over the last ticks while it
	 * runs, the session's verdicts (res.why) once it has ended. */
	uint64_t tbf_bps;		/* the lab's tbf rate, for the live verdicts; 0 none */
	struct why_report why_live;
	struct model_why_window *whywin;	/* the ticks judged; NULL once ended */

	/* Its result document (`tunetop run --json`'s) and ticks as the
	 * history keeps them, for what moved between two runs; NULL when not
	 * kept (model_keep_doc()).  doc_na: why it cannot be had, once tried. */
	json_t *doc, *doc_series;
	char doc_na[ERR_MAX];
};

struct model {
	struct model_run *runs[MODEL_MAX_RUNS];
	unsigned nruns;			/* oldest first */
	unsigned next_id;
};

void model_init(struct model *m);
void model_free(struct model *m);

/* A new run in MS_STARTING; NULL when out of memory. */
struct model_run *model_begin(struct model *m, const struct test_params *p,
			      const char *target);
/* One SESSION_EV_SAMPLE: a tick appended, the newest figures kept. */
void model_sample(struct model_run *r, const struct session_event *ev);
/*
 * The run's end: ret 0 (done), or -ECANCELED (stopped by the user), or
 * another -errno with err.  Takes over *res (its memory; res is zeroed),
 * derives the key figures, and the knob changes against the run before.
 */
void model_end(struct model *m, struct model_run *r, int ret, const char *err,
	       struct session_result *res);

/*
 * A run of the history (store.h), as a finished run of this session: its
 * key figures, ticks from its stored series, and its baseline mark.  The
 * model's own numbering goes on; NULL when out of memory.
 */
struct model_run *model_add_history(struct model *m, const struct store_run *sr);

/* A finished run's final rate: one of this session's with its result, or
 * one of the history (its stored throughput); NAN otherwise. */
double model_run_rate(const struct model_run *r);

/*
 * Keep doc and series (new references taken; series may be NULL) as r's
 * document; beyond MODEL_MAX_DOCS the oldest run's is dropped, never
 * r's or keep's.
 */
void model_keep_doc(struct model *m, struct model_run *r, json_t *doc, json_t *series,
		    const struct model_run *keep);

/*
 * What moved from run a to run b (store_why_change() over their kept
 * documents, docs/why.md).  0, or -ENOENT when either has none.
 */
int model_why_change(const struct model_run *a, const struct model_run *b,
		     struct why_change *out);

/* The run the runs panel compares sel with: the run beside the run on
 * show (cur) when sel is it, else sel's ghost (model_ghost()); NULL none. */
struct model_run *model_compared(const struct model *m, const struct model_run *sel,
				 const struct model_run *cur, struct model_run *beside);

/*
 * A run's name on screen, the same in every panel, message and the
 * header: its id in the run history ("46", what `tunetop runs show 46`
 * takes); "now" while it runs (it is stored when it ends); "s3", the
 * session's third run, when it was not stored (--no-db, or the history
 * refused it).
 */
const char *model_run_name(const struct model_run *r, char *buf, size_t len);

/* The run with this session's id, or NULL. */
struct model_run *model_by_id(const struct model *m, unsigned id);

/* What limits r now: its top verdict (final once ended), or NULL. */
const struct why_verdict *model_why_top(const struct model_run *r);

/* The newest run, or NULL. */
struct model_run *model_last(const struct model *m);
/* The run's remote end is netperf's netserver: no live figures from it. */
bool model_run_netserver(const struct model_run *r);
/* Run by index (0 = oldest), or NULL. */
struct model_run *model_at(const struct model *m, unsigned i);
/* Mark r the baseline of its test and parameters (one each, as the
 * history keys them: params_same_test); r NULL clears. */
void model_set_baseline(struct model *m, struct model_run *r);
/*
 * What to draw as a ghost behind r: the baseline of r's test and
 * parameters when there is one (and it is not r), else the newest ended
 * run of the same test type before r; NULL when none.
 */
struct model_run *model_ghost(const struct model *m, const struct model_run *r);

/* Series of r for plots: x = t, y = one field, written into xs/ys (n max). */
enum model_field {
	MF_RATE, MF_P50, MF_P99,
	MF_SNDBUF_L, MF_RCVBUF_L, MF_SNDBUF_R, MF_RCVBUF_R,
	MF_CWND_L, MF_CWND_R, MF_OUTQ_L, MF_OUTQ_R,
	MF_CPU_L, MF_CPU_R, MF_IRQ_L, MF_IRQ_R, MF_NETRX_L, MF_NETRX_R,
};
/* The last n (at most) points of field f; returns how many were written. */
unsigned model_series(const struct model_run *r, enum model_field f, double *xs,
		      double *ys, unsigned n);
/*
 * The whole run in at most n points of field f, evenly spread from its
 * first tick to its newest: what a chart of the run draws, so it spans
 * the run (a sparkline of the last seconds takes model_series).
 */
unsigned model_series_span(const struct model_run *r, enum model_field f, double *xs,
			   double *ys, unsigned n);

/* "TCP_RR -r 1,1 -b 15 -D" style text of a run's test and parameters. */
const char *model_params_text(const struct test_params *p, char *buf, unsigned len);
const char *model_state_name(enum model_state s);

#endif
