/* The memory system's timing: what the misses of a data access cost once
 * the cycle it issues in is known.
 *
 * The cache side (uarch.c, prefetch.c) reports an access's misses as fixed
 * cycles (TLB, L2 and memory latencies) and its memory traffic
 * (UARCH_MC_*); what that traffic waits for depends on the time, so it is
 * worked out here, from the access's issue cycle i:
 *  1. MSHRs (cfg.l1d_mshrs): an access that misses the L1D takes the miss
 *     register that frees first, waiting for it when all are busy.
 *  2. The memory channel (cfg.bus_read, cfg.bus_write): a line read from
 *     memory, for a demand or a prefetch, starts when the channel is free
 *     and holds it bus_read cycles; its data are at the core l2_lat +
 *     mem_lat after it starts. A line written back to memory holds it
 *     bus_write cycles and nothing waits for it, but at most
 *     Q = l2_mshrs * max(bus_read, bus_write) cycles of transfers may be
 *     queued: a transfer finding more waits until there are Q.
 *  3. Prefetches: the first demand access to a prefetched line waits for
 *     its arrival. The access that set prefetches off sends them after its
 *     own reads; a prefetch is dropped when cfg.l2_mshrs reads are already
 *     in flight or the queue is full (the SiFive prefetcher stops sending
 *     when the L2's MSHRs fill), and the access that first uses its line
 *     then reads it itself.
 *  4. A store that missed goes on once it has its MSHR: the pipe stalls
 *     only for that wait. A load or an AMO waits for its data: the pipe
 *     blocks until then, as the in-order U74's does (its dual random reads
 *     take twice a single read's time on silicon: docs/calibration.md).
 * Without MSHRs, channel and prefetches (every cfg field 0), an access
 * blocks for its fixed cycles, as before these existed.
 *
 * Each access only moves the times it leaves forward from i, and i never
 * goes back, so the channel is free by i + Q + max(bus_read, bus_write) at
 * any issue; uarch_timing_max_per_insn() bounds the waits from that. */
#include "rvpmu/uarch.h"
#include "timing_impl.h"

/* the most the channel may be busy for beyond a transfer's request */
static uint64_t queue_cap(const struct uarch_timing_config *c)
{
	return (uint64_t)c->l2_mshrs * (c->bus_read > c->bus_write ? c->bus_read : c->bus_write);
}

/* A transfer holding the channel hold cycles, requested at *at: the cycle
 * it starts. A full queue delays the request (*at) itself. */
static uint64_t transfer(struct uarch_timing *t, uint64_t *at, uint32_t hold)
{
	const uint64_t q = queue_cap(&t->cfg);
	if (t->bus > *at + q)
		*at = t->bus - q;
	const uint64_t s = max64(*at, t->bus);
	t->bus = s + hold;
	return s;
}

/* prefetch arrivals after cycle at, of those the timing keeps */
static unsigned in_flight(const struct uarch_timing *t, uint64_t at)
{
	unsigned n = 0;
	for (unsigned j = 0; j < UARCH_PF_TRACK; j++)
		n += t->pf[j] != UARCH_PF_DROPPED && t->pf[j] > at;
	return n;
}

/* a prefetch requested at cycle at, its arrival kept first */
static void prefetch(struct uarch_timing *t, uint64_t at, unsigned reads)
{
	const struct uarch_timing_config *c = &t->cfg;
	uint64_t arrive = UARCH_PF_DROPPED;
	if (!c->l2_mshrs || (in_flight(t, at) + reads < c->l2_mshrs && t->bus <= at + queue_cap(c)))
		arrive = transfer(t, &at, c->bus_read) + c->l2_lat + c->mem_lat;
	for (unsigned j = UARCH_PF_TRACK - 1; j > 0; j--)
		t->pf[j] = t->pf[j - 1];
	t->pf[0] = arrive;
}

uint32_t uarch_timing_mem(struct uarch_timing *t, unsigned cls, uint32_t mc, uint64_t i)
{
	if (__builtin_expect(t->mform != 0, 0))
		mstate_settle(t);
	const struct uarch_timing_config *c = &t->cfg;
	const uint64_t cyc = mc & UARCH_MC_CYCLES;
	if (!(mc & UARCH_MC_L1MISS))
		return (uint32_t)cyc;   /* a TLB miss alone blocks */
	const unsigned reads = mc >> 17 & 3, age = mc >> 19 & 15, npf = mc >> 23 & 15,
		       nwb = mc >> 27 & 15;
	const uint64_t full = (uint64_t)c->l2_lat + c->mem_lat;   /* a line from memory */
	uint64_t at = i;
	unsigned k = 0;
	if (c->l1d_mshrs) {
		for (unsigned j = 1; j < c->l1d_mshrs; j++)
			if (t->mshr[j] < t->mshr[k])
				k = j;
		at = max64(at, t->mshr[k]);
	}
	uint64_t done = at + cyc;
	for (unsigned n = 0; n < reads; n++) {
		const uint64_t a0 = at;
		done += transfer(t, &at, c->bus_read) - a0;
	}
	if (age) {   /* the prefetch of the line it used first */
		uint64_t a = t->pf[age - 1];
		if (a == UARCH_PF_DROPPED)
			a = transfer(t, &at, c->bus_read) + full;
		done = max64(done, a);
	}
	for (unsigned n = 0; n < npf; n++)
		prefetch(t, at, reads);
	for (unsigned n = 0; n < nwb; n++) {
		const uint64_t a0 = at;
		transfer(t, &at, c->bus_write);
		done += at - a0;
	}
	if (c->l1d_mshrs)
		t->mshr[k] = done;
	if (cls == UARCH_CLS_STORE && c->l1d_mshrs)
		return (uint32_t)(at - i);
	return (uint32_t)(done - i);
}
