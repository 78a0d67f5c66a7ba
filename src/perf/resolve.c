/* Addresses of a perf.data's samples to mappings, files, functions and
 * source lines (include/rvpmu/resolve.h), shared by report, script,
 * annotate and diff so that they all attribute a sample alike. */
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rvpmu/resolve.h"

void resolver_init(struct resolver *r, const struct perfdata_file *f, const char *symfs,
		   int demangle, const char *cmd)
{
	memset(r, 0, sizeof(*r));
	r->f = f;
	r->symfs = symfs;
	r->demangle = demangle;
	r->cmd = cmd;
}

void resolver_free(struct resolver *r)
{
	for (size_t i = 0; i < r->ndsos; i++) {
		sym_close(r->dsos[i].sym);
		free(r->dsos[i].path);
	}
	free(r->dsos);
	r->dsos = NULL;
	r->ndsos = 0;
	if (r->unwind_free)
		r->unwind_free(r->unwind);
	r->unwind = NULL;
}

int sample_is_kernel(const struct perfdata_rd_sample *s)
{
	return (s->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;
}

const struct perfdata_rd_mmap *resolve_map(const struct perfdata_file *f, uint32_t space, uint64_t ip)
{
	const struct perfdata_rd_mmap *any = NULL;
	/* the newest mapping wins, as a later mmap replaces an older one */
	for (size_t i = f->nmmaps; i-- > 0;) {
		const struct perfdata_rd_mmap *m = &f->mmaps[i];
		if (ip < m->addr || ip - m->addr >= m->len)
			continue;
		if (m->space == space)
			return m;
		if (!any)
			any = m;
	}
	return any;
}

static struct sym_elf *dso_syms(struct resolver *r, const char *path)
{
	for (size_t i = 0; i < r->ndsos; i++)
		if (!strcmp(r->dsos[i].path, path))
			return r->dsos[i].sym;
	struct resolver_dso *d = realloc(r->dsos, (r->ndsos + 1) * sizeof(*d));
	if (!d)
		return NULL;
	r->dsos = d;
	d = &r->dsos[r->ndsos];
	if (!(d->path = strdup(path)))
		return NULL;
	r->ndsos++;
	char full[4096], err[4400];
	snprintf(full, sizeof(full), "%s%s", r->symfs ? r->symfs : "", path);
	/* a file rebuilt since the recording is refused, as perf does: its
	 * samples stay unresolved rather than land on the wrong symbols */
	int other = sym_check_build_id(r->f, path, full, err, sizeof(err));
	d->sym = other ? NULL : sym_open(full, err, sizeof(err));
	if (!d->sym) {
		/* the path comes from the file: keep the message one line of text */
		for (char *p = err; *p; p++)
			if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
				*p = '?';
		fprintf(stderr, other ? "rvpmu %s: warning: %s: its samples are not symbolised\n"
				      : "rvpmu %s: no symbols for %s\n", r->cmd, err);
	}
	return d->sym;
}

void resolve(struct resolver *r, uint32_t space, uint64_t ip, int kernel, struct loc *l)
{
	memset(l, 0, sizeof(*l));
	l->ip = l->map_ip = ip;
	l->kernel = kernel;
	l->map = resolve_map(r->f, space, ip);
	if (!l->map)
		return;
	l->map_ip = ip - l->map->addr + l->map->pgoff;
	if (l->map->path[0] == '[')
		return;  /* [kernel.kallsyms], [vdso]...: rvpmu has no symbols for them */
	l->elf = dso_syms(r, l->map->path);
	if (l->elf)
		l->have_addr = sym_offset_to_addr(l->elf, l->map_ip, &l->addr);
	if (l->have_addr)
		l->sym = sym_lookup_dm(l->elf, l->addr, &l->off, &l->sym_start, r->demangle);
}

const char *loc_dso_long(const struct loc *l)
{
	return l->map ? l->map->path : "[unknown]";
}

const char *loc_dso(const struct loc *l)
{
	const char *p = loc_dso_long(l), *s = strrchr(p, '/');
	if (!strncmp(p, "[kernel.kallsyms]", 17))
		return "[kernel.kallsyms]";  /* perf's name for [kernel.kallsyms]_text */
	return s && p[0] != '[' ? s + 1 : p;
}

int loc_srcline(const struct loc *l, char *buf, size_t len)
{
	if (l->have_addr && !sym_srcline(l->elf, l->addr, buf, len))
		return 0;
	snprintf(buf, len, "??:0");
	return -1;
}

/* The name of a task (by tid, or by pid) at sample seq: its newest
 * COMM before the sample in the file, else the first after it. */
static const char *name_at(const struct perfdata_file *f, int by_pid, uint32_t id, size_t seq)
{
	const char *later = NULL;
	for (size_t i = f->ncomms; i-- > 0;) {
		const struct perfdata_rd_comm *c = &f->comms[i];
		if ((by_pid ? c->pid : c->tid) != id)
			continue;
		if (c->seq <= seq)
			return c->name;
		later = c->name;
	}
	return later;
}

static const char *comm_at(const struct perfdata_file *f, const struct perfdata_rd_sample *s,
			   size_t seq, char *buf, size_t len)
{
	const char *n = name_at(f, 0, s->tid, seq);
	if (n || (n = name_at(f, 1, s->pid, seq)))
		return n;
	snprintf(buf, len, ":%u", s->tid);
	return buf;
}

const char *resolver_comm(const struct perfdata_file *f, const struct perfdata_rd_sample *s,
			  char *buf, size_t len)
{
	return comm_at(f, s, (size_t)(s - f->samples), buf, len);
}

const char *resolver_task_comm(const struct perfdata_file *f, const struct perfdata_rd_sample *s,
			       char *buf, size_t len)
{
	return comm_at(f, s, SIZE_MAX, buf, len);
}
