/* Helpers shared by the tests/pmp programs (declared in pmp.h). */
#include "pmp.h"

extern char pmp_csrr_tab[], pmp_csrw_tab[];

u64 pmp_csrr(u32 csr)
{
	register u64 a0 asm("a0") = 0;
	asm volatile("jalr %1" : "+r"(a0) : "r"(pmp_csrr_tab + 8 * (csr - CSR_PMPCFG0))
		     : "ra", "memory");
	return a0;
}

void pmp_csrw(u32 csr, u64 v)
{
	register u64 a0 asm("a0") = v;
	asm volatile("jalr %1" : "+r"(a0) : "r"(pmp_csrw_tab + 8 * (csr - CSR_PMPCFG0))
		     : "ra", "memory");
}

/* RV64: entry i's byte is in pmpcfg(2 * (i / 8)) */
static u32 cfg_csr(int i)
{
	return CSR_PMPCFG0 + 2 * (u32)(i / 8);
}

void pmp_cfg(int i, unsigned cfg)
{
	unsigned sh = 8 * (unsigned)(i % 8);
	u64 v = pmp_csrr(cfg_csr(i));
	pmp_csrw(cfg_csr(i), (v & ~(0xfful << sh)) | ((u64)(cfg & 0xff) << sh));
}

unsigned pmp_cfg_get(int i)
{
	return (unsigned)(pmp_csrr(cfg_csr(i)) >> (8 * (i % 8))) & 0xff;
}

void pmp_addr(int i, u64 pmpaddr)
{
	pmp_csrw(CSR_PMPADDR0 + (u32)i, pmpaddr);
}

void pmp_set(int i, unsigned cfg, u64 pmpaddr)
{
	pmp_addr(i, pmpaddr);
	pmp_cfg(i, cfg);
}

void pmp_reset(void)
{
	pmp_csrw(CSR_PMPCFG0, 0);
	pmp_csrw(CSR_PMPCFG0 + 2, 0);
	for (int i = 0; i < 16; i++)
		pmp_addr(i, 0);
	pmp_set(BASE_ENTRY, PMP_NAPOT | PMP_R | PMP_W | PMP_X, NAPOT(IMAGE_BASE, IMAGE_SIZE));
	/* PMP changes need an sfence.vma before they bind translations */
	asm volatile("sfence.vma" ::: "memory");
}

int expect(int n, const char *what, int mode, long (*probe)(long), u64 addr, u64 cause)
{
	rt_trap_clear();
	if (mode == PRV_M)
		probe((long)addr);
	else
		rt_run(mode, probe, (long)addr);
	if (!cause)
		return rt_check_notrap(n, what);
	return rt_check_trap(n, what, probe == probe_jmp ? addr : (u64)probe, cause, addr);
}

void put_ret(u64 addr)
{
	*(volatile u32 *)addr = 0x00008067;	/* jalr x0, 0(ra) */
	asm volatile("fence.i" ::: "memory");
}

/* A refused fetch: record it like the default policy, but resume at the
 * return address (the faulting address holds nothing to skip). */
static int fetch_hook(u64 *f, u64 cause, u64 epc, char level)
{
	if (cause != C_FETCH || level != 'M')
		return 0;
	rt_trap.count++;
	rt_trap.cause = cause;
	rt_trap.epc = epc;
	rt_trap.tval = csrr(mtval);
	rt_trap.status = csrr(mstatus);
	rt_trap.level = level;
	csrw(mepc, f[1]);
	return 1;
}

void pmp_hooks(void)
{
	rt_trap_hook = fetch_hook;
}
