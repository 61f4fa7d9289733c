/* SPDX-License-Identifier: GPL-2.0-or-later */
/* store.h - run history in SQLite: parameters, knobs, results, series, histograms, baselines, sweeps. */
#ifndef TT_STORE_H
#define TT_STORE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/util.h"

/*
 * The schema is versioned with PRAGMA user_version and migrated forward on
 * open, in one transaction per step; version 1 is the first schema (runs
 * only), version 2 adds sweeps and baselines, version 3 the short target
 * of each run, version 4 what limited it (docs/store.md).  The
 * database is in WAL mode with a busy timeout, so two tunetop processes
 * writing at once both succeed.
 */
#define STORE_SCHEMA_VERSION 4

struct store;

/*
 * The default database: $TUNETOP_DB if set, else $XDG_DATA_HOME/tunetop/
 * runs.db, else ~/.local/share/tunetop/runs.db (the directory is made,
 * mode 0700).  Returns buf, or NULL with errno set when there is no HOME,
 * the path does not fit or the directory cannot be made.
 */
const char *store_default_path(char *buf, size_t len);

/*
 * Open (creating it if missing) and migrate the database at path (NULL:
 * the default).  Errors name the file and what is wrong, one line:
 * "runs.db: database is locked (another tunetop holds it for more than 5 s)",
 * "runs.db: not a tunetop database (file is not a database)",
 * "runs.db: schema version 9 is newer than this tunetop's (2)",
 * "runs.db: disk full (database or disk is full)".  0 or -errno.
 */
int store_open(struct store **sp, const char *path, char *err);
void store_close(struct store *s);
/* The path the store was opened at. */
const char *store_path(const struct store *s);

/* One run as stored.  The json members are owned by the struct. */
struct store_run {
	int64_t id;			/* set by store_add */
	double time;			/* wall clock of the run's start, seconds */
	char test[16];			/* "TCP_RR" */
	char target[160];		/* "lab: tunetop-123 (veth, MTU 1500, ...)" */
	char target_short[96];		/* "lab:tunetop-123", "loopback", "host:ADDR"; "" unknown */
	char source[16];		/* "run", "dashboard", "sweep", "ab" */
	int64_t sweep_id;		/* the sweep or A/B it belongs to; 0 none */
	char point[64];			/* its point: "size=4345", "rx-usecs=15", "a", "b"; "" */
	bool baseline;			/* the baseline of its test and parameters */
	bool failed;
	double throughput;		/* trans/s or 10^6 bits/s; NAN n/a */
	char units[16];			/* "Trans/s" or "10^6bits/s" */
	double p50_us, p99_us;		/* NAN n/a */
	double lcpu, rcpu;		/* CPU utilisation %, NAN n/a */
	double lsd, rsd;		/* service demand, NAN n/a */
	json_t *params;			/* params_to_json() of the test */
	json_t *result;			/* the whole `tunetop run --json` document; NULL in lists */
	json_t *series;			/* {"t": [...], "rate": [...], "p50_us": [...], ...}; NULL none or in lists */
	json_t *limits;			/* what limited it: why_report_to_json()'s array; NULL not judged */
};

/*
 * The per-tick series a run keeps (store_run.series): one JSON array per
 * figure, in this order, null where a tick has no value.
 */
enum store_series {
	SS_T, SS_RATE, SS_P50, SS_P99, SS_SNDBUF_L, SS_RCVBUF_L, SS_SNDBUF_R, SS_RCVBUF_R,
	SS_CWND_L, SS_CWND_R, STORE_NSERIES
};
extern const char *const store_series_names[STORE_NSERIES];
/* An empty series object; NULL when out of memory. */
json_t *store_series_new(void);
/* One tick: v[SS_*], NAN (or infinite) stored as null. */
void store_series_append(json_t *series, const double v[STORE_NSERIES]);
/* The figure name of a series as doubles (NAN for null), malloc'ed; NULL
 * and *n 0 when it has none or out of memory. */
double *store_series_get(const json_t *series, const char *name, size_t *n);
/* The standard deviation of a series' figure name (nulls left out), as
 * the cliff rule reads a run's tick rates; NAN with fewer than 2. */
double store_series_sd(const json_t *series, const char *name);
/* The throughput's confidence half-width of a `tunetop run --json`
 * document (store_run.result) that iterated (-i/-I); NAN when it did not. */
double store_result_ci(const json_t *result);

/* Zero r (NAN figures, NULL json). */
void store_run_init(struct store_run *r);
void store_run_free(struct store_run *r);

/*
 * The key of a run's "test and parameters" for baselines: the test and
 * its params without duration, sample_ms, capture and CPU pinning, as
 * compact JSON with sorted keys.  A new string (free it), NULL on ENOMEM.
 */
char *store_params_key(const char *test, const json_t *params);

/* Add r (r->params and r->result required); sets r->id.  0 or -errno. */
int store_add(struct store *s, struct store_run *r, char *err);
/* One run, whole.  -ENOENT with "run 12: no such run in PATH". */
int store_get(struct store *s, int64_t id, struct store_run *out, char *err);
/* Delete a run (and its series).  -ENOENT when there is none. */
int store_rm(struct store *s, int64_t id, char *err);

struct store_filter {
	const char *test;		/* NULL: any */
	int64_t sweep_id;		/* 0: any */
	unsigned limit;			/* 0: all; else the newest limit */
};
/* What set a listed run's figures apart (store_list_setup). */
struct store_setup {
	char flags[48];		/* "-c -C -i10,3 -I95,2": the options that change the figures */
	char knobs[160];	/* "remote:gro=on, net.ipv4.tcp_sack=0": changed from the run before */
};

/*
 * For `runs list`: each run's figure-changing flags (-c and -C from its
 * stored service demand, -i and -I from its confidence settings) and the
 * knobs whose value differs from the run before it in runs[] (local ones
 * bare, remote ones "remote:NAME=VALUE", at most three then "+N more";
 * empty for runs[0] or when either run has no knob snapshot).  Reads only
 * result's knobs and confidence, one run at a time; a run whose result
 * cannot be read gets empty fields.  out[n].  0 or -errno.
 */
int store_list_setup(struct store *s, const struct store_run *runs, unsigned n,
		     struct store_setup *out, char *err);

/*
 * Runs oldest first, without result and series (params kept).  *out
 * malloc'ed.  -EBADMSG, and no runs, when a row cannot be read (its params
 * are not a JSON object): err names the row and what is wrong.
 */
int store_list(struct store *s, const struct store_filter *f, struct store_run **out,
	       unsigned *n, char *err);
/*
 * The same, but the rows that cannot be read are left out and counted in
 * *nbad, err naming the first and what is wrong, then the others' ids
 * ("PATH: run 3: params: bad JSON (...); also unreadable: runs 5, 7").
 * Fails only when the query does.
 */
int store_list_all(struct store *s, const struct store_filter *f, struct store_run **out,
		   unsigned *n, unsigned *nbad, char *err);

/* Make id the baseline of its test and parameters (clearing any other). */
int store_set_baseline(struct store *s, int64_t id, char *err);
/* The baseline of the same test and parameters as run id: *base 0 when none. */
int store_baseline_of(struct store *s, int64_t id, int64_t *base, char *err);
/*
 * Else the newest baseline of the same test and target as run id, whatever
 * its parameters (the caller names those that differ): *base 0 when none.
 */
int store_baseline_like(struct store *s, int64_t id, int64_t *base, char *err);

/*
 * An id named as the user types it: a positive integer, "last" (the newest
 * run, or sweep with sweeps true) or "last-N" (N before the newest).  0 with
 * *id set, or -EINVAL (not such a name) or -ENOENT (no such run) with err
 * saying what is accepted.
 */
int store_id_named(struct store *s, const char *name, bool sweeps, int64_t *id, char *err);

/* A sweep or an A/B comparison: kind "size", "burst", "knob", "send-size", "ab". */
int store_add_sweep(struct store *s, const char *kind, const json_t *spec, int64_t *id,
		    char *err);
/*
 * Sweep id's spec replaced: a sweep whose points were planned after its
 * first run (a size sweep around that run's MSS).  0, -ENOENT, or -errno.
 */
int store_set_sweep(struct store *s, int64_t id, const json_t *spec, char *err);
/* Its kind and spec (a new reference). */
int store_get_sweep(struct store *s, int64_t id, char *kind, size_t klen, json_t **spec,
		    char *err);

#endif
