/* sbi-misaligned: misaligned loads and stores from S-mode on a core whose
 * profile says "misaligned": "trap". The firmware (rvpmu's built-in SBI,
 * or OpenSBI) emulates each one and counts it in the SBI firmware events
 * MISALIGNED_LOAD (0xF0000) and MISALIGNED_STORE (0xF0001); on a core
 * that handles them itself (--profile virt) the same accesses give the
 * same values and the counters stay 0. argv-less: the expected count
 * comes from the build (-DTRAPS=1 or 0). */
#include "rt.h"

#define FW_MISALIGNED_LOAD 0xF0000ul
#define FW_MISALIGNED_STORE 0xF0001ul

static unsigned char buf[64] __attribute__((aligned(16)));
static struct pmu_layout L;

static u64 start_fw(int n, u64 event)
{
	struct sbiret r = pmu_cfg(0, L.fw_mask, SBI_PMU_CFG_FLAG_CLEAR_VALUE | SBI_PMU_CFG_FLAG_AUTO_START,
				  event, 0);
	rt_eq(n, "config_matching(firmware misaligned event, AUTO_START)", r.error, 0);
	if (r.error)
		rt_fatal("no firmware counter", r.error);
	return (u64)r.value;
}

int main(void)
{
	pmu_probe(&L);
	__asm__ volatile("csrs sstatus, %0" :: "r"(1ul << 13));   /* FS = Initial */
	for (int i = 0; i < 64; i++)
		buf[i] = (unsigned char)(0x11 * (i % 15) + i);
	u64 cl = start_fw(1, FW_MISALIGNED_LOAD), cs = start_fw(2, FW_MISALIGNED_STORE);
	unsigned char *p = buf + 1;
	long h, w, d;
	unsigned long hu, wu;
	u64 f32, f64;
	/* 7 misaligned loads: lh, lhu, lw, lwu, ld, flw, fld */
	__asm__ volatile("lh %0, 0(%1)" : "=r"(h) : "r"(p + 2));
	__asm__ volatile("lhu %0, 0(%1)" : "=r"(hu) : "r"(p + 4));
	__asm__ volatile("lw %0, 0(%1)" : "=r"(w) : "r"(p + 8));
	__asm__ volatile("lwu %0, 0(%1)" : "=r"(wu) : "r"(p + 12));
	__asm__ volatile("ld %0, 0(%1)" : "=r"(d) : "r"(p + 16));
	__asm__ volatile("flw ft0, 0(%1); fmv.x.d %0, ft0" : "=r"(f32) : "r"(p + 24) : "ft0");
	__asm__ volatile("fld ft1, 0(%1); fmv.x.d %0, ft1" : "=r"(f64) : "r"(p + 28) : "ft1");
	u64 e;
	e = (u64)(long)(short)(buf[3] | buf[4] << 8);
	rt_eq(3, "lh (sign-extended)", (u64)h, e);
	rt_eq(4, "lhu", hu, (u64)(buf[5] | buf[6] << 8));
	e = 0;
	for (int i = 3; i >= 0; i--)
		e = e << 8 | buf[9 + i];
	rt_eq(5, "lw (sign-extended)", (u64)w, (u64)(long)(int)e);
	e = 0;
	for (int i = 3; i >= 0; i--)
		e = e << 8 | buf[13 + i];
	rt_eq(6, "lwu", wu, e);
	e = 0;
	for (int i = 7; i >= 0; i--)
		e = e << 8 | buf[17 + i];
	rt_eq(7, "ld", (u64)d, e);
	e = 0;
	for (int i = 3; i >= 0; i--)
		e = e << 8 | buf[25 + i];
	rt_eq(8, "flw (NaN-boxed)", f32, 0xffffffff00000000ul | e);
	e = 0;
	for (int i = 7; i >= 0; i--)
		e = e << 8 | buf[29 + i];
	rt_eq(9, "fld", f64, e);
	/* 5 misaligned stores: sh, sw, sd, fsw, fsd */
	__asm__ volatile("sh %0, 0(%1)" :: "r"(0xa1b2ul), "r"(p + 40) : "memory");
	__asm__ volatile("sw %0, 0(%1)" :: "r"(0xc3d4e5f6ul), "r"(p + 42) : "memory");
	__asm__ volatile("sd %0, 0(%1)" :: "r"(0x0102030405060708ul), "r"(p + 46) : "memory");
	__asm__ volatile("fmv.d.x ft2, %0; fsw ft2, 0(%1)" :: "r"(0xffffffff99887766ul), "r"(p + 54) : "ft2", "memory");
	__asm__ volatile("fmv.d.x ft3, %0; fsd ft3, 0(%1)" :: "r"(0x1122334455667788ul), "r"(p + 2) : "ft3", "memory");
	rt_eq(10, "sh", (u64)(buf[41] | buf[42] << 8), 0xa1b2);
	e = 0;
	for (int i = 3; i >= 0; i--)
		e = e << 8 | buf[43 + i];
	rt_eq(11, "sw", e, 0xc3d4e5f6ul);
	e = 0;
	for (int i = 7; i >= 0; i--)
		e = e << 8 | buf[47 + i];
	rt_eq(12, "sd", e, 0x0102030405060708ul);
	e = 0;
	for (int i = 3; i >= 0; i--)
		e = e << 8 | buf[55 + i];
	rt_eq(13, "fsw", e, 0x99887766ul);
	e = 0;
	for (int i = 7; i >= 0; i--)
		e = e << 8 | buf[3 + i];
	rt_eq(14, "fsd", e, 0x1122334455667788ul);
	rt_eq(15, "the bytes around the stores are unchanged", buf[40], (u64)(unsigned char)(0x11 * (40 % 15) + 40));
	struct sbiret r = pmu_fw_read(cl);
	rt_eq(16, "firmware MISALIGNED_LOAD count", (u64)r.value, TRAPS ? 7 : 0);
	r = pmu_fw_read(cs);
	rt_eq(17, "firmware MISALIGNED_STORE count", (u64)r.value, TRAPS ? 5 : 0);
	return 0;
}
