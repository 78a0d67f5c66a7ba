/* rvpmu command line: subcommand dispatch and shared option parsing. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "rvpmu/gmem.h"
#include "rvpmu/linux.h"

#ifndef RVPMU_VERSION
#define RVPMU_VERSION "0.1.0"
#endif

static const struct subcommand {
	const char *name;
	int (*main)(int argc, char **argv);
	const char *summary;
	const char *usage;
} subcommands[] = {
	{"run", cmd_run, "run a riscv64 Linux program in user mode",
	 "usage: rvpmu run [options] [--] PROG [ARGS...]\n"
	 "\n"
	 "Run a static riscv64 Linux executable and exit with its exit status\n"
	 "(128+N when the guest dies of signal N). A trap storm, the same fault at\n"
	 "the same pc 10000 times in a row with nothing retired in between but its\n"
	 "signal handler (or the same system call with nothing retired at all),\n"
	 "ends the run with a one-line diagnosis and exit 123. When every thread\n"
	 "waits and nothing can wake one (a deadlock), the run ends with a line\n"
	 "per thread saying what it waits for and exit 125.\n"
	 "\n"
	 "options:\n"
	 "  -q, --quiet        no progress line on a terminal (stderr)\n"
	 "  --max-insns N      stop after N retired instructions (exit 124); a trap\n"
	 "                     taken with none retired since the trap before counts\n"
	 "                     as one\n"
	 "  --max-mem MB       bound the program's memory: brk/mmap beyond it fail\n"
	 "                     with ENOMEM, as under a ulimit (default: half of the\n"
	 "                     host's memory; 0: no bound)\n"
	 "  --cpus N           modelled harts the program's threads and processes\n"
	 "                     run on (1..32, default 1: no profile names a hart\n"
	 "                     count), each with the profile's own L1s, TLBs and\n"
	 "                     predictor, coherent over its L2; the harts take\n"
	 "                     turns of 10,000 instructions, more threads than\n"
	 "                     harts take turns in 1 ms slices of modelled time;\n"
	 "                     the same interleaving every run (docs/architecture.md)\n"
	 "  --sysroot DIR      prefix absolute guest paths with DIR (as qemu-user -L)\n"
	 "  --insn-count FILE  write the retired instruction count to FILE at exit\n"
	 "  --profile P        run on core profile P (virt, u74 or a .json file): its\n"
	 "                     PMU and models, as rvpmu stat; rdcycle, rdinstret and\n"
	 "                     the program's perf_event_open see that core (default:\n"
	 "                     virt without models, cycles = instructions)\n"
	 "  --no-uarch         with --profile: that core's PMU without its models\n"
	 "  --no-jit           never translate blocks to host code: every instruction\n"
	 "                     in the step loop (same results, slower)\n"
	 "  --user-counters=off|mmap|all\n"
	 "                     counter CSRs the program may read, as Linux's\n"
	 "                     kernel.perf_user_access (default all; docs/guest-perf.md)\n"
	 "  -h, --help         show this help\n"
	 "\n"
	 "N accepts the suffixes k, M and G (powers of 1000). SIGINT or SIGTERM\n"
	 "stops the program; rvpmu then dies of that signal (a second one: at once).\n"},
	{"stat", cmd_stat, "count a program's events (as perf stat)",
	 "usage: rvpmu stat [options] [--] PROG [ARGS...]\n"
	 "       rvpmu stat [-a] [-A] [-C LIST] [options] system [SYSTEM OPTIONS]\n"
	 "\n"
	 "Run a static riscv64 Linux program in user mode and count events on the\n"
	 "modelled core. rvpmu acts as the program's kernel and reaches the PMU as\n"
	 "Linux's riscv_pmu_sbi driver does: through SBI PMU calls to the built-in\n"
	 "firmware. Counts are deterministic; time is modelled (the core's cycles,\n"
	 "plus the time the program sleeps). The table goes to stderr, as perf's.\n"
	 "\n"
	 "options:\n"
	 "  -e, --event LIST   events (default perf's: task-clock, context-switches,\n"
	 "                     cpu-migrations, page-faults, cycles, instructions,\n"
	 "                     branches, branch-misses; several -e: every list):\n"
	 "                     perf names (cycles, cache and TLB events...), its\n"
	 "                     software events, the profile's events, rvpmu's classes\n"
	 "                     (loads, int-mul, ...), raw rHEX; :u, :k, :G (guest,\n"
	 "                     V=1: 0 for a program) and :H (host); groups {a,b}\n"
	 "  -M, --metrics LIST the profile's metrics or metric groups (rvpmu list\n"
	 "                     metricgroup), each on the line of its first event\n"
	 "  --metric-only      only the metrics, one column each\n"
	 "  --topdown          the top-down split of the issue slots (TopdownL1\n"
	 "                     metrics; --metric-only unless --no-metric-only)\n"
	 "  --td-level N       with --topdown: levels up to N (1 or 2; 0: 2)\n"
	 "  --metric-no-group  -M's events in one pool, not a weak group each\n"
	 "  -d, --detailed     perf's detailed events too (-dd, -ddd: more)\n"
	 "  -I, --interval-print MSEC\n"
	 "                     print the counts every MSEC of modelled time\n"
	 "  --interval-count N stop printing after N intervals\n"
	 "  -D, --delay MSEC   count from MSEC of modelled time on (-1: never)\n"
	 "  --timeout MSEC     SIGTERM the program at MSEC of modelled time (>= 10)\n"
	 "  -r, --repeat N     run N times: perf's mean and noise (runs are\n"
	 "                     deterministic: the noise is 0)\n"
	 "  --table            with -r, each run's elapsed time\n"
	 "  -x, --field-separator SEP\n"
	 "                     CSV output with SEP between fields\n"
	 "  -j, --json-output  one JSON object per event (as perf stat -j)\n"
	 "  -o, --output FILE  write the counts to FILE (in place once complete)\n"
	 "  --append           with -o, after what FILE holds\n"
	 "  --all-user, --all-kernel\n"
	 "                     count user (kernel) mode only, as :u (:k) on every event\n"
	 "  -n, --null         no events: the elapsed time only\n"
	 "  -B, --big-num, --no-big-num\n"
	 "                     thousands' separators (default) or none\n"
	 "  -v, --verbose      each run's raw counts\n"
	 "  --mux-interval N   multiplexing tick in modelled cycles when there are\n"
	 "                     more events than counters (default 4 ms of the core)\n"
	 "  --profile P        core profile: a name (virt, u74) or a .json file\n"
	 "                     (default virt)\n"
	 "  --no-uarch         no cache/TLB/predictor/timing models: fast, and\n"
	 "                     cycles = instructions\n"
	 "  --no-jit           no block translation (as rvpmu run)\n"
	 "  -q, --quiet        no progress line on a terminal (stderr)\n"
	 "  --max-insns N      stop the program after N instructions (as rvpmu run)\n"
	 "  --max-mem MB       bound the program's memory (as rvpmu run)\n"
	 "  --cpus N           modelled harts for the program's threads (as rvpmu run)\n"
	 "  --per-thread       a row per thread (comm-tid) and event (with -I: each\n"
	 "                     interval's; with --metric-only: a line per thread)\n"
	 "  -A, --no-aggr, --per-cpu\n"
	 "                     a row per modelled hart and event (as --per-thread)\n"
	 "  -i, --no-inherit   count the first thread only (default: every thread\n"
	 "                     and child process, as perf's inherit)\n"
	 "  --sysroot DIR      prefix absolute guest paths with DIR (as rvpmu run)\n"
	 "  --user-counters=off|mmap|all\n"
	 "                     counter CSRs the program may read (as rvpmu run)\n"
	 "  -h, --help         show this help\n"
	 "\n"
	 "A system-mode run ('system' and rvpmu system's options) is counted whole,\n"
	 "from outside: every hart's events, the guest's own counters untouched.\n"
	 ":u counts user mode, :k supervisor and machine mode; :G the guest's\n"
	 "modes (VS, VU: V=1), :H the host's (HS or S, U, M), u and k choosing\n"
	 "within that side (cycles:Gk = VS, cycles:Gu = VU, cycles:Hk = HS and M).\n"
	 "--profile and --no-uarch go before 'system' and apply to its machine.\n"
	 "Its events are hardware ones (default cycles, instructions, branches,\n"
	 "branch-misses); -r, -j, -I, -D, --timeout, -M, -d, -n and -v are for a\n"
	 "program.\n"
	 "  -a, --all-cpus     every hart (implied: the machine is the workload)\n"
	 "  -A, --no-aggr, --per-cpu\n"
	 "                     a line per hart and event, as CPUn\n"
	 "  -C, --cpu LIST     only these harts (as 0,2-3)\n"
	 "\n"
	 "docs/perf-compat.md lists perf's options and what rvpmu does with each.\n"},
	{"record", cmd_record, "sample a program into perf.data (as perf record)",
	 "usage: rvpmu record [options] [--] PROG [ARGS...]\n"
	 "       rvpmu record [-a] [-e LIST] [-c N | -F F] [-o FILE] system [SYSTEM OPTIONS]\n"
	 "\n"
	 "Sample a static riscv64 Linux program with Sscofpmf overflow interrupts,\n"
	 "as Linux's riscv_pmu_sbi driver does: each counter starts at -period,\n"
	 "its overflow raises LCOFI after the core's skid, and the sample is the\n"
	 "trapped pc. Writes perf.data, which 'rvpmu report' and Linux perf read.\n"
	 "\n"
	 "options:\n"
	 "  -e, --event LIST   events to sample (default cycles; see 'rvpmu list';\n"
	 "                     several -e: every list); {a,b}:S samples the leader\n"
	 "                     and reads the group's counts with each sample\n"
	 "  -c, --count PERIOD one sample every PERIOD events\n"
	 "  -F, --freq FREQ|max  about FREQ samples per modelled second (default\n"
	 "                     4000; a fixed period of clock/FREQ events; max: 100000)\n"
	 "  -g                 record call chains (frame pointers)\n"
	 "  --call-graph fp|dwarf[,SIZE]|ctr\n"
	 "                     call chains from frame pointers (fp, as -g), from\n"
	 "                     the user registers and SIZE bytes of stack (dwarf,\n"
	 "                     default 8192; rvpmu report unwinds them with the\n"
	 "                     ELF's CFI) or from CTR's call records (ctr)\n"
	 "  -b, --branch-any   record the branch stack of each sample from the\n"
	 "                     core's control transfer records (Smctr)\n"
	 "  -j, --branch-filter FILTERS\n"
	 "                     -b with perf's branch filters (any, any_call,\n"
	 "                     any_ret, ind_call, call, cond, ind_jmp, u) as CTR\n"
	 "                     type inhibits\n"
	 "  -D, --delay MSEC   start sampling after MSEC of modelled time\n"
	 "  -T, --timestamp    (samples always carry their modelled time)\n"
	 "  --switch-output[=signal|SIZE|TIME]\n"
	 "                     a new file FILE.<timestamp> on SIGUSR2 (signal, the\n"
	 "                     default), when a file has SIZE bytes (10M) or every\n"
	 "                     TIME of modelled time (30s)\n"
	 "  --trace FILE       debugging: write every retired instruction (pc,\n"
	 "                     what each sampled counter gained) and every sample\n"
	 "  -o, --output FILE  output file (default perf.data), in place once\n"
	 "                     complete; the one it replaces becomes FILE.old; -:\n"
	 "                     perf's pipe format on stdout (the program's stdout\n"
	 "                     goes to stderr)\n"
	 "  --profile P        core profile (default virt; needs Sscofpmf)\n"
	 "  --no-uarch        no cache/TLB/predictor/timing models\n"
	 "  --no-jit           no block translation (as rvpmu run)\n"
	 "  -q, --quiet        no progress line on a terminal (stderr)\n"
	 "  --max-insns N      stop the program after N instructions (as rvpmu run)\n"
	 "  --max-mem MB       bound the program's memory (as rvpmu run)\n"
	 "  --cpus N           modelled harts for the program's threads and\n"
	 "                     processes (as rvpmu run); every thread is sampled,\n"
	 "                     each sample tagged with its pid, tid and hart\n"
	 "  --sysroot DIR      prefix absolute guest paths with DIR (as rvpmu run)\n"
	 "\n"
	 "A system-mode run ('system' and rvpmu system's options) is sampled on\n"
	 "every hart from outside (-a is implied): each hart stops where its own\n"
	 "sampling counter overflows, the sample's cpu is the hart. --profile and\n"
	 "--no-uarch go before 'system'; -g, -b, -D and --switch-output do not apply.\n"
	 "  -a, --all-cpus     every hart (implied)\n"},
	{"report", cmd_report, "show where the samples of a perf.data file are (as perf report)",
	 "usage: rvpmu report [options]\n"
	 "\n"
	 "Read perf.data (rvpmu's or perf's) and print perf report --stdio's table:\n"
	 "Overhead, Command, Shared Object and Symbol by default; with call chains\n"
	 "(record -g, --call-graph) the Children and Self columns and a call graph\n"
	 "under each entry, as perf. --folded prints folded stacks, --flamegraph\n"
	 "writes a self-contained SVG flame graph, --branch prints the hottest\n"
	 "branch edges and estimated basic-block counts (record -b).\n"
	 "\n"
	 "options:\n"
	 "  -i, --input FILE   the perf.data file (default perf.data; - reads stdin,\n"
	 "                     as written by 'rvpmu record -o -')\n"
	 "  -s, --sort KEYS    comm, pid, tid, dso, sym, srcline, cpu, symoff\n"
	 "                     (default comm,dso,sym)\n"
	 "  -F, --fields LIST  output columns: overhead, overhead_children, sample,\n"
	 "                     period and sort keys\n"
	 "  -n, --show-nr-samples  a Samples column\n"
	 "  -g, --call-graph [graph|none|caller|callee|folded|PERCENT,...]\n"
	 "                     call graphs (default graph,0.5 when the file has chains;\n"
	 "                     caller order in children mode, callee without)\n"
	 "  --children, --no-children  cumulate callees' samples (perf's default\n"
	 "                     with call chains) or not\n"
	 "  --percent-limit P  hide entries (and graph branches) under P percent\n"
	 "  --comms, -c LIST   only these commands\n"
	 "  --dsos, -d LIST    only these files\n"
	 "  --symbols, -S LIST only these symbols\n"
	 "  --header           the file's header first; --header-only: just it\n"
	 "  -q, --quiet        no comment lines\n"
	 "  --max-stack N      at most N frames of each chain (default 127)\n"
	 "  --no-demangle      C++ and Rust names as in the symbol table\n"
	 "  --symfs DIR        look for the mapped files under DIR\n"
	 "  --stdio            plain text output (the only kind)\n"
	 "  --folded, --flamegraph FILE.svg, --branch   (see above)\n"
	 "  -h, --help         show this help\n"},
	{"annotate", cmd_annotate, "show a function's instructions with their samples",
	 "usage: rvpmu annotate [options] [SYMBOL]\n"
	 "\n"
	 "Read perf.data (rvpmu's or perf's), find the function SYMBOL (its name in\n"
	 "the symbol table, or demangled) in the sampled ELF and list its\n"
	 "instructions, disassembled as objdump -d does, each with the samples that\n"
	 "landed on it and their share of the function's samples (as perf annotate\n"
	 "--stdio). With DWARF line information the source lines appear between the\n"
	 "instructions. One listing per sampled event. Without SYMBOL: every\n"
	 "function with at least --percent-limit of the samples (default 0.5%),\n"
	 "hottest first, as perf annotate lists every sampled symbol.\n"
	 "\n"
	 "options:\n"
	 "  -i, --input FILE   the perf.data file (default perf.data; - reads stdin)\n"
	 "  -s, --symbol SYM   the function (as the SYMBOL argument)\n"
	 "  --percent-limit P  without a symbol: functions with at least P percent\n"
	 "  --symfs DIR        look for the mapped files under DIR\n"
	 "  --stdio            plain text output (the only kind)\n"
	 "  --no-source        leave out the source lines\n"
	 "  -h, --help         show this help\n"
	 "\n"
	 "An unknown symbol, a symbol without samples or an unreadable file is an\n"
	 "error (exit 1).\n"},
	{"list", cmd_list, "list the events and metrics of a core (as perf list)",
	 "usage: rvpmu list [options] [hw|sw|cache|pmu|metric|metricgroup|FILTER...]\n"
	 "\n"
	 "List what 'rvpmu stat -e' and '-M' take for a core profile, in perf list's\n"
	 "sections: hardware, software and cache events the core can count, the\n"
	 "profile's events, raw events, metric groups and their metrics. A FILTER\n"
	 "shows the names it matches anywhere (a glob: 'mpki', 'l1*miss').\n"
	 "\n"
	 "options:\n"
	 "  --profile P        core profile (default virt)\n"
	 "  -d, --desc         descriptions (the default); --no-desc: none\n"
	 "  -v, --long-desc    the same (the profiles have brief descriptions)\n"
	 "  --details          metrics' expressions, events' encodings\n"
	 "  --raw-dump         the names alone\n"
	 "  -h, --help         show this help\n"},
	{"script", cmd_script, "list the samples of a perf.data file (as perf script)",
	 "usage: rvpmu script [-i FILE] [-F FIELDS]\n"
	 "\n"
	 "One line per sample, as perf script prints it (by default: comm, tid,\n"
	 "cpu, time, period, event, ip, sym+off and dso; call chains under it).\n"
	 "\n"
	 "options:\n"
	 "  -i, --input FILE   the perf.data file (default perf.data; - reads stdin)\n"
	 "  -F, --fields LIST  comm, tid, pid, time, cpu, period, event, ip, sym,\n"
	 "                     symoff, dso, srcline, brstack, brstacksym, callindent,\n"
	 "                     insn (rvpmu's disassembly of the sampled instruction)\n"
	 "  --max-stack N      at most N frames of each chain\n"
	 "  --no-demangle      C++ and Rust names as in the symbol table\n"
	 "  --symfs DIR        look for the mapped files under DIR\n"
	 "  -h, --help         show this help\n"},
	{"diff", cmd_diff, "compare the profiles of two perf.data files (as perf diff)",
	 "usage: rvpmu diff [options] [OLD] [NEW]\n"
	 "\n"
	 "Match the samples of two recordings by file and symbol and print perf\n"
	 "diff's table: each symbol's share in OLD (Baseline) and how much it\n"
	 "moved in NEW (Delta). No file: perf.data.old and perf.data; one file:\n"
	 "perf.data.old and it.\n"
	 "\n"
	 "options:\n"
	 "  --percent-limit P  hide symbols whose baseline and delta are under P\n"
	 "  -q, --quiet        no comment lines\n"
	 "  --no-demangle      C++ and Rust names as in the symbol table\n"
	 "  --symfs DIR        look for the mapped files under DIR\n"
	 "  -h, --help         show this help\n"},
	{"buildid-list", cmd_buildid_list, "list the build ids a perf.data file records",
	 "usage: rvpmu buildid-list [-i FILE]\n\n"
	 "Print \"BUILD-ID PATH\" for each file the recording mapped (as perf buildid-list).\n"},
	{"list", cmd_list, "list the events rvpmu can count",
	 "usage: rvpmu list [--profile P]\n\nList the event names 'rvpmu stat -e' accepts for a core profile.\n"},
	{"system", cmd_system, "boot firmware, Linux or a bare-metal image on a virt machine",
	 "usage: rvpmu system [--bios builtin|none] --kernel FILE [options]\n"
	 "\n"
	 "Boot FILE (an ELF, loaded at its physical addresses, or a raw image) on\n"
	 "a QEMU-virt-compatible machine of 1 to 8 harts: RAM at 0x80000000, ns16550a\n"
	 "UART at 0x10000000 (to stdout), CLINT at 0x2000000, sifive_test at\n"
	 "0x100000. Writing 0x5555 to the test device exits 0, (code << 16) |\n"
	 "0x3333 exits with code, 0x7777 resets. a0 = hartid, a1 = device tree.\n"
	 "\n"
	 "The UART reads stdin and interrupts through the PLIC at 0xc000000\n"
	 "(source 10). A terminal goes raw for the run: Ctrl-A x quits, Ctrl-A\n"
	 "Ctrl-A sends Ctrl-A. a2 points at OpenSBI's fw_dynamic info (next stage\n"
	 "0x80200000 in S-mode), so fw_dynamic.bin boots as fw_jump.bin does.\n"
	 "\n"
	 "With --bios builtin (the default) rvpmu's own SBI 3.0 firmware owns\n"
	 "M-mode and FILE starts in S-mode (a raw image at 0x80200000, as with\n"
	 "OpenSBI's fw_jump); with --bios none FILE starts in M-mode; with a\n"
	 "firmware file, the firmware starts and FILE waits at 0x80200000.\n"
	 "\n"
	 "With several harts, every hart starts the firmware (or, with --bios\n"
	 "none, FILE) with a0 = its mhartid; the built-in SBI starts hart 0 and\n"
	 "keeps the others stopped until SBI HSM hart_start. One host thread runs\n"
	 "the harts in turns of --quantum instructions of modelled time, so every\n"
	 "run interleaves them, and prints and counts, the same way.\n"
	 "\n"
	 "A trap storm, the same trap at the same pc 10000 times in a row with\n"
	 "nothing retired in between but a handler that returns to it, ends the\n"
	 "run with a one-line diagnosis (cause, pc, tval, mode, trap vector) and\n"
	 "exit 123.\n"
	 "\n"
	 "options:\n"
	 "  --bios builtin|none|FILE\n"
	 "                     firmware: rvpmu's own (default), none, or an image\n"
	 "                     such as OpenSBI's fw_jump.bin, loaded at 0x80000000\n"
	 "                     and started in M-mode (a0 = hartid, a1 = dtb)\n"
	 "  --dump-dtb FILE    write the machine's device tree to FILE and exit\n"
	 "  --dtb FILE         use this device tree instead (its /chosen gets\n"
	 "                     --append and --initrd)\n"
	 "  --initrd FILE      an initramfs for the kernel (chosen/linux,initrd-*)\n"
	 "  --append STR       the kernel command line (chosen/bootargs)\n"
	 "  --kernel FILE      the image to run\n"
	 "  -m MB              RAM size (default 256; at most the host's memory)\n"
	 "  --smp N, -smp N    harts (1 to 8, default 1)\n"
	 "  --quantum N        instructions each hart runs before the next one's\n"
	 "                     turn (default 10000, at least 100; with one hart\n"
	 "                     there are no turns)\n"
	 "  --profile P        core profile for the PMU (virt, u74 or a .json file);\n"
	 "                     without it the PMU's selectors are rvpmu's canonical\n"
	 "                     event numbers (1 cycles, 2 instructions, ...)\n"
	 "  -q, --quiet        no progress line on a terminal (stderr)\n"
	 "  --max-insns N      stop after N retired instructions (exit 124); a trap\n"
	 "                     taken with none retired since the trap before counts\n"
	 "                     as one\n"
	 "  --trace-sbi        built-in SBI: print every SBI call, its arguments\n"
	 "                     and result to stderr\n"
	 "  --no-sbi-snapshot  built-in SBI: refuse PMU snapshot_set_shmem with\n"
	 "                     SBI_ERR_NOT_SUPPORTED (as OpenSBI 1.1 does; Linux\n"
	 "                     <= 6.12 restarts sampled counters wrongly with it)\n"
	 "  --no-uarch         the profile's PMU without its cache/TLB/predictor/\n"
	 "                     timing models (about ten times faster)\n"
	 "  -h, --help         show this help\n"},
};

static void usage(FILE *out)
{
	fprintf(out, "usage: rvpmu [--help] [--version] COMMAND [ARGS...]\n\n"
		     "rvpmu is a RISC-V emulator with a modelled performance-monitoring unit.\n\n"
		     "commands:\n");
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		fprintf(out, "  %-12s %s\n", subcommands[i].name, subcommands[i].summary);
	fprintf(out, "  %-12s %s\n\n", "help", "show help for a command");
	fprintf(out, "Run 'rvpmu help COMMAND' for a command's options. As with perf, an option's\n"
		     "value follows it ('--event V', '--event=V', '-e V', '-eV'), a long option\n"
		     "may be shortened to a prefix naming one option ('--rep 3'), one-letter\n"
		     "options may be clustered ('-qx,'), and a PROG without '/' is looked for on\n"
		     "$PATH (then in the current directory).\n");
}

static const struct subcommand *find(const char *name)
{
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		if (!strcmp(subcommands[i].name, name))
			return &subcommands[i];
	return NULL;
}

void cli_usage(const char *name, FILE *out)
{
	const struct subcommand *s = find(name);
	if (s)
		fputs(s->usage, out);
}

int cli_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "rvpmu %s: ", rvpmu_cmd);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	return 2;
}

int cli_parse_count(const char *opt, const char *s, uint64_t *out)
{
	char *end;
	if (!s || !*s || *s == '-' || *s == '+')
		goto bad;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || end == s)
		goto bad;
	uint64_t mul = 1;
	if (*end == 'k' || *end == 'K')
		mul = 1000, end++;
	else if (*end == 'M')
		mul = 1000000, end++;
	else if (*end == 'G')
		mul = 1000000000, end++;
	if (*end || (mul > 1 && v > UINT64_MAX / mul))
		goto bad;
	*out = v * mul;
	return 0;
bad:
	cli_error("%s: '%s' is not a valid count", opt, s ? s : "");
	return -1;
}

int cli_parse_percent(const char *s, double *out)
{
	char *end;
	double d = strtod(s, &end);
	if (!*s || *end || !(d >= 0 && d <= 100)) {
		cli_error("--percent-limit: '%s' is not a percentage (0..100)", s);
		return -1;
	}
	*out = d;
	return 0;
}

int cli_add_events(const char *cmd, struct cli_events *e, const char *list)
{
	if (e->n == (int)(sizeof(e->list) / sizeof(e->list[0]))) {
		fprintf(stderr, "rvpmu %s: too many -e options\n", cmd);
		return -1;
	}
	e->list[e->n++] = list;
	return 0;
}

int cli_events(const char *cmd, const struct cli_events *e, const char *dflt,
	       const struct profile *p, struct evspec *out)
{
	char err[512];
	int n = 0;
	for (int i = 0; i < (e->n ? e->n : 1) && n >= 0; i++)
		n = evspec_parse(e->n ? e->list[i] : dflt, p, out, n, EVSPEC_MAX, err, sizeof(err));
	if (n < 0)
		fprintf(stderr, "rvpmu %s: %s\n", cmd, err);
	return n;
}

int cli_user_counters(const char *v, int *mode)
{
	static const char *const names[] = {"all", "off", "mmap"};  /* LINUX_UCNT_* order */
	for (int k = 0; k < 3; k++)
		if (!strcmp(v, names[k])) {
			*mode = k;
			return 0;
		}
	cli_error("--user-counters: '%s' is not off, mmap or all", v);
	return -1;
}

int cli_max_mem(const char *v, uint64_t *mb)
{
	if (cli_parse_count("--max-mem", v, mb))
		return -1;
	if (*mb > (GMEM_SPACE_MAX >> 20)) {
		cli_error("--max-mem: '%s' is out of range (0..%llu MiB)", v,
			  (unsigned long long)(GMEM_SPACE_MAX >> 20));
		return -1;
	}
	if (!*mb)
		*mb = LINUX_MEM_NONE;
	return 0;
}

int cli_cpus(const char *v, unsigned *n)
{
	uint64_t c;
	if (cli_parse_count("--cpus", v, &c))
		return -1;
	if (c < 1 || c > SESSION_MAX_CPUS) {
		cli_error("--cpus: '%s' is out of range (1..%d)", v, SESSION_MAX_CPUS);
		return -1;
	}
	*n = (unsigned)c;
	return 0;
}

/* perf's parse-options, as far as rvpmu's tables need it: a long option
 * by its full name or an unambiguous prefix ("--rep" for --repeat), its
 * value after '=' or in the next argument; one-letter options alone or
 * clustered ("-ddd", "-qv"), a value option's value being the rest of
 * the argument taken as it stands ("-x=" is '=') or the next argument.
 * An optional value is only the attached one (perf's PARSE_OPT_OPTARG),
 * or also a next argument that is not an option (PARSE_OPT_LASTARG_DEFAULT,
 * whose get_arg leaves an argument starting '-' to be an option). */
static int takes_value(const struct cli_opt *o, const char *shown, char **argv, int argc, int *i,
		       const char **val)
{
	if (o->arg == CLI_NOARG || o->arg == CLI_OPTARG)
		return 0;
	if (o->arg == CLI_OPTNEXT) {
		if (*i < argc && argv[*i][0] != '-')
			*val = argv[(*i)++];
		return 0;
	}
	if (*i >= argc) {
		cli_error("%s needs a value", shown);
		return CLI_FAIL;
	}
	*val = argv[(*i)++];
	return 0;
}

static int long_option(const struct cli_opt *opts, const char *a, int argc, char **argv, int *i,
		       const char **val)
{
	size_t len = strcspn(a, "=");
	int found = -1, exact = 0, ambiguous = 0;
	for (int k = 0; opts[k].name; k++)
		for (const char *n = opts[k].name; n; n = n == opts[k].name ? opts[k].alias : NULL) {
			if (n[1] != '-' || strncmp(a, n, len))
				continue;
			if (!n[len]) {   /* the full name beats any abbreviation */
				if (!exact)
					found = k, exact = 1, ambiguous = 0;
			} else if (!exact && found != k) {
				ambiguous = found >= 0;
				found = k;
			}
		}
	if (ambiguous) {
		cli_error("option '%.*s' is ambiguous (see 'rvpmu help %s')", (int)len, a, rvpmu_cmd);
		return CLI_FAIL;
	}
	if (found < 0) {
		cli_error("unknown option '%.*s' (see 'rvpmu help %s')", (int)len, a, rvpmu_cmd);
		return CLI_FAIL;
	}
	if (a[len] == '=') {
		if (opts[found].arg == CLI_NOARG) {
			cli_error("option '%.*s' takes no value", (int)len, a);
			return CLI_FAIL;
		}
		*val = a + len + 1;
		return found;
	}
	return takes_value(&opts[found], a, argv, argc, i, val) ? CLI_FAIL : found;
}

int cli_next(const char *cmd, const struct cli_opt *opts, int argc, char **argv, int *i,
	     const char **val)
{
	/* the letters of a cluster still to parse, and where they came from */
	static const char *rest;
	static char **rest_argv;
	static int rest_i;
	const char *s;
	(void)cmd;   /* the subcommand running is rvpmu_cmd */
	*val = NULL;
	if (rest && rest_argv == argv && rest_i == *i) {
		s = rest;
	} else {
		if (*i >= argc || argv[*i][0] != '-' || !argv[*i][1])
			return CLI_DONE;
		const char *a = argv[(*i)++];
		if (!strcmp(a, "--"))
			return CLI_DONE;
		if (!strcmp(a, "--help"))
			return CLI_HELP;
		if (a[1] == '-')
			return long_option(opts, a, argc, argv, i, val);
		/* a spelling of several letters after one '-' (QEMU's -smp)
		 * is that option, whole */
		for (int k = 0; opts[k].name; k++)
			for (const char *n = opts[k].name; n; n = n == opts[k].name ? opts[k].alias : NULL)
				if (n[1] != '-' && n[2] && !strcmp(a, n))
					return takes_value(&opts[k], n, argv, argc, i, val) ? CLI_FAIL : k;
		s = a + 1;
	}
	rest = NULL;
	for (int k = 0; opts[k].name; k++)
		for (const char *n = opts[k].name; n; n = n == opts[k].name ? opts[k].alias : NULL) {
			if (n[1] != *s || n[2])
				continue;
			if (opts[k].arg != CLI_NOARG && s[1]) {
				*val = s + 1;
				return k;
			}
			if (s[1])   /* more letters of the cluster */
				rest = s + 1, rest_argv = argv, rest_i = *i;
			return takes_value(&opts[k], n, argv, argc, i, val) ? CLI_FAIL : k;
		}
	if (*s == 'h')
		return CLI_HELP;
	cli_error("unknown option '-%c' (see 'rvpmu help %s')", *s, rvpmu_cmd);
	return CLI_FAIL;
}

int cli_end(const char *cmd, int k)
{
	if (k == CLI_HELP) {
		cli_usage(cmd, stdout);
		return 0;
	}
	return k == CLI_FAIL ? 2 : -1;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
		printf("rvpmu %s\n", RVPMU_VERSION);
		return 0;
	}
	if (!strcmp(cmd, "help")) {
		if (argc < 3) {
			usage(stdout);
			return 0;
		}
		rvpmu_cmd = "help";
		if (!find(argv[2]))
			return cli_error("unknown command '%s'", argv[2]);
		cli_usage(argv[2], stdout);
		return 0;
	}
	const struct subcommand *s = find(cmd);
	if (!s) {
		fprintf(stderr, "rvpmu: unknown command '%s' (see 'rvpmu --help')\n", cmd);
		return 2;
	}
	rvpmu_cmd = s->name;
	return cli_interrupt_exit(s->main(argc - 1, argv + 1));
}
