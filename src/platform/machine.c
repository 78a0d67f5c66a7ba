/* The virt machine: its harts, memory map, device dispatch and boot. The
 * run loop is sched.c. */
#define _GNU_SOURCE
#include <libfdt.h>
#include <stdio.h>
#include <string.h>
#include "rvpmu/core.h"
#include "rvpmu/machine.h"

_Static_assert(MACHINE_MAX_HARTS <= UARCH_DOMAIN_MAX, "all harts' models in one domain");

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

uint64_t machine_irq_lines(struct machine *m, const struct hart *h)
{
	for (unsigned i = 0; i < virt_map_len; i++)
		if (virt_map[i].irq)
			plic_set_level(&m->plic, virt_map[i].irq, virt_map[i].level(m));
	/* Sstc: the supervisor timer compares stimecmp (and vstimecmp) with time */
	return clint_mip(m, h) | plic_mip(&m->plic, machine_hart_index(m, h)) | hart_timer_lines(h);
}

uint64_t machine_insns(const struct machine *m)
{
	uint64_t n = 0;
	for (unsigned i = 0; i < m->nharts; i++)
		n += m->hart[i].instret;
	return n;
}

/* A load or store of the running hart (m->cur) outside RAM. */
static int mmio(void *ctx, uint64_t addr, unsigned size, uint64_t *val, int write)
{
	struct machine *m = ctx;
	for (unsigned i = 0; i < virt_map_len; i++) {
		const struct virt_dev *d = &virt_map[i];
		if (addr - d->base < d->size && d->access) {
			int r = d->access(m, addr - d->base, size, val, write);
			/* a register access can move an interrupt line (another
			 * hart's lines are read at the start of its turn) */
			m->cur->mip_hw = machine_irq_lines(m, m->cur);
			return r;
		}
	}
	return -1;
}

static int boot(struct machine *m, char *err, size_t errlen)
{
	struct hart *h0 = &m->hart[0];
	uint64_t entry, kernel_entry;
	if (gmem_map(&h0->mem, VIRT_DRAM_BASE, m->o.ram_mb << 20, GP_R | GP_W | GP_X) ||
	    gmem_map(&h0->mem, VIRT_MROM_BASE, VIRT_MROM_SIZE, GP_R | GP_X)) {
		snprintf(err, errlen, "cannot map %llu MiB of RAM", (unsigned long long)m->o.ram_mb);
		return -1;
	}
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
	hart_invalidate_code(h0, 0, h0->mem.size);   /* every hart's */
	for (unsigned i = 0; i < m->nharts; i++) {
		struct hart *h = &m->hart[i];
		h->ram_base = VIRT_DRAM_BASE;   /* PMP keeps its page summary here */
		h->ram_end = VIRT_DRAM_BASE + (m->o.ram_mb << 20);
		hart_reset_system(h, entry);
		h->csr.mhartid = i;
		if (m->o.profile && core_setup(h, m->o.profile, !m->o.no_uarch, err, errlen))
			return -1;
		h->no_jit = (uint8_t)m->o.no_jit;
		h->mmio = mmio;
		h->mmio_ctx = m;
		h->tally = m->o.tally ? m->o.tally[i] : NULL;
		h->observed = m->o.observe;
	}
	uarch_domain_free(&m->coh);   /* the models it kept coherent are gone */
	struct hart *harts[MACHINE_MAX_HARTS];
	for (unsigned i = 0; i < m->nharts; i++)
		harts[i] = &m->hart[i];
	if (m->o.profile && core_share(harts, m->nharts, &m->coh, m->o.profile, err, errlen))
		return -1;
	if (machine_build_dtb(m, err, errlen))  /* it lists what the profile has */
		return -1;
	memset(&m->clint, 0, sizeof(m->clint));
	for (unsigned i = 0; i < MACHINE_MAX_HARTS; i++)
		m->clint.mtimecmp[i] = ~0ull;
	memset(&m->plic, 0, sizeof(m->plic));
	FILE *out = m->uart.out;
	memset(&m->uart, 0, sizeof(m->uart));
	m->uart.out = out;
	m->reset = 0;
	m->cur = h0;
	if (m->builtin_sbi) {
		sbi_boot(m, entry, m->dtb_addr);
	} else {
		/* as QEMU's reset vector, on every hart: a0 = hartid, a1 =
		 * device tree, a2 = fw_dynamic info (fw_jump and fw_payload
		 * ignore it); OpenSBI picks hart 0 (the info's boot_hart) to
		 * boot and parks the others until Linux starts them */
		for (unsigned i = 0; i < m->nharts; i++) {
			m->hart[i].x[10] = i;
			m->hart[i].x[11] = m->dtb_addr;
			m->hart[i].x[12] = info;
		}
	}
	return 0;
}

int machine_reboot(struct machine *m, char *err, size_t errlen)
{
	return boot(m, err, errlen);
}

int machine_init(struct machine *m, const struct machine_opts *o, char *err, size_t errlen)
{
	memset(m, 0, sizeof(*m));
	m->o = *o;
	if (!m->o.ram_mb)
		m->o.ram_mb = 256;
	m->nharts = o->smp ? o->smp : 1;
	if (m->nharts > MACHINE_MAX_HARTS) {
		snprintf(err, errlen, "--smp %u: at most %d harts", m->nharts, MACHINE_MAX_HARTS);
		return -1;
	}
	m->builtin_sbi = !o->bios || !strcmp(o->bios, "builtin");
	m->uart.out = o->console;
	if (hart_init(&m->hart[0])) {
		snprintf(err, errlen, "cannot reserve guest memory");
		return -1;
	}
	for (unsigned i = 1; i < m->nharts; i++)
		hart_init_sharing(&m->hart[i], &m->hart[0]);
	/* in MiB, so that a huge -m cannot overflow the byte count */
	if (m->o.ram_mb > (m->hart[0].mem.size - VIRT_DRAM_BASE) >> 20) {
		snprintf(err, errlen, "-m %llu: more RAM than this host can reserve",
			 (unsigned long long)m->o.ram_mb);
		return -1;
	}
	return boot(m, err, errlen);
}

void machine_free(struct machine *m)
{
	for (unsigned i = m->nharts; i-- > 0;) {
		core_free(&m->hart[i]);
		hart_free(&m->hart[i]);
	}
	uarch_domain_free(&m->coh);
}
