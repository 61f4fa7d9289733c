// SPDX-License-Identifier: GPL-2.0-or-later
/* knobs-cmd.c - `tunetop knobs list|get|set|snapshot|diff|restore`. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "catalog.h"
#include "knobs-cmd.h"
#include "knobs.h"
#include "lab.h"
#include "util.h"

struct knobs_opts {
	struct knob_target t;
	const char *lab;
	bool json;
	int nargs;
	char **args;
};

static void knobs_usage(FILE *f)
{
	fprintf(f,
		"Usage: tunetop knobs list [OPTIONS]\n"
		"       tunetop knobs get NAME... [OPTIONS]\n"
		"       tunetop knobs set NAME=VALUE... [OPTIONS]\n"
		"       tunetop knobs snapshot [OPTIONS]\n"
		"       tunetop knobs diff FILE1 FILE2   (two `knobs snapshot --json` outputs)\n"
		"       tunetop knobs restore            (put back every journaled original)\n"
		"\n"
		"  --side local|lab-a|lab-b  where the knobs are (default local)\n"
		"  --lab NAME                the lab of a lab side\n"
		"  --dev DEV                 device of per-device knobs (default: the\n"
		"                            default route's device, or the lab's veth)\n"
		"  --json                    JSON output (list, get, snapshot)\n"
		"\n"
		"`set` journals each original value before the first change; the change\n"
		"stays until `tunetop knobs restore` or `tunetop restore`.\n");
}

/* The device of the host's default IPv4 route, from /proc/net/route. */
static void default_route_dev(char *dev, size_t len)
{
	FILE *f = fopen("/proc/net/route", "re");
	char line[256], ifname[32];
	unsigned long dst, mask;

	dev[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%31s %lx %*x %*x %*d %*d %*d %lx", ifname, &dst, &mask) == 3 &&
		    dst == 0 && mask == 0) {
			snprintf(dev, len, "%s", ifname);
			break;
		}
	fclose(f);
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
		if (!strcmp(a, "--side") || !strcmp(a, "--lab") || !strcmp(a, "--dev")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "tunetop knobs: option %s: missing value\n", a);
				return 2;
			}
			if (!strcmp(a, "--side"))
				side = argv[++i];
			else if (!strcmp(a, "--lab"))
				o->lab = argv[++i];
			else
				dev = argv[++i];
			continue;
		}
		if (a[0] == '-' && a[1]) {
			fprintf(stderr, "tunetop knobs: option %s: unknown; accepted: --side, --lab, --dev, --json\n", a);
			return 2;
		}
		o->args[o->nargs++] = argv[i];
	}
	if (!strcmp(side, "remote")) {
		fprintf(stderr, "tunetop knobs: --side remote: remote knobs need tunetopd knob control (not built yet)\n");
		return 2;
	}
	if (!strcmp(side, "local"))
		o->t.where = KT_LOCAL;
	else if (!strcmp(side, "lab-a"))
		o->t.where = KT_LAB_A;
	else if (!strcmp(side, "lab-b"))
		o->t.where = KT_LAB_B;
	else {
		fprintf(stderr, "tunetop knobs: --side %s: accepted: local, lab-a, lab-b (remote: not built yet)\n", side);
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
		default_route_dev(o->t.dev, sizeof(o->t.dev));
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
		if (knob_parse_value(d, eq + 1, &v, err)) {
			fprintf(stderr, "tunetop knobs set: %s\n", err);
			return 2;
		}
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
		if (knobs_set(d, &o->t, eq + 1, &after, err)) {
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
	return rc;
}

/* Read a `knobs snapshot --json` file into a snapshot; 0 or 1. */
static int snapshot_load(const char *path, struct knob_snapshot **out)
{
	json_error_t je;
	json_t *j = json_load_file(path, 0, &je), *a;
	struct knob_snapshot *s;
	size_t n;

	*out = NULL;
	if (!j) {
		fprintf(stderr, "tunetop knobs diff: %s:%d: %s\n", path, je.line, je.text);
		return 1;
	}
	a = json_object_get(j, "knobs");
	if (!json_is_array(a)) {
		fprintf(stderr, "tunetop knobs diff: %s: not a `tunetop knobs snapshot --json` output\n", path);
		json_decref(j);
		return 1;
	}
	n = json_array_size(a);
	s = calloc(1, sizeof(*s));
	if (s)
		s->item = calloc(n ? n : 1, sizeof(*s->item));
	if (!s || !s->item) {
		knobs_snapshot_free(s);
		json_decref(j);
		return 1;
	}
	snprintf(s->side, sizeof(s->side), "%s", json_string_value(json_object_get(j, "side")) ?: "");
	snprintf(s->dev, sizeof(s->dev), "%s", json_string_value(json_object_get(j, "dev")) ?: "");
	for (size_t i = 0; i < n; i++) {
		json_t *k = json_array_get(a, i);
		const char *name = json_string_value(json_object_get(k, "name"));
		const char *val = json_string_value(json_object_get(k, "value"));
		const char *why = json_string_value(json_object_get(k, "reason"));
		struct knob_snapshot_item *it = &s->item[s->n];

		if (!name)
			continue;
		snprintf(it->name, sizeof(it->name), "%s", name);
		it->v.present = val != NULL;
		snprintf(it->v.text, sizeof(it->v.text), "%s", val ?: "");
		snprintf(it->v.reason, sizeof(it->v.reason), "%s", why ?: "");
		s->n++;
	}
	json_decref(j);
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

int knobs_restore_report(FILE *f, const char *who)
{
	struct catalog *c;
	char err[ERR_MAX], failed[2048];
	unsigned restored = 0, dropped = 0;
	int rc;

	if (catalog_load(&c, catalog_default_path(), err)) {
		fprintf(f, "%s: %s\n", who, err);
		return 1;
	}
	rc = knobs_restore_journal(c, &restored, &dropped, failed, sizeof(failed), err);
	catalog_free(c);
	if (restored)
		fprintf(f, "%s: restored %u knob value%s\n", who, restored, restored == 1 ? "" : "s");
	if (dropped)
		fprintf(f, "%s: dropped %u journaled value%s of labs that are gone\n", who, dropped,
			dropped == 1 ? "" : "s");
	if (rc == -EIO && *failed) {
		fprintf(f, "%s: could not restore: %s\n", who, failed);
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
