/* sbi-pmu: SBI PMU extension (SBI spec "Performance Monitoring Unit
 * Extension", EID 0x504D55) FIDs 0-6: counter discovery, config_matching,
 * start/stop state errors, an exact instruction count over a known window,
 * firmware counters. Checks are described in docs/sbi-tests.md. */
#include "rt.h"

#define ITERS 1000
#define EXACT (2 * ITERS + 6)	/* see pmu_count_window */
#define WINDOW 1024		/* allowance for a firmware that counts itself */
#define EV_UNSUPPORTED 0x000FFul	/* HW general code 255: not a defined event */

void pmu_count_window(u64 idx, u64 iters, long errs[2]);

static struct pmu_layout L;

static void spin(long n)
{
	for (volatile long i = 0; i < n; i++)
		;
}

static u64 read_ctr(u64 idx, int *ok)
{
	return rt_read_counter(CINFO_CSR(L.info[idx]), ok);
}

static int popcount(u64 v)
{
	int n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
}

static void set_timer_far(void)
{
	sbi1(SBI_EXT_TIME, 0, ~0ul);
}

static void discovery(void)
{
	struct sbiret r = sbi0(SBI_EXT_PMU, SBI_PMU_NUM_COUNTERS);
	u64 i, lim, bad_err = 0, bad_csr = 0, bad_rsv = 0;
	int e_ok = 1, c_ok = 1, r_ok = 1;

	rt_eq(1, "num_counters succeeds", r.error, 0);
	rt_range(2, "num_counters > 0", r.value, 1, ~0ul >> 1);
	pmu_probe(&L);
	lim = L.num < 64 ? L.num : 64;
	for (i = 0; i < lim; i++) {
		if (L.err[i] != 0 && L.err[i] != SBI_ERR_INVALID_PARAM && e_ok) {
			e_ok = 0;
			bad_err = L.err[i];
			rt_info("get_info bad error at id", i);
		}
		if (L.err[i])
			continue;
		if (!CINFO_FW(L.info[i]) && CINFO_CSR(L.info[i]) != 0xc00 + i && c_ok) {
			c_ok = 0;
			bad_csr = L.info[i];
			rt_info("get_info bad csr at id", i);
		}
		if ((L.info[i] & 0x7ffffffffffc0000ul) && r_ok) {
			r_ok = 0;
			bad_rsv = L.info[i];
		}
	}
	rt_info("num_counters", L.num);
	rt_info("hw_mask", L.hw_mask);
	rt_info("fw_mask", L.fw_mask);
	rt_check(3, "get_info: every id < num_counters gives SUCCESS or INVALID_PARAM", e_ok, bad_err, 0);
	rt_check(4, "get_info: hardware counter id i reports CSR 0xC00 + i", c_ok, bad_csr, 0);
	rt_check(5, "get_info: reserved bits 62:18 are 0", r_ok, bad_rsv, 0);
	rt_eq(6, "get_info(0) = hardware, CSR cycle, width 63", L.err[0] ? (u64)L.err[0] : L.info[0],
	      (63ul << 12) | 0xc00);
	rt_eq(7, "get_info(2) = hardware, CSR instret, width 63", L.err[2] ? (u64)L.err[2] : L.info[2],
	      (63ul << 12) | 0xc02);
	rt_range(8, "at least one firmware counter (type 1)", popcount(L.fw_mask), 1, 64);
	r = pmu_get_info(L.num);
	rt_eq(9, "get_info(num_counters) -> INVALID_PARAM", r.error, SBI_ERR_INVALID_PARAM);
}

static void hw_counting(void)
{
	struct sbiret r;
	long errs[2];
	u64 idx, v1, v2;
	int ok;

	r = pmu_cfg(0, L.hw_mask, SBI_PMU_CFG_FLAG_CLEAR_VALUE, SBI_PMU_HW_INSTRUCTIONS, 0);
	rt_eq(10, "config_matching(instructions, CLEAR_VALUE) over the hardware set", r.error, 0);
	idx = r.value;
	rt_info("instructions counter", idx);
	rt_check(11, "the chosen counter is a hardware counter of the set",
		 !r.error && idx < 64 && ((L.hw_mask >> idx) & 1), idx, L.hw_mask);
	if (r.error || idx >= 64 || !((L.hw_mask >> idx) & 1))
		rt_fatal("no instructions counter", r.error);

	pmu_count_window(idx, ITERS, errs);
	v1 = read_ctr(idx, &ok);
	spin(50);
	v2 = read_ctr(idx, &ok);
	rt_eq(12, "counter_start(SET_INIT_VALUE, 0) in the window", errs[0], 0);
	rt_eq(13, "counter_stop in the window", errs[1], 0);
	rt_info("window count", v1);
	rt_eq(14, "window count is exact (S-mode instructions only, firmware excluded)", v1, EXACT);
	rt_range(15, "window count within the firmware allowance", v1, EXACT, EXACT + WINDOW);
	rt_eq(16, "stopped counter holds its value", v2, v1);

	r = pmu_stop(idx, 1, 0);
	rt_eq(17, "counter_stop of a stopped counter -> ALREADY_STOPPED", r.error, SBI_ERR_ALREADY_STOPPED);
	r = pmu_start(idx, 1, 0, 0);
	rt_eq(18, "counter_start (resume, no flags)", r.error, 0);
	r = pmu_start(idx, 1, 0, 0);
	rt_eq(19, "counter_start of a started counter -> ALREADY_STARTED", r.error, SBI_ERR_ALREADY_STARTED);
	r = pmu_stop(idx, 1, 0);
	rt_eq(20, "counter_stop of the started counter", r.error, 0);

	r = pmu_cfg(idx, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH | SBI_PMU_CFG_FLAG_CLEAR_VALUE,
		    SBI_PMU_HW_INSTRUCTIONS, 0);
	rt_check(21, "config_matching(SKIP_MATCH) returns the set's first counter",
		 r.error == 0 && (u64)r.value == idx, r.error ? (u64)r.error : (u64)r.value, idx);
	v1 = read_ctr(idx, &ok);
	rt_eq(22, "CLEAR_VALUE zeroes the (stopped) counter", v1, 0);

	r = pmu_start(idx, 1, 0, 0);
	r = pmu_stop(idx, 1, SBI_PMU_STOP_FLAG_RESET);
	rt_eq(23, "counter_stop(RESET) of a started counter", r.error, 0);
	r = pmu_cfg(0, L.hw_mask, 0, SBI_PMU_HW_INSTRUCTIONS, 0);
	rt_eq(24, "config_matching(instructions) again after RESET", r.error, 0);
	if (!r.error)
		pmu_stop(r.value, 1, SBI_PMU_STOP_FLAG_RESET);	/* unmap; may say ALREADY_STOPPED */

	r = pmu_cfg(0, L.hw_mask, SBI_PMU_CFG_FLAG_CLEAR_VALUE | SBI_PMU_CFG_FLAG_AUTO_START,
		    SBI_PMU_HW_CPU_CYCLES, 0);
	rt_eq(25, "config_matching(cycles, CLEAR_VALUE | AUTO_START)", r.error, 0);
	idx = r.value;
	rt_info("cycles counter", idx);
	if (r.error || idx >= 64 || !((L.hw_mask >> idx) & 1))
		rt_fatal("no cycles counter", r.error);
	r = pmu_start(idx, 1, 0, 0);
	rt_eq(26, "AUTO_START started it: counter_start -> ALREADY_STARTED", r.error, SBI_ERR_ALREADY_STARTED);
	v1 = read_ctr(idx, &ok);
	spin(ITERS);
	v2 = read_ctr(idx, &ok);
	rt_check(27, "cycles counter advances", v2 > v1, v2 - v1, 1);
	r = pmu_stop(idx, 1, SBI_PMU_STOP_FLAG_RESET);
	rt_eq(28, "counter_stop(RESET) of the cycles counter", r.error, 0);
}

static void hw_errors(void)
{
	struct sbiret r;
	u64 idx;

	r = pmu_cfg(0, L.hw_mask | L.fw_mask, 0, EV_UNSUPPORTED, 0);
	rt_eq(29, "config_matching(undefined HW event 0xFF) -> NOT_SUPPORTED", r.error, SBI_ERR_NOT_SUPPORTED);
	r = pmu_cfg(L.num, 1, 0, SBI_PMU_HW_INSTRUCTIONS, 0);
	rt_eq(30, "config_matching(set = {num_counters}) -> INVALID_PARAM", r.error, SBI_ERR_INVALID_PARAM);
	r = pmu_start(L.num, 1, 0, 0);
	rt_eq(31, "counter_start(set = {num_counters}) -> INVALID_PARAM", r.error, SBI_ERR_INVALID_PARAM);
	r = pmu_stop(L.num, 1, 0);
	rt_eq(32, "counter_stop(set = {num_counters}) -> INVALID_PARAM", r.error, SBI_ERR_INVALID_PARAM);

	r = pmu_cfg(0, L.hw_mask, 1ul << 8, SBI_PMU_HW_INSTRUCTIONS, 0);
	rt_eq(33, "config_matching(reserved flag bit 8) -> INVALID_PARAM", r.error, SBI_ERR_INVALID_PARAM);
	if (!r.error)
		pmu_stop(r.value, 1, SBI_PMU_STOP_FLAG_RESET);

	r = pmu_cfg(0, L.hw_mask, 0, SBI_PMU_HW_INSTRUCTIONS, 0);
	idx = r.value;
	if (r.error)
		rt_fatal("config_matching(instructions) failed", r.error);
	r = pmu_start(idx, 1, 1ul << 2, 0);
	rt_eq(34, "counter_start(reserved flag bit 2) -> INVALID_PARAM", r.error, SBI_ERR_INVALID_PARAM);
	if (r.error)
		pmu_start(idx, 1, 0, 0);
	r = pmu_stop(idx, 1, 1ul << 2);
	rt_eq(35, "counter_stop(reserved flag bit 2) -> INVALID_PARAM", r.error, SBI_ERR_INVALID_PARAM);
	pmu_stop(idx, 1, SBI_PMU_STOP_FLAG_RESET);
}

static void fw_counting(void)
{
	struct sbiret r;
	u64 idx;
	int i;

	r = pmu_cfg(0, L.fw_mask, SBI_PMU_CFG_FLAG_CLEAR_VALUE | SBI_PMU_CFG_FLAG_AUTO_START,
		    SBI_PMU_FW_SET_TIMER, 0);
	rt_eq(36, "config_matching(SBI_PMU_FW_SET_TIMER, CLEAR_VALUE | AUTO_START)", r.error, 0);
	idx = r.value;
	rt_info("set_timer counter", idx);
	rt_check(37, "the chosen counter is a firmware counter",
		 !r.error && idx < 64 && ((L.fw_mask >> idx) & 1), idx, L.fw_mask);
	if (r.error || idx >= 64)
		rt_fatal("no firmware counter", r.error);
	for (i = 0; i < 5; i++)
		set_timer_far();
	r = pmu_fw_read(idx);
	rt_check(38, "fw_read after 5 set_timer calls = 5", r.error == 0 && r.value == 5,
		 r.error ? (u64)r.error : (u64)r.value, 5);
	r = sbi1(SBI_EXT_PMU, SBI_PMU_COUNTER_FW_READ_HI, idx);
	rt_check(39, "fw_read_hi = 0 on RV64", r.error == 0 && r.value == 0,
		 r.error ? (u64)r.error : (u64)r.value, 0);
	r = pmu_start(idx, 1, 0, 0);
	rt_eq(40, "firmware counter: counter_start of a started one -> ALREADY_STARTED", r.error,
	      SBI_ERR_ALREADY_STARTED);
	r = pmu_stop(idx, 1, 0);
	rt_eq(41, "firmware counter: counter_stop", r.error, 0);
	set_timer_far();
	r = pmu_fw_read(idx);
	rt_check(42, "stopped firmware counter does not count", r.error == 0 && r.value == 5,
		 r.error ? (u64)r.error : (u64)r.value, 5);
	r = pmu_stop(idx, 1, 0);
	rt_eq(43, "firmware counter: counter_stop of a stopped one -> ALREADY_STOPPED", r.error,
	      SBI_ERR_ALREADY_STOPPED);
	r = pmu_start(idx, 1, SBI_PMU_START_SET_INIT_VALUE, 100);
	set_timer_far();
	set_timer_far();
	{
		struct sbiret v = pmu_fw_read(idx);
		rt_check(44, "counter_start(SET_INIT_VALUE, 100) + 2 set_timer -> 102",
			 r.error == 0 && v.error == 0 && v.value == 102,
			 r.error ? (u64)r.error : v.error ? (u64)v.error : (u64)v.value, 102);
	}
	r = pmu_fw_read(0);
	rt_eq(45, "fw_read(hardware counter 0) -> INVALID_PARAM", r.error, SBI_ERR_INVALID_PARAM);
	r = pmu_fw_read(L.num);
	rt_eq(46, "fw_read(num_counters) -> INVALID_PARAM", r.error, SBI_ERR_INVALID_PARAM);
	r = pmu_stop(idx, 1, SBI_PMU_STOP_FLAG_RESET);
	rt_eq(47, "firmware counter: counter_stop(RESET)", r.error, 0);
}

/* a set naming only an id that get_info calls invalid (id 1 = time on
 * OpenSBI-style numbering); falls back to num_counters if every id is valid */
static void invalid_set(void)
{
	struct sbiret r;
	u64 bad = L.num;

	for (u64 i = 0; i < L.num && i < 64; i++)
		if (L.err[i] == SBI_ERR_INVALID_PARAM) {
			bad = i;
			break;
		}
	rt_info("invalid id", bad);
	r = pmu_cfg(bad, 1, 0, SBI_PMU_HW_INSTRUCTIONS, 0);
	rt_eq(48, "config_matching(set = {id get_info rejects}) -> INVALID_PARAM", r.error,
	      SBI_ERR_INVALID_PARAM);
	if (!r.error)
		pmu_stop(r.value, 1, SBI_PMU_STOP_FLAG_RESET);
}

int main(void)
{
	discovery();
	/* like Linux at CPU start: stop every hardware counter and unmap it */
	pmu_stop(0, L.hw_mask, SBI_PMU_STOP_FLAG_RESET);
	hw_counting();
	hw_errors();
	fw_counting();
	invalid_set();
	return 0;
}
