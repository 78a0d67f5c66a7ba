/* rvpmu record: sample a user-mode program the way Linux's riscv_pmu_sbi
 * driver does on Sscofpmf hardware: each counter starts at -period
 * (counter_start with SET_INIT_VALUE); its overflow raises LCOFI after the
 * core's skid; the handler reads scountovf, records the trapped pc (with
 * the skid in it) and re-arms the counter. Samples go to perf.data. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "rvpmu/ctr.h"
#include "rvpmu/linux.h"
#include "rvpmu/perf.h"
#include "rvpmu/perfdata.h"
#include "rvpmu/profile.h"
#include "rvpmu/progress.h"

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
	int use_ctr;            /* -b or --call-graph ctr: CTR freezes per sample */
	FILE *trace;            /* --trace */
	uint64_t tprev[PMU_EV_MAX];  /* h->evc after the last traced instruction */
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

/* perf's branch filter (-j, PERF_SAMPLE_BRANCH_*) as CTR type inhibits:
 * without ANY, every transfer type none of the chosen filters names is
 * inhibited (not-taken branches are never recorded: NTBREN stays 0). */
static uint64_t ctr_filter_bits(uint64_t bst)
{
#define T(t) (1u << CTR_TYPE_##t)
	if (!bst || (bst & PERF_SAMPLE_BRANCH_ANY))
		return 0;
	uint32_t keep = 0;
	if (bst & PERF_SAMPLE_BRANCH_ANY_CALL)
		keep |= T(DIRCALL) | T(INDCALL);
	if (bst & PERF_SAMPLE_BRANCH_ANY_RETURN)
		keep |= T(RET) | T(TRET);
	if (bst & PERF_SAMPLE_BRANCH_IND_CALL)
		keep |= T(INDCALL);
	if (bst & PERF_SAMPLE_BRANCH_CALL)
		keep |= T(DIRCALL);
	if (bst & PERF_SAMPLE_BRANCH_COND)
		keep |= T(TKBR);
	if (bst & PERF_SAMPLE_BRANCH_IND_JUMP)
		keep |= T(INDJMP);
	static const uint8_t types[] = {
		CTR_TYPE_EXC, CTR_TYPE_INTR, CTR_TYPE_TRET, CTR_TYPE_TKBR, CTR_TYPE_INDCALL,
		CTR_TYPE_DIRCALL, CTR_TYPE_INDJMP, CTR_TYPE_DIRJMP, CTR_TYPE_CORSWAP,
		CTR_TYPE_RET, CTR_TYPE_INDLJMP, CTR_TYPE_DIRLJMP,
	};
	uint64_t inh = 0;
	for (size_t i = 0; i < sizeof(types); i++)
		if (!(keep & (1u << types[i])))
			inh |= UINT64_C(1) << (32 + types[i]);  /* xxxINH = bit 32 + TYPE */
	return inh;
#undef T
}

/* Length of the instruction at pc (the RVC rule on its low bits). */
static unsigned insn_len_at(struct hart *h, uint64_t pc)
{
	uint16_t lo = 0;
	return gmem_read(&h->mem, pc, &lo, 2) || (lo & 3) == 3 ? 4 : 2;
}

/* --call-graph ctr, for code without frame pointers: the call chain from
 * the frozen CTR buffer. Walking the records newest to oldest, a return
 * means a deeper frame already returned, so the next older call is its
 * (matched) call; an unmatched call made a frame that is still live, and
 * its return address (the call's pc + length) is the next caller. With
 * RASEMU the buffer holds only live calls, so every call is unmatched. */
static uint32_t ctr_callchain(struct hart *h, uint64_t *chain)
{
	static struct ctr_record rec[MAX_BRANCHES];
	unsigned n = ctr_read_records(h->ctr, rec, MAX_BRANCHES), depth = 0;
	uint32_t k = 0;
	chain[k++] = h->pc;
	for (unsigned i = 0; i < n && k < MAX_CALLCHAIN; i++) {
		if (rec[i].type == CTR_TYPE_RET) {
			depth++;
		} else if (rec[i].type == CTR_TYPE_DIRCALL || rec[i].type == CTR_TYPE_INDCALL) {
			if (depth)
				depth--;
			else
				chain[k++] = rec[i].from + insn_len_at(h, rec[i].from);
		}
		/* a co-routine swap returns and calls: the depth stays */
	}
	return k;
}

/* --trace: one line per retired instruction, in retire order, with what
 * each sampled event's counter gained from it. The counts come from
 * h->evc, which the step loop and the models raise and hart_sync_pmu
 * hands to the PMU; instret is one per instruction, and so are cycles
 * without a timing model. */
static void trace_insn(void *ctx, struct hart *h)
{
	struct recorder *r = ctx;
	const struct retire_rec *rr = &h->rr;
	uint64_t d[PMU_EV_MAX];
	for (int e = 0; e < PMU_EV_MAX; e++) {
		/* less than before: a PMU sync inside this instruction (a CSR
		 * access) zeroed evc, so what is there now is its own */
		d[e] = h->evc[e] >= r->tprev[e] ? h->evc[e] - r->tprev[e] : h->evc[e];
		r->tprev[e] = h->evc[e];
	}
	d[PMU_EV_INSTRET] = 1;
	if (!h->uarch)
		d[PMU_EV_CYCLES] = 1;
	/* calls and returns by the RAS hints on x1/x5 (the unprivileged
	 * spec's table), independently of the CTR model's classification */
	int rd_link = rr->rd == 1 || rr->rd == 5, rs1_link = rr->rs1 == 1 || rr->rs1 == 5;
	char k = '-';
	if (rr->cls == UARCH_CLS_BRANCH)
		k = rr->taken ? 'B' : 'b';
	else if (rr->cls == UARCH_CLS_JAL)
		k = rd_link ? 'C' : 'J';
	else if (rr->cls == UARCH_CLS_JALR)
		k = rd_link ? (rs1_link && rr->rs1 != rr->rd ? 'S' : 'c') : rs1_link ? 'T' : 'R';
	fprintf(r->trace, "i %llx %u %c", (unsigned long long)rr->pc, rr->ilen, k);
	for (int i = 0; i < r->o->nev; i++) {
		uint64_t n = 0;
		for (uint64_t m = h->pmu.evset[r->c[i].idx]; m; m &= m - 1)
			n += d[__builtin_ctzll(m)];
		fprintf(r->trace, " %llu", (unsigned long long)n);
	}
	fputc('\n', r->trace);
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
	memset(r->tprev, 0, sizeof(r->tprev));  /* the sync emptied h->evc */
	hart_deliver_lcofi(h);
	if (h->csr.mip & (1ull << IRQ_LCOFI)) {
		uint64_t ovf = 0;
		hart_csr(h, PRIV_S, CSR_SCOUNTOVF, HART_CSR_READ, 0, &ovf);
		/* the LCOFI freezes CTR (sctrctl.LCOFIFRZ): the buffer holds
		 * the path (or, with RASEMU, the calls) to the sampled pc */
		if (r->use_ctr)
			ctr_freeze_lcofi(h->ctr);
		uint64_t chain[MAX_CALLCHAIN];
		uint32_t nc = !r->o->callchain ? 0 : r->o->callchain_ctr ? ctr_callchain(h, chain)
									: callchain(h, chain);
		static struct perfdata_branch br[MAX_BRANCHES];
		uint32_t nb = r->o->branch_stack ? branch_stack(h, br) : 0;
		for (int i = 0; i < r->o->nev; i++) {
			if (!((ovf >> r->c[i].idx) & 1))
				continue;
			if (r->trace)
				fprintf(r->trace, "s %d %llx\n", i, (unsigned long long)h->pc);
			struct perfdata_sample s = {
				.ip = h->pc, .pid = GUEST_PID, .tid = GUEST_PID,
				.time = modelled_ns(r), .period = r->period,
				.callchain = nc ? chain : NULL, .nr_callchain = nc,
				.branches = nb ? br : NULL, .nr_branches = nb,
			};
			perfdata_sample(r->w, (unsigned)i, &s);  /* a failed write: perfdata_close says */
			/* re-arm: a new start value also clears OF */
			session_sbi(&r->ss, SBI_PMU_STOP, r->c[i].idx, 1, 0, 0, 0, NULL);
			session_sbi(&r->ss, SBI_PMU_START, r->c[i].idx, 1, SBI_START_SET_INIT_VALUE,
				    -r->period, 0, NULL);
		}
		h->csr.mip &= ~(1ull << IRQ_LCOFI);  /* the handler clears sip.LCOFIP */
		if (r->use_ctr)  /* and lets CTR record again */
			hart_csr(h, PRIV_S, CTR_CSR_SCTRSTATUS, HART_CSR_CLEAR, CTRSTATUS_FROZEN, NULL);
	}
	/* run exactly to the next possible overflow, or to the end of a skid */
	uint64_t budget = hart_horizon(h);
	if (h->lcofi_at != ~0ull && h->lcofi_at - h->instret < budget)
		budget = h->lcofi_at - h->instret;
	progress_set_samples(perfdata_nsamples(r->w));  /* for the tty line */
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
		fprintf(stderr, "rvpmu record: the %s core has no Sscofpmf, so its counters cannot "
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
			fprintf(stderr, "rvpmu record: event '%s' cannot be sampled on the %s core\n",
				o->ev[i].name, o->prof->name);
			session_close(&r.ss);
			return 1;
		}
		perf_attr(&o->ev[i], &pe[i]);
		pe[i].sample_period = r.period;
		pe[i].callchain = o->callchain;
		pe[i].branch_stack = o->branch_stack;
		pe[i].branch_sample_type = o->branch_filter;
	}
	r.use_ctr = o->branch_stack || (o->callchain && o->callchain_ctr);
	if (r.use_ctr) {
		/* record user-mode transfers, freeze on the sampling interrupt;
		 * for call chains alone, RASEMU keeps the buffer a call stack */
		uint64_t ctl = CTRCTL_U | CTRCTL_LCOFIFRZ | ctr_filter_bits(o->branch_filter), got = 0;
		if (!o->branch_stack)
			ctl |= CTRCTL_RASEMU;
		else if (o->callchain && o->callchain_ctr)
			fprintf(stderr, "rvpmu record: warning: with -b, CTR records every transfer "
					"(no RASEMU), so --call-graph ctr finds only the calls still in "
					"its buffer\n");
		if (!r.ss.h.ctr || hart_csr(&r.ss.h, PRIV_S, CTR_CSR_SCTRCTL, HART_CSR_WRITE, ctl, NULL) ||
		    hart_csr(&r.ss.h, PRIV_S, CTR_CSR_SCTRCTL, HART_CSR_READ, 0, &got) || got != ctl) {
			fprintf(stderr, "rvpmu record: %s needs control transfer records (Smctr%s), "
					"which the %s core does not have\n",
				o->branch_stack ? "-b" : "--call-graph ctr",
				o->branch_stack ? (o->branch_filter ? " with type filters" : "")
						: " with RASEMU and LCOFIFRZ", o->prof->name);
			session_close(&r.ss);
			return 1;
		}
	}
	if (o->trace) {
		r.trace = fopen(o->trace, "w");
		if (!r.trace) {
			fprintf(stderr, "rvpmu record: --trace %s: %s\n", o->trace, strerror(errno));
			session_close(&r.ss);
			return 1;
		}
		static char tbuf[1 << 20];
		setvbuf(r.trace, tbuf, _IOFBF, sizeof(tbuf));
		fprintf(r.trace, "# rvpmu record --trace: 'i PC LEN KIND N...' per retired "
				 "instruction (KIND B/b taken/not-taken branch, C/c direct/indirect "
				 "call, T return, S co-routine swap, J other jal, R other jalr, - "
				 "other; N: what each sampled event's counter gained), 's EVENT PC' "
				 "per sample\n");
		fprintf(r.trace, "# events:");
		for (int i = 0; i < o->nev; i++)
			fprintf(r.trace, " %d=%s", i, o->ev[i].name);
		fprintf(r.trace, "\n");
		r.ss.h.trace = trace_insn;
		r.ss.h.trace_ctx = &r;
	}
	r.w = perfdata_create(o->output, pe, (unsigned)o->nev, argc, argv, err, sizeof(err));
	if (!r.w) {
		fprintf(stderr, "rvpmu record: %s\n", err);
		if (r.trace)
			fclose(r.trace);
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
	r.ss.h.trace = NULL;
	if (r.trace && fclose(r.trace)) {
		fprintf(stderr, "rvpmu record: --trace %s: %s\n", o->trace, strerror(errno));
		status = status ? status : 1;
	}
	uint64_t n = perfdata_nsamples(r.w);
	perfdata_exit(r.w, GUEST_PID, GUEST_PID, modelled_ns(&r));
	struct stat st;
	if (perfdata_close(r.w, err, sizeof(err))) {
		fprintf(stderr, "rvpmu record: %s\n", err);
		status = status ? status : 1;
	} else {
		/* perf record's closing line (its "Woken up N times" line counts
		 * reads of the kernel's ring buffer, which rvpmu has not) */
		fprintf(stderr, "[ rvpmu record: Captured and wrote %.3f MB %s (%llu samples) ]\n",
			stat(o->output, &st) ? 0.0 : st.st_size / 1024.0 / 1024.0, o->output,
			(unsigned long long)n);
	}
	session_close(&r.ss);
	return status;
}
