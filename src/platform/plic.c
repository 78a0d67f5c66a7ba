/* PLIC at 0xc000000 (SiFive layout, as on QEMU virt): priorities at +0,
 * pending at +0x1000, enables at +0x2000 (0x80 per context), threshold and
 * claim/complete at +0x200000 (0x1000 per context). Registers are 32 bits;
 * reserved offsets in the window read 0 and ignore writes, as QEMU's do. */
#include <libfdt.h>
#include "rvpmu/machine.h"

#define PLIC_PENDING   0x1000
#define PLIC_ENABLE    0x2000
#define PLIC_ENABLE_STRIDE 0x80
#define PLIC_CONTEXT   0x200000
#define PLIC_CONTEXT_STRIDE 0x1000
#define PLIC_PRIO_MASK 7u        /* 3 priority bits */

static int bit(const uint32_t *w, unsigned i)
{
	return (w[i / 32] >> (i % 32)) & 1;
}

static void set_bit(uint32_t *w, unsigned i, int v)
{
	if (v)
		w[i / 32] |= 1u << (i % 32);
	else
		w[i / 32] &= ~(1u << (i % 32));
}

/* The bits of word w that are sources (1..PLIC_NDEV; 0 does not exist). */
static uint32_t sources(unsigned w)
{
	uint32_t m = ~0u;
	if (!w)
		m &= ~1u;
	if (w == PLIC_NDEV / 32)
		m &= (2u << (PLIC_NDEV % 32)) - 1;
	return w > PLIC_NDEV / 32 ? 0 : m;
}

/* Pending word: the gateway holds back a claimed source until completion. */
static uint32_t pending(const struct plic *p, unsigned w)
{
	return p->level[w] & ~p->claimed[w] & sources(w);
}

/* The source context ctx would take now: highest priority above the
 * threshold among pending and enabled ones, ties to the lowest ID; 0 if
 * none. */
static unsigned best(const struct plic *p, unsigned ctx)
{
	unsigned id = 0, prio = p->threshold[ctx];
	for (unsigned w = 0; w < PLIC_WORDS; w++) {
		uint32_t cand = pending(p, w) & p->enable[ctx][w];
		while (cand) {
			unsigned s = w * 32 + (unsigned)__builtin_ctz(cand);
			cand &= cand - 1;
			if (p->prio[s] > prio)
				id = s, prio = p->prio[s];
		}
	}
	return id;
}

void plic_set_level(struct plic *p, unsigned src, int level)
{
	if (src && src <= PLIC_NDEV)
		set_bit(p->level, src, level);
}

uint64_t plic_mip(const struct plic *p, unsigned i)
{
	uint64_t mip = 0;
	if (best(p, 2 * i))
		mip |= 1ull << IRQ_MEI;
	if (best(p, 2 * i + 1))
		mip |= 1ull << IRQ_SEI;
	return mip;
}

int plic_access(struct machine *m, uint64_t off, unsigned size, uint64_t *val, int write)
{
	struct plic *p = &m->plic;
	if (size != 4 || (off & 3))
		return -1;
	uint32_t v = write ? (uint32_t)*val : 0, r = 0;
	if (off <= 4 * PLIC_NDEV) {
		unsigned s = (unsigned)(off / 4);
		if (write && s)
			p->prio[s] = v & PLIC_PRIO_MASK;
		r = p->prio[s];
	} else if (off >= PLIC_PENDING && off < PLIC_PENDING + 4 * PLIC_WORDS) {
		r = pending(p, (unsigned)(off - PLIC_PENDING) / 4);  /* read-only */
	} else if (off >= PLIC_ENABLE && off < PLIC_ENABLE + 2 * m->nharts * PLIC_ENABLE_STRIDE) {
		unsigned ctx = (unsigned)(off - PLIC_ENABLE) / PLIC_ENABLE_STRIDE;
		unsigned w = (unsigned)(off - PLIC_ENABLE) % PLIC_ENABLE_STRIDE / 4;
		if (w < PLIC_WORDS) {
			if (write)
				p->enable[ctx][w] = v & sources(w);
			r = p->enable[ctx][w];
		}
	} else if (off >= PLIC_CONTEXT && off < PLIC_CONTEXT + 2 * m->nharts * PLIC_CONTEXT_STRIDE) {
		unsigned ctx = (unsigned)(off - PLIC_CONTEXT) / PLIC_CONTEXT_STRIDE;
		switch ((off - PLIC_CONTEXT) % PLIC_CONTEXT_STRIDE) {
		case 0:
			if (write)
				p->threshold[ctx] = v & PLIC_PRIO_MASK;
			r = p->threshold[ctx];
			break;
		case 4:
			if (write) {
				/* completion of a source not enabled for this
				 * context is ignored (PLIC spec) */
				if (v && v <= PLIC_NDEV && bit(p->enable[ctx], v))
					set_bit(p->claimed, v, 0);
			} else if ((r = best(p, ctx))) {
				set_bit(p->claimed, r, 1);
			}
			break;
		}
	}
	if (!write)
		*val = r;
	return 0;
}

int plic_dt(void *fdt, const struct machine *m)
{
	static const char compat[] = "sifive,plic-1.0.0\0riscv,plic0";
	fdt32_t irqs[4 * MACHINE_MAX_HARTS];   /* contexts 2i and 2i+1: hart i's M and S */
	for (unsigned i = 0; i < m->nharts; i++) {
		irqs[4 * i] = cpu_to_fdt32(CPU_INTC_PHANDLE + i);
		irqs[4 * i + 1] = cpu_to_fdt32(IRQ_MEI);
		irqs[4 * i + 2] = cpu_to_fdt32(CPU_INTC_PHANDLE + i);
		irqs[4 * i + 3] = cpu_to_fdt32(IRQ_SEI);
	}
	int e;
	if ((e = fdt_property(fdt, "compatible", compat, sizeof(compat))) < 0 ||
	    (e = fdt_property_u32(fdt, "#address-cells", 0)) < 0 ||
	    (e = fdt_property_u32(fdt, "#interrupt-cells", 1)) < 0 ||
	    (e = fdt_property(fdt, "interrupt-controller", NULL, 0)) < 0 ||
	    (e = fdt_property(fdt, "interrupts-extended", irqs, (int)(16 * m->nharts))) < 0 ||
	    (e = fdt_property_u32(fdt, "riscv,ndev", PLIC_NDEV)) < 0)
		return e;
	return fdt_property_u32(fdt, "phandle", PLIC_PHANDLE);
}
