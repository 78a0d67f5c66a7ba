/* Host side of tests/jit-system: prints the values hot.c's kernels must
 * return, as a header (the suite writes it to $BUILD). */
#include <stdio.h>
#include "kernels.h"

static k64 buf[KWORDS];

int main(void)
{
	printf("#define EXP_LOADSTORE 0x%llxull\n", k_loadstore(buf, K_ITERS_LS));
	printf("#define EXP_ATOMIC 0x%llxull\n", k_atomic(buf, K_ITERS_AMO));
	printf("#define EXP_FP 0x%llxull\n", k_fp(K_ITERS_FP));
	printf("#define EXP_MULDIV 0x%llxull\n", k_muldiv(K_ITERS_MD));
	printf("#define EXP_BITMANIP 0x%llxull\n", k_bitmanip(buf, K_ITERS_BIT));
	printf("#define EXP_LOADSTORE_S 0x%llxull\n", k_loadstore(buf, K_ITERS_LS / 4));
	return 0;
}
