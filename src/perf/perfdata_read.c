/* perf.data reader: the file layout of tools/perf
 * (Documentation/perf.data-file-format.txt) and the kernel's record
 * layouts (include/uapi/linux/perf_event.h). Every length and offset in
 * the file is checked against the image before use: a malformed file is
 * a one-line error, never a read outside the buffer. */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "perfdata_int.h"
#include "rvpmu/perfdata.h"

struct cur {
	const uint8_t *p, *end;
	int bad;
};

static uint64_t get_u64(struct cur *c)
{
	uint64_t v = 0;
	if (c->end - c->p < 8) {
		c->bad = 1;
		c->p = c->end;
		return 0;
	}
	memcpy(&v, c->p, 8);
	c->p += 8;
	return v;
}

static uint32_t get_u32(struct cur *c)
{
	uint32_t v = 0;
	if (c->end - c->p < 4) {
		c->bad = 1;
		c->p = c->end;
		return 0;
	}
	memcpy(&v, c->p, 4);
	c->p += 4;
	return v;
}

static const uint8_t *get_bytes(struct cur *c, uint64_t n)
{
	if ((uint64_t)(c->end - c->p) < n) {
		c->bad = 1;
		c->p = c->end;
		return NULL;
	}
	const uint8_t *r = c->p;
	c->p += n;
	return r;
}

void perfdata_errf(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;
	if (!err || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	/* names come from the file and the command line: keep it one line */
	for (char *p = err; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p == 0x7f)
			*p = '?';
}

/* A section [off, off+size) inside the image (overflow-safe). */
static int in_image(uint64_t off, uint64_t size, size_t len)
{
	return off <= len && size <= len - off;
}

/* perf_header_string: u32 len, then len bytes holding a NUL-terminated
 * string. Copies at most cap-1 bytes into out. */
static int get_string(struct cur *c, char *out, size_t cap)
{
	uint32_t n = get_u32(c);
	const uint8_t *s = get_bytes(c, n);
	if (!s || !n)
		return -1;
	const uint8_t *z = memchr(s, 0, n);
	if (!z)
		return -1;
	size_t k = (size_t)(z - s);
	if (out && cap) {
		if (k >= cap)
			k = cap - 1;
		memcpy(out, s, k);
		out[k] = 0;
	}
	return 0;
}

/* Growable arrays */
static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return 0;
	size_t n = *cap ? *cap : 16;
	while (n < need)
		n *= 2;
	void *q = realloc(*p, n * elem);
	if (!q)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

struct parser {
	struct perfdata_file *f;
	size_t cap_samples, cap_mmaps, cap_comms, cap_bid;
	size_t n_u64, cap_u64, n_br, cap_br;
	size_t *cc_at, *br_at, *rg_at;  /* pool offsets, resolved at the end */
	size_t cap_cc_at, cap_br_at, cap_rg_at;
	uint64_t last_read[PERFDATA_MAX_EVENTS];  /* PERF_SAMPLE_READ: each event's count so far */
	uint32_t *sp_pid, *sp_id;  /* each pid's address space now */
	size_t nsp, cap_sp_pid, cap_sp_id;
	uint32_t nexec;            /* spaces made by execs */
	char *err;
	size_t errlen;
};

static int nomem(struct parser *ps)
{
	perfdata_errf(ps->err, ps->errlen, "out of memory");
	return -1;
}

/* pid's address space into *space: its current one, or (exec) a new
 * one. A pid's first is the pid itself. 0 or -1. */
static int space_of(struct parser *ps, uint32_t pid, int exec, uint32_t *space)
{
	size_t i = ps->nsp;
	while (i > 0 && ps->sp_pid[i - 1] != pid)
		i--;
	if (i && !exec) {
		*space = ps->sp_id[i - 1];
		return 0;
	}
	*space = i ? PERFDATA_SPACE_EXEC | ++ps->nexec : pid;
	if (i) {
		ps->sp_id[i - 1] = *space;
		return 0;
	}
	if (grow((void **)&ps->sp_pid, &ps->cap_sp_pid, ps->nsp + 1, sizeof(uint32_t)) ||
	    grow((void **)&ps->sp_id, &ps->cap_sp_id, ps->nsp + 1, sizeof(uint32_t)))
		return nomem(ps);
	ps->sp_pid[ps->nsp] = pid;
	ps->sp_id[ps->nsp++] = *space;
	return 0;
}

static void default_name(struct perfdata_rd_event *e)
{
	static const char *const hw[] = {
		"cycles", "instructions", "cache-references", "cache-misses",
		"branches", "branch-misses", "bus-cycles", "stalled-cycles-frontend",
		"stalled-cycles-backend", "ref-cycles",
	};
	if (e->type == PERF_TYPE_HARDWARE && e->config < sizeof(hw) / sizeof(hw[0]))
		snprintf(e->name, sizeof(e->name), "%s", hw[e->config]);
	else if (e->type == PERF_TYPE_RAW)
		snprintf(e->name, sizeof(e->name), "r%llx", (unsigned long long)e->config);
	else
		snprintf(e->name, sizeof(e->name), "event-%u:0x%llx", e->type,
			 (unsigned long long)e->config);
}

/* One perf_event_attr of alen bytes and its nids ids (host order). */
static int add_event(struct parser *ps, const uint8_t *a, uint64_t alen, const uint8_t *ids,
		     uint64_t nids)
{
	struct perfdata_file *f = ps->f;
	if (f->nevents >= PERFDATA_MAX_EVENTS)
		return perfdata_errf(ps->err, ps->errlen, "more than %d events", PERFDATA_MAX_EVENTS), -1;
	if (nids > 65536)
		return perfdata_errf(ps->err, ps->errlen, "an event with %llu ids",
				     (unsigned long long)nids), -1;
	struct perfdata_rd_event *ev = realloc(f->events, (f->nevents + 1) * sizeof(*ev));
	if (!ev)
		return nomem(ps);
	f->events = ev;
	struct perf_event_attr at;
	memset(&at, 0, sizeof(at));
	memcpy(&at, a, alen < sizeof(at) ? alen : sizeof(at));
	struct perfdata_rd_event *e = &f->events[f->nevents];
	memset(e, 0, sizeof(*e));
	e->type = at.type;
	e->config = at.config;
	e->sample_period = at.sample_period;
	e->freq = at.freq;
	e->sample_type = at.sample_type;
	e->read_format = at.read_format;
	e->branch_sample_type = at.branch_sample_type;
	e->sample_regs_user = at.sample_regs_user;
	e->sample_stack_user = at.sample_stack_user;
	e->sample_id_all = at.sample_id_all;
	e->exclude_user = at.exclude_user;
	e->exclude_kernel = at.exclude_kernel;
	e->exclude_callchain_user = at.exclude_callchain_user;
	e->leader = (int)f->nevents;
	default_name(e);
	f->nevents++;   /* from here perfdata_file_free frees what it holds */
	if (!(e->attr = malloc(sizeof(at))))
		return nomem(ps);
	memcpy(e->attr, &at, sizeof(at));
	e->nids = (unsigned)nids;
	if (nids) {
		if (!(e->ids = malloc(8 * nids)))
			return nomem(ps);
		memcpy(e->ids, ids, 8 * nids);
	}
	return 0;
}

static int parse_attrs(struct parser *ps, const uint8_t *img, size_t len, uint64_t attr_size,
		       uint64_t off, uint64_t size)
{
	if (attr_size < PERF_ATTR_SIZE_VER0 + 16 || attr_size > 4096 + 16)
		return perfdata_errf(ps->err, ps->errlen, "bad attr size %llu", (unsigned long long)attr_size), -1;
	if (!in_image(off, size, len))
		return perfdata_errf(ps->err, ps->errlen, "attrs section outside the file (truncated?)"), -1;
	if (!size || size % attr_size || size / attr_size > PERFDATA_MAX_EVENTS)
		return perfdata_errf(ps->err, ps->errlen, "attrs section of %llu bytes is not 1 to %d attrs",
			    (unsigned long long)size, PERFDATA_MAX_EVENTS), -1;
	for (unsigned i = 0; i < size / attr_size; i++) {
		const uint8_t *a = img + off + i * attr_size;
		uint64_t alen = attr_size - 16, ioff, isz;
		memcpy(&ioff, a + alen, 8);
		memcpy(&isz, a + alen + 8, 8);
		if (!in_image(ioff, isz, len) || isz % 8)
			return perfdata_errf(ps->err, ps->errlen, "ids of attr %u outside the file", i), -1;
		if (add_event(ps, a, alen, img + ioff, isz / 8))
			return -1;
	}
	return 0;
}

static int event_of_id(const struct perfdata_file *f, uint64_t id)
{
	for (unsigned i = 0; i < f->nevents; i++)
		for (unsigned k = 0; k < f->events[i].nids; k++)
			if (f->events[i].ids[k] == id)
				return (int)i;
	return -1;
}

/* A read_format value (perf_event_open(2), "read_format"): up to max
 * (count, id) pairs into v; returns how many, or -1 when malformed. */
static int get_read(struct cur *c, uint64_t rf, uint64_t (*v)[2], unsigned max)
{
	int id = !!(rf & PERF_FORMAT_ID), lost = !!(rf & PERF_FORMAT_LOST);
	uint64_t nr = 1;
	if (rf & PERF_FORMAT_GROUP)
		nr = get_u64(c);
	if (nr > max)
		return -1;
	if (rf & PERF_FORMAT_GROUP)
		get_bytes(c, 8ull * (!!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
				     !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING)));
	for (uint64_t i = 0; i < nr; i++) {
		v[i][0] = get_u64(c);
		if (!(rf & PERF_FORMAT_GROUP))
			get_bytes(c, 8ull * (!!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
					     !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING)));
		v[i][1] = id ? get_u64(c) : ~0ull;
		if (lost)
			get_u64(c);
	}
	return c->bad ? -1 : (int)nr;
}

/* Which event a sample belongs to: IDENTIFIER is first; otherwise ID at
 * its place in the first event's layout; a single event needs neither. */
static int sample_event(const struct perfdata_file *f, struct cur c)
{
	uint64_t st = f->events[0].sample_type;
	if (st & PERF_SAMPLE_IDENTIFIER)
		return event_of_id(f, get_u64(&c));
	if (f->nevents == 1)
		return 0;
	if (!(st & PERF_SAMPLE_ID))
		return -1;
	get_bytes(&c, 8ull * (!!(st & PERF_SAMPLE_IP) + !!(st & PERF_SAMPLE_TID) +
			      !!(st & PERF_SAMPLE_TIME) + !!(st & PERF_SAMPLE_ADDR)));
	uint64_t id = get_u64(&c);
	return c.bad ? -1 : event_of_id(f, id);
}

/* nr u64 values from c into the pool; *at = their offset. */
static int pool_u64(struct parser *ps, struct cur *c, uint64_t nr, size_t *at)
{
	struct perfdata_file *f = ps->f;
	if (nr > (uint64_t)(c->end - c->p) / 8) {
		c->bad = 1;
		return 0;
	}
	if (grow((void **)&f->u64pool, &ps->cap_u64, ps->n_u64 + nr + 1, 8))
		return nomem(ps);
	memcpy(f->u64pool + ps->n_u64, get_bytes(c, 8 * nr), 8 * nr);
	*at = ps->n_u64;
	ps->n_u64 += nr;
	return 0;
}

static int push_sample(struct parser *ps, const struct perfdata_rd_sample *s, size_t cc_at,
		       size_t br_at, size_t rg_at)
{
	struct perfdata_file *f = ps->f;
	uint32_t space;
	if (space_of(ps, s->pid, 0, &space) ||
	    grow((void **)&f->samples, &ps->cap_samples, f->nsamples + 1, sizeof(*s)) ||
	    grow((void **)&ps->cc_at, &ps->cap_cc_at, f->nsamples + 1, sizeof(size_t)) ||
	    grow((void **)&ps->br_at, &ps->cap_br_at, f->nsamples + 1, sizeof(size_t)) ||
	    grow((void **)&ps->rg_at, &ps->cap_rg_at, f->nsamples + 1, sizeof(size_t)))
		return nomem(ps);
	ps->cc_at[f->nsamples] = cc_at;
	ps->br_at[f->nsamples] = br_at;
	ps->rg_at[f->nsamples] = rg_at;
	f->samples[f->nsamples] = *s;
	f->samples[f->nsamples++].space = space;
	f->events[s->event].nsamples++;
	f->events[s->event].total_period += s->period;
	return 0;
}

/* PERF_RECORD_SAMPLE fields in sample_type order (perf_event.h); what
 * follows STACK_USER is not needed and not parsed. */
static int parse_sample(struct parser *ps, const struct perf_event_header *h, struct cur c)
{
	struct perfdata_file *f = ps->f;
	int ev = sample_event(f, c);
	if (ev < 0) {
		f->nunknown++;
		return 0;
	}
	const struct perfdata_rd_event *e = &f->events[ev];
	uint64_t st = e->sample_type;
	struct perfdata_rd_sample s;
	memset(&s, 0, sizeof(s));
	s.event = (unsigned)ev;
	s.misc = h->misc;
	s.period = 1;
	if (st & PERF_SAMPLE_IDENTIFIER)
		s.id = get_u64(&c);
	if (st & PERF_SAMPLE_IP)
		s.ip = get_u64(&c);
	if (st & PERF_SAMPLE_TID) {
		s.pid = get_u32(&c);
		s.tid = get_u32(&c);
	}
	if (st & PERF_SAMPLE_TIME)
		s.time = get_u64(&c);
	if (st & PERF_SAMPLE_ADDR)
		get_u64(&c);
	if (st & PERF_SAMPLE_ID)
		s.id = get_u64(&c);
	if (st & PERF_SAMPLE_STREAM_ID)
		get_u64(&c);
	if (st & PERF_SAMPLE_CPU) {
		s.cpu = get_u32(&c);
		get_u32(&c);
	}
	if (st & PERF_SAMPLE_PERIOD)
		s.period = get_u64(&c);
	uint64_t rv[PERFDATA_MAX_EVENTS][2];
	int nread = 0;
	if (st & PERF_SAMPLE_READ) {
		nread = get_read(&c, e->read_format, rv, PERFDATA_MAX_EVENTS);
		if (nread < 0)
			c.bad = 1;
	}
	size_t cc_at = 0, br_at = 0, rg_at = 0;
	if (st & PERF_SAMPLE_CALLCHAIN) {
		uint64_t nr = get_u64(&c);
		if (pool_u64(ps, &c, nr, &cc_at))
			return -1;
		s.nr_callchain = c.bad ? 0 : (uint32_t)nr;
	}
	if (st & PERF_SAMPLE_RAW) {
		uint32_t n = get_u32(&c);
		get_bytes(&c, n);
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		uint64_t nr = get_u64(&c);
		if (e->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			get_u64(&c);
		if (nr > (uint64_t)(c.end - c.p) / 24)
			c.bad = 1;
		else if (nr) {
			if (grow((void **)&f->brpool, &ps->cap_br, ps->n_br + nr, sizeof(*f->brpool)))
				return nomem(ps);
			br_at = ps->n_br;
			for (uint64_t i = 0; i < nr; i++) {
				struct perfdata_branch *b = &f->brpool[ps->n_br++];
				memset(b, 0, sizeof(*b));
				b->from = get_u64(&c);
				b->to = get_u64(&c);
				perfdata_branch_unflags(get_u64(&c), b);
			}
			s.nr_branches = (uint32_t)nr;
		}
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		/* abi 0 (PERF_SAMPLE_REGS_ABI_NONE): no registers follow */
		if (get_u64(&c)) {
			uint64_t nr = (uint64_t)__builtin_popcountll(e->sample_regs_user);
			if (pool_u64(ps, &c, nr, &rg_at))
				return -1;
			s.nr_regs = (uint32_t)nr;
		}
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		uint64_t size = get_u64(&c);
		const uint8_t *data = get_bytes(&c, size);
		/* dyn_size: how much of the copy is the stack (after size) */
		uint64_t dyn = size ? get_u64(&c) : 0;
		s.stack = data;
		s.stack_size = dyn < size ? dyn : size;
	}
	if (c.bad) {
		perfdata_errf(ps->err, ps->errlen, "sample record shorter than its sample_type 0x%llx",
		     (unsigned long long)st);
		return -1;
	}
	if (!(st & PERF_SAMPLE_READ))
		return push_sample(ps, &s, cc_at, br_at, rg_at);
	/* leader sampling (perf record -e '{a,b}:S'), as perf's
	 * deliver_sample_value: each counter read gives its event a sample
	 * whose period is what it counted since its last read */
	for (int i = 0; i < nread; i++) {
		int k = nread == 1 && rv[i][1] == ~0ull ? ev : event_of_id(f, rv[i][1]);
		if (k < 0)
			continue;
		uint64_t d = rv[i][0] - ps->last_read[k];
		ps->last_read[k] = rv[i][0];
		if (!d)
			continue;
		struct perfdata_rd_sample m = s;
		m.event = (unsigned)k;
		m.period = d;
		if (push_sample(ps, &m, cc_at, br_at, rg_at))
			return -1;
	}
	return 0;
}

/* A NUL-terminated name inside [p, end). */
static char *dup_name(const uint8_t *p, const uint8_t *end)
{
	if (!p || p >= end)
		return NULL;
	const uint8_t *z = memchr(p, 0, (size_t)(end - p));
	if (!z)
		return NULL;
	return strdup((const char *)p);
}

static int parse_mmap(struct parser *ps, const struct perf_event_header *h, struct cur c)
{
	struct perfdata_file *f = ps->f;
	struct perfdata_rd_mmap m;
	memset(&m, 0, sizeof(m));
	m.pid = get_u32(&c);
	m.tid = get_u32(&c);
	m.addr = get_u64(&c);
	m.len = get_u64(&c);
	m.pgoff = get_u64(&c);
	m.prot = PROT_READ | PROT_EXEC;
	if (h->type == PERF_RECORD_MMAP2) {
		get_bytes(&c, 24);      /* maj/min/ino/ino_generation or build id */
		m.prot = get_u32(&c);
		get_u32(&c);            /* flags */
	}
	if (c.bad || !(m.path = dup_name(c.p, c.end))) {
		perfdata_errf(ps->err, ps->errlen, "malformed %s record", h->type == PERF_RECORD_MMAP2
		     ? "MMAP2" : "MMAP");
		free(m.path);
		return -1;
	}
	if (space_of(ps, m.pid, 0, &m.space) ||
	    grow((void **)&f->mmaps, &ps->cap_mmaps, f->nmmaps + 1, sizeof(m))) {
		free(m.path);
		return nomem(ps);
	}
	f->mmaps[f->nmmaps++] = m;
	return 0;
}

static int parse_comm(struct parser *ps, const struct perf_event_header *h, struct cur c)
{
	struct perfdata_file *f = ps->f;
	struct perfdata_rd_comm m;
	memset(&m, 0, sizeof(m));
	m.pid = get_u32(&c);
	m.tid = get_u32(&c);
	char *name = c.bad ? NULL : dup_name(c.p, c.end);
	if (!name) {
		perfdata_errf(ps->err, ps->errlen, "malformed COMM record");
		return -1;
	}
	snprintf(m.name, sizeof(m.name), "%s", name);
	free(name);
	m.seq = f->nsamples;
	uint32_t space;   /* an exec: the mappings that follow are a new space's */
	if ((h->misc & PERF_RECORD_MISC_COMM_EXEC) && space_of(ps, m.pid, 1, &space))
		return -1;
	if (grow((void **)&f->comms, &ps->cap_comms, f->ncomms + 1, sizeof(m)))
		return nomem(ps);
	f->comms[f->ncomms++] = m;
	return 0;
}

/* PERF_RECORD_FORK: the new task has its maker's name (as perf's
 * thread__fork), and a new process its maker's mappings until it execs. */
static int parse_fork(struct parser *ps, struct cur c)
{
	struct perfdata_file *f = ps->f;
	uint32_t pid = get_u32(&c), ppid = get_u32(&c), tid = get_u32(&c), ptid = get_u32(&c);
	if (c.bad) {
		perfdata_errf(ps->err, ps->errlen, "malformed FORK record");
		return -1;
	}
	const struct perfdata_rd_comm *from = NULL;
	for (size_t i = f->ncomms; i-- > 0 && !from;)
		if (f->comms[i].tid == ptid)
			from = &f->comms[i];
	if (from) {
		struct perfdata_rd_comm m = *from;
		m.pid = pid, m.tid = tid, m.seq = f->nsamples;
		if (grow((void **)&f->comms, &ps->cap_comms, f->ncomms + 1, sizeof(m)))
			return nomem(ps);
		f->comms[f->ncomms++] = m;
	}
	uint32_t from_space, space;
	if (pid == ppid)
		return 0;   /* a thread: its process's space */
	if (space_of(ps, ppid, 0, &from_space) || space_of(ps, pid, 0, &space))
		return -1;
	for (size_t i = 0, n = f->nmmaps; i < n; i++) {
		if (f->mmaps[i].space != from_space)
			continue;
		struct perfdata_rd_mmap m = f->mmaps[i];
		m.pid = m.tid = pid;
		m.space = space;
		if (!(m.path = strdup(m.path)) ||
		    grow((void **)&f->mmaps, &ps->cap_mmaps, f->nmmaps + 1, sizeof(m))) {
			free(m.path);
			return nomem(ps);
		}
		f->mmaps[f->nmmaps++] = m;
	}
	return 0;
}

static int feat_build_id(struct parser *ps, struct cur c);
static int parse_feature(struct parser *ps, int feat, struct cur c);

/* perf's pipe format: the attrs, features and build ids are records
 * among the others (tools/perf/util/header.c, "pipe-mode") */
static int parse_pipe_record(struct parser *ps, const struct perf_event_header *h,
			     struct cur r, struct cur *c)
{
	struct cur whole = { r.p - sizeof(*h), r.end, 0 };
	switch (h->type) {
	case PERFDATA_RECORD_HEADER_ATTR: {
		uint32_t asz;
		if (r.end - r.p < 8)
			return -1;
		memcpy(&asz, r.p + 4, 4);
		if (asz < PERF_ATTR_SIZE_VER0 || asz > (uint64_t)(r.end - r.p) ||
		    (r.end - r.p - asz) % 8)
			return -1;
		return add_event(ps, r.p, asz, r.p + asz, (uint64_t)(r.end - r.p - asz) / 8);
	}
	case PERFDATA_RECORD_HEADER_FEATURE: {
		uint64_t feat = get_u64(&r);
		return r.bad || feat >= 256 ? -1 : parse_feature(ps, (int)feat, r);
	}
	case PERF_RECORD_HEADER_BUILD_ID:
		return feat_build_id(ps, whole);
	case PERFDATA_RECORD_HEADER_TRACING_DATA: {
		/* its payload follows the record, 8-byte aligned */
		uint32_t n = get_u32(&r);
		get_bytes(c, ((uint64_t)n + 7) & ~7ull);
		return r.bad || c->bad ? -1 : 0;
	}
	case PERFDATA_RECORD_AUXTRACE: {
		uint64_t n = get_u64(&r);
		get_bytes(c, n);
		return r.bad || c->bad ? -1 : 0;
	}
	}
	return 0;
}

static int parse_data(struct parser *ps, const uint8_t *img, uint64_t off, uint64_t size)
{
	struct cur c = { img + off, img + off + size, 0 };
	while (c.p < c.end) {
		uint64_t at = (uint64_t)(c.p - img);
		if (c.end - c.p < (ptrdiff_t)sizeof(struct perf_event_header)) {
			perfdata_errf(ps->err, ps->errlen, "record header at offset %llu cut short",
			     (unsigned long long)at);
			return -1;
		}
		struct perf_event_header h;
		memcpy(&h, c.p, sizeof(h));
		if (h.size < sizeof(h) || h.size > c.end - c.p) {
			perfdata_errf(ps->err, ps->errlen, "record at offset %llu has bad size %u",
			     (unsigned long long)at, h.size);
			return -1;
		}
		struct cur r = { c.p + sizeof(h), c.p + h.size, 0 };
		c.p += h.size;
		ps->f->nrecords++;
		int rc = 0;
		switch (h.type) {
		case PERF_RECORD_SAMPLE:
			rc = parse_sample(ps, &h, r);
			break;
		case PERF_RECORD_MMAP:
		case PERF_RECORD_MMAP2:
			rc = parse_mmap(ps, &h, r);
			break;
		case PERF_RECORD_COMM:
			rc = parse_comm(ps, &h, r);
			break;
		case PERF_RECORD_FORK:
			rc = parse_fork(ps, r);
			break;
		case PERF_RECORD_LOST:
			get_u64(&r);
			ps->f->lost += get_u64(&r);
			break;
		default:
			/* FINISHED_ROUND, EXIT, ...: nothing to keep */
			if (ps->f->pipe && parse_pipe_record(ps, &h, r, &c)) {
				if (!ps->err[0])
					perfdata_errf(ps->err, ps->errlen, "malformed pipe-mode record of "
						      "type %u", h.type);
				rc = -1;
			}
			break;
		}
		if (rc) {
			size_t n = strlen(ps->err);
			if (n + 1 < ps->errlen)
				snprintf(ps->err + n, ps->errlen - n, " (record at offset %llu)",
					 (unsigned long long)at);
			return -1;
		}
	}
	return 0;
}

static int feat_build_id(struct parser *ps, struct cur c)
{
	struct perfdata_file *f = ps->f;
	while (c.p < c.end) {
		struct perf_event_header h;
		const uint8_t *rec = get_bytes(&c, sizeof(h));
		if (!rec)
			return -1;
		memcpy(&h, rec, sizeof(h));
		if (h.size < sizeof(h) + 4 + 24 || h.size - sizeof(h) > (size_t)(c.end - c.p))
			return -1;
		struct cur r = { c.p, c.p + h.size - sizeof(h), 0 };
		c.p = r.end;
		get_u32(&r);            /* pid */
		const uint8_t *id = get_bytes(&r, 24);
		char *path = dup_name(r.p, r.end);
		if (!id || !path) {
			free(path);
			return -1;
		}
		if (grow((void **)&f->buildids, &ps->cap_bid, f->nbuildids + 1, sizeof(*f->buildids))) {
			free(path);
			return -1;
		}
		struct perfdata_buildid *b = &f->buildids[f->nbuildids++];
		memcpy(b->id, id, 20);
		b->len = (h.misc & PERFDATA_MISC_BUILD_ID_SIZE) && id[20] <= 20 ? id[20] : 20;
		b->path = path;
	}
	return 0;
}

static int feat_cmdline(struct perfdata_file *f, struct cur c)
{
	uint32_t nr = get_u32(&c);
	if (c.bad || nr > 4096)
		return -1;
	size_t total = 1;
	char *out = calloc(1, 1);
	for (uint32_t i = 0; i < nr && out; i++) {
		char arg[4096];
		if (get_string(&c, arg, sizeof(arg))) {
			free(out);
			return -1;
		}
		size_t n = strlen(arg);
		char *o = realloc(out, total + n + 1);
		if (!o) {
			free(out);
			return -1;
		}
		out = o;
		if (i)
			strcat(out, " ");
		strcat(out, arg);
		total += n + 1;
	}
	if (!out)
		return -1;
	free(f->cmdline);
	f->cmdline = out;
	return 0;
}

static int feat_event_desc(struct perfdata_file *f, struct cur c)
{
	uint32_t nr = get_u32(&c), asz = get_u32(&c);
	if (c.bad || nr > PERFDATA_MAX_EVENTS || asz < PERF_ATTR_SIZE_VER0 || asz > 4096)
		return -1;
	for (uint32_t i = 0; i < nr; i++) {
		if (!get_bytes(&c, asz))
			return -1;
		uint32_t nids = get_u32(&c);
		char name[64];
		if (c.bad || get_string(&c, name, sizeof(name)))
			return -1;
		int ev = -1;
		for (uint32_t k = 0; k < nids; k++) {
			uint64_t id = get_u64(&c);
			if (c.bad)
				return -1;
			if (ev < 0)
				ev = event_of_id(f, id);
		}
		if (ev < 0 && i < f->nevents && !nids)
			ev = (int)i;
		if (ev >= 0)
			snprintf(f->events[ev].name, sizeof(f->events[ev].name), "%s", name);
	}
	return 0;
}

/* u32 groups, then per group: name, leader index, members (the leader
 * included), as perf writes HEADER_GROUP_DESC */
static int feat_group_desc(struct perfdata_file *f, struct cur c)
{
	uint32_t n = get_u32(&c);
	for (uint32_t g = 0; g < n && !c.bad; g++) {
		if (get_string(&c, NULL, 0))
			return -1;
		uint32_t lead = get_u32(&c), nr = get_u32(&c);
		if (c.bad || lead >= f->nevents || nr > f->nevents - lead)
			return -1;
		for (uint32_t k = 0; k < nr; k++)
			f->events[lead + k].leader = (int)lead;
	}
	return c.bad ? -1 : 0;
}

static int parse_feature(struct parser *ps, int feat, struct cur c)
{
	struct perfdata_file *f = ps->f;
	switch (feat) {
	case HEADER_BUILD_ID:
		return feat_build_id(ps, c);
	case HEADER_HOSTNAME:
		return get_string(&c, f->hostname, sizeof(f->hostname));
	case HEADER_OSRELEASE:
		return get_string(&c, f->osrelease, sizeof(f->osrelease));
	case HEADER_VERSION:
		return get_string(&c, f->version, sizeof(f->version));
	case HEADER_ARCH:
		return get_string(&c, f->arch, sizeof(f->arch));
	case HEADER_CPUDESC:
		return get_string(&c, f->cpudesc, sizeof(f->cpudesc));
	case HEADER_NRCPUS:
		f->nr_cpus_avail = get_u32(&c);
		f->nr_cpus_online = get_u32(&c);
		return c.bad ? -1 : 0;
	case HEADER_CMDLINE:
		return feat_cmdline(f, c);
	case HEADER_EVENT_DESC:
		return feat_event_desc(f, c);
	case HEADER_SAMPLE_TIME:
		f->first_time = get_u64(&c);
		f->last_time = get_u64(&c);
		return c.bad ? -1 : 0;
	case HEADER_GROUP_DESC:
		return feat_group_desc(f, c);
	default:
		return 0;       /* unknown or unneeded: skipped */
	}
}

static int parse_features(struct parser *ps, const uint8_t *img, size_t len,
			  const uint64_t bits[4], uint64_t at)
{
	static const char *const names[] = {
		[HEADER_BUILD_ID] = "BUILD_ID", [HEADER_HOSTNAME] = "HOSTNAME",
		[HEADER_OSRELEASE] = "OSRELEASE", [HEADER_VERSION] = "VERSION",
		[HEADER_ARCH] = "ARCH", [HEADER_NRCPUS] = "NRCPUS",
		[HEADER_CMDLINE] = "CMDLINE", [HEADER_EVENT_DESC] = "EVENT_DESC",
		[HEADER_GROUP_DESC] = "GROUP_DESC", [HEADER_SAMPLE_TIME] = "SAMPLE_TIME",
	};
	for (int feat = 1; feat < 256; feat++) {
		if (!(bits[feat / 64] >> (feat % 64) & 1))
			continue;
		if (!in_image(at, 16, len)) {
			perfdata_errf(ps->err, ps->errlen, "feature section table past the end of the file (truncated?)");
			return -1;
		}
		uint64_t off, size;
		memcpy(&off, img + at, 8);
		memcpy(&size, img + at + 8, 8);
		at += 16;
		if (!in_image(off, size, len)) {
			perfdata_errf(ps->err, ps->errlen, "feature %d section outside the file (truncated?)", feat);
			return -1;
		}
		struct cur c = { img + off, img + off + size, 0 };
		if (parse_feature(ps, feat, c)) {
			const char *n = feat < (int)(sizeof(names) / sizeof(names[0])) && names[feat]
				? names[feat] : "?";
			if (!ps->err[0])
				perfdata_errf(ps->err, ps->errlen, "malformed HEADER_%s feature section", n);
			return -1;
		}
	}
	return 0;
}

int perfdata_parse(const void *buf, size_t len, struct perfdata_file *f, char *err, size_t errlen)
{
	static char dummy[1];
	if (!err || !errlen) {
		err = dummy;
		errlen = sizeof(dummy);
	}
	err[0] = 0;
	memset(f, 0, sizeof(*f));
	const uint8_t *img = buf;
	if (len < 16) {
		perfdata_errf(err, errlen, "too short for a perf.data header (%zu bytes)", len);
		return -1;
	}
	if (!memcmp(img, "2ELIFREP", 8)) {
		perfdata_errf(err, errlen, "perf.data of the other byte order is not supported");
		return -1;
	}
	if (memcmp(img, "PERFILE2", 8)) {
		perfdata_errf(err, errlen, memcmp(img, "PERFFILE", 8) ? "not a perf.data file (bad magic)"
		     : "perf.data version 1 (PERFFILE) is not supported");
		return -1;
	}
	uint64_t hsize;
	memcpy(&hsize, img + 8, 8);
	struct parser ps = { .f = f, .err = err, .errlen = errlen };
	int rc;
	if (hsize == PERFDATA_PIPE_HEADER_SIZE) {
		/* perf's pipe format: records from the 16-byte header on */
		f->pipe = 1;
		rc = parse_data(&ps, img, 16, len - 16);
		if (!rc && !f->nevents) {
			perfdata_errf(err, errlen, "pipe-mode data without a HEADER_ATTR record");
			rc = -1;
		}
		goto done;
	}
	if (hsize != PERFDATA_HEADER_SIZE || len < PERFDATA_HEADER_SIZE) {
		perfdata_errf(err, errlen, "%s", len < PERFDATA_HEADER_SIZE ? "file header cut short"
		     : "unsupported perf.data header size");
		return -1;
	}
	uint64_t h[13];
	memcpy(h, img, sizeof(h));
	uint64_t attr_size = h[2], attrs_off = h[3], attrs_size = h[4];
	uint64_t data_off = h[5], data_size = h[6];
	memcpy(f->feat_bits, img + 72, sizeof(f->feat_bits));
	f->data_offset = data_off;
	f->data_size = data_size;
	f->feat_offset = data_off + data_size;
	rc = parse_attrs(&ps, img, len, attr_size, attrs_off, attrs_size);
	if (!rc && !in_image(data_off, data_size, len)) {
		perfdata_errf(err, errlen, "data section outside the file (truncated?)");
		rc = -1;
	}
	if (!rc)
		rc = parse_data(&ps, img, data_off, data_size);
	if (!rc)
		rc = parse_features(&ps, img, len, f->feat_bits, data_off + data_size);
done:
	if (!rc) {
		for (size_t i = 0; i < f->nsamples; i++) {
			struct perfdata_rd_sample *s = &f->samples[i];
			s->callchain = s->nr_callchain ? f->u64pool + ps.cc_at[i] : NULL;
			s->branches = s->nr_branches ? f->brpool + ps.br_at[i] : NULL;
			s->regs = s->nr_regs ? f->u64pool + ps.rg_at[i] : NULL;
		}
	}
	free(ps.cc_at);
	free(ps.br_at);
	free(ps.rg_at);
	free(ps.sp_pid);
	free(ps.sp_id);
	if (rc) {
		if (!err[0])
			perfdata_errf(err, errlen, "malformed perf.data");
		perfdata_file_free(f);
	}
	return rc;
}

int perfdata_read(const char *path, struct perfdata_file *f, char *err, size_t errlen)
{
	memset(f, 0, sizeof(*f));
	int in = !strcmp(path, "-");
	const char *name = in ? "standard input" : path;
	int fd = in ? 0 : open(path, O_RDONLY);
	if (fd < 0) {
		perfdata_errf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) || (!in && !S_ISREG(st.st_mode))) {
		perfdata_errf(err, errlen, "%s: not a regular file", path);
		close(fd);
		return -1;
	}
	/* a pipe has no size: read until its end */
	size_t cap = S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : 1 << 20, got = 0;
	uint8_t *buf = malloc(cap);
	for (ssize_t n = 1; buf && n > 0;) {
		if (got == cap) {
			uint8_t *b = realloc(buf, cap *= 2);
			if (!b) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = b;
		}
		n = read(fd, buf + got, cap - got);
		if (n < 0 && errno == EINTR)
			n = 1;
		else if (n > 0)
			got += (size_t)n;
	}
	if (!in)
		close(fd);
	if (!buf) {
		perfdata_errf(err, errlen, "%s: out of memory", name);
		return -1;
	}
	char why[256];
	int rc = perfdata_parse(buf, got, f, why, sizeof(why));
	if (rc) {
		perfdata_errf(err, errlen, "%s: %s", name, why);
		free(buf);
	} else {
		f->image = buf;  /* the user stacks of samples point into it */
	}
	return rc;
}

void perfdata_file_free(struct perfdata_file *f)
{
	for (unsigned i = 0; i < f->nevents; i++) {
		free(f->events[i].ids);
		free(f->events[i].attr);
	}
	for (size_t i = 0; i < f->nmmaps; i++)
		free(f->mmaps[i].path);
	for (size_t i = 0; i < f->nbuildids; i++)
		free(f->buildids[i].path);
	free(f->events);
	free(f->samples);
	free(f->mmaps);
	free(f->comms);
	free(f->buildids);
	free(f->cmdline);
	free(f->u64pool);
	free(f->brpool);
	free(f->image);
	memset(f, 0, sizeof(*f));
}
