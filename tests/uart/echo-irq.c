/* echo-irq: the same echo, but the hart sleeps in WFI and takes the UART's
 * receive interrupt through the PLIC (source 10, context 0 = M-mode,
 * mip.MEIP). FIFO on with trigger level 8, so data below it arrives as a
 * character timeout. Any unexpected claim ID, IIR value or trap is
 * reported after "end" and fails the run; interrupts with nothing to read
 * (IIR "none") are counted on a "spurious N" line. */
#include "plic.h"

static volatile int done;
static volatile u64 bad_claim, bad_iir, nirq, spurious;

static int hook(u64 *f, u64 cause, u64 epc, char level)
{
	(void)f, (void)epc;
	if (level != 'M' || cause != (CAUSE_INT | IRQ_MEI))
		return 0;
	nirq++;
	u32 id = PLIC_CLAIM(0);
	if (id != UART_IRQ && !bad_claim)
		bad_claim = id | 0x100;
	unsigned iir = UART[IIR];
	if (iir == 0xc1)
		spurious++;	/* the UART has no interrupt pending */
	else if ((iir & 0x0f) != 0x04 && (iir & 0x0f) != 0x0c && !bad_iir)
		bad_iir = iir | 0x100;
	while (UART[LSR] & LSR_DR) {
		int c = UART[RBR];
		if (c == EOT)
			done = 1;
		else if (!done)
			rt_putc(c);
	}
	PLIC_CLAIM(0) = id;
	return 1;
}

int main(void)
{
	UART[FCR] = 0x87;		/* FIFO on, receive FIFO cleared, trigger 8 */
	UART[IER] = IER_ERBFI;
	PLIC_PRIO(UART_IRQ) = 1;
	PLIC_ENABLE(0, 0) = 1u << UART_IRQ;
	PLIC_THRESHOLD(0) = 0;
	rt_trap_clear();
	rt_trap_hook = hook;
	rt_puts("echo:");
	csrs(mie, 1ul << IRQ_MEI);
	/* WFI with MIE clear still wakes on the pending interrupt; it is
	 * taken once MIE is set, so no wakeup is lost between test and WFI */
	for (;;) {
		csrc(mstatus, MSTATUS_MIE);
		if (done)
			break;
		asm volatile("wfi");
		csrs(mstatus, MSTATUS_MIE);
	}
	csrc(mie, 1ul << IRQ_MEI);
	UART[IER] = 0;
	rt_puts("\nend\n");
	if (spurious) {
		rt_puts("spurious ");
		rt_putdec((long)spurious);
		rt_puts("\n");
	}
	if (bad_claim || bad_iir || rt_trap.count || !nirq) {
		rt_puts("FAIL claim ");
		rt_puthex(bad_claim);
		rt_puts(" iir ");
		rt_puthex(bad_iir);
		rt_puts(" other traps ");
		rt_putdec(rt_trap.count);
		rt_puts(" interrupts ");
		rt_putdec((long)nirq);
		rt_puts("\n");
		return 1;
	}
	return 0;
}
