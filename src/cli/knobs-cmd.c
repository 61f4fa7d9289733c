// SPDX-License-Identifier: GPL-2.0-or-later
/* knobs-cmd.c - `tunetop knobs list|get|set|snapshot|diff|restore`. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "engine.h"
#include "knobs-cmd.h"

struct knobs_opts {
	struct knob_target t;
	const char *lab;
	bool json;
	int nargs;
	char **args;
	/* --side remote */
	bool remote;
	const char *host, *port, *key;
	bool dev_given;
	unsigned hold;			/* --hold SECS */
};

static void knobs_usage(FILE *f)
{
	fprintf(f,
		"Usage: tunetop knobs list [OPTIONS]\n"
		"       tunetop knobs get NAME... [OPTIONS]\n"
		"       tunetop knobs set NAME=VALUE... [OPTIONS]\n"
		"       tunetop knobs snapshot [OPTIONS]\n"
		"       tunetop knobs diff FILE1 FILE2   (`knobs snapshot --json` outputs, or\n"
		"                                        `run --json` ones as FILE[:local|:remote])\n"
		"       tunetop knobs restore            (put back every journaled original)\n"
		"\n"
		"  --side local|lab-a|lab-b  where the knobs are (default local)\n"
		"  --lab NAME                the lab of a lab side\n"
		"  --dev DEV                 device of per-device knobs (default: the\n"
		"                            default route's device, or the lab's veth)\n"
		"  --json                    JSON output (list, get, snapshot)\n"
		"\n"
		"  --side remote -H HOST [-p PORT]   the knobs of the host tunetopd runs on\n"
		"  --key FILE                tunetopd's knob-control key (set only; reads\n"
		"                            need none); tunetopd must run with --knobs --key\n"
		"  --hold SECS               set --side remote: keep the change SECS seconds\n"
		"\n"
		"`set` journals each original value before the first change; the change\n"
		"stays until `tunetop knobs restore` or `tunetop restore`.\n"
		"A remote change lives only as long as the client's session: tunetopd\n"
		"puts it back when the connection closes, so `set --side remote` is\n"
		"restored when the command exits (after --hold SECS).  The dashboard and\n"
		"runs hold their remote changes for as long as they run.\n");
}


/* Parse the options shared by every command; 0, or an exit status. */
static int knobs_parse(int argc, char **argv, struct knobs_opts *o)
{
	const char *side = "local", *dev = NULL;

	memset(o, 0, sizeof(*o));
	o->args = calloc((size_t)argc + 1, sizeof(*o->args));
	if (!o->args)
		return 1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--json")) {
			o->json = true;
			continue;
		}
		if (!strcmp(a, "--side") || !strcmp(a, "--lab") || !strcmp(a, "--dev") ||
		    !strcmp(a, "-H") || !strcmp(a, "--host") || !strcmp(a, "-p") ||
		    !strcmp(a, "--port") || !strcmp(a, "--key") || !strcmp(a, "--hold")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "tunetop knobs: option %s: missing value\n", a);
				return 2;
			}
			if (!strcmp(a, "--side"))
				side = argv[++i];
			else if (!strcmp(a, "--lab")) {
				char err[ERR_MAX];

				o->lab = argv[++i];
				if (lab_name_check(o->lab, err)) {
					fprintf(stderr, "tunetop knobs: option --lab: %s\n", err);
					return 2;
				}
			}
			else if (!strcmp(a, "-H") || !strcmp(a, "--host"))
				o->host = argv[++i];
			else if (!strcmp(a, "-p") || !strcmp(a, "--port"))
				o->port = argv[++i];
			else if (!strcmp(a, "--key"))
				o->key = argv[++i];
			else if (!strcmp(a, "--hold")) {
				uint64_t v;

				if (parse_uint(argv[++i], 0, 86400, &v)) {
					fprintf(stderr, "tunetop knobs: --hold %s: accepted is 0..86400 seconds\n",
						argv[i]);
					return 2;
				}
				o->hold = (unsigned)v;
			} else
				dev = argv[++i];
			continue;
		}
		if (a[0] == '-' && a[1]) {
			fprintf(stderr, "tunetop knobs: option %s: unknown; accepted: --side, --lab, --dev, --json, -H, -p, --key, --hold\n", a);
			return 2;
		}
		o->args[o->nargs++] = argv[i];
	}
	if (!strcmp(side, "remote")) {
		uint64_t v;

		if (!o->host) {
			fprintf(stderr, "tunetop knobs: --side remote needs -H HOST (where tunetopd runs)\n");
			return 2;
		}
		if (o->lab) {
			fprintf(stderr, "tunetop knobs: --lab %s needs --side lab-a or lab-b\n", o->lab);
			return 2;
		}
		if (o->port && parse_uint(o->port, 1, 65535, &v)) {
			fprintf(stderr, "tunetop knobs: -p %s: accepted is a port number 1..65535\n", o->port);
			return 2;
		}
		if (dev && strlen(dev) >= sizeof(o->t.dev)) {
			fprintf(stderr, "tunetop knobs: --dev %s: name too long\n", dev);
			return 2;
		}
		o->remote = true;
		o->dev_given = dev != NULL;
		if (dev)
			snprintf(o->t.dev, sizeof(o->t.dev), "%s", dev);
		return 0;
	}
	if (o->host || o->port || o->key || o->hold) {
		fprintf(stderr, "tunetop knobs: -H, -p, --key and --hold need --side remote\n");
		return 2;
	}
	if (!strcmp(side, "local"))
		o->t.where = KT_LOCAL;
	else if (!strcmp(side, "lab-a"))
		o->t.where = KT_LAB_A;
	else if (!strcmp(side, "lab-b"))
		o->t.where = KT_LAB_B;
	else {
		fprintf(stderr, "tunetop knobs: --side %s: accepted: local, remote, lab-a, lab-b\n", side);
		return 2;
	}
	if (o->t.where != KT_LOCAL && !o->lab) {
		fprintf(stderr, "tunetop knobs: --side %s needs --lab NAME\n", side);
		return 2;
	}
	if (o->t.where == KT_LOCAL && o->lab) {
		fprintf(stderr, "tunetop knobs: --lab %s needs --side lab-a or lab-b\n", o->lab);
		return 2;
	}
	if (dev && strlen(dev) >= sizeof(o->t.dev)) {
		fprintf(stderr, "tunetop knobs: --dev %s: name too long\n", dev);
		return 2;
	}
	if (dev)
		snprintf(o->t.dev, sizeof(o->t.dev), "%s", dev);
	else if (o->t.where == KT_LOCAL)
		knobs_default_dev(o->t.dev, sizeof(o->t.dev));
	return 0;
}

/* Open the lab a lab side names; 0 or 1 (said on stderr). */
static int knobs_open_lab(struct knobs_opts *o, struct lab **lp)
{
	char err[ERR_MAX];

	*lp = NULL;
	if (o->t.where == KT_LOCAL)
		return 0;
	if (lab_open(lp, o->lab, err)) {
		fprintf(stderr, "tunetop knobs: %s\n", err);
		return 1;
	}
	o->t.lab = *lp;
	return 0;
}

/* The value as shown: its text or "n/a (reason)". */
static void value_show(const struct knob_value *v, char *buf, size_t len)
{
	if (v->present)
		snprintf(buf, len, "%s", v->text);
	else
		snprintf(buf, len, "n/a (%s)", v->reason);
}

/* Print a snapshot as a table. */
static void snapshot_print(const struct catalog *c, const struct knob_snapshot *s)
{
	char buf[KNOB_TEXT_MAX + 112];

	printf("# side %s, device %s\n", s->side, *s->dev ? s->dev : "(none)");
	printf("%-36s %-11s %-8s %s\n", "KNOB", "GROUP", "SCOPE", "VALUE");
	for (unsigned i = 0; i < s->n; i++) {
		const struct knob_def *d = catalog_find(c, s->item[i].name);

		value_show(&s->item[i].v, buf, sizeof(buf));
		printf("%-36s %-11s %-8s %s%s%s\n", s->item[i].name, d ? d->group : "",
		       d ? knob_scope_text(d) : "", buf,
		       s->item[i].v.present && d && *d->unit && strcmp(d->unit, "-") ? " " : "",
		       s->item[i].v.present && d && strcmp(d->unit, "-") ? d->unit : "");
	}
}

/* Print json to stdout, one document. */
static void json_print(json_t *j)
{
	json_dumpf(j, stdout, JSON_INDENT(2));
	fputc('\n', stdout);
	json_decref(j);
}

static int knobs_list(const struct catalog *c, struct knobs_opts *o)
{
	struct knob_snapshot *s;
	char err[ERR_MAX];

	if (knobs_snapshot(c, &o->t, &s, err)) {
		fprintf(stderr, "tunetop knobs: %s\n", err);
		return 1;
	}
	if (o->json)
		json_print(knobs_snapshot_to_json(c, s));
	else
		snapshot_print(c, s);
	knobs_snapshot_free(s);
	return 0;
}

static int knobs_get_cmd(const struct catalog *c, struct knobs_opts *o)
{
	json_t *a = json_array();
	char err[ERR_MAX], buf[KNOB_TEXT_MAX + 112];
	int rc = 0;

	if (!o->nargs) {
		fprintf(stderr, "tunetop knobs get: which knobs? e.g. tunetop knobs get rx-usecs gro\n");
		json_decref(a);
		return 2;
	}
	for (int i = 0; i < o->nargs; i++)
		if (!catalog_find(c, o->args[i])) {
			fprintf(stderr, "tunetop knobs get: %s: unknown knob (tunetop knobs list shows them)\n",
				o->args[i]);
			json_decref(a);
			return 2;
		}
	for (int i = 0; i < o->nargs; i++) {
		const struct knob_def *d = catalog_find(c, o->args[i]);
		struct knob_value v;

		if (knobs_get(d, &o->t, &v, err)) {
			fprintf(stderr, "tunetop knobs get: %s\n", err);
			rc = 1;
			continue;
		}
		if (o->json) {
			json_array_append_new(a, knobs_knob_to_json(d, d->name, &v));
		} else {
			value_show(&v, buf, sizeof(buf));
			printf("%s: %s\n", d->name, buf);
		}
	}
	if (o->json)
		json_print(a);
	else
		json_decref(a);
	return rc;
}

static int knobs_set_cmd(const struct catalog *c, struct knobs_opts *o)
{
	struct knobs_txn *x;
	char err[ERR_MAX], before[KNOB_TEXT_MAX + 112];
	int rc = 0;

	if (!o->nargs) {
		fprintf(stderr, "tunetop knobs set: what? e.g. tunetop knobs set rx-usecs=64 gro=off\n");
		return 2;
	}
	/* Every value is checked before any is applied. */
	for (int i = 0; i < o->nargs; i++) {
		char *eq = strchr(o->args[i], '=');
		const struct knob_def *d;
		struct knob_value v;

		if (!eq) {
			fprintf(stderr, "tunetop knobs set: %s: accepted: NAME=VALUE\n", o->args[i]);
			return 2;
		}
		*eq = '\0';
		d = catalog_find(c, o->args[i]);
		*eq = '=';
		if (!d) {
			fprintf(stderr, "tunetop knobs set: %.*s: unknown knob (tunetop knobs list shows them)\n",
				(int)(eq - o->args[i]), o->args[i]);
			return 2;
		}
		if (knobs_read_only(d)) {
			printf("%s: %s\n", d->name, knobs_read_only(d));
			rc = 2;
			continue;
		}
		if (knob_parse_value(d, eq + 1, &v, err)) {
			fprintf(stderr, "tunetop knobs set: %s\n", err);
			return 2;
		}
	}
	if (rc)
		return rc;
	/* A transaction kept at once: the originals stay journaled for restore. */
	if (knobs_txn_begin(&x, "tunetop knobs set", 0, err)) {
		fprintf(stderr, "tunetop knobs set: %s\n", err);
		return 1;
	}
	for (int i = 0; i < o->nargs; i++) {
		char *eq = strchr(o->args[i], '=');
		const struct knob_def *d;
		struct knob_value cur, after;

		*eq = '\0';
		d = catalog_find(c, o->args[i]);
		*eq = '=';
		if (knobs_get(d, &o->t, &cur, err) == 0)
			value_show(&cur, before, sizeof(before));
		else
			snprintf(before, sizeof(before), "?");
		if (knobs_txn_set(x, d, &o->t, eq + 1, NULL, &after, err)) {
			size_t nl = strlen(d->name);

			/* Errors mostly name the knob already. */
			if (!strncmp(err, d->name, nl) && err[nl] == ':')
				printf("%s\n", err);
			else
				printf("%s: %s\n", d->name, err);
			rc = 1;
			continue;
		}
		printf("%s: %s -> %s\n", d->name, before, after.text);
	}
	if (knobs_txn_keep(x, err)) {
		fprintf(stderr, "tunetop knobs set: %s\n", err);
		rc = 1;
	}
	knobs_txn_free(x);
	return rc;
}

/* Read a `knobs snapshot --json` file into a snapshot; 0 or 1. */
static int snapshot_load(const char *path, struct knob_snapshot **out)
{
	json_error_t je;
	json_t *j, *a, *doc, *run;
	struct knob_snapshot *s;
	char file[4096];
	const char *end = result_doc_ends[0];
	const char *colon = strrchr(path, ':');
	size_t n;

	/* FILE, or FILE:local / FILE:remote for a `tunetop run --json` file. */
	snprintf(file, sizeof(file), "%s", path);
	if (colon && (!strcmp(colon, ":local") || !strcmp(colon, ":remote"))) {
		file[colon - path] = '\0';
		end = colon + 1;
	}
	*out = NULL;
	doc = j = json_load_file(file, 0, &je);
	if (!j) {
		fprintf(stderr, "tunetop knobs diff: %s:%d: %s\n", file, je.line, je.text);
		return 1;
	}
	/* A run's document holds both ends' snapshots under "knobs". */
	run = json_object_get(j, RESULT_DOC_KEY_KNOBS);
	if (json_is_object(run))
		j = json_object_get(run, end);
	a = json_object_get(j, KNOBS_KEY_LIST);
	if (!json_is_array(a)) {
		fprintf(stderr, "tunetop knobs diff: %s: accepted: a `tunetop knobs snapshot --json` output, or a `tunetop run --json` one (FILE[:local|:remote]) with that end's knobs\n",
			path);
		json_decref(doc);
		return 1;
	}
	n = json_array_size(a);
	s = calloc(1, sizeof(*s));
	if (s)
		s->item = calloc(n ? n : 1, sizeof(*s->item));
	if (!s || !s->item) {
		knobs_snapshot_free(s);
		json_decref(doc);
		return 1;
	}
	/* The file's strings reach the terminal: escaped (str_escape). */
	snprintf(s->side, sizeof(s->side), "%s", json_string_value(json_object_get(j, KNOBS_KEY_SIDE)) ?: "");
	str_sanitize(s->side, sizeof(s->side));
	snprintf(s->dev, sizeof(s->dev), "%s", json_string_value(json_object_get(j, KNOBS_KEY_DEV)) ?: "");
	str_sanitize(s->dev, sizeof(s->dev));
	for (size_t i = 0; i < n; i++) {
		json_t *k = json_array_get(a, i);
		const char *name = result_doc_knob_name(k);
		const char *val = result_doc_knob_value(k);
		const char *why = result_doc_knob_reason(k);
		struct knob_snapshot_item *it = &s->item[s->n];

		if (!name)
			continue;
		snprintf(it->name, sizeof(it->name), "%s", name);
		it->v.present = val != NULL;
		snprintf(it->v.text, sizeof(it->v.text), "%s", val ?: "");
		snprintf(it->v.reason, sizeof(it->v.reason), "%s", why ?: "");
		str_sanitize(it->name, sizeof(it->name));
		str_sanitize(it->v.text, sizeof(it->v.text));
		str_sanitize(it->v.reason, sizeof(it->v.reason));
		s->n++;
	}
	json_decref(doc);
	*out = s;
	return 0;
}

static int knobs_diff_cmd(struct knobs_opts *o)
{
	struct knob_snapshot *a = NULL, *b = NULL;
	char names[256][KNOB_NAME_MAX];
	unsigned n;

	if (o->nargs != 2) {
		fprintf(stderr, "tunetop knobs diff: accepted: tunetop knobs diff FILE1 FILE2\n");
		return 2;
	}
	if (snapshot_load(o->args[0], &a) || snapshot_load(o->args[1], &b)) {
		knobs_snapshot_free(a);
		return 1;
	}
	n = knobs_snapshot_diff(a, b, names, 256);
	for (unsigned i = 0; i < n && i < 256; i++) {
		const struct knob_snapshot_item *x = NULL, *y = NULL;
		char bx[KNOB_TEXT_MAX + 112] = "(absent)", by[KNOB_TEXT_MAX + 112] = "(absent)";

		for (unsigned k = 0; k < a->n; k++)
			if (!strcmp(a->item[k].name, names[i]))
				x = &a->item[k];
		for (unsigned k = 0; k < b->n; k++)
			if (!strcmp(b->item[k].name, names[i]))
				y = &b->item[k];
		if (x)
			value_show(&x->v, bx, sizeof(bx));
		if (y)
			value_show(&y->v, by, sizeof(by));
		printf("%s: %s -> %s\n", names[i], bx, by);
	}
	if (!n)
		printf("no differences\n");
	knobs_snapshot_free(a);
	knobs_snapshot_free(b);
	return 0;
}

/* --- --side remote ------------------------------------------------------------ */

/* Connect to the tunetopd of o; 0 or 1 (said on stderr). */
static int remote_open(const struct knobs_opts *o, struct knobs_remote **rp, const char *who)
{
	char err[ERR_MAX];

	signal(SIGPIPE, SIG_IGN);
	if (knobs_remote_open(rp, o->host, o->port, 5000, err)) {
		fprintf(stderr, "%s: %s\n", who, err);
		return 1;
	}
	return 0;
}

/* Read names (none: all) from tunetopd into a new snapshot; 0 or 1. */
static int remote_read(const struct knobs_opts *o, struct knobs_remote *r, char **names,
		       int n, struct knob_snapshot **out, const char *who)
{
	struct msg_knob_get *q = calloc(1, sizeof(*q));
	struct msg_knob_values *a = calloc(1, sizeof(*a));
	struct knob_snapshot *s = calloc(1, sizeof(*s));
	char err[ERR_MAX];
	int rc = 1;

	*out = NULL;
	if (!q || !a || !s || n > MSG_KNOBS_MAX) {
		fprintf(stderr, "%s: %s\n", who, n > MSG_KNOBS_MAX ? "too many knobs at once" : "out of memory");
		goto out;
	}
	snprintf(q->dev, sizeof(q->dev), "%s", o->t.dev);
	q->n = (unsigned)n;
	for (int i = 0; i < n; i++)
		snprintf(q->names[i], sizeof(q->names[i]), "%s", names[i]);
	if (knobs_remote_get(r, q, a, err)) {
		fprintf(stderr, "%s: %s\n", who, err);
		goto out;
	}
	s->item = calloc(a->n ? a->n : 1, sizeof(*s->item));
	if (!s->item) {
		fprintf(stderr, "%s: out of memory\n", who);
		goto out;
	}
	snprintf(s->side, sizeof(s->side), "remote");
	snprintf(s->dev, sizeof(s->dev), "%s", o->t.dev);
	for (unsigned i = 0; i < a->n; i++) {
		struct knob_snapshot_item *it = &s->item[s->n++];

		snprintf(it->name, sizeof(it->name), "%s", a->v[i].name);
		it->v.present = a->v[i].present;
		snprintf(it->v.text, sizeof(it->v.text), "%s", a->v[i].text);
		snprintf(it->v.reason, sizeof(it->v.reason), "%s", a->v[i].reason);
	}
	*out = s;
	s = NULL;
	rc = 0;
out:
	knobs_snapshot_free(s);
	free(q);
	free(a);
	return rc;
}

static int remote_list(const struct catalog *c, struct knobs_opts *o)
{
	struct knobs_remote *r;
	struct knob_snapshot *s;
	int rc;

	if (remote_open(o, &r, "tunetop knobs"))
		return 1;
	rc = remote_read(o, r, NULL, 0, &s, "tunetop knobs");
	if (!rc && o->json) {
		json_t *j = knobs_snapshot_to_json(c, s);

		json_object_set_new(j, "host", json_string(knobs_remote_host(r)));
		json_print(j);
	} else if (!rc) {
		printf("# tunetopd on %s (%s)%s\n", knobs_remote_host(r), o->host,
		       o->dev_given ? "" : "; device: its default route's");
		snapshot_print(c, s);
	}
	knobs_snapshot_free(s);
	knobs_remote_close(r);
	return rc;
}

static int remote_get(const struct catalog *c, struct knobs_opts *o)
{
	char buf[KNOB_TEXT_MAX + 112];
	struct knobs_remote *r;
	struct knob_snapshot *s;
	json_t *a;
	int rc;

	if (!o->nargs) {
		fprintf(stderr, "tunetop knobs get: which knobs? e.g. tunetop knobs get rx-usecs gro\n");
		return 2;
	}
	if (remote_open(o, &r, "tunetop knobs get"))
		return 1;
	rc = remote_read(o, r, o->args, o->nargs, &s, "tunetop knobs get");
	knobs_remote_close(r);
	if (rc)
		return rc;
	a = json_array();
	for (unsigned i = 0; i < s->n; i++) {
		if (o->json) {
			json_array_append_new(a, knobs_knob_to_json(catalog_find(c, s->item[i].name),
							      s->item[i].name, &s->item[i].v));
		} else {
			value_show(&s->item[i].v, buf, sizeof(buf));
			printf("%s: %s\n", s->item[i].name, buf);
		}
	}
	if (o->json)
		json_print(a);
	else
		json_decref(a);
	knobs_snapshot_free(s);
	return 0;
}

/* Keep the session open SECS seconds, asking for one value now and then
 * so tunetopd's idle timeout does not end it. */
static int remote_hold(struct knobs_remote *r, const char *name, const struct knobs_opts *o,
		       unsigned secs)
{
	struct msg_knob_get *q = calloc(1, sizeof(*q));
	struct msg_knob_values *a = calloc(1, sizeof(*a));
	uint64_t end = now_ns() + (uint64_t)secs * 1000000000ull;
	char err[ERR_MAX];
	int rc = 0;

	if (!q || !a) {
		free(q);
		free(a);
		return 1;
	}
	q->n = 1;
	snprintf(q->names[0], sizeof(q->names[0]), "%s", name);
	snprintf(q->dev, sizeof(q->dev), "%s", o->t.dev);
	while (!rc && now_ns() < end) {
		uint64_t left = end - now_ns();
		uint64_t step = left < 5000000000ull ? left : 5000000000ull;
		struct timespec ts = { .tv_sec = (time_t)(step / 1000000000ull),
				       .tv_nsec = (long)(step % 1000000000ull) };

		nanosleep(&ts, NULL);
		if (now_ns() < end && knobs_remote_get(r, q, a, err)) {
			fprintf(stderr, "tunetop knobs set: holding: %s\n", err);
			rc = 1;
		}
	}
	free(q);
	free(a);
	return rc;
}

static int remote_set(const struct catalog *c, struct knobs_opts *o)
{
	struct msg_knob_set *q = NULL;
	struct msg_knob_result *a = NULL;
	struct knobs_remote *r = NULL;
	uint8_t key[AUTH_KEY_LEN];
	char err[ERR_MAX];
	int rc = 1;

	if (!o->nargs) {
		fprintf(stderr, "tunetop knobs set: what? e.g. tunetop knobs set rx-usecs=64 gro=off\n");
		return 2;
	}
	if (!o->key) {
		fprintf(stderr, "tunetop knobs set --side remote: --key FILE is required: tunetopd changes knobs only for a client holding its key (tunetopd --gen-key FILE writes one; tunetopd --knobs --key FILE uses it)\n");
		return 2;
	}
	if (o->nargs > MSG_KNOBS_MAX) {
		fprintf(stderr, "tunetop knobs set: at most %d settings at once\n", MSG_KNOBS_MAX);
		return 2;
	}
	q = calloc(1, sizeof(*q));
	a = calloc(1, sizeof(*a));
	if (!q || !a) {
		fprintf(stderr, "tunetop knobs set: out of memory\n");
		goto out;
	}
	/* Checked here first, and by tunetopd against its own catalog again. */
	for (int i = 0; i < o->nargs; i++) {
		char *eq = strchr(o->args[i], '=');
		const struct knob_def *d;
		struct knob_value v;

		if (!eq || eq == o->args[i]) {
			fprintf(stderr, "tunetop knobs set: %s: accepted: NAME=VALUE\n", o->args[i]);
			rc = 2;
			goto out;
		}
		*eq = '\0';
		d = catalog_find(c, o->args[i]);
		snprintf(q->s[i].name, sizeof(q->s[i].name), "%s", d ? d->name : o->args[i]);
		*eq = '=';
		if (!d) {
			fprintf(stderr, "tunetop knobs set: %.*s: unknown knob (tunetop knobs list shows them)\n",
				(int)(eq - o->args[i]), o->args[i]);
			rc = 2;
			goto out;
		}
		if (knob_parse_value(d, eq + 1, &v, err)) {
			fprintf(stderr, "tunetop knobs set: %s\n", err);
			rc = 2;
			goto out;
		}
		snprintf(q->s[i].value, sizeof(q->s[i].value), "%s", v.text);
	}
	q->n = (unsigned)o->nargs;
	snprintf(q->dev, sizeof(q->dev), "%s", o->t.dev);
	if (auth_init(err) || auth_key_load(o->key, key, err)) {
		fprintf(stderr, "tunetop knobs set: %s\n", err);
		goto out;
	}
	if (remote_open(o, &r, "tunetop knobs set"))
		goto out;
	if (knobs_remote_auth(r, key, err) || knobs_remote_set(r, q, a, err)) {
		fprintf(stderr, "tunetop knobs set: %s\n", err);
		goto out;
	}
	rc = 0;
	for (unsigned i = 0; i < a->n; i++) {
		if (!a->r[i].ok) {
			size_t nl = strlen(a->r[i].name);

			if (!strncmp(a->r[i].error, a->r[i].name, nl) && a->r[i].error[nl] == ':')
				printf("%s\n", a->r[i].error);
			else
				printf("%s: %s\n", a->r[i].name, a->r[i].error);
			rc = 1;
			continue;
		}
		printf("%s: %s -> %s\n", a->r[i].name, a->r[i].before[0] ? a->r[i].before : "?",
		       a->r[i].after);
	}
	if (o->hold)
		printf("(remote on %s: held for %u s, then restored when this command exits)\n",
		       knobs_remote_host(r), o->hold);
	else
		printf("(remote on %s: restored when this command exits; --hold SECS keeps it longer)\n",
		       knobs_remote_host(r));
	fflush(stdout);
	if (o->hold && remote_hold(r, q->s[0].name, o, o->hold))
		rc = 1;
out:
	memset(key, 0, sizeof(key));
	knobs_remote_close(r);
	free(q);
	free(a);
	return rc;
}

int knobs_restore_report(FILE *f, const char *who)
{
	struct catalog *c;
	char err[ERR_MAX], failed[2048];
	unsigned restored = 0, dropped = 0, held = 0;
	int rc;

	if (catalog_load(&c, catalog_default_path(), err)) {
		fprintf(f, "%s: %s\n", who, err);
		return 1;
	}
	rc = knobs_restore_journal(c, &restored, &dropped, &held, failed, sizeof(failed), err);
	catalog_free(c);
	if (restored)
		fprintf(f, "%s: restored %u knob value%s\n", who, restored, restored == 1 ? "" : "s");
	if (dropped)
		fprintf(f, "%s: dropped %u journaled value%s of labs that are gone\n", who, dropped,
			dropped == 1 ? "" : "s");
	if (held)
		fprintf(f, "%s: %u value%s held by tunetop runs still going (each puts its own back when it ends)\n",
			who, held, held == 1 ? "" : "s");
	if (rc == -EIO && *failed) {
		fprintf(f, "%s: could not restore, kept in the journal: %s\n", who, failed);
		return 1;
	}
	if (rc) {
		fprintf(f, "%s: %s\n", who, err);
		return 1;
	}
	if (!restored && !dropped)
		fprintf(f, "%s: no changed knob to restore\n", who);
	return 0;
}

int knobs_main(int argc, char **argv)
{
	struct knobs_opts o;
	struct catalog *c = NULL;
	struct lab *l = NULL;
	const char *cmd;
	char err[ERR_MAX];
	int rc;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		knobs_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	cmd = argv[1];
	if (strcmp(cmd, "list") && strcmp(cmd, "get") && strcmp(cmd, "set") &&
	    strcmp(cmd, "snapshot") && strcmp(cmd, "diff") && strcmp(cmd, "restore")) {
		fprintf(stderr, "tunetop knobs: unknown command '%s'; accepted: list, get, set, snapshot, diff, restore\n",
			cmd);
		return 2;
	}
	rc = knobs_parse(argc - 1, argv + 1, &o);
	if (rc)
		goto out;
	if (!strcmp(cmd, "diff")) {
		rc = knobs_diff_cmd(&o);
		goto out;
	}
	if (!strcmp(cmd, "restore")) {
		rc = o.nargs ? 2 : knobs_restore_report(stdout, "tunetop knobs restore");
		if (o.nargs)
			fprintf(stderr, "tunetop knobs restore: takes no arguments\n");
		goto out;
	}
	if (catalog_load(&c, catalog_default_path(), err)) {
		fprintf(stderr, "tunetop knobs: %s\n", err);
		rc = 1;
		goto out;
	}
	if (o.remote) {
		if ((!strcmp(cmd, "list") || !strcmp(cmd, "snapshot")) && o.nargs) {
			fprintf(stderr, "tunetop knobs %s: takes no names (tunetop knobs get NAME...)\n", cmd);
			rc = 2;
		} else if (!strcmp(cmd, "list") || !strcmp(cmd, "snapshot")) {
			rc = remote_list(c, &o);
		} else if (!strcmp(cmd, "get")) {
			rc = remote_get(c, &o);
		} else {
			rc = remote_set(c, &o);
		}
		goto out;
	}
	if (o.hold || o.key) {
		fprintf(stderr, "tunetop knobs %s: --key and --hold are for set --side remote\n", cmd);
		rc = 2;
		goto out;
	}
	rc = knobs_open_lab(&o, &l);
	if (rc)
		goto out;
	if (!strcmp(cmd, "list") || !strcmp(cmd, "snapshot")) {
		if (o.nargs) {
			fprintf(stderr, "tunetop knobs %s: takes no names (tunetop knobs get NAME...)\n", cmd);
			rc = 2;
		} else {
			rc = knobs_list(c, &o);
		}
	} else if (!strcmp(cmd, "get")) {
		rc = knobs_get_cmd(c, &o);
	} else {
		rc = knobs_set_cmd(c, &o);
	}
out:
	if (l)
		lab_close(l);
	catalog_free(c);
	free(o.args);
	return rc;
}
