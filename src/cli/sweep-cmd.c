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

/* The table's points for the plan's steps from the first not yet there. */
static void sweep_points_sync(struct sweep *sw)
{
	for (; sw->npt < sw->pl->n; sw->npt++) {
		const struct plan_step *ps = &sw->pl->step[sw->npt];
		struct sweep_point *p = &sw->pt[sw->npt];

		memset(p, 0, sizeof(*p));
		p->value = ps->value;
		memcpy(p->ki, ps->ki, sizeof(p->ki));
		snprintf(p->name, sizeof(p->name), "%s", ps->point);
	}
}

/*
 * The sweep as the engine's plan (struct plan): a numeric kind's points
 * (sweep_policy_plan; a size sweep without --mss its first point only),
 * a knob sweep's one knob or two crossed (sweep_knob_plan).  0 or 2 with
 * err.
 */
static int sweep_plan(struct sweep *sw, char *err)
{
	char why[ERR_MAX];
	int rc;

	sw->pl = plan_new(sw->cat);
	if (!sw->pl)
		return err_set(err, 2, "out of memory");
	if (sw->kind == SW_KNOB) {
		struct sweep_knob_axis ax[2];
		unsigned nax = sw->both ? 1 : sw->nknobs;

		for (unsigned j = 0; j < nax; j++)
			ax[j] = (struct sweep_knob_axis){
				.name = sw->knob[j].d->name,
				.end = sw->both ? SWEEP_END_BOTH : sw->knob[j].remote ?
				       SWEEP_END_REMOTE : SWEEP_END_LOCAL,
				.values = sw->knob[j].values, .n = sw->knob[j].n,
			};
		rc = plan_sweep_knobs(sw->pl, &sw->o.so.p, ax, nax, err);
	} else {
		rc = plan_sweep_build(sw->pl, sw->kind, &sw->o.so.p, sw->response,
				      sw->list_given ? sw->list_text : NULL,
				      sw->mss_given ? sw->mss : 0, why);
		/* A list the policy cannot plan is named by its kind (but size's). */
		if (rc == -EDOM)
			err_set(err, 2, "%s%s%s", sw->kind == SW_SIZE ? "" : sweep_policy_kind_name(sw->kind),
				sw->kind == SW_SIZE ? "" : " ", why);
		else if (rc)
			err_set(err, 2, "%s", why);
	}
	if (rc)
		return 2;
	sweep_points_sync(sw);
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
		ne = sweep_end_sides(ps.end, remote);
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
	if (!sweep_plan(sw, err))
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
 * Check that a --set knob can take its value on its end (plan_knob_begin,
 * as the plan's own knobs are checked).  0, or 1 printed.
 */
static int sweep_check_set(struct sweep *sw, const struct knob_def *d, bool remote,
			   const char *value)
{
	struct plan_knob ch;
	char err[ERR_MAX] = "";

	memset(&ch, 0, sizeof(ch));
	ch.d = d;
	run_knob_target(&sw->o, remote, &ch.t);
	if (plan_knob_begin(sw->cat, &ch, &value, 1, err)) {
		fprintf(stderr, WHO ": %s\n", err);
		return 1;
	}
	return 0;
}

/* Put back every knob the sweep changed (--set too), newest first. */
static void sweep_restore(struct sweep *sw)
{
	char err[ERR_MAX];

	if (plan_restore(sw->pl, run_undo_say, (void *)WHO, err))
		sw->restore_failed = true;
}

/*
 * Before the first point: every knob the sweep sets checked on its end,
 * the originals read (plan_begin, and each --set); then --set applied.
 * 0, or 1 printed.
 */
static int sweep_knobs_begin(struct sweep *sw)
{
	char err[ERR_MAX] = "";

	if (run_txn_begin(&sw->c, WHO, &sw->txn))
		return 1;
	if (plan_begin(sw->pl, &sw->o.so, sw->txn, true, err)) {
		fprintf(stderr, WHO ": %s\n", err);
		return 1;
	}
	for (unsigned j = 0; j < sw->nknobs && j < sw->pl->nknobs; j++)
		sw->knob[j].ch = sw->pl->knob[j].k;
	for (unsigned i = 0; i < sw->o.nset; i++) {
		struct plan_setting ps;
		bool remote[2];
		unsigned ne;

		if (plan_setting_parse(sw->cat, sw->o.set[i], &ps, err)) {
			fprintf(stderr, WHO ": --set %s\n", err);
			return 1;
		}
		ne = sweep_end_sides(ps.end, remote);
		for (unsigned e = 0; e < ne; e++)
			if (sweep_check_set(sw, ps.d, remote[e], ps.value))
				return 1;
	}
	return run_set_knobs(&sw->o, sw->cat, sw->txn, WHO, " (--set, for the whole sweep)",
			     sw->o.fmt == OUT_HUMAN ? stdout : NULL) ? 1 : 0;
}

/* Make the sweep's record; on failure the sweep goes on unstored. */
static void sweep_record(struct sweep *sw)
{
	struct store *st = NULL;
	json_t *spec;
	char err[ERR_MAX] = "", target[160];
	int ret;

	if (sw->o.no_db)
		return;
	spec = sweep_out_spec_json(sw);
	/* Which front end stored it, as the dashboard's say (plan_sweep_record),
	 * and its target as every record names it (plan_target_text), also
	 * when a size sweep's first run has described it meanwhile. */
	plan_target_text(&sw->o.so, target, sizeof(target));
	if (spec && (json_object_set_new(spec, "front", json_string("tunetop sweep")) ||
		     json_object_set_new(spec, "target", json_string(target))))
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

/* Run the plan's step ps and keep its figures; the plan stops where the sweep must. */
static void sweep_point(struct sweep *sw, struct plan_step *ps)
{
	static struct run_summary sum;
	struct sweep_point *p = &sw->pt[ps->i];
	struct plan_outcome out = { .ci = NAN, .tick_sd = NAN };
	char err[ERR_MAX] = "";
	bool human = sw->o.fmt == OUT_HUMAN, waited = sw->pl->mss_wait;
	unsigned ev;

	for (int m = 0; m < PLAN_FIGS; m++)
		out.fig[m] = NAN;
	p->thr = p->ci = p->p50 = p->p99 = p->lcpu = p->rcpu = p->tick_sd = NAN;
	p->ran = true;
	sw->nrun = ps->i + 1;
	if (plan_apply(sw->pl, ps, err)) {
		p->failed = true;
		snprintf(p->failure, sizeof(p->failure), "%s", err);
		out.failed = true;
		plan_step_done(sw->pl, &out);
		if (human) {
			sweep_out_row(sw, p);
			printf("\n");
		}
		return;
	}
	sw->o.so.p = ps->p;
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
	out.failed = sum.failed;
	out.res = &sum.res;
	out.fig[PLAN_AB_RATE] = p->thr;
	out.ci = p->ci;
	out.tick_sd = p->tick_sd;
	/* A size sweep's first point: the rest planned around its MSS. */
	ev = plan_step_done(sw->pl, &out);
	if (waited) {
		sw->mss = sw->pl->mss;
		sweep_points_sync(sw);
		if (ps->failed && !p->failed) {
			p->failed = true;
			snprintf(p->failure, sizeof(p->failure), "%s", ps->note);
		}
		if (human && (ev & PLAN_EV_MSS))
			printf("# MSS %u (the first point's connection): %u points\n", sw->mss,
			       sw->npt);
		sweep_record(sw);
	}
	if (sum.iterations && run_store(&sw->c, &sum, "sweep", sw->sweep_id, p->name,
						 &p->run_id, NULL))
		p->run_id = 0;
	ps->run_id = p->run_id;
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
	if (sw->interrupted || sw->unreachable)
		plan_stop(sw->pl);
}

/* The sweep after its options: target, knobs, points, output, restore. */
static int sweep_run(struct sweep *sw)
{
	int ret = 0;

	if (run_ctx_open(&sw->c, &sw->o, WHO))
		return 1;
	sw->ctx_open = true;
	/* The engine turns the run around (target_reverse). */
	if (sw->reverse) {
		target_reverse(&sw->o.so);
		plan_rebase(sw->pl, &sw->o.so.p);
	}
	plan_target_text(&sw->o.so, sw->target, sizeof(sw->target));
	if (sweep_knobs_begin(sw)) {
		sweep_restore(sw);
		knobs_txn_free(sw->txn);
		run_ctx_close(&sw->c);
		return 1;
	}
	/* The test as its first point runs it. */
	if (sw->o.fmt == OUT_HUMAN)
		sweep_out_header(sw, &sw->pl->step[0].p);
	if (!sweep_mss_needed(sw) || sw->mss_given)
		sweep_record(sw);
	for (struct plan_step *ps; (ps = plan_next(sw->pl));) {
		sweep_take_signals(&sw->c);
		if (sw->c.signals) {
			sw->interrupted = true;
			break;
		}
		sweep_point(sw, ps);
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
		plan_destroy(sw.pl);
		catalog_free(sw.cat);
		return ret < 0 ? 0 : ret;
	}
	ret = sweep_run(&sw);
	sweep_out_free(&sw);
	plan_destroy(sw.pl);
	catalog_free(sw.cat);
	return ret;
}
