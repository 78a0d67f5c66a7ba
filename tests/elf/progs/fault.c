/* Dies the way argv[1] says: segv, abort, ebreak, ill, misaligned-amo,
 * or loops forever ("loop", for --max-insns). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
	const char *w = argc > 1 ? argv[1] : "";
	if (!strcmp(w, "segv"))
		return *(volatile int *)(uintptr_t)argc;
	if (!strcmp(w, "abort"))
		abort();
	if (!strcmp(w, "ebreak"))
		__asm__ volatile("ebreak");
	if (!strcmp(w, "ill"))
		__asm__ volatile(".word 0");
	if (!strcmp(w, "misaligned-amo")) {
		static uint64_t buf[2];
		uint64_t old, *p = (uint64_t *)((char *)buf + 1);
		__asm__ volatile("amoadd.d %0, %2, (%1)" : "=r"(old) : "r"(p), "r"(1ull) : "memory");
		return (int)old;
	}
	if (!strcmp(w, "loop"))
		for (;;)
			__asm__ volatile("");
	return 0;
}
