/* The profile loader's JSON helpers: typed, range-checked reads of keys
 * whose errors name the file and the key path (profile_json.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "profile_json.h"

const char *const repl_names[] = { "lru", "plru", NULL };

int fail(struct pc *c, const char *path, const char *fmt, ...)
{
	if (!c->errlen)
		return -1;
	int n = snprintf(c->err, c->errlen, "%s: %s: ", c->file, *path ? path : "(top level)");
	if (n >= 0 && (size_t)n < c->errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(c->err + n, c->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Key paths are truncated, never overflowed: over-long ones are only
 * ever in an error message. */
void join(char *out, const char *parent, const char *key)
{
	if (snprintf(out, KP, *parent ? "%s.%s" : "%s%s", parent, key) >= KP)
		out[KP - 1] = 0;
}

void index_path(char *out, const char *parent, size_t i)
{
	if (snprintf(out, KP, "%s[%zu]", parent, i) >= KP)
		out[KP - 1] = 0;
}

const char *type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a real number";
	case JSON_TRUE: case JSON_FALSE: return "a boolean";
	case JSON_NULL: return "null";
	}
	return "?";
}

/* Rejects keys outside keys[] (NULL-terminated): a typo is an error, not
 * a silently ignored default. */
int only_keys(struct pc *c, json_t *obj, const char *path, const char *const *keys)
{
	const char *k;
	json_t *v;
	json_object_foreach(obj, k, v) {
		size_t i;
		for (i = 0; keys[i] && strcmp(keys[i], k); i++)
			;
		if (!keys[i]) {
			char kp[KP], list[400] = "";
			size_t n = 0;
			for (i = 0; keys[i] && n < sizeof list; i++)
				n += snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", keys[i]);
			join(kp, path, k);
			return fail(c, kp, "unknown key (expected one of: %s)", list);
		}
	}
	return 0;
}

/* obj[key] into *out (NULL when absent and optional); kp gets its path */
int member(struct pc *c, json_t *obj, const char *path, const char *key,
		  bool req, json_t **out, char *kp)
{
	join(kp, path, key);
	*out = json_object_get(obj, key);
	if (!*out && req)
		return fail(c, kp, "missing required key");
	return 0;
}

int need_object(struct pc *c, json_t *v, const char *kp)
{
	return json_is_object(v) ? 0 : fail(c, kp, "expected an object, got %s", type_name(v));
}

/* An integer, or a string holding one (decimal or 0x hex: 64-bit ids do
 * not fit a JSON integer), in [min, max]. */
int to_u64(struct pc *c, json_t *v, const char *kp, uint64_t min, uint64_t max, uint64_t *out)
{
	uint64_t x;
	if (json_is_integer(v)) {
		json_int_t i = json_integer_value(v);
		if (i < 0)
			goto range;
		x = (uint64_t)i;
	} else if (json_is_string(v)) {
		const char *s = json_string_value(v);
		char *end;
		if (!(*s >= '0' && *s <= '9') || (s[0] == '0' && s[1] && s[1] != 'x' && s[1] != 'X'))
			return fail(c, kp, "expected an integer or a \"0x...\" string, got \"%s\"", s);
		errno = 0;
		x = strtoull(s, &end, 0);
		if (*end || errno)
			return fail(c, kp, "expected an integer or a \"0x...\" string, got \"%s\"", s);
	} else {
		return fail(c, kp, "expected an integer, got %s", type_name(v));
	}
	if (x < min || x > max)
		goto range;
	*out = x;
	return 0;
range:
	if (max == UINT64_MAX)
		return fail(c, kp, "expected an integer >= %llu", (unsigned long long)min);
	return fail(c, kp, "expected an integer in %llu..%llu",
		    (unsigned long long)min, (unsigned long long)max);
}

int get_u64(struct pc *c, json_t *obj, const char *path, const char *key, bool req,
		   uint64_t min, uint64_t max, uint64_t def, uint64_t *out)
{
	char kp[KP];
	json_t *v;
	if (member(c, obj, path, key, req, &v, kp))
		return -1;
	if (!v) {
		*out = def;
		return 0;
	}
	return to_u64(c, v, kp, min, max, out);
}

int get_uint(struct pc *c, json_t *obj, const char *path, const char *key, bool req,
		    unsigned min, unsigned max, unsigned def, unsigned *out)
{
	uint64_t x;
	if (get_u64(c, obj, path, key, req, min, max, def, &x))
		return -1;
	*out = (unsigned)x;
	return 0;
}

int get_bool(struct pc *c, json_t *obj, const char *path, const char *key, bool req,
		    bool def, bool *out)
{
	char kp[KP];
	json_t *v;
	if (member(c, obj, path, key, req, &v, kp))
		return -1;
	if (!v) {
		*out = def;
		return 0;
	}
	if (!json_is_boolean(v))
		return fail(c, kp, "expected true or false, got %s", type_name(v));
	*out = json_is_true(v);
	return 0;
}

int to_str(struct pc *c, json_t *v, const char *kp, char *buf, size_t n)
{
	if (!json_is_string(v))
		return fail(c, kp, "expected a string, got %s", type_name(v));
	const char *s = json_string_value(v);
	size_t len = json_string_length(v);
	if (len == 0 || len >= n || strlen(s) != len)
		return fail(c, kp, "expected a non-empty string of at most %zu characters", n - 1);
	memcpy(buf, s, len + 1);
	return 0;
}

int get_str(struct pc *c, json_t *obj, const char *path, const char *key, bool req,
		   char *buf, size_t n)
{
	char kp[KP];
	json_t *v;
	if (member(c, obj, path, key, req, &v, kp))
		return -1;
	return v ? to_str(c, v, kp, buf, n) : 0;
}

/* one of names[] (NULL-terminated) -> its index */
int get_enum(struct pc *c, json_t *obj, const char *path, const char *key, bool req,
		    const char *const *names, int def, int *out)
{
	char kp[KP], list[200] = "";
	json_t *v;
	if (member(c, obj, path, key, req, &v, kp))
		return -1;
	if (!v) {
		*out = def;
		return 0;
	}
	if (json_is_string(v))
		for (int i = 0; names[i]; i++)
			if (!strcmp(names[i], json_string_value(v))) {
				*out = i;
				return 0;
			}
	size_t n = 0;
	for (int i = 0; names[i] && n < sizeof list; i++)
		n += snprintf(list + n, sizeof list - n, "%s\"%s\"", i ? " or " : "", names[i]);
	return fail(c, kp, "expected %s", list);
}

bool pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

unsigned log2u(uint64_t x)
{
	unsigned n = 0;
	while (x >>= 1)
		n++;
	return n;
}

int get_pow2(struct pc *c, json_t *obj, const char *path, const char *key, bool req,
		    unsigned min, unsigned max, unsigned def, unsigned *out)
{
	char kp[KP];
	if (get_uint(c, obj, path, key, req, min, max, def, out))
		return -1;
	join(kp, path, key);
	if (*out && !pow2(*out))
		return fail(c, kp, "expected a power of two, got %u", *out);
	return 0;
}


