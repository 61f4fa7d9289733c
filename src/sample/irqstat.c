// SPDX-License-Identifier: GPL-2.0-or-later
/* irqstat.c - per-CPU interrupts of a device and NET_RX/NET_TX softirqs. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sample/irqstat.h"
#include "core/util.h"

/* Buffer sizes that held the last whole files; they grow on big machines. */
static _Atomic size_t irqstat_irq_bufsz = 16384;
static _Atomic size_t irqstat_soft_bufsz = 4096;


/* Cut the line at p off the buffer; returns the start of the next one. */
static char *irqstat_line(char *p)
{
	char *nl = strchr(p, '\n');

	if (!nl)
		return NULL;
	*nl = '\0';
	return nl + 1;
}

static bool irqstat_space(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * Parse a header of "CPUn" columns into a malloc'd array of ids.  Both
 * files print one column per CPU they cover (kernel/irq/proc.c prints the
 * online CPUs, fs/proc/softirqs.c the possible ones), so offline CPUs make
 * the ids sparse.  Returns the number of columns or -EINVAL / -ENOMEM.
 */
static int irqstat_header(const char *line, int **idsp)
{
	size_t cap = 16, n = 0;
	int *ids = malloc(cap * sizeof(*ids));
	const char *p = line;

	if (!ids)
		return -ENOMEM;
	for (;;) {
		unsigned long id;
		char *end;

		while (irqstat_space(*p))
			p++;
		if (!*p)
			break;
		if (strncmp(p, "CPU", 3) != 0 || p[3] < '0' || p[3] > '9')
			goto bad;
		errno = 0;
		id = strtoul(p + 3, &end, 10);
		if (errno || id > INT_MAX || (*end && !irqstat_space(*end)))
			goto bad;
		if (n == INT_MAX)
			goto bad;
		if (n == cap) {
			int *more = realloc(ids, 2 * cap * sizeof(*ids));

			if (!more) {
				free(ids);
				return -ENOMEM;
			}
			ids = more;
			cap *= 2;
		}
		ids[n++] = (int)id;
		p = end;
	}
	if (!n)
		goto bad;
	*idsp = ids;
	return (int)n;
bad:
	free(ids);
	return -EINVAL;
}

/*
 * Parse up to ncols counts from *pp, keeping the first max of them in v.
 * A count is digits followed by a blank or the end of the line, so
 * "0-edge" after a short row is not taken for one.  Advances *pp past the
 * counts and returns how many there were.
 */
static unsigned irqstat_counts(const char **pp, unsigned ncols, uint64_t *v,
			       unsigned max)
{
	const char *p = *pp;
	unsigned n = 0;

	while (n < ncols) {
		const char *q = p;
		unsigned long long x;
		char *end;

		while (irqstat_space(*q))
			q++;
		if (*q < '0' || *q > '9')
			break;
		errno = 0;
		x = strtoull(q, &end, 10);
		if (errno || (*end && !irqstat_space(*end)))
			break;
		if (n < max)
			v[n] = x;
		n++;
		p = end;
	}
	*pp = p;
	return n;
}

static bool irqstat_sep(char c)
{
	return c == '-' || c == '@' || c == ':';
}

/* Whether name is a whole '-', '@' or ':' separated part of tok[0..len). */
static bool irqstat_part(const char *tok, size_t len, const char *name)
{
	size_t nlen = strlen(name), i;

	if (!nlen || nlen > len)
		return false;
	for (i = 0; i + nlen <= len; i++) {
		if (memcmp(tok + i, name, nlen) != 0)
			continue;
		if ((i == 0 || irqstat_sep(tok[i - 1])) &&
		    (i + nlen == len || irqstat_sep(tok[i + nlen])))
			return true;
	}
	return false;
}

/*
 * Whether an IRQ line's action names match one of names.  The names end
 * the line: show_interrupts() prints the first after two blanks and each
 * further one (shared IRQs) after ", ".  So the last word is a name, and
 * so is each word before it that ends in a comma; the chip, hwirq and
 * trigger type before them are never looked at.
 */
static bool irqstat_match(const char *p, const char *const *names,
			  unsigned nnames)
{
	const char *end = p + strlen(p);

	for (;;) {
		const char *tok;
		size_t len;
		unsigned k;

		while (end > p && irqstat_space(end[-1]))
			end--;
		if (end > p && end[-1] == ',')
			end--;
		tok = end;
		while (tok > p && !irqstat_space(tok[-1]))
			tok--;
		len = (size_t)(end - tok);
		if (!len)
			return false;
		for (k = 0; k < nnames; k++)
			if (irqstat_part(tok, len, names[k]))
				return true;
		/* Go on only when the word before ends a ", "-list item. */
		end = tok;
		while (end > p && irqstat_space(end[-1]))
			end--;
		if (end == p || end[-1] != ',')
			return false;
	}
}

/*
 * Sum the device's lines of <proc_root>/interrupts into out->dev_irqs and
 * take the CPU ids from its header.  Only numbered IRQ lines with a count
 * for every CPU column are candidates: architecture rows (NMI, LOC, ERR,
 * MIS, IPIn) carry descriptions, and ERR/MIS have a single count.
 */
/*
 * Read <proc_root>/<file> into *buf and parse its "CPUn" header into *ids;
 * *next is the first line after it.  Returns the number of CPU columns, or
 * -errno with err naming the file (*buf and *ids are the caller's to free).
 */
static int irqstat_open(const char *proc_root, const char *file,
			_Atomic size_t *hint, char *path, size_t plen,
			char **buf, char **next, int **ids, char *err)
{
	int rc;

	if (snprintf(path, plen, "%s/%s", proc_root, file) >= (int)plen)
		return err_set(err, -ENAMETOOLONG, "%s/%s: %s", proc_root, file,
			       strerror(ENAMETOOLONG));
	rc = proc_slurp(path, hint, buf);
	if (rc)
		return err_set(err, rc, "%s: %s", path, strerror(-rc));
	*next = irqstat_line(*buf);
	rc = irqstat_header(*buf, ids);
	if (rc < 0)
		return err_set(err, rc, "%s: no \"CPUn\" header line", path);
	return rc;
}

static int irqstat_irqs(const char *proc_root, const char *const *names,
			unsigned nnames, struct irqstat_raw *out, char *err)
{
	uint64_t v[TT_MAX_CPUS];
	char path[PATH_MAX];
	char *buf, *line, *next;
	int *ids = NULL;
	unsigned ncols, i;
	int rc;

	buf = NULL;
	rc = irqstat_open(proc_root, "interrupts", &irqstat_irq_bufsz, path,
			  sizeof(path), &buf, &next, &ids, err);
	if (rc < 0)
		goto out;
	ncols = (unsigned)rc;
	rc = 0;
	out->ncpu = ncols < TT_MAX_CPUS ? ncols : TT_MAX_CPUS;
	memcpy(out->id, ids, out->ncpu * sizeof(*ids));
	for (line = next; line && *line; line = next) {
		const char *p = line;
		bool numbered;

		next = irqstat_line(line);
		while (irqstat_space(*p))
			p++;
		numbered = *p >= '0' && *p <= '9';
		while (*p >= '0' && *p <= '9')
			p++;
		if (!numbered || *p != ':')
			continue;
		p++;
		if (irqstat_counts(&p, ncols, v, TT_MAX_CPUS) < ncols)
			continue;
		if (!irqstat_match(p, names, nnames))
			continue;
		for (i = 0; i < out->ncpu; i++)
			out->dev_irqs[i] += v[i];
		out->nlines++;
	}
out:
	free(ids);
	free(buf);
	return rc;
}

/* Index of CPU id in ids[0..n), trying hint first (both lists ascend). */
static int irqstat_find(const int *ids, unsigned n, int id, unsigned hint)
{
	unsigned i;

	if (hint < n && ids[hint] == id)
		return (int)hint;
	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return (int)i;
	return -1;
}

/*
 * Fill out->net_rx and out->net_tx from <proc_root>/softirqs.  Its columns
 * are the possible CPUs, a superset of the online ones /proc/interrupts
 * shows, so columns are matched by id.  With take_ids the CPU list comes
 * from this file instead.
 */
static int irqstat_soft(const char *proc_root, bool take_ids,
			struct irqstat_raw *out, char *err)
{
	char path[PATH_MAX];
	char *buf, *line, *next;
	uint64_t *row = NULL;
	int *ids = NULL, *col = NULL;
	bool have_rx = false, have_tx = false;
	unsigned ncols, i;
	int rc;

	buf = NULL;
	rc = irqstat_open(proc_root, "softirqs", &irqstat_soft_bufsz, path,
			  sizeof(path), &buf, &next, &ids, err);
	if (rc < 0)
		goto out;
	ncols = (unsigned)rc;
	rc = 0;
	if (take_ids) {
		out->ncpu = ncols < TT_MAX_CPUS ? ncols : TT_MAX_CPUS;
		memcpy(out->id, ids, out->ncpu * sizeof(*ids));
	}
	row = malloc(ncols * sizeof(*row));
	col = malloc((out->ncpu ? out->ncpu : 1) * sizeof(*col));
	if (!row || !col) {
		rc = err_set(err, -ENOMEM, "%s: out of memory", path);
		goto out;
	}
	for (i = 0; i < out->ncpu; i++) {
		col[i] = irqstat_find(ids, ncols, out->id[i], i);
		if (col[i] < 0) {
			rc = err_set(err, -EINVAL, "%s: no column for CPU%d",
				     path, out->id[i]);
			goto out;
		}
	}
	for (line = next; line && *line; line = next) {
		const char *p = line;
		uint64_t *dst;

		next = irqstat_line(line);
		while (irqstat_space(*p))
			p++;
		if (strncmp(p, "NET_RX:", 7) == 0) {
			dst = out->net_rx;
			have_rx = true;
		} else if (strncmp(p, "NET_TX:", 7) == 0) {
			dst = out->net_tx;
			have_tx = true;
		} else {
			continue;
		}
		p += 7;
		if (irqstat_counts(&p, ncols, row, ncols) < ncols) {
			rc = err_set(err, -EINVAL,
				     "%s: malformed line \"%.40s\"", path,
				     line);
			goto out;
		}
		for (i = 0; i < out->ncpu; i++)
			dst[i] = row[col[i]];
	}
	if (!have_rx || !have_tx)
		rc = err_set(err, -EINVAL, "%s: no %s line", path,
			     have_rx ? "NET_TX" : "NET_RX");
out:
	free(col);
	free(row);
	free(ids);
	free(buf);
	return rc;
}

/* The device's lines first (they fix the CPU list), then the softirqs. */
int irqstat_read(const char *proc_root, const char *const *names,
		 unsigned nnames, struct irqstat_raw *out, char *err)
{
	int rc;

	memset(out, 0, sizeof(*out));
	if (nnames) {
		rc = irqstat_irqs(proc_root, names, nnames, out, err);
		if (rc)
			return rc;
	}
	return irqstat_soft(proc_root, nnames == 0, out, err);
}

/* Rates of the CPUs of b that a has too and whose counters only grew. */
void irqstat_delta(const struct irqstat_raw *a, const struct irqstat_raw *b,
		   double secs, struct irq_sample *out)
{
	bool same_lines = a->nlines == b->nlines;
	double k = secs > 0 ? 1.0 / secs : 0.0;
	unsigned i;

	memset(out, 0, sizeof(*out));
	out->nlines = same_lines ? b->nlines : 0;
	for (i = 0; i < b->ncpu; i++) {
		int j = irqstat_find(a->id, a->ncpu, b->id[i], i);
		unsigned c = out->ncpu;

		/* Counters that went back restarted: the CPU was replugged. */
		if (j < 0 || b->net_rx[i] < a->net_rx[j] ||
		    b->net_tx[i] < a->net_tx[j] ||
		    (same_lines && b->dev_irqs[i] < a->dev_irqs[j]))
			continue;
		out->id[c] = b->id[i];
		if (same_lines)
			out->irq_rate[c] =
				(double)(b->dev_irqs[i] - a->dev_irqs[j]) * k;
		out->rx_rate[c] = (double)(b->net_rx[i] - a->net_rx[j]) * k;
		out->tx_rate[c] = (double)(b->net_tx[i] - a->net_tx[j]) * k;
		out->irq_total += out->irq_rate[c];
		out->rx_total += out->rx_rate[c];
		out->tx_total += out->tx_rate[c];
		out->ncpu++;
	}
}

/* dev, then the device its interface sits on, as sysfs links them. */
int irqstat_dev_aliases(const char *sys_root, const char *dev,
			char names[][IRQSTAT_NAME_MAX], unsigned max,
			unsigned *n)
{
	char path[PATH_MAX], link[PATH_MAX];
	const char *base;
	ssize_t len;

	*n = 0;
	if (!max || !*dev || strchr(dev, '/') || strcmp(dev, ".") == 0 ||
	    strcmp(dev, "..") == 0)
		return -EINVAL;
	if (strlen(dev) >= IRQSTAT_NAME_MAX)
		return -ENAMETOOLONG;
	if (snprintf(path, sizeof(path), "%s/class/net/%s", sys_root, dev) >=
	    (int)sizeof(path) - 8)
		return -ENAMETOOLONG;
	if (access(path, F_OK) != 0)
		return errno == ENOENT ? -ENODEV : -errno;
	strcpy(names[(*n)++], dev);
	strcat(path, "/device");
	len = readlink(path, link, sizeof(link) - 1);
	if (len < 0)
		return errno == ENOENT ? 0 : -errno;
	link[len] = '\0';
	while (len > 0 && link[len - 1] == '/')
		link[--len] = '\0';
	base = strrchr(link, '/');
	base = base ? base + 1 : link;
	/* A name that cannot be held is left out rather than cut short. */
	if (*n < max && *base && strlen(base) < IRQSTAT_NAME_MAX &&
	    strcmp(base, dev) != 0)
		strcpy(names[(*n)++], base);
	return 0;
}
