/* Read one counter CSR from U-mode: rdctr cycle|time|instret|hpm3.
 * Exits 0 after the read; a trap kills it with SIGILL (exit 132). */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	unsigned long v = 0;
	const char *w = argc > 1 ? argv[1] : "";
	if (!strcmp(w, "cycle"))
		asm volatile("rdcycle %0" : "=r"(v));
	else if (!strcmp(w, "time"))
		asm volatile("rdtime %0" : "=r"(v));
	else if (!strcmp(w, "instret"))
		asm volatile("rdinstret %0" : "=r"(v));
	else if (!strcmp(w, "hpm3"))
		asm volatile("csrr %0, hpmcounter3" : "=r"(v));
	else
		return 2;
	printf("%s %lu\n", w, v);
	return 0;
}
