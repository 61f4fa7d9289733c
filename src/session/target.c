// SPDX-License-Identifier: GPL-2.0-or-later
/* target.c - where runs go: a lab of their own, a named lab, loopback, a tunetopd, a netserver. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "proto/netserver.h"
#include "session/target.h"

/* The line the outputs and the dashboard's header show for t. */
static void target_describe(struct target *t)
{
	struct lab_info li;

	switch (t->kind) {
	case TARGET_REMOTE:
		snprintf(t->desc, sizeof(t->desc), "host: tunetopd at %.100s%s%s", t->host,
			 t->port[0] ? " port " : "", t->port);
		break;
	case TARGET_NETSERVER:
		snprintf(t->desc, sizeof(t->desc), "netserver at %.100s port %s", t->host,
			 t->port[0] ? t->port : NS_DEFAULT_PORT);
		break;
	case TARGET_LOOPBACK:
		snprintf(t->desc, sizeof(t->desc), "loopback: embedded tunetopd (%.120s)", t->why);
		break;
	case TARGET_LAB:
	case TARGET_OWN_LAB:
		if (lab_info(t->lab, &li, NULL) == 0) {
			lab_describe(&li, t->desc, sizeof(t->desc));
			t->tbf_bps = li.rate_bps;
		} else
			snprintf(t->desc, sizeof(t->desc), "lab: %s", lab_name(t->lab));
		break;
	}
}

int target_open(struct target *t, const struct target_opts *o, char *err)
{
	struct lab_opts lo = { .mtu = o->lab_mtu, .rate_bps = o->lab_rate };
	int ret;

	memset(t, 0, sizeof(*t));
	if (o->netserver && !o->host[0])
		return err_set(err, -EINVAL, "--netserver: needs -H HOST, the host netserver runs on");
	if (o->host[0]) {
		t->kind = o->netserver ? TARGET_NETSERVER : TARGET_REMOTE;
		snprintf(t->host, sizeof(t->host), "%s", o->host);
		snprintf(t->port, sizeof(t->port), "%s", o->port);
	} else if (o->loopback) {
		t->kind = TARGET_LOOPBACK;
		snprintf(t->why, sizeof(t->why), "asked for with --loopback");
	} else if (o->lab_name[0]) {
		ret = lab_open(&t->lab, o->lab_name, err);
		/* So `lab down --all` leaves the lab alone while we run in it. */
		if (!ret && lab_privileged())
			ret = lab_use(t->lab, err);
		if (ret) {
			lab_close(t->lab);
			t->lab = NULL;
			return ret;
		}
		t->kind = TARGET_LAB;
	} else if (!lab_privileged()) {
		if (o->lab_opts_given)
			return err_set(err, -EPERM, "--mtu/--rate: a lab needs CAP_NET_ADMIN and CAP_SYS_ADMIN (run as root)");
		t->kind = TARGET_LOOPBACK;
		snprintf(t->why, sizeof(t->why), "no CAP_NET_ADMIN for a lab");
	} else {
		ret = lab_create(&t->lab, &lo, err);
		if (ret && o->lab_opts_given)
			return ret;
		t->kind = ret ? TARGET_LOOPBACK : TARGET_OWN_LAB;
		if (ret)
			snprintf(t->why, sizeof(t->why), "the lab could not be made: %s", err);
	}
	target_describe(t);
	return 0;
}

int target_close(struct target *t, char *err)
{
	int ret = 0;

	if (t->kind == TARGET_OWN_LAB && t->lab)
		ret = lab_destroy(t->lab, err);
	else if (t->lab)
		lab_close(t->lab);
	t->lab = NULL;
	return ret;
}

void target_session_opts(const struct target *t, struct session_opts *so)
{
	bool remote = t->kind == TARGET_REMOTE || t->kind == TARGET_NETSERVER;

	so->host = remote ? t->host : NULL;
	so->port = remote && t->port[0] ? t->port : NULL;
	so->netserver = t->kind == TARGET_NETSERVER;
	so->lab = t->lab;
	so->why = t->kind == TARGET_LOOPBACK ? t->why : NULL;
}

void target_knob_target(const struct session_opts *so, bool remote, struct knob_target *kt)
{
	memset(kt, 0, sizeof(*kt));
	if (so->lab && !so->host) {
		kt->where = target_lab_side(so, remote) == LAB_B ? KT_LAB_B : KT_LAB_A;
		kt->lab = so->lab;
	} else if (!so->host) {
		/* Loopback: both ends are this host, on lo. */
		snprintf(kt->dev, sizeof(kt->dev), "lo");
	} else {
		knobs_default_dev(kt->dev, sizeof(kt->dev));
	}
}
