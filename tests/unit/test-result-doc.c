// SPDX-License-Identifier: GPL-2.0-or-later
/* test-result-doc.c - the result's fields by id and the document read back by them. */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

#include <jansson.h>

#include "engine.h"
#include "tap.h"

/* Every id names one row, and the row's name finds that id again. */
static void table_has_every_id(void)
{
	unsigned n, holes = 0, lost = 0;
	const struct selector *tab = selector_table(&n);

	ok(n == SEL_NIDS, "the table has a row for each id (%u of %d)", n, SEL_NIDS);
	for (unsigned i = 0; i < n; i++) {
		if (!tab[i].name || !tab[i].desc || !tab[i].get)
			holes++;
		else if (selector_find(tab[i].name) != (int)i)
			lost++;
	}
	ok(!holes && !lost, "no row left empty (%u), each name finds its own id (%u off)",
	   holes, lost);
	ok(!strcmp(tab[SEL_P50_LATENCY].name, "P50_LATENCY") &&
	   !strcmp(tab[SEL_THROUGHPUT_UNITS].name, "THROUGHPUT_UNITS") &&
	   !strcmp(tab[SEL_FAILURE].name, "FAILURE"), "an id is its row's name");
}

/* A 1-byte TCP_RR of one iteration, its latency known. */
static void build(struct session_result *res)
{
	memset(res, 0, sizeof(*res));
	params_default(&res->p);
	res->p.type = TEST_TCP_RR;
	res->elapsed = 10;
	res->throughput = 41234.5678;
	res->units = "Trans/s";
	res->local.has_lat = true;
	res->local.lat = (struct lat_summary){
		.count = 412345, .min_us = 12, .max_us = 900, .mean_us = 23.456,
		.p50_us = 21.004, .p90_us = 30, .p99_us = 77.126, .p999_us = 300,
	};
	res->local_sd = res->remote_sd = -1;
}

/* The document keeps every field under its lower-case name, and the
 * readers by id get what the table's getters give. */
static void doc_reads_by_id(void)
{
	struct session_result res;
	json_t *doc;
	unsigned missing = 0, n;
	const struct selector *tab = selector_table(&n);

	build(&res);
	doc = result_doc_one(&res, false, NULL, false, false);
	ok(doc != NULL, "result_doc_one makes a document");
	for (unsigned i = 0; i < n; i++) {
		char key[64];
		size_t k;

		for (k = 0; tab[i].name[k] && k < sizeof(key) - 1; k++)
			key[k] = (char)tolower((unsigned char)tab[i].name[k]);
		key[k] = '\0';
		if (!json_object_get(json_object_get(doc, "result"), key) ||
		    result_doc_field(doc, (enum sel_id)i) !=
		    json_object_get(json_object_get(doc, "result"), key))
			missing++;
	}
	ok(!missing, "every id reads its key of \"result\" (%u not)", missing);
	ok(result_doc_num(doc, SEL_P50_LATENCY) == 21.0 &&
	   result_doc_num(doc, SEL_P99_LATENCY) == 77.13,
	   "p50 and p99 by id, rounded as printed (%g, %g)",
	   result_doc_num(doc, SEL_P50_LATENCY), result_doc_num(doc, SEL_P99_LATENCY));
	ok(result_doc_num(doc, SEL_THROUGHPUT) == 41234.57 &&
	   !strcmp(result_doc_str(doc, SEL_THROUGHPUT_UNITS) ?: "", "Trans/s") &&
	   !strcmp(result_doc_str(doc, SEL_TEST) ?: "", "TCP_RR"),
	   "throughput, its units and the test by id");
	ok(isnan(result_doc_num(doc, SEL_LOCAL_SD)) && !result_doc_str(doc, SEL_THROUGHPUT) &&
	   isnan(result_doc_num(doc, SEL_FAILURE)),
	   "service demand without -c is null; a number is no string, a string no number");
	ok(json_is_false(json_object_get(doc, "failed")) &&
	   json_integer_value(json_object_get(doc, "iterations")) == 1 &&
	   json_is_null(json_object_get(doc, "confidence")),
	   "one iteration, not failed, no confidence");
	json_decref(doc);

	doc = result_doc_one(&res, true, "remote end: gone", true, false);
	ok(json_is_true(json_object_get(doc, "failed")) &&
	   !strcmp(result_doc_str(doc, SEL_FAILURE) ?: "", "remote end: gone") &&
	   !strcmp(json_string_value(json_object_get(doc, "failure")) ?: "", "remote end: gone"),
	   "a failed run says why, in failure and in the FAILURE field");
	json_decref(doc);
	ok(isnan(result_doc_num(NULL, SEL_THROUGHPUT)) && !result_doc_field(NULL, SEL_TEST),
	   "no document: every field absent");
}

int main(void)
{
	table_has_every_id();
	doc_reads_by_id();
	return tap_done();
}
