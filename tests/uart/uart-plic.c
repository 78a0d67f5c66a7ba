/* uart-plic: the PLIC's registers (priority and threshold width, hardwired
 * source 0, claim/complete, the gateway holding a claimed source), the
 * UART's loopback, LSR/IIR/MSR values, and the UART interrupt taken
 * through PLIC context 0 in M-mode (MEIP) and context 1 in S-mode (SEIP,
 * delegated). Loopback keeps it independent of stdin. */
#include "plic.h"

static volatile u64 got_cause, got_claim, got_char;

static int hook(u64 *f, u64 cause, u64 epc, char level)
{
	(void)f, (void)epc;
	if (!(cause & CAUSE_INT))
		return 0;
	int ctx = level == 'S';
	got_cause = cause;
	got_claim = PLIC_CLAIM(ctx);
	got_char = UART[LSR] & LSR_DR ? UART[RBR] : 0x100;
	PLIC_CLAIM(ctx) = (u32)got_claim;
	return 1;
}

static u64 meip(void)
{
	return (csrr(mip) >> IRQ_MEI) & 1;
}

static long s_wait(long arg)
{
	(void)arg;
	csrs(sie, 1ul << IRQ_SEI);
	csrs(sstatus, MSTATUS_SIE);
	for (int i = 0; i < 1000 && !got_cause; i++)
		;
	csrc(sstatus, MSTATUS_SIE);
	csrc(sie, 1ul << IRQ_SEI);
	return 0;
}

/* Checks 8.. run with the UART in loopback, where output goes nowhere:
 * values are recorded in v[] and compared once loopback is off. */
static const struct { int n; const char *what; u64 want; } later[] = {
	{8, "loopback MSR: DCD = OUT2, CTS = RTS", 0x90},
	{9, "loopback: the byte sent is received (LSR.DR)", 1},
	{10, "RBR holds it", 'A'},
	{11, "LSR.DR clear once read", 0},
	{12, "IIR: FIFOs on, no interrupt", 0xc1},
	{13, "IIR: THR empty once ETBEI is set", 0xc2},
	{14, "reading IIR cleared the THRE interrupt", 0xc1},
	{15, "IIR: received data available", 0xc4},
	{16, "source 10 pending", 1u << UART_IRQ},
	{17, "no MEIP while context 0 has it disabled", 0},
	{18, "MEIP once enabled for context 0", 1},
	{19, "threshold 1 masks priority 1, threshold 0 does not (bits: 1, 0)", 1},
	{20, "claim returns source 10", UART_IRQ},
	{21, "claimed: no longer pending though data waits", 0},
	{22, "claimed: MEIP clear", 0},
	{23, "completed with the line still high: pending again", 1u << UART_IRQ},
	{24, "line low once the byte is read: not pending", 0},
	{25, "completing a source not enabled is ignored (bits: held, pending after)", 3},
	{26, "M external interrupt taken", CAUSE_INT | IRQ_MEI},
	{27, "the M handler claimed source 10", UART_IRQ},
	{28, "and read the byte", 'D'},
	{29, "nothing pending after the handler", 0},
	{30, "context 1 drives SEIP, not MEIP (bits: MEIP, 0, SEIP)", 1},
	{31, "S external interrupt taken in S", CAUSE_INT | IRQ_SEI},
	{32, "the S handler claimed source 10 from context 1", UART_IRQ},
	{33, "and read the byte", 'E'},
	{34, "SEIP clear after the handler", 0},
	{35, "no other trap", 0},
};
static u64 v[36];

int main(void)
{
	PLIC_PRIO(UART_IRQ) = 0xffffffffu;
	rt_eq(1, "priority has 3 bits", PLIC_PRIO(UART_IRQ), 7);
	PLIC_PRIO(0) = 7;
	rt_eq(2, "source 0 priority reads 0", PLIC_PRIO(0), 0);
	PLIC_ENABLE(0, 0) = 0xffffffffu;
	rt_eq(3, "source 0 enable bit is hardwired to 0", PLIC_ENABLE(0, 0), 0xfffffffeu);
	PLIC_ENABLE(0, 0) = 0;
	PLIC_THRESHOLD(0) = 0xffffffffu;
	rt_eq(4, "threshold has 3 bits", PLIC_THRESHOLD(0), 7);
	PLIC_THRESHOLD(0) = 0;
	rt_eq(5, "claim with nothing pending is 0", PLIC_CLAIM(0), 0);
	rt_eq(6, "nothing pending", PLIC_PENDING(0) | PLIC_PENDING(1) | PLIC_PENDING(2), 0);
	rt_eq(7, "LSR at reset: THRE, TEMT, no data", UART[LSR] & 0x61, 0x60);

	UART[MCR] = MCR_LOOP | MCR_OUT2 | MCR_RTS;
	v[8] = UART[MSR] & 0xf0;
	UART[FCR] = 0x07;		/* FIFO on and cleared, trigger 1 byte */
	UART[THR] = 'A';
	v[9] = UART[LSR] & LSR_DR;
	v[10] = UART[RBR];
	v[11] = UART[LSR] & LSR_DR;
	v[12] = UART[IIR];
	UART[IER] = IER_ETBEI;
	v[13] = UART[IIR];
	v[14] = UART[IIR];
	UART[IER] = 0;

	PLIC_PRIO(UART_IRQ) = 1;
	UART[IER] = IER_ERBFI;
	UART[THR] = 'B';
	v[15] = UART[IIR];
	v[16] = PLIC_PENDING(0);
	v[17] = meip();
	PLIC_ENABLE(0, 0) = 1u << UART_IRQ;
	v[18] = meip();
	PLIC_THRESHOLD(0) = 1;
	u64 masked = meip();
	PLIC_THRESHOLD(0) = 0;
	v[19] = masked << 1 | meip();
	u32 id = PLIC_CLAIM(0);
	v[20] = id;
	v[21] = PLIC_PENDING(0);
	v[22] = meip();
	PLIC_CLAIM(0) = id;
	v[23] = PLIC_PENDING(0);
	(void)UART[RBR];
	v[24] = PLIC_PENDING(0);
	UART[THR] = 'C';
	id = PLIC_CLAIM(0);
	PLIC_CLAIM(0) = 11;		/* not enabled for context 0 */
	u64 held = PLIC_PENDING(0) == 0;
	PLIC_CLAIM(0) = id;
	v[25] = held << 1 | PLIC_PENDING(0) >> UART_IRQ;
	(void)UART[RBR];

	rt_trap_clear();
	rt_trap_hook = hook;
	UART[THR] = 'D';
	csrs(mie, 1ul << IRQ_MEI);
	csrs(mstatus, MSTATUS_MIE);
	for (int i = 0; i < 1000 && !got_cause; i++)
		;
	csrc(mstatus, MSTATUS_MIE);
	csrc(mie, 1ul << IRQ_MEI);
	v[26] = got_cause;
	v[27] = got_claim;
	v[28] = got_char;
	v[29] = PLIC_PENDING(0);

	PLIC_ENABLE(0, 0) = 0;
	PLIC_ENABLE(1, 0) = 1u << UART_IRQ;
	PLIC_THRESHOLD(1) = 0;
	csrs(mideleg, 1ul << IRQ_SEI);
	got_cause = got_claim = got_char = 0;
	UART[THR] = 'E';
	v[30] = (csrr(mip) >> IRQ_SEI) & 5;
	rt_run(PRV_S, s_wait, 0);
	v[31] = got_cause;
	v[32] = got_claim;
	v[33] = got_char;
	v[34] = (csrr(mip) >> IRQ_SEI) & 1;
	v[35] = rt_trap.count;
	UART[IER] = 0;
	UART[MCR] = 0;

	for (unsigned i = 0; i < sizeof(later) / sizeof(later[0]); i++)
		rt_eq(later[i].n, later[i].what, v[later[i].n], later[i].want);

	/* the device tree says riscv,ndev = 96: sources 1..96 exist */
	PLIC_PRIO(96) = 7;
	rt_eq(36, "source 96 has a priority register", PLIC_PRIO(96), 7);
	PLIC_PRIO(96) = 0;
	PLIC_ENABLE(0, 3) = 0xffffffffu;
	rt_eq(37, "enable word 3 holds only source 96", PLIC_ENABLE(0, 3), 1);
	PLIC_ENABLE(0, 3) = 0;
	return rt_done();
}
