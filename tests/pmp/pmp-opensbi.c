/* pmp-opensbi: an S-mode payload under OpenSBI (fw_jump): the firmware's
 * own region at 0x80000000 is closed to S by the PMP entries OpenSBI
 * programs, and OpenSBI redirects the access fault to S. Built with the
 * tests/sbi runtime. See docs/pmp-tests.md. */
#include "rt.h"

#define FW_BASE 0x80000000ul

extern volatile u64 sprobe_rec[4];	/* count, scause, sepc, stval */
long sprobe_ld(long), sprobe_sd(long), sprobe_jmp(long);
extern char sprobe_ld_at[], sprobe_sd_at[];
static volatile u64 own_word = 0x1234;

static void clear(void)
{
	for (int i = 0; i < 4; i++)
		sprobe_rec[i] = ~0ul;
	sprobe_rec[0] = 0;
}

/* checks n..n+3: one trap with cause, sepc, stval */
static void trapped(int n, const char *what, u64 cause, u64 epc, u64 tval)
{
	rt_eq(n, what, sprobe_rec[0], 1);
	rt_eq(n + 1, "  scause", sprobe_rec[1], cause);
	rt_eq(n + 2, "  sepc", sprobe_rec[2], epc);
	rt_eq(n + 3, "  stval", sprobe_rec[3], tval);
}

int main(void)
{
	clear();
	long v = sprobe_ld((long)&own_word);
	rt_eq(1, "S ld from the payload's own data: no trap", sprobe_rec[0], 0);
	rt_eq(2, "  and it read the word", (u64)v, 0x1234);
	clear();
	sprobe_ld((long)FW_BASE);
	trapped(3, "S ld 0x80000000 (OpenSBI) traps once, in S", 5, (u64)sprobe_ld_at, FW_BASE);
	clear();
	sprobe_sd((long)(FW_BASE + 8));
	trapped(7, "S sd 0x80000008 (OpenSBI) traps once, in S", 7, (u64)sprobe_sd_at,
		FW_BASE + 8);
	clear();
	sprobe_jmp((long)FW_BASE);
	trapped(11, "S jump to 0x80000000 (OpenSBI) traps once, in S", 1, FW_BASE, FW_BASE);
	return 0;
}
