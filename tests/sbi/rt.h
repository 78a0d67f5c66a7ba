/* Tiny S-mode runtime for the SBI conformance payloads: SBI calls,
 * console, numbered checks, LCOFI recording, exit. See docs/sbi-tests.md. */
#ifndef SBI_RT_H
#define SBI_RT_H

typedef unsigned long u64;
typedef unsigned int u32;

#define STR_(x) #x
#define STR(x) STR_(x)
#define csrr(csr) ({ u64 v_; asm volatile("csrr %0, " STR(csr) : "=r"(v_) :: "memory"); v_; })
#define csrs(csr, v) asm volatile("csrs " STR(csr) ", %0" :: "r"((u64)(v)) : "memory")
#define csrc(csr, v) asm volatile("csrc " STR(csr) ", %0" :: "r"((u64)(v)) : "memory")

#define CSR_SCOUNTOVF 0xda0
#define SSTATUS_SIE (1ul << 1)
#define IRQ_LCOF 13
#define CAUSE_INT (1ul << 63)

/* SBI spec "Binary Encoding": error codes */
#define SBI_SUCCESS 0
#define SBI_ERR_FAILED -1
#define SBI_ERR_NOT_SUPPORTED -2
#define SBI_ERR_INVALID_PARAM -3
#define SBI_ERR_DENIED -4
#define SBI_ERR_INVALID_ADDRESS -5
#define SBI_ERR_ALREADY_AVAILABLE -6
#define SBI_ERR_ALREADY_STARTED -7
#define SBI_ERR_ALREADY_STOPPED -8
#define SBI_ERR_NO_SHMEM -9

/* extension IDs */
#define SBI_EXT_LEGACY_SET_TIMER 0x00
#define SBI_EXT_LEGACY_PUTCHAR 0x01
#define SBI_EXT_BASE 0x10
#define SBI_EXT_TIME 0x54494D45
#define SBI_EXT_IPI 0x735049
#define SBI_EXT_RFENCE 0x52464E43
#define SBI_EXT_HSM 0x48534D
#define SBI_EXT_SRST 0x53525354
#define SBI_EXT_PMU 0x504D55
#define SBI_EXT_DBCN 0x4442434E

/* Base FIDs */
#define SBI_BASE_GET_SPEC_VERSION 0
#define SBI_BASE_GET_IMPL_ID 1
#define SBI_BASE_GET_IMPL_VERSION 2
#define SBI_BASE_PROBE_EXT 3
#define SBI_BASE_GET_MVENDORID 4
#define SBI_BASE_GET_MARCHID 5
#define SBI_BASE_GET_MIMPID 6

/* PMU FIDs and flags (SBI spec "Performance Monitoring Unit Extension") */
#define SBI_PMU_NUM_COUNTERS 0
#define SBI_PMU_COUNTER_GET_INFO 1
#define SBI_PMU_COUNTER_CFG_MATCH 2
#define SBI_PMU_COUNTER_START 3
#define SBI_PMU_COUNTER_STOP 4
#define SBI_PMU_COUNTER_FW_READ 5
#define SBI_PMU_COUNTER_FW_READ_HI 6
#define SBI_PMU_SNAPSHOT_SET_SHMEM 7
#define SBI_PMU_EVENT_GET_INFO 8

#define SBI_PMU_CFG_FLAG_SKIP_MATCH (1ul << 0)
#define SBI_PMU_CFG_FLAG_CLEAR_VALUE (1ul << 1)
#define SBI_PMU_CFG_FLAG_AUTO_START (1ul << 2)
#define SBI_PMU_CFG_FLAG_SET_VUINH (1ul << 3)
#define SBI_PMU_CFG_FLAG_SET_VSINH (1ul << 4)
#define SBI_PMU_CFG_FLAG_SET_UINH (1ul << 5)
#define SBI_PMU_CFG_FLAG_SET_SINH (1ul << 6)
#define SBI_PMU_CFG_FLAG_SET_MINH (1ul << 7)
#define SBI_PMU_START_SET_INIT_VALUE (1ul << 0)
#define SBI_PMU_START_FLAG_INIT_SNAPSHOT (1ul << 1)
#define SBI_PMU_STOP_FLAG_RESET (1ul << 0)
#define SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT (1ul << 1)

#define SBI_PMU_HW_CPU_CYCLES 0x00001ul
#define SBI_PMU_HW_INSTRUCTIONS 0x00002ul
#define SBI_PMU_FW_SET_TIMER 0xF0005ul

/* counter_info fields */
#define CINFO_CSR(i) ((i) & 0xfff)
#define CINFO_WIDTH(i) (((i) >> 12) & 0x3f)
#define CINFO_FW(i) ((i) >> 63)

struct sbiret {
	long error;
	long value;
};

struct sbiret sbi_ecall(long eid, long fid, u64 a0, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5);
#define sbi0(e, f) sbi_ecall(e, f, 0, 0, 0, 0, 0, 0)
#define sbi1(e, f, a) sbi_ecall(e, f, a, 0, 0, 0, 0, 0)
#define sbi2(e, f, a, b) sbi_ecall(e, f, a, b, 0, 0, 0, 0)
#define sbi3(e, f, a, b, c) sbi_ecall(e, f, a, b, c, 0, 0, 0)
#define sbi4(e, f, a, b, c, d) sbi_ecall(e, f, a, b, c, d, 0, 0)
#define sbi5(e, f, a, b, c, d, g) sbi_ecall(e, f, a, b, c, d, g, 0)

/* PMU wrappers */
struct sbiret pmu_get_info(u64 idx);
struct sbiret pmu_cfg(u64 base, u64 mask, u64 flags, u64 event, u64 data);
struct sbiret pmu_start(u64 base, u64 mask, u64 flags, u64 ival);
struct sbiret pmu_stop(u64 base, u64 mask, u64 flags);
struct sbiret pmu_fw_read(u64 idx);

/* Counter discovery shared by the PMU payloads (Linux-style probe). */
struct pmu_layout {
	u64 num;	/* num_counters */
	u64 hw_mask;	/* counters with type 0 (ids < 64) */
	u64 fw_mask;	/* counters with type 1 */
	u64 info[64];	/* counter_info, 0 where get_info failed */
	long err[64];	/* get_info error per id */
};
void pmu_probe(struct pmu_layout *l);
/* A started firmware counter on this hart counting event idx, or -1
 * (each hart finds its firmware counters: the layout is per hart). */
long fw_counter(u64 idx);
/* Its value, or -1000 + the SBI error. */
long fw_read(long ctr);
/* Read the counter CSR numbered csr (0xC00..0xC1F); *ok = 0 if outside. */
u64 rt_read_counter(u32 csr, int *ok);

extern u64 rt_hartid, rt_fdt;

void rt_putc(int c);
void rt_puts(const char *s);
void rt_puthex(u64 v);
void rt_putdec(long v);
void rt_info(const char *key, u64 v);

/* Checks print "ok N name" or "FAIL N name: got G want W"; the first
 * failing number becomes the result (suite.sh parses these lines). */
void rt_eq(int n, const char *name, u64 got, u64 want);
void rt_check(int n, const char *name, int ok, u64 got, u64 want);
void rt_range(int n, const char *name, u64 got, u64 lo, u64 hi);
void rt_exit(void) __attribute__((noreturn));
void rt_fatal(const char *why, u64 v) __attribute__((noreturn));

/* LCOFI recording: rt_s_trap stores the first RT_MAX_IRQ interrupts and
 * calls lcofi_hook (if set) before clearing sip.LCOFIP. */
#define RT_MAX_IRQ 4
struct rt_irq {
	u64 cause, epc, scountovf;
	long hook_err;
};
extern volatile long rt_irq_count;
extern struct rt_irq rt_irq_log[RT_MAX_IRQ];
extern long (*lcofi_hook)(void);

long rt_regs_preserved(void);
extern int rt_use_dbcn;

#endif
