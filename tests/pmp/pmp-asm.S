/* PMP test helpers: accessors for the 80 PMP CSR numbers (0x3a0-0x3ef,
 * computed at run time) and one-instruction access probes. Every probe
 * starts with its access, so a fault's mepc is the probe's address; the
 * default trap policy skips it and the probe returns. */
	.option norelax
	.option norvc
	.text

/* entry k of pmp_csrr_tab: "csrr a0, 0x3a0+k; ret"; of pmp_csrw_tab:
 * "csrw 0x3a0+k, a0; ret" */
	.balign 8
	.globl pmp_csrr_tab
pmp_csrr_tab:
	.set k, 0
	.rept 80
	csrr a0, (0x3a0 + k)
	ret
	.set k, k + 1
	.endr
	.globl pmp_csrw_tab
pmp_csrw_tab:
	.set k, 0
	.rept 80
	csrw (0x3a0 + k), a0
	ret
	.set k, k + 1
	.endr

.macro PROBE name, insn:vararg
	.balign 4
	.globl probe_\name
probe_\name:
	\insn
	ret
.endm

	PROBE ld, ld a0, 0(a0)
	PROBE lw, lw a0, 0(a0)
	PROBE lb, lb a0, 0(a0)
	PROBE sd, sd a0, 0(a0)
	PROBE sw, sw a0, 0(a0)
	PROBE sb, sb a0, 0(a0)
	PROBE amoadd_w, amoadd.w a0, a0, (a0)
	PROBE amoswap_d, amoswap.d a0, a0, (a0)
	PROBE lr_w, lr.w a0, (a0)
	PROBE lr_d, lr.d a0, (a0)
	/* instruction fetch: the target holds "ret" (or faults; the trap
	 * hook in pmp.c then resumes at ra) */
	PROBE jmp, jr a0

/* probe_mprv_ld/sd(addr, mpp): the access in M with mstatus.MPRV = 1
 * and MPP = mpp (0, 1 or 3); MPRV is cleared again afterwards (a trap's
 * mret leaves it set with MPP = U). The access is at probe_mprv_ld_at /
 * probe_mprv_sd_at. */
.macro MPRV_PROBE name, insn:vararg
	.balign 4
	.globl probe_mprv_\name, probe_mprv_\name\()_at
probe_mprv_\name:
	li t0, (3 << 11)
	csrc mstatus, t0
	slli a1, a1, 11
	li t0, (1 << 17)
	or a1, a1, t0
	csrs mstatus, a1
probe_mprv_\name\()_at:
	\insn
	csrc mstatus, t0
	ret
.endm
	MPRV_PROBE ld, ld a0, 0(a0)
	MPRV_PROBE sd, sd a0, 0(a0)

/* probe_lrsc_w(addr): lr.w then sc.w of the loaded value; returns the SC
 * result (0 = stored), or addr when the SC faulted (at probe_lrsc_w_sc) */
	.balign 4
	.globl probe_lrsc_w, probe_lrsc_w_sc
probe_lrsc_w:
	lr.w t0, (a0)
probe_lrsc_w_sc:
	sc.w a0, t0, (a0)
	ret
