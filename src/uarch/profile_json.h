/* The profile loader's JSON helpers (profile_json.c), shared by the
 * sections it parses (profile.c: the PMU and events; profile_model.c: the
 * models' geometry and timing). Each returns 0, or -1 with one line in
 * the context's err naming the file, the key path and what was expected.
 * Private to src/uarch. */
#ifndef RVPMU_PROFILE_JSON_H
#define RVPMU_PROFILE_JSON_H
#include <stdbool.h>
#include <stdint.h>
#include <jansson.h>
#include "rvpmu/profile.h"

#define KP 160                  /* longest key path */

/* a profile's name: 1 to 31 of [A-Za-z0-9_-] (profile.c) */
bool profile_is_name(const char *s);

struct pc {                     /* parse context */
	const char *file;
	char *err;
	size_t errlen;
	struct profile *p;
};

__attribute__((format(printf, 3, 4)))
int fail(struct pc *c, const char *path, const char *fmt, ...);
/* path.key (or key at the top) into out[KP]; parent[i] */
void join(char *out, const char *parent, const char *key);
void index_path(char *out, const char *parent, size_t i);
const char *type_name(const json_t *v);    /* "an object", ... */
/* obj has no keys but keys[] (NULL-terminated) */
int only_keys(struct pc *c, json_t *obj, const char *path, const char *const *keys);
/* obj[key] into *out (NULL when absent and optional); kp gets its path */
int member(struct pc *c, json_t *obj, const char *path, const char *key,
	   bool req, json_t **out, char *kp);
int need_object(struct pc *c, json_t *v, const char *kp);
/* an integer, or a string holding one (decimal or 0x hex), in [min, max];
 * the get_ forms read obj[key], def when absent and optional */
int to_u64(struct pc *c, json_t *v, const char *kp, uint64_t min, uint64_t max, uint64_t *out);
int get_u64(struct pc *c, json_t *obj, const char *path, const char *key, bool req,
	    uint64_t min, uint64_t max, uint64_t def, uint64_t *out);
int get_uint(struct pc *c, json_t *obj, const char *path, const char *key, bool req,
	     unsigned min, unsigned max, unsigned def, unsigned *out);
int get_pow2(struct pc *c, json_t *obj, const char *path, const char *key, bool req,
	     unsigned min, unsigned max, unsigned def, unsigned *out);
int get_bool(struct pc *c, json_t *obj, const char *path, const char *key, bool req,
	     bool def, bool *out);
int to_str(struct pc *c, json_t *v, const char *kp, char *buf, size_t n);
int get_str(struct pc *c, json_t *obj, const char *path, const char *key, bool req,
	    char *buf, size_t n);
/* one of names[] (NULL-terminated) -> its index */
int get_enum(struct pc *c, json_t *obj, const char *path, const char *key, bool req,
	     const char *const *names, int def, int *out);
bool pow2(uint64_t x);
unsigned log2u(uint64_t x);
extern const char *const repl_names[];   /* "lru", "plru" */

/* profile_model.c: caches, memory, TLBs, branch predictor, pipeline */
int profile_parse_model(struct pc *c, json_t *top);

#endif
