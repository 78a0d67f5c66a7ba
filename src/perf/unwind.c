/* The user call chain of a --call-graph dwarf sample: its registers
 * (PERF_SAMPLE_REGS_USER in RISC-V's perf_regs order: pc, then x1..x31)
 * and its copy of the stack (PERF_SAMPLE_STACK_USER) unwound with the
 * mapped ELF's call frame information by elfutils' libdwfl (dwfl_frame),
 * as perf's util/unwind-libdw.c does on the machine that recorded. Code
 * built without frame pointers gets whole chains this way. */
#include <elfutils/libdwfl.h>
#include <stdlib.h>
#include <string.h>
#include "hist.h"

#define NREGS 32

struct unwind {
	struct resolver *r;
	const struct perfdata_rd_sample *s;
	uint64_t regs[NREGS];
	uint64_t *pcs;
	int n, max;
};

static const Dwfl_Callbacks offline = {
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/* one thread: the process's (perf's per-thread stacks are all alike here) */
static pid_t next_thread(Dwfl *d, void *arg, void **state)
{
	const struct unwind *u = arg;
	(void)d;
	if (*state)
		return 0;
	*state = arg;
	return u->s && u->s->pid ? (pid_t)u->s->pid : 1;
}

/* Memory the unwinder reads: the stack copy, else the mapped file's
 * bytes (read-only data). */
static bool memory_read(Dwfl *d, Dwarf_Addr addr, Dwarf_Word *out, void *arg)
{
	struct unwind *u = arg;
	uint64_t sp = u->regs[2];
	(void)d;
	if (addr >= sp && addr - sp <= u->s->stack_size && u->s->stack_size - (addr - sp) >= 8) {
		memcpy(out, u->s->stack + (addr - sp), 8);
		return true;
	}
	struct loc l;
	resolve(u->r, u->s->space, addr, 0, &l);
	return l.have_addr && !sym_read(l.elf, l.addr, out, 8);
}

static bool initial_registers(Dwfl_Thread *t, void *arg)
{
	struct unwind *u = arg;
	Dwarf_Word r[NREGS];
	r[0] = 0;   /* DWARF registers 0..31 are x0..x31 */
	for (int i = 1; i < NREGS; i++)
		r[i] = u->regs[i];
	dwfl_thread_state_register_pc(t, u->regs[0]);
	return dwfl_thread_state_registers(t, 0, NREGS, r);
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.memory_read = memory_read,
	.set_initial_registers = initial_registers,
};

static int frame(Dwfl_Frame *state, void *arg)
{
	struct unwind *u = arg;
	Dwarf_Addr pc;
	bool activation;
	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	/* the first frame is the sample's own pc; callers are return
	 * addresses, as a frame-pointer chain has them */
	if (!activation && u->n < u->max)
		u->pcs[u->n++] = pc;
	return u->n < u->max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

/* One Dwfl per process, kept while its samples come (the files'
 * CFI parsed once): the resolver holds it. */
struct unwind_cache {
	Dwfl *dwfl;
	uint32_t pid;
	int attached;
	struct unwind u;        /* the sample the callbacks see */
};

static void cache_free(void *p)
{
	struct unwind_cache *c = p;
	if (c && c->dwfl)
		dwfl_end(c->dwfl);
	free(c);
}

static struct unwind_cache *cache_for(struct resolver *r, uint32_t pid)
{
	struct unwind_cache *c = r->unwind;
	if (c && c->pid == pid)
		return c->attached ? c : NULL;
	cache_free(c);
	r->unwind = c = calloc(1, sizeof(*c));
	r->unwind_free = cache_free;
	if (!c || !(c->dwfl = dwfl_begin(&offline)))
		return NULL;
	c->pid = pid;
	c->u.r = r;
	/* every file the process mapped, once, at its load bias */
	int reported = 0;
	for (size_t i = 0; i < r->f->nmmaps; i++) {
		const struct perfdata_rd_mmap *m = &r->f->mmaps[i];
		int seen = 0;
		for (size_t j = 0; j < i && !seen; j++)
			seen = r->f->mmaps[j].space == m->space && !strcmp(r->f->mmaps[j].path, m->path);
		struct loc l;
		if (seen || m->space != pid)
			continue;
		resolve(r, pid, m->addr, 0, &l);
		if (!l.have_addr || l.map != m)
			continue;
		char full[4096];
		snprintf(full, sizeof(full), "%s%s", r->symfs ? r->symfs : "", m->path);
		reported |= dwfl_report_elf(c->dwfl, m->path, full, -1, m->addr - l.addr, false) != NULL;
	}
	dwfl_report_end(c->dwfl, NULL, NULL);
	c->attached = reported && dwfl_attach_state(c->dwfl, NULL, (pid_t)(pid && !(pid & PERFDATA_SPACE_EXEC) ? pid : 1),
						     &thread_callbacks, &c->u);
	return c->attached ? c : NULL;
}

int unwind_user(struct resolver *r, const struct perfdata_rd_sample *s, uint64_t *pcs, int max)
{
	const struct perfdata_rd_event *e = &r->f->events[s->event];
	if (max <= 0 || !s->regs || !s->stack)
		return 0;
	struct unwind_cache *c = cache_for(r, s->space);
	if (!c)
		return 0;
	struct unwind *u = &c->u;
	u->s = s;
	u->pcs = pcs;
	u->max = max;
	u->n = 0;
	memset(u->regs, 0, sizeof(u->regs));
	/* the registers the file has, in their bit order */
	for (int i = 0, k = 0; i < NREGS && k < (int)s->nr_regs; i++)
		if (e->sample_regs_user >> i & 1)
			u->regs[i] = s->regs[k++];
	dwfl_getthread_frames(c->dwfl, (pid_t)(s->pid ? s->pid : 1), frame, u);
	return u->n;
}
