/* perf.data writer: the file layout of Linux tools/perf
 * (Documentation/perf.data-file-format.txt) with records as the kernel
 * writes them (include/uapi/linux/perf_event.h), so Linux perf report,
 * perf script and rvpmu report read what rvpmu record samples.
 *
 * Layout: file header | ids of each attr | attrs | data (records) |
 * feature section table | feature payloads. The header is written last,
 * once the sizes are known. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <gelf.h>
#include <libelf.h>
#include <fcntl.h>
#include <unistd.h>
#include "perfdata_int.h"
#include "rvpmu/outfile.h"
#include "rvpmu/perfdata.h"

struct wr_event {
	struct perf_event_attr attr;
	char name[64];
	uint64_t id;
};

struct perfdata_writer {
	struct outfile out;     /* in place once complete (PATH.old keeps the one it replaces) */
	FILE *f;                /* out.f */
	char *path;
	struct wr_event *ev;
	unsigned nev;
	char **argv;
	int argc;
	uint64_t data_off, data_size;
	uint64_t nsamples, since_round;
	uint64_t now, first_time, last_time;
	uint64_t rec_time;      /* the sample_id time of other records */
	struct dso {            /* distinct mapped paths, for HEADER_BUILD_ID */
		char *path;
		uint8_t id[20];     /* its build id when it was mapped */
		unsigned idlen;     /* 0: none */
	} *dsos;
	unsigned ndsos;
	uint64_t written;       /* bytes put (not ftell: a device such as /dev/null has no position) */
	uint64_t rounds;        /* FINISHED_ROUND records */
	int failed;
	int any_branch;
	int pipe;               /* perf's pipe format on standard output */
	int *leader;            /* each event's group leader */
	int ngroups;
};

static void put(struct perfdata_writer *w, const void *p, size_t n)
{
	if (n && fwrite(p, 1, n, w->f) != n)
		w->failed = errno ? errno : EIO;
	w->written += n;
}

static void put_u64(struct perfdata_writer *w, uint64_t v) { put(w, &v, 8); }
static void put_u32(struct perfdata_writer *w, uint32_t v) { put(w, &v, 4); }

static void put_zero(struct perfdata_writer *w, size_t n)
{
	static const char z[64];
	while (n) {
		size_t k = n < sizeof(z) ? n : sizeof(z);
		put(w, z, k);
		n -= k;
	}
}

/* The sample_id trailer every non-sample record carries under
 * sample_id_all: TID, TIME, CPU, IDENTIFIER (perf_event.h, "struct
 * sample_id"). All events share the sample_type bits involved. */
static size_t sample_id_size(void) { return 8 + 8 + 8 + 8; }

static void put_sample_id(struct perfdata_writer *w, uint32_t pid, uint32_t tid)
{
	put_u32(w, pid);
	put_u32(w, tid);
	put_u64(w, w->rec_time);
	put_u64(w, 0);          /* cpu, res */
	put_u64(w, w->ev[0].id);
}

static void put_header(struct perfdata_writer *w, uint32_t type, uint16_t misc, size_t size)
{
	struct perf_event_header h = { .type = type, .misc = misc, .size = (uint16_t)size };
	put(w, &h, sizeof(h));
	w->data_size += size;
}

static int check(struct perfdata_writer *w)
{
	return w->failed ? -1 : 0;
}

static void free_writer(struct perfdata_writer *w)
{
	if (!w)
		return;
	outfile_discard(&w->out);   /* a no-op once committed */
	for (int i = 0; i < w->argc; i++)
		free(w->argv[i]);
	for (unsigned i = 0; i < w->ndsos; i++)
		free(w->dsos[i].path);
	free(w->dsos);
	free(w->argv);
	free(w->leader);
	free(w->ev);
	free(w->path);
	free(w);
}

/* perf_event_attr for one event (perf_event_open(2), "sample_type"). */
static void make_attr(const struct perfdata_event *e, struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->type = e->type;
	a->size = PERFDATA_ATTR_SIZE;
	a->config = e->config;
	a->sample_period = e->sample_period;
	a->freq = e->freq ? 1 : 0;
	a->sample_type = PERFDATA_SAMPLE_BASE;
	if (e->callchain)
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	if (e->regs_user) {
		/* perf --call-graph dwarf: the kernel's chain only, the user
		 * part unwound from registers and stack (util/evsel.c) */
		a->sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		a->sample_regs_user = e->regs_user;
		a->sample_stack_user = e->stack_user;
		a->exclude_callchain_user = 1;
	}
	if (e->read_group) {
		a->sample_type |= PERF_SAMPLE_READ;
		a->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	}
	if (e->branch_stack) {
		a->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = e->branch_sample_type ? e->branch_sample_type
			: PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
	}
	a->exclude_user = e->exclude_user ? 1 : 0;
	a->exclude_kernel = e->exclude_kernel ? 1 : 0;
	a->exclude_hv = e->exclude_hv ? 1 : 0;
	a->exclude_host = e->exclude_host ? 1 : 0;
	a->exclude_guest = e->exclude_guest ? 1 : 0;
	a->disabled = 1;
	a->enable_on_exec = 1;
	a->mmap = 1;
	a->comm = 1;
	a->task = 1;
	a->mmap2 = 1;
	a->sample_id_all = 1;
}

static int pipe_start(struct perfdata_writer *w, char *err, size_t errlen);

struct perfdata_writer *perfdata_create(const char *path, const struct perfdata_event *events,
					unsigned nevents, int argc, char *const *argv,
					char *err, size_t errlen)
{
	if (!nevents || nevents > PERFDATA_MAX_EVENTS) {
		perfdata_errf(err, errlen, "%s: %u events (1 to %u supported)", path, nevents,
		     PERFDATA_MAX_EVENTS);
		return NULL;
	}
	struct perfdata_writer *w = calloc(1, sizeof(*w));
	if (!w || !(w->ev = calloc(nevents, sizeof(*w->ev))) || !(w->path = strdup(path)) ||
	    (argc > 0 && !(w->argv = calloc(argc, sizeof(char *))))) {
		perfdata_errf(err, errlen, "%s: out of memory", path);
		free_writer(w);
		return NULL;
	}
	w->nev = nevents;
	for (unsigned i = 0; i < nevents; i++) {
		make_attr(&events[i], &w->ev[i].attr);
		snprintf(w->ev[i].name, sizeof(w->ev[i].name), "%s",
			 events[i].name ? events[i].name : "event");
		w->ev[i].id = i + 1;
		w->any_branch |= events[i].branch_stack;
	}
	for (int i = 0; i < argc; i++) {
		if (!(w->argv[i] = strdup(argv[i] ? argv[i] : ""))) {
			perfdata_errf(err, errlen, "%s: out of memory", path);
			free_writer(w);
			return NULL;
		}
		w->argc = i + 1;
	}
	if (!(w->leader = calloc(nevents, sizeof(*w->leader)))) {
		perfdata_errf(err, errlen, "%s: out of memory", path);
		free_writer(w);
		return NULL;
	}
	for (unsigned i = 0; i < nevents; i++) {
		w->leader[i] = events[i].group > 0 && (unsigned)events[i].group <= i + 1
			? events[i].group - 1 : (int)i;
		w->ngroups += w->leader[i] == (int)i && i + 1 < nevents && events[i + 1].group == (int)i + 1;
	}
	if (!strcmp(path, "-")) {
		w->pipe = 1;
		return pipe_start(w, err, errlen) ? NULL : w;
	}
	if (outfile_open(&w->out, path, 1, err, errlen)) {
		free_writer(w);
		return NULL;
	}
	w->f = w->out.f;
	/* header placeholder, then ids, then attrs (each followed by the
	 * perf_file_section of its ids), then data. */
	put_zero(w, PERFDATA_HEADER_SIZE);
	for (unsigned i = 0; i < nevents; i++)
		put_u64(w, w->ev[i].id);
	for (unsigned i = 0; i < nevents; i++) {
		put(w, &w->ev[i].attr, PERFDATA_ATTR_SIZE);
		put_u64(w, PERFDATA_HEADER_SIZE + 8ull * i);
		put_u64(w, 8);
	}
	w->data_off = PERFDATA_HEADER_SIZE + 8ull * nevents +
		(uint64_t)nevents * (PERFDATA_ATTR_SIZE + 16);
	if (check(w)) {
		perfdata_errf(err, errlen, "%s: %s", path, strerror(w->failed));
		free_writer(w);
		return NULL;
	}
	return w;
}

int perfdata_comm(struct perfdata_writer *w, uint32_t pid, uint32_t tid, const char *name, int exec)
{
	char comm[16] = {0};
	snprintf(comm, sizeof(comm), "%s", name);
	size_t n = (strlen(comm) + 1 + 7) & ~(size_t)7;
	put_header(w, PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0,
		   sizeof(struct perf_event_header) + 8 + n + sample_id_size());
	put_u32(w, pid);
	put_u32(w, tid);
	put(w, comm, n);
	put_sample_id(w, pid, tid);
	return check(w);
}

/* A mapped file and its build id, read now: the file may be rebuilt
 * before the recording ends. */
static void remember_dso(struct perfdata_writer *w, const char *path)
{
	for (unsigned i = 0; i < w->ndsos; i++)
		if (!strcmp(w->dsos[i].path, path))
			return;
	struct dso *d = realloc(w->dsos, (w->ndsos + 1) * sizeof(*d));
	if (!d) {
		w->failed = ENOMEM;
		return;
	}
	w->dsos = d;
	d += w->ndsos;
	if (!(d->path = strdup(path))) {
		w->failed = ENOMEM;
		return;
	}
	d->idlen = sym_build_id(path, d->id, sizeof(d->id));
	w->ndsos++;
}

/* PERF_RECORD_MMAP2 with device/inode fields zero (no build id in the
 * record: perf finds it in HEADER_BUILD_ID). */
int perfdata_mmap2(struct perfdata_writer *w, uint32_t pid, uint32_t tid, uint64_t addr,
		   uint64_t len, uint64_t pgoff, uint32_t prot, const char *path)
{
	size_t plen = strlen(path);
	if (plen > 4000)
		return -1;
	size_t n = (plen + 1 + 7) & ~(size_t)7;
	put_header(w, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER,
		   sizeof(struct perf_event_header) + 8 + 3 * 8 + 2 * 4 + 2 * 8 + 2 * 4 + n +
		   sample_id_size());
	put_u32(w, pid);
	put_u32(w, tid);
	put_u64(w, addr);
	put_u64(w, len);
	put_u64(w, pgoff);
	put_u32(w, 0);          /* maj */
	put_u32(w, 0);          /* min */
	put_u64(w, 0);          /* ino */
	put_u64(w, 0);          /* ino_generation */
	put_u32(w, prot);
	put_u32(w, MAP_PRIVATE);
	put(w, path, plen);
	put_zero(w, n - plen);
	put_sample_id(w, pid, tid);
	remember_dso(w, path);
	return check(w);
}

int perfdata_mmap_elf(struct perfdata_writer *w, uint32_t pid, uint32_t tid,
		      const char *path, uint64_t bias)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	elf_version(EV_CURRENT);
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	size_t n = 0;
	int rc = -1, any = 0;
	if (e && elf_kind(e) == ELF_K_ELF && !elf_getphdrnum(e, &n)) {
		rc = 0;
		for (size_t i = 0; i < n && !rc; i++) {
			GElf_Phdr ph;
			if (!gelf_getphdr(e, i, &ph) || ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
				continue;
			/* page-aligned as mmap(2) maps it */
			uint64_t skew = ph.p_vaddr & 4095;
			uint32_t prot = PROT_EXEC | (ph.p_flags & PF_R ? PROT_READ : 0) |
				(ph.p_flags & PF_W ? PROT_WRITE : 0);
			rc = perfdata_mmap2(w, pid, tid, bias + ph.p_vaddr - skew,
					    (ph.p_memsz + skew + 4095) & ~4095ull,
					    ph.p_offset - skew, prot, path);
			any = 1;
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	return any ? rc : -1;
}

static void round_if_due(struct perfdata_writer *w, int force)
{
	if (!w->since_round || (!force && w->since_round < 4096))
		return;
	put_header(w, PERF_RECORD_FINISHED_ROUND, 0, sizeof(struct perf_event_header));
	w->since_round = 0;
	w->rounds++;
}

/* PERF_RECORD_SAMPLE in the sample_type order of perf_event.h:
 * IDENTIFIER, IP, TID, TIME, CPU, PERIOD, CALLCHAIN, BRANCH_STACK. */
int perfdata_sample(struct perfdata_writer *w, unsigned event, const struct perfdata_sample *s)
{
	if (event >= w->nev)
		return -1;
	const struct perf_event_attr *a = &w->ev[event].attr;
	int cc = !!(a->sample_type & PERF_SAMPLE_CALLCHAIN);
	int bs = !!(a->sample_type & PERF_SAMPLE_BRANCH_STACK);
	int hwidx = bs && (a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX);
	int rd = !!(a->sample_type & PERF_SAMPLE_READ);
	int ru = !!(a->sample_type & PERF_SAMPLE_REGS_USER) && s->regs;
	int su = !!(a->sample_type & PERF_SAMPLE_STACK_USER);
	uint32_t nregs = (uint32_t)__builtin_popcountll(a->sample_regs_user);
	uint32_t stack = su && s->stack ? (s->stack_size + 7) & ~7u : 0;
	uint32_t ncc = cc ? s->nr_callchain : 0, nbr = bs ? s->nr_branches : 0;
	if (ncc > PERFDATA_MAX_CALLCHAIN)
		ncc = PERFDATA_MAX_CALLCHAIN;
	if (nbr > PERFDATA_MAX_BRANCHES)
		nbr = PERFDATA_MAX_BRANCHES;
	size_t size = sizeof(struct perf_event_header) + 8 * 6;
	if (cc)
		size += 8 + 8 * (ncc + (ncc ? 1 : 0));
	if (bs)
		size += 8 + (hwidx ? 8 : 0) + 24 * nbr;
	if (rd)
		size += 8 + 16 * (size_t)s->nr_read;
	if (a->sample_type & PERF_SAMPLE_REGS_USER)
		size += 8 + (ru ? 8 * (size_t)nregs : 0);
	if (su)
		size += 8 + (stack ? stack + 8 : 0);
	if (size > 0xffff) {   /* perf_event_header.size is 16 bits */
		w->failed = EOVERFLOW;
		return -1;
	}
	put_header(w, PERF_RECORD_SAMPLE, s->kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER,
		   size);
	put_u64(w, w->ev[event].id);
	put_u64(w, s->ip);
	put_u32(w, s->pid);
	put_u32(w, s->tid);
	put_u64(w, s->time);
	put_u32(w, s->cpu);
	put_u32(w, 0);
	put_u64(w, s->period);
	if (rd) {
		/* PERF_FORMAT_GROUP | ID: nr, then {value, id} leader first */
		put_u64(w, s->nr_read);
		for (uint32_t i = 0; i < s->nr_read; i++) {
			unsigned k = event;
			while (k > 0 && w->leader[k] != (int)k)
				k--;   /* the leader: members follow it */
			put_u64(w, s->read[i]);
			put_u64(w, w->ev[k + i < w->nev ? k + i : event].id);
		}
	}
	if (cc) {
		put_u64(w, ncc ? ncc + 1 : 0);
		if (ncc)
			put_u64(w, s->kernel ? PERF_CONTEXT_KERNEL : PERF_CONTEXT_USER);
		put(w, s->callchain, 8 * (size_t)ncc);
	}
	if (bs) {
		put_u64(w, nbr);
		if (hwidx)
			put_u64(w, (uint64_t)-1);  /* no hardware index: all valid */
		for (uint32_t i = 0; i < nbr; i++) {
			const struct perfdata_branch *b = &s->branches[i];
			put_u64(w, b->from);
			put_u64(w, b->to);
			put_u64(w, perfdata_branch_flags(b));
		}
	}
	if (a->sample_type & PERF_SAMPLE_REGS_USER) {
		put_u64(w, ru ? 2 : 0);   /* PERF_SAMPLE_REGS_ABI_64, or none */
		if (ru)
			put(w, s->regs, 8 * (size_t)nregs);
	}
	if (su) {
		/* size, the bytes (a multiple of 8), how many are the stack */
		put_u64(w, stack);
		if (stack) {
			put(w, s->stack, s->stack_size);
			put_zero(w, stack - s->stack_size);
			put_u64(w, s->dyn_size);
		}
	}
	if (s->time > w->now)
		w->now = s->time;
	if (!w->nsamples || s->time < w->first_time)
		w->first_time = s->time;
	if (s->time > w->last_time)
		w->last_time = s->time;
	w->nsamples++;
	w->since_round++;
	round_if_due(w, 0);
	return check(w);
}

void perfdata_set_time(struct perfdata_writer *w, uint64_t time)
{
	w->rec_time = time;
	if (time > w->now)
		w->now = time;
}

/* PERF_RECORD_FORK and EXIT: the same layout */
static int task_record(struct perfdata_writer *w, uint32_t type, uint32_t pid, uint32_t ppid,
		       uint32_t tid, uint32_t ptid, uint64_t time)
{
	perfdata_set_time(w, time);
	put_header(w, type, 0, sizeof(struct perf_event_header) + 4 * 4 + 8 + sample_id_size());
	put_u32(w, pid);
	put_u32(w, ppid);
	put_u32(w, tid);
	put_u32(w, ptid);
	put_u64(w, time);
	put_sample_id(w, pid, tid);
	return check(w);
}

int perfdata_fork(struct perfdata_writer *w, uint32_t pid, uint32_t ppid, uint32_t tid,
		  uint32_t ptid, uint64_t time)
{
	return task_record(w, PERF_RECORD_FORK, pid, ppid, tid, ptid, time);
}

int perfdata_exit(struct perfdata_writer *w, uint32_t pid, uint32_t ppid, uint32_t tid,
		  uint32_t ptid, uint64_t time)
{
	return task_record(w, PERF_RECORD_EXIT, pid, ppid, tid, ptid, time);
}

uint64_t perfdata_nsamples(const struct perfdata_writer *w)
{
	return w->nsamples;
}

uint64_t perfdata_size(const struct perfdata_writer *w)
{
	return w->written;
}

uint64_t perfdata_rounds(const struct perfdata_writer *w)
{
	return w->rounds;
}

/* perf_header_string: u32 len (the padded size), NUL-padded string. */
static void put_string(struct perfdata_writer *w, const char *s)
{
	size_t n = strlen(s);
	size_t padded = (n + 1 + 63) & ~(size_t)63;
	put_u32(w, (uint32_t)padded);
	put(w, s, n);
	put_zero(w, padded - n);
}

static size_t string_size(const char *s)
{
	return 4 + ((strlen(s) + 1 + 63) & ~(size_t)63);
}

/* Feature payloads; each returns its size when w is NULL-sized. A
 * feature writer is run twice: once counting bytes, once writing. */
static uint64_t feat_write(struct perfdata_writer *w, int feat, int emit)
{
	const uint64_t start = w->written;
	uint64_t size = 0;
	switch (feat) {
	case HEADER_BUILD_ID:
		for (unsigned i = 0; i < w->ndsos; i++) {
			const struct dso *d = &w->dsos[i];
			if (!d->idlen)
				continue;
			size_t plen = strlen(d->path);
			size_t padded = (plen + 1 + 63) & ~(size_t)63;
			size_t rec = 8 + 4 + 24 + padded;
			size += rec;
			if (!emit)
				continue;
			struct perf_event_header h = {
				.type = PERF_RECORD_HEADER_BUILD_ID,
				.misc = PERF_RECORD_MISC_USER | PERFDATA_MISC_BUILD_ID_SIZE,
				.size = (uint16_t)rec,
			};
			uint8_t bid[24] = {0};
			memcpy(bid, d->id, d->idlen);
			bid[20] = (uint8_t)d->idlen;
			put(w, &h, sizeof(h));
			put_u32(w, (uint32_t)-1);  /* HOST_KERNEL_ID: the host machine */
			put(w, bid, sizeof(bid));
			put(w, d->path, plen);
			put_zero(w, padded - plen);
		}
		break;
	case HEADER_HOSTNAME:
		size = string_size("rvpmu");
		if (emit)
			put_string(w, "rvpmu");
		break;
	case HEADER_OSRELEASE:
		size = string_size(PERFDATA_OSRELEASE);
		if (emit)
			put_string(w, PERFDATA_OSRELEASE);
		break;
	case HEADER_VERSION:
		size = string_size(PERFDATA_VERSION);
		if (emit)
			put_string(w, PERFDATA_VERSION);
		break;
	case HEADER_ARCH:
		size = string_size("riscv64");
		if (emit)
			put_string(w, "riscv64");
		break;
	case HEADER_NRCPUS:
		size = 8;
		if (emit) {
			put_u32(w, 1);  /* nr_cpus_avail */
			put_u32(w, 1);  /* nr_cpus_online */
		}
		break;
	case HEADER_CPUDESC:
		size = string_size("rvpmu RV64GC");
		if (emit)
			put_string(w, "rvpmu RV64GC");
		break;
	case HEADER_CMDLINE:
		size = 4;
		for (int i = 0; i < w->argc; i++)
			size += string_size(w->argv[i]);
		if (emit) {
			put_u32(w, (uint32_t)w->argc);
			for (int i = 0; i < w->argc; i++)
				put_string(w, w->argv[i]);
		}
		break;
	case HEADER_EVENT_DESC:
		size = 8;
		for (unsigned i = 0; i < w->nev; i++)
			size += PERFDATA_ATTR_SIZE + 4 + string_size(w->ev[i].name) + 8;
		if (emit) {
			put_u32(w, w->nev);
			put_u32(w, PERFDATA_ATTR_SIZE);
			for (unsigned i = 0; i < w->nev; i++) {
				put(w, &w->ev[i].attr, PERFDATA_ATTR_SIZE);
				put_u32(w, 1);
				put_string(w, w->ev[i].name);
				put_u64(w, w->ev[i].id);
			}
		}
		break;
	case HEADER_BRANCH_STACK:
		break;          /* a flag: no payload */
	case HEADER_SAMPLE_TIME:
		size = 16;
		if (emit) {
			put_u64(w, w->first_time);
			put_u64(w, w->last_time);
		}
		break;
	case HEADER_GROUP_DESC:
		/* groups, then per group: a name (none), leader, members */
		size = 4 + (uint64_t)w->ngroups * (string_size("") + 8);
		if (emit) {
			put_u32(w, (uint32_t)w->ngroups);
			for (unsigned i = 0; i < w->nev; i++) {
				unsigned n = 1;
				while (i + n < w->nev && w->leader[i + n] == (int)i)
					n++;
				if (w->leader[i] != (int)i || n == 1)
					continue;
				put_string(w, "");
				put_u32(w, i);
				put_u32(w, n);
			}
		}
		break;
	}
	if (emit && !w->failed && w->written - start != size)
		w->failed = EIO;
	return size;
}

/* ---- perf's pipe format (tools/perf/util/header.c, "pipe-mode") ---- */

/* A feature as a PERF_RECORD_HEADER_FEATURE record. */
static void pipe_feature(struct perfdata_writer *w, int feat)
{
	uint64_t size = feat_write(w, feat, 0);
	put_header(w, PERFDATA_RECORD_HEADER_FEATURE, 0, sizeof(struct perf_event_header) + 8 + size);
	put_u64(w, (uint64_t)feat);
	feat_write(w, feat, 1);
}

/* The 16-byte header, each attr and its id as a HEADER_ATTR record, and
 * the features known at the start; data records follow as they come. */
static int pipe_start(struct perfdata_writer *w, char *err, size_t errlen)
{
	int fd = dup(1);
	if (fd < 0 || !(w->f = fdopen(fd, "w"))) {
		perfdata_errf(err, errlen, "standard output: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		free_writer(w);
		return -1;
	}
	put(w, "PERFILE2", 8);
	put_u64(w, PERFDATA_PIPE_HEADER_SIZE);
	for (unsigned i = 0; i < w->nev; i++) {
		put_header(w, PERFDATA_RECORD_HEADER_ATTR, 0,
			   sizeof(struct perf_event_header) + PERFDATA_ATTR_SIZE + 8);
		put(w, &w->ev[i].attr, PERFDATA_ATTR_SIZE);
		put_u64(w, w->ev[i].id);
	}
	static const int feats[] = {
		HEADER_HOSTNAME, HEADER_OSRELEASE, HEADER_VERSION, HEADER_ARCH, HEADER_NRCPUS,
		HEADER_CPUDESC, HEADER_CMDLINE, HEADER_EVENT_DESC,
	};
	for (unsigned i = 0; i < sizeof(feats) / sizeof(feats[0]); i++)
		pipe_feature(w, feats[i]);
	if (w->ngroups)
		pipe_feature(w, HEADER_GROUP_DESC);
	if (check(w) || fflush(w->f)) {
		perfdata_errf(err, errlen, "standard output: %s", strerror(w->failed ? w->failed : errno));
		free_writer(w);
		return -1;
	}
	return 0;
}

/* The build ids (HEADER_BUILD_ID records) and the sample times. */
static int pipe_close(struct perfdata_writer *w, char *err, size_t errlen)
{
	feat_write(w, HEADER_BUILD_ID, 1);
	pipe_feature(w, HEADER_SAMPLE_TIME);
	int rc = 0;
	if (fflush(w->f) || ferror(w->f) || w->failed) {
		perfdata_errf(err, errlen, "standard output: %s",
			      strerror(w->failed ? w->failed : errno ? errno : EIO));
		rc = -1;
	}
	fclose(w->f);
	w->f = NULL;
	free_writer(w);
	return rc;
}

int perfdata_close_as(struct perfdata_writer *w, const char *path, char *err, size_t errlen)
{
	char *p = w && !w->pipe ? strdup(path) : NULL;
	if (w && !w->pipe && !p) {
		perfdata_errf(err, errlen, "%s: out of memory", path);
		free_writer(w);
		return -1;
	}
	if (p) {
		free(w->out.path);
		w->out.path = p;
	}
	return perfdata_close(w, err, errlen);
}

int perfdata_close(struct perfdata_writer *w, char *err, size_t errlen)
{
	if (!w)
		return -1;
	round_if_due(w, 1);
	if (w->pipe)
		return pipe_close(w, err, errlen);
	static const int feats[] = {
		HEADER_BUILD_ID, HEADER_HOSTNAME, HEADER_OSRELEASE, HEADER_VERSION,
		HEADER_ARCH, HEADER_NRCPUS, HEADER_CPUDESC, HEADER_CMDLINE,
		HEADER_EVENT_DESC, HEADER_BRANCH_STACK, HEADER_GROUP_DESC, HEADER_SAMPLE_TIME,
	};
	uint64_t bits[4] = {0};
	int use[sizeof(feats) / sizeof(feats[0])];
	unsigned nfeat = 0;
	for (unsigned i = 0; i < sizeof(feats) / sizeof(feats[0]); i++) {
		use[i] = (feats[i] != HEADER_BRANCH_STACK || w->any_branch) &&
			 (feats[i] != HEADER_GROUP_DESC || w->ngroups);
		if (feats[i] == HEADER_BUILD_ID && !feat_write(w, feats[i], 0))
			use[i] = 0;
		if (use[i]) {
			bits[feats[i] / 64] |= 1ull << (feats[i] % 64);
			nfeat++;
		}
	}
	/* the section table follows the data, payloads follow the table */
	uint64_t off = w->data_off + w->data_size + 16ull * nfeat;
	for (unsigned i = 0; i < sizeof(feats) / sizeof(feats[0]); i++) {
		if (!use[i])
			continue;
		uint64_t sz = feat_write(w, feats[i], 0);
		put_u64(w, off);
		put_u64(w, sz);
		off += sz;
	}
	for (unsigned i = 0; i < sizeof(feats) / sizeof(feats[0]); i++)
		if (use[i])
			feat_write(w, feats[i], 1);
	/* perf_file_header */
	if (!w->failed && fseek(w->f, 0, SEEK_SET))
		w->failed = errno;
	put(w, "PERFILE2", 8);
	put_u64(w, PERFDATA_HEADER_SIZE);
	put_u64(w, PERFDATA_ATTR_SIZE + 16);
	put_u64(w, PERFDATA_HEADER_SIZE + 8ull * w->nev);       /* attrs */
	put_u64(w, (uint64_t)w->nev * (PERFDATA_ATTR_SIZE + 16));
	put_u64(w, w->data_off);
	put_u64(w, w->data_size);
	put_u64(w, 0);          /* event_types: unused */
	put_u64(w, 0);
	put(w, bits, sizeof(bits));
	int rc = 0;
	if (w->failed) {  /* the file it would replace stays as it was */
		perfdata_errf(err, errlen, "%s: %s", w->path, strerror(w->failed));
		rc = -1;
	} else if (outfile_commit(&w->out, err, errlen)) {
		rc = -1;
	}
	free_writer(w);
	return rc;
}
