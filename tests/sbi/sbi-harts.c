/* sbi-harts: the extensions that reach other harts (SBI spec "Hart State
 * Management Extension", "IPI Extension", "RFENCE Extension") and the
 * firmware events they count, on a 4-hart machine. The boot hart runs the
 * checks; "hart 1" is the next hart after it (OpenSBI's fw_jump may boot on
 * any hart under QEMU: its cold-boot lottery), started, signalled, fenced,
 * stopped, restarted and suspended; the other two stay stopped. Hart 1 never prints: it records
 * what it saw for hart 0 to check. Checks are described in
 * docs/sbi-tests.md. */
#include "rt.h"

#define NHARTS 4
#define HSM_STARTED 0
#define HSM_STOPPED 1
#define HSM_SUSPENDED 4
#define SIP_SSIP (1ul << 1)
/* hart k counted from the boot hart */
#define H(k) ((rt_hartid + (k)) % NHARTS)

/* firmware event_idx: type 15, code (SBI spec "Firmware Events") */
#define FW(code) (0xf0000ul | (code))
#define FW_IPI_SENT FW(6)
#define FW_IPI_RECEIVED FW(7)
#define FW_FENCE_I_RECEIVED FW(9)
#define FW_SFENCE_VMA_SENT FW(10)
#define FW_SFENCE_VMA_RECEIVED FW(11)

/* what hart 1 saw and did, for hart 0 */
static volatile u64 h1_a0, h1_a1, h1_satp_sie, h1_entries;
static volatile long h1_ipis, h1_ipi_recv, h1_sfence_recv, h1_fence_i_recv;
static volatile long h1_suspend_ret = 99;
/* hart 0's requests to hart 1, one step at a time */
static volatile int step, h1_done;
u64 h1_stack[512] __attribute__((aligned(16)));

void h1_entry(void);
void h1_trap_entry(void);
asm(".option push\n.option norelax\n"
    ".balign 4\n.globl h1_entry\nh1_entry:\n"
    "\tla sp, h1_stack + 4096\n"
    "\tcall h1_main\n"
    "1:\tj 1b\n"
    /* hart 1's S software interrupts: count them and clear SSIP */
    ".balign 4\n.globl h1_trap_entry\nh1_trap_entry:\n"
    "\taddi sp, sp, -16\n\tsd t0, 0(sp)\n\tsd t1, 8(sp)\n"
    "\tli t0, 2\n\tcsrc sip, t0\n"
    "\tla t0, h1_ipis\n\tld t1, 0(t0)\n\taddi t1, t1, 1\n\tsd t1, 0(t0)\n"
    "\tld t0, 0(sp)\n\tld t1, 8(sp)\n\taddi sp, sp, 16\n\tsret\n"
    ".option pop\n");

static void wait_step(int s)
{
	while (step < s)
		;
}

void h1_main(u64 a0, u64 a1)
{
	h1_a0 = a0;
	h1_a1 = a1;
	/* the start state: satp = 0 and sstatus.SIE = 0 */
	h1_satp_sie = csrr(satp) | (csrr(sstatus) & SSTATUS_SIE);
	h1_entries++;
	if (h1_entries > 1) {   /* restarted after hart_stop: suspend tests */
		asm volatile("csrw stvec, %0" :: "r"(h1_trap_entry));
		csrs(sie, SIP_SSIP);
		csrs(sstatus, SSTATUS_SIE);
		h1_done = 10;
		wait_step(11);
		struct sbiret r = sbi3(SBI_EXT_HSM, 3, 0, 0, 0);   /* retentive */
		h1_suspend_ret = r.error;
		h1_done = 11;
		wait_step(12);
		sbi0(SBI_EXT_HSM, 1);   /* stopped again before hart 0 shuts down */
		for (;;)
			;
	}
	asm volatile("csrw stvec, %0" :: "r"(h1_trap_entry));
	long ipi = fw_counter(FW_IPI_RECEIVED), sf = fw_counter(FW_SFENCE_VMA_RECEIVED);
	long fi = fw_counter(FW_FENCE_I_RECEIVED);
	csrs(sie, SIP_SSIP);
	csrs(sstatus, SSTATUS_SIE);
	h1_done = 1;
	while (!h1_ipis)   /* hart 0's IPI */
		asm volatile("wfi");
	h1_ipi_recv = fw_read(ipi);
	h1_done = 2;
	wait_step(3);      /* hart 0 has fenced this hart */
	h1_sfence_recv = fw_read(sf);
	h1_fence_i_recv = fw_read(fi);
	h1_done = 3;
	wait_step(4);
	sbi0(SBI_EXT_HSM, 1);   /* hart_stop: returns only on failure */
	h1_done = -1;
	for (;;)
		;
}

static long status(u64 hart)
{
	struct sbiret r = sbi1(SBI_EXT_HSM, 2, hart);
	return r.error ? r.error : r.value;
}

static void wait_status(u64 hart, long s)
{
	for (long i = 0; i < 100000000 && status(hart) != s; i++)
		;
}

static void wait_h1(int d)
{
	for (long i = 0; i < 100000000 && h1_done != d; i++)
		;
}

int main(void)
{
	struct sbiret r = sbi0(SBI_EXT_BASE, SBI_BASE_GET_IMPL_ID);
	/* an address S cannot start at: OpenSBI guards its own image at the
	 * start of RAM; rvpmu's firmware is not in RAM, and nothing is at 0 */
	u64 bad = r.value == 1 ? 0x80000000ul : 0;

	rt_eq(1, "hart_get_status(H(1)) = STOPPED at boot", status(H(1)), HSM_STOPPED);
	rt_eq(2, "hart_get_status(H(3)) = STOPPED at boot", status(H(3)), HSM_STOPPED);
	rt_eq(3, "hart_get_status(NHARTS) -> INVALID_PARAM", status(NHARTS), SBI_ERR_INVALID_PARAM);
	r = sbi3(SBI_EXT_HSM, 0, NHARTS, (u64)h1_entry, 0);
	rt_eq(4, "hart_start(NHARTS) -> INVALID_PARAM", r.error, SBI_ERR_INVALID_PARAM);
	r = sbi3(SBI_EXT_HSM, 0, 1, bad, 0);
	rt_eq(5, "hart_start(1, unusable start_addr) -> INVALID_ADDRESS", r.error,
	      SBI_ERR_INVALID_ADDRESS);
	r = sbi3(SBI_EXT_HSM, 0, H(0), (u64)h1_entry, 0);
	rt_eq(6, "hart_start(self) -> ALREADY_AVAILABLE", r.error, SBI_ERR_ALREADY_AVAILABLE);

	r = sbi3(SBI_EXT_HSM, 0, H(1), (u64)h1_entry, 0x1234abcd);
	rt_eq(7, "hart_start(1) succeeds", r.error, 0);
	wait_h1(1);
	rt_eq(8, "hart 1 runs: hart_get_status(H(1)) = STARTED", status(H(1)), HSM_STARTED);
	rt_eq(9, "hart 1 starts with a0 = its hartid", h1_a0, H(1));
	rt_eq(10, "hart 1 starts with a1 = opaque", h1_a1, 0x1234abcd);
	rt_eq(11, "hart 1 starts with satp = 0 and sstatus.SIE = 0", h1_satp_sie, 0);
	r = sbi3(SBI_EXT_HSM, 0, H(1), (u64)h1_entry, 0);
	rt_eq(12, "hart_start(1) again -> ALREADY_AVAILABLE", r.error, SBI_ERR_ALREADY_AVAILABLE);

	long ipi_sent = fw_counter(FW_IPI_SENT), sf_sent = fw_counter(FW_SFENCE_VMA_SENT);
	rt_check(13, "firmware counters for IPI_SENT and SFENCE_VMA_SENT", ipi_sent >= 0 && sf_sent >= 0,
		 (u64)ipi_sent, 0);
	r = sbi2(SBI_EXT_IPI, 0, 1ul << H(1), 0);
	rt_eq(14, "send_ipi(hart 1) succeeds", r.error, 0);
	wait_h1(2);
	rt_eq(15, "hart 1 took one S software interrupt", h1_ipis, 1);
	rt_eq(16, "IPI_SENT on hart 0 = 1", fw_read(ipi_sent), 1);
	rt_eq(17, "IPI_RECEIVED on hart 1 = 1", h1_ipi_recv, 1);

	r = sbi4(SBI_EXT_RFENCE, 1, 1ul << H(1), 0, 0, 0);
	rt_eq(18, "remote_sfence_vma(hart 1) succeeds", r.error, 0);
	r = sbi2(SBI_EXT_RFENCE, 0, 1ul << H(1), 0);
	rt_eq(19, "remote_fence_i(hart 1) succeeds", r.error, 0);
	step = 3;
	wait_h1(3);
	rt_eq(20, "SFENCE_VMA_SENT on hart 0 = 1", fw_read(sf_sent), 1);
	rt_eq(21, "SFENCE_VMA_RECEIVED on hart 1 = 1", h1_sfence_recv, 1);
	rt_eq(22, "FENCE_I_RECEIVED on hart 1 = 1", h1_fence_i_recv, 1);
	rt_eq(23, "IPI_SENT on hart 0 = 3 (an IPI for each remote fence)", fw_read(ipi_sent), 3);
	rt_eq(24, "hart 1 took no S interrupt for the fences", h1_ipis, 1);

	/* an IPI to itself: SSIP pending here, nothing counted */
	r = sbi2(SBI_EXT_IPI, 0, 1ul << H(0), 0);
	rt_eq(25, "send_ipi(self) succeeds", r.error, 0);
	rt_eq(26, "send_ipi(self) sets sip.SSIP", csrr(sip) & SIP_SSIP, SIP_SSIP);
	csrc(sip, SIP_SSIP);
	rt_eq(27, "send_ipi(self) counts no IPI_SENT", fw_read(ipi_sent), 3);
	r = sbi2(SBI_EXT_IPI, 0, 1, NHARTS);
	rt_eq(28, "send_ipi(hart_mask_base = NHARTS) -> INVALID_PARAM", r.error, SBI_ERR_INVALID_PARAM);
	r = sbi2(SBI_EXT_IPI, 0, 1ul << NHARTS, 0);
	rt_eq(29, "send_ipi(hart NHARTS in the mask) -> INVALID_PARAM", r.error, SBI_ERR_INVALID_PARAM);
	r = sbi2(SBI_EXT_IPI, 0, 0, 0);
	rt_eq(30, "send_ipi(empty mask) succeeds", r.error, 0);
	r = sbi2(SBI_EXT_IPI, 0, 1ul << H(2), 0);
	rt_eq(31, "send_ipi(a stopped hart) succeeds", r.error, 0);
	rt_eq(32, "... and signals nothing (IPI_SENT unchanged)", fw_read(ipi_sent), 3);

	step = 4;
	wait_status(1, HSM_STOPPED);
	rt_eq(33, "hart_stop: hart_get_status(H(1)) = STOPPED", status(H(1)), HSM_STOPPED);
	rt_eq(34, "hart_stop does not return", h1_done, 3);
	r = sbi3(SBI_EXT_HSM, 0, H(1), (u64)h1_entry, 7);
	rt_eq(35, "hart_start(1) after hart_stop succeeds", r.error, 0);
	wait_h1(10);
	rt_eq(36, "hart 1 starts again with a1 = opaque", h1_a1, 7);

	step = 11;
	wait_status(1, HSM_SUSPENDED);
	rt_eq(37, "hart_suspend(retentive): hart_get_status(H(1)) = SUSPENDED", status(H(1)), HSM_SUSPENDED);
	sbi2(SBI_EXT_IPI, 0, 1ul << H(1), 0);
	wait_h1(11);
	rt_eq(38, "an IPI resumes it: hart_suspend returns SUCCESS", h1_suspend_ret, 0);
	rt_eq(39, "... after its S software interrupt", h1_ipis, 2);
	rt_eq(40, "hart_get_status(H(1)) = STARTED after resuming", status(H(1)), HSM_STARTED);
	r = sbi3(SBI_EXT_HSM, 3, 1, 0, 0);
	rt_eq(41, "hart_suspend(reserved type 1) -> INVALID_PARAM", r.error, SBI_ERR_INVALID_PARAM);
	r = sbi3(SBI_EXT_HSM, 3, 0x10000000, 0, 0);
	rt_eq(42, "hart_suspend(platform type, none here) -> NOT_SUPPORTED", r.error,
	      SBI_ERR_NOT_SUPPORTED);
	rt_eq(43, "hart 2 is still STOPPED", status(H(2)), HSM_STOPPED);
	step = 12;
	wait_status(1, HSM_STOPPED);
	rt_eq(44, "hart_stop again: hart_get_status(H(1)) = STOPPED", status(H(1)), HSM_STOPPED);
	return 0;
}
