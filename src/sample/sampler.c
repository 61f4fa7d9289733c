// SPDX-License-Identifier: GPL-2.0-or-later
/* sampler.c - the timerfd tick that turns flows' counters into snapshots. */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "sample/cpustat.h"
#include "sample/irqstat.h"
#include "sample/sampler.h"
#include "flows/sockinfo.h"

struct sampler {
	struct flow *flows;
	unsigned n;
	const struct test_params *p;
	sampler_cb cb;
	void *arg;
	bool tcp;

	int tfd, efd;
	pthread_t thread;
	bool running;

	uint64_t t0;
	uint64_t last_ns;
	uint64_t seq;
	struct cpustat_raw cpu0, cpu_prev, cpu_now;
	struct flow_counters prev;
	struct hist *h_prev, *h_now, *h_iv;
	uint64_t ctx_prev_vol, ctx_prev_invol;
	uint32_t cpu_ticks[TT_MAX_CPUS];	/* worker-ticks seen on each CPU */
	uint64_t *ctx_last;		/* per flow: vol, invol last read */
	unsigned turn_from, turn_len;	/* the flows whose figures this tick reads */
	struct sock_sample *sock_last;	/* per flow: its socket's figures last read */
	bool *sock_read;		/* per flow: sock_last holds a reading */
	char irq_dev[32];		/* the device carrying the test */
	char cong[16];			/* TCP_CONGESTION of the first socket seen */
	char irq_names[4][IRQSTAT_NAME_MAX];	/* it and its driver aliases */
	const char *irq_name_ptr[4];
	unsigned irq_nnames;
	struct irqstat_raw *irq0, *irq_prev, *irq_now;
	uint64_t irq_prev_ns;
	struct sock_sample *init;	/* buffer sizes after connect */
	struct capture *cap;		/* NULL: no capture */
	uint64_t cpu_ns;		/* this thread's CPU time, set as it ends */
};

/* Counters of one flow, read while its worker writes them. */
static void counters_load(const struct flow_counters *c, struct flow_counters *out)
{
	out->trans = __atomic_load_n(&c->trans, __ATOMIC_RELAXED);
	out->bytes_sent = __atomic_load_n(&c->bytes_sent, __ATOMIC_RELAXED);
	out->bytes_recv = __atomic_load_n(&c->bytes_recv, __ATOMIC_RELAXED);
	out->msgs_sent = __atomic_load_n(&c->msgs_sent, __ATOMIC_RELAXED);
	out->msgs_recv = __atomic_load_n(&c->msgs_recv, __ATOMIC_RELAXED);
	out->lost = __atomic_load_n(&c->lost, __ATOMIC_RELAXED);
}

static void counters_add(struct flow_counters *a, const struct flow_counters *b)
{
	a->trans += b->trans;
	a->bytes_sent += b->bytes_sent;
	a->bytes_recv += b->bytes_recv;
	a->msgs_sent += b->msgs_sent;
	a->msgs_recv += b->msgs_recv;
	a->lost += b->lost;
}

static void counters_sub(struct flow_counters *out, const struct flow_counters *a,
			 const struct flow_counters *b)
{
	out->trans = a->trans - b->trans;
	out->bytes_sent = a->bytes_sent - b->bytes_sent;
	out->bytes_recv = a->bytes_recv - b->bytes_recv;
	out->msgs_sent = a->msgs_sent - b->msgs_sent;
	out->msgs_recv = a->msgs_recv - b->msgs_recv;
	out->lost = a->lost - b->lost;
}

/* The sum of every flow's counters and (for RR clients) latency histograms. */
static void sampler_gather(struct sampler *s, struct flow_counters *tot, bool *has_lat)
{
	memset(tot, 0, sizeof(*tot));
	hist_init(s->h_now);
	*has_lat = false;
	for (unsigned i = 0; i < s->n; i++) {
		struct flow_counters c;

		counters_load(&s->flows[i].ctr, &c);
		counters_add(tot, &c);
		if (s->flows[i].lat) {
			hist_add_snapshot(s->h_now, s->flows[i].lat);
			*has_lat = true;
		}
	}
}

/* The sizes before connect, noted by the session or a CRR worker. */
static void sampler_pre(const struct flow *f, struct sock_sample *ss)
{
	ss->sndbuf_init = __atomic_load_n(&f->sndbuf_pre, __ATOMIC_ACQUIRE);
	ss->rcvbuf_init = __atomic_load_n(&f->rcvbuf_pre, __ATOMIC_RELAXED);
}

/*
 * The congestion control of the first flow with a TCP socket now, until
 * one is found: at the start, and each tick for TCP_CRR, whose sockets
 * come and go.
 */
static void sampler_cong(struct sampler *s)
{
	if (test_is_udp(s->p->type))
		return;
	for (unsigned i = 0; i < s->n && !s->cong[0]; i++) {
		int fd = __atomic_load_n(&s->flows[i].fd, __ATOMIC_RELAXED);
		socklen_t len = sizeof(s->cong) - 1;

		if (fd >= 0) {
			if (getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, s->cong, &len))
				s->cong[0] = '\0';
		} else if (__atomic_load_n(&s->flows[i].sndbuf_pre, __ATOMIC_ACQUIRE) >= 0) {
			/* a CRR flow: as its first socket had it (flow_note_bufs) */
			snprintf(s->cong, sizeof(s->cong), "%s", s->flows[i].cong_pre);
		}
	}
}

/*
 * The flows whose sockets and /proc entries one tick reads: at most
 * SAMPLER_TURN_MAX, the next ones the next tick, so each flow's figures
 * are at most n / SAMPLER_TURN_MAX ticks old.  Reading them all every
 * tick cost too much at 1024 flows: two /proc files a worker kept a CPU
 * busy and made the start of the flows take 3.4 s instead of 0.9 s; five
 * socket calls a flow (SO_SNDBUF, SO_RCVBUF, SIOCOUTQ, SIOCINQ, TCP_INFO)
 * are 100 000 system calls a second over the two ends (bench/README.md,
 * flows).  The run's result reads every flow at the end.
 */
#define SAMPLER_TURN_MAX 64

static void sampler_turn_next(struct sampler *s)
{
	if (!s->n)
		return;
	s->turn_from = (s->turn_from + s->turn_len) % s->n;
	s->turn_len = s->n < SAMPLER_TURN_MAX ? s->n : SAMPLER_TURN_MAX;
}

static bool sampler_turn(const struct sampler *s, unsigned i)
{
	return (i + s->n - s->turn_from) % s->n < s->turn_len;
}

/*
 * Socket figures of every flow that has a socket: read for the flows
 * whose turn it is (and those never read yet), the last reading for the
 * others; at the end (final) all are read, and those whose connections
 * came and went (CRR) are given with their sizes before connect only.
 */
static struct sock_sample *sampler_socks(struct sampler *s, uint32_t *nout,
					 bool final)
{
	struct sock_sample *socks = calloc(s->n ? s->n : 1, sizeof(*socks));
	uint32_t k = 0;

	sampler_cong(s);

	if (!socks) {
		*nout = 0;
		return NULL;
	}
	for (unsigned i = 0; i < s->n; i++) {
		int fd = __atomic_load_n(&s->flows[i].fd, __ATOMIC_RELAXED);

		socks[k] = s->init[i];
		socks[k].flow = i;
		sampler_pre(&s->flows[i], &socks[k]);
		if (fd < 0) {
			if (final && socks[k].sndbuf_init >= 0) {
				socks[k].sndbuf = socks[k].rcvbuf = -1;
				socks[k].outq = socks[k].inq = -1;
				k++;
			}
			continue;
		}
		if (!final && s->sock_read[i] && !sampler_turn(s, i)) {
			socks[k++] = s->sock_last[i];
			continue;
		}
		if (sockinfo_read(fd, s->tcp, &socks[k]) == 0) {
			s->sock_last[i] = socks[k];
			s->sock_read[i] = true;
			k++;
		}
	}
	*nout = k;
	return socks;
}

/*
 * Context switches of the workers, summed, and where each ran: the /proc
 * figures of the flows whose turn it is (sampler_turn); the result's
 * totals are the workers' own, read as they end.  A worker that has ended
 * keeps the figures last read, so totals never go back.
 */
static void sampler_tasks(struct sampler *s, uint64_t *vol, uint64_t *invol)
{
	pid_t pid = getpid();

	*vol = *invol = 0;
	for (unsigned i = 0; i < s->n; i++) {
		uint64_t v, iv;
		int cpu;
		pid_t tid = __atomic_load_n(&s->flows[i].tid, __ATOMIC_RELAXED);

		if (sampler_turn(s, i) && tid > 0 && !__atomic_load_n(&s->flows[i].done, __ATOMIC_ACQUIRE)) {
			if (taskstat_ctx("/proc", pid, tid, &v, &iv) == 0 &&
			    v >= s->ctx_last[2 * i] && iv >= s->ctx_last[2 * i + 1]) {
				s->ctx_last[2 * i] = v;
				s->ctx_last[2 * i + 1] = iv;
			}
			if (taskstat_cpu("/proc", pid, tid, &cpu) == 0 && cpu >= 0 &&
			    cpu < TT_MAX_CPUS)
				s->cpu_ticks[cpu]++;
		}
		*vol += s->ctx_last[2 * i];
		*invol += s->ctx_last[2 * i + 1];
	}
}

/*
 * The device that carries the test: the one holding the data socket's
 * local address (looked up in the sampler's own network namespace), and
 * its driver's names in /proc/interrupts (virtio0 for eth0).
 */
static void sampler_find_dev(struct sampler *s)
{
	int fd = -1;

	for (unsigned k = 0; k < s->n && fd < 0; k++)
		fd = s->flows[k].fd >= 0 ? s->flows[k].fd : s->flows[k].listen_fd;
	if (fd < 0 || sockinfo_netdev(fd, s->irq_dev, sizeof(s->irq_dev)))
		s->irq_dev[0] = '\0';
	if (!s->irq_dev[0] ||
	    irqstat_dev_aliases("/sys", s->irq_dev, s->irq_names, 4, &s->irq_nnames) < 0) {
		snprintf(s->irq_names[0], sizeof(s->irq_names[0]), "%s", s->irq_dev);
		s->irq_nnames = s->irq_dev[0] ? 1 : 0;
	}
	for (unsigned k = 0; k < s->irq_nnames; k++)
		s->irq_name_ptr[k] = s->irq_names[k];
}

/*
 * The capture so far, its directions' MSS from the first data socket's
 * TCP_INFO: this end's snd_mss for what it sends; for what it receives
 * rcv_mss, the kernel's estimate, until the session puts the peer's
 * snd_mss there.  Without a socket (CRR) the SYNs captured tell.
 */
static struct seg_capture *sampler_capture(struct sampler *s, const struct sock_sample *socks,
					   uint32_t nsocks)
{
	struct seg_capture *sc = malloc(sizeof(*sc));

	if (!sc || capture_snapshot(s->cap, sc, NULL)) {
		free(sc);
		return NULL;
	}
	for (int d = 0; d < CAP_NDIRS; d++)
		sc->mss[d] = sc->syn_mss[d];
	if (nsocks && socks[0].tcp.has) {
		if (socks[0].tcp.snd_mss)
			sc->mss[CAP_OUT] = socks[0].tcp.snd_mss;
		if (!sc->mss[CAP_IN])
			sc->mss[CAP_IN] = socks[0].tcp.rcv_mss;
	}
	return sc;
}

void sampler_set_capture(struct sampler *s, struct capture *cap)
{
	s->cap = cap;
}

/*
 * One tick: build the snapshot and hand it to the callback.  The timer
 * expired `periods` times since the last tick (more than once when this
 * thread ran late): seq counts periods, so tick seq is due at seq x the
 * interval and a tick that could not be taken leaves a gap.
 */
static void sampler_tick(struct sampler *s, uint64_t periods)
{
	struct end_sample smp;
	uint64_t now = now_ns();

	memset(&smp, 0, sizeof(smp));
	s->seq += periods ? periods : 1;
	smp.seq = s->seq;
	smp.t = (double)(now - s->t0) / 1e9;
	smp.iv_secs = (double)(now - s->last_ns) / 1e9;
	s->last_ns = now;

	sampler_gather(s, &smp.total, &smp.has_lat);
	counters_sub(&smp.iv, &smp.total, &s->prev);
	s->prev = smp.total;
	if (smp.iv_secs > 0) {
		if (test_is_rr(s->p->type))
			smp.rate = (double)smp.iv.trans / smp.iv_secs;
		else
			smp.rate = (double)(smp.iv.bytes_sent + smp.iv.bytes_recv) * 8.0 / smp.iv_secs;
	}
	if (smp.has_lat) {
		hist_delta(s->h_iv, s->h_now, s->h_prev);
		hist_summary(s->h_iv, &smp.lat_iv);
		hist_summary(s->h_now, &smp.lat_total);
		struct hist *t = s->h_prev;

		s->h_prev = s->h_now;
		s->h_now = t;
	}
	sampler_turn_next(s);
	smp.socks = sampler_socks(s, &smp.nsocks, false);
	if (cpustat_read("/proc", &s->cpu_now, NULL) == 0) {
		cpustat_delta(&s->cpu_prev, &s->cpu_now, &smp.cpu);
		s->cpu_prev = s->cpu_now;
	}
	snprintf(smp.irq_dev, sizeof(smp.irq_dev), "%s", s->irq_dev);
	if (irqstat_read("/proc", s->irq_name_ptr, s->irq_nnames, s->irq_now, NULL) == 0) {
		irqstat_delta(s->irq_prev, s->irq_now, (double)(now - s->irq_prev_ns) / 1e9, &smp.irq);
		struct irqstat_raw *t = s->irq_prev;

		s->irq_prev = s->irq_now;
		s->irq_now = t;
		s->irq_prev_ns = now;
	}
	sampler_tasks(s, &smp.ctx_vol, &smp.ctx_invol);
	smp.iv_ctx_vol = smp.ctx_vol - s->ctx_prev_vol;
	smp.iv_ctx_invol = smp.ctx_invol - s->ctx_prev_invol;
	s->ctx_prev_vol = smp.ctx_vol;
	s->ctx_prev_invol = smp.ctx_invol;

	if (s->cap)
		smp.cap = sampler_capture(s, smp.socks, smp.nsocks);
	s->cb(&smp, s->arg);
	sample_free(&smp);
}

static void *sampler_thread(void *arg)
{
	struct sampler *s = arg;
	struct pollfd pfd[2] = {
		{ .fd = s->tfd, .events = POLLIN },
		{ .fd = s->efd, .events = POLLIN },
	};

	/* Named for top -H and the bench, which reads its CPU time apart. */
	pthread_setname_np(pthread_self(), "tt-sampler");
	for (;;) {
		uint64_t expirations;

		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		/*
		 * The timer first: the run ends just after its last tick is
		 * due, and on a loaded machine this thread may see the stop
		 * and that tick together. Dropping it would leave a 1 s run
		 * at 100 ms with 9 ticks.
		 */
		if (pfd[0].revents &&
		    read(s->tfd, &expirations, sizeof(expirations)) == sizeof(expirations))
			sampler_tick(s, expirations);
		if (pfd[1].revents)
			break;
	}
	/* What watching cost this end, in the result (sampler_cpu). */
	s->cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	return NULL;
}

int sampler_create(struct sampler **sp, struct flow *flows, unsigned n,
		   const struct test_params *p, sampler_cb cb, void *arg,
		   char *err)
{
	struct sampler *s = calloc(1, sizeof(*s));
	int ret;

	if (!s)
		return err_set(err, -ENOMEM, "sampler: out of memory");
	s->flows = flows;
	s->n = n;
	s->p = p;
	s->cb = cb;
	s->arg = arg;
	s->tcp = !test_is_udp(p->type);
	s->tfd = s->efd = -1;
	s->h_prev = malloc(sizeof(struct hist));
	s->h_now = malloc(sizeof(struct hist));
	s->h_iv = malloc(sizeof(struct hist));
	s->init = calloc(n ? n : 1, sizeof(*s->init));
	s->ctx_last = calloc(2 * (n ? n : 1), sizeof(*s->ctx_last));
	s->sock_last = calloc(n ? n : 1, sizeof(*s->sock_last));
	s->sock_read = calloc(n ? n : 1, sizeof(*s->sock_read));
	s->irq0 = calloc(1, sizeof(*s->irq0));
	s->irq_prev = calloc(1, sizeof(*s->irq_prev));
	s->irq_now = calloc(1, sizeof(*s->irq_now));
	if (!s->h_prev || !s->h_now || !s->h_iv || !s->init || !s->ctx_last ||
	    !s->sock_last || !s->sock_read || !s->irq0 || !s->irq_prev || !s->irq_now) {
		ret = err_set(err, -ENOMEM, "sampler: out of memory");
		goto fail;
	}
	hist_init(s->h_prev);
	for (unsigned i = 0; i < n; i++) {
		struct sock_sample *ss = &s->init[i];

		ss->flow = i;
		ss->sndbuf_conn = ss->rcvbuf_conn = -1;
		if (flows[i].fd >= 0 && sockinfo_read(flows[i].fd, s->tcp, ss) == 0) {
			ss->sndbuf_conn = ss->sndbuf;
			ss->rcvbuf_conn = ss->rcvbuf;
		}
	}
	sampler_cong(s);
	ret = cpustat_read("/proc", &s->cpu0, err);
	if (ret)
		goto fail;
	sampler_find_dev(s);
	s->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	s->efd = eventfd(0, EFD_CLOEXEC);
	if (s->tfd < 0 || s->efd < 0) {
		ret = err_set(err, -errno, "sampler: timerfd: %s", strerror(errno));
		goto fail;
	}
	*sp = s;
	return 0;
fail:
	sampler_destroy(s);
	return ret;
}

int sampler_start(struct sampler *s, char *err)
{
	struct itimerspec its = { 0 };
	int ret;

	s->t0 = s->last_ns = s->irq_prev_ns = now_ns();
	cpustat_read("/proc", &s->cpu0, NULL);
	s->cpu_prev = s->cpu0;
	if (irqstat_read("/proc", s->irq_name_ptr, s->irq_nnames, s->irq0, NULL) == 0)
		*s->irq_prev = *s->irq0;
	its.it_interval.tv_sec = s->p->sample_ms / 1000;
	its.it_interval.tv_nsec = (long)(s->p->sample_ms % 1000) * 1000000L;
	its.it_value = its.it_interval;
	if (timerfd_settime(s->tfd, 0, &its, NULL) < 0)
		return err_set(err, -errno, "sampler: timerfd_settime: %s", strerror(errno));
	ret = pthread_create(&s->thread, NULL, sampler_thread, s);
	if (ret)
		return err_set(err, -ret, "sampler: thread: %s", strerror(ret));
	s->running = true;
	return 0;
}

void sampler_stop(struct sampler *s)
{
	uint64_t one = 1;

	if (!s || !s->running)
		return;
	if (write(s->efd, &one, sizeof(one)) < 0)
		return;
	pthread_join(s->thread, NULL);
	s->running = false;
}

/*
 * Segments over the run from TCP_INFO deltas of the sockets that lived
 * through it: all of them, and data segments only (tcpi_data_segs_*,
 * Linux 4.6+: pure ACKs not counted).  -1 when no socket had TCP_INFO.
 */
static void sampler_segs(const struct sampler *s, struct end_result *r)
{
	r->segs_out = r->segs_in = r->data_segs_out = r->data_segs_in = -1;
	for (uint32_t k = 0; s->tcp && k < r->nsocks; k++) {
		const struct sock_sample *f = &r->socks[k];
		const struct sock_sample *i0 = &s->init[f->flow];

		if (!f->tcp.has || !i0->tcp.has)
			continue;
		if (r->segs_out < 0)
			r->segs_out = r->segs_in = r->data_segs_out = r->data_segs_in = 0;
		/* TCP_INFO's counters are u32 and wrap; the difference
		 * modulo 2^32 is still right. */
		r->segs_out += (uint32_t)(f->tcp.segs_out - i0->tcp.segs_out);
		r->segs_in += (uint32_t)(f->tcp.segs_in - i0->tcp.segs_in);
		r->data_segs_out += (uint32_t)(f->tcp.data_segs_out - i0->tcp.data_segs_out);
		r->data_segs_in += (uint32_t)(f->tcp.data_segs_in - i0->tcp.data_segs_in);
	}
}

int sampler_final(struct sampler *s, struct end_result *r, char *err)
{
	struct cpustat_raw end;
	bool has_lat;

	sampler_stop(s);
	sampler_gather(s, &r->total, &has_lat);
	r->send_errors = 0;
	for (unsigned i = 0; i < s->n; i++)
		r->send_errors += __atomic_load_n(&s->flows[i].send_errors, __ATOMIC_RELAXED);
	r->has_lat = has_lat;
	if (has_lat) {
		r->hist = malloc(sizeof(*r->hist));
		if (!r->hist)
			return err_set(err, -ENOMEM, "sampler: out of memory");
		*r->hist = *s->h_now;
		hist_summary(r->hist, &r->lat);
	}
	r->socks = sampler_socks(s, &r->nsocks, true);
	snprintf(r->cong_control, sizeof(r->cong_control), "%s", s->cong);
	sampler_segs(s, r);
	if (cpustat_read("/proc", &end, NULL) == 0)
		cpustat_delta(&s->cpu0, &end, &r->cpu);
	snprintf(r->irq_dev, sizeof(r->irq_dev), "%s", s->irq_dev);
	if (irqstat_read("/proc", s->irq_name_ptr, s->irq_nnames, s->irq_now, NULL) == 0)
		irqstat_delta(s->irq0, s->irq_now, (double)(now_ns() - s->t0) / 1e9, &r->irq);
	r->cpu_main = -1;
	r->ncpus_used = 0;
	for (int c = 0; c < TT_MAX_CPUS; c++) {
		if (!s->cpu_ticks[c])
			continue;
		r->ncpus_used++;
		if (r->cpu_main < 0 || s->cpu_ticks[c] > s->cpu_ticks[r->cpu_main])
			r->cpu_main = c;
	}
	if (s->cap) {
		capture_stop(s->cap);
		r->cap = sampler_capture(s, r->socks, r->nsocks);
	}
	r->ctx_vol = r->ctx_invol = r->strays = 0;
	r->sampler_cpu = (double)s->cpu_ns / 1e9;
	r->flows_cpu = 0;
	for (unsigned i = 0; i < s->n; i++) {
		r->flows_cpu += (double)s->flows[i].cpu_ns / 1e9;
		r->ctx_vol += s->flows[i].ctx_vol;
		r->ctx_invol += s->flows[i].ctx_invol;
		r->strays += __atomic_load_n(&s->flows[i].strays, __ATOMIC_RELAXED);
	}
	return 0;
}

void sampler_destroy(struct sampler *s)
{
	if (!s)
		return;
	sampler_stop(s);
	if (s->tfd >= 0)
		close(s->tfd);
	if (s->efd >= 0)
		close(s->efd);
	free(s->h_prev);
	free(s->h_now);
	free(s->h_iv);
	free(s->init);
	free(s->ctx_last);
	free(s->sock_last);
	free(s->sock_read);
	free(s->irq0);
	free(s->irq_prev);
	free(s->irq_now);
	free(s);
}
