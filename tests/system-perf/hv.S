/* hv.S: known instruction counts in HS, VS and VU for the host tool's
 * :G/:H modifiers (tests/system-perf). Started in M-mode (--bios none on
 * the virt profile, whose core has H): M sets up and enters HS; HS runs
 * 2*1000 + 9 instructions and enters VS (hstatus.SPV, sret); VS runs
 * 2*1500 + 7 and enters VU (sret with vsstatus.SPP = 0); VU runs
 * 2*1800 + 1, then ecalls into M (nothing is delegated; the ecall itself
 * does not retire), which ends the run through sifive_test. Each count
 * includes the xRET that leaves the mode; M runs 17 (_start, with li's
 * two-instruction expansions) + 4 (m_trap up to its store). */
	.option norelax
	.section .text.init, "ax"
	.globl _start, hs, vs, vu, m_trap
	.type _start, @function
_start:
	la t0, m_trap
	csrw mtvec, t0
	li t0, -1               /* PMP: S and U reach all memory */
	csrw pmpaddr0, t0
	li t0, 0x1f
	csrw pmpcfg0, t0
	la t0, hs
	csrw mepc, t0
	li t0, 3 << 11
	csrc mstatus, t0
	li t0, 1 << 11          /* MPP = S, MPV = 0: HS */
	csrs mstatus, t0
	mret

	.size _start, . - _start
	.type hs, @function
hs:	li t0, 1000             /* 1 */
1:	addi t0, t0, -1         /* 2 * 1000 */
	bnez t0, 1b
	li t1, 1 << 7           /* hstatus.SPV: 2 */
	csrs 0x600, t1
	li t1, 1 << 8           /* sstatus.SPP = S: 2 */
	csrs sstatus, t1
	la t1, vs               /* 2 */
	csrw sepc, t1           /* 1 */
	sret                    /* 1: 2009 in HS */

	.size hs, . - hs
	.type vs, @function
vs:	li t0, 1500             /* 1 */
1:	addi t0, t0, -1         /* 2 * 1500 */
	bnez t0, 1b
	la t1, vu               /* 2 */
	csrw sepc, t1           /* vsepc: 1 */
	li t2, 1 << 8           /* vsstatus.SPP = U: 2 */
	csrc sstatus, t2
	sret                    /* 1: 3007 in VS */

	.size vs, . - vs
	.type vu, @function
vu:	li t0, 1800             /* 1 */
1:	addi t0, t0, -1         /* 2 * 1800 */
	bnez t0, 1b
	ecall                   /* does not retire: 3601 in VU */

	.size vu, . - vu
	.balign 4
	.type m_trap, @function
m_trap:	li t0, 0x100000         /* sifive_test: pass */
	li t1, 0x5555
	sw t1, 0(t0)
2:	j 2b
	.size m_trap, . - m_trap
