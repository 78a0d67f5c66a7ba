/* rvpmu record: sample a user-mode program the way Linux's riscv_pmu_sbi
 * driver does on Sscofpmf hardware: each counter starts at -period
 * (counter_start with SET_INIT_VALUE); its overflow raises LCOFI after the
 * core's skid; the handler reads scountovf, records the trapped pc (with
 * the skid in it) and re-arms the counter. Samples go to perf.data. */
#include <stdio.h>
#include <string.h>
#include "rvpmu/ctr.h"
#include "rvpmu/linux.h"
#include "rvpmu/perf.h"
#include "rvpmu/perfdata.h"
#include "rvpmu/profile.h"

#define CSR_SCOUNTOVF 0xda0
#define GUEST_PID 1000       /* the user-mode kernel's fixed pid and tid */
#define MAX_CALLCHAIN 127
#define MAX_BRANCHES 256

struct sampled {
	unsigned idx, csr;
};

struct recorder {
	struct session ss;
	const struct record_opts *o;
	struct sampled c[EVSPEC_MAX];
	struct perfdata_writer *w;
	uint64_t period;
	int failed;
};

/* Frame-pointer unwinding of the guest stack as Linux's riscv
 * perf_callchain_user does: the pc, then ra for the innermost frame (a
 * leaf need not have stored it), then the {fp, ra} record below each
 * frame pointer. One step further than Linux: a leaf frame that saved
 * only fp (at fp-8) is recognised by that slot pointing up the stack. */
static uint32_t callchain(struct hart *h, uint64_t *chain)
{
	uint32_t n = 0;
	uint64_t fp = h->x[8];
	chain[n++] = h->pc;
	for (int first = 1; n < MAX_CALLCHAIN; first = 0) {
		uint64_t rec[2];  /* fp - 16: caller's fp, return address */
		if (fp < 16 || (fp & 7) || gmem_read(&h->mem, fp - 16, rec, 16))
			break;
		uint64_t ra = first ? h->x[1] : rec[1], next = rec[0];
		if (first && rec[1] > fp && rec[1] - fp < (1u << 20) && !(rec[1] & 7))
			next = rec[1];  /* leaf: {fp} only */
		if (!ra)
			break;
		chain[n++] = ra;
		fp = next;
	}
	return n;
}

/* The frozen CTR buffer as perf branch records (newest first). */
static uint32_t branch_stack(struct hart *h, struct perfdata_branch *out)
{
	static struct ctr_record rec[MAX_BRANCHES];
	unsigned n = ctr_read_records(h->ctr, rec, MAX_BRANCHES);
	for (unsigned i = 0; i < n; i++) {
		static const uint8_t type[16] = {
			[CTR_TYPE_EXC] = PERFDATA_BR_SYSCALL, [CTR_TYPE_INTR] = PERFDATA_BR_IRQ,
			[CTR_TYPE_TRET] = PERFDATA_BR_ERET, [CTR_TYPE_NTBR] = PERFDATA_BR_COND,
			[CTR_TYPE_TKBR] = PERFDATA_BR_COND, [CTR_TYPE_INDCALL] = PERFDATA_BR_IND_CALL,
			[CTR_TYPE_DIRCALL] = PERFDATA_BR_CALL, [CTR_TYPE_INDJMP] = PERFDATA_BR_IND,
			[CTR_TYPE_DIRJMP] = PERFDATA_BR_UNCOND, [CTR_TYPE_CORSWAP] = PERFDATA_BR_IND,
			[CTR_TYPE_RET] = PERFDATA_BR_RET, [CTR_TYPE_INDLJMP] = PERFDATA_BR_IND_CALL,
			[CTR_TYPE_DIRLJMP] = PERFDATA_BR_CALL,
		};
		out[i] = (struct perfdata_branch){
			.from = rec[i].from, .to = rec[i].to,
			.cycles = rec[i].ccv ? (uint16_t)(rec[i].cycles > 0xffff ? 0xffff : rec[i].cycles) : 0,
			.mispred = rec[i].misp, .predicted = !rec[i].misp,
			.type = type[rec[i].type & 15], .priv = 1,
		};
	}
	return n;
}

static uint64_t modelled_ns(const struct recorder *r)
{
	const struct hart *h = &r->ss.h;
	return (uint64_t)((unsigned __int128)hart_time(h) * 1000000000u / h->time_hz);
}

/* The overflow handler: runs at every stop of the hart. */
static uint64_t tick(void *ctx, struct hart *h)
{
	struct recorder *r = ctx;
	hart_sync_pmu(h);
	hart_deliver_lcofi(h);
	if (h->csr.mip & (1ull << IRQ_LCOFI)) {
		uint64_t ovf = 0;
		hart_csr(h, PRIV_S, CSR_SCOUNTOVF, HART_CSR_READ, 0, &ovf);
		uint64_t chain[MAX_CALLCHAIN];
		uint32_t nc = r->o->callchain ? callchain(h, chain) : 0;
		static struct perfdata_branch br[MAX_BRANCHES];
		uint32_t nb = 0;
		if (r->o->branch_stack) {
			/* the LCOFI freezes CTR (sctrctl.LCOFIFRZ): the buffer
			 * holds the path to the sampled pc */
			ctr_freeze_lcofi(h->ctr);
			nb = branch_stack(h, br);
		}
		for (int i = 0; i < r->o->nev; i++) {
			if (!((ovf >> r->c[i].idx) & 1))
				continue;
			struct perfdata_sample s = {
				.ip = h->pc, .pid = GUEST_PID, .tid = GUEST_PID,
				.time = modelled_ns(r), .period = r->period,
				.callchain = nc ? chain : NULL, .nr_callchain = nc,
				.branches = nb ? br : NULL, .nr_branches = nb,
			};
			if (perfdata_sample(r->w, (unsigned)i, &s))
				r->failed = 1;
			/* re-arm: a new start value also clears OF */
			session_sbi(&r->ss, SBI_PMU_STOP, r->c[i].idx, 1, 0, 0, 0, NULL);
			session_sbi(&r->ss, SBI_PMU_START, r->c[i].idx, 1, SBI_START_SET_INIT_VALUE,
				    -r->period, 0, NULL);
		}
		h->csr.mip &= ~(1ull << IRQ_LCOFI);  /* the handler clears sip.LCOFIP */
		if (r->o->branch_stack)  /* and lets CTR record again */
			hart_csr(h, PRIV_S, CTR_CSR_SCTRSTATUS, HART_CSR_CLEAR, CTRSTATUS_FROZEN, NULL);
	}
	/* run exactly to the next possible overflow, or to the end of a skid */
	uint64_t budget = pmu_horizon(&h->pmu, h->priv);
	if (h->lcofi_at != ~0ull && h->lcofi_at - h->instret < budget)
		budget = h->lcofi_at - h->instret;
	return budget == UINT64_MAX ? 0 : budget ? budget : 1;
}

/* perf's own encoding of the events, so that perf names them. */
static void perf_attr(const struct evspec *e, struct perfdata_event *pe)
{
	static const uint32_t hw[] = { [1] = 0, [2] = 1, [3] = 2, [4] = 3, [5] = 4, [6] = 5,
				       [7] = 6, [8] = 7, [9] = 8, [10] = 9 };
	memset(pe, 0, sizeof(*pe));
	pe->name = e->name;
	if (e->event_idx >= 1 && e->event_idx <= 10) {
		pe->type = PERFDATA_TYPE_HARDWARE;
		pe->config = hw[e->event_idx];
	} else {
		pe->type = PERFDATA_TYPE_RAW;
		pe->config = e->event_idx >> 16 >= 2 ? e->event_data : e->event_idx;
	}
	pe->exclude_user = e->exclude_user;
	pe->exclude_kernel = e->exclude_kernel;
}

int record_run(const struct record_opts *o, const struct linux_opts *lo_in, int argc,
	       char **argv, char **envp)
{
	static struct recorder r;
	char err[512];
	memset(&r, 0, sizeof(r));
	r.o = o;
	if (!o->prof->pmu.sscofpmf) {
		fprintf(stderr, "rvpmu: record: the %s core has no Sscofpmf, so its counters cannot "
				"interrupt on overflow (rvpmu stat still counts)\n", o->prof->name);
		return 1;
	}
	/* -F: a fixed period from the frequency in modelled time */
	r.period = o->period ? o->period : o->prof->clock_hz / o->freq;
	if (!r.period)
		r.period = 1;
	struct linux_opts lo = *lo_in;
	lo.tick = tick;
	lo.tick_ctx = &r;
	if (session_open(&r.ss, o->prof, o->models, &lo, argc, argv, envp))
		return 1;
	struct perfdata_event pe[EVSPEC_MAX];
	for (int i = 0; i < o->nev; i++) {
		if (session_config(&r.ss, &o->ev[i], 0, &r.c[i].idx, &r.c[i].csr) != SBI_SUCCESS ||
		    r.c[i].idx < 3) {
			fprintf(stderr, "rvpmu: record: event '%s' cannot be sampled on the %s core\n",
				o->ev[i].name, o->prof->name);
			session_close(&r.ss);
			return 1;
		}
		perf_attr(&o->ev[i], &pe[i]);
		pe[i].sample_period = r.period;
		pe[i].callchain = o->callchain;
		pe[i].branch_stack = o->branch_stack;
	}
	if (o->branch_stack) {
		/* record user-mode transfers, freeze on the sampling interrupt */
		if (!r.ss.h.ctr || hart_csr(&r.ss.h, PRIV_S, CTR_CSR_SCTRCTL, HART_CSR_WRITE,
					    CTRCTL_U | CTRCTL_LCOFIFRZ, NULL)) {
			fprintf(stderr, "rvpmu: record: -b needs control transfer records (Smctr), "
					"which the %s core does not have\n", o->prof->name);
			session_close(&r.ss);
			return 1;
		}
	}
	r.w = perfdata_create(o->output, pe, (unsigned)o->nev, argc, argv, err, sizeof(err));
	if (!r.w) {
		fprintf(stderr, "rvpmu: record: %s\n", err);
		session_close(&r.ss);
		return 1;
	}
	const char *exe = linux_exe_path(), *base = strrchr(exe, '/');
	perfdata_comm(r.w, GUEST_PID, GUEST_PID, base ? base + 1 : exe);
	perfdata_mmap_elf(r.w, GUEST_PID, GUEST_PID, exe, linux_load_bias());
	for (int i = 0; i < o->nev; i++)
		session_sbi(&r.ss, SBI_PMU_START, r.c[i].idx, 1, SBI_START_SET_INIT_VALUE, -r.period, 0, NULL);

	int status = linux_run(&r.ss.h, &lo);

	hart_sync_pmu(&r.ss.h);
	uint64_t n = perfdata_nsamples(r.w);
	perfdata_exit(r.w, GUEST_PID, GUEST_PID, modelled_ns(&r));
	if (perfdata_close(r.w, err, sizeof(err)) || r.failed) {
		fprintf(stderr, "rvpmu: record: %s: %s\n", o->output, r.failed ? "write failed" : err);
		status = status ? status : 1;
	} else {
		fprintf(stderr, "[ rvpmu record: captured and wrote %llu samples to %s ]\n",
			(unsigned long long)n, o->output);
	}
	session_close(&r.ss);
	return status;
}
