// SPDX-License-Identifier: GPL-2.0-or-later
/* target.c - where runs go: a lab of their own, a named lab, loopback, a tunetopd, a netserver. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "knobs/knobs-remote.h"
#include "proto/netserver.h"
#include "session/target.h"

/* How long connecting the knob link to tunetopd may take, without --connect-timeout. */
#define KNOBS_LINK_TIMEOUT_MS 5000

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

const char *target_knobs_refusal(const struct target_opts *o, bool remote)
{
	if (!remote || !o->host[0])
		return NULL;
	if (o->netserver)
		return "with --netserver: netserver has no knobs to change; accepted: local: knobs";
	if (!o->key_file[0])
		return "with -H: " KNOBS_REMOTE_NEEDS_KEY;
	return NULL;
}

/*
 * The link tunetopd's knobs change over (nothing connects before a knob
 * is read or set); the key file is read now, so a bad one stops the run
 * before anything changes.
 */
static int target_knobs_link(struct target *t, const struct target_opts *o, char *err)
{
	uint8_t key[AUTH_KEY_LEN];
	bool has_key = o->key_file[0] != '\0';
	int ret = 0;

	if (has_key) {
		ret = auth_init(err);
		if (!ret)
			ret = auth_key_load(o->key_file, key, err);
		if (ret) {
			char why[ERR_MAX];

			snprintf(why, sizeof(why), "%s", err);
			return err_set(err, ret, "--key %.200s: %s", o->key_file, why);
		}
	}
	ret = knobs_remote_link(&t->knobs, t->host, t->port[0] ? t->port : NULL,
				has_key ? key : NULL, KNOBS_LINK_TIMEOUT_MS, err);
	memset(key, 0, sizeof(key));
	return ret;
}

int target_open(struct target *t, const struct target_opts *o, char *err)
{
	struct lab_opts lo = { .mtu = o->lab_mtu, .rate_bps = o->lab_rate };
	int ret;

	memset(t, 0, sizeof(*t));
	if (o->netserver && !o->host[0])
		return err_set(err, -EINVAL, "--netserver: needs -H HOST, the host netserver runs on");
	if (o->key_file[0] && (!o->host[0] || o->netserver))
		return err_set(err, -EINVAL, "--key: the key of a tunetopd's knob control; accepted with -H HOST (a tunetopd), not %s",
			       o->netserver ? "--netserver" : "without -H");
	if (o->host[0]) {
		t->kind = o->netserver ? TARGET_NETSERVER : TARGET_REMOTE;
		snprintf(t->host, sizeof(t->host), "%s", o->host);
		snprintf(t->port, sizeof(t->port), "%s", o->port);
		if (t->kind == TARGET_REMOTE) {
			ret = target_knobs_link(t, o, err);
			if (ret)
				return ret;
		}
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
		ret = lab_make(&t->lab, &lo, err);
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

	/* tunetopd puts back whatever this link still has changed. */
	knobs_remote_close(t->knobs);
	t->knobs = NULL;
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
	so->knobs = t->knobs;
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
	} else if (remote && !so->netserver) {
		/* tunetopd's host, on the device this client reaches it through. */
		kt->where = KT_REMOTE;
		kt->remote = so->knobs;
	} else {
		knobs_default_dev(kt->dev, sizeof(kt->dev));
	}
}

/* Swap two values of the same type. */
#define TARGET_SWAP(a, b) do { __typeof__(a) t_ = (a); (a) = (b); (b) = t_; } while (0)

bool target_reverse(struct session_opts *so)
{
	struct test_params *p = &so->p;

	if (so->lab && !so->host) {
		so->lab_reverse = true;
		return true;
	}
	TARGET_SWAP(p->req_size, p->resp_size);
	TARGET_SWAP(p->lsndbuf, p->rsndbuf);
	TARGET_SWAP(p->lrcvbuf, p->rrcvbuf);
	TARGET_SWAP(p->lcpu, p->rcpu);
	return false;
}

const char *target_reverse_desc(const struct session_opts *so)
{
	return so->lab_reverse ? "the far end, lab side b, sends the requests"
			       : "no lab to turn around: the ends trade -r, -s/-S, -T";
}
