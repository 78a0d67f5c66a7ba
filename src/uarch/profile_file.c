/* Core profiles from files: finding profiles/NAME.json (profile.c reads it,
 * with its base), and
 * writing a profile's events and metrics back as Linux perf vendor JSON. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>
#include "rvpmu/profile.h"
#include "profile_json.h"

#ifndef RVPMU_PROFILE_INSTALL_DIR
#define RVPMU_PROFILE_INSTALL_DIR "/usr/local/share/rvpmu/profiles"
#endif

static int dump(json_t *arr, FILE *f)
{
	int r = json_dumpf(arr, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(arr);
	return r || fputc('\n', f) == EOF ? -1 : 0;
}

int profile_load(const char *arg, struct profile *out, char *err, size_t errlen)
{
	size_t n = strlen(arg);
	if (strchr(arg, '/') || (n > 5 && !strcmp(arg + n - 5, ".json")))
		return profile_load_file(arg, out, err, errlen);
	if (!profile_is_name(arg)) {
		snprintf(err, errlen, "profile \"%s\": expected a name ([A-Za-z0-9_-]+) or a FILE.json", arg);
		return -1;
	}
	char dirs[4][PATH_MAX], exe[PATH_MAX];
	int nd = 0;
	const char *env = getenv("RVPMU_PROFILE_DIR");
	if (env && *env)
		snprintf(dirs[nd++], PATH_MAX, "%s", env);
	ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (k > 0) {
		exe[k] = 0;
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = 0;
			snprintf(dirs[nd++], PATH_MAX, "%.*s/../profiles", PATH_MAX - 16, exe);
			snprintf(dirs[nd++], PATH_MAX, "%.*s/../share/rvpmu/profiles", PATH_MAX - 32, exe);
		}
	}
	snprintf(dirs[nd++], PATH_MAX, "%s", RVPMU_PROFILE_INSTALL_DIR);
	char tried[1024] = "";
	size_t t = 0;
	for (int i = 0; i < nd; i++) {
		char path[PATH_MAX + 40];
		if (snprintf(path, sizeof path, "%s/%s.json", dirs[i], arg) >= (int)sizeof path)
			continue;
		if (access(path, F_OK)) {
			if (t < sizeof tried)
				t += snprintf(tried + t, sizeof tried - t, "%s%s", t ? ", " : "", dirs[i]);
			continue;
		}
		if (profile_load_file(path, out, err, errlen))
			return -1;
		if (strcmp(out->name, arg)) {
			snprintf(err, errlen, "%s: name: expected \"%s\" (the file's name), got \"%s\"",
				 path, arg, out->name);
			return -1;
		}
		return 0;
	}
	snprintf(err, errlen, "profile \"%s\": no %s.json in %s (set RVPMU_PROFILE_DIR or give a FILE.json)",
		 arg, arg, tried);
	return -1;
}

/* The events as a Linux perf vendor-JSON file (tools/perf/pmu-events/arch/
 * riscv/VENDOR/CORE/NAME.json): an array of EventName/EventCode/
 * BriefDescription objects. */
int profile_write_perf_json(const struct profile *p, FILE *f)
{
	json_t *arr = json_array();
	if (!arr)
		return -1;
	for (unsigned i = 0; i < p->n_events; i++) {
		char code[24];
		snprintf(code, sizeof code, "0x%llx", (unsigned long long)p->events[i].code);
		json_t *o = json_pack("{s:s, s:s, s:s}", "EventName", p->events[i].name,
				      "EventCode", code, "BriefDescription", p->events[i].desc);
		if (!o || json_array_append_new(arr, o)) {
			json_decref(arr);
			return -1;
		}
	}
	return dump(arr, f);
}

/* The metrics as perf's metrics file (NAME-metrics.json beside it): only
 * the keys a metric has. */
int profile_write_perf_metrics(const struct profile *p, FILE *f)
{
	json_t *arr = json_array();
	if (!arr)
		return -1;
	for (unsigned i = 0; i < p->n_metrics; i++) {
		const struct profile_metric *m = &p->metrics[i];
		json_t *o = json_pack("{s:s, s:s}", "MetricName", m->name, "MetricExpr", m->expr);
		if (o && *m->group)
			json_object_set_new(o, "MetricGroup", json_string(m->group));
		if (o && *m->unit)
			json_object_set_new(o, "ScaleUnit", json_string(m->unit));
		if (o && *m->desc)
			json_object_set_new(o, "BriefDescription", json_string(m->desc));
		if (!o || json_array_append_new(arr, o)) {
			json_decref(arr);
			return -1;
		}
	}
	return dump(arr, f);
}
