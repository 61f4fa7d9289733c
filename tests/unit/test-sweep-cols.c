// SPDX-License-Identifier: GPL-2.0-or-later
/* test-sweep-cols.c - a sweep's columns: defaults, lists, needs, values and their text. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "core/util.h"
#include "session/sweep-cols.h"
#include "tap.h"

static void make(void)
{
	struct sweep_cols c = { 0 };
	char err[ERR_MAX] = "";
	bool l, r, cap;

	ok(!sweep_cols_make(NULL, true, false, false, &c, err) && c.n == 2 &&
	   !strcmp(c.name[0], "P50_LATENCY") && !strcmp(c.name[1], "P99_LATENCY"),
	   "RR default: p50 and p99 latency (%u)", c.n);
	ok(!sweep_cols_make("", false, true, true, &c, err) && c.n == 2 &&
	   !strcmp(c.name[0], "LOCAL_CPU_UTIL") && !strcmp(c.name[1], "REMOTE_CPU_UTIL"),
	   "stream default with -c -C: the CPU of both ends");
	ok(!sweep_cols_make(NULL, false, false, false, &c, err) && c.n == 0,
	   "stream default without -c: the rate alone");
	ok(!sweep_cols_make("throughput,lss_size_end, LSS_SIZE_END,RSR_SIZE_END", true, false,
			    false, &c, err) && c.n == 2 && !strcmp(c.name[0], "LSS_SIZE_END") &&
	   !strcmp(c.name[1], "RSR_SIZE_END"),
	   "a list: upper case, THROUGHPUT left to the rate column, repeats once");
	ok(sweep_cols_make("A,B,C,D,E,F,G,H,I,J,K,L,M,N,O,P,Q", true, false, false, &c, err) ==
	   -EINVAL && strstr(err, "more than 16"), "17 columns refused: %s", err);
	sweep_cols_make("LOCAL_SD,REMOTE_CPU_UTIL,SD_UNITS", true, false, false, &c, err);
	sweep_cols_needs(&c, &l, &r, &cap);
	ok(l && r && !cap, "LOCAL_SD needs -c, REMOTE_CPU_UTIL -C, no capture");
	sweep_cols_make("REMOTE_CAP_SENT_MEAN_SIZE,SD_UNITS,P50_LATENCY", true, false, false, &c,
			err);
	sweep_cols_needs(&c, &l, &r, &cap);
	ok(!l && !r && cap, "a capture column needs the capture, SD_UNITS no CPU");
	ok(!strcmp(sweep_cols_title("P50_LATENCY"), "p50 us") &&
	   !strcmp(sweep_cols_title("LSS_SIZE_END"), "LSS_SIZE_END"), "titles");
}

static void values(void)
{
	json_t *doc = json_pack("{s:{s:I, s:f, s:f, s:s, s:n, s:s, s:i}}", "result",
				"lss_size_end", (json_int_t)2626560, "p50_latency", 45.25,
				"data_segs_out_per_trans", 1.0, "limit", "cpu-local,x",
				"local_sd", "target", "a\x01z", "not_a_selector", 1);
	struct sweep_cols c = { 0 }, d = { 0 };
	char buf[SWEEP_COL_TEXT];
	json_t *spec = json_object();

	ok(!strcmp(sweep_cols_text(doc, "LSS_SIZE_END", buf, sizeof(buf)), "2626560"),
	   "an integer as it is: %s", buf);
	ok(!strcmp(sweep_cols_text(doc, "P50_LATENCY", buf, sizeof(buf)), "45.25"),
	   "a real with 2 decimals: %s", buf);
	ok(!strcmp(sweep_cols_text(doc, "DATA_SEGS_OUT_PER_TRANS", buf, sizeof(buf)), "1.000"),
	   "below 10 with 3: %s", buf);
	ok(!strcmp(sweep_cols_text(doc, "LIMIT", buf, sizeof(buf)), "cpu-local,x") &&
	   !strcmp(sweep_cols_text(doc, "TARGET", buf, sizeof(buf)), "a?z"),
	   "a string: a comma as it is, control characters as ?");
	ok(!strcmp(sweep_cols_text(doc, "NOT_A_SELECTOR", buf, sizeof(buf)), "n/a"),
	   "a name the selector table lacks reads n/a, whatever the document holds");
	ok(!strcmp(sweep_cols_text(doc, "LOCAL_SD", buf, sizeof(buf)), "n/a") &&
	   !strcmp(sweep_cols_text(doc, "NOSUCH", buf, sizeof(buf)), "n/a") &&
	   !strcmp(sweep_cols_text(NULL, "LSS_SIZE_END", buf, sizeof(buf)), "n/a"),
	   "null, missing, no document: n/a");
	sweep_cols_make("LSS_SIZE_END,LIMIT", true, false, false, &c, buf);
	ok(!sweep_cols_to_spec(&c, spec) && !sweep_cols_from_spec(spec, &d) && d.n == 2 &&
	   !strcmp(d.name[1], "LIMIT"), "the columns kept in a sweep's spec and read back");
	ok(sweep_cols_from_spec(doc, &d) == -ENOENT && d.n == 0, "an older spec has none");
	json_decref(spec);
	json_decref(doc);
}

int main(void)
{
	make();
	values();
	return tap_done();
}
