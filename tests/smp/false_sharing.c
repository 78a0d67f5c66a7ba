/* False sharing, counted (bare metal, M-mode, --bios none, two harts).
 *
 * Harts 0 and 1 take turns: hart i waits until the baton (a word in a
 * line of its own) holds its turn's number, increments its own word, and
 * hands the baton on. Phase 1 puts the two words in one line (adjacent),
 * phase 2 a line apart. Each hart counts with its own mhpmcounters,
 * programmed with the events named by -DSELS (selectors) and -DKINDS
 * (what each is, below), from just after it takes the baton for its turn
 * 1 to just after it takes it for turn TURNS: T = TURNS - 1 turns of its
 * own and T of the other hart's. Hart 0 prints every count and checks
 * it; the finisher's code is 0, or 1 + phase * 64 + hart * 16 + counter.
 *
 * From the protocol (MESI, docs/architecture.md), per turn of each hart,
 * adjacent: it takes the baton (a read miss: the other hart wrote it, so
 * holds it Modified: a coherence miss, a snoop hit and a write-back of
 * the other's) and its word's line (the same), then stores to both lines,
 * which it now shares (two upgrades, each invalidating the other's copy):
 * 2 coherence misses, 2 upgrades, 2 L1D read misses, 2 L2 reads (a line
 * another hart supplies still passes the L2, never missing there), and
 * for the other hart's turn 2 invalidations, 2 snoop hits and 2 L2
 * writes (its write-backs). A line apart, its word's line stays its own
 * (Modified): only the baton's 1 of each. So the adjacent words cost
 * exactly one coherence miss (and one upgrade, invalidation and snoop
 * hit) more per handover of their line than the line-apart control, and
 * nothing else: the spinning reads hit a line held Shared or Modified.
 * Code and every other line a hart touches in the window are its own and
 * were touched before it (a first round of turns on words of lines of
 * their own warms them). */
typedef unsigned long u64;

#define FINISHER 0x100000ul
#define UART 0x10000000ul
#ifndef TURNS
#define TURNS 40
#endif
#define T (TURNS - 1)

/* KINDS: coherence misses, invalidations received, upgrades, snoop hits,
 * L2 accesses (reads and writes), L2 reads, L2 writes, L2 misses, L1D
 * read misses (u74: its miss event, which counts write misses and MMIO
 * too: none here) */
enum { COH, INV, UPG, SNOOP, L2, L2R, L2W, L2MISS, L1DMISS, NKINDS };
static const char *const kind_name[NKINDS] = {
	"coherence-misses", "invalidations", "upgrades", "snoop-hits", "l2-accesses",
	"l2-reads", "l2-writes", "l2-misses", "l1d-read-misses",
};
/* per turn, adjacent (phase 0) and a line apart (phase 1) */
static const unsigned per_turn[2][NKINDS] = {
	{ 2, 2, 2, 2, 4, 2, 2, 0, 2 },
	{ 1, 1, 1, 1, 2, 1, 1, 0, 1 },
};

static const u64 sel[] = { SELS };
static const unsigned kinds[] = { KINDS };
#define NSEL (sizeof(sel) / sizeof(sel[0]))
_Static_assert(NSEL == sizeof(kinds) / sizeof(kinds[0]) && NSEL <= 8, "SELS and KINDS pair up");

#define LINE 64
struct line { volatile u64 w[LINE / 8]; } __attribute__((aligned(LINE)));
static struct line baton;         /* the turn's number */
static struct line adjacent;      /* w[i]: hart i's word (phase 0) */
static struct line apart[2];      /* apart[i].w[0]: hart i's word (phase 1) */
/* each hart's counts, [phase][start, end][counter], in lines of its own */
static struct { u64 v[2][2][8]; } __attribute__((aligned(LINE))) counts[2];

#define CSRR(n) ({ u64 v_; asm volatile("csrr %0, " #n : "=r"(v_) :: "memory"); v_; })
#define CSRW(n, v) asm volatile("csrw " #n ", %0" :: "r"(v) : "memory")

/* mhpmcounter3..10 into out[] (a leaf: no stack line of its own) */
static void __attribute__((noinline)) snap(u64 *out)
{
	out[0] = CSRR(mhpmcounter3); out[1] = CSRR(mhpmcounter4); out[2] = CSRR(mhpmcounter5);
	out[3] = CSRR(mhpmcounter6); out[4] = CSRR(mhpmcounter7); out[5] = CSRR(mhpmcounter8);
	out[6] = CSRR(mhpmcounter9); out[7] = CSRR(mhpmcounter10);
}

static void program(void)
{
#define EV(i, n) CSRW(n, i < NSEL ? sel[i % NSEL] : 0)
	EV(0, mhpmevent3); EV(1, mhpmevent4); EV(2, mhpmevent5); EV(3, mhpmevent6);
	EV(4, mhpmevent7); EV(5, mhpmevent8); EV(6, mhpmevent9); EV(7, mhpmevent10);
#undef EV
	CSRW(mcountinhibit, 0);
}

/* Hart id's turns 0..TURNS on word, turn k's number being base + 2k + id */
static void turns(u64 id, volatile u64 *word, u64 base, u64 *start, u64 *end)
{
	for (u64 k = 0; k <= TURNS; k++) {
		const u64 want = base + 2 * k + id;
		while (baton.w[0] != want)
			;
		if (k == 1)
			snap(start);
		if (k == TURNS)
			snap(end);
		*word += 1;
		baton.w[0] = want + 1;
	}
}

static void putc_(char c) { *(volatile unsigned char *)UART = (unsigned char)c; }
static void puts_(const char *s) { while (*s) putc_(*s++); }
static void putu(u64 v)
{
	char b[24];
	int n = 0;
	do b[n++] = (char)('0' + v % 10); while (v /= 10);
	while (n)
		putc_(b[--n]);
}

static void finish(unsigned code)
{
	*(volatile unsigned *)FINISHER = code ? code << 16 | 0x3333 : 0x5555;
	for (;;)
		;
}

void hart_main(u64 id)
{
	if (id > 1)
		for (;;)
			asm volatile("wfi");
	program();
	/* a round of turns on words of their own lines first: every path
	 * of the code and every line each hart touches in the window, but
	 * the words and the baton, is then in its caches */
	for (unsigned i = 0; i < 4; i++)
		snap(counts[id].v[i / 2][i % 2]);
	turns(id, &apart[id].w[1], 0, counts[id].v[0][0], counts[id].v[0][1]);
	turns(id, &adjacent.w[id], 2 * (TURNS + 1), counts[id].v[0][0], counts[id].v[0][1]);
	turns(id, &apart[id].w[0], 4 * (TURNS + 1), counts[id].v[1][0], counts[id].v[1][1]);
	if (id)
		for (;;)
			asm volatile("wfi");
	while (baton.w[0] != 6 * (TURNS + 1))   /* hart 1's last turn is over */
		;
	unsigned bad = 0;
	for (unsigned ph = 0; ph < 2; ph++)
		for (unsigned h = 0; h < 2; h++) {
			puts_(ph ? "line apart, hart " : "adjacent,   hart ");
			putu(h);
			puts_(":");
			for (unsigned i = 0; i < NSEL; i++) {
				u64 got = counts[h].v[ph][1][i] - counts[h].v[ph][0][i];
				puts_(" ");
				puts_(kind_name[kinds[i]]);
				puts_(" ");
				putu(got);
				u64 want = (u64)per_turn[ph][kinds[i]] * T;
#ifdef HOST_COUNTERS   /* QEMU has no such events: the turns alone are checked */
				want = got;
#endif
				if (got != want && !bad)
					bad = 1 + ph * 64 + h * 16 + i;
			}
			puts_("\n");
		}
	if (adjacent.w[0] != TURNS + 1 || adjacent.w[1] != TURNS + 1 ||
	    apart[0].w[0] != TURNS + 1 || apart[1].w[0] != TURNS + 1)
		bad = 255;
	finish(bad);
}
