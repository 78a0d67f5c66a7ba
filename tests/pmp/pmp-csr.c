/* pmp-csr: the PMP CSRs' WARL rules, how many entries exist, odd pmpcfg
 * CSRs on RV64, access from S/U. See docs/pmp-tests.md. */
#include "pmp.h"

extern char pmp_csrr_tab[], pmp_csrw_tab[];
static int n;

static long (*csr_fn(const char *tab, u32 csr))(long)
{
	return (long (*)(long))(tab + 8 * (csr - CSR_PMPCFG0));
}

int main(void)
{
	/* every entry off: M is not restricted by unlocked entries */
	pmp_csrw(CSR_PMPCFG0, 0);
	pmp_csrw(CSR_PMPCFG0 + 2, 0);

	/* entries: pmpaddr i keeps a written value iff entry i exists */
	int count = 0, gaps = 0, traps = 0, nonzero = 0;
	for (int i = 0; i < 64; i++) {
		rt_trap_clear();
		pmp_addr(i, 0x1234 + (u64)i);
		u64 v = pmp_csrr(CSR_PMPADDR0 + (u32)i);
		int t = rt_trap.count != 0;
		if (!t && v == 0x1234 + (u64)i) {
			if (count != i)
				gaps++;
			count++;
		} else if (t) {
			traps++;
		} else if (v) {
			nonzero++;
		}
	}
	rt_puts("info pmp_entries ");
	rt_putdec(count);
	rt_puts("\n");
	rt_check(++n, "entries: 16 or 64 (0 would fail the other programs)", count == 16 ||
		 count == 64, (u64)count, 64);
	rt_eq(++n, "entries: the lowest-numbered ones", gaps, 0);
	rt_eq(++n, "pmpaddr of a missing entry: no trap (read-only zero)", traps, 0);
	rt_eq(++n, "pmpaddr of a missing entry: reads 0", nonzero, 0);
	/* even pmpcfg CSRs: bytes of existing entries keep R (A=OFF), others
	 * read 0; none traps */
	int cfg_bad = 0, cfg_traps = 0;
	for (int k = 0; k < 16; k += 2) {
		rt_trap_clear();
		pmp_csrw(CSR_PMPCFG0 + (u32)k, 0x0101010101010101ul);
		u64 v = pmp_csrr(CSR_PMPCFG0 + (u32)k);
		u64 want = 0;
		for (int b = 0; b < 8; b++)
			if (k * 4 + b < count)
				want |= 1ul << (8 * b);
		if (rt_trap.count)
			cfg_traps++;
		else if (v != want)
			cfg_bad++;
		if (!rt_trap.count)
			pmp_csrw(CSR_PMPCFG0 + (u32)k, 0);
	}
	rt_eq(++n, "even pmpcfg0..14: none traps", cfg_traps, 0);
	rt_eq(++n, "even pmpcfg0..14: bytes of missing entries read 0", cfg_bad, 0);

	/* odd pmpcfg CSRs do not exist on RV64 */
	static const char *const odd[] = {
		"pmpcfg1 read -> illegal", "pmpcfg3 read -> illegal", "pmpcfg5 read -> illegal",
		"pmpcfg7 read -> illegal", "pmpcfg9 read -> illegal", "pmpcfg11 read -> illegal",
		"pmpcfg13 read -> illegal", "pmpcfg15 read -> illegal"};
	for (int k = 1; k < 16; k += 2) {
		rt_trap_clear();
		pmp_csrr(CSR_PMPCFG0 + (u32)k);
		rt_check_trap(++n, odd[k / 2], (u64)csr_fn(pmp_csrr_tab, CSR_PMPCFG0 + (u32)k),
			      C_ILLEGAL, ~0ul);
	}
	rt_trap_clear();
	pmp_csrw(CSR_PMPCFG0 + 1, 0x1f);
	rt_check_trap(++n, "pmpcfg1 write -> illegal", (u64)csr_fn(pmp_csrw_tab, CSR_PMPCFG0 + 1),
		      C_ILLEGAL, ~0ul);

	/* pmpaddr: bits 53:0 writable (G = 0), 63:54 read 0 */
	pmp_addr(0, ~0ul);
	u64 a = pmp_csrr(CSR_PMPADDR0);
	rt_eq(++n, "pmpaddr0 = ~0 reads back bits 53:0", a, (1ul << 54) - 1);
	rt_eq(++n, "granularity G = 0: bit 0 of pmpaddr is writable with A = OFF", a & 1, 1);
	pmp_addr(0, 0);

	/* pmpcfg bytes: R=0 W=1 is reserved (reads back with R and W clear),
	 * bits 6:5 read 0, the rest as written */
	static const unsigned char wr[8] = {0x02, 0x06, 0x61, 0x7f, 0x0b, 0x13, 0x1d, 0x1a};
	static const unsigned char rd[8] = {0x00, 0x04, 0x01, 0x1f, 0x0b, 0x13, 0x1d, 0x18};
	static const char *const what[8] = {
		"pmpcfg W alone reads back 0", "pmpcfg W|X reads back X",
		"pmpcfg reserved bits 6:5 read 0", "pmpcfg 0x7f reads back 0x1f",
		"pmpcfg TOR|R|W kept", "pmpcfg NA4|R|W kept", "pmpcfg NAPOT|R|X kept",
		"pmpcfg NAPOT|W reads back NAPOT"};
	u64 v = 0;
	for (int b = 0; b < 8; b++)
		v |= (u64)wr[b] << (8 * b);
	pmp_csrw(CSR_PMPCFG0, v);
	v = pmp_csrr(CSR_PMPCFG0);
	for (int b = 0; b < 8; b++)
		rt_eq(++n, what[b], (v >> (8 * b)) & 0xff, rd[b]);
	pmp_csrw(CSR_PMPCFG0, 0);

	/* PMP CSRs are M-only */
	pmp_reset();
	rt_trap_clear();
	rt_run(PRV_S, csr_fn(pmp_csrr_tab, CSR_PMPCFG0), 0);
	rt_check_trap(++n, "S: csrr pmpcfg0 -> illegal", (u64)csr_fn(pmp_csrr_tab, CSR_PMPCFG0),
		      C_ILLEGAL, ~0ul);
	rt_trap_clear();
	rt_run(PRV_S, csr_fn(pmp_csrw_tab, CSR_PMPADDR0), 0x555);
	rt_check_trap(++n, "S: csrw pmpaddr0 -> illegal", (u64)csr_fn(pmp_csrw_tab, CSR_PMPADDR0),
		      C_ILLEGAL, ~0ul);
	rt_trap_clear();
	rt_run(PRV_U, csr_fn(pmp_csrr_tab, CSR_PMPADDR0 + 3), 0);
	rt_check_trap(++n, "U: csrr pmpaddr3 -> illegal",
		      (u64)csr_fn(pmp_csrr_tab, CSR_PMPADDR0 + 3), C_ILLEGAL, ~0ul);
	rt_eq(++n, "S/U writes did not change pmpaddr0", pmp_csrr(CSR_PMPADDR0), 0);
	return rt_done();
}
