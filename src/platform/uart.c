/* ns16550a UART at 0x10000000 (as on QEMU virt): transmit only. The
 * transmitter is always ready, so LSR reports THRE and TEMT. */
#include "rvpmu/machine.h"

enum { RBR_THR = 0, IER = 1, IIR_FCR = 2, LCR = 3, MCR = 4, LSR = 5, MSR = 6, SCR = 7 };
#define LCR_DLAB 0x80
#define LSR_THRE 0x20
#define LSR_TEMT 0x40

int uart_access(struct uart *u, uint64_t off, unsigned size, uint64_t *val, int write)
{
	if (size != 1 || off > SCR)
		return -1;
	int dlab = u->lcr & LCR_DLAB;
	if (write) {
		uint8_t v = (uint8_t)*val;
		switch (off) {
		case RBR_THR:
			if (dlab)
				u->dll = v;
			else if (u->out)
				fputc(v, u->out), fflush(u->out);
			break;
		case IER: if (dlab) u->dlm = v; else u->ier = v & 0x0f; break;
		case LCR: u->lcr = v; break;
		case MCR: u->mcr = v & 0x1f; break;
		case SCR: u->scr = v; break;
		}
		return 0;
	}
	switch (off) {
	case RBR_THR: *val = dlab ? u->dll : 0; break;
	case IER: *val = dlab ? u->dlm : u->ier; break;
	case IIR_FCR: *val = 0xc1; break;  /* FIFOs enabled, no interrupt pending */
	case LCR: *val = u->lcr; break;
	case MCR: *val = u->mcr; break;
	case LSR: *val = LSR_THRE | LSR_TEMT; break;
	case MSR: *val = 0xb0; break;      /* CTS, DSR, DCD */
	case SCR: *val = u->scr; break;
	}
	return 0;
}
