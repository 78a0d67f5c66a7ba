/* Record checker shared by the tests/ctr-guest programs (ctr.h). */
#include "ctr.h"

int check_recs(int n, const char *what, const struct rec *exp, int cnt)
{
	unsigned depth = 16u << (csrr(CSR_SCTRDEPTH) & 7);
	for (int k = 0; k < cnt && k < (int)depth; k++) {
		const struct rec *e = &exp[cnt - 1 - k];
		u64 s = ent(k, 1), t = ent(k, 2), d = ent(k, 3);
		u64 got = s, want = e->src | CTR_V;
		const char *f = "ctrsource";
		if (s == want) {
			got = t, want = e->tgt, f = "ctrtarget";
			if (t == want)
				got = d & D_TYPE, want = e->type, f = "ctrdata.TYPE";
		}
		if (got != want) {
			rt_puts("info logical entry ");
			rt_putdec(k);
			rt_puts(" ");
			rt_puts(f);
			rt_puts("\n");
			return rt_check(n, what, 0, got, want);
		}
	}
	if (cnt < (int)depth && ent(cnt, 1) != 0) {
		rt_puts("info an extra record at logical entry ");
		rt_putdec(cnt);
		rt_puts("\n");
		return rt_check(n, what, 0, ent(cnt, 1), 0);
	}
	return rt_eq(n, what, wrptr(), (u64)cnt % depth);
}

int filter_recs(struct rec *out, const struct rec *in, int cnt, unsigned drop)
{
	int m = 0;
	for (int i = 0; i < cnt; i++)
		if (!((drop >> in[i].type) & 1))
			out[m++] = in[i];
	return m;
}
