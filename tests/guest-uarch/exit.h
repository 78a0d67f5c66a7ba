/* Shared by the guest programs: exit(0) through the Linux exit syscall. The
 * ecall traps to rvpmu's kernel and does not retire, so the counts end at
 * the two li before it. */
#define EXIT_0 \
	li a0, 0; \
	li a7, 93; \
	ecall
