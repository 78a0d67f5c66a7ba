/* CLINT at 0x2000000 (SiFive layout, as on QEMU virt): msip at +0,
 * mtimecmp at +0x4000, mtime at +0xbff8. mtime is the hart's modelled time. */
#include <libfdt.h>
#include "rvpmu/machine.h"

#define CLINT_MSIP     0x0000
#define CLINT_MTIMECMP 0x4000
#define CLINT_MTIME    0xbff8

/* Accesses are 4 or 8 bytes, naturally aligned, to the 64-bit registers. */
static int reg64(uint64_t *reg, uint64_t off, uint64_t base, unsigned size,
		 uint64_t *val, int write)
{
	unsigned shift = (unsigned)(off - base) * 8;
	uint64_t mask = size == 8 ? ~0ull : 0xffffffffull << shift;
	if (write)
		*reg = (*reg & ~mask) | ((*val << shift) & mask);
	else
		*val = size == 8 ? *reg : (*reg >> shift) & 0xffffffffull;
	return 0;
}

int clint_access(struct machine *m, uint64_t off, unsigned size, uint64_t *val, int write)
{
	struct hart *h = &m->hart;
	if ((size != 4 && size != 8) || (off & (size - 1)))
		return -1;
	if (off == CLINT_MSIP && size == 4) {
		if (write)
			m->clint.msip = (uint32_t)*val & 1;
		else
			*val = m->clint.msip;
		return 0;
	}
	if (off >= CLINT_MTIMECMP && off < CLINT_MTIMECMP + 8)
		return reg64(&m->clint.mtimecmp, off, CLINT_MTIMECMP, size, val, write);
	if (off >= CLINT_MTIME && off < CLINT_MTIME + 8) {
		uint64_t t = hart_time(h);
		reg64(&t, off, CLINT_MTIME, size, val, write);
		if (write)
			h->time_offset += t - hart_time(h);
		return 0;
	}
	return -1;
}

uint64_t clint_mip(const struct machine *m)
{
	uint64_t mip = m->clint.msip ? 1ull << IRQ_MSI : 0;
	if (hart_time(&m->hart) >= m->clint.mtimecmp)
		mip |= 1ull << IRQ_MTI;
	return mip;
}

int clint_dt(void *fdt, const struct machine *m)
{
	(void)m;
	static const char compat[] = "sifive,clint0\0riscv,clint0";
	fdt32_t irqs[4] = {cpu_to_fdt32(CPU_INTC_PHANDLE), cpu_to_fdt32(IRQ_MSI),
			   cpu_to_fdt32(CPU_INTC_PHANDLE), cpu_to_fdt32(IRQ_MTI)};
	int e = fdt_property(fdt, "compatible", compat, sizeof(compat));
	return e < 0 ? e : fdt_property(fdt, "interrupts-extended", irqs, sizeof(irqs));
}
