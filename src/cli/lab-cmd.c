// SPDX-License-Identifier: GPL-2.0-or-later
/* lab-cmd.c - `tunetop lab up|status|down` and `tunetop restore`. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knobs-cmd.h"
#include "lab-cmd.h"
#include "engine.h"

static void lab_usage(FILE *f)
{
	fprintf(f,
		"Usage: tunetop lab up [--name NAME] [--mtu N] [--rate R]\n"
		"       tunetop lab status [NAME]\n"
		"       tunetop lab down NAME... | --all [--force]\n"
		"\n"
		"A lab is two network namespaces (NAME-a, NAME-b) joined by a veth pair,\n"
		"198.18.0.1 and fd74:7400::1 on side a, .2 and ::2 on side b.  A lab made\n"
		"by `lab up` stays until `lab down`; run tests in it with\n"
		"`tunetop run --lab NAME`, or look inside with `ip netns exec NAME-a ...`.\n"
		"  --mtu N    MTU of the veth pair, 68-65535 (default 1500)\n"
		"  --rate R   a tbf rate limit on both ends: 1gbit, 10gbit, 100mbit or none\n"
		"  --all      every lab whose owner (a run, or the session that ran `lab up`)\n"
		"             is gone and that nothing runs in; says which it kept and why\n"
		"  --force    with --all, labs in use too (a named lab is removed anyway)\n");
}

/* Print one lab as `lab status` shows it. */
static void lab_print(FILE *f, const struct lab_info *li)
{
	struct lab_usage u;
	char desc[200];

	lab_describe(li, desc, sizeof(desc));
	fprintf(f, "%s\n", desc);
	if (li->owner)
		fprintf(f, "  owner     pid %d (%s)\n", (int)li->owner,
			li->owner_alive ? "running" : "dead: `tunetop restore` removes it");
	else
		fprintf(f, "  owner     none (made by `tunetop lab up`; remove with `tunetop lab down %s`)\n",
			li->name);
	if (lab_claim_of(li->name, &u, NULL) == 0)
		fprintf(f, "  claim     %s: %s\n", u.claim == LAB_ORPHANED ? "orphaned" :
			u.claim == LAB_IN_USE ? "in use" : "unowned", u.why);
	for (int side = 0; side < 2; side++) {
		fprintf(f, "  side %c    netns %-20s dev %-8s %s/24  %s/64  mtu %u  qdisc %s\n",
			side ? 'b' : 'a', li->netns[side], li->dev[side], li->addr4[side],
			li->addr6[side], li->mtu, li->qdisc[side]);
		fprintf(f, "            offloads %s\n", li->offloads[side]);
	}
}

/* `lab up`: a lab that outlives the command. */
static int lab_up(int argc, char **argv)
{
	struct lab_opts lo = { .persistent = true };
	struct lab_info li;
	struct lab *l;
	char err[ERR_MAX];
	uint64_t v;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			lab_usage(stdout);
			return 0;
		}
		if (strcmp(a, "--name") && strcmp(a, "--mtu") && strcmp(a, "--rate")) {
			fprintf(stderr, "tunetop lab up: option %s: unknown; accepted: --name NAME, --mtu N, --rate R\n", a);
			return 2;
		}
		if (!val) {
			fprintf(stderr, "tunetop lab up: option %s: missing value\n", a);
			return 2;
		}
		i++;
		if (!strcmp(a, "--name")) {
			if (lab_name_check(val, err)) {
				fprintf(stderr, "tunetop lab up: option --name: %s\n", err);
				return 2;
			}
			lo.name = val;
		} else if (!strcmp(a, "--mtu")) {
			if (parse_uint(val, 68, 65535, &v)) {
				fprintf(stderr, "tunetop lab up: option --mtu %s: accepted: 68-65535 (e.g. 1500, 9000)\n", val);
				return 2;
			}
			lo.mtu = (unsigned)v;
		} else if (parse_rate(val, &lo.rate_bps)) {
			fprintf(stderr, "tunetop lab up: option --rate %s: accepted: a rate like 1gbit, 10gbit, 100mbit or none\n",
				val);
			return 2;
		}
	}
	if (lab_make(&l, &lo, err)) {
		fprintf(stderr, "tunetop lab up: %s\n", err);
		return 1;
	}
	if (lab_made_note(l))
		fprintf(stderr, "tunetop lab up: %s\n", lab_made_note(l));
	if (lab_info(l, &li, err) == 0)
		lab_print(stdout, &li);
	lab_close(l);
	return 0;
}

/* `lab status [NAME]`: one lab, or every lab there is. */
static int lab_status(int argc, char **argv)
{
	char names[64][LAB_NAME_MAX];
	char err[ERR_MAX];
	unsigned n = 0;
	int rc = 0;

	if (argc > 2) {
		fprintf(stderr, "tunetop lab status: one NAME at most; accepted: tunetop lab status [NAME]\n");
		return 2;
	}
	if (argc == 2) {
		if (lab_name_check(argv[1], err)) {
			fprintf(stderr, "tunetop lab status: %s\n", err);
			return 2;
		}
		snprintf(names[0], sizeof(names[0]), "%s", argv[1]);
		n = 1;
	} else if (lab_list(names, 64, &n, err)) {
		fprintf(stderr, "tunetop lab status: %s\n", err);
		return 1;
	}
	if (!n)
		printf("no labs (tunetop lab up makes one)\n");
	for (unsigned i = 0; i < n; i++) {
		struct lab_info li;
		struct lab *l;

		if (lab_open(&l, names[i], err) || lab_info(l, &li, err)) {
			fprintf(stderr, "tunetop lab status: %s\n", err);
			rc = 1;
			if (argc != 2)
				continue;
			return rc;
		}
		lab_print(stdout, &li);
		lab_close(l);
	}
	return rc;
}

/* `lab down NAME... | --all [--force]`: --all takes orphaned labs only. */
static int lab_down(int argc, char **argv)
{
	char names[64][LAB_NAME_MAX];
	char err[ERR_MAX];
	bool all = false, force = false;
	unsigned n = 0, kept = 0;
	int rc = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--all")) {
			all = true;
		} else if (!strcmp(argv[i], "--force")) {
			force = true;
		} else if (argv[i][0] == '-') {
			char opt[64];

			str_escape(opt, sizeof(opt), argv[i], strlen(argv[i]));
			fprintf(stderr, "tunetop lab down: option %s: unknown; accepted: NAME... | --all [--force]\n", opt);
			return 2;
		} else if (n < 64) {
			snprintf(names[n++], sizeof(names[0]), "%s", argv[i]);
		}
	}
	if (all == !!n || (force && !all)) {
		fprintf(stderr, "tunetop lab down: %s; accepted: tunetop lab down NAME... | --all [--force]\n",
			!all && !n ? "which lab?" : all ? "--all takes no NAME" : "--force goes with --all (a named lab is removed anyway)");
		return 2;
	}
	if (all && lab_list(names, 64, &n, err)) {
		fprintf(stderr, "tunetop lab down: %s\n", err);
		return 1;
	}
	for (unsigned i = 0; !all && i < n; i++) {
		if (lab_name_check(names[i], err)) {
			fprintf(stderr, "tunetop lab down: %s\n", err);
			return 2;
		}
	}
	for (unsigned i = 0; i < n; i++) {
		struct lab_usage u;
		struct lab *l;

		if (lab_claim_of(names[i], &u, err) || lab_open(&l, names[i], err)) {
			fprintf(stderr, "tunetop lab down: %s\n", err);
			rc = 1;
			continue;
		}
		if (all && !lab_all_takes(&u, force)) {
			printf("lab %s: kept, %s (%s)\n", names[i], u.why,
			       u.claim == LAB_IN_USE ? "--force takes it, or name it" : "name it to remove it");
			kept++;
			lab_close(l);
			continue;
		}
		if (lab_destroy(l, err)) {
			fprintf(stderr, "tunetop lab down: %s\n", err);
			rc = 1;
			continue;
		}
		if (u.claim == LAB_IN_USE)
			printf("lab %s: down, though in use: %s\n", names[i], u.why);
		else if (all)
			printf("lab %s: down, %s\n", names[i], u.why);
		else
			printf("lab %s: down\n", names[i]);
	}
	if (all && !n)
		printf("no labs\n");
	else if (all && kept)
		printf("%u lab%s kept\n", kept, kept == 1 ? "" : "s");
	return rc;
}

int lab_main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		lab_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "up"))
		return lab_up(argc - 1, argv + 1);
	if (!strcmp(argv[1], "status"))
		return lab_status(argc - 1, argv + 1);
	if (!strcmp(argv[1], "down"))
		return lab_down(argc - 1, argv + 1);
	fprintf(stderr, "tunetop lab: unknown command '%s'; accepted: up, status, down\n", argv[1]);
	return 2;
}

int lab_reap_report(FILE *f, const char *who, bool verbose)
{
	char note[ERR_MAX];
	int r = lab_reap_note(note, sizeof(note));

	if (note[0])
		fprintf(f, "%s: %s\n", who, note);
	else if (verbose)
		fprintf(f, "%s: no lab left behind by a process that is gone\n", who);
	return r ? 1 : 0;
}

int restore_main(int argc, char **argv)
{
	int rc;

	if (argc > 1) {
		fprintf(stderr, "tunetop restore: takes no arguments\n");
		return 2;
	}
	if (!lab_privileged()) {
		fprintf(stderr, "tunetop restore: needs CAP_NET_ADMIN and CAP_SYS_ADMIN (run as root)\n");
		return 1;
	}
	rc = lab_reap_report(stdout, "tunetop restore", true);
	/* After the labs: values journaled for a lab just removed are dropped. */
	if (knobs_restore_report(stdout, "tunetop restore"))
		rc = 1;
	return rc;
}
