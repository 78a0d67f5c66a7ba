/* NHARTS harts of the virt machine in M-mode (--bios none): mhartid,
 * atomics and LR/SC across harts, an LR's reservation lost to another
 * hart's store, IPIs through the CLINT's msip, each hart's own timer, and
 * each hart's minstret counting only its own instructions. Hart 0 checks
 * everything, prints the order the harts arrived in (what the
 * interleaving decided) and ends the run through the finisher: 0 when all
 * passed, else the number of the first failed check. */
typedef unsigned long u64;

#define FINISHER 0x100000ul
#define CLINT 0x2000000ul
#define UART 0x10000000ul
#define MSIP(i) ((volatile unsigned *)(CLINT + 4 * (i)))
#define MTIMECMP(i) ((volatile u64 *)(CLINT + 0x4000 + 8 * (i)))
#define MTIME ((volatile u64 *)(CLINT + 0xbff8))
#define MIP_MSIP (1ul << 3)
#define MIP_MTIP (1ul << 7)

#define ADDS 1000          /* each hart's increments of each shared counter */
#define LOOP 1000          /* hart i's minstret loop runs LOOP * (i + 1) times */

/* how late a timer may wake its hart, in 100 ns ticks: a quantum (100
 * ticks) and the loop's turn on rvpmu; QEMU's wake-up follows the host */
#ifdef HOST_TIME_COUNTERS
#define TIMER_SLACK (~0ul >> 1)
#else
#define TIMER_SLACK 1000
#endif

#define csrr(csr) ({ u64 v_; asm volatile("csrr %0, " #csr : "=r"(v_) :: "memory"); v_; })

static volatile unsigned arrived, order[NHARTS], bar;
static volatile unsigned amo_sum, lrsc_sum, lrsc_fails[NHARTS];
static volatile u64 ids[NHARTS], insns[NHARTS], timer_late[NHARTS];
static volatile unsigned ipi_seen[NHARTS];
static volatile unsigned resv_word, lr_done, stored, sc_result = 7;

/* Every hart waits here until all have arrived the n-th time. */
static void sync(unsigned n)
{
	__atomic_fetch_add(&bar, 1, __ATOMIC_SEQ_CST);
	while (bar < n * NHARTS)
		;
}

static void lrsc_add(volatile unsigned *p, unsigned id)
{
	unsigned fails = 0, ok;
	do {
		unsigned v;
		asm volatile("lr.w %0, (%1)" : "=r"(v) : "r"(p) : "memory");
		asm volatile("sc.w %0, %2, (%1)" : "=r"(ok) : "r"(p), "r"(v + 1) : "memory");
		fails += ok != 0;
	} while (ok);
	lrsc_fails[id] += fails;
}

static void putc_(char c)
{
	*(volatile unsigned char *)UART = (unsigned char)c;
}

static void puts_(const char *s)
{
	while (*s)
		putc_(*s++);
}

static void finish(unsigned code)
{
	*(volatile unsigned *)FINISHER = code ? code << 16 | 0x3333 : 0x5555;
	for (;;)
		;
}

/* minstret across a loop of n iterations: csrr, li, 2n, and nothing of
 * any other hart's */
static u64 count_loop(u64 n)
{
	u64 a, b;
	asm volatile("csrr %0, minstret\n\t"
		     "mv t0, %2\n"
		     "1:\taddi t0, t0, -1\n\t"
		     "bnez t0, 1b\n\t"
		     "csrr %1, minstret"
		     : "=&r"(a), "=&r"(b) : "r"(n) : "t0", "memory");
	return b - a;
}

void hart_main(u64 id)
{
	ids[id] = csrr(mhartid);
	order[__atomic_fetch_add(&arrived, 1, __ATOMIC_SEQ_CST)] = (unsigned)id;
	sync(1);

	for (int i = 0; i < ADDS; i++) {
		__atomic_fetch_add(&amo_sum, 1, __ATOMIC_RELAXED);   /* amoadd.w */
		lrsc_add(&lrsc_sum, (unsigned)id);
	}
	insns[id] = count_loop(LOOP * (id + 1));
	sync(2);

	/* hart 1 takes a reservation; hart 0 stores to it; hart 1's SC must fail */
	if (NHARTS > 1 && id == 1) {
		unsigned v, r;
		asm volatile("lr.w %0, (%1)" : "=r"(v) : "r"(&resv_word) : "memory");
		lr_done = 1;
		while (!stored)
			;
		asm volatile("sc.w %0, %2, (%1)" : "=r"(r) : "r"(&resv_word), "r"(v + 100) : "memory");
		sc_result = r;
	}
	if (NHARTS > 1 && id == 0) {
		while (!lr_done)
			;
		resv_word = 5;
		stored = 1;
	}
	sync(3);

	/* IPIs: hart 0 raises every other hart's msip; each waits for it */
#if NHARTS > 1
	if (id == 0) {
		for (unsigned i = 1; i < NHARTS; i++)
			*MSIP(i) = 1;
	} else {
		asm volatile("csrs mie, %0" :: "r"(MIP_MSIP));
		while (!(csrr(mip) & MIP_MSIP))
			asm volatile("wfi");
		*MSIP(id) = 0;
		ipi_seen[id] = (csrr(mip) & MIP_MSIP) == 0 ? 1 : 2;
		asm volatile("csrc mie, %0" :: "r"(MIP_MSIP));
	}
#endif
	sync(4);

	/* each hart's own timer, at a different time for each */
	u64 at = *MTIME + 500 * (id + 1);
	*MTIMECMP(id) = at;
	asm volatile("csrs mie, %0" :: "r"(MIP_MTIP));
	while (!(csrr(mip) & MIP_MTIP))
		asm volatile("wfi");
	timer_late[id] = *MTIME - at;
	*MTIMECMP(id) = ~0ul;
	asm volatile("csrc mie, %0" :: "r"(MIP_MTIP));
	sync(5);

	if (id != 0)
		for (;;)
			asm volatile("wfi");
	puts_("order:");
	for (unsigned i = 0; i < NHARTS; i++) {
		putc_(' ');
		putc_((char)('0' + order[i]));
	}
	unsigned fails = 0;
	for (unsigned i = 0; i < NHARTS; i++)
		fails += lrsc_fails[i];
	puts_(fails ? " lrsc: retried\n" : " lrsc: first try\n");
	for (unsigned i = 0; i < NHARTS; i++) {
		if (ids[i] != i)
			finish(1);
#ifndef HOST_TIME_COUNTERS   /* QEMU's counters follow host time */
		if (insns[i] != 2 + 2 * LOOP * (i + 1))
			finish(2);
#endif
		if (i && ipi_seen[i] != 1)
			finish(5);
		if (timer_late[i] > TIMER_SLACK)
			finish(6);
	}
	if (amo_sum != ADDS * NHARTS)
		finish(3);
	if (lrsc_sum != ADDS * NHARTS)
		finish(4);
	if (NHARTS > 1 && (sc_result == 0 || resv_word != 5))
		finish(7);
	finish(0);
}
