/* echo-poll: M-mode, no interrupts: print "echo:", then echo every byte
 * read from the UART by polling LSR.DR until EOT, then "\nend\n". */
#include "plic.h"

int main(void)
{
	rt_puts("echo:");
	for (;;) {
		while (!(UART[LSR] & LSR_DR))
			;
		int c = UART[RBR];
		if (c == EOT)
			break;
		rt_putc(c);
	}
	rt_puts("\nend\n");
	return 0;
}
