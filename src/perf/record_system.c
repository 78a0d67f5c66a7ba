/* rvpmu record on a system-mode run: perf record -a over the machine's
 * harts, from outside. Each hart gets a PMU of the host's own (struct
 * hart's host_pmu, the same model as the guest's), handed every event
 * the guest's PMU is; each recorded event is one of its counters, started
 * at minus the period with Sscofpmf's OF, and the hart stops where one
 * overflows as it does for the guest's counters. The sample is the pc
 * the hart goes on at (no skid), its mode, the hart as the cpu, the
 * machine's time. The guest cannot see or change any of it. */
#include <stdio.h>
#include <string.h>
#include "rvpmu/machine.h"
#include "rvpmu/perf.h"
#include "rvpmu/perfdata.h"
#include "rvpmu/profile.h"

struct record_system {
	const struct record_opts *o;
	struct perfdata_writer *w;
	struct pmu pmu[MACHINE_MAX_HARTS];
	pmu_evset set[EVSPEC_MAX];
	uint64_t period;
	int failed;             /* a sample could not be written */
};

/* The host PMU's selectors: event k of the recording is selector k + 1. */
static pmu_evset decode(void *ctx, uint64_t sel)
{
	const struct record_system *r = ctx;
	return sel && sel <= (uint64_t)r->o->nev ? r->set[sel - 1] : 0;
}

static void csr_write(struct pmu *p, unsigned csr, enum pmu_csr_op op, uint64_t v)
{
	uint64_t old;
	pmu_csr_access(p, PMU_PRIV_M, csr, op, v, 1, &old, NULL);
}

/* Counter k counts from minus the period, OF clear. A counter write takes
 * the place of the writing instruction's increment (Zicsr), and there is
 * none here: an empty retire ends it. */
static void arm(struct record_system *r, struct pmu *p, unsigned k)
{
	static const uint64_t none[PMU_EV_MAX];
	csr_write(p, PMU_CSR_MHPMCOUNTER3 + k, PMU_CSR_WRITE, 0 - r->period);
	csr_write(p, PMU_CSR_MHPMEVENT3 + k, PMU_CSR_CLEAR, PMU_OF);
	pmu_retire(p, PMU_PRIV_M, none);
}

static void overflow(void *ctx, struct hart *h, uint32_t of)
{
	struct record_system *r = ctx;
	struct pmu *p = h->host_pmu;
	for (unsigned k = 0; k < (unsigned)r->o->nev; k++) {
		if (!(of >> (3 + k) & 1))
			continue;
		struct perfdata_sample s = {
			.ip = h->pc, .kernel = h->priv != PRIV_U, .cpu = (uint32_t)h->csr.mhartid,
			.time = hart_time(h) * 1000000000ull / h->time_hz, .period = r->period,
		};
		if (perfdata_sample(r->w, k, &s))
			r->failed = 1;
		arm(r, p, k);
	}
}

static struct record_system rs;

struct record_system *record_system_open(const struct record_opts *o, const char *image,
					 int argc, char **argv)
{
	struct record_system *r = &rs;
	char err[512];
	memset(r, 0, sizeof(*r));
	r->o = o;
	if (o->nev > 16) {
		fprintf(stderr, "rvpmu record: at most 16 events on a system-mode run\n");
		return NULL;
	}
	struct perfdata_event pe[EVSPEC_MAX];
	for (int k = 0; k < o->nev; k++) {
		r->set[k] = stat_system_set(o->prof, o->models, &o->ev[k]);
		if (!r->set[k]) {
			fprintf(stderr, "rvpmu record: %s cannot be counted on the %s core%s\n",
				o->ev[k].name, o->prof->name, o->models ? "" : " without its models");
			return NULL;
		}
		record_perf_attr(&o->ev[k], &pe[k]);
		pe[k].sample_period = o->period;
	}
	/* -F: a fixed period from the frequency in modelled time, as for a
	 * program */
	r->period = o->period ? o->period : o->prof->clock_hz / o->freq;
	if (!r->period)
		r->period = 1;
	for (int k = 0; k < o->nev; k++)
		pe[k].sample_period = r->period;
	r->w = perfdata_create(o->output, pe, (unsigned)o->nev, argc, argv, err, sizeof(err));
	if (!r->w) {
		fprintf(stderr, "rvpmu record: %s\n", err);
		return NULL;
	}
	/* one task, the machine: its image's symbols when it is an ELF */
	const char *base = strrchr(image, '/');
	perfdata_comm(r->w, 0, 0, base ? base + 1 : image, 1);
	perfdata_mmap_elf(r->w, 0, 0, image, 0);
	return r;
}

void record_system_attach(struct record_system *r, struct hart *h, unsigned i)
{
	struct pmu *p = &r->pmu[i];
	struct pmu_config cfg;
	pmu_config_default(&cfg);
	cfg.has_h = h->pmu.cfg.has_h;   /* VSINH/VUINH for :G/:H */
	cfg.decode = decode;
	cfg.decode_ctx = r;
	memcpy(cfg.max_per_step, h->pmu.cfg.max_per_step, sizeof(cfg.max_per_step));
	pmu_init(p, &cfg);
	for (unsigned k = 0; k < (unsigned)r->o->nev; k++) {
		const struct evspec *e = &r->o->ev[k];
		/* the modes the event leaves out, as stat counts them */
		unsigned md = evspec_modes(e);
		uint64_t inh = (md >> PRIV_U & 1 ? 0 : PMU_UINH) | (md >> PRIV_S & 1 ? 0 : PMU_SINH) |
			       (md >> PRIV_M & 1 ? 0 : PMU_MINH) | (md >> PRIV_VU & 1 ? 0 : PMU_VUINH) |
			       (md >> PRIV_VS & 1 ? 0 : PMU_VSINH);
		csr_write(p, PMU_CSR_MHPMEVENT3 + k, PMU_CSR_WRITE, (k + 1) | inh);
		arm(r, p, k);
		h->observed |= r->set[k];
	}
	h->host_pmu = p;
	h->host_overflow = overflow;
	h->host_ctx = r;
}

int record_system_close(struct record_system *r)
{
	char err[512];
	uint64_t n = perfdata_nsamples(r->w);
	double mb = perfdata_size(r->w) / 1024.0 / 1024.0;
	fprintf(stderr, "[ rvpmu record: Woken up %llu times to write data ]\n",
		(unsigned long long)perfdata_rounds(r->w) + 1);
	if (perfdata_close(r->w, err, sizeof(err)) || r->failed) {
		fprintf(stderr, "rvpmu record: %s\n", r->failed ? "a sample could not be written" : err);
		return -1;
	}
	fprintf(stderr, "[ rvpmu record: Captured and wrote %.3f MB %s (%llu samples) ]\n", mb,
		r->o->output, (unsigned long long)n);
	return 0;
}
