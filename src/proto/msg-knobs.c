// SPDX-License-Identifier: GPL-2.0-or-later
/* msg-knobs.c - JSON bodies of the remote knob messages and authentication. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "proto/msg.h"
#include "proto/msg-rw.h"

json_t *msg_knob_get_to_json(const struct msg_knob_get *m)
{
	json_t *a;
	struct wr w;

	if (m->n > MSG_KNOBS_MAX)
		return NULL;
	a = json_array();
	w_begin(&w);
	for (unsigned i = 0; a && i < m->n; i++)
		if (json_array_append_new(a, json_string(m->names[i])))
			w.bad = true;
	w_set(&w, "names", a);
	w_str(&w, "dev", m->dev);
	return w_end(&w);
}

int msg_knob_get_from_json(const json_t *j, struct msg_knob_get *m, char *err)
{
	struct dctx c = { .err = err };
	const json_t *a;
	struct rd r;

	m->n = 0;
	m->dev[0] = '\0';
	if (r_begin(&r, &c, j, "knob_get")) {
		a = r_arr_upto(&r, "names", 0, MSG_KNOBS_MAX);
		for (size_t i = 0; a && !c.rc && i < json_array_size(a); i++) {
			const json_t *v = json_array_get(a, i);
			size_t len = json_is_string(v) ? json_string_length(v) : 0;

			if (!json_is_string(v) || len < 1 || len >= KNOB_NAME_MAX ||
			    strlen(json_string_value(v)) != len) {
				d_fail(&c, "knob_get: member 'names[%zu]': accepted is a string of 1..%d bytes",
				       i, KNOB_NAME_MAX - 1);
				break;
			}
			str_escape(m->names[i], sizeof(m->names[i]),
				   json_string_value(v), len);
			m->n = (unsigned)i + 1;
		}
		r_str(&r, "dev", 0, m->dev, sizeof(m->dev));
		r_end(&r);
	}
	if (c.rc)
		m->n = 0;
	return c.rc;
}

json_t *msg_knob_values_to_json(const struct msg_knob_values *m)
{
	json_t *a;
	struct wr w;

	if (m->n > MSG_KNOBS_MAX)
		return NULL;
	a = json_array();
	w_begin(&w);
	for (unsigned i = 0; a && i < m->n; i++) {
		const struct msg_knob_value *v = &m->v[i];
		struct wr e;

		w_begin(&e);
		w_str(&e, "name", v->name);
		w_bool(&e, "present", v->present);
		w_str(&e, "text", v->text);
		w_str(&e, "reason", v->reason);
		if (json_array_append_new(a, w_end(&e)))
			w.bad = true;
	}
	w_set(&w, "values", a);
	return w_end(&w);
}

int msg_knob_values_from_json(const json_t *j, struct msg_knob_values *m, char *err)
{
	struct dctx c = { .err = err };
	const json_t *a;
	char sub[64];
	struct rd r;

	m->n = 0;
	if (r_begin(&r, &c, j, "knob_values")) {
		a = r_arr_upto(&r, "values", 0, MSG_KNOBS_MAX);
		for (size_t i = 0; a && !c.rc && i < json_array_size(a); i++) {
			struct msg_knob_value *v = &m->v[i];
			struct rd e;

			if (!r_begin(&e, &c, json_array_get(a, i),
				     r_path(&r, "values", (long)i, sub, sizeof(sub))))
				break;
			r_str(&e, "name", 1, v->name, sizeof(v->name));
			r_bool(&e, "present", &v->present);
			r_str(&e, "text", 0, v->text, sizeof(v->text));
			r_str(&e, "reason", 0, v->reason, sizeof(v->reason));
			r_end(&e);
			if (!c.rc && v->present != (v->text[0] != '\0'))
				d_fail(&c, "%s: accepted is present with a text, or not present with text \"\"",
				       sub);
			m->n = (unsigned)i + 1;
		}
		r_end(&r);
	}
	if (c.rc)
		m->n = 0;
	return c.rc;
}

json_t *msg_knob_set_to_json(const struct msg_knob_set *m)
{
	json_t *a;
	struct wr w;

	if (!m->n || m->n > MSG_KNOBS_MAX)
		return NULL;
	a = json_array();
	w_begin(&w);
	for (unsigned i = 0; a && i < m->n; i++) {
		struct wr e;

		w_begin(&e);
		w_str(&e, "name", m->s[i].name);
		w_str(&e, "value", m->s[i].value);
		if (json_array_append_new(a, w_end(&e)))
			w.bad = true;
	}
	w_set(&w, "settings", a);
	w_str(&w, "dev", m->dev);
	return w_end(&w);
}

int msg_knob_set_from_json(const json_t *j, struct msg_knob_set *m, char *err)
{
	struct dctx c = { .err = err };
	const json_t *a;
	char sub[64];
	struct rd r;

	m->n = 0;
	m->dev[0] = '\0';
	if (r_begin(&r, &c, j, "knob_set")) {
		a = r_arr_upto(&r, "settings", 1, MSG_KNOBS_MAX);
		for (size_t i = 0; a && !c.rc && i < json_array_size(a); i++) {
			struct msg_knob_setting *st = &m->s[i];
			struct rd e;

			if (!r_begin(&e, &c, json_array_get(a, i),
				     r_path(&r, "settings", (long)i, sub, sizeof(sub))))
				break;
			r_str(&e, "name", 1, st->name, sizeof(st->name));
			r_str(&e, "value", 1, st->value, sizeof(st->value));
			r_end(&e);
			m->n = (unsigned)i + 1;
		}
		r_str(&r, "dev", 0, m->dev, sizeof(m->dev));
		r_end(&r);
	}
	if (c.rc)
		m->n = 0;
	return c.rc;
}

json_t *msg_knob_result_to_json(const struct msg_knob_result *m)
{
	json_t *a;
	struct wr w;

	if (m->n > MSG_KNOBS_MAX)
		return NULL;
	a = json_array();
	w_begin(&w);
	for (unsigned i = 0; a && i < m->n; i++) {
		const struct msg_knob_outcome *o = &m->r[i];
		struct wr e;

		w_begin(&e);
		w_str(&e, "name", o->name);
		w_bool(&e, "ok", o->ok);
		w_str(&e, "before", o->before);
		w_str(&e, "after", o->after);
		w_str(&e, "error", o->error);
		if (json_array_append_new(a, w_end(&e)))
			w.bad = true;
	}
	w_set(&w, "results", a);
	return w_end(&w);
}

int msg_knob_result_from_json(const json_t *j, struct msg_knob_result *m, char *err)
{
	struct dctx c = { .err = err };
	const json_t *a;
	char sub[64];
	struct rd r;

	m->n = 0;
	if (r_begin(&r, &c, j, "knob_result")) {
		a = r_arr_upto(&r, "results", 0, MSG_KNOBS_MAX);
		for (size_t i = 0; a && !c.rc && i < json_array_size(a); i++) {
			struct msg_knob_outcome *o = &m->r[i];
			struct rd e;

			if (!r_begin(&e, &c, json_array_get(a, i),
				     r_path(&r, "results", (long)i, sub, sizeof(sub))))
				break;
			r_str(&e, "name", 1, o->name, sizeof(o->name));
			r_bool(&e, "ok", &o->ok);
			r_str(&e, "before", 0, o->before, sizeof(o->before));
			r_str(&e, "after", 0, o->after, sizeof(o->after));
			r_str(&e, "error", 0, o->error, sizeof(o->error));
			r_end(&e);
			if (!c.rc && o->ok && (!o->after[0] || o->error[0]))
				d_fail(&c, "%s: accepted for ok true is an 'after' text and 'error' \"\"", sub);
			if (!c.rc && !o->ok && !o->error[0])
				d_fail(&c, "%s: accepted for ok false is a non-empty 'error'", sub);
			m->n = (unsigned)i + 1;
		}
		r_end(&r);
	}
	if (c.rc)
		m->n = 0;
	return c.rc;
}

json_t *msg_auth_to_json(const struct msg_auth *m, bool challenge)
{
	static const char digits[] = "0123456789abcdef";
	char hex[2 * MSG_AUTH_BYTES + 1];
	struct wr w;

	for (unsigned i = 0; i < MSG_AUTH_BYTES; i++) {
		hex[2 * i] = digits[m->bytes[i] >> 4];
		hex[2 * i + 1] = digits[m->bytes[i] & 15];
	}
	hex[2 * MSG_AUTH_BYTES] = '\0';
	w_begin(&w);
	w_str(&w, challenge ? "challenge" : "mac", hex);
	return w_end(&w);
}

/* The value of one hex digit, or -1. */
static int hex_val(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

int msg_auth_from_json(const json_t *j, struct msg_auth *m, bool challenge, char *err)
{
	const char *what = challenge ? "auth_challenge" : "auth_response";
	const char *name = challenge ? "challenge" : "mac";
	struct dctx c = { .err = err };
	char hex[2 * MSG_AUTH_BYTES + 2] = "";
	struct msg_auth tmp;
	struct rd r;

	if (r_begin(&r, &c, j, what)) {
		r_str(&r, name, 0, hex, sizeof(hex));
		r_end(&r);
		if (!c.rc && strlen(hex) != 2 * MSG_AUTH_BYTES)
			d_fail(&c, "%s: member '%s': accepted is %d hex digits", what, name,
			       2 * MSG_AUTH_BYTES);
		for (unsigned i = 0; !c.rc && i < MSG_AUTH_BYTES; i++) {
			int hi = hex_val(hex[2 * i]), lo = hex_val(hex[2 * i + 1]);

			if (hi < 0 || lo < 0) {
				d_fail(&c, "%s: member '%s': accepted is %d hex digits", what, name,
				       2 * MSG_AUTH_BYTES);
				break;
			}
			tmp.bytes[i] = (uint8_t)(hi << 4 | lo);
		}
	}
	if (!c.rc)
		*m = tmp;
	return c.rc;
}
