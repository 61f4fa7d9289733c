// SPDX-License-Identifier: GPL-2.0-or-later
/* selectors.c - lists of output selectors (-o/-O/-k): parsing, defaults, help. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "selectors.h"
#include "engine.h"

/* Default -o sets: what a netperf user looks at first for each kind of test. */
static const char *const default_rr[] = {
	"TEST", "REQUEST_SIZE", "RESPONSE_SIZE", "BURST_SIZE", "NUM_FLOWS",
	"ELAPSED_TIME", "THROUGHPUT", "THROUGHPUT_UNITS", "P50_LATENCY",
	"P90_LATENCY", "P99_LATENCY", "LOCAL_CPU_UTIL", "REMOTE_CPU_UTIL",
	"LOCAL_SD", "REMOTE_SD", "SD_UNITS", NULL
};

static const char *const default_stream[] = {
	"TEST", "LOCAL_SEND_SIZE", "REMOTE_RECV_SIZE", "NUM_FLOWS",
	"ELAPSED_TIME", "THROUGHPUT", "THROUGHPUT_UNITS", "LOCAL_CPU_UTIL",
	"REMOTE_CPU_UTIL", "LOCAL_SD", "REMOTE_SD", "SD_UNITS", NULL
};

static const char *const default_maerts[] = {
	"TEST", "REMOTE_SEND_SIZE", "LOCAL_RECV_SIZE", "NUM_FLOWS",
	"ELAPSED_TIME", "THROUGHPUT", "THROUGHPUT_UNITS", "LOCAL_CPU_UTIL",
	"REMOTE_CPU_UTIL", "LOCAL_SD", "REMOTE_SD", "SD_UNITS", NULL
};

static const char *const default_iterating[] = {
	"CONFIDENCE_ITERATION", "CONFIDENCE_REACHED", "THROUGHPUT_CONFID", NULL
};

static void sel_add_names(struct selector_list *out, const char *const *names)
{
	for (; *names && out->n < SEL_MAX; names++) {
		int i = selector_find(*names);

		if (i >= 0)
			out->idx[out->n++] = (unsigned)i;
	}
}

void selectors_default(enum test_type t, bool iterating,
		       struct selector_list *out)
{
	out->n = 0;
	if (test_is_rr(t))
		sel_add_names(out, default_rr);
	else if (test_client_sends(t))
		sel_add_names(out, default_stream);
	else
		sel_add_names(out, default_maerts);
	if (test_is_udp(t))
		sel_add_names(out, (const char *const[]){ "UDP_LOST", NULL });
	if (iterating)
		sel_add_names(out, default_iterating);
}

int selectors_parse(const char *list, char opt, enum test_type t,
		    bool iterating, struct selector_list *out, char *err)
{
	const char *p = list;

	out->n = 0;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p) {
		selectors_default(t, iterating, out);
		return 0;
	}
	for (;;) {
		const char *start, *end;
		char name[64];
		size_t len;
		int i;

		while (*p == ' ' || *p == '\t')
			p++;
		start = p;
		while (*p && *p != ',')
			p++;
		end = p;
		while (end > start && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		len = (size_t)(end - start);
		if (!len)
			return err_set(err, -EINVAL, "option -%c %s: empty selector name between commas; accepted: NAME[,NAME...] from `tunetop run -- -%c help`",
				       opt, list, opt);
		if (len >= sizeof(name))
			len = sizeof(name) - 1;
		memcpy(name, start, len);
		name[len] = '\0';
		i = selector_find(name);
		if (i < 0)
			return err_set(err, -EINVAL, "option -%c %s: unknown output selector; accepted: a name `-- -%c ?` lists (`-- -%c help` describes each)",
				       opt, name, opt, opt);
		if (out->n >= SEL_MAX)
			return err_set(err, -EINVAL, "option -%c: more than %d selectors; accepted: up to %d names",
				       opt, SEL_MAX, SEL_MAX);
		out->idx[out->n++] = (unsigned)i;
		if (!*p)
			break;
		p++;
	}
	return 0;
}

void selectors_help(FILE *f)
{
	fprintf(f, "Output selectors (-o A,B CSV, -O A,B columns, -k A,B NAME=value; names are case-insensitive, n/a = not measured):\n");
	unsigned n;
	const struct selector *tab = selector_table(&n);

	for (unsigned i = 0; i < n; i++)
		fprintf(f, "  %-25s %s\n", tab[i].name, tab[i].desc);
}

