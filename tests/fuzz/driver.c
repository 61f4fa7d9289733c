// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * driver.c - run a fuzz target without libFuzzer: replay the corpus files,
 * then mutate them (bit flips, random and boundary bytes, inserts,
 * deletions, truncations, duplicated and spliced chunks) for a bounded
 * time or number of runs, from a fixed seed so a run can be repeated.
 * It takes libFuzzer's spelling of the options it knows, so one command
 * line drives either build:
 *   fuzz-msg [-max_total_time=S] [-runs=N] [-seed=N] [-max_len=N] CORPUS...
 * A crash or sanitizer report leaves the input in crash-TARGET-SEED-N
 * (in $FUZZ_CRASH_DIR, else the current directory); replay it by naming
 * the file.  Built empty with --enable-fuzz (libFuzzer has its own main).
 */
#include "config.h"

#ifndef TT_LIBFUZZER

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"

struct input {
	uint8_t *data;
	size_t size;
};

static struct input *corpus;
static size_t ncorpus, corpus_cap;
static uint64_t rng_state;

/* What is running now, for the crash handlers. */
static const uint8_t *cur_data;
static size_t cur_size;
static char crash_path[4096];

/* xorshift64*: small, fast and the same on every machine. */
static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

static size_t rnd_below(size_t n)
{
	return n ? (size_t)(rnd() % n) : 0;
}

/* Keep the input that crashed; only async-signal-safe calls. */
static void save_crash(void)
{
	int fd;

	if (!cur_data && cur_size)
		return;
	ssize_t w;

	fd = open(crash_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	w = write(fd, cur_data, cur_size);
	close(fd);
	w = write(2, "fuzz: input kept in ", 20);
	w = write(2, crash_path, strlen(crash_path));
	w = write(2, "\n", 1);
	(void)w;
}

static void crash_cb(int sig)
{
	save_crash();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* ASan and UBSan call this before they exit with their report. */
extern void __sanitizer_set_death_callback(void (*cb)(void)) __attribute__((weak));

static void add_input(const uint8_t *data, size_t size)
{
	struct input *grown;

	if (ncorpus == corpus_cap) {
		corpus_cap = corpus_cap ? 2 * corpus_cap : 64;
		grown = realloc(corpus, corpus_cap * sizeof(*corpus));
		if (!grown) {
			perror("fuzz: corpus");
			exit(1);
		}
		corpus = grown;
	}
	corpus[ncorpus].data = malloc(size ? size : 1);
	if (!corpus[ncorpus].data) {
		perror("fuzz: corpus");
		exit(1);
	}
	memcpy(corpus[ncorpus].data, data, size);
	corpus[ncorpus++].size = size;
}

static void load_file(const char *path, size_t max_len)
{
	uint8_t *buf = malloc(max_len ? max_len : 1);
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f || !buf) {
		fprintf(stderr, "fuzz: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	n = fread(buf, 1, max_len, f);
	fclose(f);
	add_input(buf, n);
	free(buf);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A file, or every regular file of a directory in name order. */
static void load_path(const char *path, size_t max_len)
{
	struct dirent *de;
	struct stat st;
	char **names = NULL, full[4096];
	size_t n = 0, cap = 0;
	DIR *d;

	if (stat(path, &st) == 0 && !S_ISDIR(st.st_mode)) {
		load_file(path, max_len);
		return;
	}
	d = opendir(path);
	if (!d) {
		fprintf(stderr, "fuzz: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			names = realloc(names, cap * sizeof(*names));
			if (!names) {
				perror("fuzz: corpus");
				exit(1);
			}
		}
		names[n++] = strdup(de->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), name_cmp);
	for (size_t i = 0; i < n; i++) {
		snprintf(full, sizeof(full), "%s/%s", path, names[i]);
		if (stat(full, &st) == 0 && S_ISREG(st.st_mode))
			load_file(full, max_len);
		free(names[i]);
	}
	free(names);
}

/* One random change to buf (size *n, room max). */
static void mutate_once(uint8_t *buf, size_t *n, size_t max)
{
	static const uint8_t special[] = {
		0x00, 0x01, 0x7f, 0x80, 0xff, 0xfe, 0x1b, '\n', '"', '\\', '{', '}',
		'[', ']', ',', ':', '-', '0', '9', 'e', '.',
	};
	size_t at = rnd_below(*n), len, from;
	const struct input *other;

	switch (rnd_below(9)) {
	case 0:		/* flip a bit */
		if (*n)
			buf[at] ^= (uint8_t)(1u << rnd_below(8));
		break;
	case 1:		/* a random byte */
		if (*n)
			buf[at] = (uint8_t)rnd();
		break;
	case 2:		/* a byte parsers care about */
		if (*n)
			buf[at] = special[rnd_below(sizeof(special))];
		break;
	case 3:		/* insert a few bytes */
		len = 1 + rnd_below(8);
		if (*n + len > max)
			break;
		at = rnd_below(*n + 1);
		memmove(buf + at + len, buf + at, *n - at);
		for (size_t i = 0; i < len; i++)
			buf[at + i] = rnd_below(2) ? special[rnd_below(sizeof(special))] : (uint8_t)rnd();
		*n += len;
		break;
	case 4:		/* delete a range */
		if (!*n)
			break;
		len = 1 + rnd_below(*n - at < 32 ? *n - at : 32);
		memmove(buf + at, buf + at + len, *n - at - len);
		*n -= len;
		break;
	case 5:		/* truncate */
		*n = at;
		break;
	case 6:		/* duplicate a chunk in place */
		if (!*n)
			break;
		len = 1 + rnd_below(*n - at < 64 ? *n - at : 64);
		if (*n + len > max)
			break;
		memmove(buf + at + len, buf + at, *n - at);
		*n += len;
		break;
	case 7:		/* splice in a chunk of another input */
		other = &corpus[rnd_below(ncorpus)];
		if (!other->size)
			break;
		from = rnd_below(other->size);
		len = 1 + rnd_below(other->size - from < 256 ? other->size - from : 256);
		if (at + len > max)
			break;
		memcpy(buf + at, other->data + from, len);
		if (at + len > *n)
			*n = at + len;
		break;
	default:	/* a boundary number as text or as 32-bit big-endian */
		if (*n >= 4) {
			static const uint32_t nums[] = { 0, 1, 0x7fffffff, 0x80000000, 0xffffffff,
							 65535, 65536, 1u << 20, (1u << 20) + 1 };
			uint32_t v = nums[rnd_below(sizeof(nums) / sizeof(*nums))];

			at = rnd_below(*n - 3);
			buf[at] = (uint8_t)(v >> 24);
			buf[at + 1] = (uint8_t)(v >> 16);
			buf[at + 2] = (uint8_t)(v >> 8);
			buf[at + 3] = (uint8_t)v;
		}
		break;
	}
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void run_one(const uint8_t *data, size_t size)
{
	cur_data = data;
	cur_size = size;
	LLVMFuzzerTestOneInput(data, size);
}

int main(int argc, char **argv)
{
	const char *target = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	const char *dir = getenv("FUZZ_CRASH_DIR");
	unsigned long long runs = 0, seed = 1, done = 0;
	double max_time = 10, t0;
	size_t max_len = 65536, n;
	uint8_t *buf;
	bool given_runs = false;
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strncmp(argv[i], "-max_total_time=", 16))
			max_time = strtod(argv[i] + 16, NULL);
		else if (!strncmp(argv[i], "-runs=", 6))
			runs = strtoull(argv[i] + 6, NULL, 10), given_runs = true;
		else if (!strncmp(argv[i], "-seed=", 6))
			seed = strtoull(argv[i] + 6, NULL, 10);
		else if (!strncmp(argv[i], "-max_len=", 9))
			max_len = strtoul(argv[i] + 9, NULL, 10);
		/* Other libFuzzer options mean nothing here. */
	}
	if (i == argc || !max_len) {
		fprintf(stderr, "usage: %s [-max_total_time=S] [-runs=N] [-seed=N] [-max_len=N] CORPUS_DIR_OR_FILE...\n",
			target);
		return 2;
	}
	rng_state = seed ? seed : 1;
	snprintf(crash_path, sizeof(crash_path), "%s/crash-%s-%llu-%llu", dir ? dir : ".", target,
		 seed, 0ull);
	signal(SIGSEGV, crash_cb);
	signal(SIGBUS, crash_cb);
	signal(SIGABRT, crash_cb);
	signal(SIGFPE, crash_cb);
	signal(SIGILL, crash_cb);
	signal(SIGPIPE, SIG_IGN);
	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(save_crash);

	for (; i < argc; i++)
		load_path(argv[i], max_len);
	if (!ncorpus)
		add_input((const uint8_t *)"", 0);
	t0 = now_s();
	for (size_t k = 0; k < ncorpus; k++)
		run_one(corpus[k].data, corpus[k].size);
	buf = malloc(max_len);
	if (!buf) {
		perror("fuzz");
		return 1;
	}
	while (given_runs ? done < runs : now_s() - t0 < max_time) {
		const struct input *in = &corpus[rnd_below(ncorpus)];
		unsigned k = 1 + (unsigned)rnd_below(4);

		n = in->size < max_len ? in->size : max_len;
		memcpy(buf, in->data, n);
		while (k--)
			mutate_once(buf, &n, max_len);
		snprintf(crash_path, sizeof(crash_path), "%s/crash-%s-%llu-%llu", dir ? dir : ".",
			 target, seed, done + 1);
		run_one(buf, n);
		done++;
	}
	printf("%s: %zu corpus inputs replayed, %llu mutated runs in %.1f s (%.0f/s), seed %llu\n",
	       target, ncorpus, done, now_s() - t0, done / (now_s() - t0 > 0 ? now_s() - t0 : 1),
	       seed);
	free(buf);
	for (size_t k = 0; k < ncorpus; k++)
		free(corpus[k].data);
	free(corpus);
	return 0;
}

#endif
