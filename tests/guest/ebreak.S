/* ebreak and c.ebreak raise a breakpoint exception: Linux delivers
 * SIGTRAP, fatal with no handler installed: exit status 128 + 5.
 * suite: expect-exit 133
 * suite: variants full compressed */
#include "test.h"
	TEST_BEGIN
	li t0, 1
#if defined(V_full)
	.option push
	.option norvc
	ebreak
	.option pop
#elif defined(V_compressed)
	c.ebreak
#else
#error "no variant"
#endif
	EXIT 1
	TEST_END
