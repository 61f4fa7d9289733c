// SPDX-License-Identifier: GPL-2.0-or-later
/* worker.c - flow threads: start, pin, dispatch to the test type's ops, join. */
#include "config.h"

#include <dirent.h>
#include <limits.h>
#include <linux/futex.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "flows/worker-internal.h"

/* Which worker runs each test type; client and server ends of each. */
static const struct flow_ops *const flow_table[TEST_COUNT] = {
	[TEST_TCP_RR] = &rr_ops,
	[TEST_TCP_CRR] = &crr_ops,
	[TEST_TCP_STREAM] = &stream_ops,
	[TEST_TCP_MAERTS] = &maerts_ops,
	[TEST_UDP_RR] = &udp_rr_ops,
	[TEST_UDP_STREAM] = &udp_stream_ops,
};

const struct flow_ops *flow_ops_for(enum test_type t)
{
	return flow_table[t];
}

uint64_t flows_mem_need(const struct test_params *p, bool client)
{
	const struct flow_ops *ops = flow_table[p->type];
	uint64_t per = sizeof(struct flow) + FLOW_MEM_OVERHEAD + ops->bufs(p, client);

	return per * p->flows;
}

/* Descriptors kept free beyond the flows' own (control, files, pcap). */
#define FD_SPARE 64

/* Descriptors open in this process now; 0 when /proc does not tell. */
static unsigned fds_open(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	unsigned n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

int flows_fd_room(unsigned n, unsigned ends, char *err)
{
	struct rlimit rl;
	rlim_t need = (rlim_t)fds_open() + (rlim_t)n * ends + FD_SPARE;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return err_set(err, -errno, "open files limit: %s", strerror(errno));
	if (rl.rlim_cur == RLIM_INFINITY || need <= rl.rlim_cur)
		return 0;
	if (rl.rlim_max != RLIM_INFINITY && need > rl.rlim_max)
		return err_set(err, -EMFILE,
			       "%u flow(s) (%u end%s in this process) need about %llu open files, over the hard limit of %llu (ulimit -Hn); accepted are fewer flows (-n) or a higher limit",
			       n, ends, ends > 1 ? "s" : "", (unsigned long long)need,
			       (unsigned long long)rl.rlim_max);
	/* Both ends may share this process: all the hard limit allows. */
	rl.rlim_cur = rl.rlim_max == RLIM_INFINITY ? need + n : rl.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
		return err_set(err, -errno, "open files limit: raise to %llu for %u flow(s): %s",
			       (unsigned long long)rl.rlim_cur, n, strerror(errno));
	return 0;
}

/* Pin the calling worker thread to f->cpu (any CPU number, not just < 1024). */
static int flow_pin(struct flow *f)
{
	cpu_set_t *set;
	size_t size;
	int r;

	if (f->cpu < 0)
		return 0;
	set = CPU_ALLOC((size_t)f->cpu + 1);
	if (!set)
		return flow_err(f, -ENOMEM, "pin to CPU %d: %s", f->cpu,
				strerror(ENOMEM));
	size = CPU_ALLOC_SIZE((size_t)f->cpu + 1);
	CPU_ZERO_S(size, set);
	CPU_SET_S((size_t)f->cpu, size, set);
	r = pthread_setaffinity_np(pthread_self(), size, set);
	CPU_FREE(set);
	if (r)
		return flow_err(f, -r, "pin to CPU %d: %s (%ld CPUs online; "
				"the CPU must exist and be allowed to this process)",
				f->cpu, strerror(r), sysconf(_SC_NPROCESSORS_ONLN));
	return 0;
}

/* Wait until g opens (a private futex: no lock for 1024 waiters to take). */
static void flow_gate_wait(struct flow_gate *g)
{
	while (!__atomic_load_n(&g->open, __ATOMIC_ACQUIRE))
		syscall(SYS_futex, &g->open, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
}

/* Open g and wake every worker waiting in it; opening twice is harmless. */
static void flow_gate_open(struct flow_gate *g)
{
	__atomic_store_n(&g->open, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &g->open, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/* The worker thread: record its id, pin it, run the end of the test it plays. */
static void *flow_main(void *arg)
{
	struct flow *f = arg;
	const struct flow_ops *ops = flow_table[f->p->type];
	struct rusage ru;
	sigset_t all;
	int r;

	/* Signals belong to the program's main thread, not to data paths. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	pthread_setname_np(pthread_self(), "tt-flow");
	__atomic_store_n(&f->tid, gettid(), __ATOMIC_RELEASE);
	r = flow_pin(f);
	if (f->gate)
		flow_gate_wait(f->gate);
	if (!r)
		r = f->is_client ? ops->client(f) : ops->server(f);
	f->err = r < 0 ? r : 0;
	/* The thread's own context switches; its /proc entry goes with it. */
	if (getrusage(RUSAGE_THREAD, &ru) == 0) {
		f->ctx_vol = (uint64_t)ru.ru_nvcsw;
		f->ctx_invol = (uint64_t)ru.ru_nivcsw;
	}
	f->cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	f->done_ns = now_ns();
	__atomic_store_n(&f->done, true, __ATOMIC_RELEASE);
	return NULL;
}

int flow_start(struct flow *f, char *err)
{
	int r;

	if (!f->p || (unsigned)f->p->type >= TEST_COUNT || !f->stop ||
	    !f->abort)
		return err_set(err, -EINVAL, "flow %u: start: incomplete setup",
			       f->idx);
	memset(&f->ctr, 0, sizeof(f->ctr));
	f->send_errors = 0;
	f->strays = 0;
	f->tid = 0;
	f->err = 0;
	f->errbuf[0] = '\0';
	f->done = false;
	f->done_ns = 0;
	r = pthread_create(&f->thread, NULL, flow_main, f);
	if (r)
		return err_set(err, -r, "flow %u: start thread: %s", f->idx,
			       strerror(r));
	f->started = true;
	return 0;
}

int flows_start(struct flow *flows, unsigned n, struct flow_gate *gate,
		uint64_t duration_ns, int *abort, uint64_t *t0, char *err)
{
	int ret = 0;

	__atomic_store_n(&gate->open, 0, __ATOMIC_RELAXED);
	for (unsigned i = 0; i < n && !ret; i++) {
		flows[i].gate = gate;
		flows[i].end_ns = 0;
		ret = flow_start(&flows[i], err);
	}
	if (ret) {
		flows_abort(flows, n, abort);
		return ret;
	}
	*t0 = now_ns();
	for (unsigned i = 0; i < n && duration_ns; i++)
		flows[i].end_ns = *t0 + duration_ns;
	flow_gate_open(gate);
	return 0;
}

void flow_interrupt(struct flow *f)
{
	if (f->p && !test_is_udp(f->p->type) && f->fd >= 0)
		shutdown(f->fd, SHUT_RDWR);
}

void flows_abort(struct flow *flows, unsigned n, int *abort)
{
	__atomic_store_n(abort, 1, __ATOMIC_RELEASE);
	for (unsigned i = 0; i < n; i++) {
		if (flows[i].gate)
			flow_gate_open(flows[i].gate);
		flow_interrupt(&flows[i]);
	}
}

int flows_join(struct flow *flows, unsigned n, int *abort, int drain_ms,
	       const char *who, char *err)
{
	uint64_t deadline = now_ns() + (uint64_t)drain_ms * 1000000ull;
	bool aborted = __atomic_load_n(abort, __ATOMIC_ACQUIRE);
	int ret = 0;

	for (;;) {
		bool all = true;

		for (unsigned i = 0; i < n && all; i++)
			if (flows[i].started &&
			    !__atomic_load_n(&flows[i].done, __ATOMIC_ACQUIRE))
				all = false;
		if (all)
			break;
		if (!aborted && now_ns() > deadline) {
			flows_abort(flows, n, abort);
			aborted = true;
			ret = err_set(err, -ETIMEDOUT,
				      "%s: flows did not finish within %d s of the stop (the other end not answering?)",
				      who, drain_ms / 1000);
		}
		usleep(1000);
	}
	for (unsigned i = 0; i < n; i++) {
		int fret = flow_join(&flows[i]);

		if (fret && !ret)
			ret = err_set(err, fret, "%s: %s", who, flows[i].errbuf);
	}
	return ret;
}

uint64_t flows_last_done(const struct flow *flows, unsigned n, uint64_t t)
{
	uint64_t last = 0;

	for (unsigned i = 0; i < n; i++)
		if (flows[i].done_ns > last)
			last = flows[i].done_ns;
	return last ? last : t;
}

int flow_join(struct flow *f)
{
	if (f->started) {
		pthread_join(f->thread, NULL);
		f->started = false;
	}
	return f->err;
}
