/* CLINT at 0x2000000 (SiFive layout, as on QEMU virt): hart i's msip at
 * +4i, its mtimecmp at +0x4000 + 8i, mtime at +0xbff8. mtime is the
 * modelled time of the hart that reads it (the harts' times agree to
 * within a quantum: sched.c). */
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
	if ((size != 4 && size != 8) || (off & (size - 1)))
		return -1;
	if (off < CLINT_MSIP + 4 * m->nharts && size == 4) {
		uint32_t *msip = &m->clint.msip[off / 4];
		if (write)
			*msip = (uint32_t)*val & 1;
		else
			*val = *msip;
		return 0;
	}
	if (off >= CLINT_MTIMECMP && off < CLINT_MTIMECMP + 8 * m->nharts)
		return reg64(&m->clint.mtimecmp[(off - CLINT_MTIMECMP) / 8], off,
			     CLINT_MTIMECMP + (off - CLINT_MTIMECMP) / 8 * 8, size, val, write);
	if (off >= CLINT_MTIME && off < CLINT_MTIME + 8) {
		/* one mtime: every hart's time moves by what the write changes */
		uint64_t t = hart_time(m->cur);
		reg64(&t, off, CLINT_MTIME, size, val, write);
		if (write) {
			uint64_t d = t - hart_time(m->cur);
			for (unsigned i = 0; i < m->nharts; i++)
				m->hart[i].time_offset += d;
		}
		return 0;
	}
	return -1;
}

uint64_t clint_mip(const struct machine *m, const struct hart *h)
{
	unsigned i = machine_hart_index(m, h);
	uint64_t mip = m->clint.msip[i] ? 1ull << IRQ_MSI : 0;
	if (hart_time(h) >= m->clint.mtimecmp[i])
		mip |= 1ull << IRQ_MTI;
	return mip;
}

/* Each hart's software and timer interrupts, in hart order. */
int clint_dt(void *fdt, const struct machine *m)
{
	static const char compat[] = "sifive,clint0\0riscv,clint0";
	fdt32_t irqs[4 * MACHINE_MAX_HARTS];
	for (unsigned i = 0; i < m->nharts; i++) {
		irqs[4 * i] = cpu_to_fdt32(CPU_INTC_PHANDLE + i);
		irqs[4 * i + 1] = cpu_to_fdt32(IRQ_MSI);
		irqs[4 * i + 2] = cpu_to_fdt32(CPU_INTC_PHANDLE + i);
		irqs[4 * i + 3] = cpu_to_fdt32(IRQ_MTI);
	}
	int e = fdt_property(fdt, "compatible", compat, sizeof(compat));
	return e < 0 ? e : fdt_property(fdt, "interrupts-extended", irqs, (int)(16 * m->nharts));
}
