/* The virt machine: memory map, device dispatch and the run loop that
 * interleaves the hart with interrupts, timers and counter overflow. */
#define _GNU_SOURCE
#include <libfdt.h>
#include <stdio.h>
#include <string.h>
#include "rvpmu/core.h"
#include "rvpmu/machine.h"

/* sifive_test: 0x5555 pass, code<<16 | 0x3333 fail, 0x7777 reset */
static int test_access(struct machine *m, uint64_t off, unsigned size, uint64_t *val, int write)
{
	(void)off, (void)size;
	if (!write) {
		*val = 0;
		return 0;
	}
	uint32_t v = (uint32_t)*val;
	switch (v & 0xffff) {
	case 0x5555: m->finished = 1, m->exit_code = 0; break;
	case 0x3333: m->finished = 1, m->exit_code = (int)(v >> 16); break;
	case 0x7777: m->reset = 1; break;
	}
	return 0;
}

static int test_dt(void *fdt, const struct machine *m)
{
	(void)m;
	static const char compat[] = "sifive,test1\0sifive,test0\0syscon";
	return fdt_property(fdt, "compatible", compat, sizeof(compat));
}

static int uart_reg(struct machine *m, uint64_t off, unsigned size, uint64_t *val, int write)
{
	return uart_access(&m->uart, off, size, val, write);
}

static int uart_line(const struct machine *m)
{
	return uart_irq(&m->uart);
}

/* The virt memory map, in address order. Unused address space faults. */
const struct virt_dev virt_map[] = {
	{NULL, VIRT_MROM_BASE, VIRT_MROM_SIZE, NULL, NULL, 0, NULL},
	{"test", VIRT_TEST_BASE, VIRT_TEST_SIZE, test_access, test_dt, 0, NULL},
	{"clint", VIRT_CLINT_BASE, VIRT_CLINT_SIZE, clint_access, clint_dt, 0, NULL},
	{"plic", VIRT_PLIC_BASE, VIRT_PLIC_SIZE, plic_access, plic_dt, 0, NULL},
	{"serial", VIRT_UART0_BASE, VIRT_UART0_SIZE, uart_reg, uart_dt, VIRT_UART0_IRQ, uart_line},
};
const unsigned virt_map_len = sizeof(virt_map) / sizeof(virt_map[0]);

uint64_t machine_irq_lines(struct machine *m)
{
	for (unsigned i = 0; i < virt_map_len; i++)
		if (virt_map[i].irq)
			plic_set_level(&m->plic, virt_map[i].irq, virt_map[i].level(m));
	const struct hart *h = &m->hart;
	/* Sstc: the supervisor timer compares stimecmp with time */
	uint64_t stip = hart_stce(h) && hart_time(h) >= h->csr.stimecmp ? 1ull << IRQ_STI : 0;
	return clint_mip(m) | plic_mip(&m->plic) | stip;
}

static int mmio(void *ctx, uint64_t addr, unsigned size, uint64_t *val, int write)
{
	struct machine *m = ctx;
	for (unsigned i = 0; i < virt_map_len; i++) {
		const struct virt_dev *d = &virt_map[i];
		if (addr - d->base < d->size && d->access) {
			int r = d->access(m, addr - d->base, size, val, write);
			/* a register access can move an interrupt line */
			m->hart.mip_hw = machine_irq_lines(m);
			return r;
		}
	}
	return -1;
}

static int boot(struct machine *m, char *err, size_t errlen)
{
	struct hart *h = &m->hart;
	uint64_t entry, kernel_entry;
	if (gmem_map(&h->mem, VIRT_DRAM_BASE, m->o.ram_mb << 20, GP_R | GP_W | GP_X) ||
	    gmem_map(&h->mem, VIRT_MROM_BASE, VIRT_MROM_SIZE, GP_R | GP_X)) {
		snprintf(err, errlen, "cannot map %llu MiB of RAM", (unsigned long long)m->o.ram_mb);
		return -1;
	}
	h->ram_base = VIRT_DRAM_BASE;   /* PMP keeps its page summary here */
	h->ram_end = VIRT_DRAM_BASE + (m->o.ram_mb << 20);
	/* firmware (a file) at the start of RAM, the kernel where fw_jump
	 * jumps; without firmware files the kernel is what starts */
	int fw_file = !m->builtin_sbi && strcmp(m->o.bios, "none");
	uint64_t base = m->builtin_sbi || fw_file ? VIRT_KERNEL_BASE : VIRT_DRAM_BASE;
	if (load_image(m, m->o.kernel, base, &kernel_entry, err, errlen))
		return -1;
	entry = kernel_entry;
	if (fw_file && load_image(m, m->o.bios, VIRT_DRAM_BASE, &entry, err, errlen))
		return -1;
	if (m->o.initrd && load_initrd(m, err, errlen))
		return -1;
	uint64_t info = fw_dynamic_info(m, kernel_entry);
	hart_invalidate_code(h, 0, h->mem.size);
	hart_reset_system(h, entry);
	if ((m->o.profile && core_setup(h, m->o.profile, !m->o.no_uarch, err, errlen)) ||
	    machine_build_dtb(m, err, errlen))  /* it lists what the profile has */
		return -1;
	h->mmio = mmio;
	h->mmio_ctx = m;
	memset(&m->clint, 0, sizeof(m->clint));
	m->clint.mtimecmp = ~0ull;
	memset(&m->plic, 0, sizeof(m->plic));
	FILE *out = m->uart.out;
	memset(&m->uart, 0, sizeof(m->uart));
	m->uart.out = out;
	m->reset = 0;
	if (m->builtin_sbi) {
		sbi_boot(m, entry, m->dtb_addr);
	} else {
		/* as QEMU's reset vector: a0 = hartid, a1 = device tree,
		 * a2 = fw_dynamic info (fw_jump and fw_payload ignore it) */
		h->x[10] = 0;
		h->x[11] = m->dtb_addr;
		h->x[12] = info;
	}
	return 0;
}

int machine_init(struct machine *m, const struct machine_opts *o, char *err, size_t errlen)
{
	memset(m, 0, sizeof(*m));
	m->o = *o;
	if (!m->o.ram_mb)
		m->o.ram_mb = 256;
	m->builtin_sbi = !o->bios || !strcmp(o->bios, "builtin");
	m->uart.out = o->console;
	if (hart_init(&m->hart)) {
		snprintf(err, errlen, "cannot reserve guest memory");
		return -1;
	}
	if (m->o.ram_mb > (m->hart.mem.size - VIRT_DRAM_BASE) >> 20) {
		snprintf(err, errlen, "-m %llu: more RAM than this host can reserve",
			 (unsigned long long)m->o.ram_mb);
		return -1;
	}
	return boot(m, err, errlen);
}

void machine_free(struct machine *m)
{
	core_free(&m->hart);
	hart_free(&m->hart);
}

/* Instructions between polls of the console input while it is live. */
#define CONSOLE_POLL_INSNS 16384

/* WFI ends: an interrupt is pending and enabled (global enables aside). */
static int wakes(struct machine *m)
{
	struct hart *h = &m->hart;
	h->mip_hw = machine_irq_lines(m);
	return ((h->csr.mip | h->mip_hw) & h->csr.mie) != 0;
}

/* The next timer compare that can raise an enabled interrupt: mtimecmp
 * (MTI), and stimecmp (STI) with Sstc; ~0 when none. */
static uint64_t next_timer(const struct machine *m)
{
	const struct hart *h = &m->hart;
	uint64_t t = h->csr.mie & (1ull << IRQ_MTI) ? m->clint.mtimecmp : ~0ull;
	if (hart_stce(h) && (h->csr.mie & (1ull << IRQ_STI)) && h->csr.stimecmp < t)
		t = h->csr.stimecmp;
	return t;
}

/* Instructions until time reaches the next timer compare (rounded up),
 * or ~0. */
static uint64_t insns_to_timer(const struct machine *m)
{
	const struct hart *h = &m->hart;
	uint64_t now = hart_time(h), at = next_timer(m);
	if (at == ~0ull || at <= now)
		return ~0ull;
	unsigned __int128 n = (unsigned __int128)(at - now) * h->insn_hz;
	n = (n + h->time_hz - 1) / h->time_hz;
	return n > ~0ull ? ~0ull : (uint64_t)n;
}

/* A trap about to be taken: 1 (after saying so) when it is a trap storm.
 * The vector named is the one the trap goes to; the built-in SBI sends
 * what it does not handle itself on to S (its redirect). */
static int trap_storm(struct machine *m, uint64_t cause, uint64_t tval, int irq)
{
	struct hart *h = &m->hart;
	if (!hart_storm_enter(h, cause, tval, irq))
		return 0;
	char what[256];
	hart_storm_describe(h, what, sizeof(what));
	int to_m = hart_trap_target(h, cause, irq) == PRIV_M;
	const char *how = !to_m ? "handled in S-mode at stvec" : m->builtin_sbi ?
		"the built-in SBI passes it to S-mode at stvec" : "handled in M-mode at mtvec";
	fprintf(stderr, "rvpmu: trap storm: %s; %s 0x%llx\n", what, how,
		(unsigned long long)(to_m && !m->builtin_sbi ? h->csr.mtvec : h->csr.stvec));
	return 1;
}

int machine_run(struct machine *m)
{
	struct hart *h = &m->hart;
	/* --max-insns counts retired instructions and the traps taken with
	 * none retired since the trap before (h->storm.idle) */
	const uint64_t start = h->instret, idle_start = h->storm.idle;
	for (;;) {
		if (m->finished)
			return m->exit_code;
		if (m->reset) {
			char err[256];
			if (boot(m, err, sizeof(err))) {
				fprintf(stderr, "rvpmu: reset: %s\n", err);
				return 1;
			}
		}
		if (console_live(m) && h->instret - m->con.polled_at >= CONSOLE_POLL_INSNS) {
			console_poll(m, 0);
			if (m->finished)
				continue;
		}
		hart_deliver_lcofi(h);
		h->mip_hw = machine_irq_lines(m);
		int irq = hart_pending_irq(h);
		if (irq >= 0) {
			if (trap_storm(m, (uint64_t)irq, 0, 1))
				return MACHINE_EXIT_TRAP_STORM;
			if (m->builtin_sbi && hart_trap_target(h, (uint64_t)irq, 1) == PRIV_M) {
				sbi_trap(m, (uint64_t)irq, 0, 1);
				continue;  /* the firmware may have raised an S interrupt */
			}
			hart_take_trap(h, (uint64_t)irq, 0, 1);
		}

		uint64_t budget = MACHINE_RUN_CHUNK, used = h->instret - start + (h->storm.idle - idle_start);
		if (m->o.max_insns) {
			if (used >= m->o.max_insns) {
				fprintf(stderr, "rvpmu: instruction limit %llu reached at pc 0x%llx\n",
					(unsigned long long)m->o.max_insns, (unsigned long long)h->pc);
				return MACHINE_EXIT_MAX_INSNS;
			}
			if (m->o.max_insns - used < budget)
				budget = m->o.max_insns - used;
		}
		/* stop exactly where a counter can overflow, the skid ends, or
		 * the timer fires, so each is seen at the right instruction */
		uint64_t hz = hart_horizon(h);
		if (hz < budget)
			budget = hz ? hz : 1;
		if (h->lcofi_at != ~0ull && h->lcofi_at - h->instret < budget)
			budget = h->lcofi_at - h->instret;
		uint64_t t = insns_to_timer(m);
		if (t < budget)
			budget = t;
		if (console_live(m) && budget > CONSOLE_POLL_INSNS)
			budget = CONSOLE_POLL_INSNS;  /* input is polled between runs */
		if (m->o.tick) {
			uint64_t k = m->o.tick(m->o.tick_ctx, h);
			if (k && k < budget)
				budget = k;
		}
		if (m->o.stop && *m->o.stop) {  /* after the tick: a display is erased */
			fprintf(stderr, "rvpmu: interrupted by SIG%s at pc 0x%llx after %llu instructions\n",
				sigabbrev_np(*m->o.stop), (unsigned long long)h->pc,
				(unsigned long long)(h->instret - start));
			return 128 + *m->o.stop;
		}
		if (!budget)
			budget = 1;

		enum hart_stop r = hart_run(h, budget);
		hart_sync_pmu(h);
		if (r == STOP_TRAP) {
			if (trap_storm(m, h->cause, h->tval, 0))
				return MACHINE_EXIT_TRAP_STORM;
			if (m->builtin_sbi && hart_trap_target(h, h->cause, 0) == PRIV_M)
				sbi_trap(m, h->cause, h->tval, 0);
			else
				hart_take_trap(h, h->cause, h->tval, 0);
		}
		if (m->sbi_wfi) {
			m->sbi_wfi = 0;
			r = STOP_WFI;
		}
		if (r == STOP_WFI && console_live(m) && !wakes(m))
			console_poll(m, 0);
		if (r == STOP_WFI && !wakes(m)) {
			/* idle until the timer: time passes, instructions do not */
			uint64_t now = hart_time(h), at = next_timer(m);
			if (at == ~0ull) {
				if (m->con.fd >= 0 && !m->con.count) {
					console_poll(m, 1);  /* only input can wake it */
					continue;
				}
				fprintf(stderr, "rvpmu: hart waits (wfi) at pc 0x%llx with no interrupt that can wake it\n",
					(unsigned long long)h->pc);
				return MACHINE_EXIT_HANG;
			}
			if (at > now)
				h->time_offset += at - now;
		}
	}
}
