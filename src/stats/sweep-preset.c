// SPDX-License-Identifier: GPL-2.0-or-later
/* sweep-preset.c - the named sweeps of data/sweeps, for every front end. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/datadir.h"
#include "core/util.h"
#include "stats/sweep-preset.h"

#define KINDS_ACCEPTED "size, burst, knob, send-size"

const char *sweep_preset_path(char *buf, size_t len)
{
	snprintf(buf, len, "%s/sweeps", datadir_path());
	return buf;
}

/* Line into p: its text without comment and trailing blanks, escaped, and its words. */
static void sweep_preset_split(const char *line, struct sweep_preset *p)
{
	char *save = NULL, *tok;
	size_t n;

	snprintf(p->text, sizeof(p->text), "%s", line);
	p->text[strcspn(p->text, "#\r\n")] = '\0';
	/* Tabs are blanks; anything else that could steer a terminal is
	 * written \xNN before a front end shows it (HACKING.md). */
	for (char *c = p->text; *c; c++)
		if (*c == '\t')
			*c = ' ';
	str_sanitize(p->text, sizeof(p->text));
	n = strlen(p->text);
	while (n && strchr(" \t", p->text[n - 1]))
		p->text[--n] = '\0';
	memcpy(p->buf, p->text, n + 1);
	p->nword = 0;
	p->columns = NULL;
	for (tok = strtok_r(p->buf, " ", &save); tok && p->nword < SWEEP_PRESET_WORDS;
	     tok = strtok_r(NULL, " ", &save))
		p->word[p->nword++] = tok;
}

/* Whether the line read goes on past the buffer (its newline is consumed). */
static bool sweep_preset_more(FILE *f)
{
	int c = getc(f);

	if (c == EOF || c == '\n')
		return false;
	ungetc(c, f);
	return true;
}

int sweep_preset_each(const char *path, int (*cb)(const struct sweep_preset *p, void *arg),
		      void *arg, char *err)
{
	struct sweep_preset p;
	char line[SWEEP_PRESET_LINE];
	unsigned lineno = 0;
	FILE *f = fopen(path, "re");
	int ret = 0;

	if (!f)
		return err_set(err, -EIO, "%s: %s", path, strerror(errno));
	while (!ret && fgets(line, sizeof(line), f)) {
		lineno++;
		if (strlen(line) == SWEEP_PRESET_LINE - 1 && !strchr(line, '\n') &&
		    sweep_preset_more(f)) {
			ret = err_set(err, -EINVAL, "%s:%u: line longer than %d characters; accepted: one preset a line, shorter",
				      path, lineno, SWEEP_PRESET_LINE - 1);
			break;
		}
		sweep_preset_split(line, &p);
		p.lineno = lineno;
		if (p.nword)
			ret = cb(&p, arg);
	}
	fclose(f);
	return ret;
}

/* The names seen so far, ", " between them, as long as they fit. */
struct sweep_preset_names {
	char *buf;
	size_t len;
};

static int sweep_preset_name_cb(const struct sweep_preset *p, void *arg)
{
	struct sweep_preset_names *n = arg;
	size_t used = strlen(n->buf);

	if (used + strlen(p->word[0]) + 3 < n->len)
		snprintf(n->buf + used, n->len - used, "%s%s", used ? ", " : "", p->word[0]);
	return 0;
}

int sweep_preset_names(const char *path, char *buf, size_t len, char *err)
{
	struct sweep_preset_names n = { buf, len };
	int ret;

	buf[0] = '\0';
	ret = sweep_preset_each(path, sweep_preset_name_cb, &n, err);
	if (!ret && !buf[0])
		snprintf(buf, len, "none defined");
	return ret;
}

/* What sweep_preset_find looks for, and where it copies the line found. */
struct sweep_preset_want {
	const char *name;
	struct sweep_preset *p;
};

static int sweep_preset_find_cb(const struct sweep_preset *p, void *arg)
{
	struct sweep_preset_want *w = arg;

	if (strcmp(p->word[0], w->name))
		return 0;
	*w->p = *p;
	/* The words point into the copy's own buffer. */
	for (unsigned i = 0; i < p->nword; i++)
		w->p->word[i] = w->p->buf + (p->word[i] - p->buf);
	return 1;
}

/* Check p's kind and find its --columns list; 0 or -EINVAL with err. */
static int sweep_preset_check(const char *path, const char *name, struct sweep_preset *p,
			      char *err)
{
	if (p->nword < 2 || sweep_policy_kind_parse(p->word[1], &p->kind))
		return err_set(err, -EINVAL, "%s: %s:%u: %s%s%s; accepted: NAME KIND ARGS with KIND one of " KINDS_ACCEPTED,
			       name, path, p->lineno,
			       p->nword < 2 ? "the line names no sweep kind" : "unknown sweep kind '",
			       p->nword < 2 ? "" : p->word[1], p->nword < 2 ? "" : "'");
	for (unsigned i = 2; i < p->nword; i++) {
		const char *a = p->word[i];

		if (strncmp(a, "--columns", 9) || (a[9] && a[9] != '='))
			continue;
		p->columns = a[9] ? a + 10 : i + 1 < p->nword ? p->word[++i] : NULL;
		if (!p->columns || !*p->columns || p->columns[0] == '-')
			return err_set(err, -EINVAL, "%s: %s:%u: --columns without a list; accepted: --columns NAME[,NAME...] of `tunetop run -- -o ?`",
				       name, path, p->lineno);
	}
	return 0;
}

int sweep_preset_find(const char *path, const char *name, struct sweep_preset *p, char *err)
{
	struct sweep_preset_want w = { name, p };
	char names[1024];
	int ret;

	memset(p, 0, sizeof(*p));
	ret = sweep_preset_each(path, sweep_preset_find_cb, &w, err);
	if (ret < 0)
		return ret;
	if (ret)
		return sweep_preset_check(path, name, p, err);
	ret = sweep_preset_names(path, names, sizeof(names), err);
	if (ret)
		return ret;
	return err_set(err, -ENOENT, "%s: unknown preset; accepted: %s (%s)", name, names, path);
}
