/* rvpmu system: boot a bare-metal image on the virt machine; its UART
 * reads stdin. */
#include <libfdt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "rvpmu/machine.h"
#include "rvpmu/profile.h"
#include "rvpmu/progress.h"

int cmd_system(int argc, char **argv)
{
	struct machine_opts o = {.console = stdout};
	const char *bios = NULL, *dump_dtb = NULL;
	int quiet = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			cli_usage("system", stdout);
			return 0;
		}
		if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
			quiet = 1;  /* no progress line */
			continue;
		}
		if (!strcmp(a, "--trace-sbi")) {
			o.sbi_trace = 1;
			continue;
		}
		if (!strcmp(a, "--no-sbi-snapshot")) {
			o.sbi_no_snapshot = 1;
			continue;
		}
		if (!strcmp(a, "--no-uarch")) {
			o.no_uarch = 1;
			continue;
		}
		if (i + 1 >= argc)
			return cli_error(strncmp(a, "-", 1) ? "system: unexpected argument '%s'"
							   : "system: %s needs a value", a);
		const char *v = argv[++i];
		if (!strcmp(a, "--bios"))
			bios = v;
		else if (!strcmp(a, "--kernel"))
			o.kernel = v;
		else if (!strcmp(a, "--dump-dtb"))
			dump_dtb = v;
		else if (!strcmp(a, "--dtb"))
			o.dtb = v;
		else if (!strcmp(a, "--initrd"))
			o.initrd = v;
		else if (!strcmp(a, "--append"))
			o.append = v;
		else if (!strcmp(a, "--profile")) {
			static struct profile prof;
			char err[512];
			if (profile_load(v, &prof, err, sizeof(err)))
				return cli_error("%s", err);
			o.profile = &prof;
		}
		else if (!strcmp(a, "-m")) {
			if (cli_parse_count(a, v, &o.ram_mb))
				return 2;
			if (!o.ram_mb || o.ram_mb > 16384)
				return cli_error("-m: '%s' is out of range (1..16384 MiB)", v);
		} else if (!strcmp(a, "--max-insns")) {
			if (cli_parse_count(a, v, &o.max_insns))
				return 2;
			if (!o.max_insns)
				return cli_error("--max-insns must be positive%s", "");
		} else {
			fprintf(stderr, "rvpmu: system: unknown option '%s' (see 'rvpmu help system')\n", a);
			return 2;
		}
	}
	o.bios = bios;
	if (!o.kernel)
		return cli_error("system: no --kernel given%s", "");

	static struct machine m;
	char err[512];
	if (machine_init(&m, &o, err, sizeof(err))) {
		fprintf(stderr, "rvpmu: %s\n", err);
		machine_free(&m);
		return 1;
	}
	if (dump_dtb) {  /* write the device tree and stop, as QEMU's dumpdtb */
		const void *dtb = m.hart.mem.base + m.dtb_addr;
		FILE *f = fopen(dump_dtb, "wb");
		int ok = f && fwrite(dtb, 1, fdt_totalsize(dtb), f) == fdt_totalsize(dtb);
		if (f && fclose(f))
			ok = 0;
		machine_free(&m);
		return ok ? 0 : cli_error("system: cannot write '%s'", dump_dtb);
	}
	/* the UART reads stdin (a terminal goes raw until the run ends) */
	console_start(&m, STDIN_FILENO);
	progress_begin("system", o.max_insns, quiet);
	m.o.tick = progress_tick;
	if (m.o.console == stdout)  /* UART text erases the line first */
		m.o.console = m.uart.out = progress_console(stdout);
	int status = machine_run(&m);
	progress_end();
	console_stop(&m);
	fflush(stdout);
	machine_free(&m);
	return status;
}
