/* A profiled run of a user-mode program: the hart, the loaded program,
 * the modelled core and the firmware's PMU state, and the S-mode driver's
 * view of the counters (as Linux's riscv_pmu_sbi probes them). */
#include <stdio.h>
#include <string.h>
#include "rvpmu/core.h"
#include "rvpmu/linux.h"
#include "rvpmu/perf.h"
#include "rvpmu/profile.h"

long session_sbi(struct session *ss, unsigned fid, uint64_t a0, uint64_t a1, uint64_t a2,
		 uint64_t a3, uint64_t a4, uint64_t *value)
{
	const uint64_t a[6] = {a0, a1, a2, a3, a4, 0};
	uint64_t v = 0;
	long err = sbi_pmu_call(&ss->sbi, &ss->h, fid, a, &v);
	if (value)
		*value = v;
	return err;
}

int session_open(struct session *ss, const struct profile *p, int models,
		 const struct linux_opts *lo, int argc, char **argv, char **envp)
{
	char err[512];
	memset(ss, 0, sizeof(*ss));
	ss->prof = p;
	ss->models = models;
	if (hart_init(&ss->h)) {
		fprintf(stderr, "rvpmu: cannot reserve guest memory\n");
		return -1;
	}
	if (linux_load(&ss->h, lo, argv[0], argc, argv, envp, err, sizeof(err))) {
		fprintf(stderr, "rvpmu: %s\n", err);
		hart_free(&ss->h);
		return -1;
	}
	if (core_setup(&ss->h, p, models, err, sizeof(err))) {
		fprintf(stderr, "rvpmu: %s: %s\n", p->name, err);
		linux_free();
		hart_free(&ss->h);
		return -1;
	}
	ss->sbi.prof = p;
	sbi_pmu_init(&ss->sbi, &ss->h);
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
	uint64_t flags = SBI_CFG_CLEAR_VALUE | extra_flags |
			 (e->exclude_kernel ? SBI_CFG_SET_SINH : 0) |
			 (e->exclude_user ? SBI_CFG_SET_UINH : 0);
	uint64_t v, info;
	if (!session_countable(ss, e))
		return SBI_ERR_NOT_SUPPORTED;
	long r = session_sbi(ss, SBI_PMU_CFG_MATCH, 0, ss->cmask, flags, e->event_idx, e->event_data, &v);
	if (r != SBI_SUCCESS)
		return r;
	*idx = (unsigned)v;
	session_sbi(ss, SBI_PMU_GET_INFO, v, 0, 0, 0, 0, &info);
	*csr = (unsigned)(info & 0xfff);
	return SBI_SUCCESS;
}

void session_close(struct session *ss)
{
	linux_free();
	core_free(&ss->h);
	hart_free(&ss->h);
}
