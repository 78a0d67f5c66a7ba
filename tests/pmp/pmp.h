/* Shared helpers of the PMP conformance programs (tests/pmp): PMP CSR
 * access by number, entry set-up, and "run this access in mode M/S/U and
 * check its trap" (see docs/pmp-tests.md). */
#ifndef PMP_TEST_H
#define PMP_TEST_H
#include "rt.h"

#define CSR_PMPCFG0 0x3a0
#define CSR_PMPADDR0 0x3b0

/* pmpcfg fields (Privileged ISA, "Physical Memory Protection") */
#define PMP_R 0x01
#define PMP_W 0x02
#define PMP_X 0x04
#define PMP_TOR 0x08
#define PMP_NA4 0x10
#define PMP_NAPOT 0x18
#define PMP_L 0x80

/* exception causes */
#define C_ILLEGAL 2
#define C_FETCH 1
#define C_LOAD 5
#define C_STORE 7

/* entry used by every program for the image (code, data, stacks):
 * NAPOT 0x80000000 + 1 MiB, RWX; it exists on 16- and 64-entry harts and
 * loses to every test entry (0..14) */
#define BASE_ENTRY 15
#define IMAGE_BASE 0x80000000ul
#define IMAGE_SIZE 0x100000ul
/* test memory: outside the image entry, so no entry matches it unless a
 * test sets one up */
#define TA 0x80100000ul

/* pmpaddr value of a NAPOT region (size a power of two >= 8, base aligned) */
#define NAPOT(base, size) (((u64)(base) | ((u64)(size) / 2 - 1)) >> 2)

/* CSR 0x3a0 + k read/write; a trap is recorded in rt_trap and skipped */
u64 pmp_csrr(u32 csr);
void pmp_csrw(u32 csr, u64 v);
/* entry i's cfg byte (read-modify-write of its pmpcfg register) / read */
void pmp_cfg(int i, unsigned cfg);
unsigned pmp_cfg_get(int i);
void pmp_addr(int i, u64 pmpaddr);
void pmp_set(int i, unsigned cfg, u64 pmpaddr);
/* every entry 0..15 off and 0, then the image entry */
void pmp_reset(void);

/* the probes of pmp-asm.S: one access at the probe's own address */
long probe_ld(long), probe_lw(long), probe_lb(long);
long probe_sd(long), probe_sw(long), probe_sb(long);
long probe_amoadd_w(long), probe_amoswap_d(long), probe_lr_w(long), probe_lr_d(long);
long probe_jmp(long);
long probe_mprv_ld(long, long), probe_mprv_sd(long, long);
extern char probe_mprv_ld_at[], probe_mprv_sd_at[];
long probe_lrsc_w(long);
extern char probe_lrsc_w_sc[];

/* Check N: run PROBE(addr) in MODE (PRV_M/S/U); CAUSE 0 = must not trap,
 * else exactly one trap with that cause, mtval = addr and mepc = the
 * access (addr itself for probe_jmp). */
int expect(int n, const char *what, int mode, long (*probe)(long), u64 addr, u64 cause);
/* put "ret" at addr (for probe_jmp), from M */
void put_ret(u64 addr);
/* install the trap hook that resumes a faulting fetch at ra */
void pmp_hooks(void);

#endif
