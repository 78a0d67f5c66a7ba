/* rvpmu script: one line per sample as perf script prints it
 * (tools/perf/builtin-script.c, util/evsel_fprintf.c): by default comm,
 * tid, cpu, time, period, event, ip, sym+off and dso, the call chain
 * under the line when the file has one; -F picks the fields. */
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hist.h"
#include "rvpmu/isa.h"

static const char *const names[SF_N] = {
	[SF_COMM] = "comm", [SF_TID] = "tid", [SF_PID] = "pid", [SF_TIME] = "time",
	[SF_CPU] = "cpu", [SF_PERIOD] = "period", [SF_EVENT] = "event", [SF_IP] = "ip",
	[SF_SYM] = "sym", [SF_SYMOFF] = "symoff", [SF_DSO] = "dso", [SF_SRCLINE] = "srcline",
	[SF_BRSTACK] = "brstack", [SF_BRSTACKSYM] = "brstacksym", [SF_CALLINDENT] = "callindent",
	[SF_INSN] = "insn",
};

#define F(x) (1u << SF_##x)
#define DEFAULT_FIELDS (F(COMM) | F(TID) | F(CPU) | F(TIME) | F(PERIOD) | F(EVENT) | F(IP) | \
			F(SYM) | F(SYMOFF) | F(DSO))

int script_parse_fields(const char *v, unsigned *fields, char *err, size_t errlen)
{
	*fields = 0;
	for (const char *p = v; ; ) {
		size_t len = strcspn(p, ",");
		int k = -1;
		for (int i = 0; i < SF_N && k < 0; i++)
			if (strlen(names[i]) == len && !strncmp(names[i], p, len))
				k = i;
		if (k < 0) {
			snprintf(err, errlen, "-F: unknown field '%.*s' (use comm, tid, pid, time, cpu, "
				 "period, event, ip, sym, symoff, dso, srcline, brstack, brstacksym, "
				 "callindent, insn)", (int)len, p);
			return -1;
		}
		*fields |= 1u << k;
		if (!p[len])
			break;
		p += len + 1;
	}
	/* perf's checks (builtin-script.c, evsel__check_attr) */
	if ((*fields & F(SYMOFF)) && !(*fields & F(SYM))) {
		snprintf(err, errlen, "-F: symoff needs sym (display of offsets requested but "
			 "symbol is not selected)");
		return -1;
	}
	if ((*fields & (F(SYM) | F(DSO) | F(SRCLINE))) && !(*fields & F(IP))) {
		snprintf(err, errlen, "-F: sym, dso and srcline need ip");
		return -1;
	}
	return 0;
}

/* "sym+0xoff" (perf's __symbol__fprintf_symname_offs) or "[unknown]" */
static void put_sym(FILE *out, const struct frame *fr, int off)
{
	if (!fr || !fr->l.sym)
		fputs("[unknown]", out);
	else if (off)
		fprintf(out, "%s+0x%llx", fr->l.sym, (unsigned long long)fr->l.off);
	else
		fputs(fr->l.sym, out);
}

static const char *branch_type(unsigned t)
{
	static const char *const n[] = { "", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET",
					 "SYSCALL", "SYSRET", "COND_CALL", "COND_RET", "ERET", "IRQ" };
	return t < sizeof(n) / sizeof(n[0]) ? n[t] : "";
}

static void brstack(FILE *out, struct frames *fs, const struct perfdata_rd_sample *s, unsigned fl)
{
	for (uint32_t i = 0; i < s->nr_branches; i++) {
		const struct perfdata_branch *b = &s->branches[i];
		const struct frame *from = frame_get(fs, s->space, b->from, sample_is_kernel(s));
		const struct frame *to = frame_get(fs, s->space, b->to, sample_is_kernel(s));
		if (fl & F(BRSTACKSYM)) {
			put_sym(out, from, 1);
			if (fl & F(DSO))
				fprintf(out, "(%s)", from ? loc_dso_long(&from->l) : "[unknown]");
			fputc('/', out);
			put_sym(out, to, 1);
			if (fl & F(DSO))
				fprintf(out, "(%s)", to ? loc_dso_long(&to->l) : "[unknown]");
		} else {
			fprintf(out, " 0x%llx", (unsigned long long)b->from);
			if (fl & F(DSO))
				fprintf(out, "(%s)", from ? loc_dso_long(&from->l) : "[unknown]");
			fprintf(out, "/0x%llx", (unsigned long long)b->to);
			if (fl & F(DSO))
				fprintf(out, "(%s)", to ? loc_dso_long(&to->l) : "[unknown]");
		}
		fprintf(out, "/%c/-/-/%d/%s ", !(b->mispred || b->predicted) ? '-' : b->predicted ? 'P' : 'M',
			b->cycles, branch_type(b->type));
	}
}

/* rvpmu's own: the sampled instruction's bytes (as perf's insn field
 * prints them) and its disassembly */
static void insn(FILE *out, const struct frame *fr)
{
	uint8_t b[4];
	if (!fr->l.have_addr || sym_read(fr->l.elf, fr->l.addr, b, 2))
		return;
	unsigned len = (unsigned)insn_length((uint16_t)(b[0] | b[1] << 8));
	if (len == 4 && sym_read(fr->l.elf, fr->l.addr, b, 4))
		return;
	uint32_t raw = b[0] | b[1] << 8 | (len == 4 ? (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24 : 0);
	char text[128];
	insn_disasm(text, sizeof(text), raw, fr->l.addr);
	fputs(" insn:", out);
	for (unsigned i = 0; i < len; i++)
		fprintf(out, " %02x", b[i]);
	fprintf(out, "  %s", text);
}

struct script {
	const struct script_opts *o;
	const struct perfdata_file *f;
	struct frames fs;
	int name_width, spacing;
};

static void sample_line(struct script *sc, const struct perfdata_rd_sample *s, FILE *out)
{
	const struct perfdata_rd_event *e = &sc->f->events[s->event];
	unsigned fl = sc->o->fields ? sc->o->fields : DEFAULT_FIELDS;
	int chains = (e->sample_type & (PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_STACK_USER)) &&
		     (fl & F(IP));
	struct frame *fr[CHAIN_MAX];
	int max = sc->o->max_stack > 0 && sc->o->max_stack < CHAIN_MAX ? sc->o->max_stack : CHAIN_MAX;
	int n = sample_chain(&sc->fs, sc->f, s, fr, max);
	struct frame *self = frame_get(&sc->fs, s->space, s->ip, sample_is_kernel(s));
	if (fl & F(COMM)) {
		char buf[32];
		const char *c = resolver_comm(sc->f, s, buf, sizeof(buf));
		fprintf(out, chains ? "%s " : "%16s ", c);
	}
	if ((fl & F(PID)) && (fl & F(TID)))
		fprintf(out, "%5u/%-5u ", s->pid, s->tid);
	else if (fl & F(PID))
		fprintf(out, "%5u ", s->pid);
	else if (fl & F(TID))
		fprintf(out, "%5u ", s->tid);
	if (fl & F(CPU))
		fprintf(out, "[%03u] ", s->cpu);
	if (fl & F(TIME)) {
		char t[32];
		snprintf(t, sizeof(t), "%llu.%06llu", (unsigned long long)(s->time / 1000000000u),
			 (unsigned long long)(s->time % 1000000000u / 1000u));
		fprintf(out, "%12s: ", t);
	}
	if (fl & F(PERIOD))
		fprintf(out, "%10llu ", (unsigned long long)s->period);
	if (fl & F(EVENT))
		fprintf(out, "%*s: ", sc->name_width, e->name);
	if ((fl & F(CALLINDENT)) && self) {
		/* perf indents by its traced call depth; rvpmu by the chain's */
		int len = fprintf(out, "%*s", (n > 1 ? n - 1 : 0) * 4, "");
		len += fprintf(out, "%s", frame_sym(self));
		if (len > sc->spacing || (len && len < sc->spacing - 52))
			sc->spacing = (len + 4 + 31) / 32 * 32;
		if (len < sc->spacing)
			fprintf(out, "%*s", sc->spacing - len, "");
	}
	if (fl & F(IP)) {
		fputc(chains ? '\n' : ' ', out);
		for (int i = 0; i < (chains ? n : 1); i++) {
			const struct frame *c = chains ? fr[i] : self;
			if (!c)
				continue;
			/* a chain shows file offsets for user addresses, as perf */
			if (chains)
				fprintf(out, "\t%16llx", (unsigned long long)(c->l.kernel ? c->l.ip : c->l.map_ip));
			else
				fprintf(out, "%16llx", (unsigned long long)s->ip);
			if (fl & F(SYM)) {
				fputc(' ', out);
				put_sym(out, c, fl & F(SYMOFF));
			}
			if (fl & F(DSO))
				fprintf(out, " (%s)", loc_dso_long(&c->l));
			if ((fl & F(SRCLINE)) && c->l.have_addr) {
				char line[1024];
				if (!loc_srcline(&c->l, line, sizeof(line)))
					fprintf(out, "\n  %s", line);
			}
			if (chains)
				fputc('\n', out);
		}
	}
	if (fl & (F(BRSTACK) | F(BRSTACKSYM)))
		brstack(out, &sc->fs, s, fl);
	if ((fl & F(INSN)) && self)
		insn(out, self);
	fputc('\n', out);
}

int script_main(const struct script_opts *o)
{
	struct perfdata_file f;
	struct resolver r;
	char err[512];
	FILE *out = o->out ? o->out : stdout;
	if (perfdata_read(o->input, &f, err, sizeof(err))) {
		fprintf(stderr, "rvpmu script: %s\n", err);
		return 1;
	}
	struct script sc = { .o = o, .f = &f };
	for (unsigned i = 0; i < f.nevents; i++) {
		int w = (int)strlen(f.events[i].name);
		if (w > sc.name_width)
			sc.name_width = w;
	}
	resolver_init(&r, &f, o->symfs, !o->no_demangle, "script");
	frames_init(&sc.fs, &r);
	/* in time order, as perf's ordered events deliver them */
	size_t *order = malloc((f.nsamples + 1) * sizeof(*order));
	int rc = order ? 0 : 1;
	if (order) {
		for (size_t i = 0; i < f.nsamples; i++)
			order[i] = i;
		for (size_t i = 1; i < f.nsamples; i++) {  /* stable: the file is nearly sorted */
			size_t k = order[i], j = i;
			for (; j && f.samples[order[j - 1]].time > f.samples[k].time; j--)
				order[j] = order[j - 1];
			order[j] = k;
		}
		for (size_t i = 0; i < f.nsamples; i++)
			sample_line(&sc, &f.samples[order[i]], out);
	} else {
		fprintf(stderr, "rvpmu script: out of memory\n");
	}
	free(order);
	frames_free(&sc.fs);
	resolver_free(&r);
	perfdata_file_free(&f);
	if (fflush(out) || ferror(out))
		rc = 1;
	return rc;
}
