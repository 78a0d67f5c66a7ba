/* rvpmu record: sample a user-mode program the way Linux's riscv_pmu_sbi
 * driver does on Sscofpmf hardware: each counter starts at -period
 * (counter_start with SET_INIT_VALUE); its overflow raises LCOFI after the
 * core's skid; the handler reads scountovf, records the trapped pc (with
 * the skid in it) and re-arms the counter. Samples go to perf.data. */
#include <errno.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include "rvpmu/ctr.h"
#include "rvpmu/linux.h"
#include "rvpmu/perf.h"
#include "rvpmu/perfdata.h"
#include "rvpmu/profile.h"
#include "rvpmu/progress.h"

#define CSR_SCOUNTOVF 0xda0
#define GUEST_PID 1000       /* the user-mode kernel's first pid and tid */
#define MAX_CALLCHAIN 127
#define MAX_BRANCHES 256
#define NREGS 32                 /* RISC-V perf_regs: pc, then x1..x31 (PERF_REG_RISCV_MAX) */

struct sampled {
	unsigned idx, csr;
	int sampled;            /* armed at -period; else read with its group's leader */
	int leader;             /* its group's leader (itself when alone) */
	uint64_t count;         /* a leader's events so far (periods it sampled) */
};

struct recorder {
	struct session ss;
	const struct record_opts *o;
	struct sampled c[EVSPEC_MAX];
	struct perfdata_event pe[EVSPEC_MAX];
	struct perfdata_writer *w;
	int argc;
	char **argv;
	uint64_t period;
	int use_ctr;            /* -b or --call-graph ctr: CTR freezes per sample */
	int started;            /* the counters run (-D: once the delay is over) */
	uint64_t delay_ticks;   /* -D in hart_time units */
	uint64_t next_switch;   /* --switch-output=TIME: hart_time of the next file */
	uint64_t wakes;         /* rounds written to earlier files */
	int failed;             /* a file could not be written */
	int first_exited;       /* the first thread's EXIT is written */
	FILE *trace;            /* --trace */
	uint64_t tprev[PMU_EV_MAX];  /* h->evc after the last traced instruction */
};

static volatile sig_atomic_t switch_requested;

static void on_sigusr2(int sig)
{
	(void)sig;
	switch_requested = 1;
}

/* Whether ra can be a return address: the instruction before it is a
 * call (jal or jalr linking x1 or x5, or c.jalr). A frame pointer that
 * code built without frame pointers left in s0 leads to a "record" whose
 * second word is any value: this is how the walk knows it left the
 * frame-pointer frames (glibc's start-up calls main with such an s0). */
static int after_call(struct hart *h, uint64_t ra)
{
	uint32_t w = 0;
	uint16_t c = 0;
	if (ra >= 4 && !gmem_read(&h->mem, ra - 4, &w, 4)) {
		unsigned op = w & 0x7f, rd = w >> 7 & 31;
		if ((op == 0x6f || (op == 0x67 && !(w >> 12 & 7))) && (rd == 1 || rd == 5))
			return 1;
	}
	/* c.jalr: 1001 rs1 00000 10, rs1 != 0 */
	return ra >= 2 && !gmem_read(&h->mem, ra - 2, &c, 2) && (c & 0xf07f) == 0x9002 &&
	       (c >> 7 & 31);
}

/* Frame-pointer unwinding of the guest stack as Linux's riscv
 * perf_callchain_user does: the pc, then ra for the innermost frame (a
 * leaf need not have stored it), then the {fp, ra} record below each
 * frame pointer. Further than Linux: a leaf frame that saved only fp (at
 * fp-8) is recognised by that slot pointing up the stack; and the walk
 * ends where the frames end (each frame above the one before it, each
 * return address after a call), so that a chain stops at the last
 * frame-pointer frame (glibc's __libc_start_call_main) instead of adding
 * whatever an s0 of frameless code points at. */
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
		if (!ra || !after_call(h, ra))
			break;
		chain[n++] = ra;
		if (next <= fp)
			break;  /* the stack grows down: a caller's frame is above */
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
		for (pmu_evset m = h->pmu.evset[r->c[i].idx]; m; m &= m - 1)
			n += d[pmu_evset_first(m)];
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

static uint64_t modelled_ns(const struct hart *h)
{
	return (uint64_t)((unsigned __int128)hart_time(h) * 1000000000u / h->time_hz);
}

/* --call-graph dwarf: the registers in perf_regs order and the stack
 * from sp up, as far as it is mapped (the kernel's perf_output_sample_ustack) */
static uint32_t user_stack(struct hart *h, uint32_t want, uint64_t *regs, uint8_t *stack)
{
	regs[0] = h->pc;
	for (int i = 1; i < NREGS; i++)
		regs[i] = h->x[i];
	uint32_t got = 0;
	for (uint32_t step = 4096; step >= 8; step /= 8)
		while (got + step <= want && !gmem_read(&h->mem, h->x[2] + got, stack + got, step))
			got += step;
	return got;
}

static void start_counter(struct recorder *r, unsigned cpu, int i)
{
	/* a sampled counter starts at -period; a group member read with its
	 * leader counts up from 0 */
	session_sbi_on(&r->ss, cpu, SBI_PMU_START, r->c[i].idx, 1, SBI_START_SET_INIT_VALUE,
		       r->c[i].sampled ? -r->period : 0, 0, NULL);
}

static unsigned cpu_of(const struct recorder *r, const struct hart *h)
{
	unsigned c = 0;
	while (c + 1 < r->ss.ncpus && r->ss.cpu[c] != h)
		c++;
	return c;
}

/* A program's name and the mappings of its image. */
static void exec_records(struct recorder *r, const struct linux_task *t)
{
	const char *base = strrchr(t->exe, '/');
	perfdata_comm(r->w, (uint32_t)t->pid, (uint32_t)t->tid, base ? base + 1 : t->exe, 1);
	perfdata_mmap_elf(r->w, (uint32_t)t->pid, (uint32_t)t->tid, t->exe, t->load_bias);
}

/* The first records of a file: the command and its mappings. */
static void file_begin(struct recorder *r)
{
	exec_records(r, &(struct linux_task){ .pid = GUEST_PID, .tid = GUEST_PID,
					      .exe = linux_exe_path(), .load_bias = linux_load_bias() });
}

/* Threads and processes as they come and go: perf's FORK, COMM (with
 * an exec's MMAP2) and EXIT records, so samples split by comm, pid, tid. */
static void task_change(void *ctx, enum linux_task_change what, const struct linux_task *t,
			const struct linux_task *parent)
{
	struct recorder *r = ctx;
	uint32_t pid = (uint32_t)t->pid, tid = (uint32_t)t->tid, ppid = (uint32_t)t->ppid;
	if (!r->w)
		return;
	perfdata_set_time(r->w, t->ns);
	switch (what) {
	case LINUX_TASK_NEW:
		perfdata_fork(r->w, pid, (uint32_t)parent->pid, tid, (uint32_t)parent->tid, t->ns);
		break;
	case LINUX_TASK_EXEC:
		exec_records(r, t);
		break;
	case LINUX_TASK_COMM:
		perfdata_comm(r->w, pid, tid, t->comm, 0);
		break;
	case LINUX_TASK_EXIT:
		perfdata_exit(r->w, pid, ppid, tid, ppid, t->ns);
		r->first_exited |= tid == GUEST_PID;
		break;
	}
}

/* perf's name for a switched-out file: PATH.YYYYmmddHHMMSScc (host
 * time); a name already taken moves on by a hundredth of a second */
static void switch_name(const char *path, char *buf, size_t len)
{
	struct timeval tv;
	struct tm tm;
	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	unsigned long long ts;
	char t[32];
	strftime(t, sizeof(t), "%Y%m%d%H%M%S", &tm);
	ts = strtoull(t, NULL, 10) * 100 + (unsigned long long)(tv.tv_usec / 10000);
	for (;; ts++) {
		snprintf(buf, len, "%s.%llu", path, ts);
		if (access(buf, F_OK))
			return;
	}
}

/* Close the current file under its timestamped name and (unless the
 * run is over) start the next (perf record --switch-output). */
static int switch_output(struct recorder *r, int at_exit, uint64_t *nsamples)
{
	char name[4200], err[512];
	const struct record_opts *o = r->o;
	if (!at_exit)
		fprintf(stderr, "[ rvpmu record: dump data: Woken up %llu times ]\n",
			(unsigned long long)perfdata_rounds(r->w) + 1);
	r->wakes += perfdata_rounds(r->w);
	switch_name(o->output, name, sizeof(name));
	if (nsamples)
		*nsamples = perfdata_nsamples(r->w);
	if (perfdata_close_as(r->w, name, err, sizeof(err))) {
		r->w = NULL;
		fprintf(stderr, "rvpmu record: %s\n", err);
		return -1;
	}
	fprintf(stderr, "[ rvpmu record: Dump %s ]\n", name);
	r->w = NULL;
	if (at_exit)
		return 0;
	r->w = perfdata_create(o->output, r->pe, (unsigned)o->nev, r->argc, r->argv, err, sizeof(err));
	if (!r->w) {
		fprintf(stderr, "rvpmu record: %s\n", err);
		return -1;
	}
	file_begin(r);
	return 0;
}

/* The overflow handler: runs at every stop of the hart. */
static uint64_t tick(void *ctx, struct hart *h)
{
	struct recorder *r = ctx;
	const struct record_opts *o = r->o;
	unsigned cpu = cpu_of(r, h);
	hart_sync_pmu(h);
	memset(r->tprev, 0, sizeof(r->tprev));  /* the sync emptied h->evc */
	if (!r->started) {
		/* -D: nothing counts before the delay (in modelled time) */
		uint64_t now = hart_time(h);
		if (now < r->delay_ticks) {
			/* no instruction adds more than 4 cycles' worth of time */
			uint64_t left = (r->delay_ticks - now) * (o->prof->clock_hz / h->time_hz + 1);
			return left / 4 + 1;
		}
		for (unsigned c = 0; c < r->ss.ncpus; c++)
			for (int i = 0; i < o->nev; i++)
				start_counter(r, c, i);
		r->started = 1;
		if (o->delay_ms)
			fprintf(stderr, "Events enabled\n");
	}
	hart_deliver_lcofi(h);
	if (h->csr.mip & (1ull << IRQ_LCOFI)) {
		uint64_t ovf = 0;
		hart_csr(h, PRIV_S, CSR_SCOUNTOVF, HART_CSR_READ, 0, &ovf);
		/* the LCOFI freezes CTR (sctrctl.LCOFIFRZ): the buffer holds
		 * the path (or, with RASEMU, the calls) to the sampled pc */
		if (r->use_ctr)
			ctr_freeze_lcofi(h->ctr);
		uint64_t chain[MAX_CALLCHAIN];
		uint32_t nc = !o->callchain || o->callchain_dwarf ? 0 : o->callchain_ctr ?
			ctr_callchain(h, chain) : callchain(h, chain);
		static struct perfdata_branch br[MAX_BRANCHES];
		uint32_t nb = o->branch_stack ? branch_stack(h, br) : 0;
		static uint8_t stack[65536];
		uint64_t regs[NREGS];
		uint32_t ns = o->callchain_dwarf ? user_stack(h, o->stack_dump, regs, stack) : 0;
		for (int i = 0; i < o->nev; i++) {
			if (!r->c[i].sampled || !((ovf >> r->c[i].idx) & 1))
				continue;
			if (r->trace)
				fprintf(r->trace, "s %d %llx\n", i, (unsigned long long)h->pc);
			/* leader sampling: the group's counts, leader first */
			uint64_t rd[EVSPEC_MAX];
			uint32_t nrd = 0;
			r->c[i].count += r->period;
			if (r->pe[i].read_group) {
				rd[nrd++] = r->c[i].count;
				for (int k = i + 1; k < o->nev && r->c[k].leader == i; k++) {
					uint64_t v = 0;
					hart_csr(h, PRIV_S, r->c[k].csr, HART_CSR_READ, 0, &v);
					rd[nrd++] = v;
				}
			}
			/* the thread's clock: its hart's, idle time included */
			struct linux_task t = { .pid = GUEST_PID, .tid = GUEST_PID, .ns = modelled_ns(h) };
			linux_task_on(h, &t);
			struct perfdata_sample s = {
				.ip = h->pc, .pid = (uint32_t)t.pid, .tid = (uint32_t)t.tid, .cpu = cpu,
				.time = t.ns, .period = r->period,
				.callchain = nc ? chain : NULL, .nr_callchain = nc,
				.branches = nb ? br : NULL, .nr_branches = nb,
				.read = rd, .nr_read = nrd,
				.regs = o->callchain_dwarf ? regs : NULL,
				.stack = o->callchain_dwarf ? stack : NULL,
				.stack_size = o->callchain_dwarf ? o->stack_dump : 0, .dyn_size = ns,
			};
			if (ns < o->stack_dump)
				memset(stack + ns, 0, o->stack_dump - ns);
			if (r->w)  /* a failed write: perfdata_close says */
				perfdata_sample(r->w, (unsigned)i, &s);
			/* re-arm: a new start value also clears OF */
			session_sbi_on(&r->ss, cpu, SBI_PMU_STOP, r->c[i].idx, 1, 0, 0, 0, NULL);
			start_counter(r, cpu, i);
		}
		h->csr.mip &= ~(1ull << IRQ_LCOFI);  /* the handler clears sip.LCOFIP */
		if (r->use_ctr)  /* and lets CTR record again */
			hart_csr(h, PRIV_S, CTR_CSR_SCTRSTATUS, HART_CSR_CLEAR, CTRSTATUS_FROZEN, NULL);
	}
	/* --switch-output: on SIGUSR2, at a size, or after a modelled time */
	if (r->w && ((o->switch_signal && switch_requested) ||
		     (o->switch_size && perfdata_size(r->w) >= o->switch_size) ||
		     (o->switch_ms && hart_time(h) >= r->next_switch))) {
		switch_requested = 0;
		if (o->switch_ms)
			r->next_switch = hart_time(h) + o->switch_ms * (h->time_hz / 1000);
		if (switch_output(r, 0, NULL))
			r->failed = 1;
	}
	/* run exactly to the next possible overflow, or to the end of a skid */
	uint64_t budget = hart_horizon(h);
	if (h->lcofi_at != ~0ull && h->lcofi_at - h->instret < budget)
		budget = h->lcofi_at - h->instret;
	if (o->switch_ms && r->next_switch > hart_time(h)) {
		uint64_t left = (r->next_switch - hart_time(h)) * (o->prof->clock_hz / h->time_hz + 1) / 4 + 1;
		if (left < budget)
			budget = left;
	}
	if (r->w)
		progress_set_samples(perfdata_nsamples(r->w));  /* for the tty line */
	return budget == UINT64_MAX ? 0 : budget ? budget : 1;
}

/* perf's own encoding of the events, so that perf names them. */
void record_perf_attr(const struct evspec *e, struct perfdata_event *pe)
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
	pe->exclude_host = e->exclude_host;
	pe->exclude_guest = e->exclude_guest;
}

int record_run(const struct record_opts *o, const struct linux_opts *lo_in, int argc,
	       char **argv, char **envp)
{
	static struct recorder r;
	char err[512];
	memset(&r, 0, sizeof(r));
	r.o = o;
	r.argc = argc;
	r.argv = argv;
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
	lo.task_change = task_change;
	lo.task_ctx = &r;
	int group_read = 0;
	for (int i = 0; i < o->nev; i++)
		group_read |= o->ev[i].sample_read;
	if ((o->trace || group_read) && lo.cpus > 1) {
		/* a group's counts are one hart's (Linux 6.1 refuses
		 * PERF_SAMPLE_READ with inherit with EINVAL, for the same reason) */
		fprintf(stderr, "rvpmu record: %s follows one hart: use it with --cpus 1\n",
			o->trace ? "--trace" : "leader sampling ({a,b}:S)");
		return 1;
	}
	if (session_open(&r.ss, o->prof, o->models, &lo, argc, argv, envp))
		return 1;
	struct perfdata_event *pe = r.pe;
	for (int i = 0; i < o->nev; i++) {
		const struct evspec *e = &o->ev[i];
		/* leader sampling ({a,b}:S): only the leader samples */
		r.c[i].leader = e->group >= 0 ? e->group : i;
		r.c[i].sampled = !e->sample_read || r.c[i].leader == i;
		if (session_config_all(&r.ss, e, 0, &r.c[i].idx, &r.c[i].csr) != SBI_SUCCESS ||
		    (r.c[i].sampled && r.c[i].idx < 3)) {
			fprintf(stderr, "rvpmu record: event '%s' cannot be %s on the %s core\n",
				e->name, r.c[i].sampled ? "sampled" : "counted", o->prof->name);
			session_close(&r.ss);
			return 1;
		}
		record_perf_attr(e, &pe[i]);
		pe[i].sample_period = r.c[i].sampled ? r.period : 0;
		pe[i].callchain = o->callchain;
		pe[i].branch_stack = o->branch_stack;
		pe[i].branch_sample_type = o->branch_filter;
		pe[i].read_group = e->sample_read;
		pe[i].group = e->group >= 0 ? e->group + 1 : 0;
		if (o->callchain_dwarf) {
			pe[i].regs_user = (UINT64_C(1) << NREGS) - 1;
			pe[i].stack_user = o->stack_dump;
		}
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
		int bad = 0;   /* on every hart */
		for (unsigned c = 0; c < r.ss.ncpus && !bad; c++) {
			struct hart *h = r.ss.cpu[c];
			bad = !h->ctr || hart_csr(h, PRIV_S, CTR_CSR_SCTRCTL, HART_CSR_WRITE, ctl, NULL) ||
			      hart_csr(h, PRIV_S, CTR_CSR_SCTRCTL, HART_CSR_READ, 0, &got) || got != ctl;
		}
		if (bad) {
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
	/* perf's pipe mode: the program's standard output goes to
	 * standard error, the data to standard output */
	int saved_out = -1;
	if (!strcmp(o->output, "-")) {
		fflush(stdout);
		saved_out = dup(1);
		dup2(2, 1);
	}
	file_begin(&r);
	struct sigaction sa = { .sa_handler = on_sigusr2 }, old_sa;
	if (o->switch_signal)
		sigaction(SIGUSR2, &sa, &old_sa);
	if (o->switch_ms)
		r.next_switch = o->switch_ms * (r.ss.h.time_hz / 1000);
	r.delay_ticks = o->delay_ms * (r.ss.h.time_hz / 1000);
	if (o->delay_ms)
		fprintf(stderr, "Events disabled\n");
	else
		tick(&r, &r.ss.h);  /* starts the counters */

	int status = linux_run(&r.ss.h, &lo);

	if (o->switch_signal)
		sigaction(SIGUSR2, &old_sa, NULL);
	hart_sync_pmu(&r.ss.h);
	r.ss.h.trace = NULL;
	if (r.trace && fclose(r.trace)) {
		fprintf(stderr, "rvpmu record: --trace %s: %s\n", o->trace, strerror(errno));
		status = status ? status : 1;
	}
	if (r.failed || !r.w) {
		status = status ? status : 1;
		if (r.w)
			perfdata_close(r.w, err, sizeof(err));
		session_close(&r.ss);
		return status;
	}
	uint64_t n = perfdata_nsamples(r.w);
	if (!r.first_exited)   /* cut short: the first thread ends here */
		perfdata_exit(r.w, GUEST_PID, GUEST_PID, GUEST_PID, GUEST_PID, modelled_ns(&r.ss.h));
	/* perf record's closing lines: a round of records is what perf
	 * writes per wakeup of its ring buffer */
	fprintf(stderr, "[ rvpmu record: Woken up %llu times to write data ]\n",
		(unsigned long long)(r.wakes + perfdata_rounds(r.w) + 1));
	struct stat st;
	double mb;
	int switched = o->switch_signal || o->switch_size || o->switch_ms;
	if (switched) {
		mb = perfdata_size(r.w) / 1024.0 / 1024.0;
		if (switch_output(&r, 1, &n))
			status = status ? status : 1;
	} else {
		mb = perfdata_size(r.w) / 1024.0 / 1024.0;
		if (perfdata_close(r.w, err, sizeof(err))) {
			fprintf(stderr, "rvpmu record: %s\n", err);
			status = status ? status : 1;
			switched = -1;
		} else if (strcmp(o->output, "-") && !stat(o->output, &st)) {
			mb = st.st_size / 1024.0 / 1024.0;
		}
	}
	if (saved_out >= 0) {
		dup2(saved_out, 1);
		close(saved_out);
	}
	if (switched >= 0)
		fprintf(stderr, "[ rvpmu record: Captured and wrote %.3f MB %s%s (%llu samples) ]\n",
			mb, o->output, switched ? ".<timestamp>" : "", (unsigned long long)n);
	session_close(&r.ss);
	return status;
}
