/* A profiled run of a user-mode program: the hart, the loaded program,
 * the modelled core and the firmware's PMU state, and the S-mode driver's
 * view of the counters (as Linux's riscv_pmu_sbi probes them). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "rvpmu/core.h"
#include "rvpmu/linux.h"
#include "rvpmu/perf.h"
#include "rvpmu/profile.h"

const char *rvpmu_cmd = "rvpmu";

long session_sbi_on(struct session *ss, unsigned cpu, unsigned fid, uint64_t a0, uint64_t a1,
		    uint64_t a2, uint64_t a3, uint64_t a4, uint64_t *value)
{
	const uint64_t a[6] = {a0, a1, a2, a3, a4, 0};
	uint64_t v = 0;
	long err = sbi_pmu_call(ss->cpu_sbi[cpu], ss->cpu[cpu], fid, a, &v);
	if (value)
		*value = v;
	return err;
}

long session_sbi(struct session *ss, unsigned fid, uint64_t a0, uint64_t a1, uint64_t a2,
		 uint64_t a3, uint64_t a4, uint64_t *value)
{
	return session_sbi_on(ss, 0, fid, a0, a1, a2, a3, a4, value);
}

/* Harts 1.. of the run: over hart 0's memory, the same core, each with
 * its own firmware state. 0 or -1 with a message in err. */
static int add_cpus(struct session *ss, unsigned n, int no_jit, char *err, size_t errlen)
{
	for (unsigned i = 1; i < n; i++) {
		struct hart *h = calloc(1, sizeof(*h));
		struct sbi_state *s = calloc(1, sizeof(*s));
		if (!h || !s) {
			free(h);
			free(s);
			snprintf(err, errlen, "out of host memory for hart %u", i);
			return -1;
		}
		hart_init_sharing(h, &ss->h);
		ss->cpu[i] = h;
		ss->cpu_sbi[i] = s;
		ss->ncpus = i + 1;
		h->no_jit = (uint8_t)no_jit;
		if (core_setup(h, ss->prof, ss->models, err, errlen))
			return -1;
		s->prof = ss->prof;
		sbi_pmu_init(s, h);
		linux_add_cpu(h);
	}
	return 0;
}

/* perf starts its workload with execvp: a name without '/' is looked for
 * in each directory of $PATH (an empty entry is the current directory),
 * the first executable regular file winning. Unlike execvp, a name found
 * nowhere on $PATH is then taken from the current directory, as rvpmu
 * always took it. Returns path itself or buf. */
static const char *find_program(const char *name, char *buf, size_t len)
{
	const char *path = getenv("PATH");
	struct stat st;
	if (!*name || strchr(name, '/') || !path)
		return name;
	for (const char *d = path;; d++) {
		size_t n = strcspn(d, ":");
		if ((size_t)snprintf(buf, len, "%.*s%s%s", (int)n, d, n ? "/" : "", name) < len &&
		    !stat(buf, &st) && S_ISREG(st.st_mode) && !access(buf, X_OK))
			return buf;
		d += n;
		if (!*d)
			return name;
	}
}

int session_open(struct session *ss, const struct profile *p, int models,
		 const struct linux_opts *lo, int argc, char **argv, char **envp)
{
	char err[512], path[PATH_MAX];
	memset(ss, 0, sizeof(*ss));
	ss->prof = p;
	ss->models = models;
	ss->ncpus = 1;
	ss->cpu[0] = &ss->h;
	ss->cpu_sbi[0] = &ss->sbi;
	if (hart_init(&ss->h)) {
		fprintf(stderr, "rvpmu %s: cannot reserve guest memory\n", rvpmu_cmd);
		return -1;
	}
	const char *prog = find_program(argv[0], path, sizeof(path));
	if (linux_load(&ss->h, lo, prog, argc, argv, envp, err, sizeof(err))) {
		fprintf(stderr, "rvpmu %s: %s\n", rvpmu_cmd, err);
		hart_free(&ss->h);
		return -1;
	}
	if (core_setup(&ss->h, p, models, err, sizeof(err))) {
		fprintf(stderr, "rvpmu %s: %s: %s\n", rvpmu_cmd, p->name, err);
		linux_free();
		hart_free(&ss->h);
		return -1;
	}
	ss->sbi.prof = p;
	sbi_pmu_init(&ss->sbi, &ss->h);
	if (add_cpus(ss, lo->cpus ? lo->cpus : 1, lo->no_jit, err, sizeof(err)) ||
	    core_share(ss->cpu, ss->ncpus, &ss->coh, p, err, sizeof(err))) {
		fprintf(stderr, "rvpmu %s: %s: %s\n", rvpmu_cmd, p->name, err);
		session_close(ss);
		return -1;
	}
	/* probe as Linux does: the hardware counters get_info accepts */
	uint64_t n = 0, info;
	session_sbi(ss, SBI_PMU_NUM_COUNTERS, 0, 0, 0, 0, 0, &n);
	for (unsigned i = 0; i < n && i < 64; i++)
		if (!session_sbi(ss, SBI_PMU_GET_INFO, i, 0, 0, 0, 0, &info) && !(info >> 63))
			ss->cmask |= 1ull << i;
	linux_perf_attach(ss);  /* the program's perf_event_open drives this PMU too */
	return 0;
}

int session_countable(const struct session *ss, const struct evspec *e)
{
	if (ss->models)
		return 1;
	pmu_evset set;
	if (e->event_idx >> 16 >= 2) {
		set = profile_decode_set(ss->prof, e->event_data);
	} else {
		const struct profile_sbi_event *m = profile_sbi_lookup(ss->prof, e->event_idx);
		if (!m)
			return 1;  /* the firmware will say so */
		set = m->selector ? profile_decode_set(ss->prof, m->selector) : 0;
	}
	/* without the models, events only they raise are not countable */
	return !((set & ~PROF_EV_RETIRE_SET) >> PMU_EV_COUNT);
}

long session_config(struct session *ss, const struct evspec *e, uint64_t extra_flags,
		    unsigned *idx, unsigned *csr)
{
	return session_config_on(ss, 0, e, extra_flags, idx, csr);
}

long session_config_on(struct session *ss, unsigned cpu, const struct evspec *e,
		       uint64_t extra_flags, unsigned *idx, unsigned *csr)
{
	uint64_t flags = SBI_CFG_CLEAR_VALUE | extra_flags |
			 (e->exclude_kernel ? SBI_CFG_SET_SINH : 0) |
			 (e->exclude_user ? SBI_CFG_SET_UINH : 0) |
			 /* :G and :H as Linux's SBI PMU driver passes them */
			 (e->exclude_host ? SBI_CFG_SET_UINH | SBI_CFG_SET_SINH : 0) |
			 (e->exclude_guest ? SBI_CFG_SET_VUINH | SBI_CFG_SET_VSINH : 0);
	uint64_t v, info;
	if (e->software || !session_countable(ss, e))   /* the kernel counts those */
		return SBI_ERR_NOT_SUPPORTED;
	long r = session_sbi_on(ss, cpu, SBI_PMU_CFG_MATCH, 0, ss->cmask, flags, e->event_idx,
				e->event_data, &v);
	if (r != SBI_SUCCESS)
		return r;
	*idx = (unsigned)v;
	session_sbi_on(ss, cpu, SBI_PMU_GET_INFO, v, 0, 0, 0, 0, &info);
	*csr = (unsigned)(info & 0xfff);
	return SBI_SUCCESS;
}

long session_config_all(struct session *ss, const struct evspec *e, uint64_t extra_flags,
			unsigned *idx, unsigned *csr)
{
	long r = SBI_SUCCESS;
	unsigned i, c;
	for (unsigned k = 0; k < ss->ncpus && r == SBI_SUCCESS; k++)
		r = session_config_on(ss, k, e, extra_flags, k ? &i : idx, k ? &c : csr);
	return r;
}

void session_close(struct session *ss)
{
	linux_free();
	for (unsigned i = ss->ncpus; i-- > 1;) {
		core_free(ss->cpu[i]);
		hart_free(ss->cpu[i]);
		free(ss->cpu[i]);
		free(ss->cpu_sbi[i]);
	}
	core_free(&ss->h);
	hart_free(&ss->h);
	uarch_domain_free(&ss->coh);
}
