// SPDX-License-Identifier: GPL-2.0-or-later
/* sweep-cmd.c - `tunetop sweep`: one test over sizes, bursts, send sizes or knob values. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/signalfd.h>

#include <jansson.h>

#include "engine.h"
#include "options.h"
#include "output.h"
#include "run.h"
#include "sweep-cmd.h"
#include "sweep-out.h"
#include "sweep-preset.h"
#include "sweep-show.h"

#define WHO "tunetop sweep"
#define KINDS_HINT "size, burst, knob, send-size, preset, show"

/* The usage text of `tunetop sweep`. */
static void sweep_usage(FILE *f)
{
	fputs(
"usage: tunetop sweep KIND [sweep options] [run options] [-- test options]\n"
"One test repeated over a list of points against one target (a lab made\n"
"once for all of them, loopback or -H); a line per point, then a table with\n"
"cliffs marked, and one stored run per point (docs/sweeps.md).\n"
"\n"
"Kinds:\n"
"  size [LIST|LO..HI] [--response] [--mss N]   request (or response) sizes\n"
"                 1, 2, 4 ... below the MSS, then MSS, MSS+1, 2MSS, 2MSS+1,\n"
"                 3MSS, 3MSS+1 (seed 000's packet_byte_script); LO..HI: those\n"
"                 points between LO and HI (every multiple of the MSS), with\n"
"                 LO and HI; LIST: those sizes (1,1448,4345).  The MSS comes\n"
"                 from the first point's connection unless --mss\n"
"  burst [LIST] [--reverse]      -b over LIST (default " SWEEP_DEFAULT_BURSTS ");\n"
"                 --reverse: the far end initiates (seed 004's backward\n"
"                 direction): in a lab the client runs in side b; --set\n"
"                 sides swap so knobs stay put; elsewhere -r, -s/-S, -T swap\n"
"  knob [local:|remote:]NAME=V1,V2,... [[local:|remote:]NAME2=W1,W2,...]\n"
"                 any catalog knob, or the cross product of two; put back\n"
"                 afterwards (also after Ctrl-C or a failed point)\n"
"  knob both:NAME=V1,V2,...      one knob set alike on both ends per point\n"
"  send-size [LIST]              -m of a stream test (default TCP_STREAM,\n"
"                 LIST " SWEEP_DEFAULT_SEND_SIZES ")\n"
"  preset [NAME]  a sweep of data/sweeps; alone, list them\n"
"  show ID [--json] [--db PATH]  the table of stored sweep ID again\n"
"\n"
"Columns: the point, its rate, then netperf's output selectors given after\n"
"`--` (-O LIST a table, -o LIST CSV, -k LIST NAME=value per point; -o ?\n"
"lists them), else --columns LIST (a preset's), else p50/p99 latency (RR)\n"
"and the CPU with -c/-C.  A column of CPU figures turns -c/-C on, one of\n"
"the capture --capture=auto.\n"
"\n"
"Run options are `tunetop run`'s (tunetop run -h): -l (10 s per point),\n"
"-i/-I (each point iterates to a confidence interval), -t, -T, -c/-C, -H,\n"
"--lab, --loopback, --mtu, --set, --capture, --db, --no-db, --json, ...\n"
"Exit status: 0, 1 a point failed or a knob was not put back, 2 bad\n"
"options, 130 stopped by a signal.\n", f);
}

/* Whether sw's points follow an MSS (sweep_policy_needs_mss). */
static bool sweep_mss_needed(const struct sweep *sw)
{
	return sweep_policy_needs_mss(sw->kind, sw->list_given ? sw->list_text : NULL);
}

/* One of the sweep's own options (sweep_arg_own()) into sw; false for a
 * list or knob word. */
static bool sweep_own_opt(struct sweep *sw, int what, const char *a)
{
	switch (what) {
	case SWEEP_ARG_RESPONSE:
		sw->response = true;
		return true;
	case SWEEP_ARG_REVERSE:
		sw->reverse = true;
		return true;
	case SWEEP_ARG_COLUMNS:
		snprintf(sw->columns, sizeof(sw->columns), "%s", a);
		return true;
	case SWEEP_ARG_MSS:
		sw->mss_given = true;
		return true;
	default:
		return false;
	}
}

/*
 * Sweep's own arguments, between the kind and the run options: the list
 * or knob specs, --response, --mss N, --reverse.  *next is the first run
 * option.  0, 1 for help, or 2 with err.
 */
static int sweep_own_args(struct sweep *sw, int argc, char **argv, int *next, char *err)
{
	int i = 2;

	for (;;) {
		const char *a;
		int what = sweep_arg_next(sw->kind, argc, argv, &i, &a, &sw->mss, err);

		if (what < 0)
			return 2;
		if (what == SWEEP_ARG_HELP)
			return 1;
		if (what == SWEEP_ARG_END)
			break;
		if (sweep_own_opt(sw, what, a))
			continue;
		if (sw->kind == SW_KNOB) {
			enum sweep_end end;
			const char *body = sweep_knob_end(a, &end);
			struct sweep_knob *k;

			if (end == SWEEP_END_BOTH || sw->both) {
				if (sw->nknobs)
					return err_set(err, 2, "argument \"%.64s\": both: sweeps one knob alone; accepted: both:NAME=V1,V2,... or up to two [local:|remote:]NAME=V1,...",
						       a);
				k = &sw->knob[0];
				if (sweep_parse_knob(body, k->name, sizeof(k->name), k->buf,
						     sizeof(k->buf), k->values, SWEEP_MAX_POINTS,
						     &k->n, err))
					return 2;
				/* The same values on the remote end, in step (the pointers
				 * stay in knob[0].buf). */
				sw->knob[1] = *k;
				sw->knob[1].remote = true;
				sw->nknobs = 2;
				sw->both = true;
				continue;
			}
			if (sw->nknobs == 2)
				return err_set(err, 2, "argument \"%.64s\": at most two knobs (their cross product); accepted: [local:|remote:]NAME=V1,V2,...",
					       a);
			k = &sw->knob[sw->nknobs++];
			k->remote = end == SWEEP_END_REMOTE;
			if (sweep_parse_knob(body, k->name, sizeof(k->name),
					     k->buf, sizeof(k->buf), k->values, SWEEP_MAX_POINTS,
					     &k->n, err))
				return 2;
			continue;
		}
		if (sw->list_given)
			return err_set(err, 2, "argument \"%.64s\": a second list; accepted: one comma-separated list, e.g. %s",
				       a, sw->kind == SW_BURST ? SWEEP_DEFAULT_BURSTS :
				       sw->kind == SW_SIZE ? "1,1448,4345 or a range 1..4500" :
				       SWEEP_DEFAULT_SEND_SIZES);
		if (strlen(a) >= sizeof(sw->list_text))
			return err_set(err, 2, "argument: list longer than %zu characters",
				       sizeof(sw->list_text) - 1);
		snprintf(sw->list_text, sizeof(sw->list_text), "%s", a);
		sw->list_given = true;
	}
	if (sw->kind == SW_KNOB && !sw->nknobs)
		return err_set(err, 2, "knob: no knob; accepted: [local:|remote:|both:]NAME=V1,V2,... (e.g. rx-usecs=0,3,15,45,100)");
	*next = i;
	return 0;
}

/*
 * --reverse, seed 004's "backward direction": there netperf ran on the
 * other host, each host keeping its own settings.  --set sides swap here,
 * before the checks: a knob stays on its host (lab side) whichever end
 * initiates.  Then the engine's target_reverse turns the run around.
 */
static int sweep_reverse(struct run_opts *o, char *err)
{
	/* With -H the client stays here: local: and remote: are still the hosts named. */
	for (unsigned i = 0; !o->so.host && i < o->nset; i++) {
		enum sweep_end end;
		char rest[160];

		snprintf(rest, sizeof(rest), "%s", sweep_knob_end(o->set[i], &end));
		if (end == SWEEP_END_BOTH)	/* both ends alike: nothing to swap */
			continue;
		if (strlen(rest) + 7 >= sizeof(o->set[i]))
			return err_set(err, 2, "option --set %.40s...: too long to swap sides for --reverse; accepted: at most %zu characters",
				       rest, sizeof(o->set[i]) - 8);
		snprintf(o->set[i], sizeof(o->set[i]), "%s%.152s",
			 end == SWEEP_END_REMOTE ? "local:" : "remote:", rest);
	}
	return 0;
}

/* Check a swept knob: known and settable (plan_knob_find), on a side it can be set. */
static int sweep_check_knob(const struct sweep *sw, const char *name, bool remote,
			    const struct knob_def **d, char *err)
{
	char why[ERR_MAX];

	if (plan_knob_find(sw->cat, name, d, why))
		return err_set(err, 2, "knob %s", why);
	if (remote && options_remote_knobs_refusal(&sw->o))
		return err_set(err, 2, "knob remote:%s: %s", name, options_remote_knobs_refusal(&sw->o));
	return 0;
}

/* A point's test parameters, checked as a server would.  0 or 2 with err. */
static int sweep_point_params(const struct sweep *sw, uint64_t v, struct test_params *p,
			      char *err)
{
	*p = sw->o.so.p;
	return sweep_policy_point_params(sw->kind, sw->response, v, p, err) ? 2 : 0;
}

/* Add the points of a numeric sweep for values v[0..n-1]. */
static int sweep_add_values(struct sweep *sw, const uint64_t *v, unsigned n, char *err)
{
	for (unsigned i = 0; i < n; i++) {
		struct sweep_point *p = &sw->pt[sw->npt];
		struct test_params tp;

		if (sw->npt == SWEEP_MAX_POINTS)
			return err_set(err, 2, "sweep: more than %d points", SWEEP_MAX_POINTS);
		if (sweep_point_params(sw, v[i], &tp, err))
			return 2;
		memset(p, 0, sizeof(*p));
		p->value = v[i];
		sweep_policy_point_name(sw->kind, sw->response, v[i], p->name, sizeof(p->name));
		sw->npt++;
	}
	return 0;
}

/*
 * The table's columns: the selectors of -o/-O/-k, else --columns (checked
 * against the same table), else the engine's default; then what they need
 * turned on (-c, -C, the capture).  0 or 2 with err.
 */
static int sweep_columns(struct sweep *sw, char *err)
{
	struct run_opts *o = &sw->o;
	const struct selector *tab;
	char list[sizeof(sw->columns) + 64] = "", note[128] = "";
	unsigned n;

	tab = selector_table(&n);
	if (o->sel.n) {
		for (unsigned i = 0; i < o->sel.n; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 i ? "," : "", tab[o->sel.idx[i]].name);
	} else if (sw->columns[0]) {
		if (sweep_cols_check(sw->columns, o->so.p.type, o->iterating, err))
			return 2;
		snprintf(list, sizeof(list), "%s", sw->columns);
	}
	if (sweep_cols_make(list, test_is_rr(o->so.p.type), o->local_cpu, o->remote_cpu,
			    &sw->cols, err))
		return 2;
	sweep_cols_turn_on(&sw->cols, &o->local_cpu, &o->remote_cpu, &o->so.p.capture, note,
			   sizeof(note));
	snprintf(sw->cols_note, sizeof(sw->cols_note), "%s", note);
	return 0;
}

/*
 * Options, catalog checks and the planned points: 0, -1 for help (printed),
 * or the exit status with the reason printed.  A size sweep without --mss plans only its
 * first point; the rest follow its MSS.
 */
static int sweep_setup(struct sweep *sw, int argc, char **argv)
{
	char *rargv[256 + 3];
	char err[ERR_MAX] = "";
	uint64_t v[SWEEP_MAX_POINTS];
	unsigned n = 0;
	int next = 2, rargc = 0, ret;
	enum test_type t;

	ret = sweep_own_args(sw, argc, argv, &next, err);
	if (ret == 1) {
		sweep_usage(stdout);
		return -1;
	}
	if (ret)
		goto bad;
	if (argc - next > 256) {
		err_set(err, 2, "too many arguments (%d); accepted: at most 256 run options",
			argc - next);
		goto bad;
	}
	rargv[rargc++] = "run";
	if (sw->kind == SW_SEND) {
		/* A stream test unless the options name another. */
		rargv[rargc++] = "-t";
		rargv[rargc++] = "TCP_STREAM";
	}
	for (int i = next; i < argc; i++) {
		const char *a = argv[i];
		int j = i, what;

		/* The sweep's own options (--columns LIST, --reverse, ...)
		 * are taken anywhere before "--", among the run options. */
		if (!strcmp(a, "--")) {
			while (i < argc)
				rargv[rargc++] = argv[i++];
			break;
		}
		if (!sweep_arg_own(a)) {
			rargv[rargc++] = argv[i];
			continue;
		}
		what = sweep_arg_next(sw->kind, argc, argv, &j, &a, &sw->mss, err);
		if (what < 0)
			goto bad;
		sweep_own_opt(sw, what, a);
		i = j - 1;
	}
	rargv[rargc] = NULL;
	ret = options_parse(rargc, rargv, &sw->o, err);
	if (ret == 1)
		return -1;
	if (ret)
		goto bad;
	t = sw->o.so.p.type;
	if (sw->o.netperf_mode) {
		err_set(err, 2, "option --netperf: not for a sweep; accepted: tunetop run --netperf (netperf's output of one run)");
		goto bad;
	}
	if (sw->o.fmt == OUT_JSON_STREAM) {
		err_set(err, 2, "option --json-stream: not for a sweep; accepted: --json, -- -o/-O/-k LIST, or the table by default");
		goto bad;
	}
	if (sweep_columns(sw, err))
		goto bad;
	if (sw->o.keep) {
		err_set(err, 2, "option --keep: a sweep always puts its knobs back; accepted: tunetop knobs set before the sweep");
		goto bad;
	}
	if ((sw->kind == SW_SIZE || sw->kind == SW_BURST) && !test_is_rr(t)) {
		err_set(err, 2, "%s: the test is %s; accepted: -t TCP_RR, TCP_CRR or UDP_RR",
			sweep_policy_kind_name(sw->kind), test_type_name(t));
		goto bad;
	}
	if (sw->kind == SW_SEND && test_is_rr(t)) {
		err_set(err, 2, "send-size: the test is %s; accepted: -t TCP_STREAM, TCP_MAERTS or UDP_STREAM",
			test_type_name(t));
		goto bad;
	}
	if (sweep_mss_needed(sw) && test_is_udp(t) && !sw->mss_given) {
		err_set(err, 2, "size: UDP_RR has no MSS to find; accepted: --mss N with UDP_RR");
		goto bad;
	}
	if (sw->reverse && sweep_reverse(&sw->o, err))
		goto bad;
	if (sw->kind == SW_KNOB || sw->o.nset) {
		ret = catalog_load(&sw->cat, catalog_default_path(), err);
		if (ret) {
			fprintf(stderr, WHO ": %s\n", err);
			return 1;
		}
	}
	for (unsigned i = 0; i < sw->o.nset; i++) {
		struct plan_setting ps;
		bool remote[2];
		unsigned ne;
		char why[ERR_MAX];

		if (plan_setting_parse(sw->cat, sw->o.set[i], &ps, why)) {
			err_set(err, 2, "option --set %s", why);
			goto bad;
		}
		ne = plan_setting_ends(ps.end, remote);
		for (unsigned e = 0; e < ne; e++) {
			if (remote[e] && options_remote_knobs_refusal(&sw->o)) {
				err_set(err, 2, "option --set %s: %s", sw->o.set[i],
					options_remote_knobs_refusal(&sw->o));
				goto bad;
			}
			for (unsigned j = 0; j < sw->nknobs; j++)
				if (catalog_find(sw->cat, sw->knob[j].name) == ps.d &&
				    sw->knob[j].remote == remote[e]) {
					err_set(err, 2, "option --set %s: the sweep changes %s on that side; accepted: --set of another knob or side",
						sw->o.set[i], ps.d->name);
					goto bad;
				}
		}
	}
	for (unsigned j = 0; j < sw->nknobs; j++) {
		struct sweep_knob *k = &sw->knob[j];

		if (sweep_check_knob(sw, k->name, k->remote, &k->d, err))
			goto bad;
		for (unsigned i = 0; i < k->n; i++) {
			struct knob_value kv;

			if (knob_parse_value(k->d, k->values[i], &kv, err))
				goto bad;
		}
	}
	switch (sw->kind) {
	case SW_SIZE:
	case SW_BURST:
	case SW_SEND:
		/* A size sweep without --mss plans its first point only. */
		if (sweep_policy_plan(sw->kind, sw->list_given ? sw->list_text : NULL,
				      sw->mss_given ? sw->mss : 0, v, SWEEP_MAX_POINTS, &n, err)) {
			char why[ERR_MAX];

			snprintf(why, sizeof(why), "%s", err);
			err_set(err, 2, "%s%s%s", sw->kind == SW_SIZE ? "" : sweep_policy_kind_name(sw->kind),
				sw->kind == SW_SIZE ? "" : " ", why);
			goto bad;
		}
		break;
	case SW_KNOB: {
		/* The engine's plan (sweep_knob_plan), as the dashboard's. */
		static struct sweep_knob_pt kp[SWEEP_MAX_POINTS];
		struct sweep_knob_axis ax[2];
		unsigned nax = sw->both ? 1 : sw->nknobs;

		for (unsigned j = 0; j < nax; j++)
			ax[j] = (struct sweep_knob_axis){
				.name = sw->knob[j].d->name,
				.end = sw->both ? SWEEP_END_BOTH : sw->knob[j].remote ?
				       SWEEP_END_REMOTE : SWEEP_END_LOCAL,
				.values = sw->knob[j].values, .n = sw->knob[j].n,
			};
		if (sweep_knob_plan(ax, nax, kp, SWEEP_MAX_POINTS, &n, err))
			goto bad;
		for (unsigned i = 0; i < n; i++) {
			struct sweep_point *p = &sw->pt[sw->npt++];

			memset(p, 0, sizeof(*p));
			memcpy(p->ki, kp[i].ki, sizeof(p->ki));
			snprintf(p->name, sizeof(p->name), "%s", kp[i].name);
		}
		return 0;
	}
	}
	if (!sweep_add_values(sw, v, n, err))
		return 0;
bad:
	fprintf(stderr, WHO ": %s\n", err);
	return 2;
}

/* Signals that arrived since the last look (the run_ctx's signalfd). */
static void sweep_take_signals(struct run_ctx *c)
{
	struct signalfd_siginfo si;

	while (read(c->sfd, &si, sizeof(si)) == sizeof(si))
		c->signals++;
}

/*
 * Check that the knob can take every value it will get on its end
 * (plan_knob_begin, as tunetop ab's), keeping where it lives and its
 * value before the sweep.  0, or 1 printed.
 */
static int sweep_read_original(struct sweep *sw, struct plan_knob *ch,
			       const struct knob_def *d, bool remote,
			       const char *const *values, unsigned n)
{
	char err[ERR_MAX] = "";

	memset(ch, 0, sizeof(*ch));
	ch->d = d;
	run_knob_target(&sw->o, remote, &ch->t);
	if (plan_knob_begin(sw->cat, ch, values, n, err)) {
		fprintf(stderr, WHO ": %s\n", err);
		return 1;
	}
	return 0;
}

/* Put back every knob the sweep changed (--set too), newest first. */
static void sweep_restore(struct sweep *sw)
{
	if (run_undo_knobs(sw->txn, WHO))
		sw->restore_failed = true;
}

/*
 * Before the first point: every knob the sweep sets (swept and --set)
 * checked on its end, the originals read; then --set applied.  0, or 1
 * printed.
 */
static int sweep_knobs_begin(struct sweep *sw)
{
	for (unsigned j = 0; j < sw->nknobs; j++)
		if (sweep_read_original(sw, &sw->knob[j].ch, sw->knob[j].d, sw->knob[j].remote,
					sw->knob[j].values, sw->knob[j].n))
			return 1;
	for (unsigned i = 0; i < sw->o.nset; i++) {
		struct plan_setting ps;
		struct plan_knob ch;
		char err[ERR_MAX];
		const char *v = ps.value;
		bool remote[2];
		unsigned ne;

		if (plan_setting_parse(sw->cat, sw->o.set[i], &ps, err)) {
			fprintf(stderr, WHO ": --set %s\n", err);
			return 1;
		}
		ne = plan_setting_ends(ps.end, remote);
		for (unsigned e = 0; e < ne; e++)
			if (sweep_read_original(sw, &ch, ps.d, remote[e], &v, 1))
				return 1;
	}
	if (run_txn_begin(&sw->c, WHO, &sw->txn))
		return 1;
	return run_set_knobs(&sw->o, sw->cat, sw->txn, WHO, " (--set, for the whole sweep)",
			     sw->o.fmt == OUT_HUMAN ? stdout : NULL) ? 1 : 0;
}

/* Make point p's setting: its test parameter or its knob values.  0 or -errno with err. */
static int sweep_apply(struct sweep *sw, const struct sweep_point *p, char *err)
{
	struct test_params *tp = &sw->o.so.p;

	switch (sw->kind) {
	case SW_SIZE:
		if (sw->response)
			tp->resp_size = (uint32_t)p->value;
		else
			tp->req_size = (uint32_t)p->value;
		return 0;
	case SW_BURST:
		tp->burst = (uint32_t)p->value;
		return 0;
	case SW_SEND:
		tp->send_size = (uint32_t)p->value;
		return 0;
	case SW_KNOB:
		for (unsigned j = 0; j < sw->nknobs; j++) {
			struct sweep_knob *k = &sw->knob[j];
			char why[ERR_MAX];
			int ret;

			ret = knobs_txn_set(sw->txn, k->d, &k->ch.t, k->values[p->ki[j]], NULL,
					    NULL, why);
			if (ret)
				return err_set(err, ret, "set %s on %s: %s", k->d->name,
					       knobs_side_name(&k->ch.t), why);
		}
		return 0;
	}
	return 0;
}

/* Make the sweep's record; on failure the sweep goes on unstored. */
static void sweep_record(struct sweep *sw)
{
	struct store *st = NULL;
	json_t *spec;
	char err[ERR_MAX] = "";
	int ret;

	if (sw->o.no_db)
		return;
	spec = sweep_out_spec_json(sw);
	/* Which front end stored it, as the dashboard's say (plan_sweep_record). */
	if (spec && json_object_set_new(spec, "front", json_string("tunetop sweep")))
		json_decref(spec), spec = NULL;
	ret = spec ? store_open(&st, sw->o.db_path[0] ? sw->o.db_path : NULL, err) :
		     err_set(err, -ENOMEM, "out of memory");
	if (!ret)
		ret = store_add_sweep(st, sweep_policy_kind_name(sw->kind), spec, &sw->sweep_id, err);
	store_close(st);
	json_decref(spec);
	if (ret) {
		fprintf(stderr, WHO ": the sweep is not stored: %s\n", err);
		sw->o.no_db = true;
	}
}

/* Run point i and keep its figures; false when the sweep must stop. */
static bool sweep_point(struct sweep *sw, unsigned i)
{
	static struct run_summary sum;
	struct sweep_point *p = &sw->pt[i];
	char err[ERR_MAX] = "";
	bool human = sw->o.fmt == OUT_HUMAN;

	p->thr = p->ci = p->p50 = p->p99 = p->lcpu = p->rcpu = p->tick_sd = NAN;
	p->ran = true;
	sw->nrun = i + 1;
	if (sweep_apply(sw, p, err)) {
		p->failed = true;
		snprintf(p->failure, sizeof(p->failure), "%s", err);
		if (human) {
			sweep_out_row(sw, p);
			printf("\n");
		}
		return true;
	}
	run_iterate(&sw->c, &sum);
	if (sum.iterations) {
		json_t *doc = output_result_json(&sw->o, &sum);

		sweep_out_point_cols(sw, p, doc);
		json_decref(doc);
	}
	p->iterations = sum.iterations;
	p->failed = sum.failed;
	snprintf(p->failure, sizeof(p->failure), "%s", sum.failure);
	if (!sum.failed || sum.res.elapsed > 0) {
		p->thr = sum.mean_throughput;
		if (sum.iterating && sum.thr.n >= 2 && isfinite(sum.thr.half_width))
			p->ci = sum.thr.half_width;
		else
			p->tick_sd = store_series_sd(sum.series, store_series_names[SS_RATE]);
		if (sum.res.local.has_lat && sum.res.local.lat.count) {
			p->p50 = sum.res.local.lat.p50_us;
			p->p99 = sum.res.local.lat.p99_us;
		}
		if (sw->o.local_cpu && sum.res.local.cpu.ncpu)
			p->lcpu = sum.mean_lcpu;
		if (sw->o.remote_cpu && sum.res.remote.cpu.ncpu)
			p->rcpu = sum.mean_rcpu;
		if (sum.res.units && !sw->units[0])
			snprintf(sw->units, sizeof(sw->units), "%s", sum.res.units);
		if (sum.res.target[0] && !sw->target_of_run) {
			snprintf(sw->target, sizeof(sw->target), "%s", sum.res.target);
			sw->target_of_run = true;
		}
	}
	if (sweep_mss_needed(sw) && i == 0 && !sw->mss_given) {
		uint64_t v[SWEEP_MAX_POINTS];
		unsigned n = 0;

		sw->mss = sum.failed ? 0 : plan_sweep_mss(&sum.res, sw->response);
		/* The plan around that MSS, its first point (1 byte) run already. */
		if (sw->mss && sweep_policy_plan(SW_SIZE, sw->list_given ? sw->list_text : NULL,
						 sw->mss, v, SWEEP_MAX_POINTS, &n, err))
			n = 0;
		if (n > 1 && sweep_add_values(sw, v + 1, n - 1, err)) {
			fprintf(stderr, WHO ": %s\n", err);
			n = 0;
		}
		if (!sw->mss && !sum.failed) {
			p->failed = true;
			snprintf(p->failure, sizeof(p->failure),
				 "the connection reported no MSS (give --mss N)");
		}
		if (human && sw->mss)
			printf("# MSS %u (the first point's connection): %u points\n", sw->mss,
			       sw->npt);
		sweep_record(sw);
	}
	if (sum.iterations && run_store(&sw->c, &sum, "sweep", sw->sweep_id, p->name,
						 &p->run_id, NULL))
		p->run_id = 0;
	run_summary_free(&sum);
	if (human) {
		sweep_out_row(sw, p);
		printf("\n");
		fflush(stdout);
	}
	if (sw->c.signals)
		sw->interrupted = true;
	/* A tunetopd that cannot be reached fails every later point the same way. */
	if (p->failed && strstr(p->failure, "connect to tunetopd"))
		sw->unreachable = true;
	return !sw->interrupted && !sw->unreachable && !(sweep_mss_needed(sw) && !sw->mss);
}

/* The sweep after its options: target, knobs, points, output, restore. */
static int sweep_run(struct sweep *sw)
{
	int ret = 0;

	if (run_ctx_open(&sw->c, &sw->o, WHO))
		return 1;
	sw->ctx_open = true;
	/* The engine turns the run around (target_reverse). */
	if (sw->reverse)
		target_reverse(&sw->o.so);
	plan_target_text(&sw->o.so, sw->target, sizeof(sw->target));
	if (sweep_knobs_begin(sw)) {
		sweep_restore(sw);
		knobs_txn_free(sw->txn);
		run_ctx_close(&sw->c);
		return 1;
	}
	if (sw->o.fmt == OUT_HUMAN) {
		struct test_params first = sw->o.so.p;
		char err[ERR_MAX];

		/* The test as its first point runs it. */
		if (sw->kind != SW_KNOB)
			sweep_point_params(sw, sw->pt[0].value, &first, err);
		sweep_out_header(sw, &first);
	}
	if (!sweep_mss_needed(sw) || sw->mss_given)
		sweep_record(sw);
	for (unsigned i = 0; i < sw->npt; i++) {
		sweep_take_signals(&sw->c);
		if (sw->c.signals) {
			sw->interrupted = true;
			break;
		}
		if (!sweep_point(sw, i))
			break;
	}
	sweep_take_signals(&sw->c);
	if (sw->c.signals)
		sw->interrupted = true;
	sweep_restore(sw);
	knobs_txn_free(sw->txn);
	sw->txn = NULL;
	sweep_out_mark_cliffs(sw);
	sweep_out_cliffs_moved(sw, sw->o.db_path[0] ? sw->o.db_path : NULL, sw->o.no_db);
	if (sw->o.fmt == OUT_JSON)
		sweep_out_json(sw);
	else if (sw->o.fmt == OUT_CSV)
		sweep_out_csv(sw);
	else if (sw->o.fmt == OUT_KEYVAL)
		sweep_out_keyval(sw);
	else
		sweep_out_table(sw);
	fflush(stdout);
	for (unsigned i = 0; i < sw->nrun; i++)
		if (sw->pt[i].failed) {
			fprintf(stderr, WHO ": point %s failed: %s\n", sw->pt[i].name,
				sw->pt[i].failure);
			ret = 1;
		}
	if (sweep_mss_needed(sw) && !sw->mss && !ret) {
		fprintf(stderr, WHO ": the MSS is unknown, so the size sweep stopped after its first point\n");
		ret = 1;
	}
	run_ctx_close(&sw->c);
	if (sw->restore_failed)
		return 1;
	if (sw->interrupted && sw->nrun < sw->npt)
		return 130;
	return ret;
}

/* Expand a preset, pick the kind, set the sweep up and run it. */
int sweep_main(int argc, char **argv)
{
	static struct sweep sw;
	int ret;

	memset(&sw, 0, sizeof(sw));
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		sweep_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "show"))
		return sweep_show_main(argc, argv);
	if (!strcmp(argv[1], "preset")) {
		if (argc > 2 && argv[2][0] == '-' && strcmp(argv[2], "-h") && strcmp(argv[2], "--help")) {
			fprintf(stderr, WHO " preset: %s before the name; accepted: tunetop sweep preset [NAME [run options]]\n",
				argv[2]);
			return 2;
		}
		if (argc > 2 && argv[2][0] == '-') {
			sweep_usage(stdout);
			return 0;
		}
		ret = sweep_preset_expand(&argc, &argv);
		if (ret)
			return ret < 0 ? 0 : ret;
	}
	if (sweep_policy_kind_parse(argv[1], &sw.kind)) {
		fprintf(stderr, WHO ": unknown sweep '%s'; accepted: %s\n", argv[1], KINDS_HINT);
		return 2;
	}
	ret = sweep_setup(&sw, argc, argv);
	if (ret) {
		catalog_free(sw.cat);
		return ret < 0 ? 0 : ret;
	}
	ret = sweep_run(&sw);
	sweep_out_free(&sw);
	catalog_free(sw.cat);
	return ret;
}
