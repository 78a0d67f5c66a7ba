/* Tiny bare-metal runtime for the tests/bare conformance tests: UART
 * output, numbered checks, trap recording, running code in S or U. */
#ifndef RT_H
#define RT_H
#include "rt_defs.h"

typedef unsigned long u64;
typedef unsigned int u32;

#define STR_(x) #x
#define STR(x) STR_(x)
#define csrr(csr) ({ u64 v_; asm volatile("csrr %0, " STR(csr) : "=r"(v_) :: "memory"); v_; })
#define csrw(csr, v) asm volatile("csrw " STR(csr) ", %0" :: "r"((u64)(v)) : "memory")
#define csrs(csr, v) asm volatile("csrs " STR(csr) ", %0" :: "r"((u64)(v)) : "memory")
#define csrc(csr, v) asm volatile("csrc " STR(csr) ", %0" :: "r"((u64)(v)) : "memory")

/* CSR numbers the assembler may not know by name */
#define CSR_MCOUNTINHIBIT 0x320
#define CSR_MCYCLECFG 0x321
#define CSR_MINSTRETCFG 0x322
#define CSR_SCOUNTOVF 0xda0
#define CSR_MHPMEVENT3 0x323
#define CSR_MHPMEVENT4 0x324
#define CSR_MHPMCOUNTER3 0xb03
#define CSR_MHPMCOUNTER4 0xb04
#define CSR_HPMCOUNTER3 0xc03

#define MSTATUS_SIE (1ul << 1)
#define MSTATUS_MIE (1ul << 3)
#define MSTATUS_SPIE (1ul << 5)
#define MSTATUS_MPIE (1ul << 7)
#define MSTATUS_SPP (1ul << 8)
#define MSTATUS_MPP (3ul << 11)
#define MSTATUS_FS (3ul << 13)
#define MSTATUS_XS (3ul << 15)
#define MSTATUS_MPRV (1ul << 17)
#define MSTATUS_SUM (1ul << 18)
#define MSTATUS_MXR (1ul << 19)
#define MSTATUS_TW (1ul << 21)
#define MSTATUS_SD (1ul << 63)
#define MSTATUS_GVA (1ul << 38)
#define MSTATUS_MPV (1ul << 39)

#define PRV_U 0
#define PRV_S 1
#define PRV_M 3
/* the hypervisor extension's V=1 modes, for rt_run (MPV with MPP) */
#define PRV_V 4
#define PRV_VU (PRV_V | PRV_U)
#define PRV_VS (PRV_V | PRV_S)

#define IRQ_LCOF 13
#define CAUSE_INT (1ul << 63)

/* mhpmevent bits (Sscofpmf) */
#define HPM_OF (1ul << 63)
#define HPM_MINH (1ul << 62)
#define HPM_SINH (1ul << 61)
#define HPM_UINH (1ul << 60)
#define HPM_VSINH (1ul << 59)
#define HPM_VUINH (1ul << 58)
/* event selector for retired instructions (QEMU virt / SBI hw event 2) */
#define EV_INSTRET 2ul

/* CSR instruction encodings (Zicsr): funct3 1..3 = RW RS RC, 5..7 = imm */
#define ENC_CSR(f3, rd, rs1, csr) \
	(((u32)(csr) << 20) | ((u32)(rs1) << 15) | ((u32)(f3) << 12) | ((u32)(rd) << 7) | 0x73u)

struct rt_trap {
	volatile long count;	/* traps recorded since rt_trap_clear */
	volatile u64 cause, epc, tval, status;
	volatile char level;	/* 'M' or 'S': who took it */
	volatile u64 regs[32];	/* interrupted registers */
};
extern struct rt_trap rt_trap;
/* Hook called first for every trap; return non-zero if it handled it
 * (then the default record-and-skip does not run). */
extern int (*rt_trap_hook)(u64 *frame, u64 cause, u64 epc, char level);
extern volatile u64 rt_vec_slot, rt_vec_cause, rt_vec_count;
extern char rt_vec_table[];
extern u64 rt_boot_fdt;

void rt_putc(int c);
void rt_puts(const char *s);
void rt_puthex(u64 v);
void rt_putdec(long v);
void rt_exit(long code) __attribute__((noreturn));

void rt_trap_clear(void);
/* Check N: record and print; the test's exit code is its first failure */
int rt_check(int n, const char *what, int ok, u64 got, u64 want);
static inline int rt_eq_(int n, const char *what, u64 got, u64 want)
{
	return rt_check(n, what, got == want, got, want);
}
#define rt_eq(n, what, got, want) rt_eq_((n), (what), (u64)(got), (u64)(want))
/* Check N: exactly one trap since rt_trap_clear, with CAUSE, at PC, with
 * TVAL (TVAL ~0 = do not compare) */
int rt_check_trap(int n, const char *what, u64 pc, u64 cause, u64 tval);
int rt_check_notrap(int n, const char *what);
int rt_done(void);

/* Run fn(arg) in privilege mode MODE (PRV_S or PRV_U, or with the
 * hypervisor extension PRV_VS or PRV_VU) and return its result; traps
 * taken meanwhile go to the recording handlers. */
long rt_run(int mode, long (*fn)(long), long arg);

/* csr_read_dyn(0xb03) etc. for bases 0xb00, 0x320, 0xc00 (+0..31) */
u64 csr_read_dyn(u32 csr);
void csr_write_dyn(u32 csr, u64 v);

/* Does the boot device tree advertise ISA extension NAME? -1: no tree */
int rt_fdt_has_ext(const char *name);

/* Counting across exact instruction sequences (4-byte nops). A CSR read
 * returns the value before the reading instruction retires. */
#define NOPS(n) ".rept " #n "\nnop\n.endr\n"
/* delta of CSR across "read; N nops; read" = N + 1 (the first read) */
#define DELTA_NOPS(csr, n) ({ u64 a_, b_; \
	asm volatile("csrr %0, " STR(csr) "\n" NOPS(n) "csrr %1, " STR(csr) : "=&r"(a_), "=&r"(b_) :: "memory"); \
	b_ - a_; })
/* Checks N and N+1, a change of what counts: across "csrr a, CTR; csrw
 * CTL, V; csrr b, CTR; csrr c, CTR", b - a (the read a and the csrw, as
 * things stood before the csrw: what counts is decided before each
 * instruction) must be W1, and c - b (the read b, as they stand after) W2. */
#define EDGE(n, what, ctr, ctl, v, w1, w2) do { u64 a_, b_, c_; \
	asm volatile("csrr %0, " STR(ctr) "\n csrw " STR(ctl) ", %3\n csrr %1, " STR(ctr) \
		     "\n csrr %2, " STR(ctr) : "=&r"(a_), "=&r"(b_), "=&r"(c_) : "r"((u64)(v)) : "memory"); \
	rt_eq((n), what ": read, csrw, read", b_ - a_, (w1)); \
	rt_eq((n) + 1, what ": the next read", c_ - b_, (w2)); } while (0)
/* rt_probe_X(mode): counter X (minstret, mcycle, mhpmcounter3) across "csrr
 * in M; mret to MODE (PRV_S or PRV_U); 10 nops there; ecall back to M",
 * up to the trap handler's first instruction, which reads it: the read
 * and the mret count in M, the nops in MODE, the ecall nowhere (an
 * instruction that traps does not retire). */
u64 rt_probe_minstret(u64 mode);
u64 rt_probe_mcycle(u64 mode);
u64 rt_probe_hpm3(u64 mode);

/* Run one instruction (assembler text) at a known address: returns the
 * address; rt_trap tells whether and how it trapped. */
#define TRY(insn, ...) ({ u64 pc_; rt_trap_clear(); \
	asm volatile(".option push\n.option norvc\nli a7, 0\nla %0, .Ltry%=\n.Ltry%=: " insn "\n.option pop" \
		: "=&r"(pc_) : __VA_ARGS__ : "t0", "t1", "t2", "a7", "memory"); pc_; })

#endif
