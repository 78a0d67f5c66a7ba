/* libFuzzer target for system mode: any byte string boots the virt
 * machine as `rvpmu system --kernel` would and runs to an instruction
 * budget. Nothing the guest does (random instruction words, CSR accesses,
 * MMIO to every device, page tables, traps and trap storms) may crash
 * rvpmu, trip ASan or UBSan, or run past the budget (libFuzzer's -timeout
 * catches a hang). Built and run by tests/fuzz/run_system.sh.
 *
 * Input: byte 0 picks the machine, the rest is the image (ELF or raw).
 *   bits 0-1: profile (0 none, 1 virt, 2 u74, 3 virt)
 *   bit 2:    firmware: 0 --bios none (the image starts in M-mode at the
 *             start of RAM), 1 the built-in SBI (the image starts in
 *             S-mode at 0x80200000)
 *   bit 3:    --no-uarch (the profile's PMU without its models) */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "rvpmu/machine.h"
#include "rvpmu/profile.h"

#define MAX_INSNS 200000
#define RAM_MB 16

static struct profile profiles[2];
static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	char err[512];
	if (profile_load("virt", &profiles[0], err, sizeof(err)) ||
	    profile_load("u74", &profiles[1], err, sizeof(err))) {
		fprintf(stderr, "fuzz_system: %s\n", err);
		exit(1);
	}
	gmem_space = 1ull << 32;   /* RAM ends below 4 GiB */
	devnull = fopen("/dev/null", "w");
	return devnull ? 0 : 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct machine m;
	static const struct profile *const pick[4] = {NULL, &profiles[0], &profiles[1], &profiles[0]};
	if (size < 2 || size > (1u << 20))
		return 0;
	/* the loader reads a file: give it one in memory */
	int fd = memfd_create("image", 0);
	if (fd < 0 || write(fd, data + 1, size - 1) != (ssize_t)(size - 1))
		__builtin_trap();
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	struct machine_opts o = {
		.bios = data[0] & 4 ? "builtin" : "none",
		.kernel = path,
		.ram_mb = RAM_MB,
		.max_insns = MAX_INSNS,
		.profile = pick[data[0] & 3],
		.no_uarch = (data[0] >> 3) & 1,
		.console = devnull,
	};
	char err[512];
	if (!machine_init(&m, &o, err, sizeof(err))) {
		console_start(&m, -1);   /* no input */
		machine_run(&m);
	}
	machine_free(&m);
	close(fd);
	return 0;
}
