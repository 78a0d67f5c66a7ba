/* A QEMU-virt-compatible machine: one hart, RAM at 0x80000000 and the
 * virt memory map's devices. */
#ifndef RVPMU_MACHINE_H
#define RVPMU_MACHINE_H
#include <stdint.h>
#include <stdio.h>
#include "rvpmu/hart.h"
#include "rvpmu/sbi.h"

#define VIRT_TEST_BASE  0x100000ull    /* sifive_test finisher */
#define VIRT_CLINT_BASE 0x2000000ull
#define VIRT_CLINT_SIZE 0x10000ull
#define VIRT_UART0_BASE 0x10000000ull
#define VIRT_UART0_SIZE 0x100ull
#define VIRT_DRAM_BASE  0x80000000ull

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
};

/* ns16550a: only what a polled console needs, plus the registers software
 * probes (LCR/DLAB, IER, MCR, SCR), so reads return what was written. */
struct uart {
	uint8_t ier, lcr, mcr, scr, dll, dlm;
	FILE *out;
};

struct clint {
	uint32_t msip;
	uint64_t mtimecmp;
};

struct machine {
	struct hart hart;
	struct machine_opts o;
	struct uart uart;
	struct clint clint;
	int finished;            /* the finisher was written */
	int exit_code;
	int reset;               /* the finisher asked for a reset */
	int builtin_sbi;         /* the built-in firmware owns M-mode */
	int sbi_wfi;             /* HSM retentive suspend: wait like WFI */
	struct sbi_state sbi;
	uint64_t dtb_addr;
	uint64_t initrd_start, initrd_end;
};

enum {
	MACHINE_EXIT_MAX_INSNS = 124,   /* --max-insns reached */
	MACHINE_EXIT_HANG = 125,        /* WFI with nothing that can wake it */
};

/* Build the machine and load the kernel: 0, or -1 with a message in err. */
int machine_init(struct machine *m, const struct machine_opts *o, char *err, size_t errlen);
/* Run until the finisher ends the run; returns the exit status. */
int machine_run(struct machine *m);
void machine_free(struct machine *m);

/* Devices (src/platform). Each returns 0, or -1 for an access fault. */
int uart_access(struct uart *u, uint64_t off, unsigned size, uint64_t *val, int write);
int clint_access(struct machine *m, uint64_t off, unsigned size, uint64_t *val, int write);
/* mip lines driven by the CLINT at the current time (MTIP, MSIP). */
uint64_t clint_mip(const struct machine *m);
/* Load a bare-metal image into RAM (a raw one at base): 0 or -1 with a
 * message. */
int load_image(struct machine *m, const char *path, uint64_t base, uint64_t *entry,
	       char *err, size_t errlen);
/* Load the initramfs (m->o.initrd): 0 or -1 with a message. */
int load_initrd(struct machine *m, char *err, size_t errlen);
/* Write the machine's device tree into RAM at m->dtb_addr: 0 or -1. */
int machine_build_dtb(struct machine *m, char *err, size_t errlen);

#define VIRT_KERNEL_BASE 0x80200000ull  /* fw_jump's payload address */

#endif
