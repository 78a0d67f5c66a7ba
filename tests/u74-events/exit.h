/* exit(0) through the Linux exit syscall. The ecall traps to rvpmu's
 * kernel and does not retire, so every count ends at the two li (two
 * integer ALU instructions) before it. */
#define EXIT_0 \
	li a0, 0; \
	li a7, 93; \
	ecall
