/* The virt machine's UART (ns16550a) and PLIC registers, for the
 * tests/uart programs (QEMU virt map: UART at 0x10000000 on PLIC source
 * 10, PLIC at 0xc000000 with context 0 = hart 0 M, 1 = hart 0 S). */
#ifndef UART_PLIC_H
#define UART_PLIC_H
#include "rt.h"

#define UART ((volatile unsigned char *)0x10000000ul)
enum { RBR = 0, THR = 0, IER = 1, IIR = 2, FCR = 2, LCR = 3, MCR = 4, LSR = 5, MSR = 6 };
#define LSR_DR 0x01
#define LSR_THRE 0x20
#define IER_ERBFI 0x01
#define IER_ETBEI 0x02
#define MCR_RTS 0x02
#define MCR_OUT2 0x08
#define MCR_LOOP 0x10
#define UART_IRQ 10

#define PLIC_BASE 0xc000000ul
#define PLIC_REG(off) (*(volatile u32 *)(PLIC_BASE + (off)))
#define PLIC_PRIO(src) PLIC_REG(4ul * (src))
#define PLIC_PENDING(w) PLIC_REG(0x1000ul + 4ul * (w))
#define PLIC_ENABLE(ctx, w) PLIC_REG(0x2000ul + 0x80ul * (ctx) + 4ul * (w))
#define PLIC_THRESHOLD(ctx) PLIC_REG(0x200000ul + 0x1000ul * (ctx))
#define PLIC_CLAIM(ctx) PLIC_REG(0x200004ul + 0x1000ul * (ctx))

#define IRQ_SEI 9
#define IRQ_MEI 11
#define EOT 0x04		/* ends the echo programs' input */

#endif
