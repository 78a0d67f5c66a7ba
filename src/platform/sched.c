/* The machine's run loop: one host thread runs the harts in turn, each
 * with interrupts, timers and counter overflow seen at the right
 * instruction.
 *
 * Time: each hart's time follows its own retired instructions (hart_time)
 * plus the ticks it spent waiting. Harts take turns in rounds: in a round
 * every hart runs until its time reaches the round's end (a quantum of
 * --quantum instructions later: 10 us at 1 GHz by default), so their
 * times never differ by more than a quantum, and the interleaving, and so
 * every result, is the same each run. A hart that waits (WFI with no
 * interrupt pending, or stopped by the firmware) skips the rest of its
 * turn; its time moves to the round's end. A change one hart makes to
 * another's interrupt lines (an IPI through the CLINT, a PLIC claim)
 * reaches that hart at the start of its next turn. With one hart there
 * are no rounds: it runs until the next event, as it always has.
 *
 * LR/SC: a hart's reservation ends when its turn does (as a context
 * switch may end it: Unprivileged ISA, "Load-Reserved/Store-Conditional"),
 * so no other hart's store can fall between an LR and an SC that
 * succeeds; a constrained LR/SC loop retries within its next turn. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include "rvpmu/machine.h"

/* Instructions between polls of the console input while it is live. */
#define CONSOLE_POLL_INSNS 16384

enum { TURN_ON = -1, TURN_WAIT = -2 };   /* turn()'s answers besides an exit */

/* WFI ends: an interrupt is pending and enabled (global enables aside). */
static int wakes(struct machine *m, struct hart *h)
{
	h->mip_hw = machine_irq_lines(m, h);
	return hart_wakes(h);
}

/* The next timer compare that can raise an enabled interrupt on h:
 * its mtimecmp (MTI), and stimecmp (STI) and vstimecmp (VSTI, in time
 * less htimedelta) with Sstc; ~0 when none. */
static uint64_t next_timer(const struct machine *m, const struct hart *h)
{
	unsigned i = machine_hart_index(m, h);
	uint64_t t = h->csr.mie & (1ull << IRQ_MTI) ? m->clint.mtimecmp[i] : ~0ull;
	if (hart_stce(h) && (h->csr.mie & (1ull << IRQ_STI)) && h->csr.stimecmp < t)
		t = h->csr.stimecmp;
	uint64_t vt = h->csr.vstimecmp - h->csr.htimedelta;
	if (hart_stce(h) && (h->csr.henvcfg & (1ull << 63)) && (h->csr.mie & (1ull << IRQ_VSTI)) && vt < t)
		t = vt;
	return t;
}

/* When h's timer can next wake it: never while the firmware keeps it
 * stopped. */
static uint64_t wake_time(const struct machine *m, const struct hart *h)
{
	if (m->builtin_sbi && m->sbih[machine_hart_index(m, h)].hsm == SBI_HSM_STOPPED)
		return ~0ull;
	return next_timer(m, h);
}

/* Instructions until h's time reaches at (rounded up), 0 when it has, or
 * ~0 for at = ~0. */
static uint64_t insns_until(const struct hart *h, uint64_t at)
{
	if (at == ~0ull)
		return ~0ull;
	if (at <= hart_time(h))
		return 0;
	/* the first instret whose time (hart_time()) is at: counted from
	 * the instruction now, not from the start of the current tick */
	unsigned __int128 first = (unsigned __int128)(at - h->time_offset) * h->insn_hz;
	first = (first + h->time_hz - 1) / h->time_hz;
	unsigned __int128 n = first - h->instret;
	return n > ~0ull ? ~0ull : (uint64_t)n;
}

/* Move h's time forward to t (never back). */
static void idle_until(struct hart *h, uint64_t t)
{
	uint64_t now = hart_time(h);
	if (t != ~0ull && t > now)
		h->time_offset += t - now;
}

/* Traps taken with nothing retired since the trap before, on all harts
 * (each costs one unit of --max-insns: hart_storm_enter). */
static uint64_t idle_traps(const struct machine *m)
{
	uint64_t n = 0;
	for (unsigned i = 0; i < m->nharts; i++)
		n += m->hart[i].storm.idle;
	return n;
}

/* A trap about to be taken: 1 (after saying so) when it is a trap storm.
 * The vector named is the one the trap goes to; the built-in SBI sends
 * what it does not handle itself on to S (its redirect). */
static int trap_storm(struct machine *m, struct hart *h, uint64_t cause, uint64_t tval, int irq)
{
	if (!hart_storm_enter(h, cause, tval, irq))
		return 0;
	char what[256];
	hart_storm_describe(h, what, sizeof(what));
	int to_m = hart_trap_target(h, cause, irq) == PRIV_M;
	const char *how = !to_m ? "handled in S-mode at stvec" : m->builtin_sbi ?
		"the built-in SBI passes it to S-mode at stvec" : "handled in M-mode at mtvec";
	fprintf(stderr, "rvpmu: trap storm: %s%s; %s 0x%llx\n", m->nharts > 1 ? "hart " : "",
		what, how, (unsigned long long)(to_m && !m->builtin_sbi ? h->csr.mtvec : h->csr.stvec));
	return 1;
}

/* The trap h raised (or the interrupt it takes) goes to the firmware
 * when the built-in SBI owns M-mode, else to the hart's own vector. */
static void take(struct machine *m, struct hart *h, uint64_t cause, uint64_t tval, int irq)
{
	if (m->builtin_sbi && hart_trap_target(h, cause, irq) == PRIV_M)
		sbi_trap(m, h, cause, tval, irq);
	else
		hart_take_trap(h, cause, tval, irq);
}

struct run {
	uint64_t start, idle_start;   /* machine_insns and idle_traps at the start */
	uint8_t wfi[MACHINE_MAX_HARTS];   /* the hart's turn ended in a WFI */
};

/* Can a waiting hart go on: an interrupt ends its WFI, or the firmware
 * starts or resumes it. */
static int ready(struct machine *m, struct hart *h, int wfi)
{
	return wfi ? wakes(m, h) : sbi_hart_runs(m, h);
}

/* Hart h's turn: it runs until its time reaches end (~0: no end) or it
 * waits with no interrupt that can wake it before then (TURN_WAIT; its
 * time is then end, or as it was for end = ~0). TURN_ON when the turn is
 * over, else the machine's exit status. */
static int turn(struct machine *m, struct run *r, struct hart *h, uint64_t end)
{
	m->cur = h;
	int wfi = r->wfi[machine_hart_index(m, h)];   /* it waits in a WFI */
	for (;;) {
		if (m->finished || m->reset)
			return TURN_ON;
		if (console_live(m) && machine_insns(m) - m->con.polled_at >= CONSOLE_POLL_INSNS) {
			console_poll(m, 0);
			if (m->finished)
				continue;
		}
		if (wfi || !sbi_hart_runs(m, h)) {
			/* it waits: until an interrupt (WFI), the firmware's
			 * start or resume, or its timer within the turn */
			int go = ready(m, h, wfi);
			if (!go && console_live(m)) {
				console_poll(m, 0);
				go = ready(m, h, wfi);
			}
			if (go) {
				wfi = 0;
				continue;
			}
			uint64_t at = wake_time(m, h);
			if (at != ~0ull && (at < end || end == ~0ull)) {
				idle_until(h, at);
				continue;
			}
			idle_until(h, end);
			r->wfi[machine_hart_index(m, h)] = (uint8_t)wfi;
			return TURN_WAIT;
		}
		r->wfi[machine_hart_index(m, h)] = 0;
		hart_deliver_lcofi(h);
		h->mip_hw = machine_irq_lines(m, h);
		int irq = hart_pending_irq(h);
		if (irq >= 0) {
			if (trap_storm(m, h, (uint64_t)irq, 0, 1))
				return MACHINE_EXIT_TRAP_STORM;
			int fw = m->builtin_sbi && hart_trap_target(h, (uint64_t)irq, 1) == PRIV_M;
			take(m, h, (uint64_t)irq, 0, 1);
			if (fw)
				continue;  /* the firmware may have raised an S interrupt */
		}

		uint64_t budget = MACHINE_RUN_CHUNK;
		uint64_t used = machine_insns(m) - r->start + (idle_traps(m) - r->idle_start);
		if (m->o.max_insns) {
			if (used >= m->o.max_insns) {
				fprintf(stderr, "rvpmu: instruction limit %llu reached at pc 0x%llx%s\n",
					(unsigned long long)m->o.max_insns, (unsigned long long)h->pc,
					m->nharts > 1 ? " (all harts)" : "");
				return MACHINE_EXIT_MAX_INSNS;
			}
			if (m->o.max_insns - used < budget)
				budget = m->o.max_insns - used;
		}
		uint64_t left = insns_until(h, end);
		if (!left)
			return TURN_ON;
		if (left < budget)
			budget = left;
		/* stop exactly where a counter can overflow, the skid ends, or
		 * the timer fires, so each is seen at the right instruction */
		uint64_t hz = hart_horizon(h);
		if (hz < budget)
			budget = hz ? hz : 1;
		if (h->lcofi_at != ~0ull && h->lcofi_at - h->instret < budget)
			budget = h->lcofi_at - h->instret;
		uint64_t t = insns_until(h, next_timer(m, h));
		if (t && t < budget)
			budget = t;
		if (console_live(m) && budget > CONSOLE_POLL_INSNS)
			budget = CONSOLE_POLL_INSNS;  /* input is polled between runs */
		if (m->o.tick) {
			uint64_t k = m->o.tick(m->o.tick_ctx, machine_insns(m));
			if (k && k < budget)
				budget = k;
		}
		if (m->o.stop && *m->o.stop) {  /* after the tick: a display is erased */
			fprintf(stderr, "rvpmu: interrupted by SIG%s at pc 0x%llx after %llu instructions\n",
				sigabbrev_np(*m->o.stop), (unsigned long long)h->pc,
				(unsigned long long)(machine_insns(m) - r->start));
			return 128 + *m->o.stop;
		}
		if (!budget)
			budget = 1;

		enum hart_stop stop = hart_run(h, budget);
		hart_sync_pmu(h);
		if (stop == STOP_TRAP) {
			if (trap_storm(m, h, h->cause, h->tval, 0))
				return MACHINE_EXIT_TRAP_STORM;
			take(m, h, h->cause, h->tval, 0);
		}
		wfi = stop == STOP_WFI;
	}
}

/* Every hart waits: wait for the earliest timer among them (their turns
 * start there), or for console input; the run ends when nothing can wake
 * any hart. Returns the time the next round starts, or ~0 after printing
 * why the machine hangs. */
static uint64_t all_wait(struct machine *m, struct run *r, uint64_t now)
{
	uint64_t at = ~0ull;
	for (unsigned i = 0; i < m->nharts; i++) {
		struct hart *h = &m->hart[i];
		if (ready(m, h, r->wfi[i]))
			return now;   /* a later hart's IPI woke it */
		uint64_t t = wake_time(m, h);
		if (t < at)
			at = t;
	}
	if (at != ~0ull)
		return at > now ? at : now;
	if (m->con.fd >= 0 && !m->con.count) {
		console_poll(m, 1);  /* only input can wake a hart */
		return now;
	}
	struct hart *h = &m->hart[0];
	if (m->nharts == 1)
		fprintf(stderr, "rvpmu: hart waits (wfi) at pc 0x%llx with no interrupt that can wake it\n",
			(unsigned long long)h->pc);
	else
		fprintf(stderr, "rvpmu: every hart waits (wfi, or stopped) with no interrupt that can wake one\n");
	return ~0ull;
}

int machine_run(struct machine *m)
{
	/* --max-insns counts retired instructions and the traps taken with
	 * none retired since the trap before (h->storm.idle) */
	struct run r = {.start = machine_insns(m), .idle_start = idle_traps(m)};
	const struct hart *h0 = &m->hart[0];
	uint64_t quantum = m->o.quantum ? m->o.quantum : MACHINE_QUANTUM;
	uint64_t ticks = (uint64_t)((unsigned __int128)quantum * h0->time_hz / h0->insn_hz);
	uint64_t now = hart_time(h0);
	if (!ticks)
		ticks = 1;   /* a quantum is at least one tick of the timebase */
	for (;;) {
		if (m->finished)
			return m->exit_code;
		if (m->reset) {
			char err[256];
			if (machine_reboot(m, err, sizeof(err))) {
				fprintf(stderr, "rvpmu: reset: %s\n", err);
				return 1;
			}
		}
		/* the round: every hart runs one quantum of modelled time */
		uint64_t end = m->nharts > 1 ? now + ticks : ~0ull;
		int waited = 1;   /* every hart's turn ended waiting */
		for (unsigned i = 0; i < m->nharts && !m->finished && !m->reset; i++) {
			struct hart *h = &m->hart[i];
			idle_until(h, now);
			int st = turn(m, &r, h, end);
			if (st >= 0)
				return st;
			if (st != TURN_WAIT)
				waited = 0;
			if (m->nharts > 1)
				h->resv_addr = ~0ull;   /* a turn's end ends its reservation */
		}
		if (end != ~0ull)
			now = end;
		if (waited && !m->finished && !m->reset) {
			now = all_wait(m, &r, now);
			if (now == ~0ull)
				return MACHINE_EXIT_HANG;
			if (m->nharts == 1)
				idle_until(&m->hart[0], now);
		}
	}
}
