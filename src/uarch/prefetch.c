/* The L2's stride prefetcher, after the one SiFive attaches to the L2 for
 * each hart of the U74-MC (its control registers, as SiFive's freedom-metal
 * driver `sifive_l2pf` describes them: an initial prefetch distance, a
 * comparison window for address matching, prefetches that may or may not
 * cross pages, scalar loads and optionally stores training it, sending
 * stopped when the L2's MSHRs fill). How it trains is this model's choice
 * (no public description): deterministic, and driven by the L2's demand
 * accesses, i.e. the L1D misses, in program order:
 *
 *  - A miss to line x belongs to the stream whose last line is within
 *    `window` lines of it (the first in the table), else it replaces the
 *    stream used longest ago (x its last line, no stride yet).
 *  - In its stream, x - last is the stride seen; the same stride twice in
 *    a row trains the stream, another one starts it again.
 *  - A trained stream sends the lines x + stride, x + 2 stride, ... up to
 *    `distance` strides ahead that it has not sent yet, each looked up in
 *    the L2 (an l2_prefetch event) and, when absent, filled from memory (an
 *    l2_prefetch_miss) as the most recent line of its set; without
 *    `cross_page` none past the page of x. The distance is fixed (the
 *    hardware's grows while demands catch up with its prefetches, which
 *    depends on time the cache side does not see).
 *
 * The timing sees the memory traffic (UARCH_MC_PF, UARCH_MC_WB) and, for
 * the first demand access to a line sent, the number of prefetches sent
 * after it (UARCH_MC_AGE), so that it waits for that line's arrival
 * (timing_mem.c). */
#include <string.h>
#include "retire_impl.h"

int uarch_prefetch_init(struct uarch_prefetcher *p, const struct uarch_prefetch_config *c,
			uint32_t page_lines)
{
	memset(p, 0, sizeof(*p));
	if (!c->streams)
		return 0;
	if (c->streams > UARCH_PF_STREAMS_MAX || !c->distance || c->distance > UARCH_PF_DIST_MAX ||
	    page_lines > 32)
		return -1;
	p->cfg = *c;
	p->page_lines = page_lines;
	return 0;
}

void uarch_prefetch_reset(struct uarch_prefetcher *p)
{
	struct uarch_prefetch_config c = p->cfg;
	uint32_t pl = p->page_lines;
	uarch_prefetch_init(p, &c, pl);
}

unsigned uarch_prefetch_used(struct uarch_prefetcher *p, uint64_t line)
{
	if (!p->held[line & 63])
		return 0;
	for (unsigned j = 0; j < UARCH_PF_TRACK; j++)
		if (p->line[j] == line + 1) {
			p->line[j] = 0;
			p->held[line & 63]--;
			return (unsigned)(p->sent - 1 - p->seq[j]) + 1;
		}
	return 0;
}

/* line y sent: its UARCH_MC_* traffic */
static uint32_t send(struct uarch *u, uint64_t y)
{
	struct uarch_prefetcher *p = &u->pf;
	u->ev[UARCH_EV_L2_PREFETCH]++;
	if (uarch_cache_holds(u->l2, y << u->l2->line_shift))
		return 0;
	u->ev[UARCH_EV_L2_PREFETCH_MISS]++;
	uint32_t mc = UARCH_MC_PF(1);
	if (uarch_cache_miss(u->l2, y, 0, NULL) & UARCH_WB) {
		u->ev[UARCH_EV_L2_WRITEBACK]++;
		mc += UARCH_MC_WB(1);
	}
	const unsigned j = (unsigned)(p->sent % UARCH_PF_TRACK);
	if (p->line[j])
		p->held[(p->line[j] - 1) & 63]--;
	p->held[y & 63]++;
	p->line[j] = y + 1;
	p->seq[j] = p->sent++;
	return mc;
}

uint32_t uarch_prefetch_train(struct uarch *u, uint64_t x)
{
	struct uarch_prefetcher *p = &u->pf;
	struct uarch_pf_stream *s = NULL, *old = &p->s[0];
	for (unsigned i = 0; i < p->cfg.streams && !s; i++) {
		struct uarch_pf_stream *e = &p->s[i];
		uint64_t d = x > e->last ? x - e->last : e->last - x;
		if (e->stamp && d <= p->cfg.window)
			s = e;
		else if (e->stamp < old->stamp)
			old = e;
	}
	p->stamp++;
	if (!s) {
		*old = (struct uarch_pf_stream){ .last = x, .next = x, .stamp = p->stamp };
		return 0;
	}
	s->stamp = p->stamp;
	const int64_t d = (int64_t)(x - s->last);
	if (!d)
		return 0;
	if (d != s->stride) {
		s->stride = d;
		s->conf = 0;
		s->next = x;
	} else if (s->conf < 2) {
		s->conf++;
	}
	s->last = x;
	if (!s->conf)
		return 0;
	/* only lines past the furthest sent, in the stride's direction: from
	 * the first stride that passes it (mostly the last one: the others
	 * were sent before), without a loop over those */
	const uint64_t ad = d > 0 ? (uint64_t)d : -(uint64_t)d;
	const uint64_t behind = d > 0 ? s->next - x : x - s->next;   /* how far next is ahead */
	uint64_t k = (d > 0 ? s->next >= x : s->next <= x) ? (ad == 1 ? behind : behind / ad) + 1 : 1;
	uint32_t mc = 0;
	for (; k <= p->cfg.distance; k++) {
		const uint64_t y = x + (uint64_t)d * k;
		if (!p->cfg.cross_page && (y >> p->page_lines) != (x >> p->page_lines))
			break;
		s->next = y;
		mc += send(u, y);
	}
	return mc;
}
