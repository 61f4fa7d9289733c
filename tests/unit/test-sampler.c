// SPDX-License-Identifier: GPL-2.0-or-later
/* test-sampler.c - the tick numbers keep the schedule when the sampler runs
 * late; the sockets of many flows are read in turn, and all at the end. */
#include "config.h"

#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"
#include "sample/sampler.h"

#define TICK_MS 20
#define NTICKS 6

struct ticks {
	unsigned n;
	uint64_t seq[NTICKS];
	double t[NTICKS];
};

/* Runs on the sampler thread: the second tick takes 3.5 periods. */
static void tick_cb(const struct end_sample *smp, void *arg)
{
	struct ticks *k = arg;
	struct timespec ts = { 0, 70 * 1000000L };

	if (k->n >= NTICKS)
		return;
	k->seq[k->n] = smp->seq;
	k->t[k->n] = smp->t;
	if (++k->n == 2)
		nanosleep(&ts, NULL);
}

/*
 * A tick taken late (its thread busy, or kept off the CPUs) covers every
 * period the timer counted: seq jumps, so tick seq is still due at
 * seq x the interval and the gap says a tick was missed.  Only lower
 * bounds are checked: load makes the sampler later, never earlier.
 */
static void test_late_tick_keeps_the_schedule(void)
{
	struct test_params p;
	struct sampler *s = NULL;
	struct ticks k = { 0 };
	struct timespec ts = { 0, 5 * 1000000L };
	char err[ERR_MAX] = "";
	bool ontime = true;

	params_default(&p);
	p.sample_ms = TICK_MS;
	ok(sampler_create(&s, NULL, 0, &p, tick_cb, &k, err) == 0 &&
	   sampler_start(s, err) == 0, "a sampler of no flows ticks every %d ms (%s)",
	   TICK_MS, err);
	/* Bounded: at most 10 s, whatever the load. */
	for (int i = 0; i < 2000 && __atomic_load_n(&k.n, __ATOMIC_ACQUIRE) < NTICKS; i++)
		nanosleep(&ts, NULL);
	sampler_stop(s);
	sampler_destroy(s);
	ok(k.n == NTICKS, "%d ticks seen (%u)", NTICKS, k.n);
	ok(k.n >= 3 && k.seq[2] - k.seq[1] >= 3,
	   "the tick after a 70 ms stall counts the periods it covered (seq %llu then %llu)",
	   (unsigned long long)k.seq[1], (unsigned long long)k.seq[2]);
	for (unsigned i = 0; i < k.n; i++) {
		if (i && k.seq[i] <= k.seq[i - 1])
			ontime = false;
		if (k.t[i] < (double)k.seq[i] * TICK_MS / 1000.0 - 0.001)
			ontime = false;
	}
	ok(ontime, "tick numbers rise and no tick comes before seq x %d ms", TICK_MS);
}

#define NSOCKS 150		/* three turns of the sampler's 64 */
#define CHANGE_TICK 2		/* the tick after which the buffers grow */
#define NTURNS 6

struct turns {
	int fds[NSOCKS];
	unsigned n;			/* ticks seen */
	uint32_t nsocks[NTURNS];	/* flows in each tick's sample */
	unsigned grown[NTURNS];		/* of those, with the new SO_SNDBUF */
	int before, after;		/* SO_SNDBUF as the kernel reports it */
};

static void set_sndbuf(int fd, int v)
{
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v)) < 0)
		perror("SO_SNDBUF");
}

/* Runs on the sampler thread, after the tick's sockets were read. */
static void turn_cb(const struct end_sample *smp, void *arg)
{
	struct turns *t = arg;
	unsigned i = t->n;

	if (i >= NTURNS)
		return;
	t->nsocks[i] = smp->nsocks;
	for (uint32_t k = 0; k < smp->nsocks; k++)
		t->grown[i] += smp->socks[k].sndbuf == t->after;
	if (i + 1 == CHANGE_TICK)
		for (int f = 0; f < NSOCKS; f++)
			set_sndbuf(t->fds[f], 32768);
	__atomic_store_n(&t->n, i + 1, __ATOMIC_RELEASE);
}

/*
 * Every tick gives every flow's socket, but reads at most 64 of them and
 * gives the others' last figures: a change reaches the samples 64 flows a
 * tick, all of them within three ticks of 150 flows; the result at the
 * end reads them all.  The change is made on the sampler's thread
 * between two ticks, so the counts are exact.
 */
static void test_sockets_read_in_turn(void)
{
	static struct flow flows[NSOCKS];
	struct turns *t = calloc(1, sizeof(*t));
	struct test_params p;
	struct sampler *s = NULL;
	struct end_result r;
	struct timespec ts = { 0, 5 * 1000000L };
	char err[ERR_MAX] = "";
	bool all = true;
	unsigned final_grown = 0;
	socklen_t len = sizeof(int);

	params_default(&p);
	p.type = TEST_UDP_RR;
	p.sample_ms = TICK_MS;
	for (int f = 0; f < NSOCKS; f++) {
		t->fds[f] = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		set_sndbuf(t->fds[f], 8192);
		flows[f].idx = (unsigned)f;
		flows[f].p = &p;
		flows[f].fd = t->fds[f];
		flows[f].listen_fd = -1;
		flows[f].cpu = -1;
		flows[f].sndbuf_pre = flows[f].rcvbuf_pre = -1;
	}
	getsockopt(t->fds[0], SOL_SOCKET, SO_SNDBUF, &t->before, &len);
	/* What the kernel makes of 32768 (it doubles it), found on a spare socket. */
	{
		int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

		set_sndbuf(fd, 32768);
		len = sizeof(int);
		getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &t->after, &len);
		close(fd);
	}
	ok(t->fds[NSOCKS - 1] >= 0 && t->before != t->after,
	   "%d UDP sockets, SO_SNDBUF %d, to become %d", NSOCKS, t->before, t->after);
	ok(sampler_create(&s, flows, NSOCKS, &p, turn_cb, t, err) == 0 &&
	   sampler_start(s, err) == 0, "a sampler of %d flows ticks (%s)", NSOCKS, err);
	for (int i = 0; i < 2000 && __atomic_load_n(&t->n, __ATOMIC_ACQUIRE) < NTURNS; i++)
		nanosleep(&ts, NULL);
	sampler_stop(s);
	ok(t->n == NTURNS, "%d ticks seen (%u)", NTURNS, t->n);
	for (unsigned i = 0; i < t->n; i++)
		if (t->nsocks[i] != NSOCKS)
			all = false;
	ok(all, "every tick gives all %d flows' sockets", NSOCKS);
	ok(t->grown[CHANGE_TICK - 1] == 0 && t->grown[CHANGE_TICK] == 64 &&
	   t->grown[CHANGE_TICK + 1] == 128 && t->grown[CHANGE_TICK + 2] == NSOCKS,
	   "a change is seen 64 flows a tick: %u, %u, %u, %u flows with the new size",
	   t->grown[CHANGE_TICK - 1], t->grown[CHANGE_TICK], t->grown[CHANGE_TICK + 1],
	   t->grown[CHANGE_TICK + 2]);

	/* Shrink them all again: the result's reading must see every one. */
	for (int f = 0; f < NSOCKS; f++)
		set_sndbuf(t->fds[f], 8192);
	memset(&r, 0, sizeof(r));
	ok(sampler_final(s, &r, err) == 0, "the result is read (%s)", err);
	for (uint32_t k = 0; k < r.nsocks; k++)
		final_grown += r.socks[k].sndbuf == t->before;
	ok(r.nsocks == NSOCKS && final_grown == NSOCKS,
	   "the result reads every flow's socket: %u of %u show the size set after the last tick",
	   final_grown, r.nsocks);
	result_free(&r);
	sampler_destroy(s);
	for (int f = 0; f < NSOCKS; f++)
		close(t->fds[f]);
	free(t);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_late_tick_keeps_the_schedule();
	test_sockets_read_in_turn();
	return tap_done();
}
