/* ns16550a UART at 0x10000000 (as on QEMU virt), PLIC source 10. The
 * transmitter is always ready (LSR reports THRE and TEMT); received bytes
 * wait in the FIFO (16 bytes, 1 with FCR.FIFOE clear) that the console
 * fills. */
#include <libfdt.h>
#include "rvpmu/machine.h"

enum { RBR_THR = 0, IER = 1, IIR_FCR = 2, LCR = 3, MCR = 4, LSR = 5, MSR = 6, SCR = 7 };
#define IER_ERBFI 0x01           /* received data available */
#define IER_ETBEI 0x02           /* THR empty */
#define IIR_NONE  0x01
#define IIR_THRE  0x02
#define IIR_RDA   0x04
#define IIR_CTI   0x0c           /* character timeout */
#define IIR_FIFO  0xc0
#define FCR_FIFOE 0x01
#define FCR_RXCLR 0x02
#define LCR_DLAB  0x80
#define MCR_LOOP  0x10
#define LSR_DR    0x01
#define LSR_THRE  0x20
#define LSR_TEMT  0x40

static unsigned capacity(const struct uart *u)
{
	return u->fcr & FCR_FIFOE ? UART_FIFO : 1;
}

unsigned uart_rx_room(const struct uart *u)
{
	/* in loopback the receiver hears only the transmitter */
	return u->mcr & MCR_LOOP ? 0 : capacity(u) - u->rx_count;
}

static void rx_put(struct uart *u, uint8_t c)
{
	if (u->rx_count < capacity(u))
		u->rx[(u->rx_head + u->rx_count++) % UART_FIFO] = c;
}

void uart_rx_push(struct uart *u, uint8_t c)
{
	if (uart_rx_room(u))
		rx_put(u, c);
}

/* Receive trigger level, FCR bits 7:6: 1, 4, 8 or 14 bytes. */
static unsigned trigger(const struct uart *u)
{
	static const unsigned lvl[4] = {1, 4, 8, 14};
	return u->fcr & FCR_FIFOE ? lvl[u->fcr >> 6] : 1;
}

/* Interrupt identification, highest priority first (no line status or
 * modem status interrupts ever arise here). Data below the trigger level
 * reports as a character timeout: no time passes while the FIFO waits. */
static uint8_t iir(const struct uart *u)
{
	uint8_t fifo = u->fcr & FCR_FIFOE ? IIR_FIFO : 0;
	if ((u->ier & IER_ERBFI) && u->rx_count)
		return fifo | (u->rx_count < trigger(u) ? IIR_CTI : IIR_RDA);
	if ((u->ier & IER_ETBEI) && u->thre_ip)
		return fifo | IIR_THRE;
	return fifo | IIR_NONE;
}

int uart_irq(const struct uart *u)
{
	return !(iir(u) & IIR_NONE);
}

int uart_access(struct uart *u, uint64_t off, unsigned size, uint64_t *val, int write)
{
	if (size != 1 || off > SCR)
		return -1;
	int dlab = u->lcr & LCR_DLAB;
	if (write) {
		uint8_t v = (uint8_t)*val;
		switch (off) {
		case RBR_THR:
			if (dlab) {
				u->dll = v;
				break;
			}
			if (u->mcr & MCR_LOOP)
				rx_put(u, v);
			else if (u->out)
				fputc(v, u->out), fflush(u->out);
			u->thre_ip = 1;  /* sent at once: THR is empty again */
			break;
		case IER:
			if (dlab) {
				u->dlm = v;
				break;
			}
			/* enabling the THRE interrupt with THR empty raises it */
			if ((v & IER_ETBEI) && !(u->ier & IER_ETBEI))
				u->thre_ip = 1;
			u->ier = v & 0x0f;
			break;
		case IIR_FCR:
			/* switching the FIFOs on or off empties them */
			if ((v ^ u->fcr) & FCR_FIFOE || (v & FCR_RXCLR))
				u->rx_count = 0;
			u->fcr = v & 0xc1;
			break;
		case LCR: u->lcr = v; break;
		case MCR: u->mcr = v & 0x1f; break;
		case SCR: u->scr = v; break;
		}
		return 0;
	}
	switch (off) {
	case RBR_THR:
		if (dlab) {
			*val = u->dll;
		} else if (u->rx_count) {
			*val = u->rx[u->rx_head];
			u->rx_head = (u->rx_head + 1) % UART_FIFO;
			u->rx_count--;
		} else {
			*val = 0;
		}
		break;
	case IER: *val = dlab ? u->dlm : u->ier; break;
	case IIR_FCR:
		*val = iir(u);
		if ((*val & 0x0f) == IIR_THRE)
			u->thre_ip = 0;  /* reading IIR clears a THRE interrupt */
		break;
	case LCR: *val = u->lcr; break;
	case MCR: *val = u->mcr; break;
	case LSR: *val = LSR_THRE | LSR_TEMT | (u->rx_count ? LSR_DR : 0); break;
	case MSR:
		if (u->mcr & MCR_LOOP)  /* DCD=OUT2, RI=OUT1, DSR=DTR, CTS=RTS */
			*val = (uint64_t)(((u->mcr & 0x08) << 4) | ((u->mcr & 0x04) << 4) |
					  ((u->mcr & 0x01) << 5) | ((u->mcr & 0x02) << 3));
		else
			*val = 0xb0;  /* CTS, DSR, DCD */
		break;
	case SCR: *val = u->scr; break;
	}
	return 0;
}

int uart_dt(void *fdt, const struct machine *m)
{
	(void)m;
	int e = fdt_property_string(fdt, "compatible", "ns16550a");
	return e < 0 ? e : fdt_property_u32(fdt, "clock-frequency", 3686400);
}
