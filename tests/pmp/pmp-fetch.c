/* pmp-fetch: instruction fetch against sub-page PMP regions, exact at
 * every instruction: jumping into a hole, falling through into it, and
 * running off the end of an executable region in the middle of a page.
 * See docs/pmp-tests.md. */
#include "pmp.h"

static int n;
#define E(what, mode, probe, addr, cause) expect(++n, what, mode, probe, addr, cause)
#define NOP 0x00000013u

#define TP (TA + 0x3000)	/* the page */

static void put_nops(u64 a, int count)
{
	for (int i = 0; i < count; i++)
		((volatile u32 *)a)[i] = NOP;
	asm volatile("fence.i" ::: "memory");
}

/* run from start in MODE; check one fetch fault at fault (0: none) */
static void run_from(const char *what, int mode, u64 start, u64 fault)
{
	rt_trap_clear();
	rt_run(mode, probe_jmp, (long)start);
	if (fault)
		rt_check_trap(++n, what, fault, C_FETCH, fault);
	else
		rt_check_notrap(++n, what);
}

int main(void)
{
	const u64 h = TP + 0x810;
	pmp_hooks();
	pmp_reset();
	/* nops from TP + 0x800, "ret" at the hole and after it */
	put_nops(TP + 0x800, 4);
	put_ret(h);
	put_ret(h + 4);
	pmp_set(0, PMP_NA4, h >> 2);
	pmp_set(1, PMP_NAPOT | PMP_R | PMP_X, NAPOT(TP, 0x1000));
	E("hole: S jump into it -> 1", PRV_S, probe_jmp, h, C_FETCH);
	E("hole: S jump just above it ok", PRV_S, probe_jmp, h + 4, 0);
	E("hole: U jump into it -> 1", PRV_U, probe_jmp, h, C_FETCH);
	run_from("hole: S runs 4 nops and falls into it -> 1 at the hole", PRV_S, TP + 0x800, h);
	run_from("hole: again (decoded before) -> 1 at the hole", PRV_S, TP + 0x800, h);
	run_from("hole: U falls into it -> 1 at the hole", PRV_U, TP + 0x800, h);
	/* the hole made executable: the same run returns */
	pmp_cfg(0, PMP_NA4 | PMP_X);
	run_from("hole made X: S runs through to its ret", PRV_S, TP + 0x800, 0);
	pmp_cfg(0, PMP_NA4);
	run_from("hole back: S falls into it -> 1 again", PRV_S, TP + 0x800, h);

	/* an X region of 32 bytes mid-page, nothing else in the page: 8
	 * nops, then the fetch after it fails */
	pmp_reset();
	put_nops(TP + 0x900, 8);
	put_ret(TP + 0x920);
	pmp_set(0, PMP_NAPOT | PMP_X, NAPOT(TP + 0x900, 32));
	run_from("X region end: S runs off it -> 1 at its end", PRV_S, TP + 0x900, TP + 0x920);
	run_from("X region end: U runs off it -> 1 at its end", PRV_U, TP + 0x900, TP + 0x920);
	run_from("X region: S jumps to its last nop, runs off -> 1 at its end", PRV_S,
		 TP + 0x91c, TP + 0x920);
	pmp_set(0, PMP_NAPOT | PMP_X, NAPOT(TP + 0x900, 64));
	run_from("X region of 64: S reaches the ret", PRV_S, TP + 0x900, 0);
	return rt_done();
}
