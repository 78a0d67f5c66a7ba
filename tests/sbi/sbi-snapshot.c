/* sbi-snapshot: SBI PMU FID 7 sbi_pmu_snapshot_set_shmem with start
 * INIT_SNAPSHOT / stop TAKE_SNAPSHOT, and FID 8 sbi_pmu_event_get_info
 * (SBI spec "Performance Monitoring Unit Extension"). Snapshot is optional
 * in the spec; this suite requires it of rvpmu's built-in SBI. Checks are
 * described in docs/sbi-tests.md. */
#include "rt.h"

#define PATTERN 0xa5a5a5a5a5a5a500ul

struct snap {
	u64 overflow;	/* counter_overflow_bitmap, relative to counter_idx_base */
	u64 value[64];	/* counter_values */
	u64 reserved[447];
};
static struct snap page __attribute__((aligned(4096)));

struct ev_entry {
	u32 event_idx, output;
	u64 event_data;
};
static const u32 events[] = {
	0x00001, 0x00002, 0x00003, 0x00004, 0x00005, 0x00006, 0x00007, 0x00008,
	0x00009, 0x0000a, 0x10000, 0x10001, 0x10009, 0x10011, 0x10019, 0x10021,
	0x10029, 0xf0004, 0xf0005,
};
#define NEV (sizeof(events) / sizeof(events[0]))
static struct ev_entry ev[NEV + 1] __attribute__((aligned(16)));

static struct pmu_layout L;

static struct sbiret set_shmem(u64 lo, u64 hi, u64 flags)
{
	return sbi3(SBI_EXT_PMU, SBI_PMU_SNAPSHOT_SET_SHMEM, lo, hi, flags);
}

static struct sbiret event_get_info(u64 lo, u64 hi, u64 n, u64 flags)
{
	return sbi4(SBI_EXT_PMU, SBI_PMU_EVENT_GET_INFO, lo, hi, n, flags);
}

static void spin(long n)
{
	for (volatile long i = 0; i < n; i++)
		;
}

static void fill(void)
{
	page.overflow = 0xdead;
	for (int i = 0; i < 64; i++)
		page.value[i] = PATTERN | i;
}

static u64 read_ctr(u64 idx)
{
	int ok;
	return rt_read_counter(CINFO_CSR(L.info[idx]), &ok);
}

static void snapshot(void)
{
	struct sbiret r;
	u64 idx, v, bad;
	int i, same;

	r = set_shmem((u64)&page + 8, 0, 0);
	rt_eq(1, "set_shmem(lo not 4 KiB aligned) -> INVALID_PARAM", r.error, SBI_ERR_INVALID_PARAM);
	r = set_shmem((u64)&page, 0, 1);
	rt_eq(2, "set_shmem(flags = 1) -> INVALID_PARAM", r.error, SBI_ERR_INVALID_PARAM);
	r = set_shmem((u64)&page, 1, 0);
	rt_eq(3, "set_shmem(hi = 1, beyond physical memory) -> INVALID_ADDRESS", r.error,
	      SBI_ERR_INVALID_ADDRESS);
	r = set_shmem((u64)&page, 0, 0);
	rt_eq(4, "set_shmem(page-aligned RAM) -> SUCCESS", r.error, 0);

	r = pmu_cfg(0, L.hw_mask, SBI_PMU_CFG_FLAG_CLEAR_VALUE, SBI_PMU_HW_INSTRUCTIONS, 0);
	rt_eq(5, "config_matching(instructions)", r.error, 0);
	if (r.error)
		rt_fatal("no instructions counter", r.error);
	idx = r.value;
	rt_info("counter", idx);

	fill();
	pmu_start(idx, 1, SBI_PMU_START_SET_INIT_VALUE, 0);
	spin(100);
	r = pmu_stop(idx, 1, SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT);
	v = read_ctr(idx);
	rt_eq(6, "counter_stop(TAKE_SNAPSHOT) -> SUCCESS", r.error, 0);
	rt_info("counter value", v);
	rt_check(7, "snapshot slot 0 (base = counter) = the stopped counter's value",
		 page.value[0] == v && v != 0, page.value[0], v);
	same = 1, bad = 0;
	for (i = 1; i < 64; i++)
		if (page.value[i] != (PATTERN | i) && same)
			same = 0, bad = i;
	rt_check(8, "other snapshot slots untouched", same, bad, 0);
	rt_eq(9, "overflow bitmap bit 0 cleared (no overflow)", page.overflow & 1, 0);

	page.value[0] = 1000000;
	r = pmu_start(idx, 1, SBI_PMU_START_FLAG_INIT_SNAPSHOT, 0);
	spin(100);
	pmu_stop(idx, 1, 0);
	rt_eq(10, "counter_start(INIT_SNAPSHOT) -> SUCCESS", r.error, 0);
	rt_range(11, "counter started from the snapshot value", read_ctr(idx), 1000000, 1000000 + 10000);

	fill();
	pmu_start(idx, 1, 0, 0);
	r = pmu_stop(0, 1ul << idx, SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT);
	v = read_ctr(idx);
	rt_check(12, "stop(base 0, TAKE_SNAPSHOT): slot idx holds the value",
		 r.error == 0 && page.value[idx] == v, r.error ? (u64)r.error : page.value[idx], v);

	/* overflow without taking the interrupt (sie.LCOFIE = 0) */
	fill();
	pmu_start(idx, 1, SBI_PMU_START_SET_INIT_VALUE, -100ul);
	spin(200);
	r = pmu_stop(idx, 1, SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT);
	csrc(sip, 1ul << IRQ_LCOF);
	rt_check(13, "after an overflow: bitmap bit 0 set, slot 0 wrapped",
		 r.error == 0 && (page.overflow & 1) && page.value[0] < 10000,
		 r.error ? (u64)r.error : page.overflow, 1);

	r = set_shmem(~0ul, ~0ul, 0);
	rt_eq(14, "set_shmem(-1, -1) disables -> SUCCESS", r.error, 0);
	pmu_start(idx, 1, 0, 0);
	r = pmu_stop(idx, 1, SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT);
	rt_eq(15, "counter_stop(TAKE_SNAPSHOT) without shmem -> NO_SHMEM", r.error, SBI_ERR_NO_SHMEM);
	pmu_stop(idx, 1, 0);
	r = pmu_start(idx, 1, SBI_PMU_START_FLAG_INIT_SNAPSHOT, 0);
	rt_eq(16, "counter_start(INIT_SNAPSHOT) without shmem -> NO_SHMEM", r.error, SBI_ERR_NO_SHMEM);
	pmu_stop(idx, 1, SBI_PMU_STOP_FLAG_RESET);
}

/* can config_matching place the event on some counter of its kind? */
static int matches(u32 e)
{
	u64 mask = (e >> 16) == 0xf ? L.fw_mask : L.hw_mask;
	struct sbiret r = pmu_cfg(0, mask, 0, e, 0);
	if (r.error)
		return 0;
	pmu_stop(r.value, 1, SBI_PMU_STOP_FLAG_RESET);
	return 1;
}

static void event_info(void)
{
	struct sbiret r;
	u64 bad = 0;
	unsigned i;
	int cons = 1, rsv = 1;

	for (i = 0; i < NEV; i++)
		ev[i] = (struct ev_entry){ events[i], 0xffffffffu, 0 };
	r = event_get_info((u64)ev, 0, NEV, 0);
	rt_eq(17, "event_get_info -> SUCCESS", r.error, 0);
	rt_eq(18, "cycles (0x1) supported", ev[0].output, 1);
	rt_eq(19, "instructions (0x2) supported", ev[1].output, 1);
	for (i = 0; i < NEV; i++) {
		if ((ev[i].output & ~1u) && rsv)
			rsv = 0, bad = events[i];
		if ((ev[i].output & 1) != (u32)matches(events[i]) && cons) {
			cons = 0;
			rt_info("event_get_info disagrees with config_matching on", events[i]);
		}
	}
	rt_check(20, "output bits 31:1 written as 0", rsv, bad, 0);
	rt_check(21, "output bit 0 = config_matching finds a counter (19 events)", cons, 0, 1);
	r = event_get_info((u64)ev, 0, NEV, 1);
	rt_eq(22, "event_get_info(flags = 1) -> INVALID_PARAM", r.error, SBI_ERR_INVALID_PARAM);
	r = event_get_info((u64)ev + 8, 0, 1, 0);
	rt_eq(23, "event_get_info(lo not 16-byte aligned) -> INVALID_PARAM", r.error,
	      SBI_ERR_INVALID_PARAM);
	ev[0].event_idx = 0x100001;
	r = event_get_info((u64)ev, 0, 1, 0);
	rt_eq(24, "event_get_info(event_idx bit 20 set) -> INVALID_PARAM", r.error, SBI_ERR_INVALID_PARAM);
	ev[0].event_idx = 1;
	r = event_get_info((u64)ev, 1, 1, 0);
	rt_eq(25, "event_get_info(hi = 1) -> INVALID_ADDRESS", r.error, SBI_ERR_INVALID_ADDRESS);
}

int main(void)
{
	pmu_probe(&L);
	pmu_stop(0, L.hw_mask, SBI_PMU_STOP_FLAG_RESET);
	snapshot();
	event_info();
	return 0;
}
