/* libFuzzer target: translated code in system mode against the step loop.
 * The input is code run on the virt machine (`rvpmu system --bios none`)
 * twice, translated and with --no-jit (machine_opts.no_jit), to the same
 * instruction budget; everything must come out the same: each hart's x
 * and f registers, pc, mode, retired instructions and modelled cycles,
 * the trap CSRs (mcause, mepc, mtval, mstatus, mip, sepc, scause, stval),
 * every PMU counter (mcycle, minstret, mhpmcounter3..31 with events
 * programmed, their selectors, the overflow bits), the models' event
 * totals, all of RAM, the UART output and the exit status. A difference
 * is a crash. Built and run by tests/fuzz/run_sysjit.sh.
 *
 * Input: byte 0 picks the machine, the rest is the code (at most 4 KiB,
 * at 0x80001000).
 *   bit 0: core profile: 0 none (the default PMU, with Sscofpmf), 1 u74
 *   bit 1: the code runs in S (mret from M, PMP allowing all), else in M
 *   bit 2: --no-uarch (the profile's PMU without its models)
 *   bit 3: machine-timer interrupts every 17 ticks
 *   bit 4: mhpmcounter3 overflows every 777 retired instructions
 *          (LCOFI with Sscofpmf)
 *   bit 5: two harts (--smp 2) running the same code
 *   bit 6: with bit 1, Sv39 paging: the devices and RAM mapped where
 *          they are, but the data area's 4 KiB pages swapped in pairs
 *          (a virtual address is not its physical one) and every other
 *          page without D (the first store walks again)
 * A handler at mtvec (the stub page) skips a faulting instruction
 * (mepc + 4) and, for an interrupt, moves mtimecmp on, re-arms
 * mhpmcounter3 and clears OF and mip.LCOFIP. Registers start as in
 * fuzz_jit.c: odd ones point into a data area, even ones hold scattered
 * bits. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "rvpmu/machine.h"
#include "rvpmu/profile.h"

#define MAX_INSNS 10000
#define RAM_MB 2
#define RAM_BYTES ((uint64_t)RAM_MB << 20)
#define STUB 0x80000000ull     /* mret, then the trap handler */
#define CODE 0x80001000ull
#define DATA 0x80002000ull     /* 16 KiB the registers point into */
#define PERIOD 777             /* mhpmcounter3's overflow period */
#define TICKS 17               /* the timer's */
#define OUT_MAX 4096           /* UART bytes compared */

/* CSRs compared (read as M would); a read that traps compares as such */
static const unsigned csrs[] = {
	0x300, 0x304, 0x305, 0x340, 0x341, 0x342, 0x343, 0x344, 0x100, 0x104, 0x105,
	0x140, 0x141, 0x142, 0x143, 0x180, 0x003, 0x306, 0x106, 0x320, 0xda0,
};

struct outcome {
	int status;
	uint64_t x[2][32], f[2][32], pc[2], priv[2], instret[2], cycles[2];
	uint64_t csr[2][sizeof(csrs) / sizeof(csrs[0])];
	int csr_rc[2][sizeof(csrs) / sizeof(csrs[0])];
	uint64_t ctr[2][32], ev_sel[2][32];   /* 0xb00.., 0x320.. */
	uint64_t uev[2][UARCH_EV_COUNT];
	size_t out_len;
	char out[OUT_MAX];
};

static struct profile u74;
static uint8_t ram_a[RAM_BYTES], ram_b[RAM_BYTES];
static struct outcome oa, ob;
static uint64_t blocks;   /* translated in the last run (not compared) */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	char err[512];
	if (profile_load("u74", &u74, err, sizeof(err))) {
		fprintf(stderr, "fuzz_sysjit: %s\n", err);
		exit(1);
	}
	gmem_space = 1ull << 32;   /* RAM ends below 4 GiB */
	return 0;
}

/* instruction encodings for the stub and handler */
static uint32_t itype(int imm, unsigned rs1, unsigned f3, unsigned rd, unsigned op)
{
	return ((uint32_t)imm & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}
#define ADDI(rd, rs1, imm) itype((imm), (rs1), 0, (rd), 0x13)
#define SLLI(rd, rs1, sh) itype((sh), (rs1), 1, (rd), 0x13)
#define LD(rd, rs1, imm) itype((imm), (rs1), 3, (rd), 0x03)
#define CSRRW(rd, csr, rs1) itype((int)(csr), (rs1), 1, (rd), 0x73)
#define CSRRS(rd, csr, rs1) itype((int)(csr), (rs1), 2, (rd), 0x73)
#define CSRRC(rd, csr, rs1) itype((int)(csr), (rs1), 3, (rd), 0x73)
#define LUI(rd, imm20) ((uint32_t)(imm20) << 12 | (rd) << 7 | 0x37)
#define SD(rs2, rs1, imm) ((((uint32_t)(imm) >> 5) & 0x7f) << 25 | (rs2) << 20 | (rs1) << 15 | 3 << 12 | \
			   ((uint32_t)(imm) & 0x1f) << 7 | 0x23)
/* blt rs1, x0, +off (off < 2048, a multiple of 2, positive) */
#define BLTZ(rs1, off) ((((uint32_t)(off) >> 5) & 0x3f) << 25 | (rs1) << 15 | 4 << 12 | \
			(((uint32_t)(off) >> 1) & 0xf) << 8 | (((uint32_t)(off) >> 11) & 1) << 7 | 0x63)
#define ADD(rd, rs1, rs2) ((rs2) << 20 | (rs1) << 15 | (rd) << 7 | 0x33u)
#define MRET 0x30200073u

static void write_stub(uint8_t *ram)
{
	const uint32_t code[] = {
		MRET, 0, 0, 0,
		/* 0x10: mtvec */
		CSRRS(31, 0x342, 0),       /* x31 = mcause */
		BLTZ(31, 20),              /* an interrupt: 5 words on */
		CSRRS(31, 0x341, 0),       /* exception: mepc += 4 */
		ADDI(31, 31, 4),
		CSRRW(0, 0x341, 31),
		MRET,
		/* interrupt: mtimecmp (hart 0's; hart 1's is 8 further) += TICKS */
		CSRRS(31, 0xf14, 0),       /* mhartid */
		SLLI(31, 31, 3),
		LUI(30, 0x2004),
		ADD(30, 30, 31),
		LD(31, 30, 0),
		ADDI(31, 31, TICKS),
		SD(31, 30, 0),
		ADDI(31, 0, -PERIOD),      /* mhpmcounter3 = -PERIOD */
		CSRRW(0, 0xb03, 31),
		ADDI(31, 0, -1),           /* clear mhpmevent3.OF */
		SLLI(31, 31, 63),
		CSRRC(0, 0x323, 31),
		LUI(31, 2),                /* clear mip.LCOFIP (bit 13) */
		CSRRC(0, 0x344, 31),
		MRET,
	};
	memcpy(ram + (STUB - VIRT_DRAM_BASE), code, sizeof(code));
}

/* the events counted: the default PMU's selectors are enum pmu_event
 * values; the U74's, class | bit mask (profiles/u74.json) */
static const uint64_t ev_default[] = {
	PMU_EV_INSTRET, PMU_EV_LOAD, PMU_EV_STORE, PMU_EV_BRANCH_TAKEN, PMU_EV_JALR,
	PMU_EV_FP, PMU_EV_ATOMIC, PMU_EV_CSR, PMU_EV_EXCEPTION, PMU_EV_INTERRUPT,
	PMU_EV_INT_MUL, PMU_EV_CYCLES,
};
static const uint64_t ev_u74[] = { 0x4000 | 0x200 | 0x100, 0x202 };

/* Sv39 tables at the top of RAM (bit 6): root, a level-1 and a level-0
 * table for RAM's 2 MiB; returns satp */
#define PTE(pa, bits) (((pa) >> 12) << 10 | (bits))
enum { PV = 1, PR = 2, PW = 4, PX = 8, PA_ = 64, PD = 128 };
static uint64_t page_tables(uint8_t *ram)
{
	const uint64_t root = VIRT_DRAM_BASE + RAM_BYTES - 3 * 4096, l1 = root + 4096, l0 = l1 + 4096;
	uint64_t *t_root = (uint64_t *)(ram + (root - VIRT_DRAM_BASE));
	uint64_t *t_l1 = (uint64_t *)(ram + (l1 - VIRT_DRAM_BASE));
	uint64_t *t_l0 = (uint64_t *)(ram + (l0 - VIRT_DRAM_BASE));
	memset(t_root, 0, 3 * 4096);
	t_root[0] = PTE(0ull, PV | PR | PW | PA_ | PD);         /* the devices' gigapage */
	t_root[2] = PTE(l1, PV);
	t_l1[0] = PTE(l0, PV);
	for (uint64_t i = 0; i < 512; i++) {
		uint64_t pa = VIRT_DRAM_BASE + i * 4096;
		if (pa >= DATA && pa < DATA + 0x4000)
			pa = DATA + ((pa - DATA) ^ 4096);
		t_l0[i] = PTE(pa, PV | PR | PW | PX | PA_ | (i & 1 ? 0 : PD));
	}
	return 8ull << 60 | root >> 12;
}

static void setup(struct machine *m, uint8_t sel)
{
	const uint64_t satp = sel & 2 && sel & 64 ? page_tables(m->hart[0].mem.base + VIRT_DRAM_BASE) : 0;
	for (unsigned i = 0; i < m->nharts; i++) {
		struct hart *h = &m->hart[i];
		uint64_t old;
		for (int r = 1; r < 32; r++)
			h->x[r] = r & 1 ? DATA + 0x100 * (uint64_t)r + (uint64_t)(r & 6)
				       : (uint64_t)r * 0x9e3779b97f4a7c15ull;
		h->x[2] = DATA + 0x2000;
		h->x[10] = i;
		hart_csr(h, PRIV_M, 0x3b0, HART_CSR_WRITE, ~0ull, &old);   /* pmpaddr0: all */
		hart_csr(h, PRIV_M, 0x3a0, HART_CSR_WRITE, 0x1f, &old);    /* NAPOT RWX */
		hart_csr(h, PRIV_M, 0x305, HART_CSR_WRITE, STUB + 0x10, &old);
		hart_csr(h, PRIV_M, 0x180, HART_CSR_WRITE, satp, &old);
		hart_csr(h, PRIV_M, 0x306, HART_CSR_WRITE, ~0ull, &old);   /* mcounteren */
		hart_csr(h, PRIV_M, 0x106, HART_CSR_WRITE, ~0ull, &old);   /* scounteren */
		hart_csr(h, PRIV_M, 0x320, HART_CSR_WRITE, 0, &old);       /* mcountinhibit */
		const uint64_t *ev = sel & 1 ? ev_u74 : ev_default;
		unsigned nev = sel & 1 ? 2 : sizeof(ev_default) / sizeof(ev_default[0]);
		for (unsigned k = 0; k < nev; k++)
			hart_csr(h, PRIV_M, 0x323 + k, HART_CSR_WRITE, ev[k], &old);
		uint64_t mie = 0;
		if (sel & 8)
			mie |= 1u << 7;
		if (sel & 16) {
			hart_csr(h, PRIV_M, 0xb03, HART_CSR_WRITE, -(uint64_t)PERIOD, &old);
			mie |= 1u << 13;
		}
		hart_csr(h, PRIV_M, 0x304, HART_CSR_WRITE, mie, &old);
		/* mret to CODE in M or S, interrupts on there (MPIE), FS Initial */
		uint64_t ms = 1ull << 13 | 1ull << 7 | (uint64_t)(sel & 2 ? PRIV_S : PRIV_M) << 11;
		hart_csr(h, PRIV_M, 0x300, HART_CSR_WRITE, ms, &old);
		hart_csr(h, PRIV_M, 0x341, HART_CSR_WRITE, CODE, &old);
		h->pc = STUB;
		m->clint.mtimecmp[i] = sel & 8 ? 5 : ~0ull;
	}
}

static void run(const uint8_t *data, size_t size, int no_jit, struct outcome *o, uint8_t *ram)
{
	static struct machine m;
	uint8_t sel = data[0];
	memset(o, 0, sizeof(*o));
	FILE *out = fmemopen(o->out, sizeof(o->out), "w");
	if (!out)
		__builtin_trap();
	/* a raw image: the stub page, then the code */
	static uint8_t image[CODE - STUB + 4096];
	memset(image, 0, sizeof(image));
	memcpy(image + (CODE - STUB), data + 1, size - 1);
	int fd = memfd_create("image", 0);
	if (fd < 0 || write(fd, image, sizeof(image)) != (ssize_t)sizeof(image))
		__builtin_trap();
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	struct machine_opts mo = {
		.bios = "none", .kernel = path, .ram_mb = RAM_MB, .max_insns = MAX_INSNS,
		.profile = sel & 1 ? &u74 : NULL, .no_uarch = (sel >> 2) & 1,
		.console = out, .no_jit = no_jit, .smp = sel & 32 ? 2 : 1,
	};
	char err[512];
	if (machine_init(&m, &mo, err, sizeof(err))) {
		fprintf(stderr, "fuzz_sysjit: %s\n", err);
		__builtin_trap();
	}
	uint8_t *base = m.hart[0].mem.base + VIRT_DRAM_BASE;
	write_stub(base);
	hart_invalidate_code(&m.hart[0], VIRT_DRAM_BASE, RAM_BYTES);
	for (unsigned i = 0; i < m.nharts; i++)   /* translated code counts every model event: all are compared */
		m.hart[i].uev_always = ~0ull;
	setup(&m, sel);
	console_start(&m, -1);   /* no input */
	o->status = machine_run(&m);
	console_stop(&m);
	for (unsigned i = 0; i < m.nharts; i++) {
		struct hart *h = &m.hart[i];
		memcpy(o->x[i], h->x, sizeof(o->x[i]));
		memcpy(o->f[i], h->f, sizeof(o->f[i]));
		o->pc[i] = h->pc;
		o->priv[i] = h->priv;
		o->instret[i] = h->instret;
		o->cycles[i] = hart_cycles(h);
		for (size_t k = 0; k < sizeof(csrs) / sizeof(csrs[0]); k++)
			o->csr_rc[i][k] = hart_csr(h, PRIV_M, csrs[k], HART_CSR_READ, 0, &o->csr[i][k]);
		for (unsigned k = 0; k < 32; k++) {
			if (hart_csr(h, PRIV_M, 0xb00 + k, HART_CSR_READ, 0, &o->ctr[i][k]))
				o->ctr[i][k] = 0xdead;
			if (k >= 3 && hart_csr(h, PRIV_M, 0x320 + k, HART_CSR_READ, 0, &o->ev_sel[i][k]))
				o->ev_sel[i][k] = 0xdead;
		}
		if (h->uarch)
			uarch_events(h->uarch, o->uev[i]);
	}
	memcpy(ram, base, RAM_BYTES);
	blocks = 0;
	for (unsigned i = 0; i < m.nharts; i++) {
		struct hart_jit_stats js;
		hart_jit_stats(&m.hart[i], &js);
		blocks += js.translated;
	}
	machine_free(&m);
	fclose(out);
	o->out_len = strnlen(o->out, sizeof(o->out));
	close(fd);
}

#ifdef FUZZ_SYSJIT_REPLAY
/* the replay names what differs before it stops */
#define SAME(field) do {                                                \
		if (memcmp(&oa.field, &ob.field, sizeof(oa.field)))     \
			fprintf(stderr, "fuzz_sysjit: %s differs\n", #field); \
	} while (0)
static void name_differences(void)
{
	SAME(status); SAME(x); SAME(f); SAME(pc); SAME(priv); SAME(instret); SAME(cycles);
	SAME(csr); SAME(csr_rc); SAME(ctr); SAME(ev_sel); SAME(out);
	for (unsigned e = 0; e < UARCH_EV_COUNT; e++)
		if (oa.uev[0][e] != ob.uev[0][e])
			fprintf(stderr, "fuzz_sysjit: hart 0's model event %u: %llu translated, %llu not\n", e,
				(unsigned long long)oa.uev[0][e], (unsigned long long)ob.uev[0][e]);
}
#else
static void name_differences(void) {}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2 || size > 4097)
		return 0;
	run(data, size, 1, &ob, ram_b);
	run(data, size, 0, &oa, ram_a);
	if (memcmp(&oa, &ob, sizeof(oa))) {
		name_differences();
		__builtin_trap();   /* registers, CSRs, counters or output differ */
	}
	if (memcmp(ram_a, ram_b, RAM_BYTES))
		__builtin_trap();   /* memory differs */
	return 0;
}

#ifdef FUZZ_SYSJIT_REPLAY
/* Each file named runs as one input; a line per file says what differs
 * (tests/fuzz/run_sysjit.sh builds it with gcc for a quick check). */
int main(int argc, char **argv)
{
	static uint8_t buf[4097];
	LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		size_t n = f ? fread(buf, 1, sizeof(buf), f) : 0;
		if (f)
			fclose(f);
		if (n < 2) {
			fprintf(stderr, "%s: cannot read it\n", argv[i]);
			return 2;
		}
		LLVMFuzzerTestOneInput(buf, n);
		printf("%s: same, status %d, %llu instructions, pc 0x%llx, %llu blocks translated\n",
		       argv[i], oa.status, (unsigned long long)oa.instret[0], (unsigned long long)oa.pc[0],
		       (unsigned long long)blocks);
	}
	return 0;
}
#endif
