/* libFuzzer target for the user-mode ELF loader: any byte string must load
 * or give a one-line reason, never crash or leak. Built and run by
 * tests/fuzz/run.sh (clang -fsanitize=fuzzer,address,undefined). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "rvpmu/hart.h"
#include "rvpmu/linux.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct hart h;
	/* A fresh address space per input: a loaded image must not leak into
	 * the next one. The memory cap keeps huge-bss inputs fast. */
	if (hart_init(&h))
		return 0;
	struct linux_opts o = { .max_mem_mb = 256, .warn_fd = 2 };
	char *argv[] = { "fuzz", "arg", NULL }, *envp[] = { "A=1", NULL };
	char err[512];
	err[0] = 0;
	if (linux_load_image(&h, &o, data, size, "fuzz", 2, argv, envp, err, sizeof(err))) {
		/* the reason is one line of text */
		if (!err[0] || strchr(err, '\n'))
			__builtin_trap();
	}
	linux_free();
	hart_free(&h);
	return 0;
}
