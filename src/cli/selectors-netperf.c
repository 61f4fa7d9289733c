// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * selectors-netperf.c - the selectors netperf 2.7.1 has, with the title
 * lines and printf format netperf's omni output gives each (its
 * print_omni_init_list()), in the order `netperf -- -o ?` lists them.
 * -o, -O and -k print these selectors exactly as netperf does; tunetop's
 * own selectors follow the same layout with their name as the title.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <strings.h>

#include "selectors-netperf.h"

static const struct np_sel np_table[] = {
	{ "SOCKET_TYPE", { "Socket", "Type", "", "" }, NPF_S },
	{ "PROTOCOL", { "Protocol", "", "", "" }, NPF_S },
	{ "DIRECTION", { "Direction", "", "", "" }, NPF_S },
	{ "ELAPSED_TIME", { "Elapsed", "Time", "(sec)", "" }, NPF_F2 },
	{ "THROUGHPUT", { "Throughput", "", "", "" }, NPF_F2 },
	{ "THROUGHPUT_UNITS", { "Throughput", "Units", "", "" }, NPF_S },
	{ "LSS_SIZE_REQ", { "Local", "Send Socket", "Size", "Requested" }, NPF_D },
	{ "LSS_SIZE", { "Local", "Send Socket", "Size", "Initial" }, NPF_D },
	{ "LSS_SIZE_END", { "Local", "Send Socket", "Size", "Final" }, NPF_D },
	{ "LSR_SIZE_REQ", { "Local", "Recv Socket", "Size", "Requested" }, NPF_D },
	{ "LSR_SIZE", { "Local", "Recv Socket", "Size", "Initial" }, NPF_D },
	{ "LSR_SIZE_END", { "Local", "Recv Socket", "Size", "Final" }, NPF_D },
	{ "RSS_SIZE_REQ", { "Remote", "Send Socket", "Size", "Requested" }, NPF_D },
	{ "RSS_SIZE", { "Remote", "Send Socket", "Size", "Initial" }, NPF_D },
	{ "RSS_SIZE_END", { "Remote", "Send Socket", "Size", "Final" }, NPF_D },
	{ "RSR_SIZE_REQ", { "Remote", "Recv Socket", "Size", "Requested" }, NPF_D },
	{ "RSR_SIZE", { "Remote", "Recv Socket", "Size", "Initial" }, NPF_D },
	{ "RSR_SIZE_END", { "Remote", "Recv Socket", "Size", "Final" }, NPF_D },
	{ "LOCAL_SEND_SIZE", { "Local", "Send", "Size", "" }, NPF_D },
	{ "LOCAL_RECV_SIZE", { "Local", "Recv", "Size", "" }, NPF_D },
	{ "REMOTE_SEND_SIZE", { "Remote", "Send", "Size", "" }, NPF_D },
	{ "REMOTE_RECV_SIZE", { "Remote", "Recv", "Size", "" }, NPF_D },
	{ "REQUEST_SIZE", { "Request", "Size", "Bytes", "" }, NPF_D },
	{ "RESPONSE_SIZE", { "Response", "Size", "Bytes", "" }, NPF_D },
	{ "LOCAL_CPU_UTIL", { "Local", "CPU", "Util", "%" }, NPF_F2 },
	{ "LOCAL_CPU_METHOD", { "Local", "CPU", "Util", "Method" }, NPF_C },
	{ "LOCAL_SD", { "Local", "Service", "Demand", "" }, NPF_F3 },
	{ "REMOTE_CPU_UTIL", { "Remote", "CPU", "Util", "%" }, NPF_F2 },
	{ "REMOTE_CPU_METHOD", { "Remote", "CPU", "Util", "Method" }, NPF_C },
	{ "REMOTE_SD", { "Remote", "Service", "Demand", "" }, NPF_F3 },
	{ "SD_UNITS", { "Service", "Demand", "Units", "" }, NPF_S },
	{ "CONFIDENCE_LEVEL", { "Confidence", "Level", "Percent", "" }, NPF_D },
	{ "CONFIDENCE_INTERVAL", { "Confidence", "Width", "Target", "" }, NPF_F6 },
	{ "CONFIDENCE_ITERATION", { "Confidence", "Iterations", "Run", "" }, NPF_D },
	{ "THROUGHPUT_CONFID", { "Throughput", "Confidence", "Width (%)", "" }, NPF_F3 },
	{ "LOCAL_CPU_CONFID", { "Local", "CPU", "Confidence", "Width (%)" }, NPF_F3 },
	{ "REMOTE_CPU_CONFID", { "Remote", "CPU", "Confidence", "Width (%)" }, NPF_F3 },
	{ "TRANSACTION_RATE", { "Transaction", "Rate", "Tran/s", "" }, NPF_F3 },
	{ "RT_LATENCY", { "Round", "Trip", "Latency", "usec/tran" }, NPF_F3 },
	{ "BURST_SIZE", { "Initial", "Burst", "Requests", "" }, NPF_D },
	{ "LOCAL_TRANSPORT_RETRANS", { "Local", "Transport", "Retransmissions", "" }, NPF_D },
	{ "REMOTE_TRANSPORT_RETRANS", { "Remote", "Transport", "Retransmissions", "" }, NPF_D },
	{ "TRANSPORT_MSS", { "Transport", "MSS", "bytes", "" }, NPF_D },
	{ "LOCAL_CPU_BIND", { "Local", "CPU", "Bind", "" }, NPF_D },
	{ "LOCAL_CPU_COUNT", { "Local", "CPU", "Count", "" }, NPF_D },
	{ "LOCAL_CPU_PEAK_UTIL", { "Local", "Peak", "Per CPU", "Util %" }, NPF_F2 },
	{ "LOCAL_CPU_PEAK_ID", { "Local", "Peak", "Per CPU", "ID" }, NPF_D },
	{ "REMOTE_CPU_BIND", { "Remote", "CPU", "Bind", "" }, NPF_D },
	{ "REMOTE_CPU_COUNT", { "Remote", "CPU", "Count", "" }, NPF_D },
	{ "REMOTE_CPU_PEAK_UTIL", { "Remote", "Peak", "Per CPU", "Util %" }, NPF_F2 },
	{ "REMOTE_CPU_PEAK_ID", { "Remote", "Peak", "Per CPU", "ID" }, NPF_D },
	{ "DEST_ADDR", { "Destination", "Address", "", "" }, NPF_S },
	{ "DEST_FAMILY", { "Destination", "Family", "", "" }, NPF_D },
	{ "LOCAL_SEND_CALLS", { "Local", "Send", "Calls", "" }, NPF_U64 },
	{ "LOCAL_RECV_CALLS", { "Local", "Recv", "Calls", "" }, NPF_U64 },
	{ "LOCAL_BYTES_PER_RECV", { "Local", "Bytes", "Per", "Recv" }, NPF_F2 },
	{ "LOCAL_BYTES_PER_SEND", { "Local", "Bytes", "Per", "Send" }, NPF_F2 },
	{ "LOCAL_BYTES_SENT", { "Local", "Bytes", "Sent", "" }, NPF_U64 },
	{ "LOCAL_BYTES_RECVD", { "Local", "Bytes", "Received", "" }, NPF_U64 },
	{ "LOCAL_BYTES_XFERD", { "Local", "Bytes", "Xferred", "" }, NPF_F0 },
	{ "LOCAL_NODELAY", { "Local", "NODELAY", "", "" }, NPF_D },
	{ "REMOTE_SEND_CALLS", { "Remote", "Send", "Calls", "" }, NPF_U64 },
	{ "REMOTE_RECV_CALLS", { "Remote", "Recv", "Calls", "" }, NPF_U64 },
	{ "REMOTE_BYTES_PER_RECV", { "Remote", "Bytes", "Per", "Recv" }, NPF_F2 },
	{ "REMOTE_BYTES_PER_SEND", { "Remote", "Bytes", "Per", "Send" }, NPF_F2 },
	{ "REMOTE_BYTES_SENT", { "Remote", "Bytes", "Sent", "" }, NPF_U64 },
	{ "REMOTE_BYTES_RECVD", { "Remote", "Bytes", "Received", "" }, NPF_U64 },
	{ "REMOTE_BYTES_XFERD", { "Remote", "Bytes", "Xferred", "" }, NPF_F0 },
	{ "REMOTE_NODELAY", { "Remote", "NODELAY", "", "" }, NPF_D },
	{ "MIN_LATENCY", { "Minimum", "Latency", "Microseconds", "" }, NPF_D },
	{ "MAX_LATENCY", { "Maximum", "Latency", "Microseconds", "" }, NPF_D },
	{ "P50_LATENCY", { "50th", "Percentile", "Latency", "Microseconds" }, NPF_D },
	{ "P90_LATENCY", { "90th", "Percentile", "Latency", "Microseconds" }, NPF_D },
	{ "P99_LATENCY", { "99th", "Percentile", "Latency", "Microseconds" }, NPF_D },
	{ "MEAN_LATENCY", { "Mean", "Latency", "Microseconds", "" }, NPF_F2 },
	{ "STDDEV_LATENCY", { "Stddev", "Latency", "Microseconds", "" }, NPF_F2 },
	{ "LOCAL_SOCKET_TOS", { "Local", "Socket", "TOS", "" }, NPF_X2 },
	{ "REMOTE_SOCKET_TOS", { "Remote", "Socket", "TOS", "" }, NPF_X2 },
	{ "LOCAL_CONG_CONTROL", { "Local", "Congestion", "Control", "Algorithm" }, NPF_S },
	{ "REMOTE_CONG_CONTROL", { "Remote", "Congestion", "Control", "Algorithm" }, NPF_S },
};

#define NP_COUNT (sizeof(np_table) / sizeof(np_table[0]))

const struct np_sel *np_sel_find(const char *name)
{
	for (unsigned i = 0; i < NP_COUNT; i++)
		if (!strcasecmp(name, np_table[i].name))
			return &np_table[i];
	return NULL;
}

void np_sel_title(const struct selector *s, const char *line[4])
{
	const struct np_sel *n = np_sel_find(s->name);

	for (int k = 0; k < 4; k++)
		line[k] = n ? n->line[k] : k ? "" : s->name;
}

const char *np_sel_title_line(const struct selector *s, char *buf, size_t len)
{
	const char *line[4];
	size_t n = 0;

	np_sel_title(s, line);
	buf[0] = '\0';
	for (int k = 0; k < 4 && line[k][0] && n < len; k++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", k ? " " : "", line[k]);
	return buf;
}

/* netperf's value for a figure it has not got: -1 in the selector's format. */
static const char *np_placeholder(enum np_fmt f, char *buf, size_t len)
{
	switch (f) {
	case NPF_D:
	case NPF_F0:
		snprintf(buf, len, "-1");
		break;
	case NPF_U64:
		snprintf(buf, len, "0");
		break;
	case NPF_F2:
		snprintf(buf, len, "-1.00");
		break;
	case NPF_F3:
		snprintf(buf, len, "-1.000");
		break;
	case NPF_F6:
		snprintf(buf, len, "-1.000000");
		break;
	case NPF_X2:
		snprintf(buf, len, "0x%.2x", (unsigned)-1);
		break;
	default:
		buf[0] = '\0';
		break;
	}
	return buf;
}

const char *np_sel_format(const struct selector *s, const struct sel_value *v,
			  char *buf, size_t len)
{
	const struct np_sel *n = np_sel_find(s->name);
	double d;

	if (!n)
		return sel_value_format(v, buf, len);
	if (v->kind == SEL_NA)
		return np_placeholder(n->fmt, buf, len);
	if (v->kind == SEL_STR) {
		if (n->fmt == NPF_C)
			snprintf(buf, len, "%c", v->s[0]);
		else
			snprintf(buf, len, "%s", v->s);
		return buf;
	}
	d = v->kind == SEL_INT ? (double)v->i : v->d;
	switch (n->fmt) {
	case NPF_D:
		snprintf(buf, len, "%lld", v->kind == SEL_INT ? (long long)v->i : (long long)llround(d));
		break;
	case NPF_U64:
		snprintf(buf, len, "%" PRIu64, v->kind == SEL_INT ? (uint64_t)v->i : (uint64_t)llround(d));
		break;
	case NPF_F0:
		snprintf(buf, len, "%.0f", d);
		break;
	case NPF_F2:
		snprintf(buf, len, "%.2f", d);
		break;
	case NPF_F3:
		snprintf(buf, len, "%.3f", d);
		break;
	case NPF_F6:
		snprintf(buf, len, "%f", d);
		break;
	case NPF_X2:
		snprintf(buf, len, "0x%.2x", (unsigned)llround(d));
		break;
	default:
		sel_value_format(v, buf, len);
		break;
	}
	return buf;
}

void np_sel_list(FILE *f)
{
	const struct selector *tab;
	unsigned n, k = 0;

	tab = selector_table(&n);
	for (unsigned i = 0; i < NP_COUNT; i++)
		if (selector_find(np_table[i].name) >= 0)
			fprintf(f, "%s%s", k++ ? "," : "", np_table[i].name);
	for (unsigned i = 0; i < n; i++)
		if (!np_sel_find(tab[i].name))
			fprintf(f, "%s%s", k++ ? "," : "", tab[i].name);
	fputc('\n', f);
}
