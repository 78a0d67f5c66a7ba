/* rvpmu system: boot a bare-metal image on the virt machine; its UART
 * reads stdin. */
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "rvpmu/gmem.h"
#include "rvpmu/machine.h"
#include "rvpmu/profile.h"
#include "rvpmu/progress.h"

/* The progress line counts every hart's instructions. */
static uint64_t tick(void *ctx, uint64_t insns)
{
	(void)ctx;
	return progress_poll(insns);
}

/* RVPMU_JIT_STATS in the environment: how much of the run was translated
 * code, on all harts, and where it left it (tests/jit-system uses it to
 * know blocks really ran; the hart counts it while h->jprof is set). */
static void jit_say(void *ctx, const char *line)
{
	(void)ctx;
	fprintf(stderr, "%s\n", line);
}

static void jit_report(const struct machine *m)
{
	const struct hart *harts[MACHINE_MAX_HARTS];
	for (unsigned i = 0; i < m->nharts; i++)
		harts[i] = &m->hart[i];
	hart_jit_report(harts, m->nharts, machine_insns(m), jit_say, NULL);
}

int cmd_system(int argc, char **argv)
{
	return system_main(argc, argv, NULL);
}

int system_main(int argc, char **argv, const struct system_view *view)
{
	struct machine_opts o = {.console = stdout};
	const char *bios = NULL, *dump_dtb = NULL;
	static const struct cli_opt opts[] = {
		{"--bios", NULL, 1}, {"--kernel", NULL, 1}, {"--dump-dtb", NULL, 1}, {"--dtb", NULL, 1},
		{"--initrd", NULL, 1}, {"--append", NULL, 1}, {"--profile", NULL, 1}, {"-m", NULL, 1},
		{"--max-insns", NULL, 1}, {"--trace-sbi", NULL, 0}, {"--no-sbi-snapshot", NULL, 0},
		{"--no-uarch", NULL, 0}, {"-q", "--quiet", 0}, {"--smp", "-smp", 1},
		{"--quantum", NULL, 1}, {"--no-jit", NULL, 0}, {NULL, NULL, 0},
	};
	enum { O_BIOS, O_KERNEL, O_DUMP_DTB, O_DTB, O_INITRD, O_APPEND, O_PROFILE, O_MEM,
	       O_MAX_INSNS, O_TRACE_SBI, O_NO_SNAPSHOT, O_NO_UARCH, O_QUIET, O_SMP, O_QUANTUM, O_NO_JIT };
	static struct profile prof;
	char err[512];
	const char *v;
	int i = 1, k, quiet = view && view->quiet;
	uint64_t host_mb = gmem_host_bytes() >> 20;
	while ((k = cli_next("system", opts, argc, argv, &i, &v)) >= 0) {
		switch (k) {
		case O_BIOS: bios = v; break;
		case O_KERNEL: o.kernel = v; break;
		case O_DUMP_DTB: dump_dtb = v; break;
		case O_DTB: o.dtb = v; break;
		case O_INITRD: o.initrd = v; break;
		case O_APPEND: o.append = v; break;
		case O_PROFILE:
			if (view)
				return cli_error("give --profile before 'system' (it names the events too)");
			if (profile_load(v, &prof, err, sizeof(err)))
				return cli_error("%s", err);
			o.profile = &prof;
			break;
		case O_MEM:
			if (cli_parse_count("-m", v, &o.ram_mb))
				return 2;
			if (!o.ram_mb)
				return cli_error("-m: '%s' is out of range (at least 1 MiB)", v);
			/* RAM is host memory the guest may touch all of: it must fit */
			if (host_mb && o.ram_mb > host_mb) {
				fprintf(stderr, "rvpmu system: -m %s: more than this host's %llu MiB of memory\n",
					v, (unsigned long long)host_mb);
				return 2;
			}
			break;
		case O_SMP: {
			uint64_t n;
			if (cli_parse_count("--smp", v, &n))
				return 2;
			_Static_assert(MACHINE_MAX_HARTS == 8, "the message below says 8");
			if (!n || n > MACHINE_MAX_HARTS)
				return cli_error("--smp: '%s' is out of range (1 to 8 harts)", v);
			o.smp = (unsigned)n;
			break;
		}
		case O_QUANTUM:
			if (cli_parse_count("--quantum", v, &o.quantum))
				return 2;
			if (o.quantum < 100)
				return cli_error("--quantum: '%s' is too small (at least 100 instructions)", v);
			break;
		case O_MAX_INSNS:
			if (cli_parse_count("--max-insns", v, &o.max_insns))
				return 2;
			if (!o.max_insns)
				return cli_error("--max-insns must be positive");
			break;
		case O_TRACE_SBI: o.sbi_trace = 1; break;
		case O_NO_SNAPSHOT: o.sbi_no_snapshot = 1; break;
		case O_NO_UARCH:
			if (view)
				return cli_error("give --no-uarch before 'system'");
			o.no_uarch = 1;
			break;
		case O_QUIET: quiet = 1; break;   /* no progress line */
		case O_NO_JIT: o.no_jit = 1; break;
		}
	}
	int end = cli_end("system", k);
	if (end >= 0)
		return end;
	if (i < argc)   /* the image is --kernel's: nothing else is positional */
		return cli_error("unexpected argument '%s'", argv[i]);
	o.bios = bios;
	if (view) {
		o.profile = view->profile;
		o.no_uarch = view->no_uarch;
		o.tally = view->tally;
		o.observe = view->observe;
	}
	if (!o.kernel)
		return cli_error("no --kernel given");

	static struct machine m;
	if (machine_init(&m, &o, err, sizeof(err))) {
		fprintf(stderr, "rvpmu system: %s\n", err);
		machine_free(&m);
		return 1;
	}
	if (dump_dtb) {  /* write the device tree and stop, as QEMU's dumpdtb */
		const void *dtb = m.hart[0].mem.base + m.dtb_addr;
		FILE *f = fopen(dump_dtb, "wb");
		int ok = f && fwrite(dtb, 1, fdt_totalsize(dtb), f) == fdt_totalsize(dtb);
		if (f && fclose(f))
			ok = 0;
		machine_free(&m);
		return ok ? 0 : cli_error("cannot write '%s'", dump_dtb);
	}
	if (view && view->start && view->start(&m, view->ctx)) {
		machine_free(&m);
		return 1;
	}
	const int jit_stats = getenv("RVPMU_JIT_STATS") != NULL;
	for (unsigned h = 0; jit_stats && h < m.nharts; h++)
		if (!m.hart[h].jprof)
			m.hart[h].jprof = calloc(1, sizeof(*m.hart[h].jprof));
	/* the UART reads stdin (a terminal goes raw until the run ends) */
	console_start(&m, STDIN_FILENO);
	progress_begin("system", o.max_insns, quiet);
	/* after the console's handlers: a second signal reaches them */
	m.o.stop = cli_interrupt_begin();
	m.o.tick = tick;
	if (m.o.console == stdout)  /* UART text erases the line first */
		m.o.console = m.uart.out = progress_console(stdout);
	int status = machine_run(&m);
	progress_end();
	console_stop(&m);
	fflush(stdout);
	if (jit_stats)
		jit_report(&m);
	if (view && view->end)
		view->end(&m, view->ctx);
	machine_free(&m);
	return status;
}
