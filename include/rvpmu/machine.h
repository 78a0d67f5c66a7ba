/* A QEMU-virt-compatible machine: 1 to 8 harts over one memory, RAM at
 * 0x80000000 and the virt memory map's devices. */
#ifndef RVPMU_MACHINE_H
#define RVPMU_MACHINE_H
#include <stdint.h>
#include <stdio.h>
#include "rvpmu/hart.h"
#include "rvpmu/sbi.h"

#define VIRT_MROM_BASE  0x1000ull       /* boot ROM: the fw_dynamic info */
#define VIRT_MROM_SIZE  0xf000ull
#define VIRT_TEST_BASE  0x100000ull    /* sifive_test finisher */
#define VIRT_TEST_SIZE  0x1000ull
#define VIRT_CLINT_BASE 0x2000000ull
#define VIRT_CLINT_SIZE 0x10000ull
#define VIRT_PLIC_BASE  0xc000000ull
#define VIRT_PLIC_SIZE  0x600000ull    /* QEMU's window (room for 1024 contexts) */
#define VIRT_UART0_BASE 0x10000000ull
#define VIRT_UART0_SIZE 0x100ull
#define VIRT_UART0_IRQ  10             /* PLIC source */
#define VIRT_DRAM_BASE  0x80000000ull

/* Device-tree phandles of the interrupt controllers. */
#define PLIC_PHANDLE     1
#define CPU_INTC_PHANDLE 2   /* hart i's: CPU_INTC_PHANDLE + i */
#define CPU_PHANDLE      0x20 /* cpu@i: CPU_PHANDLE + i */

struct machine_opts {
	const char *bios;        /* "none", "builtin" (default) */
	const char *kernel;      /* ELF, or a raw image (at RAM base with
	                            --bios none, at 0x80200000 otherwise) */
	uint64_t ram_mb;         /* default 256 */
	uint64_t max_insns;      /* 0 = no limit */
	const struct profile *profile;  /* core profile, NULL = the default PMU */
	const char *initrd;      /* initramfs loaded high in RAM, or NULL */
	const char *append;      /* kernel command line (chosen/bootargs) */
	FILE *console;           /* UART output (stdout) */
	int sbi_trace;           /* built-in SBI: log each call to stderr */
	int sbi_no_snapshot;     /* built-in SBI: no PMU snapshot (FID 7) */
	int no_uarch;            /* the profile's PMU without its models */
	int no_jit;              /* the step loop only, never translated blocks */
	const char *dtb;         /* a device tree file instead of rvpmu's */
	unsigned smp;            /* harts, 1..MACHINE_MAX_HARTS (0 = 1) */
	uint64_t quantum;        /* instructions a hart runs before the next
	                            hart's turn (0 = MACHINE_QUANTUM) */
	/* Called before each run of a hart (NULL: none) with the
	 * instructions all harts have retired: how many may run before the
	 * next call, 0 = no limit. */
	uint64_t (*tick)(void *ctx, uint64_t insns);
	void *tick_ctx;
	/* A signal handler's flag (NULL: none): once it holds a signal
	 * number, machine_run returns 128 + that number at its next check
	 * (at most MACHINE_RUN_CHUNK instructions later; a wait for console
	 * input ends too). */
	const volatile int *stop;   /* a sig_atomic_t: int on Linux */
	/* a host tool's view of every hart (NULL: none): hart i's events
	 * by privilege mode go to tally[i] (struct hart's tally, observed) */
	uint64_t (*tally)[HART_MODES][PMU_EV_MAX];
	pmu_evset observe;
};

/* The most instructions one run of the hart retires between machine_run's
 * checks (the stop flag among them). */
#define MACHINE_RUN_CHUNK (1ull << 22)

#define MACHINE_MAX_HARTS 8
/* The default turn of each hart when there are several: 10,000
 * instructions, 10 us of modelled time at 1 GHz (see sched.c). */
#define MACHINE_QUANTUM 10000

/* ns16550a: transmit (always ready), a 16-byte receive FIFO the console
 * fills, the receive-data and THR-empty interrupts, loopback, and the
 * registers software probes (LCR/DLAB, IER, MCR, SCR). */
#define UART_FIFO 16
struct uart {
	uint8_t ier, lcr, mcr, scr, dll, dlm, fcr;
	uint8_t thre_ip;         /* THR-empty interrupt pending */
	uint8_t rx[UART_FIFO];
	unsigned rx_head, rx_count;
	FILE *out;
};

/* SiFive PLIC as on QEMU 7.2 virt: sources 1..96 (its riscv,ndev), 3
 * priority bits, context 2i = hart i M-mode (MEIP), context 2i+1 = hart
 * i S-mode (SEIP). Sources are level-triggered: pending follows the line
 * while the source is not claimed. */
#define PLIC_NDEV  96
#define PLIC_WORDS 4             /* 32-bit words of source bits (0..127) */
#define PLIC_NCTX  (2 * MACHINE_MAX_HARTS)
struct plic {
	uint32_t prio[PLIC_NDEV + 1];
	uint32_t level[PLIC_WORDS], claimed[PLIC_WORDS];
	uint32_t enable[PLIC_NCTX][PLIC_WORDS];
	uint32_t threshold[PLIC_NCTX];
};

/* The host side of the UART: stdin, raw mode on a terminal with the
 * Ctrl-A escape, bytes waiting for room in the receive FIFO. */
#define CONSOLE_BUF 4096
struct console {
	int fd;                  /* input, -1 = none or end of file */
	int tty;                 /* fd is a terminal (raw mode, escapes) */
	int esc;                 /* Ctrl-A seen */
	uint64_t polled_at;      /* instret at the last poll */
	unsigned head, count;
	uint8_t buf[CONSOLE_BUF];
};

/* ACLINT MSWI and MTIMER as the SiFive CLINT lays them out: one msip and
 * one mtimecmp per hart. */
struct clint {
	uint32_t msip[MACHINE_MAX_HARTS];
	uint64_t mtimecmp[MACHINE_MAX_HARTS];
};

struct machine {
	struct hart hart[MACHINE_MAX_HARTS];   /* mhartid = index */
	unsigned nharts;
	/* the hart whose loads, stores and firmware calls are being done:
	 * what a device access comes from */
	struct hart *cur;
	struct machine_opts o;
	struct uart uart;
	struct clint clint;
	struct plic plic;
	struct console con;
	int finished;            /* the finisher was written */
	int exit_code;
	int reset;               /* the finisher asked for a reset */
	int builtin_sbi;         /* the built-in firmware owns M-mode */
	/* the built-in firmware's state of each hart: its PMU, and HSM */
	struct sbi_state sbi[MACHINE_MAX_HARTS];
	struct sbi_hart sbih[MACHINE_MAX_HARTS];
	/* the harts' models kept coherent, over their shared L2 (core_share) */
	struct uarch_domain coh;
	uint64_t dtb_addr;
	uint64_t initrd_start, initrd_end;
};

enum {
	MACHINE_EXIT_MAX_INSNS = 124,   /* --max-insns reached */
	MACHINE_EXIT_HANG = 125,        /* every hart waits (WFI or stopped)
	                                   with nothing that can wake one */
	MACHINE_EXIT_TRAP_STORM = HART_EXIT_TRAP_STORM,   /* 123: see hart_storm_enter */
};

/* Build the machine and load the kernel: 0, or -1 with a message in err. */
int machine_init(struct machine *m, const struct machine_opts *o, char *err, size_t errlen);
/* Run until the finisher ends the run; returns the exit status. */
int machine_run(struct machine *m);
/* Reset the machine and load its images again (the finisher's or SBI
 * SRST's reset): 0, or -1 with a message. */
int machine_reboot(struct machine *m, char *err, size_t errlen);
void machine_free(struct machine *m);

/* The memory map: one row per region creates the device (mmio access,
 * interrupt line) and its device-tree node under /soc. */
struct virt_dev {
	const char *name;        /* node name before "@base"; NULL = no node */
	uint64_t base, size;
	/* register access at offset off: 0, or -1 for an access fault;
	 * NULL: read-only memory mapped by the machine (the boot ROM) */
	int (*access)(struct machine *m, uint64_t off, unsigned size, uint64_t *val, int write);
	/* properties other than reg and the PLIC wiring (libfdt error < 0) */
	int (*dt)(void *fdt, const struct machine *m);
	unsigned irq;            /* PLIC source, 0 = none */
	int (*level)(const struct machine *m);  /* that source's line */
};
extern const struct virt_dev virt_map[];
extern const unsigned virt_map_len;

/* Devices (src/platform). Each access returns 0, or -1 for a fault. */
int uart_access(struct uart *u, uint64_t off, unsigned size, uint64_t *val, int write);
int uart_dt(void *fdt, const struct machine *m);
/* The UART's interrupt line (receive data or THR empty, as IER enables). */
int uart_irq(const struct uart *u);
/* Room in the receive FIFO, and a byte arriving there. */
unsigned uart_rx_room(const struct uart *u);
void uart_rx_push(struct uart *u, uint8_t c);
int clint_access(struct machine *m, uint64_t off, unsigned size, uint64_t *val, int write);
int clint_dt(void *fdt, const struct machine *m);
/* mip lines the CLINT drives on hart h at its current time (MTIP, MSIP). */
uint64_t clint_mip(const struct machine *m, const struct hart *h);
int plic_access(struct machine *m, uint64_t off, unsigned size, uint64_t *val, int write);
int plic_dt(void *fdt, const struct machine *m);
void plic_set_level(struct plic *p, unsigned src, int level);
/* mip lines the PLIC drives on hart i (MEIP from context 2i, SEIP from
 * 2i+1). */
uint64_t plic_mip(const struct plic *p, unsigned i);
/* Every device line to hart h: what it sees in mip_hw. */
uint64_t machine_irq_lines(struct machine *m, const struct hart *h);
/* Instructions all harts have retired. */
uint64_t machine_insns(const struct machine *m);
/* The index of h among m's harts (its mhartid). */
static inline unsigned machine_hart_index(const struct machine *m, const struct hart *h)
{
	return (unsigned)(h - m->hart);
}

/* Host console (src/platform/console.c). console_start takes input from
 * fd (a terminal goes raw until console_stop or exit, and prints the
 * escape hint); fd < 0: no input. */
void console_start(struct machine *m, int fd);
void console_stop(struct machine *m);
/* Move input into the UART; wait: block until some arrives (or EOF).
 * Ctrl-A x on a terminal ends the run (m->finished). */
void console_poll(struct machine *m, int wait);
/* Input is still coming or waiting for room: the run loop polls. */
static inline int console_live(const struct machine *m)
{
	return m->con.fd >= 0 || m->con.count;
}
/* A byte of input for firmware that reads the console directly (SBI
 * getchar), or -1. */
int console_getc(struct machine *m);
/* Load a bare-metal image into RAM (a raw one at base): 0 or -1 with a
 * message. */
int load_image(struct machine *m, const char *path, uint64_t base, uint64_t *entry,
	       char *err, size_t errlen);
/* Write OpenSBI's fw_dynamic info (next stage next_addr in S-mode) into
 * the boot ROM; returns its address, what a2 holds at reset. */
uint64_t fw_dynamic_info(struct machine *m, uint64_t next_addr);
/* Load the initramfs (m->o.initrd): 0 or -1 with a message. */
int load_initrd(struct machine *m, char *err, size_t errlen);
/* Write the machine's device tree into RAM at m->dtb_addr: 0 or -1. */
int machine_build_dtb(struct machine *m, char *err, size_t errlen);

#define VIRT_KERNEL_BASE 0x80200000ull  /* fw_jump's payload address */

#endif
